"""A small deterministic random generator (SplitMix64).

Python's ``random`` module is deterministic for a given version, but its shuffle and
``randrange`` algorithms are implementation details. Hands must be identical on every
machine and every Python, so the engine uses this fully specified generator instead.
"""
from __future__ import annotations

from functools import lru_cache
from math import factorial
from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_GAMMA, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


class Rng:
    """SplitMix64: ``Rng(seed)`` gives the same stream everywhere."""

    # ``state``: the 64-bit state, public for the interpreter's compiled shuffle, which draws
    # from it itself (interpreter/shuffle.py).
    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
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
        """A uniform permutation in place, from one uniform integer ``x`` below ``n!``.

        ``x`` is drawn from as few 64-bit words as leave 30 bits to spare (four for 52 cards),
        rejecting values at or above the largest multiple of ``n!`` that fits, so it is exactly
        uniform. Its digits in the factorial base are Fisher-Yates' draws: for ``i`` from the
        end, ``x, j = divmod(x, i + 1)`` and items ``i`` and ``j`` swap. One draw per four
        cards instead of one per card: every hand starts with a shuffle."""
        n = len(items)
        if n < 2:
            return
        x = self.below_factorial(n)
        for i in range(n - 1, 0, -1):
            x, j = divmod(x, i + 1)
            items[i], items[j] = items[j], items[i]

    def below_factorial(self, n: int) -> int:
        """The uniform integer below ``n!`` that :meth:`shuffle` draws for ``n`` items (the
        interpreter's compiled shuffle reads its digits its own way)."""
        words, limit, total = shuffle_plan(n)
        state = self.state
        while True:
            x = 0
            for _ in range(words):
                state = (state + _GAMMA) & _MASK
                z = ((state ^ (state >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                x = (x << 64) | (z ^ (z >> 31))
            if x < limit:
                break
        self.state = state
        return x % total

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def fork(self, index: int) -> "Rng":
        """An independent generator for sub-stream ``index`` (e.g. one per simulated hand)."""
        return Rng(Rng(self.state ^ ((index * 0xD1B54A32D192ED03) & _MASK)).next_u64())


@lru_cache(maxsize=64)
def shuffle_plan(n: int) -> tuple[int, int, int]:
    """(64-bit words to draw, rejection limit, n!) for shuffling ``n`` items."""
    total = factorial(n)
    words = (total.bit_length() + 30 + 63) // 64
    space = 1 << (64 * words)
    return words, space - space % total, total


def derive_seed(master: int, index: int) -> int:
    """The seed of hand ``index`` of a run seeded with ``master``."""
    # Rng(master * golden + index).next_u64(), written out (once per hand).
    z = (master * 0x9E3779B97F4A7C15 + index + _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)
