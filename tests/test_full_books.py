"""A full book leaves the table (issue 76, one file each), one module (tonkdsl/interpreter/rules/
full_books.py): a book of every card of its rank is taken off the table once a discard ends the
turn, its cards under the discard pile; spread numbers never change within a turn; cards are
conserved; every hand ends and every offered action applies."""
from __future__ import annotations

import pytest

from conftest import TESTS
from legality import check_hand
from tonkdsl import load_ruleset
from tonkdsl.tools.scenario import load_scenario

RULES = TESTS / "variations" / "x76-full-books.yaml"
GOLDEN = TESTS / "scenarios" / "x76-full-book-leaves-the-table.yaml"


def _play(lines):
    state = load_scenario(GOLDEN).new_state()
    for line in lines:
        state.apply(line)
    return state


def test_the_full_book_stays_through_the_turn_and_leaves_at_the_discard() -> None:
    state = _play(["draw stock", "spread KS KH KD", "discard 4H", "draw stock", "hit KC on 1"])
    assert [sorted(state.pack.names[c] for c in sp.cards) for sp in state.spreads] == [["KC", "KD", "KH", "KS"]]
    state.apply("discard QD")
    assert state.spreads == []
    assert [state.pack.names[c] for c in state.discard_pile] == ["KC", "KD", "KH", "KS", "9D", "4H", "QD"]
    assert sum(len(h) for h in state.hands) + len(state.stock) + len(state.discard_pile) == 52  # every card still somewhere


def test_a_book_of_three_stays() -> None:
    state = _play(["draw stock", "spread KS KH KD", "discard 4H"])
    assert len(state.spreads) == 1


@pytest.mark.parametrize("seed", range(30))
def test_every_hand_ends_and_every_offered_action_applies(seed: int) -> None:
    assert list(check_hand(load_ruleset(RULES), 2 + seed % 3, seed)) == []
