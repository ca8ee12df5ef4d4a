"""Memory across a session, and an automatic win read for each payer (issue 76): 'hands_won' counts the hands each player won so far, and
session.bonuses adds score entries once the session (a match) is over, before its winner is
named: Gin's boxes and shutout. Once only, also when a booking is only tried (tonk serve asks
"would this hand end the match?" of a copy)."""
from __future__ import annotations

import pytest

from tonkdsl import load_ruleset
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import play_out
from tonkdsl.language.diagnostics import LoadError
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import policy
from conftest import TESTS

VAR = TESTS / "variations"


def _play(session: Session, seed: int) -> None:
    state = session.start_hand(seed=seed)
    play_out(state, [policy("greedy")] * state.num_players, Rng(seed))
    session.finish_hand(state)


def test_hands_won_counts_each_winner_and_the_bonuses_come_once_at_the_end() -> None:
    rs = load_ruleset(VAR / "x76-session-bonuses.yaml", allow_paths=[TESTS])
    session = Session(rs, 3)
    _play(session, 1)
    assert session.bonus_lines is None and sum(session.won) == len(session.records[0].outcome.winners)
    before = list(session.scores)
    trial = session.copy()
    state = trial.start_hand(seed=2)
    play_out(state, [policy("greedy")] * 3, Rng(2))
    trial.finish_hand(state)  # a booking tried on a copy: this session is untouched
    assert session.scores == before and session.bonus_lines is None
    _play(session, 2)
    assert session.is_over() and session.bonus_lines is not None
    won = list(session.won)
    hands = [sum(r.outcome.scores[session.records[i].seats.index(g)] for i, r in enumerate(session.records))
             for g in range(3)]
    expected = [h - 5 * w + (20 if w == 0 else 0) for h, w in zip(hands, won)]
    assert session.scores == expected
    assert {rule for _, _, rule in session.bonus_lines} <= {"boxes", "shutout"}
    winners = session.settlement().winners
    assert winners == [g for g in range(3) if session.scores[g] == min(session.scores)]


def test_a_match_counts_hands_won_and_adds_its_bonuses_when_it_ends(tmp_path) -> None:
    rules = tmp_path / "match.yaml"  # push-ups until someone reaches 50, with boxes and a shutout
    rules.write_text("extends: pushups\nname: Push-ups to 50, with boxes\nsession:\n"
                     "  ends_when: max(players.total) >= 50\n  winner: lowest_total\n  bonuses:\n"
                     "    - {id: boxes, players: players, points: '-5 * hands_won'}\n"
                     "    - {id: shutout, players: 'players where hands_won == 0', points: '20'}\n")
    rs = load_ruleset(rules)
    session = Session(rs, 3)
    seed = 0
    while not session.is_over():
        _play(session, seed)
        seed += 1
    assert session.bonus_lines is not None and max(session.won) >= 1
    assert sum(session.won) == sum(len(r.outcome.winners) for r in session.records)


def test_session_bonuses_need_a_score_sheet(tmp_path) -> None:
    rules = tmp_path / "money.yaml"
    rules.write_text("extends: standard\nname: Money bonus\nsession:\n  hands: 3\n  bonuses:\n"
                     "    - {id: boxes, players: players, points: hands_won}\n")
    with pytest.raises(LoadError) as exc:
        load_ruleset(rules)
    d = exc.value.diagnostics[0]
    assert d.code == "session-bonuses-money" and "no score sheet" in d.message and d.line == 6  # the first entry


def test_an_automatic_win_is_read_for_each_payer_and_the_pot_has_none(tmp_path) -> None:
    from test_turn_flow import placed
    state = placed(VAR / "x76-queen-of-spades-pays-double.yaml", 3,
                   {0: ["10H", "10D", "10S", "10C", "9H"], 1: ["QS", "2C", "3D", "4H", "5S"],
                    2: ["QH", "2D", "3C", "4S", "6H"]}, dealer=2)
    out = state.outcome()
    assert out is not None and out.end == "initial_tonk" and out.payouts == (6, -4, -2)  # Bob holds the QS
    rules = tmp_path / "pot.yaml"
    rules.write_text("extends: standard\nname: Pot payer\npot: {ante: stake}\ndeal_wins:\n  rules:\n"
                     "    - {id: t, when: 'count in [49, 50]', pays: 'pot + count(payer.hand)', from: pot}\n")
    with pytest.raises(LoadError) as exc:
        load_ruleset(rules)
    assert exc.value.diagnostics[0].code == "payer-is-the-pot"
