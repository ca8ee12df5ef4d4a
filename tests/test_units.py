"""Unit tests per concept: cards, the generator, melds, actions, expressions, the dealer."""
import collections
import math
from types import SimpleNamespace

import pytest

from tonkdsl import load_ruleset
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.dealer import cut_for_deal, next_dealer
from tonkdsl.interpreter.engine import Layout, deal
from tonkdsl.interpreter.melds import MeldRules
from tonkdsl.language.cards import CardSyntaxError, parse_card
from tonkdsl.language.expr import BOOL, NUM, ExprError, compile_expr
from tonkdsl.language.expr.compiler import EvalError
from tonkdsl.language.names import make_names
from tonkdsl.language.rng import Rng, derive_seed


# --- cards ------------------------------------------------------------------------------
@pytest.mark.parametrize("text,want", [("10s", ("10", "S")), ("T♥", ("10", "H")), ("qh", ("Q", "H")),
                                       ("JK", ("JK", None)), ("ac", ("A", "C"))])
def test_parse_card(text: str, want: tuple) -> None:
    assert parse_card(text) == want


@pytest.mark.parametrize("text,msg", [("1S", "unknown rank '1'"), ("QX", "unknown suit 'X'"), ("Q", "is not a card")])
def test_bad_cards(text: str, msg: str) -> None:
    with pytest.raises(CardSyntaxError, match=msg):
        parse_card(text)


def test_pack_from_ruleset() -> None:
    pack = load_ruleset("standard").pack
    assert len(pack) == 52 and pack.names[0] == "AC" and pack.names[-1] == "KS"
    assert pack.values[pack.names.index("KH")] == 10 and pack.values[pack.names.index("AH")] == 1
    assert pack.hand_value(pack.find(n) for n in ["10S", "8D", "5S"]) == 23


# --- generator: identical on every machine ------------------------------------------------
def test_splitmix64_reference_value() -> None:
    assert Rng(0).next_u64() == 0xE220A8397B1DCDAF


def test_golden_deal_is_stable() -> None:
    s = deal(load_ruleset("standard"), 3, seed=42)
    names = s.pack.names
    assert [[names[c] for c in h] for h in s.hands] == [
        ["2H", "4D", "9C", "3H", "AS"], ["4H", "9H", "2S", "4C", "KS"], ["3C", "10D", "3S", "5C", "QC"]]
    assert names[s.discard_pile[-1]] == "QS"
    assert [names[c] for c in s.stock[::-1][:3]] == ["QD", "AH", "8S"]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 52, 104, 300])
def test_shuffle_is_the_factorial_base_digits_of_one_draw(size: int) -> None:
    # The specification, written plainly: k words (30 spare bits) make x, rejected at or above
    # the largest multiple of n!; the digits of x mod n! are Fisher-Yates' j for i from the end.
    for seed in (0, 1, 42, 2**64 - 1):
        items = list(range(size))
        after = Rng(seed)
        after.shuffle(items)
        ref, rng = list(range(size)), Rng(seed)
        if size >= 2:
            total = math.factorial(size)
            words = -(-(total.bit_length() + 30) // 64)
            while True:
                x = 0
                for _ in range(words):
                    x = x * 2**64 + rng.next_u64()
                if x < 2**(64 * words) // total * total:
                    break
            x %= total
            for i in range(size - 1, 0, -1):
                j = x % (i + 1)
                x //= i + 1
                ref[i], ref[j] = ref[j], ref[i]
        assert items == ref
        assert after.next_u64() == rng.next_u64()  # the generator ends in the same state


def test_shuffle_is_uniform() -> None:
    # 24,000 seeded shuffles of 4 items: each of the 24 orders about 1,000 times (chi-square
    # with 23 degrees of freedom; 49.7 is its 0.1% tail).
    seen: collections.Counter[tuple[int, ...]] = collections.Counter()
    for seed in range(24_000):
        items = [0, 1, 2, 3]
        Rng(seed).shuffle(items)
        seen[tuple(items)] += 1
    assert len(seen) == 24
    assert sum((v - 1000) ** 2 / 1000 for v in seen.values()) < 49.7


def test_derived_seeds_differ() -> None:
    assert len({derive_seed(7, i) for i in range(1000)}) == 1000


@pytest.mark.parametrize("master", [0, 7, 2**63 + 5, 2**64 - 1, 12345678901234567890123])
def test_derived_seed_is_the_first_draw_of_its_generator(master: int) -> None:
    # The specification (docs/engine.md): the first draw of Rng(master * golden ratio + index).
    for index in (0, 1, 999, 2**40):
        assert derive_seed(master, index) == Rng((master * 0x9E3779B97F4A7C15 + index) & (2**64 - 1)).next_u64()


# --- melds ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def melds() -> MeldRules:
    return MeldRules(load_ruleset("standard"))


def ids(m: MeldRules, *names: str) -> list[int]:
    return [m.pack.find(n) for n in names]


@pytest.mark.parametrize("cards,kind", [
    (("8D", "8H", "8C"), "book"), (("8D", "8H", "8C", "8S"), "book"), (("AH", "2H", "3H"), "run"),
    (("JS", "QS", "KS"), "run"), (("QH", "KH", "AH"), None), (("4C", "5D", "6C"), None),
    (("8D", "8H"), None), (("2C", "3C", "5C"), None), (("9S", "10S", "JS", "QS", "KS"), "run"),
])
def test_meld_kind(melds: MeldRules, cards: tuple, kind: str | None) -> None:
    assert melds.kind(ids(melds, *cards)) == kind


def test_spreads_in_hand(melds: MeldRules) -> None:
    hand = ids(melds, "5H", "6H", "7H", "8H", "8D", "8C")
    found = {tuple(melds.pack.names[c] for c in combo) for combo in melds.spreads_in(hand)}
    assert ("5H", "6H", "7H") in found and ("5H", "6H", "7H", "8H") in found and ("6H", "7H", "8H") in found
    assert ("8C", "8D", "8H") in found
    assert len(found) == 4


def test_hits_on_run(melds: MeldRules) -> None:
    run = ids(melds, "5H", "6H", "7H")
    hand = ids(melds, "4H", "3H", "8H", "9C")
    hits = {tuple(melds.pack.names[c] for c in h) for h in melds.hits_on(run, "run", hand, 4)}
    assert ("4H",) in hits and ("8H",) in hits and ("3H", "4H") in hits and ("9C",) not in hits
    assert ("3H",) not in hits


# --- actions ----------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["drop", "draw stock", "draw discard", "spread 8D 8H 8C", "hit 8S on 1",
                                  "hit 3H 4H on 2", "discard 6S", "claim", "slap 8S on 1"])
def test_action_round_trip(text: str) -> None:
    assert str(A.parse_action(text)) == text


def test_action_normalises_cards() -> None:
    assert A.parse_action("spread 8d th 8c") == A.Spread(("8D", "10H", "8C"))


@pytest.mark.parametrize("text,msg", [("fly", "'fly' is not an action"), ("draw deck", "write 'draw stock'"),
                                      ("hit 8S 1", "write 'hit <card> on <spread number>'"),
                                      ("discard 6S 7S", "exactly one card"), ("spread", "needs cards")])
def test_action_syntax_errors(text: str, msg: str) -> None:
    with pytest.raises(A.ActionSyntaxError, match=msg):
        A.parse_action(text)


# --- expressions ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def table():
    rs = load_ruleset("standard")
    find = rs.pack.find
    hands = [["7C", "AS", "AH", "5C", "2H"], ["3H", "2S", "KD", "8S", "4S"], ["KC", "AC", "10D", "JH", "6H"]]
    layout = Layout({seat: [find(c) for c in h] for seat, h in enumerate(hands)}, upcard=find("5D"))
    st = deal(rs, 3, seed=42, layout=layout)  # counts: 16, 27, 37
    return rs, st


def ev(table, text: str, actor: int = 0, expect=None, **roles):
    from tonkdsl.language.names import EvalContext
    rs, st = table
    names = make_names(["actor", *roles], [], subject=True)
    compiled = compile_expr(text, names, expect)
    return compiled(EvalContext(st, actor=actor, **roles))


@pytest.mark.parametrize("text,value", [
    ("count", 16), ("2 * stake + 1", 3), ("count in [15, 16]", True), ("count in 10..15", False),
    ("count(hand where rank in [A, 2])", 3), ("count(hand where suit == C)", 2),
    ("sum(hand)", 16), ("min(others.count)", 27), ("max(players.count)", 37),
    ("count(others where count > 30)", 1), ("not count > 20 and true", True), ("7 / 2", 3), ("7 % 2", 1),
    ("2 ^ 10", 1024), ("-count", -16), ("count(hand where rank == 7)", 1), ("AS in hand", True),
    ("KD in hand", False), ("any(players.is_dealer)", True), ("abs(3 - 10)", 7),
    ("count(hand where value >= 5 and not is_joker)", 2), ("turn", 1), ("stock", 36),
])
def test_expression_values(table, text: str, value) -> None:
    assert ev(table, text) == value


def test_where_nests_with_outer_items(table) -> None:
    assert ev(table, "count(players where count(hand where rank == K) > 0)") == 2


@pytest.mark.parametrize("text,msg,col", [
    ("count +", "ends too early", 8), ("count == == 2", "unexpected '=='", 10),
    ("count < A", "'<' compares numbers, not a rank", 1), ("rank", "unknown name 'rank'", 1),
    ("hand where count > 2", "this should be a boolean", 1), ("count(1)", "count() needs a list", 7),
    ("counts < 3", "unknown name 'counts' (did you mean 'count'?)", 1), ("ZZ", "'ZZ' is not a card", 1),
    ("self.cunt", "no attribute 'cunt' (did you mean 'count'?)", 6), ("foo(1)", "unknown function 'foo'", 1),
    ("10 ^ 30", "MAX_NUMBER", 1), ("count == true", "cannot compare a number with a boolean", 1),
    ("count in 3", "'in' needs a list", 10), ('count == "5"', "quotes are not used", 10),
])
def test_expression_errors(table, text: str, msg: str, col: int) -> None:
    with pytest.raises(ExprError) as info:
        ev(table, text, expect=BOOL if "where" in text else None)
    assert msg in info.value.message
    assert info.value.column == col


def test_expression_runtime_errors(table) -> None:
    with pytest.raises(EvalError, match="division by zero"):
        ev(table, "stake / (stake - 1)")
    with pytest.raises(EvalError, match="more than 1,000,000 numbers"):
        ev(table, "count in 0..(10 ^ 9)")


def test_expression_size_limit(table) -> None:
    with pytest.raises(ExprError, match="has 599 parts .*MAX_EXPR_NODES"):
        ev(table, " + ".join(["1"] * 300))
    # A long rule written with room to breathe is not refused for its characters.
    spaced = "\n    or ".join(f"count(hand where rank == {r}) >= 3" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
    assert len(spaced) > 500 and ev(table, spaced, expect=BOOL) in (True, False)


def test_expression_depth_limit(table) -> None:
    with pytest.raises(ExprError, match="MAX_EXPR_DEPTH"):
        ev(table, "not " * 60 + "true", expect=BOOL)
    assert ev(table, "(" * 60 + "1" + ")" * 60, expect=NUM) == 1  # parentheses alone add no depth


def test_no_python_attribute_access(table) -> None:
    for text in ("self.__class__", "players.__len__", "stake.real"):
        with pytest.raises(ExprError):
            ev(table, text)


# --- a hand's end -----------------------------------------------------------------------
@pytest.mark.parametrize("name,money", [("standard", True), ("pushups", False)])
def test_a_caught_drop_names_its_rules(name: str, money: bool) -> None:
    """Each payout rule once, in the ruleset's order, in ``fired``; in ``rules`` only where money
    changed hands (a points sheet writes scores and pays nothing)."""
    rs = load_ruleset(name)
    hands = [["KS", "QS", "JH", "9C", "8D"], ["AS", "2C", "3D", "4H", "5S"], ["2S", "3C", "4D", "6H", "7S"]]
    state = deal(rs, 3, layout=Layout({seat: [rs.pack.find(c) for c in hand] for seat, hand in enumerate(hands)}))
    state.apply(A.Drop())
    out = state.outcome()
    assert out is not None and out.end == "drop_caught"
    paid = ("caught-dropper-pays", "caught-lowest-collects")
    assert out.fired[:2] == paid
    assert out.rules == (paid if money else ())
    assert bool(out.payments) == money


# --- the dealer -------------------------------------------------------------------------
def test_cut_for_deal_highest_card_deals() -> None:
    rs = load_ruleset("standard")
    dealer, rounds = cut_for_deal(rs, 4, Rng(3))
    order = list(dict.fromkeys(rs.pack.ranks))
    last = rounds[-1]
    ranks = [order.index(parse_card(c)[0]) for c in last]
    assert max(ranks) == ranks[[i for i in range(4)].index(dealer)] if len(rounds) == 1 else True
    assert 0 <= dealer < 4
    assert cut_for_deal(rs, 4, Rng(3))[0] == dealer  # deterministic


def test_deal_passes_left() -> None:
    rs = load_ruleset("standard")
    assert next_dealer(rs, 0, 3) == 1 and next_dealer(rs, 2, 3) == 0
    assert next_dealer(SimpleNamespace(rotation="right"), 0, 3) == 2  # type: ignore[arg-type]


def test_action_list_grouped_keeps_order_within_each_kind() -> None:
    actions = [A.Discard("8S"), A.Spread(("2C", "3C", "4C")), A.Discard("KD"), A.Hit(("5C",), 1), A.Discard("AH")]
    grouped = A.ActionList.grouped(actions)
    assert grouped == [A.Discard("8S"), A.Discard("KD"), A.Discard("AH"), A.Spread(("2C", "3C", "4C")),
                       A.Hit(("5C",), 1)]
    assert grouped.spans == {A.Discard: (0, 3), A.Spread: (3, 4), A.Hit: (4, 5)}
    assert grouped.discard_cards == ()


def test_greedy_bot_chooses_the_same_from_any_order() -> None:
    from tonkdsl.interpreter.view import View
    from tonkdsl.tools.bots import greedy_bot

    rs = load_ruleset("standard")
    find = rs.pack.find
    layout = Layout({0: [find(c) for c in ["8S", "9H", "5D", "7H", "2C"]]}, stock_top=[find("AC")])
    state = deal(rs, 3, seed=5, layout=layout)
    state.apply("draw stock")
    legal = state.legal_actions()
    view = View(state, state.current_player())
    assert [state.pack.names[c] for c in view.hand] == ["8S", "9H", "5D", "7H", "2C", "AC"]
    # 8S is the highest card with no partner (9H-7H and AC-2C are near-runs): the greedy discard,
    # from the engine's grouped list or from any other list of the same actions.
    assert greedy_bot(view, legal, Rng(0)) == A.Discard("8S")
    assert greedy_bot(view, list(reversed(legal)), Rng(0)) == A.Discard("8S")
