"""The interpreter's shuffle: the very permutation of ``Rng.shuffle``, worked out faster compiled.

Every hand starts with a shuffle, and the search bots shuffle the cards they cannot see for each
world they guess (a fifth of a rollout's time in standard went there). ``Rng.shuffle`` (the
language's generator, the reference) draws one integer ``x`` below ``n!`` and reads its digits in
the factorial base one ``divmod`` at a time, on an integer of up to four machine words. Here the
digits are read by groups: ``x`` modulo the product of the next few radices (below 2**62) holds
exactly those digits, so one division of the wide integer gives a remainder whose digits are read
on machine integers. Compiled by mypyc (setup.py) this shuffles 40 cards in 2.6 us against
4.6 us (the search bots' rollouts 6-7% faster, simulations 4-5%); as plain Python it takes a
tenth longer than the reference, under 1% of a hand.

The draw, compiled, is this module's too (:func:`_draw`): the generator's SplitMix64 steps
worked on 32-bit halves, their products on 16-bit pieces, so that every intermediate value fits
the machine integers mypyc keeps unboxed (the generator's own steps, on 64-bit values, make a
Python integer object at each operation: half the shuffle's time). Only the few operations that
join the words into the draw stay on wide integers, and the draw is not reduced modulo ``n!``
(the digits read are the same). With the cards swapped as objects (not unboxed and boxed
again), 40 cards shuffle in 1.6 us against 2.4 us before (the strong bot's rollouts about 8%
faster). As plain Python the generator's own ``Rng.below_factorial`` runs instead (the halves
would be slower there).

tests/test_shuffle.py checks that both give the same permutations and the same draws and leave
the generator in the same state; tests/test_compiled.py that the compiled interpreter deals the
same hands.
"""
from __future__ import annotations

from typing import Final, cast

from tonkdsl.language.rng import Rng, shuffle_plan

# Compiled, this module is a C extension and draws with its own arithmetic (see above).
_NATIVE: Final = not __file__.endswith(".py")

# A group's product of radices stays below 2**62, so its digits are read on the integers mypyc
# keeps in a machine word (its tagged ints), with no allocation.
_GROUP_BELOW: Final = 1 << 62

# For n cards: the groups of radices (their product, the first index, the index after the last),
# from the top card down; then the draw's words and rejection limit (language/rng.py's shuffle_plan).
_plans: dict[int, tuple[tuple[tuple[int, int, int], ...], int, int]] = {}


def _plan(n: int) -> tuple[tuple[int, int, int], ...]:
    groups = []
    i = n - 1
    while i > 0:
        product, top = 1, i
        while i > 0 and product * (i + 1) < _GROUP_BELOW:
            product *= i + 1
            i -= 1
        groups.append((product, top, i))
    return tuple(groups)


def shuffle(rng: Rng, items: list[int]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does, advancing ``rng`` alike:
    the factorial-base digits read by groups (see above)."""
    n = len(items)
    if n < 2:
        return
    plan = _plans.get(n)
    if plan is None:
        words, limit, _ = shuffle_plan(n)
        plan = _plans[n] = (_plan(n), words, limit)
    groups, words, limit = plan
    # Rng.shuffle's draw. Compiled, the draw is not reduced modulo n!: its lowest factorial-base
    # digits, the only ones read below, are those of the reduced draw (n! is their radices' product).
    x = _draw(rng, words, limit) if _NATIVE else rng.below_factorial(n)
    # The cards moved as objects: compiled, a list[int]'s items are unboxed when read and boxed
    # again when written (a tenth of the shuffle).
    cells = cast("list[object]", items)
    for product, top, end in groups:
        x, r = divmod(x, product)
        i = top
        while i > end:  # Fisher-Yates from the top: the digit of radix i + 1 is the card to swap
            radix = i + 1
            j = r % radix
            r = r // radix
            cells[i], cells[j] = cells[j], cells[i]
            i -= 1


# SplitMix64's constants (language/rng.py) cut in 32-bit halves, and the multipliers' 16-bit pieces.
_M32: Final = 0xFFFFFFFF
_GAMMA_HI: Final = 0x9E3779B9
_GAMMA_LO: Final = 0x7F4A7C15
_MIX1_HI0: Final = 0xBF58476D & 0xFFFF
_MIX1_HI1: Final = 0xBF58476D >> 16
_MIX1_LO0: Final = 0x1CE4E5B9 & 0xFFFF
_MIX1_LO1: Final = 0x1CE4E5B9 >> 16
_MIX2_HI0: Final = 0x94D049BB & 0xFFFF
_MIX2_HI1: Final = 0x94D049BB >> 16
_MIX2_LO0: Final = 0x133111EB & 0xFFFF
_MIX2_LO1: Final = 0x133111EB >> 16


def draw_below_factorial(rng: Rng, n: int) -> int:
    """``rng.below_factorial(n)``: the same value, the generator left in the same state, drawn on
    halves as the compiled shuffle draws (see above)."""
    words, limit, total = shuffle_plan(n)
    return _draw(rng, words, limit) % total


def _times(zh: int, zl: int, m_hi0: int, m_hi1: int, m_lo0: int, m_lo1: int) -> tuple[int, int]:
    """(zh, zl) times the multiplier of 16-bit pieces m_hi1 m_hi0 m_lo1 m_lo0, modulo 2**64, on
    halves: the low halves' full product, then each cross product modulo 2**32."""
    l0, l1, h0, h1 = zl & 0xFFFF, zl >> 16, zh & 0xFFFF, zh >> 16
    mid = l1 * m_lo0 + l0 * m_lo1
    low = l0 * m_lo0 + ((mid & 0xFFFF) << 16)
    high = (l1 * m_lo1 + (mid >> 16) + (low >> 32)
            + h0 * m_lo0 + (((h1 * m_lo0 + h0 * m_lo1) & 0xFFFF) << 16)
            + l0 * m_hi0 + (((l1 * m_hi0 + l0 * m_hi1) & 0xFFFF) << 16))
    return high & _M32, low & _M32


def _draw(rng: Rng, words: int, limit: int) -> int:
    """The generator's draw of ``words`` 64-bit words below ``limit`` (Rng.below_factorial before
    its reduction modulo n!), each SplitMix64 step on 32-bit halves: no value here reaches 2**36
    but the draw itself."""
    state = rng.state
    hi, lo = state >> 32, state & _M32
    while True:
        x = 0
        for _ in range(words):
            lo += _GAMMA_LO
            hi = (hi + _GAMMA_HI + (lo >> 32)) & _M32
            lo &= _M32
            # z = state; z ^= z >> 30
            zh, zl = hi ^ (hi >> 30), lo ^ (((lo >> 30) | (hi << 2)) & _M32)
            zh, zl = _times(zh, zl, _MIX1_HI0, _MIX1_HI1, _MIX1_LO0, _MIX1_LO1)
            # z ^= z >> 27
            zh, zl = zh ^ (zh >> 27), zl ^ (((zl >> 27) | (zh << 5)) & _M32)
            zh, zl = _times(zh, zl, _MIX2_HI0, _MIX2_HI1, _MIX2_LO0, _MIX2_LO1)
            # z ^= z >> 31: the word
            zh, zl = zh ^ (zh >> 31), zl ^ (((zl >> 31) | (zh << 1)) & _M32)
            x = (x << 64) | (zh << 32) | zl
        if x < limit:
            break
    rng.state = (hi << 32) | lo
    return x
