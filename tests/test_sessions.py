"""Sessions: money is conserved across hands, side bets and settlement; the deal rotates."""
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from tonkdsl import load_ruleset
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import observation
from tonkdsl.language.cards import SUITS_STANDARD
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.tools.bots import greedy_bot, random_bot
from tonkdsl.tools.simulate import Spec, play_out, run_sessions, session_length, simulate
from conftest import TESTS

SESSION_RULESETS = ["standard", "washington-state", "pushups"] + [
    str(p) for p in sorted((TESTS / "variations").glob("*.yaml"))
    if "session:" in p.read_text() or "scoring:" in p.read_text()
]


@pytest.mark.parametrize("ref", SESSION_RULESETS, ids=lambda r: Path(r).stem)
@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), hands=st.integers(1, 8), random_seats=st.integers(0, 3))
def test_session_money_is_zero_sum(ref: Any, seed: int, hands: int, random_seats: int) -> None:
    rs = load_ruleset(ref)
    players = max(rs.players_min, min(3, rs.players_max))  # three where the ruleset allows it
    bots = ([random_bot] * random_seats + [greedy_bot] * players)[:players]
    summary = simulate(rs, bots, hands, seed)
    assert sum(summary.net) + summary.pot_left == 0  # money is conserved: players and the pot
    if rs.session.is_match:  # a ruleset that plays matches is simulated match by match
        assert summary.sessions == hands and sum(summary.endings.values()) >= hands
    else:
        assert sum(summary.endings.values()) == hands


def test_deal_passes_left_and_big_one_stake() -> None:
    rs = load_ruleset(TESTS / "variations" / "v18-big-one.yaml")
    session = Session(rs, 3, stake=5, dealer=2)
    dealers, stakes = [], []
    while not session.is_over():
        state = session.start_hand(seed=len(dealers))
        dealers.append(state.dealer)
        stakes.append(state.stake)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        session.finish_hand(state)
    assert dealers == [2, 0, 1]
    assert stakes == [5, 5, 10]
    with pytest.raises(ValueError, match=r"the session ended after hand 3: it is 3 hands"):
        session.start_hand()



@pytest.mark.parametrize("ref", SESSION_RULESETS, ids=lambda r: Path(r).stem)
def test_simulate_tallies_the_settlement_of_each_session(ref: Any) -> None:
    # run_sessions tallies Session.money(); replaying the same sessions through the public
    # Session API must give the same money in settlement() (units sheets and pots included).
    rs = load_ruleset(ref)
    n = max(rs.players_min, min(3, rs.players_max))  # three where the ruleset allows it
    spec = Spec(ref, ("greedy",) * n, seed=5)
    length = session_length(rs)
    tally, _ = run_sessions(spec, 0, 2 * length, ruleset=rs, bots=[greedy_bot] * n)
    total = [0] * n
    for k in range(2):
        session = Session(rs, n, hands=length, dealer=k % n)
        for i in range(length):
            seed = derive_seed(5, k * length + i)
            rng = Rng(seed ^ 0x5DEECE66D)
            state = session.start_hand(seed=seed)
            play_out(state, [greedy_bot] * n, rng)
            suits = {b.id: rng.choice(SUITS_STANDARD) for b in rs.session.side_bets if b.kind == "named_suit"}
            session.finish_hand(state, named_suits=suits)
        total = [t + m for t, m in zip(total, session.settlement().money)]
    assert tally.pay_sum == total
    assert tally.sessions == 2


def test_a_match_leaves_out_the_eliminated_and_the_deal_skips_them() -> None:
    rs = load_ruleset(TESTS / "variations" / "x16-match-elimination.yaml")
    session = Session(rs, 3, dealer=0)
    seen_seats, dealers = [], []
    h = 0
    while not session.is_over():
        state = session.start_hand(seed=100 + h)
        seen_seats.append(session.seats)
        dealers.append(session.seats[state.dealer])
        while not state.is_terminal():
            state.apply(greedy_bot(observation(state, state.current_player()), state.legal_actions(), Rng(h)))
        record = session.finish_hand(state)
        for g in record.eliminated:
            assert session.scores[g] >= 30 and g not in session.active
        h += 1
    assert len(session.active) == 1 and session.settlement().winners == session.active
    assert all(d in seats for d, seats in zip(dealers, seen_seats))          # a dealer is always still in
    assert len(seen_seats[-1]) < 3                                            # someone went out
    assert sum(session.money()) == 0


def test_a_match_that_ends_on_the_totals_is_won_by_the_lowest() -> None:
    rs = load_ruleset(TESTS / "variations" / "x16-match-first-to-50.yaml")
    summary = simulate(rs, [greedy_bot] * 3, 5, 7)
    assert summary.sessions == 5
    session = Session(rs, 3)
    while not session.is_over():
        state = session.start_hand(seed=session.index)
        while not state.is_terminal():
            state.apply(state.legal_actions()[-1])
        session.finish_hand(state)
    assert max(session.scores) >= 50 and session.settlement().winners == [
        s for s in range(3) if session.scores[s] == min(session.scores)]


def test_simulated_match_wins_do_not_depend_on_workers() -> None:
    from tonkdsl.tools.simulate import Spec, run, summary as summarize
    spec = Spec(str(TESTS / "variations" / "x16-match-elimination.yaml"), ("greedy", "greedy", "random"), 5)
    one, two = summarize(run(spec, 40)), summarize(run(spec, 40, workers=2))
    assert one["matches"] == two["matches"] and one["matches"]["matches"] == 40
    assert sum(w["wins"] for w in one["matches"]["wins"]) >= 40


def test_a_hand_listed_after_the_match_ended_says_so(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from tonkdsl.cli import main
    from conftest import TESTS
    golden = (TESTS / "scenarios" / "x16-match-first-to-50.yaml").read_text()
    head, expect = golden.split("expect:")
    path = tmp_path / "over.yaml"
    path.write_text(head.replace("ruleset: ../variations/", f"ruleset: {TESTS / 'variations'}/")
                    + "- seed: 5\n  actions: []\nexpect:" + expect)
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 1
    assert "hand 2 cannot be dealt: the match ended after hand 1: its end condition held" in res.output
