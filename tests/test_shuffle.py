"""The interpreter's shuffle (interpreter/shuffle.py) is the language's, digit for digit."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tonkdsl.interpreter.shuffle as shuffle_module
import tonkdsl.language.rng as rng_module
from tonkdsl.interpreter.shuffle import draw_below_factorial, shuffle
from tonkdsl.language.rng import Rng


@given(seed=st.integers(min_value=0, max_value=(1 << 64) - 1), n=st.integers(min_value=0, max_value=160))
def test_grouped_shuffle_is_the_reference_shuffle(seed: int, n: int) -> None:
    reference, grouped = list(range(n)), list(range(n))
    a, b = Rng(seed), Rng(seed)
    a.shuffle(reference)
    shuffle(b, grouped)
    assert grouped == reference
    assert b.next_u64() == a.next_u64()  # the generator left in the same state


def test_the_shuffles_of_a_pack_and_of_several_packs_agree_over_many_seeds() -> None:
    # The sizes the engine shuffles: a whole pack or several, and what a player cannot see.
    for seed in range(300):
        for n in (2, 3, 20, 21, 40, 52, 53, 104, 156):
            cards = list(range(100, 100 + n))
            reference, grouped = list(cards), list(cards)
            Rng(seed).shuffle(reference)
            shuffle(Rng(seed), grouped)
            assert grouped == reference, (seed, n)
            assert sorted(grouped) == cards


@given(seed=st.integers(min_value=0, max_value=(1 << 64) - 1), n=st.integers(min_value=2, max_value=160))
def test_the_draw_on_halves_is_the_generators_draw(seed: int, n: int) -> None:
    # draw_below_factorial is what the compiled shuffle draws with; run here as plain Python, it
    # must give the generator's value and leave it in the same state.
    a, b = Rng(seed), Rng(seed)
    assert draw_below_factorial(b, n) == a.below_factorial(n)
    assert b.state == a.state


def test_the_draw_on_halves_rejects_as_the_generator_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # A real plan rejects a draw once in a billion: this one rejects half of them (two words, the
    # limit half the space), so both loops must draw again, word for word, alike.
    plan = (2, 1 << 127, 3 * 5 * 7 * 11 * 13)
    monkeypatch.setattr(rng_module, "shuffle_plan", lambda n: plan)
    monkeypatch.setattr(shuffle_module, "shuffle_plan", lambda n: plan)
    redrawn = 0
    for seed in range(200):
        a, b = Rng(seed), Rng(seed)
        assert draw_below_factorial(b, 10) == a.below_factorial(10)
        assert b.state == a.state
        once = Rng(seed)
        once.next_u64()
        once.next_u64()
        redrawn += once.state != a.state  # more than one draw of two words
    assert 50 < redrawn < 150  # about half the draws were rejected and drawn again


def test_the_compiled_shuffles_path_is_the_reference_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    # Compiled, shuffle draws on halves and reads the digits of the unreduced draw: the same path,
    # run here as plain Python, gives the reference permutations.
    monkeypatch.setattr(shuffle_module, "_NATIVE", True)
    for seed in range(200):
        for n in (2, 3, 21, 40, 52, 53, 104, 156):
            reference, native = list(range(n)), list(range(n))
            a, b = Rng(seed), Rng(seed)
            a.shuffle(reference)
            shuffle(b, native)
            assert native == reference, (seed, n)
            assert b.state == a.state
