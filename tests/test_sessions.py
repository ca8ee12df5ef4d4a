"""Sessions: money is conserved across hands, side bets and settlement; the deal rotates."""
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from tonkdsl import load_ruleset
from tonkdsl.bots import greedy_bot, random_bot
from tonkdsl.session import Session
from tonkdsl.simulate import simulate
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
    bots = [random_bot] * random_seats + [greedy_bot] * (3 - random_seats)
    summary = simulate(rs, bots, hands, seed)
    assert sum(summary.net) == 0
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
    with pytest.raises(ValueError, match="the session is over"):
        session.start_hand()
