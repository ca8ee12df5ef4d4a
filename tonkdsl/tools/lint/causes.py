"""Why a payout never took effect in simulated hands (``tonk lint --simulate``): the cause, not
the symptom. Where the payout's ending did happen, its condition is asked again, part by part
(the operands of a top-level ``and``, as condition coverage reports them), in the states those
hands ended in: the part that was never true is named, at its own line and column. A condition
whose parts each held in some hand but never together is said so; a condition that held while
the payers, the payees or the amount came to nothing is said at that key.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from lark import Token, Tree

from tonkdsl.language.expr.compiler import EvalError, ExprError, compile_expr, parse
from tonkdsl.language.expr.types import BOOL
from tonkdsl.language.names import EvalContext

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Place, Ruleset, Transfer

KEPT = 400  # states kept per ending for the question (enough to see a part true once)


@dataclass(frozen=True)
class Cause:
    """What the hands show: a message, the path it is about, and where in that key's expression
    (1-based line and column within the expression's text; (1, 1): the whole key)."""

    message: str
    path: tuple[str | int, ...]
    line: int = 1
    column: int = 1


def ending_roles(state: "State", kind: str) -> EvalContext:
    """The roles an ending's expressions were evaluated with, read back from the state it ended
    in: the dropper in a drop's endings, else the player to move (who went out, or would draw)."""
    if kind.startswith("drop") and state.dropper is not None:
        return EvalContext(state, state.dropper, state.dropper)
    return EvalContext(state, state.current, state.dropper)


def _conjuncts(tree: Any, source: str) -> list[tuple[str, int, int]]:
    """The operands of the top-level ``and`` of ``tree`` (source text, line, column)."""
    if isinstance(tree, Tree) and tree.data == "and_":
        return [part for child in tree.children if not isinstance(child, Token) for part in _conjuncts(child, source)]
    meta = getattr(tree, "meta", None)
    if meta is None or getattr(meta, "empty", True):
        return [(source, 1, 1)]
    return [(source[meta.start_pos:meta.end_pos], meta.line, meta.column)]


def _holds(compiled: Any, ctx: EvalContext) -> bool | None:
    try:
        return bool(compiled.fn(ctx))
    except (EvalError, ValueError, KeyError, IndexError, TypeError, ZeroDivisionError):
        return None


def payout_cause(rs: "Ruleset", places: dict[Any, "Place"], kind: str, j: int, t: "Transfer",
                 states: Sequence["State"]) -> Cause | None:
    """Why payout ``j`` of ending ``kind`` never moved money in ``states`` (hands that ended in
    ``kind``), or None when the hands do not show it."""
    base: tuple[str | int, ...] = ("endings", kind, "payouts", j)
    if not states:
        return None
    hands = f"{'the ' if len(states) < KEPT else ''}{len(states):,} hands that ended in '{kind}'"
    held = states
    if t.when is not None:
        place = places.get(base + ("when",))
        try:
            parts = _conjuncts(parse(t.when.source), t.when.source) if place is not None else []
            compiled = [(text, line, col, compile_expr(text, place.names, BOOL)) for text, line, col in parts] \
                if place is not None else []
        except ExprError:
            compiled = []
        if len(compiled) > 1:
            for text, line, col, c in compiled:
                if not any(_holds(c, ending_roles(s, kind)) for s in states):
                    return Cause(f"of {hands}, its condition's part '{text}' was true in none", base + ("when",), line, col)
        held = [s for s in states if _holds(t.when, ending_roles(s, kind))]
        if not held:
            if len(compiled) > 1:
                return Cause(f"of {hands}, each part of its condition held in some, but never all at "
                             "once", base + ("when",))
            return Cause(f"its condition '{t.when.source}' was true in none of the {len(states):,} hands that ended "
                         f"in '{kind}'", base + ("when",))
    for side, key in ((t.payers, "from"), (t.payees, "to")):
        if getattr(side, "source", "pot").strip() in ("pot", *(p.id for p in rs.side_pots)):
            continue
        if not any(_holds_some(side, ending_roles(s, kind)) for s in held):
            return Cause(f"in {'the ' if len(held) < KEPT else ''}{len(held):,} hands that ended in '{kind}' with "
                         f"its condition true, '{key}' ('{side.source}') named no one", base + (key,))
    return None


def _holds_some(side: Any, ctx: EvalContext) -> bool:
    try:
        return bool(side.fn(ctx))
    except (EvalError, ValueError, KeyError, IndexError, TypeError, ZeroDivisionError):
        return False
