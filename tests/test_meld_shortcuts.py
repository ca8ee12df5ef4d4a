"""The meld shortcuts the engine takes for speed give the same answers as brute force.

``spreads_in`` skips hands that fail two bit tests, and a spread is only searched for hits when
the hand holds a card that fits it alone (``accepts``). Both are checked here against plain
enumeration with ``is_book``/``is_run``, over packs with wild cards, jokers, wrapping runs, two
decks and a run order that card ids do not follow.
"""
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from tonkdsl import load_ruleset
from tonkdsl.interpreter.melds import BOOK, RUN, MeldRules, meld_rules
from conftest import TESTS

PACKS = ["standard", "seattle", "vietnam", TESTS / "variations" / "v09-jokers.yaml",
         TESTS / "variations" / "v11b-seven-of-forty.yaml", TESTS / "variations" / "v10-faces-high.yaml",
         TESTS / "rulesets" / "ace-high-runs.yaml",  # card ids out of run order
         "big-table", TESTS / "variations" / "x14-ace-both-ways.yaml",  # identical cards; an ace high or low
         TESTS / "variations" / "x14-wild-limits.yaml"]  # at most one wild card, two natural cards
_MELDS: dict[Any, MeldRules] = {}


def melds_of(ref: str | Path) -> MeldRules:
    if ref not in _MELDS:
        _MELDS[ref] = meld_rules(load_ruleset(ref))
    return _MELDS[ref]


def brute_spreads(m: MeldRules, hand: list[int]) -> set[tuple[int, ...]]:
    out = set()
    cards = sorted(hand)
    for size in range(m.min_size, len(cards) + 1):
        for combo in combinations(cards, size):
            if m.is_book(combo) or m.is_run(combo):
                out.add(combo)
    return out


@pytest.mark.parametrize("ref", PACKS, ids=str)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_spreads_in_equals_brute_force(ref: Any, data: Any) -> None:
    m = melds_of(ref)
    hand = data.draw(st.lists(st.integers(0, len(m.pack) - 1), min_size=0, max_size=9, unique=True))
    assert set(m.spreads_in(hand)) == brute_spreads(m, hand)
    assert len(m.spreads_in(hand)) == len(set(m.spreads_in(hand)))
    if m.indexable:
        assert m.spreads_in(hand, m.hand_sig(hand)) == m.spreads_in(hand)


WILD_PACKS = PACKS + ["hoyle-tunk", TESTS / "variations" / "x30-wild-limits-per-kind.yaml",
                     TESTS / "variations" / "combo-no-upcard-low-jokers.yaml"]


@pytest.mark.parametrize("ref", WILD_PACKS, ids=str)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_pruned_search_lists_the_spreads_of_every_combination_in_order(ref: Any, data: Any) -> None:
    """MeldRules._spreads_any (wild cards, big hands) drops partial combinations that can be
    neither a book nor a run; it lists exactly what testing every combination lists, in the
    same order (the order of the actions built from it)."""
    m = melds_of(ref)
    meldable = [c for c in range(len(m.pack)) if m.meldable[c]]
    hand = data.draw(st.lists(st.sampled_from(meldable), min_size=0, max_size=13, unique=True))
    cards = sorted(hand)
    top = min(len(cards), max(m.book_max, m.run_max))
    every = [combo for size in range(m.min_size, top + 1) for combo in combinations(cards, size)
             if m.is_book(combo) or m.is_run(combo)] if len(cards) >= m.min_size else []
    assert m._spreads_any(hand) == every


@pytest.mark.parametrize("ref", PACKS, ids=str)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_hit_needs_a_card_that_fits_alone(ref: Any, data: Any) -> None:
    m = melds_of(ref)
    n = len(m.pack)
    cards = data.draw(st.lists(st.integers(0, n - 1), min_size=m.min_size, max_size=m.min_size + 8, unique=True))
    combos = sorted(brute_spreads(m, cards))
    if not combos:
        return
    spread = list(data.draw(st.sampled_from(combos)))
    hand = [c for c in cards if c not in spread]
    kind = BOOK if m.is_book(spread) else RUN
    fits = m.accepts(spread, kind)
    assert fits == sum(1 << c for c in range(n) if c not in spread and
                       (m.is_book if kind == BOOK else m.is_run)(spread + [c]))
    hits = list(m.hits_on(spread, kind, hand, len(hand)))
    if hits:
        assert any(fits >> c & 1 for c in hand), (spread, hits)


@pytest.mark.parametrize("ref", PACKS, ids=str)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_book_and_run_shortcuts_equal_the_general_checks(ref: Any, data: Any) -> None:
    m = melds_of(ref)
    n = len(m.pack)
    suits = m.suit_id
    cards = data.draw(st.lists(st.integers(0, n - 1), min_size=0, max_size=8, unique=True))
    # Cards of one suit, so that runs come up often enough to matter.
    suit = data.draw(st.sampled_from(sorted(set(suits))))
    same = [c for c in range(n) if suits[c] == suit]
    run_like = data.draw(st.lists(st.sampled_from(same), min_size=0, max_size=8, unique=True))
    for combo in (cards, run_like, sorted(run_like)):
        n_ok = m.book_min <= len(combo) <= m.book_max
        assert m.is_book(combo) == (n_ok and m._is_book_general(combo)), combo
        n_ok = m.run_min <= len(combo) <= m.run_max
        assert m.is_run(combo) == (n_ok and m._is_run_general(combo)), combo


@settings(max_examples=30)
@given(st.data())
def test_deadwood_remembered_is_deadwood_searched_and_the_memory_stays_bounded(data: Any) -> None:
    import tonkdsl.interpreter.melds as M

    m = melds_of(data.draw(st.sampled_from(PACKS)))
    kept, M._ARRANGEMENTS_KEPT = M._ARRANGEMENTS_KEPT, 4
    try:
        for _ in range(6):
            hand = data.draw(st.lists(st.integers(0, len(m.pack) - 1), min_size=1, max_size=8, unique=True))
            assert m.deadwood(hand) == m.best_arrangement(hand)[1]
            assert m.deadwood(hand) == m.best_arrangement(hand)[1]  # asked again: from memory
            assert len(m._arrangements) <= 4
    finally:
        M._ARRANGEMENTS_KEPT = kept


@settings(max_examples=30)
@given(st.data())
def test_deadwood_count_remembered_by_the_cards_held_in_any_order(data: Any) -> None:
    """State.deadwood_count (the expressions' deadwood_count) is the count of the deadwood
    searched, whatever the order of the hand it is asked of first; its memory stays bounded."""
    import tonkdsl.interpreter.melds as M

    m = melds_of(data.draw(st.sampled_from(PACKS)))
    kept, M._ARRANGEMENTS_KEPT = M._ARRANGEMENTS_KEPT, 4
    try:
        for _ in range(6):
            hand = data.draw(st.lists(st.integers(0, len(m.pack) - 1), min_size=1, max_size=8, unique=True))
            mask = sum(1 << c for c in hand)
            searched = sum(m.value[c] for c in m.best_arrangement(hand)[1])
            for order in (hand, hand[::-1], data.draw(st.permutations(hand))):
                assert m.deadwood_count(order, mask) == searched, order
            assert len(m._dead_counts) <= 4
    finally:
        M._ARRANGEMENTS_KEPT = kept


def test_state_deadwood_count_reads_the_hand_held() -> None:
    from tonkdsl.interpreter.engine import deal

    state = deal(load_ruleset("hoyle-tunk"), 3, seed=5)
    for seat in range(3):
        hand = state.hands[seat]
        assert state.deadwood_count(seat) == sum(state.melds.value[c] for c in state.melds.deadwood(hand))
        state.set_hand(seat, hand[::-1])  # the same cards in another order: the same count
        assert state.deadwood_count(seat) == sum(state.melds.value[c] for c in state.melds.deadwood(hand))
    # The counts of a hand less each card, remembered together, are found under the masks the
    # state reads (bit c of the mask is card c).
    seat = state.current_player()
    hand = list(state.hands[seat])
    assert state.hand_mask(seat) == sum(1 << c for c in hand)
    state.melds._dead_counts.clear()
    state._remember_deadwood_without(seat)
    for c in hand:
        rest = [d for d in hand if d != c]
        remembered = state.melds._dead_counts[state.hand_mask(seat) & ~(1 << c)]
        assert remembered == sum(state.melds.value[d] for d in state.melds.best_arrangement(rest)[1])


@settings(max_examples=40)
@given(st.data())
def test_deadwood_of_a_hand_less_each_card_searched_together_is_searched_alone(data: Any) -> None:
    """remember_deadwood_without(hand) leaves for each card the count deadwood_count finds for the
    hand less that card on its own (the spreads of the whole hand, filtered, and one table)."""
    m = melds_of(data.draw(st.sampled_from(PACKS)))
    hand = data.draw(st.lists(st.integers(0, len(m.pack) - 1), min_size=2, max_size=9, unique=True))
    mask = sum(1 << c for c in hand)
    m._dead_counts.clear()
    m.remember_deadwood_without(hand, mask)
    together = {c: m._dead_counts[mask & ~(1 << c)] for c in hand}
    alone = {c: sum(m.value[d] for d in m.best_arrangement([d for d in hand if d != c])[1]) for c in hand}
    assert together == alone
