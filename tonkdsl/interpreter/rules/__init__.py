"""The registry of turn constructs: one module each (see base.py), one line each here.

A ruleset's plan is built from the constructs it uses, once, and kept with its compiled
tables (``plan_for``). Adding a construct: write its module, add its class to ``RULES``,
run ``python -m tonkdsl.docgen docs`` (the schema takes its fragment).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from tonkdsl.interpreter.rules.ask_partner import AskPartner
from tonkdsl.interpreter.rules.base import Finding, Plan, Sentence, TurnRule
from tonkdsl.interpreter.rules.buying import Buying
from tonkdsl.interpreter.rules.digging import Digging
from tonkdsl.interpreter.rules.discard_first import DiscardFirst
from tonkdsl.interpreter.rules.discard_sets import DiscardSets
from tonkdsl.interpreter.rules.drawn_at_once import DrawnAtOnce
from tonkdsl.interpreter.rules.full_books import FullBooks
from tonkdsl.interpreter.rules.hand_multipliers import HandMultipliers
from tonkdsl.interpreter.rules.in_turn import InTurn
from tonkdsl.interpreter.rules.misplay import Misplay
from tonkdsl.interpreter.rules.last_round import LastRound
from tonkdsl.interpreter.rules.opening import Opening
from tonkdsl.interpreter.rules.out_of_turn import OutOfTurn
from tonkdsl.interpreter.rules.slapping import Slapping
from tonkdsl.interpreter.rules.stock_end import StockEnd

if TYPE_CHECKING:
    from tonkdsl.interpreter import actions as A
    from tonkdsl.language.ruleset import Ruleset

RULES: tuple[type[TurnRule], ...] = (
    Slapping,
    Buying,
    InTurn,
    StockEnd,
    DiscardSets,
    OutOfTurn,
    LastRound,
    Opening,
    HandMultipliers,
    Digging,
    DrawnAtOnce,
    AskPartner,
    FullBooks,
    Misplay,
    DiscardFirst,
)


def plan_for(rs: "Ruleset") -> Plan:
    """The constructs ``rs`` uses, built once and kept with the ruleset."""
    plan: Plan | None = rs.tables.get("plan")
    if plan is None:
        built = (rule.build(rs) for rule in RULES)
        plan = rs.tables["plan"] = Plan(r for r in built if r is not None)
    return plan


def where(rs: "Ruleset", fact: str) -> tuple[str | int, ...] | None:
    """The key of ``rs`` that makes ``fact`` true (a lint finding's related location), if a construct says."""
    return next((path for rule in RULES if (path := rule.where(rs, fact)) is not None), None)


def ending_of(rs: "Ruleset", path: tuple[object, ...]) -> str | None:
    """The one ending at which a construct evaluates the expression at ``path``, if a construct says."""
    return next((kind for rule in RULES if (kind := rule.ending_of(rs, path)) is not None), None)


def verbs() -> dict[str, Callable[[list[str]], "A.Action"]]:
    """The action verbs the constructs add (``slap``, ...), each with its parser."""
    return {verb: parse for rule in RULES for verb, parse in rule.verbs.items()}


def rule_of_kind(kind: type) -> type[TurnRule] | None:
    """The construct that plays this kind of action, whether a ruleset uses it or not."""
    return next((rule for rule in RULES if kind in rule.kinds), None)


def rule_at(path: tuple[object, ...]) -> type[TurnRule] | None:
    """The construct whose key is ``path`` (("turn", "in_turn")), if one is."""
    return next((rule for rule in RULES if tuple(rule.key.split(".")) == tuple(path)), None)


__all__ = ["RULES", "Finding", "Plan", "Sentence", "TurnRule", "ending_of", "plan_for", "rule_at", "rule_of_kind", "verbs",
           "where"]
