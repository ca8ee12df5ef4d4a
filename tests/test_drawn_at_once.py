"""A card drawn from the stock is played at once (issue 76, other turn shapes: Conquian), one
module (tonkdsl/interpreter/rules/drawn_at_once.py): while the card is owed only the spreads and
hits that hold it and its own discard are offered, anything else is refused in the player's
words; a card taken from the discard pile joins the hand as before; every hand ends and every
offered action applies."""
from __future__ import annotations

import pytest

from conftest import TESTS
from legality import check_hand
from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import IllegalAction, deal
from tonkdsl.interpreter.table import MAX_TURNS
from tonkdsl.interpreter.view import observation
from tonkdsl.language.rng import Rng
from tonkdsl.tools import legality
from tonkdsl.tools.bots import BOTS
from tonkdsl.tools.scenario import load_scenario

RULES = TESTS / "variations" / "x76-drawn-at-once.yaml"
GOLDEN = TESTS / "scenarios" / "x76-stock-card-played-at-once.yaml"


def _state():
    return load_scenario(GOLDEN).new_state()


def test_only_plays_that_hold_the_card_drawn_are_offered() -> None:
    state = _state()
    state.apply("draw stock")  # the 9S
    assert [str(a) for a in state.legal_actions()] == ["spread 7S 8S 9S", "discard 9S"]
    with pytest.raises(IllegalAction) as refused:
        state.apply("discard KD")
    assert str(refused.value) == "play the 9S you drew at once: in a spread, onto one, or discard it"
    state.apply("spread 7S 8S 9S")
    assert {str(a) for a in state.legal_actions()} >= {"discard KD", "discard QC", "discard 2H"}


def test_a_card_that_makes_nothing_is_thrown_and_ends_the_turn() -> None:
    state = _state()
    for line in ("draw stock", "spread 7S 8S 9S", "discard KD", "draw stock"):
        state.apply(line)
    assert [str(a) for a in state.legal_actions()] == ["discard 4D"]
    state.apply("discard 4D")
    assert state.current_player() == 0
    assert sorted(state.pack.names[c] for c in state.hands[1]) == ["10C", "2D", "JH", "KH", "QD"]


def test_the_discard_taken_joins_the_hand_as_before() -> None:
    state = _state()
    for line in ("draw stock", "spread 7S 8S 9S", "discard KD", "draw discard"):
        state.apply(line)
    plays = [str(a) for a in state.legal_actions()]
    assert "discard QD" in plays and "discard KD" not in plays  # standard: not the card taken


@pytest.mark.parametrize("seed", range(40))
def test_every_hand_ends_and_every_offered_action_applies(seed: int) -> None:
    rs = load_ruleset(RULES)
    assert list(check_hand(rs, 2 + seed % 3, seed)) == []


def test_a_hand_nobody_ends_stops_at_the_turn_cap_not_as_a_finding() -> None:
    """Greedy players who only ever throw the card they draw never change their hands; with the
    whole pile rebuilt as often as the stock runs out, the hand ends at the engine's turn cap (a
    dead hand, as the rules sheet says), which the legality check plays on to."""
    rs = load_ruleset(TESTS / "rulesets" / "drawn-at-once-whole-pile.yaml")
    assert list(legality.check_hand(rs, 2, 0, bot="greedy")) == []
    state = deal(rs, 2, seed=0, dealer=0)
    rng = Rng(0)
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(BOTS["greedy"](observation(state, seat), list(state.legal_actions()), rng))
    outcome = state.outcome()
    assert outcome is not None and outcome.end == "dead_hand" and state.turn_number > MAX_TURNS
