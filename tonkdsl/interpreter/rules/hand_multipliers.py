"""The whole hand counted several times (``hand_multipliers``): "a dark drop pays double", "going
out with every card of one suit doubles everything". Each rule names the endings it applies to
(``on``), a condition (``when``, about the player the ending is about: actor, and dropper in a
drop's endings) and a factor (``times``): where it holds, every payment between players of that
ending and every score point count that many times, rather than every payout written twice with
a condition. Several rules that hold multiply together. Payments to or from the pot are left as
they are (the pot pays what it holds); the limits cap the multiplied amounts.

Everything about these rules is here: their schema, the factor at a hand's end (the engine asks
the plan), their sentences and ``tonk diff`` words, what lint says of them, and the rules the
outcome names when one is taken.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from tonkdsl.interpreter.rules.base import Finding, Sentence, TurnRule, Words, rule_list
from tonkdsl.language.ruleset import ENDINGS

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.expr import Compiled
    from tonkdsl.language.names import EvalContext
    from tonkdsl.language.ruleset import Ruleset

_ENDS = {"tonk_out": "a player goes out without a discard", "out_on_discard": "a player goes out on their discard",
         "drop_won": "a drop wins", "drop_caught": "a drop is caught", "stock_exhausted": "the stock runs out",
         "others_folded": "every other player has folded"}


class Multiplier(NamedTuple):
    id: str
    on: frozenset[str]
    when: "Compiled"
    times: int


def _times(n: int) -> str:
    return {2: "double", 3: "triple", 4: "quadruple"}.get(n, f"{n} times over")


class HandMultipliers(TurnRule):
    key = "hand_multipliers"
    named = "hand_multipliers|HandMultipliers"
    entry_name = "Hand counted several times"
    schema: ClassVar[dict[str, Any]] = rule_list(
        {
            "on": {"type": "array", "items": {"enum": list(ENDINGS)}, "uniqueItems": True, "minItems": 1,
                   "description": "The endings the rule applies to."},
            "when": {"$ref": "#/$defs/condition",
                     "description": "A condition about the player the ending is about (actor: who went out, "
                                    "dropped, or is last in; dropper in a drop's endings), read as the hand ends.",
                     "x-expr": {"type": "bool", "roles": ["actor", "dropper"]}},
            "times": {"type": "integer", "minimum": 2, "maximum": 10,
                      "description": "How many times the hand counts where the condition holds: every payment "
                                     "between players and every score point of the ending."},
        },
        ["on", "when", "times"],
        "The whole hand counted several times where a condition holds as it ends: every payment "
        "between players and every score point of the endings named (a dark drop pays double).")

    def __init__(self, rules: tuple[Multiplier, ...]) -> None:
        self.rules = rules

    @classmethod
    def build(cls, rs: "Ruleset") -> "HandMultipliers | None":
        rules = tuple(Multiplier(str(e["id"]), frozenset(e.get("on") or ()), e["when"], int(e["times"]))
                      for e in cls.section(rs) or () if e.get("when") is not None)
        return cls(rules) if rules else None

    # --- at the end of a hand --------------------------------------------------------------
    def multiplier(self, st: "State", kind: str, ctx: "EvalContext") -> int:
        times = 1
        for rule in self.rules:
            if kind in rule.on and st._eval(rule.when, ctx):
                times *= rule.times
                st.rules_taken.append(rule.id)
        return times

    # --- for the tools ---------------------------------------------------------------------
    @staticmethod
    def rule_words(on: Any, when: str, times: int, words: Words) -> str:
        ends = " or ".join(_ENDS.get(str(k), str(k)) for k in sorted(on or (), key=lambda k: list(ENDINGS).index(k)
                                                                       if k in ENDINGS else 99))
        cond = "" if when.strip() == "true" else f" and {words(when)}"
        return f"when {ends}{cond}, the whole hand counts {_times(times)} (every payment between players and every " \
               "score point)"

    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        built = cls.build(rs)
        if built is None:
            return []
        rules = [r for r in built.rules if r.when.constant is not False and r.on & set(rs.endings)]
        return [Sentence("How a hand ends, and who pays", f"- {r.id}: {cls.rule_words(r.on, r.when.source, r.times, words)}.")
                for r in rules]

    @classmethod
    def entry_words(cls, entry: dict[str, Any], words: Words) -> str | None:
        when = entry.get("when", "true")
        return f"{entry['id']}: " + cls.rule_words(entry.get("on") or (), str(getattr(when, "source", when)),
                                                    int(entry.get("times", 2)), words)

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        """A rule on an ending the ruleset has no rule for never applies; one that reads the
        dropper on an ending without one reads no one."""
        out = []
        for j, e in enumerate(cls.section(rs) or ()):
            on = [str(k) for k in e.get("on") or ()]
            missing = [k for k in on if k not in rs.endings]
            if missing:
                out.append(Finding("rule-for-disabled", "warning", f"'{e.get('id')}' applies to {', '.join(missing)}, "
                                   "an ending this ruleset has no rule for", (cls.key, j, "on")))
            when = e.get("when")
            undropped = [k for k in on if not k.startswith("drop")]
            if when is not None and "dropper" in getattr(when, "names_used", ()) and undropped:
                out.append(Finding("dropper-without-drop", "error", f"'{e.get('id')}' reads 'dropper', but in "
                                   f"{', '.join(undropped)} no one dropped: 'dropper' names no one there",
                                   (cls.key, j, "when"), ((cls.key, j, "on"),), hint="read 'actor' there, or list "
                                   "only drop_won and drop_caught"))
        return out

    @classmethod
    def ending_of(cls, rs: "Ruleset", path: tuple[Any, ...]) -> str | None:
        # A rule's condition is asked as the hand ends, in the moment of its ending: of the one
        # ending where it lists one (lint then knows, say, that whoever went out has laid cards).
        entries = cls.section(rs) or ()
        if len(path) < 3 or path[0] != cls.key or not isinstance(path[1], int) or path[1] >= len(entries):
            return None
        on = list(entries[path[1]].get("on") or [])
        return str(on[0]) if len(on) == 1 else None

    @classmethod
    def fired(cls, rs: "Ruleset") -> list[tuple[str, str, tuple[str | int, ...]]]:
        return [(str(e.get("id")), f"the hand counted several times '{e.get('id')}'", (cls.key, j))
                for j, e in enumerate(cls.section(rs) or ())]
