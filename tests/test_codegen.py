"""The expressions' generated functions (language/expr/codegen.py) give what their closures give."""
from __future__ import annotations

from typing import Any

import pytest
from fuzzing import typed_expressions
from hypothesis import given
from hypothesis import strategies as st

from tonkdsl import load_ruleset
from tonkdsl.interpreter.engine import Layout, deal
from tonkdsl.language.expr import ExprError, compile_expr
from tonkdsl.language.expr import compiler
from tonkdsl.language.expr.compiler import EvalError
from tonkdsl.language.names import EvalContext, make_names

ROLES = ["actor", "dropper", "payer", "payee"]


@pytest.fixture(scope="module")
def state() -> Any:
    rs = load_ruleset("standard")
    find = rs.pack.find
    hands = [["7C", "AS", "AH", "5C", "2H"], ["3H", "2S", "KD", "8S", "4S"], ["KC", "AC", "10D", "JH", "6H"]]
    layout = Layout({seat: [find(c) for c in h] for seat, h in enumerate(hands)}, upcard=find("5D"))
    return deal(rs, 3, seed=42, layout=layout)  # counts: 16, 27, 37


def both(text: str) -> tuple[Any, Any]:
    names = make_names(ROLES, [], subject=True)
    generated = compile_expr(text, names)
    compiler.GENERATE = False
    try:
        closures = compile_expr(text, names)
    finally:
        compiler.GENERATE = True
    return generated.fn, closures.fn


def outcome(fn: Any, ctx: EvalContext) -> Any:
    try:
        return ("value", fn(ctx))
    except EvalError as exc:
        return ("error", str(exc))


def contexts(state: Any) -> list[EvalContext]:
    return [EvalContext(state, actor=a, dropper=(a + 1) % 3, payer=a, payee=(a + 2) % 3) for a in range(3)]


TRICKY = [
    "others where count <= dropper.count",
    "players where count > min_count",
    "count(players where count(others where count > min_count) > 0)",  # a memo in the inner filter
    "count(players where count(others where count > self.count) > 0)",
    "others where count(players where count > min_count and seat != 1) > 1",  # no memo may walk a filter
    "sum(hand where value > min(others.count) / 5)",
    "count(hand where rank in [A, 2] and value < min_count)",
    "count(folded where stock / (turn - 1) > 1)",  # nothing to filter: the division is never worked out
    "count(players where stock / (turn - 1) > 1)",  # worked out at the first player: the same error
    "count(players where count > max(folded.count))",  # max() of an empty list, at the same point
    "min([count, 3, dropper.count])",
    "[dealer, payer]",
    "players where seat in [0, 2] and not is_dealer",
    "others.count",
    "count(players where count(hand where value > min(dropper.hand.value)) > 2)",
    "payer.count - payee.count",
    "abs(count - 40) * 2 + sum(others.count)",
]


@pytest.mark.parametrize("text", TRICKY)
def test_generated_functions_give_what_the_closures_give(state: Any, text: str) -> None:
    generated, closures = both(text)
    assert generated.__name__ == "_expr"  # it was generated
    for ctx in contexts(state):
        assert outcome(generated, ctx) == outcome(closures, ctx), (text, ctx.actor)


@given(text=st.one_of(typed_expressions(), st.sampled_from(TRICKY)))
def test_generated_functions_agree_on_fuzzed_expressions(state: Any, text: str) -> None:
    try:
        generated, closures = both(text)
    except ExprError:
        return
    for ctx in contexts(state):
        assert outcome(generated, ctx) == outcome(closures, ctx), (text, ctx.actor)


def test_a_filter_whose_condition_works_out_once_does_so_lazily(state: Any) -> None:
    # The part of a condition that reads no item is worked out once, at the first item, never
    # when there is none: a failing part over an empty set fails neither way.
    generated, _ = both("count(folded where stock / (turn - 1) > 1)")
    assert generated(contexts(state)[0]) == 0
    generated, _ = both("count(players where stock / (turn - 1) > 1)")
    with pytest.raises(EvalError, match="division by zero"):
        generated(contexts(state)[0])


def test_the_generated_function_has_no_builtins_and_binds_no_text_of_the_file() -> None:
    generated, _ = both("count(players where count > 3 and seat in [0, 1]) + stake")
    assert generated.__globals__["__builtins__"] == {}
    assert all(name.startswith(("_k", "_tuple", "_UNSET", "_expr", "__builtins__")) for name in generated.__globals__)


def test_a_bare_name_keeps_its_getter() -> None:
    names = make_names(ROLES, [], subject=True)
    assert compile_expr("stake", names).fn is names.globals["stake"][1]  # no frame added


@pytest.mark.parametrize("text,want", [
    ("others", [(2,), (0, 2), (0,)]),
    ("players", [(0, 2)] * 3),
    ("folded", [(1,)] * 3),
    ("count(others where count > min_count)", [1, 1, 0]),
])
def test_player_lists_are_looked_up_by_players_actor_and_folded(state: Any, text: str, want: list[Any]) -> None:
    # others, players and folded are tables looked up in line (Names.lookups; a bare name would
    # keep its getter, so the lists are filtered to generate them): with seat 1 folded,
    # the generated functions and the closures give the same lists, and the tables are keyed
    # by who folded (the lists of a hand where nobody folded are not reused).
    folded = state.clone()
    folded.sitting_out = 0b010
    generated, closures = both(f"{text} where seat >= 0" if text in ("others", "players", "folded") else text)
    assert generated.__name__ == "_expr" and any(type(v).__name__ == "_Table" for v in generated.__globals__.values())
    got = [generated(ctx) for ctx in contexts(folded)]
    assert got == [closures(ctx) for ctx in contexts(folded)] == want
    assert [generated(ctx) for ctx in contexts(state)] != want  # nobody folded there
