"""A misplay allowed, then punished (``turn.drop.misplay``, from tables that do not refuse a bad
knock but make it cost): a drop at the start of a turn that the drop condition does not allow is
not refused. The player pays a penalty to each other player at once, then forfeits the hand
(sits out the rest of it), plays it face up (the cards they hold are shown), or plays on.

Everything about the rule is here: its schema, what it does when the turn meets such a drop
(``take_refused_drop``: the turn asks the plan before it refuses a drop), its rules-sheet sentence and
``tonk diff`` words, lint's findings and the fact it makes true (a forfeit is a fold).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tonkdsl.interpreter.outcome import Payment, partners
from tonkdsl.interpreter.rules.base import DROP_SENTENCES, FOLDS, Finding, Sentence, TurnRule, Words

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.expr import Compiled
    from tonkdsl.language.ruleset import Ruleset

_THEN = {"forfeit": "then sits out the rest of the hand (a forfeit)",
         "face_up": "then plays on with the cards they hold face up",
         "play_on": "then plays on"}
RULE = "misplay"  # the penalty's rule in the outcome (its payments, the rules taken)


class Misplay(TurnRule):
    key = "turn.drop.misplay"
    named = r"\bmisplay\b|Misplay"
    added_words = "A drop the drop condition does not allow is now a misplay, punished, rather than refused"
    removed_words = "A drop the drop condition does not allow is now refused (no misplay)"
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "penalty": {"$ref": "#/$defs/amount",
                        "description": "What the player who drops when the drop condition does not allow it pays "
                                       "each other player at once (about that player: actor).",
                        "x-expr": {"type": "num", "roles": ["actor"]}},
            "then": {"enum": ["forfeit", "face_up", "play_on"],
                     "description": "What follows: forfeit (they sit out the rest of the hand: "
                                    "endings.others_folded ends it when one side is left), face_up (they play on with "
                                    "the cards they hold shown), play_on (the penalty alone). Default: forfeit."},
        },
        "required": ["penalty"],
        "description": "A misplay allowed, then punished: a drop at the start of a turn that turn.drop.allowed "
                       "does not allow is not refused; the player pays the penalty to each other player, then "
                       "forfeits the hand, plays it face up, or plays on.",
    }

    def __init__(self, penalty: "Compiled", then: str = "forfeit") -> None:
        self.penalty = penalty
        self.then = then
        self.facts = frozenset({FOLDS}) if then == "forfeit" else frozenset()

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "Misplay":
        return cls(s["penalty"], str(s.get("then", "forfeit")))

    # --- at play ---------------------------------------------------------------------------
    def take_refused_drop(self, st: "State", seat: int) -> None:
        """``seat`` dropped where the drop condition does not allow it: the penalty, then what follows."""
        amount = int(st._eval(self.penalty, st._ctx(actor=seat)))
        if amount > 0:
            for q in range(st.num_players):
                if q != seat and not st.sitting_out >> q & 1 and not partners(st.side_of, seat, q):
                    st.paid.append(Payment(RULE, seat, q, amount))
        st.rules_taken.append(RULE)
        if self.then == "face_up":
            for c in st.hands[seat]:
                st.public_cards[seat] |= 1 << c  # everyone sees them now (View.shown)
            return
        if self.then == "play_on":
            return
        st.sitting_out |= 1 << seat  # a forfeit: as a fold, their turns are skipped
        if "folded" in st._listened:
            st._event("folded", seat)
        left = [s for s in range(st.num_players) if not st.sitting_out >> s & 1]
        if len({st.side_of[s] for s in left}) == 1:
            n = st.num_players
            st._end("others_folded", actor=min(left, key=lambda s: (s - seat) % n))
            return
        st._next_turn()

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        section = cls.section(rs)
        if section is None or "start" not in rs.drop_at:
            return []
        rule = cls.from_section(section)
        drop = rs.drop_called
        return [Sentence(DROP_SENTENCES, f"A {drop} the {drop} condition does not allow is not refused: it is a "
                                         f"misplay. The player pays each other player {words(rule.penalty.source, None)} "
                                         f"at once, and {_THEN[rule.then]}.")]


    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        section = cls.section(rs)
        if section is None:
            return []
        path = tuple(cls.key.split("."))
        if rs.drop_allowed.constant is True or "start" not in rs.drop_at:
            why = ("turn.drop.allowed always holds" if rs.drop_allowed.constant is True else
                   "the drop is never made at the start of a turn (turn.drop.at)")
            return [Finding("rule-for-disabled", "warning", f"a misplay is a drop the drop condition does not allow, "
                            f"but {why}: there is none", path, (("turn", "drop"),), hint="leave misplay out")]
        if section.get("then", "forfeit") == "forfeit" and "others_folded" not in rs.endings:
            return [Finding("ending-undefined", "error", "a misplay forfeits the hand (the player sits out), but there "
                            "is no rule for 'others_folded', the ending when one player is left", path + ("then",),
                            hint="add endings.others_folded (who wins, who pays), or then: play_on")]
        return []

    @classmethod
    def fired(cls, rs: "Ruleset") -> list[tuple[str, str, tuple[str | int, ...]]]:
        return [(RULE, "a misplay (turn.drop.misplay)", tuple(cls.key.split(".")))] if cls.section(rs) is not None \
            else []
