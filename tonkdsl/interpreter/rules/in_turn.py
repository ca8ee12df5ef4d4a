"""The player to move's own actions, step by step (``turn.in_turn``): each rule names one of their
actions (drop, claim, draw_discard, spread, hit), the steps of their turn it guards (turn_start:
before drawing; after_draw: after drawing, before the discard) and a condition; the action is
offered there only while the condition holds, on top of the ruleset's own conditions for it.

Everything about these rules is here: their schema, their guards (the turn keeps every
construct's guards in one table and asks it where it offers or plays those actions), their
rules-sheet sentences and ``tonk diff`` words, what lint says of them, and the rules the
outcome names when one is taken.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable

from tonkdsl.interpreter.rules.base import Finding, Guard, Narrowing, Sentence, TurnRule, rule_list

if TYPE_CHECKING:
    from tonkdsl.language.ruleset import Ruleset

_STEP = {"turn_start": "before drawing", "after_draw": "after drawing"}
# The same steps where the draw comes last (the sheet's 'never' has play_after_draw): the start,
# and the plays that follow it without a draw.
_STEP_DRAW_LAST = {"turn_start": "at the start of your turn", "after_draw": "as you play, before your discard"}
_OWN = {"drop": "drop", "claim": "claim", "draw_discard": "take the top discard", "spread": "lay a spread",
        "hit": "hit a spread"}
# How to offer a guarded action a ruleset never offers (the rule-for-disabled lint finding).
_NOT_OFFERED_HINT = {"drop": "add the step to turn.drop.at (start, before_discard or instead_of_discard)",
                     "claim": "a claim is offered by deal_wins rules with 'claim', or bonuses with on: claim",
                     "draw_discard": "draw from: [stock, discard]", "hit": "let spreads be hit (hits.books, hits.runs)"}


class InTurn(TurnRule):
    key = "turn.in_turn"
    named = "in_turn"
    entry_name = "Rule on the player to move's own actions"
    schema: ClassVar[dict[str, Any]] = rule_list(
        {
            "do": {"enum": ["drop", "claim", "draw_discard", "spread", "hit"],
                   "description": "The action of the player to move the rule guards: drop (at turn_start: "
                                  "before drawing, where turn.drop.at has start; at after_draw: where it has "
                                  "before_discard or instead_of_discard), claim (at turn_start: a claimable "
                                  "automatic win; at after_draw: a bonus paid on claim), draw_discard (at "
                                  "turn_start: taking the top discard as the draw), spread or hit (at after_draw: "
                                  "laying a spread, playing cards onto one)."},
            "at": {"type": "array", "items": {"enum": ["turn_start", "after_draw"]}, "uniqueItems": True,
                   "minItems": 1,
                   "description": "The steps of the player's own turn the rule guards: turn_start (before "
                                  "drawing) and after_draw (after drawing, before the discard)."},
            "when": {"$ref": "#/$defs/condition",
                     "description": "A condition about the player to move (actor; for a hit, owner is the owner "
                                    "of the spread hit; for a spread, 'spread' is its cards): the action is "
                                    "offered at those steps only while it holds, on top of the ruleset's own "
                                    "conditions for it (turn.drop.allowed, turn.spread.allowed, hits.allowed, "
                                    "turn.claim.when).",
                     "x-expr": {"type": "bool", "roles": ["actor"], "by": "do",
                                "cases": {"hit": {"roles": ["actor", "owner"]},
                                          "spread": {"card_sets": ["spread"]}}}},
        },
        ["do", "at", "when"],
        "Conditions on the player to move's own actions, step by step: which of drop, claim, "
        "draw_discard, spread and hit the player may take before drawing (turn_start) and after "
        "drawing (after_draw), and when. Each rule names the action, the steps and a condition; the "
        "action is offered there only while the condition holds (a rule only narrows what the other "
        "keys allow).")

    def __init__(self, rules: tuple[Guard, ...]) -> None:
        self.rules = rules

    @classmethod
    def build(cls, rs: "Ruleset") -> "InTurn | None":
        rules = tuple(Guard(str(e["do"]), frozenset(e.get("at") or ()), e["when"], str(e.get("id")))
                      for e in cls.section(rs) or () if e.get("when") is not None)
        return cls(rules) if rules else None

    def guards(self) -> tuple[Guard, ...]:
        return self.rules

    # --- for the tools ---------------------------------------------------------------------
    @staticmethod
    def rule_words(do: str, at: Iterable[str], when: str, words: Callable[..., str],
                   names: dict[str, str] = _STEP) -> str:
        """One rule in words: "before drawing, you may drop only when you have had 1 turn"."""
        steps = " or ".join(names[m] for m in sorted(at, key=list(names).index) if m in names)
        if when.strip().lower() == "false":
            return f"{steps}, you may not {_OWN.get(do, do)}"
        return f"{steps}, you may {_OWN.get(do, do)} only when {words(when, 'you')}"

    @classmethod
    def sheet(cls, rs: "Ruleset", words: Callable[..., str], never: frozenset[str]) -> list[Sentence]:
        built = cls.build(rs)
        rules = [g for g in built.rules if g.do not in never] if built is not None else []
        if not rules:
            return []  # (an action the ruleset never allows: the sheet says so where it speaks of it)
        names = _STEP_DRAW_LAST if "play_after_draw" in never else _STEP
        return [Sentence("A turn", "Your own actions, step by step:")] + [
            Sentence("A turn", f"- {g.id}: {cls.rule_words(g.do, g.at, g.when.source, words, names)}.")
            for g in rules]

    @classmethod
    def entry_words(cls, entry: dict[str, Any], words: Callable[..., str]) -> str | None:
        return f"{entry['id']}: " + cls.rule_words(str(entry.get("do", "?")), entry.get("at") or [],
                                                    str(entry.get("when", "true")), words)

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        """A rule that guards an action at a step where the ruleset never offers it guards nothing."""
        from tonkdsl.interpreter.turn import OFFERED_AT  # (the turn imports the registry: read at lint time)

        out = []
        for j, g in enumerate(cls.section(rs) or ()):
            do, at = str(g.get("do")), sorted(g.get("at") or ())
            steps = [step for step in at if (step, do) not in OFFERED_AT or not OFFERED_AT[step, do](rs)]
            if steps:
                offered_at = [step for (step, kind), offered in OFFERED_AT.items() if kind == do and offered(rs)]
                hint = f"at: [{', '.join(offered_at)}]" if offered_at else _NOT_OFFERED_HINT.get(do, "")
                out.append(Finding("rule-for-disabled", "warning", f"'{g.get('id')}' guards the player to move's "
                                   f"'{do}' at {' and '.join(steps)}, where this ruleset never offers it",
                                   ("turn", "in_turn", j, "at"), hint=hint))
        return out

    @classmethod
    def narrows(cls, rs: "Ruleset") -> list[Narrowing]:
        """Each rule on a drop, a spread or a hit is asked on top of the ruleset's own condition
        for it (turn.drop.allowed, turn.spread.allowed, hits.allowed)."""
        keys = {"drop": (rs.drop_allowed, ("turn", "drop", "allowed")),
                "spread": (rs.spread_allowed, ("turn", "spread", "allowed")),
                "hit": (rs.hit_allowed, ("hits", "allowed"))}
        out = []
        for j, g in enumerate(cls.section(rs) or ()):
            own, key = keys.get(str(g.get("do")), (None, ()))
            when = g.get("when")
            if own is not None and when is not None and own.source.strip() != "true":
                out.append(Narrowing(("turn", "in_turn", j, "when"), getattr(when, "source", str(when)), own.source, key))
        return out

    @classmethod
    def fired(cls, rs: "Ruleset") -> list[tuple[str, str, tuple[str | int, ...]]]:
        return [(str(e.get("id")), f"the rule of the turn '{e.get('id')}'", ("turn", "in_turn", j))
                for j, e in enumerate(cls.section(rs) or ())]
