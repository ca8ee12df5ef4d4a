"""A card dealt face up (issue 76, one file each): deal.face_up deals the last cards dealt to the
players named face up; everyone sees them while they stay in that hand: the View (bots), the
table, tonk play's screen, the OpenSpiel and PettingZoo observations."""
from __future__ import annotations

import io

import pytest

from conftest import TESTS
from legality import check_hand
from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import deal
from tonkdsl.interpreter.view import observation
from tonkdsl.tools.scenario import load_scenario
from tonkdsl.tools.screen import Screen

RULES = TESTS / "variations" / "x76-face-up-card.yaml"
GOLDEN = TESTS / "scenarios" / "x76-dealer-card-face-up.yaml"


def _names(state, cards):
    return [state.pack.names[c] for c in cards]


def test_the_dealers_last_card_is_seen_by_everyone_while_he_holds_it() -> None:
    state = load_scenario(GOLDEN).new_state()
    assert [_names(state, cards) for cards in observation(state, 0).shown] == [[], ["KH"]]
    for line in ("draw stock", "discard 10C", "draw stock"):
        state.apply(line)
    assert _names(state, observation(state, 0).shown[1]) == ["KH"]
    state.apply("discard KH")
    assert observation(state, 0).shown == ((), ())


def test_a_deal_without_the_rule_shows_nothing() -> None:
    state = deal(load_ruleset("standard"), 3, seed=5)
    assert all(not cards for cards in observation(state, 0).shown)


def test_the_terminal_table_shows_the_card() -> None:
    state = load_scenario(GOLDEN).new_state()
    out = io.StringIO()
    screen = Screen(out=out, colour=False)
    screen.table(["Ann", "Bob"], [0, 0], None, observation(state, 0))
    assert "Bob (dealer): 5 cards (showing KH)" in out.getvalue()


def test_the_openspiel_game_shows_the_card_and_passes_its_random_simulation_test() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the 'openspiel' extra")
    from tonkdsl.tools import openspiel as T

    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": str(RULES), "players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    dealer_seat = 1  # the dealer shows their last card to the player to move
    text = state.information_state_string(0)
    shown = text.split("shown ", 1)[1].split(" | ")[0].split(" / ")
    assert shown[0] == "" and len(shown[dealer_seat].split()) == 1
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)


@pytest.mark.parametrize("seed", range(20))
def test_every_hand_ends_and_every_offered_action_applies(seed: int) -> None:
    assert list(check_hand(load_ruleset(RULES), 2 + seed % 3, seed)) == []
