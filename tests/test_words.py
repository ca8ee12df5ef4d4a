"""Expressions in words keep their meaning: the grouping of every operator survives (issue 17)."""
from typing import Any

from hypothesis import given, strategies as st

from tonkdsl.language.expr import BOOL, NUM, ExprError, compile_expr
from tonkdsl.language.expr.compiler import EvalError
from tonkdsl.language.names import make_names
from tonkdsl.tools.explain.words import words

NAMES = make_names(["actor"], [], subject=True)

numbers = st.integers(0, 9).map(str)
arith = st.recursive(numbers, lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    inner.map(lambda x: f"-{x}")), max_leaves=8)
logic = st.recursive(st.sampled_from(["true", "false"]), lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    inner.map(lambda x: f"not {x}")), max_leaves=8)


def value(source: str, kind: Any) -> Any:
    try:
        return compile_expr(source, NAMES, kind).fn(None)
    except (EvalError, ExprError) as exc:  # division by zero, written out or folded at compile time
        return str(exc)


def back(text: str) -> str:
    """Words of arithmetic and logic turned back into the expression language."""
    for a, b in ((" x ", " * "), (" mod ", " % "), ("minus ", "-"), ("always", "true"), ("never", "false"),
                 (", or ", " or ")):
        text = text.replace(a, b)
    return text


@given(arith)
def test_arithmetic_in_words_keeps_its_grouping(source: str) -> None:
    assert value(back(words(source)), NUM) == value(source, NUM)


@given(logic)
def test_logic_in_words_keeps_its_grouping(source: str) -> None:
    assert value(back(words(source)), BOOL) == value(source, BOOL)


def test_the_issue_example_keeps_its_parentheses() -> None:
    assert words("(payer.count - payee.count) * stake") == "(the payer's count - the payee's count) x the stake"
    assert words("payer.count - payee.count * stake") == "the payer's count - the payee's count x the stake"
    assert words("10 - (3 - 2)") == "10 - (3 - 2)"


def test_wording_is_english() -> None:
    assert words("QS in hand") == "QS is among the cards in hand"
    assert words("count(hand where is_joker) >= 2") == "the player holds at least 2 cards that are jokers"
    assert words("count in [49, 50]") == "the player's count is 49 or 50"


def test_a_hand_always_dead_is_said_plainly() -> None:
    from tonkdsl import load_ruleset
    from tonkdsl.tools.explain.diff import diff
    from tonkdsl.tools.explain.sheet import explain
    from conftest import TESTS
    rs = load_ruleset(TESTS / "variations" / "v05-stock-out-dead.yaml")
    sheet = explain(rs, "text", 1)
    assert "An exhausted stock: the hand is dead and no one pays." in sheet and "when always" not in sheet
    texts = [d.text for d in diff(load_ruleset("standard").data, rs.data)]
    assert "Stock exhausted: the hand is never dead -> always dead" in texts


def test_a_points_sheet_lists_no_money_payouts() -> None:
    from tonkdsl import load_ruleset
    from tonkdsl.tools.explain.sheet import explain
    sheet = explain(load_ruleset("pushups"), "text", 1)
    ends = sheet.split("How a hand ends")[1]
    assert "No money changes hands" in sheet and "Score sheet:" in ends
    assert "(tonk-out)" not in ends and " pays " not in ends  # the inherited money payouts are not listed
    wins = sheet.split("Automatic wins on the deal")[1].split("How a hand ends")[0]
    assert " pays " not in wins and "Score sheet: every other player adds 2 x their count to their score." in wins


def test_table_customs_are_printed_as_written_and_diffed_entry_by_entry() -> None:
    from click.testing import CliRunner

    from tonkdsl import load_ruleset
    from tonkdsl.cli import main
    from tonkdsl.tools.explain import explain
    from conftest import TESTS

    path = TESTS / "variations" / "x30-table-customs.yaml"
    text = explain(load_ruleset(path), "text", 1)
    assert text.endswith(
        "At a physical table\n-------------------\n"
        "A digital table deals, counts and refuses illegal plays, so these never happen there; at a table of "
        "cards, this table's custom is:\n"
        "- Misdeal: A misdeal (a wrong number of cards to anyone) is dealt again by the same dealer, no penalty.\n"
        "- Exposed card: A card turned face up while dealing goes to the bottom of the stock and the dealer deals "
        "another.\n")
    out = CliRunner().invoke(main, ["diff", "standard", str(path)]).output
    assert ('Custom at a physical table added: misdeal: "A misdeal (a wrong number of cards to anyone) is dealt '
            'again by the same dealer, no penalty."  ($.table_customs[0])') in out
    # A bonus list that appears is said bonus by bonus, never as raw YAML, with its condition.
    out = CliRunner().invoke(main, ["diff", "standard", str(TESTS / "variations" / "x30-money-at-the-deal.yaml")]).output
    assert ("Bonus paid at once added: dealt-four-of-a-kind on dealt: every other player pays 1 (the stake) to the player"
            " when the player holds at least 4 cards of one rank  ($.bonuses[0])") in out
    out = CliRunner().invoke(main, ["diff", "standard", str(TESTS / "variations" / "x30-claim-bonus.yaml")]).output
    assert ("Bonus paid at once added: three-aces when claimed: every other player pays 1 (the stake) to the player "
            "when the player holds at least 3 cards whose rank is A  ($.bonuses[0])") in out
    out = CliRunner().invoke(main, ["diff", "standard", str(TESTS / "variations" / "x30-spread-only-going-out.yaml")]).output
    assert ("Added: When a player may lay a spread in play: the player has at most 1 card left out of spreads  "
            "($.turn.spread.allowed)") in out
