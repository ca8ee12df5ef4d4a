"""Turn flow as data (issue 15): when a drop may be made, the last round after it, eating, a
rebuilt stock, uneven deals and openings, who deals next."""
from typing import Any

import pytest
from hypothesis import given, strategies as st

from tonkdsl import load_ruleset
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction, Layout, RulesetError, State, deal, hand_sizes
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.table import ASK, PLAY
from tonkdsl.language.rng import Rng
from conftest import TESTS, refused

VAR = TESTS / "variations"


def placed(ref: Any, players: int, hands: dict[int, list[str]], seed: int = 1, dealer: int | None = None) -> State:
    """A hand dealt with some hands fixed (as a scenario does); the rest from the seed."""
    rs = load_ruleset(ref)
    pack = rs.pack_for(players)
    taken: list[int] = []
    fixed: dict[int, list[int]] = {}
    for seat, names in hands.items():
        fixed[seat] = []
        for n in names:
            c = pack.find(n, taken)
            taken.append(c)
            fixed[seat].append(c)
    return deal(rs, players, seed=seed, dealer=dealer, layout=Layout(fixed))


def test_a_drop_before_the_discard_offers_only_the_discards_that_keep_the_condition() -> None:
    state = placed(VAR / "x15-knock-before-discard.yaml", 3, {0: ["5H", "6H", "7H", "2C", "KD"]})
    three = state.pack.find("3D")
    for h in state.hands[1:]:
        assert three not in h
    state.stock.remove(three)
    state.stock.append(three)  # the top of the stock
    state.apply("draw stock")
    assert A.Drop() in state.legal_actions()       # deadwood 2C 3D KD = 15, but 5 once KD goes
    state.apply("drop")
    assert [str(a) for a in state.legal_actions()] == ["discard KD"]
    with pytest.raises(IllegalAction, match="after discarding 2C your hand would not meet the drop condition"):
        state.apply("discard 2C")
    with pytest.raises(IllegalAction, match="you have dropped: discard a card to end your turn"):
        state.apply("spread 5H 6H 7H")
    state.apply("discard KD")
    assert state.closing is not None and state.closing.by == 0 and len(state.spreads) == 1 and state.count(0) == 5  # the run is laid


def test_the_last_round_gives_each_other_player_one_turn_then_decides() -> None:
    state = placed(VAR / "x15-knock-before-discard.yaml", 4, {0: ["5H", "6H", "7H", "AC", "2C"]})
    state.apply("draw stock")
    state.apply("drop")
    state.apply(state.legal_actions()[-1])
    seen = []
    while not state.is_terminal():
        seen.append(state.current)
        assert A.Drop() not in state.legal_actions()
        state.apply("draw stock")
        state.apply(next(a for a in state.legal_actions() if isinstance(a, A.Discard)))
    assert seen == [1, 2, 3] and state.outcome().end in ("drop_won", "drop_caught")


def test_a_drop_instead_of_the_discard_ends_the_turn_at_once() -> None:
    state = placed(VAR / "x15-knock-instead-of-discard.yaml", 2, {0: ["AH", "AC", "2D", "2S", "3C"]})
    ace = state.pack.find("AD")
    state.stock.remove(ace)
    state.stock.append(ace)  # the top of the stock
    state.apply("draw stock")
    assert state.count(0) == 10 and A.Drop() in state.legal_actions()
    state.apply("drop")
    assert state.is_terminal() and len(state.discard_pile) == 1  # no discard was made


def test_a_rebuilt_stock_is_the_discard_pile_but_its_top_shuffled_from_the_seed() -> None:
    def run(rebuild_twice: bool) -> tuple[list[int], int]:
        rs = load_ruleset(VAR / "x15-rebuilt-stock.yaml")
        state = deal(rs, 2, seed=11, dealer=1)
        top_before: list[int] = []
        while not state.is_terminal():
            if not state.stock and not top_before:
                pile = list(state.discard_pile)
                state.apply("draw stock")
                top_before = pile
                assert state.rebuilds == 1 and state.discard_pile == pile[-1:]
                assert sorted(state.stock + [state.hands[state.current][-1]]) == sorted(pile[:-1])
                rebuilt = list(state.stock)
            else:
                state.apply("draw stock")
            if state.is_terminal():
                break
            state.apply(f"discard {state.pack.names[state.hands[state.current][-1]]}")
        return rebuilt, state.rebuilds
    assert run(False) == run(True)  # the same seed: the same rebuilt stock


def test_a_stock_rebuilt_from_the_whole_pile_as_often_as_it_runs_out() -> None:
    # stock.rebuild: always, rebuild_takes: whole_pile: the top card goes into the new stock too,
    # the discard pile is left empty, and the stock is rebuilt every time it runs out.
    rs = load_ruleset(VAR / "x76-whole-pile-rebuilt.yaml")
    state = deal(rs, 2, seed=11, dealer=1)
    rebuilt = 0
    while not state.is_terminal() and rebuilt < 3:
        if not state.stock:
            pile = list(state.discard_pile)
            state.apply("draw stock")
            rebuilt += 1
            assert state.rebuilds == rebuilt and state.discard_pile == []
            assert sorted(state.stock + [state.hands[state.current][-1]]) == sorted(pile)
        else:
            state.apply("draw stock")
        state.apply(f"discard {state.pack.names[state.hands[state.current][-1]]}")
        assert sorted([c for h in state.hands for c in h] + state.stock + state.discard_pile) == list(range(16))
    assert rebuilt == 3  # no cap: a fourth would come too


def test_without_a_rebuild_the_hand_ends_when_the_stock_runs_out(write: Any) -> None:
    p = write("r.yaml", f"extends: {VAR / 'x15-rebuilt-stock.yaml'}\nname: R\nstock: {{rebuild: 0}}\n")
    state = deal(load_ruleset(p, allow_paths=[VAR]), 2, seed=11, dealer=1)
    draws = 0
    while not state.is_terminal():
        state.apply("draw stock")
        draws += 1
        if not state.is_terminal():
            state.apply(f"discard {state.pack.names[state.hands[state.current][-1]]}")
    assert state.outcome().end == "stock_exhausted" and draws == 18   # 17 cards, then the empty stock


def test_uneven_deal_and_an_opening_without_a_draw() -> None:
    rs = load_ruleset(VAR / "x15-dealer-opens.yaml")
    state = deal(rs, 3, seed=5, dealer=1)
    assert [len(h) for h in state.hands] == [5, 6, 5] and hand_sizes(state) == [5, 6, 5]
    assert state.current == 1 and state.phase == PLAY and A.DrawStock() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="the first player does not draw on the first turn"):
        state.apply("draw stock")
    assert len(state.stock) == 52 - 16


def test_extra_cards_that_leave_a_hand_empty_are_a_ruleset_error(write: Any) -> None:
    p = write("r.yaml", "extends: standard\nname: R\ndeal:\n  extra_cards: [{to: dealer, cards: -5}]\n")
    with pytest.raises(RulesetError, match="deal.extra_cards leaves seat 1 with 0 cards"):
        deal(load_ruleset(p), 2, seed=1)


@pytest.mark.parametrize("end,dropper,winners,expected", [
    ("redeal", None, (), 1), ("drop_caught", 2, (0,), 2), ("drop_won", 0, (0,), 0), ("tonk_out", None, (2,), 2),
])
def test_who_deals_next_follows_the_outcome(end: str, dropper: Any, winners: Any, expected: int) -> None:
    from tonkdsl.interpreter.outcome import Outcome
    rs = load_ruleset(VAR / "x15-dealer-opens.yaml")
    state = deal(rs, 3, seed=2, dealer=1)
    state._outcome = Outcome(end, winners, (0, 0, 0), (0, 0, 0))
    state.dropper = dropper
    session = Session(rs, 3, dealer=1)
    session.finish_hand(state)
    assert session.dealer == expected


def test_without_next_dealer_rules_the_deal_passes_on() -> None:
    rs = load_ruleset("standard")
    session = Session(rs, 3, dealer=1)
    state = session.start_hand(seed=3)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1] if state.phase == PLAY else "draw stock")
    session.finish_hand(state)
    assert session.dealer == 2


def test_eating_asks_nearest_the_discarders_left_and_skips_the_players_between() -> None:
    state = placed(VAR / "x15-eating.yaml", 4, {0: ["8H", "2C", "3D", "4S", "KD"], 2: ["6H", "7H", "KC", "AD", "2S"],
                                                 3: ["9H", "10H", "4C", "5S", "6C"]})
    state.apply("draw stock")
    state.apply("discard 8H")
    assert state.phase == ASK and state.asking.queue == [2, 3] and state.current_player() == 2
    assert [str(a) for a in state.legal_actions()] == ["eat", "pass"]
    state.apply("pass")
    assert state.current_player() == 3
    turns_of_bob = state.stats[1].turns
    state.apply("eat")
    assert state.current == 3 and state.phase == PLAY and state.stats[1].turns == turns_of_bob
    assert [str(a) for a in state.legal_actions()] == ["spread 8H 9H 10H"]  # the card must be spread at once


def test_counters_hear_every_turn_start_and_every_discard(write: Any) -> None:
    """The events of every turn (turn_start, discarded) reach the counters listening to them:
    the engine reads them as flags on its fast path, which must stay in step with the set."""
    from tonkdsl.interpreter.view import observation
    from tonkdsl.language.rng import Rng
    from tonkdsl.tools.bots import policy

    path = write("listen.yaml", "extends: standard\nname: Listen\ncounters:\n"
                 "  turns: {initial: 0, events: [{on: turn_start, target: actor, add: 1}]}\n"
                 "  discards: {initial: 0, events: [{on: discarded, target: actor, add: 1}]}\n")
    rs = load_ruleset(path)
    greedy = policy("greedy")
    for seed in range(5):
        state, rng = deal(rs, 3, seed=seed, dealer=seed % 3), Rng(seed)
        discards = [0, 0, 0]
        while not state.is_terminal():
            seat = state.current_player()
            action = greedy(observation(state, seat), state.legal_actions(), rng)
            discards[seat] += isinstance(action, A.Discard)
            state.apply(action)
        assert sum(discards) > 0
        assert list(state.counters["discards"]) == discards
        assert list(state.counters["turns"]) == [st.turns for st in state.stats]


def test_a_rule_may_name_the_upcard_only_where_one_is_turned_up(tmp_path: Any) -> None:
    from tonkdsl.interpreter.engine import deal

    rs = load_ruleset(TESTS / "variations" / "x30-upcard-ace-no-drop.yaml")
    for seed in range(40):  # the rule reads the card turned up, wherever it is now
        state = deal(rs, 3, seed=seed)
        on_an_ace = state.pack.ranks[state.discard_pile[-1]] == "A"
        assert (A.Drop() in state.legal_actions()) is not on_an_ace
    bare = tmp_path / "no-upcard.yaml"
    bare.write_text("extends: standard\nname: No upcard\ndeal: {upcard: false}\n"
                    "turn:\n  drop:\n    allowed: upcard.rank != A\n")
    d = refused(bare, "upcard-missing")
    assert (d.line, d.column, d.message) == (
        6, 14, "this rule reads the upcard, but the ruleset turns no card up (deal.upcard: false)")


def _drop_discards_by_clones(state: State, seat: int) -> list[int]:
    """The discards after which a drop declared before the discard holds, each tested on a
    clone of the whole state (what the engine did before it learned to put the card back)."""
    names = state.pack.names
    taken = state.taken_discard
    out = []
    for card in dict.fromkeys(state.hands[seat]):
        if state.ruleset.not_the_card_taken and taken is not None and names[card] == names[taken]:
            continue
        twin = state.clone()
        twin._take(seat, card)
        if twin._test(state.ruleset.drop_allowed, seat):
            out.append(card)
    return out


@given(st.integers(0, 2**32), st.sampled_from(["hoyle-tunk", VAR / "x15-knock-before-discard.yaml"]))
def test_a_drop_after_the_draw_is_tested_on_the_hand_and_leaves_it_as_it_was(seed: int, ref: Any) -> None:
    rs = load_ruleset(ref)
    state = deal(rs, 2, seed=seed)
    rng = Rng(seed)
    tested = 0
    while not state.is_terminal() and tested < 12:
        seat = state.current_player()
        if state.phase == PLAY and not state.knock_declared and state.closing is None:
            before = ([list(h) for h in state.hands], list(state.hand_value), list(state.hand_sig),
                      [list(d) for d in state.hand_discards])
            expected = _drop_discards_by_clones(state, seat)
            assert state._drop_discards(seat) == expected
            assert state._can_drop_in_play(seat) == (expected != [] and not (
                state.taken_discard in state.hands[seat] and state._must_use_taken()))
            assert ([list(h) for h in state.hands], list(state.hand_value), list(state.hand_sig),
                    [list(d) for d in state.hand_discards]) == before
            tested += 1
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("ref, hand_only", [
    ("hoyle-tunk", True),                                     # deadwood_count <= 5
    ("standard", False),                                      # true: a constant needs no memory
    (VAR / "v06a-wait-after-spread.yaml", False),             # a counter: waiting == 0
])
def test_only_a_drop_condition_that_reads_the_hand_alone_is_remembered_by_hand(ref: Any, hand_only: bool) -> None:
    from tonkdsl.interpreter.melds import meld_rules

    assert meld_rules(load_ruleset(ref)).drop_reads_hand is hand_only


def test_a_remembered_drop_after_the_draw_is_the_answer_for_that_hand_and_card_taken() -> None:
    state = placed(VAR / "x15-knock-before-discard.yaml", 3, {0: ["5H", "6H", "7H", "2C", "KD"]})
    assert state.melds.drop_reads_hand
    three = state.pack.find("3D")
    state.stock.remove(three)
    state.stock.append(three)
    state.apply("draw stock")
    state.melds.hand_drops.clear()
    assert state._can_drop_in_play(0) is True
    assert state.melds.hand_drops == {(tuple(state.hands[0]), state.taken_discard): True}
    state.melds.hand_drops[tuple(state.hands[0]), state.taken_discard] = False  # what is remembered is the answer
    assert state._can_drop_in_play(0) is False
    state.melds.hand_drops.clear()
