"""What the fuzz tests share: the count of cases per kind, the mutations of ruleset documents, and
expressions drawn from the grammar itself (grammars/expr.lark), so that every construct the
language has is tried, including the ones nobody thought of.

The counts are printed at the end of the run (tests/conftest.py, pytest_terminal_summary).
"""
from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from typing import Any, Callable

from hypothesis import event, strategies as st
from lark import Lark

from tonkdsl.language.expr.compiler import MAX_NUMBER, MAX_RANGE
from tonkdsl.language.names import CARD_ATTRS, CARD_SETS, FUNCTIONS, GLOBALS, PLAYER_ATTRS, ROLES
from tonkdsl.language.resources import grammar_text, schema_path

# kind of case -> how many were run in this session (printed by conftest.py)
COUNTS: Counter[str] = Counter()


def count(kind: str) -> None:
    COUNTS[kind] += 1
    event(kind)  # also in --hypothesis-show-statistics


# --- expressions from the grammar ------------------------------------------------------------
VOCABULARY = sorted({*GLOBALS, *ROLES, *CARD_SETS, *PLAYER_ATTRS, *CARD_ATTRS, *FUNCTIONS,
                     "count", "sum", "min", "max", "any", "all", "abs", "self", "waiting", "points"})
SYMBOLS = ["A", "J", "Q", "K", "JK", "C", "D", "H", "S", "10S", "QH", "2C", "AS", "X", "ZZ9"]
NUMBERS = [0, 1, 2, 5, 7, 49, 50, 100, MAX_RANGE, MAX_RANGE + 1, MAX_NUMBER, MAX_NUMBER + 1, 10**15]


@lru_cache(maxsize=1)
def _grammar() -> tuple[dict[str, list[list[tuple[str, bool]]]], dict[str, Any], dict[str, int]]:
    parser = Lark(grammar_text("expr.lark"), parser="lalr")
    rules: dict[str, list[list[tuple[str, bool]]]] = {}
    for r in parser.rules:
        rules.setdefault(r.origin.name, []).append([(s.name, s.is_term) for s in r.expansion])
    terminals = {t.name: t.pattern for t in parser.terminals}
    # The height of each rule (the fewest expansions to reach terminals only): past the depth
    # budget the generator takes the lowest alternative, so that every expression ends.
    height = {name: 10**6 for name in rules}
    changed = True
    while changed:
        changed = False
        for name, alts in rules.items():
            best = min(1 + max([0] + [height[s] for s, term in alt if not term]) for alt in alts)
            if best < height[name]:
                height[name], changed = best, True
    return rules, terminals, height


def _alt_height(alt: list[tuple[str, bool]], height: dict[str, int]) -> int:
    return 1 + max([0] + [height[s] for s, term in alt if not term])


def _terminal(draw: Callable[[Any], Any], name: str, pattern: Any) -> str:
    if pattern.type == "str":
        return str(pattern.value)
    if name == "NAME":
        if draw(st.integers(0, 9)) == 0:  # now and then a name the language does not know
            return str(draw(st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)))
        return str(draw(st.sampled_from(VOCABULARY)))
    if name == "SYMBOL":
        return str(draw(st.sampled_from(SYMBOLS)))
    if name == "NUMBER":
        return str(draw(st.one_of(st.sampled_from(NUMBERS), st.integers(0, 10**6))))
    if name == "COMPARE":
        return str(draw(st.sampled_from(["<=", ">=", "==", "!=", "<", ">"])))
    return str(draw(st.from_regex(pattern.to_regexp(), fullmatch=True)))


@st.composite
def expressions(draw: Callable[[Any], Any], budget: int = 40) -> str:
    """A random expression of the language, derived from the grammar's own rules: each
    nonterminal takes one of its alternatives at random for the first ``budget`` expansions;
    after that only the alternatives that end soonest (so that every expression ends small)."""
    rules, terminals, height = _grammar()
    out: list[str] = []
    expanded = [0]

    def expand(symbol: str) -> None:
        expanded[0] += 1
        alts = rules[symbol]
        if expanded[0] >= budget:
            low = min(_alt_height(a, height) for a in alts)
            alts = [a for a in alts if _alt_height(a, height) == low]
        alt = alts[0] if len(alts) == 1 else draw(st.sampled_from(alts))
        for name, is_term in alt:
            if is_term:
                out.append(_terminal(draw, name, terminals[name]))
            else:
                expand(name)

    expand("start")
    return " ".join(out)


# --- the places of a ruleset document --------------------------------------------------------
def _walk_schema(visit: Callable[[dict[str, Any]], None]) -> None:
    """Call ``visit`` on every mapping of the ruleset schema."""
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            visit(node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(json.loads(schema_path().read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def expression_keys() -> frozenset[str]:
    """The keys whose values are expressions (conditions, amounts, player sets), read from the
    schema: every property whose schema is one of those definitions."""
    wanted = {"#/$defs/condition", "#/$defs/amount", "#/$defs/players"}
    found: set[str] = set()

    def refs(node: Any) -> set[str]:
        if not isinstance(node, dict):
            return set()
        out = {node["$ref"]} if "$ref" in node else set()
        for sub in node.get("anyOf", []) + node.get("oneOf", []):
            out |= refs(sub)
        return out

    def visit(node: dict[str, Any]) -> None:
        for key, sub in node.get("properties", {}).items():
            if refs(sub) & wanted:
                found.add(key)

    _walk_schema(visit)
    return frozenset(found)


@lru_cache(maxsize=1)
def schema_limits() -> tuple[int, ...]:
    """Every number at and just past a limit the schema sets (minimum, maximum), and the
    expression language's own limits."""
    found: set[int] = {MAX_NUMBER, MAX_NUMBER + 1, -MAX_NUMBER - 1, MAX_RANGE + 1, 2**63, -(2**63)}

    def visit(node: dict[str, Any]) -> None:
        for key in ("minimum", "maximum", "minItems", "maxItems"):
            if isinstance(node.get(key), int):
                found.update({node[key] - 1, node[key], node[key] + 1})

    _walk_schema(visit)
    return tuple(sorted(found))


def places(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path in a document (mapping keys and list indexes)."""
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += places(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += places(v, prefix + (i,))
    return out


def get(doc: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def put(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    get(doc, path[:-1])[path[-1]] = value


def delete(doc: Any, path: tuple[Any, ...]) -> None:
    del get(doc, path[:-1])[path[-1]]


ODD_REMOVALS = ["", ".", "..", "pack", "pack.values.QS", "endings.drop_won.payouts.nope", "turn.drop..allowed",
                "endings.*", "x" * 300, "deal_wins.rules.0", "melds.book.min.extra", "remove"]


# --- expressions that type-check more often ----------------------------------------------------
_NUMBER_LEAVES = ["count", "stake", "turn", "count(others)", "count(players)", "num_players", "sum(deadwood(hand))",
                  "max_same_rank(hand)", "min(players.count)", "max(others.count)", "0", "1", "50", "1000000000000",
                  "count(hand where rank in [J, Q, K])", "sum(1 .. 1000)", "dealer.count", "waiting"]
_OPS = ["+", "-", "*", "/", "%", "^"]
_CMP = ["<", "<=", "==", "!=", ">=", ">"]


def _numbers() -> st.SearchStrategy[str]:
    return st.recursive(st.sampled_from(_NUMBER_LEAVES), lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(_OPS), inner).map(" ".join),
        inner.map(lambda x: f"({x})"), inner.map(lambda x: f"-{x}"), inner.map(lambda x: f"abs({x})"),
        inner.map(lambda x: f"count(players where count > {x})"),
        inner.map(lambda x: f"min([{x}, 3])")), max_leaves=6)


def typed_expressions() -> st.SearchStrategy[str]:
    """Conditions and amounts built from names that exist in most fields: they load more often
    than raw grammar output, so that evaluation (not only checking) is fuzzed."""
    nums = _numbers()
    compare = st.tuples(nums, st.sampled_from(_CMP), nums).map(" ".join)
    conds = st.recursive(compare, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(" ".join),
        inner.map(lambda x: f"not ({x})"),
        st.tuples(nums, nums, nums).map(lambda t: f"{t[0]} in {t[1]} .. {t[2]}")), max_leaves=4)
    sets = st.sampled_from(["others", "players", "winners", "dealer", "others where count <= dropper.count",
                            "nearest_left(others)", "players where count == min_count"])
    return st.one_of(nums, conds, sets)
