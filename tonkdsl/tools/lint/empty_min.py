"""Expressions that fail at play when a set is empty: ``min()`` and ``max()`` of it ("min() of an
empty list"), and a division by its count ("division by zero": ``pot / count(winners)``). A
table that meets one stops the hand (void, nothing lost, but a hand lost).

Two causes, each named at its line:

- folding with partners: a player's ``opponents`` (and ``X.opponents``) leave out those who
  folded, and every opponent of a player can fold while the hand goes on (their side's partners
  are still in); so can any set whose members can all fold while two players are left;
- a set that lint's relations (lint/relations.py) can show empty at that moment, with an example.

An expression that guards itself (``count(S) == 0 or ...`` written with the same set) is left alone.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from lark import Token, Tree

from tonkdsl.interpreter.rules import plan_for, where
from tonkdsl.interpreter.rules.base import FOLDS
from tonkdsl.language.expr.compiler import ExprError, parse
from tonkdsl.language.ruleset import Ruleset


def _calls(tree: Any, source: str) -> Iterator[tuple[str, str]]:
    """(function, the set it reads) for each min()/max() of an attribute of a set (``min(S.count)``)
    or of a set itself."""
    if not isinstance(tree, Tree):
        return
    if tree.data == "call" and isinstance(tree.children[0], Token) and str(tree.children[0]) in ("min", "max"):
        arg = tree.children[1]
        inner = arg.children[0] if isinstance(arg, Tree) and arg.data == "attr" else arg
        meta = getattr(inner, "meta", None)
        if isinstance(inner, Tree) and meta is not None and not getattr(meta, "empty", True):
            yield str(tree.children[0]), source[meta.start_pos:meta.end_pos]
    for child in tree.children:
        yield from _calls(child, source)


def _folding_empties(rs: Ruleset, set_source: str) -> str | None:
    """Why folding can empty ``set_source`` while the hand goes on, or None."""
    if FOLDS not in plan_for(rs).facts:
        return None
    if "opponents" in set_source and (rs.side_size or 0) >= 2:
        fold = where(rs, FOLDS)
        said = f" ({'.'.join(str(p) for p in fold[:2])}: fold)" if fold else ""
        return (f"every opponent of a player can fold{said} while the hand goes on, their "
                "partners still in")
    return None


Fields = list[tuple[tuple[Any, ...], str]]
Empty = Callable[[tuple[Any, ...], str], Any]


def _empty_sets(rs: Ruleset, fields: Fields, empty: Empty, find: Callable[[Any, str], Iterator[tuple[str, str]]],
                guards: Callable[[str], tuple[str, ...]]) -> Iterator[tuple[tuple[Any, ...], str, str, str]]:
    """(path, what, the set, why it can be empty) for each place ``find`` yields in ``fields``
    whose set can be empty at play; a place whose source holds one of ``guards(set)`` is left
    alone (its author guarded it)."""
    for path, source in fields:
        try:
            tree = parse(source)
        except ExprError:
            continue  # validate says it
        for what, set_source in find(tree, source):
            if any(g in source for g in guards(set_source)):
                continue
            why = _folding_empties(rs, set_source)
            if why is None:
                verdict = empty(path, set_source)
                if verdict is None or not verdict.possible:
                    continue
                why = f"it can be empty here{', for example ' + verdict.example if verdict.example else ''}"
            yield path, what, set_source, why


def min_of_empty(rs: Ruleset, fields: Fields, empty: Empty, add: Callable[..., None]) -> None:
    """Warn (code min-of-empty) at each min()/max() whose set can be empty at play. ``empty(path,
    set)`` is the relations' question (a Verdict or None); ``add`` the linter's."""
    fold_path = where(rs, FOLDS)
    for path, fn, set_source, why in _empty_sets(rs, fields, empty, _calls, lambda s: (f"count({s})",)):
        add("min-of-empty", "warning", f"{fn}() of '{set_source}' fails at play when '{set_source}' is empty: "
            f"{why}", path, *([fold_path] if fold_path and "fold" in why else []),
            hint=f"guard it: count({set_source}) == 0 or ..., or take {fn}() over a set that is never empty")


def _divisions(tree: Any, source: str) -> Iterator[tuple[str, str]]:
    """('/' or '%', the set counted) for each division by ``count(S)``."""
    if not isinstance(tree, Tree):
        return
    if tree.data in ("div", "mod"):
        den = tree.children[1]
        if (isinstance(den, Tree) and den.data == "call" and isinstance(den.children[0], Token)
                and str(den.children[0]) == "count" and len(den.children) == 2):
            arg = den.children[1]
            meta = getattr(arg, "meta", None)
            if isinstance(arg, Tree) and meta is not None and not getattr(meta, "empty", True):
                yield ("/" if tree.data == "div" else "%"), source[meta.start_pos:meta.end_pos]
            elif isinstance(arg, Token):
                yield ("/" if tree.data == "div" else "%"), str(arg)
    for child in tree.children:
        yield from _divisions(child, source)


def divide_by_empty(rs: Ruleset, fields: Fields, empty: Empty, add: Callable[..., None]) -> None:
    """Warn (code divide-by-zero) at each division by ``count(S)`` where S can be empty at play."""
    guards = lambda s: (f"count({s}) == 0", f"count({s}) > 0")  # noqa: E731
    for path, sym, set_source, why in _empty_sets(rs, fields, empty, _divisions, guards):
        add("divide-by-zero", "warning", f"'{sym} count({set_source})' divides by zero at play when "
            f"'{set_source}' is empty: {why}", path,
            hint=f"guard it (count({set_source}) == 0 or ...), or divide by max([1, count({set_source})])")
