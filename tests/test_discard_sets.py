"""discard_sets (issue 76): a pair, three or four of a kind discarded at once after the draw, in
one module (tonkdsl/interpreter/rules/discard_sets.py). Offered exactly for the cards that may be
discarded now; the cards go down together, the last named on top, and the turn ends as a discard
ends it; every hand ends, and every offered throw applies, alone and with the other recipes."""
from __future__ import annotations

import pytest

from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import IllegalAction
from tonkdsl.interpreter.rules.discard_sets import Throw
from conftest import TESTS
from legality import check_hand
from test_turn_flow import placed

RULES = TESTS / "variations" / "x76-discard-sets.yaml"


def _drawn(hand: list[str], top: str):
    state = placed(RULES, 2, {0: hand, 1: ["3S", "4S", "8D", "QC", "JH"]}, dealer=1)
    card = next(c for c in state.stock if state.pack.names[c] == top)
    state.stock.remove(card)
    state.stock.append(card)  # drawn next
    state.apply("draw stock")
    return state


def test_a_set_is_offered_for_each_rank_held_twice_or_more_after_the_draw_only() -> None:
    state = placed(RULES, 2, {0: ["9S", "9H", "9D", "KC", "2C"], 1: ["3S", "4S", "8D", "QC", "JH"]}, dealer=1)
    assert not any(isinstance(a, Throw) for a in state.legal_actions())  # before the draw: none
    with pytest.raises(IllegalAction, match="only after your draw"):
        state.apply("throw 9S 9H")
    state.apply("draw stock")
    throws = sorted(" ".join(sorted(a.cards)) for a in state.legal_actions() if isinstance(a, Throw))
    nines = [t for t in throws if t.startswith("9")]
    assert nines == ["9D 9H", "9D 9H 9S", "9D 9S", "9H 9S"]


def test_the_cards_go_down_together_the_last_named_on_top_and_the_turn_passes() -> None:
    state = _drawn(["9S", "KC", "KD", "AH", "2C"], "9H")
    names = state.pack.names
    pile = len(state.discard_pile)
    state.apply("throw 9H 9S")
    assert [names[c] for c in state.discard_pile[pile:]] == ["9H", "9S"] and state.current == 1
    assert sorted(names[c] for c in state.hands[0]) == ["2C", "AH", "KC", "KD"]
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply("throw KC KD", player=0)


def test_mixed_ranks_and_a_single_card_are_refused_with_the_reason() -> None:
    state = _drawn(["9S", "KC", "KD", "AH", "2C"], "9H")
    with pytest.raises(IllegalAction, match="all of one rank"):
        state.apply("throw 9S KC")
    with pytest.raises(IllegalAction, match="one card is 'discard 7S'"):
        state.apply("throw 9S")


def test_throwing_the_last_cards_goes_out_as_a_discard_does() -> None:
    state = _drawn(["9S", "9D", "9C", "KC", "KD"], "9H")
    state.apply("spread 9S 9D 9C")  # a book of three: KC KD and the 9H left
    state.apply("hit 9H on 1")
    state.apply("throw KC KD")
    assert state.is_terminal() and state.outcome().end == "out_on_discard" and state.outcome().winners == (0,)


def test_too_many_of_a_rank_for_the_pack_is_said_by_lint(tmp_path) -> None:
    from tonkdsl.tools.lint import lint
    rules = tmp_path / "five.yaml"
    rules.write_text(f"extends: {RULES}\nname: Five of a kind\ndiscard_sets: {{min: 5}}\n")
    found = [d for d in lint(str(rules), allow_paths=[TESTS]).diagnostics if d.code == "rule-for-disabled"]
    assert found and "the pack holds at most 4 of a rank" in found[0].message


@pytest.mark.parametrize("seed", range(40))
def test_every_hand_ends_with_a_legal_action_at_each_step_and_each_offered_throw_applies(seed: int) -> None:
    check_hand(load_ruleset(RULES), 2 + seed % 3, seed)
