"""Asking one's partner before a drop (``turn.drop.ask_partner``, from partnership rummy games):
where a player may drop, they may first ask their partner "may I go out?", and are bound by the
answer. "Yes" makes the drop at once; "no" (or a pass) means no drop this turn. With
``required: true`` a player drops only with their partner's yes.

Everything about the rule is here: its schema, its actions (``ask``, then the partner's ``yes``
or ``no``), when the question is offered (only where the drop is, and once a turn), the asking
of the partner (asking.py's, on demand: the partner alone is asked, and nobody else may act
meanwhile), the condition it puts on the drop (a guard, with its refusal in a player's words),
its rules-sheet sentence, ``tonk diff`` words and lint findings.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.asking import Asking, Kind, Window, answer
from tonkdsl.interpreter.rules.base import DROP_SENTENCES, Finding, Guard, Sentence, TurnRule, Words, recall, remember
from tonkdsl.interpreter.table import ASK, START, IllegalAction
from tonkdsl.language.expr import BOOL, Compiled

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.names import EvalContext
    from tonkdsl.language.ruleset import Ruleset


@dataclass(frozen=True)
class Ask(A.Action):
    """Ask one's partner whether one may go out (drop)."""

    def __str__(self) -> str:
        return "ask"


@dataclass(frozen=True)
class Yes(A.Action):
    """The partner's answer: go out (the drop is made at once)."""

    def __str__(self) -> str:
        return "yes"


@dataclass(frozen=True)
class No(A.Action):
    """The partner's answer: not this turn."""

    def __str__(self) -> str:
        return "no"


def _word(action: A.Action, verb: str) -> Callable[[list[str]], A.Action]:
    def parse(words: list[str]) -> A.Action:
        if words:
            raise A.ActionSyntaxError(f"write '{verb}' alone")
        return action
    return parse


_ASK, _YES, _NO, _DROP = Ask(), Yes(), No(), A.Drop()
_KEY = "ask_partner"  # the construct's memory: (turn, seat, answer) once a seat asked this turn
ASKED, GRANTED = "asked", "granted"


def _answered(st: "State", seat: int) -> str | None:
    """What ``seat``'s question this turn came to: ASKED (no yes), GRANTED, or None (not asked)."""
    kept = recall(st, _KEY)
    if isinstance(kept, tuple) and kept[0] == st.turn_number and kept[1] == seat:
        return str(kept[2])
    return None


def _partner(st: "State", seat: int) -> int | None:
    """The partner asked: the next player of ``seat``'s side after them who is still in the hand."""
    n, side, out = st.num_players, st.side_of, st.sitting_out
    return next((q for q in ((seat + k) % n for k in range(1, n)) if side[q] == side[seat] and not out >> q & 1), None)


# --- the partner's answers (asked on demand: asking.py asks the partner alone) --------------------
def _always(st: "State", seat: int, asking: Asking) -> bool:
    return True


def _yes(st: "State", seat: int, asking: Asking) -> None:
    st.phase = asking.resume
    remember(st, _KEY, (st.turn_number, asking.ref, GRANTED))
    st.apply(_DROP)  # the asker's drop, as they would make it now (its refusals and notes the turn's own)


def _no(st: "State", seat: int, asking: Asking) -> None:
    st.phase = asking.resume  # (ASKED stays: no drop this turn)


YES = Kind("yes", _YES, "let your partner go out (they drop at once)", _always, _yes, True, ("drop_won", "drop_caught"))
NO = Kind("no", _NO, "tell your partner not to go out this turn", _always, _no, True)


class AskPartner(TurnRule):
    key = "turn.drop.ask_partner"
    named = r"ask_partner|AskPartner"
    added_words = "A player may now ask their partner before a drop, and is bound by the answer"
    removed_words = "A player no longer asks their partner before a drop"
    kinds = (Ask, Yes, No)
    verbs: ClassVar[dict[str, Callable[[list[str]], A.Action]]] = {
        "ask": _word(_ASK, "ask"), "yes": _word(_YES, "yes"), "no": _word(_NO, "no")}
    usage = ("ask", "yes", "no")
    help = (("ask", "ask your partner whether you may go out (drop); you are bound by the answer"),
            ("yes", "(asked by your partner) let them go out: they drop at once"),
            ("no", "(asked by your partner) they may not drop this turn"))
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "required": {"type": "boolean",
                         "description": "A player drops only with their partner's yes (default false: asking is "
                                        "a choice, and a player who does not ask drops as usual)."},
        },
        "description": "Asking one's partner before a drop (players.sides): where a player may drop they may "
                       "ask their partner 'may I go out?' (once a turn) and are bound by the answer: yes makes "
                       "the drop at once, no (or a pass) means no drop this turn.",
    }

    def __init__(self, required: bool) -> None:
        self.required = required
        rid = "ask_partner"
        self.windows_asked = (Window(YES, frozenset({"turn_start", "after_draw"}), None, None, rid),
                              Window(NO, frozenset({"turn_start", "after_draw"}), None, None, rid))
        # The condition it puts on the drop, asked as the turn asks its rules of turn.in_turn.
        self.guard_when = Compiled("your partner's answer", BOOL, self._may_drop)

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "AskPartner":
        return cls(bool(s.get("required", False)))

    @classmethod
    def build(cls, rs: "Ruleset") -> "AskPartner | None":
        section = cls.section(rs)
        if section is None or rs.side_size is None:
            return None  # no partners: lint says so
        return cls.from_section(section)

    def _may_drop(self, ctx: "EvalContext") -> bool:
        said = _answered(ctx.state, ctx.actor)  # type: ignore[arg-type]
        return said == GRANTED if said is not None else not self.required

    def guards(self) -> tuple[Guard, ...]:
        return (Guard("drop", frozenset({"turn_start", "after_draw"}), self.guard_when, "", self._refusal),)

    def _refusal(self, st: "State", seat: int) -> str:
        if _answered(st, seat) == ASKED:
            return "your partner said no: you may not drop this turn"
        return "ask your partner first ('ask'): you may drop only with their yes"

    # --- at play ---------------------------------------------------------------------------
    def _offered(self, st: "State", seat: int, at_start: bool) -> bool:
        """Whether ``seat`` may ask now: not yet this turn, a partner in the hand, and a drop they
        could make with a yes (asked of a copy where the partner said yes)."""
        if _answered(st, seat) is not None or _partner(st, seat) is None:
            return False
        twin = st.clone()
        remember(twin, _KEY, (st.turn_number, seat, GRANTED))
        return twin._can_drop(seat) if at_start else twin._can_drop_in_play(seat)

    def at_start(self, st: "State", seat: int) -> list[A.Action]:
        if "start" not in st.ruleset.drop_at:
            return []
        return [_ASK] if self._offered(st, seat, True) else []

    def in_play(self, st: "State", seat: int, offered: A.ActionList) -> list[A.Action]:
        if not st.melds.play_drop:
            return []
        return [_ASK] if self._offered(st, seat, False) else []

    def play(self, st: "State", seat: int, action: A.Action) -> None:
        if isinstance(action, (Yes, No)):
            if st.phase != ASK or st.asking is None or st.asking.members[0][0].kind is not YES:
                raise IllegalAction("nobody asked you whether they may go out")
            return answer(st, seat, action)
        if seat != st.current_player() or st.phase == ASK:
            raise IllegalAction("you may ask your partner only in your own turn, where you may drop")
        at_start = st.phase == START
        if not self._offered(st, seat, at_start):
            if _answered(st, seat) is not None:
                raise IllegalAction("you have asked your partner this turn already")
            if _partner(st, seat) is None:
                raise IllegalAction("you have no partner in this hand to ask")
            raise IllegalAction("you may ask your partner only where you may drop")
        partner = _partner(st, seat)
        assert partner is not None
        remember(st, _KEY, (st.turn_number, seat, ASKED))
        at = "turn_start" if at_start else "after_draw"
        # The partner alone is asked; nobody else may act meanwhile (no player to move: -1).
        st.asking = Asking(at, seat, -1, [partner], tuple((w, frozenset({partner})) for w in self.windows_asked),
                           st.phase)
        st.out_of_turn_seat = partner
        st.phase = ASK

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def _built(cls, rs: "Ruleset") -> "AskPartner | None":
        section = cls.section(rs)
        return None if section is None else cls.from_section(section)

    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        rule = cls._built(rs)
        if rule is None or "drop" in never or rs.side_size is None:
            return []
        drop = rs.drop_called
        first = (f"You may {drop} only with your partner's yes: ask them first ('may I go out?')" if rule.required else
                 f"Before you {drop} you may ask your partner 'may I go out?' (once a turn)")
        return [Sentence(DROP_SENTENCES, f"{first}; you are bound by the answer: yes, and you {drop} at once; no (or "
                                         f"no answer), and you may not {drop} this turn.")]

    @classmethod
    def changed(cls, old: Any, new: Any) -> str | None:
        return super().changed(old, new) or ("A drop now needs the partner's yes" if (new or {}).get("required") else
                                             "A drop no longer needs the partner's yes (asking is a choice)")

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        if cls.section(rs) is None:
            return []
        if rs.side_size is None:
            return [Finding("rule-for-disabled", "warning", "ask_partner lets a player ask their partner before a "
                            "drop, but the players play alone (no players.sides): nobody is ever asked",
                            (*cls.key.split("."),), (("players",),), hint="players: {sides: 2}, or leave it out")]
        if rs.drop_allowed.source.strip() == "false":
            return [Finding("rule-for-disabled", "warning", "ask_partner is about the drop, which this ruleset never "
                            "allows (turn.drop.allowed is false)", (*cls.key.split("."),),
                            (("turn", "drop", "allowed"),), hint="leave ask_partner out")]
        return []

    @classmethod
    def fired(cls, rs: "Ruleset") -> list[tuple[str, str, tuple[str | int, ...]]]:
        return [("ask_partner", "a partner's answer (ask_partner)", (*cls.key.split("."),))] \
            if cls.section(rs) is not None else []

    @classmethod
    def action_texts(cls, cards: Sequence[str], max_spreads: int) -> list[str]:
        return ["ask", "yes", "no"]
