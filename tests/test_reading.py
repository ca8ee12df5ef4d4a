"""The public record of a hand (State.record, View.record) and its reading
(tonkdsl/interpreter/reading.py): what the strong bot weighs its guesses at the others' hands by."""
from typing import Any

import pytest
from hypothesis import given, strategies as st

from tonkdsl import load_ruleset
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.reading import NO_DRAW, STOCK, declines_above, discard_odds, record_weight, turns_of
from tonkdsl.interpreter.table import DISCARDED, DREW_STOCK, DROP_DECLINED, LAID, TOOK, Layout
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng

from test_properties import RULESETS, advanced, ruleset


def _ids(state: State, names: str) -> list[int]:
    return [state.pack.names.index(n) for n in names.split()]


def _scripted() -> State:
    """Standard, two players, the dealer seat 1: seat 0 holds three sevens, seat 1 a pair of
    kings; the upcard is the 2 of clubs and the stock's top cards are the 9 of hearts, then
    the 4 of spades."""
    rs = load_ruleset("standard")
    probe = deal(rs, 2, seed=1, dealer=1)
    ids = lambda names: _ids(probe, names)  # noqa: E731
    layout = Layout(hands={0: ids("7H 7D 7S AC KD"), 1: ids("KC KS 3D 5C 8H")}, upcard=ids("2C")[0],
                    stock_top=ids("9H 4S"))
    return deal(rs, 2, seed=1, dealer=1, layout=layout)


def test_the_record_lists_each_draw_and_each_card_seen_taken_laid_or_discarded() -> None:
    state = _scripted()
    ids = lambda names: _ids(state, names)  # noqa: E731
    assert state.current_player() == 0 and state.record == []
    for action in ("draw stock", "spread 7H 7D 7S", "discard KD", "draw discard", "spread KC KD KS",
                   "discard 8H", "draw stock", "discard 9H"):
        state.apply(action)
    nine, king, eight = ids("9H KD 8H")
    declined = DROP_DECLINED  # standard lets the player drop at the start of every turn
    assert state.record == [
        (0, DREW_STOCK + declined, -1),  # the card drawn from the stock is nobody else's to see
        *[(0, LAID, c) for c in ids("7H 7D 7S")],
        (0, DISCARDED, king),
        (1, TOOK + declined, king),
        *[(1, LAID, c) for c in sorted(ids("KC KD KS"), key=state.melds.table_order.__getitem__)],
        (1, DISCARDED, eight),
        (0, DREW_STOCK + declined, -1),
        (0, DISCARDED, nine),
    ]
    assert View(state, 1).record == tuple(state.record)  # public: every seat sees the same record
    sevens = sum(1 << c for c in ids("7H 7D 7S"))
    assert turns_of(state.record, 0) == [(STOCK, sevens, king, True), (STOCK, 0, nine, True)]
    kings = sum(1 << c for c in ids("KC KD KS"))
    assert turns_of(state.record, 1) == [(king, kings, eight, True)]


def test_a_turn_under_way_is_listed_without_its_discard() -> None:
    state = _scripted()
    state.apply("draw stock")
    assert turns_of(state.record, 0) == [(STOCK, 0, -1, True)]
    assert turns_of(state.record, 1) == []


def test_a_draw_where_no_drop_was_open_is_not_read_as_a_drop_declined() -> None:
    # Hoyle's Tunk knocks after the draw: at the start of a turn no drop is open.
    rs = load_ruleset("hoyle-tunk")
    state = deal(rs, 2, seed=4)
    state.apply(A.DrawStock())
    assert state.record[0][1] == DREW_STOCK
    assert turns_of(state.record, state.current_player()) == [(STOCK, 0, -1, False)]


def test_a_turn_without_a_draw_reads_as_no_draw() -> None:
    assert turns_of([(0, LAID, 5), (0, DISCARDED, 9)], 0) == [(NO_DRAW, 1 << 5, 9, False)]
    # A draw after a turn that ended without a discard (a hit may end a turn) begins a new turn.
    assert turns_of([(0, DREW_STOCK, -1), (0, LAID, 5), (0, TOOK, 7)], 0) == [
        (STOCK, 1 << 5, -1, False), (7, 0, -1, False)]


@pytest.mark.parametrize("ref", RULESETS)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40), choice_seed=st.integers(0, 2**32))
def test_the_record_accounts_for_every_card_in_and_out_of_each_hand(ref: Any, seed: int, steps: int,
                                                                     choice_seed: int) -> None:
    state, _ = advanced(ruleset(ref), seed, steps, choice_seed)
    for seat, dealt in enumerate(state.dealt_hands):
        kinds = [kind & 3 for who, kind, _ in state.record if who == seat]
        drawn = sum(k in (DREW_STOCK, TOOK) for k in kinds)
        gone = sum(k in (LAID, DISCARDED) for k in kinds)
        assert len(state.hands[seat]) == len(dealt) + drawn - gone
        # Each card seen going in is in the hand or was seen going out again.
        seen_out = {c for who, kind, c in state.record if who == seat and kind & 3 in (LAID, DISCARDED)}
        for who, kind, c in state.record:
            if who == seat and kind & 3 == TOOK:
                assert c in state.hands[seat] or c in seen_out


def _standard_view() -> tuple[View, Any]:
    state = deal(load_ruleset("standard"), 2, seed=2)
    view = View(state, 0)
    return view, lambda *cards: sum(1 << state.pack.names.index(c) for c in cards)


def test_a_greedy_player_lets_go_its_highest_loose_card() -> None:
    view, mask = _standard_view()
    near, values = view.meld_rules.near(2), view.pack.values
    five = view.pack.names.index("5D")
    # Five of diamonds with two nines and low loose cards: greedy's choice, the nines kept as a pair.
    assert discard_odds(mask("AC", "2H", "3S", "9C", "9H", "5D"), five, near, values, 0.2) == pytest.approx(0.8 + 0.2 / 6)
    # With a loose king it would have let the king go: only the 'any card' share is left.
    assert discard_odds(mask("KC", "2H", "3S", "9C", "9H", "5D"), five, near, values, 0.2) == pytest.approx(0.2 / 6)


def test_a_guess_weighs_how_likely_a_greedy_player_would_have_played_the_turns_seen() -> None:
    """One turn: a card drawn from the stock and the 5 of diamonds let go, a drop declined."""
    view, mask = _standard_view()
    names, near, values = view.pack.names, view.meld_rules.near(2), view.pack.values
    greedy = declines_above(10)  # greedy drops with 10 or less
    turn = [(STOCK, 0, names.index("5D"), True)]
    # Kept: a pair of nines and loose cards below the five: greedy's discard, whichever of the
    # six cards came from the stock (and every hand it started from counts above 10).
    assert record_weight(mask("AC", "2H", "3S", "9C", "9H"), turn, 0, near, values, greedy) == pytest.approx(
        6 * (0.8 + 0.2 / 6))
    # A loose king kept while the five went: greedy would have let the king go.
    assert record_weight(mask("KC", "2H", "3S", "9C", "9H"), turn, 0, near, values, greedy) == pytest.approx(
        6 * 0.2 / 6)
    # The nine of clubs was seen taken from the pile: the only way the turn went.
    taken = [(names.index("9C"), 0, names.index("5D"), True)]
    assert record_weight(mask("AC", "2H", "3S", "9C", "9H"), taken, mask("9C"), near, values, greedy) == pytest.approx(
        0.8 + 0.2 / 6)
    # Pairs of aces and twos with a three: dropping the five's draw leaves a count of 9, which
    # greedy would have dropped with (that way counts eps); the other five ways count whole.
    low = mask("AC", "AD", "2H", "2S", "3S")
    assert record_weight(low, turn, 0, near, values, greedy) == pytest.approx((0.8 + 0.2 / 6) * (5 + 0.2))
    # No drop was open at that turn's start: not dropping says nothing.
    assert record_weight(low, [(STOCK, 0, names.index("5D"), False)], 0, near, values, greedy) == pytest.approx(
        (0.8 + 0.2 / 6) * 6)
    # A player who drops with up to 30: every hand it could have started from counts under 30.
    assert record_weight(low, turn, 0, near, values, declines_above(30)) == pytest.approx((0.8 + 0.2 / 6) * 6 * 0.2)


def test_the_record_makes_the_discards_of_earlier_turns_count() -> None:
    """The last discard was a king (a card may be let go as soon as drawn); the turn before, a 3:
    a hand still holding a loose 9 from then is unlikely, though the king alone allows it. The
    other hand kept only an ace loose besides pairs and near-runs (2H 2S, 2S 4S 6S)."""
    view, mask = _standard_view()
    names, near, values = view.pack.names, view.meld_rules.near(2), view.pack.values
    turns = [(STOCK, 0, names.index("3D"), True), (STOCK, 0, names.index("KH"), True)]
    greedy = declines_above(10)
    low, nine = mask("AC", "2H", "2S", "4S", "6S"), mask("AC", "2H", "2S", "4S", "9S")
    assert record_weight(nine, turns, 0, near, values, greedy) < record_weight(low, turns, 0, near, values, greedy) / 3
    assert record_weight(nine, turns[1:], 0, near, values, greedy) == pytest.approx(
        record_weight(low, turns[1:], 0, near, values, greedy))


def test_a_world_is_weighed_by_the_others_record_in_the_strong_bot() -> None:
    from tonkdsl.tools.strong import StrongBot, record_odds

    state = _scripted()
    for action in ("draw stock", "spread 7H 7D 7S", "discard KD", "draw discard", "spread KC KD KS",
                   "discard 8H"):
        state.apply(action)
    view = View(state, 0)
    bot = StrongBot()
    odds = record_odds(view, [bot.declines(seat) for seat in range(2)])
    assert odds is not None
    fits, unfit = state.clone(), state.clone()
    fits.set_hand(1, _ids(state, "3D 5C"))  # what seat 1 kept: low cards, the eight let go
    unfit.set_hand(1, _ids(state, "QH 5C"))  # a queen kept while the eight went
    assert odds(fits) > 3 * odds(unfit)
    # Before anybody else has played a turn there is nothing to read.
    assert record_odds(View(_scripted(), 0), [bot.declines(seat) for seat in range(2)]) is None
