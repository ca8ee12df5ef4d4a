"""Parallel score columns (issue 76, memory across a match: Hollywood): session.columns keeps
several games at once; a player's points go into as many columns as hands they have won (at
least the first), of those still open; a column closes when its own condition holds about its
totals; the match ends when all are closed, won by whoever wins the most columns."""
from __future__ import annotations

from conftest import TESTS
from tonkdsl import load_ruleset
from tonkdsl.interpreter.greedy import greedy_bot
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import observation
from tonkdsl.language.rng import Rng
from tonkdsl.tools.scenario import load_scenario, replay

GOLDEN = TESTS / "scenarios" / "x76-hollywood-columns.yaml"


def test_the_golden_match_fills_and_closes_the_columns_as_the_wins_say() -> None:
    data = replay(load_scenario(GOLDEN)).to_json()
    assert data["columns"] == [
        {"totals": {"Ann": 0, "Bob": 31}, "closed": True, "winners": ["Ann"]},
        {"totals": {"Ann": 31, "Bob": 0}, "closed": True, "winners": ["Bob"]},
    ]
    assert data["winners"] == ["Ann", "Bob"] and len(data["hands"]) == 3


def test_every_match_ends_with_every_column_closed_and_the_columns_within_the_sheet() -> None:
    rs = load_ruleset(TESTS / "variations" / "x76-hollywood-columns.yaml")
    for seed in range(6):
        session = Session(rs, 3)
        while not session.is_over():
            state = session.start_hand(seed=100 * seed + session.index)
            while not state.is_terminal():
                seat = state.current_player()
                state.apply(greedy_bot(observation(state, seat), state.legal_actions(), Rng(seat)))
            session.finish_hand(state)
        assert all(session.columns_closed) and session.match_over
        # A column closed because someone reached 30 in it; no column holds more than the sheet.
        assert all(max(column) >= 30 for column in session.columns)
        assert all(0 <= column[g] <= session.scores[g] for column in session.columns for g in range(3))
        assert session.settlement().winners
