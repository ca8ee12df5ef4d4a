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


# --- bonuses: their conditions are asked in the middle of a hand, at their event ----------------
class Coverage:
    """How one bonus's condition fared each time it was asked in the simulated hands (at its
    event, or at each chance to claim it): how often, how often it held, and for each part of
    its top-level ``and`` (text, line, column) whether it ever held."""

    def __init__(self, parts: list[tuple[str, int, int, Any]]) -> None:
        self.parts = parts
        self.asked = 0
        self.held = 0
        self.part_held = [False] * len(parts)

    def watch(self, fn: Any) -> Any:
        """``fn`` (a condition's function), answering as before and keeping count."""
        parts, part_held = self.parts, self.part_held

        def watched(ctx: EvalContext) -> Any:
            value = fn(ctx)
            self.asked += 1
            self.held += bool(value)
            for i, (_, _, _, c) in enumerate(parts):
                if not part_held[i] and _holds(c, ctx):
                    part_held[i] = True
            return value
        return watched


def _watched(compiled: Any, place: Any) -> tuple[Any, Coverage]:
    """``compiled`` made to keep count (a Coverage of its top-level ``and``'s parts) as it answers."""
    from dataclasses import replace

    try:
        parts = _conjuncts(parse(compiled.source), compiled.source) if place is not None else []
        checks = [(text, line, col, compile_expr(text, place.names, BOOL)) for text, line, col in parts] \
            if len(parts) > 1 and place is not None else []
    except ExprError:
        checks = []
    cover = Coverage(checks)
    return replace(compiled, fn=cover.watch(compiled.fn)), cover


def watch_conditions(rs: "Ruleset", places: dict[Any, "Place"]) -> tuple["Ruleset", dict[tuple[Any, ...], Coverage]]:
    """A copy of ``rs`` whose conditions asked in the middle of a hand keep count (Coverage) as
    they are asked, and answer as before, so the hands played with it are the same hands: each
    bonus's (by ("bonuses", j)) and each rule of a list construct's (a rule of the turn, a rule
    out of turn: by its key's path and index; a constant one is never asked)."""
    from dataclasses import replace

    watched: dict[tuple[Any, ...], Coverage] = {}
    bonuses = []
    for j, bonus in enumerate(rs.bonuses):
        t = bonus.transfer
        if t.when is not None:
            when, watched["bonuses", j] = _watched(t.when, places.get(("bonuses", j, "when")))
            bonus = replace(bonus, transfer=replace(t, when=when))
        bonuses.append(bonus)
    constructs = dict(rs.constructs)
    for key, section in rs.constructs.items():
        if not isinstance(section, list):
            continue
        copied = []
        for j, entry in enumerate(section):
            if isinstance(entry, dict) and hasattr(entry.get("when"), "fn"):
                path = (*key.split("."), j)
                entry = {**entry}
                entry["when"], watched[path] = _watched(entry["when"], places.get((*path, "when")))
            copied.append(entry)
        constructs[key] = copied
    return replace(rs, bonuses=tuple(bonuses), constructs=constructs), watched


def listed_rules(rs: "Ruleset") -> dict[str, tuple[Any, ...]]:
    """The rules of the list constructs by their witness target ("rule:<id>"), with their paths."""
    return {f"rule:{e.get('id')}": (*key.split("."), j) for key, section in rs.constructs.items()
            if isinstance(section, list) for j, e in enumerate(section) if isinstance(e, dict)}


def _entry(rs: "Ruleset", path: tuple[Any, ...]) -> dict[str, Any]:
    section = rs.constructs.get(".".join(str(p) for p in path[:-1])) or []
    return section[path[-1]] if isinstance(path[-1], int) and path[-1] < len(section) else {}


def bonus_cause(j: int, bonus: Any, cover: Coverage | None) -> Cause | None:
    """Why bonus ``j`` never paid in the simulated hands, from how its condition fared when asked."""
    base: tuple[str | int, ...] = ("bonuses", j)
    if cover is None or cover.asked == 0:
        return None
    moment = "each chance to claim it" if bonus.on == "claim" else f"its event '{bonus.on}'"
    asked = f"{cover.asked:,} time{'s' if cover.asked != 1 else ''}"
    for (text, line, col, _), held in zip(cover.parts, cover.part_held):
        if not held:
            return Cause(f"its condition was asked {asked} (at {moment}), and its part '{text}' was true in none",
                         base + ("when",), line, col)
    if cover.held == 0:
        if len(cover.parts) > 1:
            return Cause(f"its condition was asked {asked} (at {moment}): each part of it held in some, but never "
                         "all at once", base + ("when",))
        return Cause(f"its condition '{bonus.transfer.when.source}' was asked {asked} (at {moment}) and was true in "
                     "none", base + ("when",))
    return None


# The endings an action leads to: a rule that refused every such action (a rule of the turn on
# the drop, a rule out of turn that lets players drop) leaves them unreachable, said at the rule.
LEADS_TO = {"drop": ("drop_won", "drop_caught"), "claim": ("initial_tonk",), "fold": ("others_folded",)}


def rule_cause(rs: "Ruleset", path: tuple[Any, ...], cover: Coverage | None) -> Cause | None:
    """Why the rule of a list construct at ``path`` never let its action be taken: how its
    condition fared each time it was asked."""
    entry = _entry(rs, path)
    if cover is None or cover.asked == 0 or cover.held or not entry:
        return None
    asked = f"{cover.asked:,} time{'s' if cover.asked != 1 else ''}"
    # The moments it is asked at: a rule of the turn's steps ('at', with the action it guards
    # in 'do'), or one asked as a hand ends ('on': the endings, as a hand multiplier is).
    moments = " or ".join(sorted(str(m) for m in entry.get("at") or entry.get("on") or ()))
    doing = f", for '{entry['do']}'" if entry.get("do") else ""
    what = f"asked {asked}" + (f" (at {moments}{doing})" if moments or doing else "")
    for (text, line, col, _), held in zip(cover.parts, cover.part_held):
        if not held:
            return Cause(f"its condition was {what}, and its part '{text}' was true in none", path + ("when",), line, col)
    if len(cover.parts) > 1:
        return Cause(f"its condition was {what}: each part of it held in some, but never all at once",
                     path + ("when",))
    return Cause(f"its condition '{entry['when'].source}' was {what} and was true in none", path + ("when",))


def refused_by_rule(rs: "Ruleset", kind: str, coverage: dict[tuple[Any, ...], Coverage]) -> Cause | None:
    """Why ending ``kind`` never happened, where a rule whose condition never held was the only
    way to the action that leads to it: said at that rule's part never true."""
    for path in listed_rules(rs).values():
        entry = _entry(rs, path)
        if kind not in LEADS_TO.get(str(entry.get("do")), ()):
            continue
        cause = rule_cause(rs, path, coverage.get(path))
        if cause is not None:
            return Cause(f"every '{entry.get('do')}' was refused by the rule '{entry.get('id')}': {cause.message}",
                         cause.path, cause.line, cause.column)
    return None
