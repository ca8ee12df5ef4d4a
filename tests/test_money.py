"""Money as data (issue 16): pots and antes, bonuses paid mid-hand, caps on one hand."""
from typing import Any

from tonkdsl import load_ruleset
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import Layout, deal
from tonkdsl.interpreter.outcome import POT, Payment, capped, net, pot_change, run_transfers
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import observation
from tonkdsl.language.names import EvalContext
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import greedy_bot
from tonkdsl.tools.scenario import load_scenario
from conftest import TESTS, refused

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
    rs = load_ruleset(VAR / "x16-bonus-four-of-a-kind.yaml")
    pack = rs.pack
    ids = [pack.find(n) for n in ("7H", "7S", "7C", "7D", "AC")]
    state = deal(rs, 3, seed=1, layout=Layout({0: ids}))
    state.apply("draw stock")
    state.apply("spread 7H 7S 7C 7D")
    assert [(p.rule, p.payer, p.payee, p.amount) for p in state.paid] == [
        ("four-of-a-kind", 1, 0, 1), ("four-of-a-kind", 2, 0, 1)]
    assert not state.is_terminal()


def test_money_at_the_deal_is_conserved_and_a_pot_is_needed_to_pay_from_it(tmp_path: Any) -> None:
    session = play_session(VAR / "x30-money-at-the-deal.yaml", 30, 7)
    assert sum(session.ledger) + session.pot == 0
    no_pot = tmp_path / "no-pot.yaml"
    no_pot.write_text("extends: standard\nname: No pot\ndeal_wins:\n  rules:\n"
                      "    - {id: tonk-49-50, when: \"count in [49, 50]\", pays: pot, from: pot}\n")
    d = refused(no_pot, "pot-missing")
    assert (d.line, d.message) == (5, "this payout pays to or from the pot, but the ruleset has no pot")


def test_a_bonus_on_the_deal_is_paid_to_each_player_dealt_four_of_a_kind() -> None:

    rs = load_ruleset(VAR / "x30-money-at-the-deal.yaml")

    def four_of_a_kind(hand: list[int], ranks: tuple[str, ...]) -> bool:
        return max(sum(1 for c in hand if ranks[c] == ranks[x]) for x in hand) >= 4

    for seed in range(20000):  # the first seed that deals somebody four of a kind
        state = deal(rs, 3, seed=seed)
        fours = [s for s in range(3) if four_of_a_kind(state.hands[s], state.pack.ranks)]
        if fours:
            break
    else:
        raise AssertionError("no seed dealt four of a kind")
    bonus = [p for p in state.paid if p.rule == "dealt-four-of-a-kind"]
    assert {p.payee for p in bonus} == set(fours) and len(bonus) == 2 * len(fours)
    assert state.paid[:3] == [Payment("ante", s, POT, 1) for s in range(3)]  # the antes come first


def test_a_split_amount_is_shared_and_its_rounding_is_the_rulesets(tmp_path: Any) -> None:
    """split: the amount is divided among the payees; what does not divide stays with the payer
    (down) or goes a unit each from the dealer's left (dealer_left); money stays conserved."""
    base = ("extends: standard\nname: R\nremove: [endings.drop_caught.payouts.caught-dropper-pays, "
            "endings.drop_caught.payouts.caught-lowest-collects]\nendings:\n  drop_caught:\n    payouts:\n"
            "      - {id: shared, from: dropper, to: others, amount: 5 * stake, split: %s}\n")
    paid = {}
    for split in ("down", "dealer_left"):
        (tmp_path / "r.yaml").write_text(base % split)
        rs = load_ruleset(tmp_path / "r.yaml")
        state = deal(rs, 4, seed=1, dealer=1)
        payments = run_transfers(state, rs.endings["drop_caught"].payouts, EvalContext(state, actor=0, dropper=0))
        paid[split] = [(p.payee, p.amount) for p in payments if p.payer == 0]
    # 5 among three others: 1 each, 2 left; seats 2 and 3 are nearest the dealer's (seat 1) left.
    assert paid["down"] == [(1, 1), (2, 1), (3, 1)]
    assert paid["dealer_left"] == [(2, 2), (3, 2), (1, 1)]
    (tmp_path / "r.yaml").write_text((base % "down").replace("5 * stake", "payee.count"))
    d = refused(tmp_path / "r.yaml", "split-reads-payee")
    assert d.message == "a shared amount (split) is one sum divided among the payees, so it cannot read 'payee'"


def test_a_pooled_split_puts_the_payers_amounts_together_before_sharing(tmp_path: Any) -> None:
    """split: pooled (issue 76): two payers of 1 and two tied winners, each winner gets 1, where
    each payer's 1 shared on its own sends both odd units to the same winner (2 and 0)."""
    base = ("extends: standard\nname: R\nremove: [endings.drop_caught.payouts.caught-dropper-pays, "
            "endings.drop_caught.payouts.caught-lowest-collects]\nendings:\n  drop_caught:\n    payouts:\n"
            "      - {id: shared, from: players where seat <= 1, to: players where seat >= 2, amount: stake, split: %s}\n")
    got = {}
    for split in ("dealer_left", "pooled"):
        (tmp_path / "r.yaml").write_text(base % split)
        rs = load_ruleset(tmp_path / "r.yaml")
        state = deal(rs, 4, seed=1, dealer=1)
        payments = run_transfers(state, rs.endings["drop_caught"].payouts, EvalContext(state, actor=0, dropper=0))
        got[split] = sorted((p.payer, p.payee, p.amount) for p in payments)
    assert got["dealer_left"] == [(0, 2, 1), (1, 2, 1)]  # both odd units to seat 2, nearest the dealer's left
    assert got["pooled"] == [(0, 2, 1), (1, 3, 1)]
    (tmp_path / "r.yaml").write_text((base % "pooled").replace("amount: stake", "amount: 3 * stake"))
    state = deal(load_ruleset(tmp_path / "r.yaml"), 4, seed=1, dealer=1)
    payments = run_transfers(state, load_ruleset(tmp_path / "r.yaml").endings["drop_caught"].payouts,
                             EvalContext(state, actor=0, dropper=0))
    received = {q: sum(p.amount for p in payments if p.payee == q) for q in (2, 3)}
    assert received == {2: 3, 3: 3} and sum(p.amount for p in payments) == 6  # 6 pooled, 3 each


def test_the_split_pot_is_shared_in_sessions_and_money_is_conserved() -> None:
    session = play_session(VAR / "x30-split-pot.yaml", 12, 41)
    assert sum(session.ledger) + session.pot == 0
    shares = [p for r in session.records for p in r.outcome.payments if p.rule == "catchers-share-the-pot"]
    assert all(p.payer == POT for p in shares)


def test_a_claim_is_listed_while_a_bonus_may_be_claimed_and_pays_once() -> None:
    """A bonus on claim joins the legal plays after the draw (the hot path's list too) while its
    condition holds, pays at once when claimed, and is not offered again that hand."""
    scn = load_scenario(TESTS / "scenarios" / "x30-claim-bonus-paid.yaml")
    state = scn.new_state()
    ann = scn.players.index("Ann")
    assert "claim" not in map(str, state.legal_actions())  # before the draw: a claim of the deal only
    state.apply(A.DrawStock())
    assert "claim" in map(str, state.legal_actions())
    state.apply(A.Claim())
    assert [(p.rule, p.payee, p.amount) for p in state.paid] == [("three-aces", ann, 1)]
    assert "claim" not in map(str, state.legal_actions())
    assert state.why_illegal(A.Claim()) == "there is nothing to claim now"
