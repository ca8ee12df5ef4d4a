"""Invariants of the engine over every shipped ruleset and every test ruleset (hypothesis).

Cards are conserved, payouts are zero-sum, every hand ends within a bound, legal_actions() is
non-empty until the end and every listed action applies, illegal actions are refused with a
reason, clone() is independent, and the same seeds give the same hand.
"""
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from tonkdsl import LoadError, load_ruleset
from tonkdsl.interpreter import engine
from tonkdsl.interpreter.asking import Asking
from tonkdsl.interpreter.board import PlayerStats, TableSpread
from tonkdsl.interpreter.table import ASK
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.rules.slapping import Slap
from tonkdsl.interpreter.engine import MAX_TURNS, IllegalAction, State, deal
from tonkdsl.language.resources import shipped_ruleset_names
from tonkdsl.language.rng import Rng
from conftest import TESTS

RULESETS: list[Any] = [pytest.param(n, id=n) for n in shipped_ruleset_names()] + [
    pytest.param(p, id=p.stem)
    for p in sorted((TESTS / "rulesets").glob("*.yaml")) + sorted((TESTS / "variations").glob("*.yaml"))
]
_CACHE: dict[Any, Any] = {}


def ruleset(ref: str | Path) -> Any:
    if ref not in _CACHE:
        _CACHE[ref] = load_ruleset(ref)
    return _CACHE[ref]


def snapshot(s: State) -> tuple[Any, ...]:
    return (
        [list(h) for h in s.hands], list(s.stock), list(s.discard_pile),
        [(sp.owner, sp.kind, list(sp.cards)) for sp in s.spreads], s.current, s.phase,
        {k: list(v) for k, v in s.counters.items()}, s.outcome(),
    )


def all_cards(s: State) -> list[int]:
    cards = [c for h in s.hands for c in h] + s.stock + s.discard_pile
    return sorted(cards + [c for sp in s.spreads for c in sp.cards])


def assert_hands_indexed(s: State) -> None:
    """The summaries the engine keeps up to date equal those recomputed from the hands."""
    twin = s.clone()
    for seat, hand in enumerate(twin.hands):
        twin.set_hand(seat, hand)
    assert (s.hand_value, s.hand_sig, s.hand_discards) == (twin.hand_value, twin.hand_sig, twin.hand_discards)
    for seat, hand in enumerate(s.hands):
        assert s.count(seat) == sum(s.pack.values[c] for c in hand)
        assert s.hand_mask(seat) == sum(1 << c for c in hand)
        assert s.hand_discards[seat] == [A.Discard(s.pack.names[c]) for c in hand]
        if s.melds.indexable:
            assert s.hand_sig[seat] == s.melds.hand_sig(hand)
    for sp in s.spreads:  # a spread's kept mask of the cards that fit is never stale
        assert sp.fits is None or sp.fits == s.melds.accepts(sp.cards, sp.kind)


def assert_grouped(s: State, legal: Any) -> None:
    """legal_actions() is grouped by kind: its spans cover the list, one kind each, and the card
    ids of the discards name the discards."""
    assert isinstance(legal, A.ActionList)
    covered = []
    for kind, (lo, hi) in legal.spans.items():
        assert lo < hi and all(type(a) is kind for a in legal[lo:hi])
        covered += range(lo, hi)
    assert sorted(covered) == list(range(len(legal)))
    if A.Discard in legal.spans:
        lo, hi = legal.spans[A.Discard]
        assert [s.pack.names[c] for c in legal.discard_cards] == [a.card for a in legal[lo:hi]]
        assert all(c in s.hands[s.current_player()] for c in legal.discard_cards)
    for kind in legal.spans:  # without(kind) is grouped() of the others, the discards' ids kept
        rest = legal.without(kind)
        again = A.ActionList.grouped(a for a in legal if type(a) is not kind)
        assert rest == again and rest.spans == again.spans and rest.discard_cards == legal.discard_cards
    absent = next(k for k in (A.Demand, Slap, A.Fold) if k not in legal.spans)
    assert legal.without(absent) is legal  # nothing to leave out: the list itself, no copy


def play(rs: Any, players: int, seed: int, choice_seed: int, patient: bool,
         check_each_action: bool = False) -> tuple[State, list[str]]:
    """Play a hand with random legal actions; 'patient' players never drop while they can draw."""
    state = deal(rs, players, seed=seed, dealer=seed % players)
    rng = Rng(choice_seed)
    history: list[str] = []
    bound = (MAX_TURNS + 1) * (len(rs.pack) + 3)
    full = list(range(len(rs.pack)))
    while not state.is_terminal():
        assert all_cards(state) == full
        assert_hands_indexed(state)
        legal = state.legal_actions()
        assert legal, "no legal action before the end of the hand"
        assert_grouped(state, legal)
        if check_each_action:
            for a in legal:
                twin = state.clone()
                twin.apply(a)
        me = state.current_player()
        options = [(me, a) for a in legal if not (patient and isinstance(a, A.Drop))] or [(me, a) for a in legal]
        # Out-of-turn plays (slaps) by the other players are part of the game too.
        for seat in range(players):
            if seat != me:
                slaps = state.legal_actions(seat)
                if check_each_action:
                    for a in slaps:
                        state.clone().apply(a, player=seat)
                options += [(seat, a) for a in slaps]
        seat, action = rng.choice(options)
        state.apply(action, player=seat)
        history.append(f"{seat} {action}")
        assert len(history) < bound
    assert all_cards(state) == full
    assert state.legal_actions() == []
    return state, history


def advanced(rs: Any, seed: int, steps: int, choice_seed: int) -> tuple[State, Rng]:
    """A 3-player hand (or the nearest number the ruleset allows) after up to ``steps`` random
    actions (drops avoided to go deeper)."""
    state = deal(rs, max(rs.players_min, min(3, rs.players_max)), seed=seed)
    rng = Rng(choice_seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, A.Drop)]
                               or state.legal_actions()))
    return state, rng


hand_args = dict(
    players=st.integers(2, 4), seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**32),
    patient=st.booleans(),
)


@pytest.mark.parametrize("ref", RULESETS)
@given(**hand_args)
def test_hand_invariants(ref: Any, players: int, seed: int, choice_seed: int, patient: bool) -> None:
    rs = ruleset(ref)
    players = max(rs.players_min, min(players, rs.players_max))
    state, _ = play(rs, players, seed, choice_seed, patient, check_each_action=True)
    out = state.outcome()
    assert out is not None
    # Money is conserved: the players, the pot and the side pots.
    assert sum(out.payouts) + out.pot_change + sum(out.side_pot_change) == 0
    assert state.pot == out.pot_change >= 0  # the hand started with empty pots
    assert list(state.side_pots) == list(out.side_pot_change) and min(state.side_pots, default=0) >= 0
    assert len(out.payouts) == players
    assert all(p.amount > 0 and p.payer != p.payee for p in out.payments)
    during = {"ante"} | {f"ante-{p.id}" for p in rs.side_pots} | {b.transfer.id for b in rs.bonuses}  # paid as the hand goes, not by its end
    if out.end in ("redeal", "dead_hand"):
        assert all(p.rule in during for p in out.payments)
    else:
        assert out.winners
        gains = [0] * (players + 1)  # what the ending paid (antes and bonuses aside); the last: the pot
        for p in out.payments:
            if p.rule not in during:
                gains[p.payer] -= p.amount
                gains[p.payee] += p.amount
        assert all(gains[w] >= 0 for w in out.winners)


@pytest.mark.parametrize("ref", RULESETS)
@given(**hand_args)
def test_same_seeds_same_hand(ref: Any, players: int, seed: int, choice_seed: int, patient: bool) -> None:
    rs = ruleset(ref)
    players = max(rs.players_min, min(players, rs.players_max))
    a, ha = play(rs, players, seed, choice_seed, patient)
    b, hb = play(rs, players, seed, choice_seed, patient)
    assert ha == hb and a.outcome() == b.outcome()


@pytest.mark.parametrize("ref", RULESETS)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 30), choice_seed=st.integers(0, 2**32))
def test_clone_is_independent(ref: Any, seed: int, steps: int, choice_seed: int) -> None:
    state, rng = advanced(ruleset(ref), seed, steps, choice_seed)
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    while not twin.is_terminal():
        twin.apply(rng.choice(twin.legal_actions()))
    assert snapshot(state) == before


@pytest.mark.parametrize("ref", RULESETS)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 30), choice_seed=st.integers(0, 2**32))
def test_clone_copies_every_slot(ref: Any, seed: int, steps: int, choice_seed: int) -> None:
    """State.clone writes each slot out by name: one it forgets is unset (AttributeError), one
    it shares instead of copying is the same list, set or dict."""
    state, _ = advanced(ruleset(ref), seed, steps, choice_seed)
    twin = state.clone()
    for name in engine._SLOTS:
        mine, theirs = getattr(state, name), getattr(twin, name)
        if isinstance(mine, Asking):  # no __eq__ of its own: compared slot by slot
            fields = getattr(Asking, "__slots__", None) or Asking.__mypyc_attrs__  # compiled: mypyc keeps them there
            assert theirs is not mine and all(getattr(theirs, k) == getattr(mine, k) for k in fields), name
            continue
        assert theirs == mine, name
        if isinstance(mine, (list, set, dict)):
            assert theirs is not mine, f"{name} is shared with the clone"
        if isinstance(mine, list):
            assert not any(a is b for a, b in zip(mine, theirs) if isinstance(a, MUTABLE_PARTS)), \
                f"{name}'s items are shared with the clone"


MUTABLE_PARTS = (list, TableSpread, PlayerStats)


ILLEGAL_PROBES = [A.Discard("JK"), A.Hit(("AS",), 99), A.Spread(("2C", "9D", "KH")), Slap("AS", 1),
                  A.Drop(), A.DrawStock(), A.DrawDiscard(), A.Claim(), A.Discard("AS")]


@pytest.mark.parametrize("ref", RULESETS)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 25), choice_seed=st.integers(0, 2**32))
def test_illegal_actions_refused_with_reason(ref: Any, seed: int, steps: int, choice_seed: int) -> None:
    state, _ = advanced(ruleset(ref), seed, steps, choice_seed)
    legal = {str(a) for a in state.legal_actions()}
    for probe in ILLEGAL_PROBES:
        if str(probe) in legal:
            continue
        before = snapshot(state)
        reason = state.why_illegal(probe)
        if reason is None and state.phase == ASK and state.asking is not None \
                and state.current_player() == state.asking.mover:
            # While players are asked out of turn, the player to move may simply take their
            # turn (everyone passes): the action must be one that turn allows.
            passed = state.clone()
            while passed.phase == ASK:
                passed.apply(A.Pass())
            assert str(probe) in {str(a) for a in passed.legal_actions()}, f"{probe} accepted out of its turn"
            continue
        assert reason, f"{probe} should be refused"
        with pytest.raises(IllegalAction) as info:
            state.clone().apply(probe)
        assert str(info.value) == reason
        assert snapshot(state) == before


def test_turn_cap_ends_a_hand_that_cannot_end() -> None:
    # Players who only ever take the discard and never drop would go round forever.
    state = deal(ruleset("standard"), 2, seed=1)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(next((a for a in legal if isinstance(a, (A.DrawDiscard, A.Discard))), legal[0]))
    out = state.outcome()
    assert out is not None and out.end == "dead_hand"
    assert f"turn cap ({MAX_TURNS} turns, MAX_TURNS)" in out.message
    assert state.turn_number == MAX_TURNS + 1


def test_a_turn_structure_that_can_cycle_is_refused(write) -> None:
    p = write("loop.yaml", "extends: standard\nname: Loop\nturn:\n  draw: {from: [discard]}\n")
    with pytest.raises(LoadError) as info:
        load_ruleset(p)
    (d,) = info.value.diagnostics
    assert d.code == "turn-may-cycle" and (d.line, d.column) == (4, 16)
    assert "players never draw from the stock, so it never runs out" in d.message
