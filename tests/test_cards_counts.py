"""Cards and counts as data (issue 14): several decks, values per card and by the holder's
choice, the ace high or low, limits on wild cards, and the expressions over cards."""
import json
import subprocess
import sys
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from tonkdsl import LoadError, load_ruleset
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.melds import meld_rules, table_for
from tonkdsl.language.cards import Pack
from tonkdsl.tools.explain.diff import diff
from tonkdsl.language.expr import BOOL, NUM, compile_expr, list_of
from tonkdsl.language.names import EvalContext, holder_chooses, make_names
from tonkdsl.tools.lint.checks import lint
from tonkdsl.tools.lint.odds import compute
from conftest import TESTS

VAR = TESTS / "variations"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def cards(state: State, *names: str) -> list[int]:
    """Card ids for names, each copy once (two '7H' give both copies)."""
    out: list[int] = []
    for n in names:
        out.append(state.pack.find(n, out))
    return out


def holding(ref: Any, hand: list[str], players: int = 2) -> State:
    rs = load_ruleset(ref)
    state = deal(rs, players, seed=1)
    state.set_hand(0, cards(state, *hand))
    return state


def ev(state: State, text: str, expect: Any = BOOL, choices: bool = False) -> Any:
    names = make_names(["actor"], [], subject=True, choices=choices)
    fn = compile_expr(text, names, expect).fn
    return (holder_chooses(fn) if choices else fn)(EvalContext(state, actor=0))


# --- the pack -------------------------------------------------------------------------------
def test_pack_values_by_card_come_before_rank_and_choices_make_totals() -> None:
    pack = Pack.build(RANKS, ["C", "D", "H", "S"], 1, {"A": [1, 11], "J": 10, "Q": 10, "K": 10, "QS": 25,
                                                      "3H": 0, "JK": 0, **{r: int(r) for r in RANKS[1:10]}},
                      RANKS + ["A"], ["JK"], decks=2, wild_value=[0, 50])
    assert len(pack) == 106 and pack.decks == 2 and pack.copies("QS") == 2 and pack.copies("JK") == 2
    qs, qh, h3, ah, jk = (pack.find(n) for n in ("QS", "QH", "3H", "AH", "JK"))
    assert (pack.values[qs], pack.values[qh], pack.values[h3]) == (25, 10, 0)
    assert pack.options[ah] == (1, 11) and pack.values[ah] == 1 and pack.options[jk] == (0, 50)
    assert pack.run_places[ah] == (0, 13) and pack.run_places[jk] == ()
    ac = pack.find("AC")
    assert pack.totals([ah, ac, qs]) == (27, 37, 47) and pack.totals([qh, h3]) == (10,)


def test_identical_cards_are_listed_once_and_interchangeable_in_actions() -> None:
    state = holding("big-table", ["7H", "7H", "7S", "7D", "KC"], players=6)
    state.apply("draw stock")
    legal = [str(a) for a in state.legal_actions()]
    assert len(legal) == len(set(legal))
    assert "spread 7H 7H 7S" in legal and legal.count("discard 7H") == 1
    state.apply("spread 7H 7H 7S 7D")
    assert [state.pack.names[c] for c in state.spreads[0].cards] == ["7D", "7H", "7H", "7S"]


def test_a_book_of_identical_cards_only_where_the_ruleset_allows_it() -> None:
    allowed = table_for(load_ruleset("big-table"), 6)[1]
    strict = table_for(load_ruleset(VAR / "x14-decks-by-players.yaml"), 6)[1]
    for m, ok in ((allowed, True), (strict, False)):
        h7 = [c for c in range(len(m.pack)) if m.pack.names[c] == "7H"]
        s7 = m.pack.find("7S")
        assert m.is_book([*h7, s7]) is ok
        assert m.is_book([h7[0], s7, m.pack.find("7D")])


def test_decks_follow_the_number_of_players() -> None:
    rs = load_ruleset(VAR / "x14-decks-by-players.yaml")
    assert [rs.decks_for(n) for n in (2, 5, 6, 12)] == [1, 1, 2, 2]
    assert len(deal(rs, 5, seed=3).pack) == 52 and len(deal(rs, 6, seed=3).pack) == 104
    state = deal(rs, 9, seed=3)
    everything = sorted([c for h in state.hands for c in h] + state.stock + state.discard_pile)
    assert everything == list(range(104))


def test_the_ace_high_or_low_without_turning_the_corner() -> None:
    m = meld_rules(load_ruleset(VAR / "x14-ace-both-ways.yaml"))
    run = lambda *names: m.is_run([m.pack.find(n) for n in names])  # noqa: E731
    assert run("AH", "2H", "3H") and run("QH", "KH", "AH") and run("JH", "QH", "KH", "AH")
    assert not run("KH", "AH", "2H") and not run("QH", "KH", "AH", "2H")
    assert not m.is_run([m.pack.find(n) for n in ("AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H",
                                                  "JH", "QH", "KH", "AS")])


def test_wild_card_limits_and_values() -> None:
    rs = load_ruleset(VAR / "x14-wild-limits.yaml")
    m = meld_rules(rs)
    ids = lambda *names: [m.pack.find(n) for n in names]  # noqa: E731
    assert m.is_run(ids("5H", "6H", "2C")) and not m.is_run(ids("5H", "2C", "JK"))
    assert m.is_book(ids("9D", "9C", "2S")) and not m.is_book(ids("9D", "2S", "2C"))
    state = holding(VAR / "x14-wild-limits.yaml", ["2S", "JK", "9D", "9C", "4H"])
    assert state.count(0) == 15 + 15 + 9 + 9 + 4


# --- counts the holder chooses --------------------------------------------------------------
def test_a_condition_about_the_holder_holds_when_some_total_makes_it_hold() -> None:
    state = holding(VAR / "x14-card-values.yaml", ["AH", "KC", "QD", "JS", "9H"])
    assert ev(state, "count in [49, 50]", choices=True) is True      # the ace as 11
    assert ev(state, "count <= 40", choices=True) is True             # the ace as 1
    assert ev(state, "count == 45", choices=True) is False
    assert ev(state, "low_count", NUM) == 40 and ev(state, "high_count", NUM) == 50
    assert ev(state, "totals", list_of(NUM)) == (40, 50)
    assert state.count(0) == 40                                        # everywhere else: the lowest


def test_the_compiled_ruleset_declares_counts_for_rules_about_the_holder() -> None:
    rs = load_ruleset(VAR / "x14-card-values.yaml")
    state = deal(rs, 3, seed=0, layout=None)
    state.set_hand(0, cards(state, "AH", "AD", "2C", "3C", "4D"))  # 11 or 21 or 31
    state.set_hand(1, cards(state, "5S", "6S", "JH", "9C", "8D"))
    state.set_hand(2, cards(state, "KS", "KH", "JD", "10C", "9S"))
    assert state._test(rs.drop_wins_if, 0) is True        # 11 < 38
    assert rs.deal_wins[0].when.fn(EvalContext(state, 0)) is False


# --- functions over cards -------------------------------------------------------------------
def test_functions_over_cards() -> None:
    state = holding("standard", ["5H", "6H", "7H", "8H", "7S", "7C", "KD"])
    assert ev(state, "longest_run(hand)", NUM) == 4 and ev(state, "largest_book(hand)", NUM) == 3
    assert ev(state, "max_same_rank(hand)", NUM) == 3 and ev(state, "max_same_suit(hand)", NUM) == 4
    assert ev(state, "is_run(hand where suit == H)") is True and ev(state, "is_book(hand)") is False
    # The best arrangement keeps the run 5-8H and leaves 7S 7C KD (24), not the book of 7s (29).
    assert ev(state, "sum(deadwood(hand))", NUM) == 24
    assert ev(state, "count(deadwood(hand))", NUM) == 3


def brute_deadwood(m: Any, hand: list[int]) -> int:
    spreads = [set(s) for s in m.spreads_in(hand)]
    best = sum(m.value[c] for c in hand)

    def go(left: set[int], i: int) -> None:
        nonlocal best
        best = min(best, sum(m.value[c] for c in left))
        for j in range(i, len(spreads)):
            if spreads[j] <= left:
                go(left - spreads[j], j + 1)
    go(set(hand), 0)
    return best


@pytest.mark.parametrize("ref", ["standard", "chicago", "big-table"])
@settings(deadline=None)
@given(data=st.data())
def test_deadwood_is_the_best_arrangement(ref: str, data: Any) -> None:
    m = meld_rules(load_ruleset(ref))
    hand = data.draw(st.lists(st.integers(0, len(m.pack) - 1), min_size=0, max_size=9, unique=True))
    dead = m.deadwood(hand)
    assert set(dead) <= set(hand)
    assert sum(m.value[c] for c in dead) == brute_deadwood(m, hand)


# --- lint: exact odds with identical cards and choices --------------------------------------
def test_odds_stay_exact_with_identical_cards_per_card_values_and_choices(write: Any) -> None:
    p = write("small.yaml", """extends: standard
name: Small
players: {min: 2, max: 4}
pack:
  ranks: [A, 2, 3, 4]
  suits: [C, D]
  decks: 2
  values: {A: [1, 11], 4C: 9}
  run_order: [A, 2, 3, 4]
deal: {hand_size: 3}
deal_wins:
  rules:
    - id: tonk-49-50
      when: count in [13, 14]
    - id: high
      when: count >= 25
      pays: stake
""")
    rs = load_ruleset(p)
    table = compute(rs)
    state = deal(rs, 2, seed=0)
    met = {r.id: 0 for r in rs.deal_wins}
    for hand in combinations(range(len(state.pack)), 3):
        state.set_hand(0, list(hand))
        for r in rs.deal_wins:
            met[r.id] += bool(r.when.fn(EvalContext(state, 0)))
    assert table.total == comb(16, 3)
    assert {o.rule: o.hands for o in table.odds} == met and all(met.values())


def test_lint_finds_spreads_the_rules_cannot_make(write: Any) -> None:
    p = write("r.yaml", "extends: chicago\nname: R\nmelds:\n  book: {min: 5, max: 4}\n")
    (msg,) = problems(p)  # an empty size range is refused when the file loads
    assert msg.startswith(f"{p}:4:15: error[melds-range]: a book is at least 5 and at most 4 cards: no book can be made")
    p = write("r.yaml", "extends: chicago\nname: R\nmelds:\n  min_natural: 14\n")
    msgs = [d.message for d in lint(p).diagnostics if d.code == "meld-impossible"]
    assert ("every spread needs at least 14 natural cards, but no spread holds more than 13 cards: no spread "
            "can be made") in msgs


def test_lint_flags_rules_that_change_nothing_on_one_deck(write: Any) -> None:
    p = write("r.yaml", "extends: standard\nname: R\nmelds:\n  book: {identical_cards: true}\n  max_wild: 1\n")
    msgs = {d.message for d in lint(p).diagnostics if d.code == "rule-for-disabled"}
    assert "books may hold identical cards, but the pack has one deck: no two cards are identical" in msgs
    assert "melds.max_wild limits wild cards in spreads, but no wild card stands in a spread" in msgs


def test_wild_limits_per_kind_of_spread(write: Any) -> None:
    """melds.book / melds.run carry their own min_natural and max_wild (issue 30): a book with one
    natural card is refused while a run with one wild card is not, the sheet and diff say each
    kind, and lint names the kind that cannot be made or whose limit has no wild card."""
    ref = TESTS / "variations" / "x30-wild-limits-per-kind.yaml"
    rs = load_ruleset(ref)
    state = holding(ref, ["5H", "6H", "2C", "JK", "KD"])
    melds = meld_rules(rs)
    assert not melds.is_book(cards(state, "5H", "2C", "JK"))
    assert melds.is_book(cards(state, "5H", "5D", "2C", "JK"))
    assert melds.is_run(cards(state, "5H", "6H", "2C")) and not melds.is_run(cards(state, "5H", "2C", "JK"))
    said = [d.text for d in diff(load_ruleset("chicago").data, rs.data)]
    assert any("A book holds at least 0 -> 2 natural cards" in d for d in said)
    assert any("A run holds any number of -> at most 1 wild cards" in d for d in said)
    p = write("r.yaml", "extends: standard\nname: R\nmelds:\n  run: {min: 3, max_wild: 1}\n")
    msgs = {d.message for d in lint(p).diagnostics if d.code == "rule-for-disabled"}
    assert "melds.run.max_wild limits wild cards in spreads, but no wild card stands in a spread" in msgs
    p = write("r.yaml", "extends: chicago\nname: R\nmelds:\n  run: {min: 3, max: 4, min_natural: 5}\n")
    (d,) = [d for d in lint(p).diagnostics if d.code == "meld-impossible"]
    assert (d.severity, d.message) == ("warning", "every run needs at least 5 natural cards, but a run holds at "
                                       "most 4: only books can be made")


def test_lint_checks_the_deal_for_each_number_of_decks(write: Any) -> None:
    p = write("r.yaml", "extends: standard\nname: R\nplayers: {min: 2, max: 12}\npack:\n"
                        "  decks: [{up_to: 11, decks: 1}, {up_to: 12, decks: 2}]\n")
    (d,) = [d for d in lint(p).diagnostics if d.code == "pack-cannot-deal"]
    assert d.message == "the pack has 52 cards, but 11 players x 5 cards + the upcard need 56"
    assert lint("big-table").errors() == []


# --- located errors -------------------------------------------------------------------------
def problems(path: Path) -> list[str]:
    with pytest.raises(LoadError) as info:
        load_ruleset(path)
    return [d.render() for d in info.value.diagnostics]


def test_a_bad_key_in_a_merged_mapping_is_located_in_the_users_file(write: Any) -> None:
    p = write("r.yaml", "extends: standard\nname: X\npack:\n  values: {QS: 25, ZZ: 3}\n")
    (msg,) = problems(p)
    assert msg.startswith(f"{p}:4:20: error[schema-key]: 'values' cannot have the key 'ZZ'")


def test_a_value_for_a_card_the_pack_does_not_hold(write: Any) -> None:
    p = write("r.yaml", "extends: baton-rouge\nname: X\npack:\n  values: {10H: 0}\n")
    (msg,) = problems(p)
    assert msg.startswith(f"{p}:4:12: error[pack-value-unknown-card]: pack.values gives a value to 10H, which "
                          "is not in the pack")


@pytest.mark.parametrize("style", [">-", "|", ""])
def test_an_error_inside_a_multi_line_expression_is_located_at_its_line_and_column(write: Any, style: str) -> None:
    head = f"    allowed: {style}\n      " if style else "    allowed: count <= 10\n      "
    body = "count <= 10\n        and cuont > 2\n" if style else "and cuont > 2\n"
    p = write("r.yaml", "extends: standard\nname: X\nturn:\n  drop:\n" + head + body)
    (msg,) = problems(p)
    line = 7 if style else 6
    col = 13 if style else 11
    assert msg.startswith(f"{p}:{line}:{col}: error[expr-type]: unknown name 'cuont' (did you mean 'count'?)")


def test_run_order_lists_a_rank_twice_only_at_both_ends(write: Any) -> None:
    p = write("r.yaml", "extends: standard\nname: X\npack:\n  run_order: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, A, K]\n")
    (msg,) = problems(p)
    assert "error[pack-run-order]: A is listed 2 times in the run order; a rank may be listed twice only as the " \
           "first and the last place" in msg


# --- scenarios with identical cards ---------------------------------------------------------
def test_a_scenario_may_list_a_card_as_often_as_the_pack_holds_it(write: Any) -> None:
    p = write("s.yaml", "ruleset: big-table\nplayers: [A1, A2, A3, A4, A5, A6]\nhands:\n"
                        "  A1: [7H, 7H, 2C, 3C, 4C]\n  A2: [7H, 2D, 3D, 4D, 5D]\nactions: []\n")
    res = subprocess.run([sys.executable, "-m", "tonkdsl", "replay", str(p), "--json"], capture_output=True, text=True)
    assert res.returncode == 2
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert (d["line"], d["column"], d["message"]) == (5, 8, "7H appears 3 times in the scenario, but the pack holds 2")


def test_decks_by_players_mistakes_are_named_at_their_line(write: Any) -> None:
    p = write("r.yaml", "extends: standard\nname: X\nplayers: {min: 2, max: 12}\npack:\n  decks:\n"
                        "    - {up_to: 8, decks: 1}\n    - {up_to: 5, decks: 2}\n")
    (msg,) = problems(p)
    assert msg.startswith(f"{p}:7:15: error[pack-decks-order]: pack.decks lists up_to 5 after up_to 8")
    p = write("r.yaml", "extends: standard\nname: X\nplayers: {min: 2, max: 12}\npack:\n  decks: [{up_to: 5, decks: 1}]\n")
    (msg,) = problems(p)
    assert "pack.decks says how many decks up to 5 players, but up to 12 may play" in msg
    p = write("r.yaml", "extends: standard\nname: X\npack:\n  decks:\n    - {up_to: 5, deck: 1}\n")
    assert any("unknown key 'deck' in 'decks' (did you mean 'decks'?)" in m for m in problems(p))
