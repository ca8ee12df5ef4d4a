"""The interpreter's shuffle (interpreter/shuffle.py) is the language's, digit for digit."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tonkdsl.interpreter.shuffle import shuffle
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
