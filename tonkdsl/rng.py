"""A small deterministic random generator (SplitMix64).

Python's ``random`` module is deterministic for a given version, but its shuffle and
``randrange`` algorithms are implementation details. Hands must be identical on every
machine and every Python, so the engine uses this fully specified generator instead.
"""
from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_GAMMA, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
# below(n) rejects draws at or above the largest multiple of n that fits in 64 bits.
_LIMITS = tuple((1 << 64) - ((1 << 64) % n) if n else 0 for n in range(257))


class Rng:
    """SplitMix64: ``Rng(seed)`` gives the same stream everywhere."""

    __slots__ = ("_state",)

    def __init__(self, seed: int = 0) -> None:
        self._state = seed & _MASK

    def next_u64(self) -> int:
        self._state = (self._state + _GAMMA) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place: ``j = below(i + 1)`` for ``i`` from the end.

        The generator is inlined (the same draws as calling :meth:`below`): every hand starts
        with a shuffle, and this is the simulator's hot path."""
        if len(items) >= len(_LIMITS):
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        state = self._state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n]
            while True:
                state = (state + _GAMMA) & _MASK
                z = ((state ^ (state >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self._state = state

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def fork(self, index: int) -> "Rng":
        """An independent generator for sub-stream ``index`` (e.g. one per simulated hand)."""
        return Rng(Rng(self._state ^ ((index * 0xD1B54A32D192ED03) & _MASK)).next_u64())


def derive_seed(master: int, index: int) -> int:
    """The seed of hand ``index`` of a run seeded with ``master``."""
    return Rng((master * 0x9E3779B97F4A7C15 + index) & _MASK).next_u64()
