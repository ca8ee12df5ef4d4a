"""Money as data (issue 16): pots and antes, bonuses paid mid-hand, caps on one hand."""
from typing import Any

from tonkdsl import load_ruleset
from tonkdsl.interpreter.outcome import POT, Payment, capped, net, pot_change
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import observation
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import greedy_bot
from conftest import TESTS

VAR = TESTS / "variations"


def test_caps_cut_payments_in_order_and_keep_them_zero_sum() -> None:
    pays = [Payment("a", 0, 1, 2), Payment("a", 0, 2, 2), Payment("b", 2, 1, 3), Payment("c", 1, POT, 5)]
    out = capped(pays, 3, 4)
    assert out == [Payment("a", 0, 1, 2), Payment("a", 0, 2, 1), Payment("b", 2, 1, 2), Payment("c", 1, POT, 3)]
    assert sum(net(3, out)) + pot_change(out) == 0


def play_session(ref: Any, hands: int, seed: int) -> Session:
    rs = load_ruleset(ref)
    session = Session(rs, 3, hands=hands)
    while not session.is_over():
        state = session.start_hand(seed=seed + session.index)
        assert state.pot == session.pot + 3 * (1 if rs.ante is not None else 0) or state.is_terminal()
        while not state.is_terminal():
            seat = state.current_player()
            state.apply(greedy_bot(observation(state, seat), state.legal_actions(), Rng(seed)))
        out = state.outcome()
        assert sum(out.payouts) + out.pot_change == 0
        session.finish_hand(state)
    return session


def test_a_pot_carries_over_and_money_is_conserved_with_it() -> None:
    session = play_session(VAR / "x16-pot.yaml", 12, 40)
    assert sum(session.ledger) + session.pot == 0
    pots = [sum(p.amount for p in r.outcome.payments if p.payee == POT) for r in session.records]
    assert all(p >= 3 for p in pots)  # every hand's antes went in


def test_bonuses_are_paid_during_the_hand_and_kept() -> None:
    from tonkdsl.interpreter.engine import Layout, deal
    rs = load_ruleset(VAR / "x16-bonus-four-of-a-kind.yaml")
    pack = rs.pack
    ids = [pack.find(n) for n in ("7H", "7S", "7C", "7D", "AC")]
    state = deal(rs, 3, seed=1, layout=Layout({0: ids}))
    state.apply("draw stock")
    state.apply("spread 7H 7S 7C 7D")
    assert [(p.rule, p.payer, p.payee, p.amount) for p in state.paid] == [
        ("four-of-a-kind", 1, 0, 1), ("four-of-a-kind", 2, 0, 1)]
    assert not state.is_terminal()
