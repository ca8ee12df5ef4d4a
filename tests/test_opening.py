"""opening (issue 76): a player's first spreads of the hand are worth at least so many points
together, laid in one turn; no hits before opening. One module (tonkdsl/interpreter/rules/
opening.py). A spread is offered only where the opening can still be completed this turn, the
discard is held back until it is, and every hand ends, alone and with every other recipe."""
from __future__ import annotations

import pytest

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction
from conftest import TESTS
from legality import check_hand
from test_turn_flow import placed

RULES = TESTS / "variations" / "x76-opening.yaml"  # 25 to open, standard's five cards
BOB = ["2C", "3D", "8H", "9C", "QS"]


def _drawn(hand: list[str], top: str, bob: list[str] = BOB):
    state = placed(RULES, 2, {0: hand, 1: bob}, dealer=1)
    card = next(c for c in state.stock if state.pack.names[c] == top)
    state.stock.remove(card)
    state.stock.append(card)  # drawn next
    state.apply("draw stock")
    return state


def _spreads(state) -> list[str]:
    return sorted(" ".join(sorted(a.cards)) for a in state.legal_actions() if isinstance(a, A.Spread))


def test_a_spread_that_cannot_be_made_up_to_the_points_this_turn_is_neither_offered_nor_played() -> None:
    state = _drawn(["4S", "5S", "6S", "KH", "2D"], "KC")  # the run is 15; nothing else spreads
    assert _spreads(state) == []
    with pytest.raises(IllegalAction) as refused:
        state.apply("spread 4S 5S 6S")
    assert str(refused.value) == ("you have not opened: your first spreads this hand must be worth 25 points "
                                  "together, laid in one turn, and with this one you could lay at most 15")


def test_a_spread_worth_the_points_alone_or_with_what_can_follow_is_offered() -> None:
    assert _spreads(_drawn(["9S", "9H", "9D", "2H", "4H"], "KC")) == ["9D 9H 9S"]  # 27 alone
    state = _drawn(["4S", "5S", "6S", "KH", "KC"], "KD")  # 15, then the kings: 45, and out
    assert _spreads(state) == ["4S 5S 6S", "KC KD KH"]


def test_the_discard_waits_until_the_opening_reaches_the_points() -> None:
    state = _drawn(["4S", "5S", "6S", "KH", "KC"], "KD")
    state.apply("spread 4S 5S 6S")
    assert not any(isinstance(a, A.Discard) for a in state.legal_actions())
    assert [str(a) for a in state.legal_actions()] == ["spread KC KD KH"]
    with pytest.raises(IllegalAction) as refused:
        state.apply("discard KH")
    assert str(refused.value) == "your opening is 15 points so far: lay spreads worth 10 more before you discard"
    state.apply("spread KC KD KH")
    assert state.is_terminal() and state.outcome().winners == (0,)


def test_hits_are_offered_once_a_player_has_opened() -> None:
    state = _drawn(["KH", "KC", "KD", "4S", "2D"], "9D")
    state.apply("spread KC KD KH")  # 30: opened
    king = next(c for c in state.stock if state.pack.names[c] == "KS")
    state.stock.remove(king)
    state.stock.insert(len(state.stock) - 1, king)  # Bob draws the top card, Ann the king after it
    state.apply("discard 2D")
    state.apply("draw stock")
    state.apply(f"discard {state.pack.names[state.hands[1][-1]]}")
    state.apply("draw stock")
    assert "hit KS on 1" in [str(a) for a in state.legal_actions()]


def test_a_hit_before_opening_is_refused_in_words() -> None:
    state = _drawn(["KH", "KC", "KD", "2C", "4H"], "3H", bob=["KS", "7H", "7D", "QS", "JS"])
    state.apply("spread KC KD KH")
    state.apply("discard 2C")
    state.apply("draw stock")
    with pytest.raises(IllegalAction) as refused:
        state.apply("hit KS on 1")
    assert str(refused.value) == "you have not opened: lay spreads worth 25 points in one turn before you hit"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_hand_ends_and_every_offered_action_applies(players: int) -> None:
    from tonkdsl import load_ruleset

    rs = load_ruleset(RULES)
    for seed in range(40):
        for bot in ("random", "greedy"):
            assert list(check_hand(rs, players, seed, bot=bot)) == []


def test_a_wild_card_counts_as_the_card_it_stands_for_where_the_ruleset_says(tmp_path) -> None:
    """JH QH and a joker: a run to the king, 30 with the joker as KH, 20 with its own value (0)."""
    as_card = TESTS / "variations" / "x76-opening-wilds-as-cards.yaml"
    own = tmp_path / "own.yaml"
    own.write_text(as_card.read_text(encoding="utf-8").replace("wilds: as_card", "wilds: own_value"), encoding="utf-8")
    for ref, offered in ((as_card, ["JH JK QH"]), (own, [])):
        state = placed(ref, 2, {0: ["JH", "QH", "JK", "4C", "7D"], 1: ["3S", "8D", "9C", "KC", "6H"]}, dealer=1)
        state.apply("draw stock")
        runs = sorted(" ".join(sorted(a.cards)) for a in state.legal_actions()
                      if isinstance(a, A.Spread) and "JK" in a.cards and "JH" in a.cards and len(a.cards) == 3)
        assert runs == offered, ref
