"""The last round after a drop (``turn.drop.last_round``): after a drop, the next players (or
every other player) have one more turn each before the drop is decided; no one else may drop,
and no one is asked out of turn, until then. A drop made out of turn ends its last round before
the turn comes back to the dropper.

Everything about the last round is here: its schema, how a drop begins it (``close``), the
state it keeps while it runs (``LastRoundLeft``, in ``State.closing``) and how each turn that
passes counts it down to the drop's decision, its refusal and notice in a player's words, its
rules-sheet sentence, ``tonk diff`` words and lint findings. The turn only asks the plan.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from tonkdsl.interpreter.rules.base import CLOSES_AFTER_DROP, DROP_SENTENCES, Closing, Finding, Sentence, TurnRule, Words

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Ruleset

ALL = 99  # 'all': every other player (more turns than a table has players)


@dataclass(frozen=True, slots=True)
class LastRoundLeft(Closing):
    """A last round on: who dropped, the turns left before the drop is decided, and how many the
    ruleset gives (for the notice)."""

    by: int
    left: int
    turns: int

    def next_turn(self, st: "State", seat: int) -> bool:
        # It ends after its turns, or before the turn comes back to the dropper (a drop out of
        # turn); a drop in turn runs out of turns first.
        if self.left == 0 or seat == self.by:
            st._drop(self.by)
            return True
        st.closing = LastRoundLeft(self.by, self.left - 1, self.turns)
        return False

    def refusal(self, seat: int) -> str:
        return f"a drop is already made: this is the last round after {'your' if self.by == seat else 'that'} drop"

    def notice(self, st: "State", names: Sequence[str]) -> str:
        every = self.turns >= st.num_players - 1
        who = ("every other player has" if every else
               f"the next {self.turns} player{'s' if self.turns > 1 else ''} {'have' if self.turns > 1 else 'has'}")
        return f"{names[self.by]} chose to {st.ruleset.drop_called}: {who} one last turn."


def _turns(value: Any) -> int:
    return ALL if value == "all" else int(value or 0)


def _said(value: Any) -> str:
    """The setting in words, for tonk diff (None: not written)."""
    if value is None or value == 0:
        return "nobody"
    return "every other player" if value == "all" else f"the next {value} player{'s' if value != 1 else ''}"


class LastRound(TurnRule):
    key = "turn.drop.last_round"
    named = r"last_round|knocker"
    facts = frozenset({CLOSES_AFTER_DROP})
    schema: ClassVar[dict[str, Any]] = {
        "anyOf": [{"const": "all"}, {"type": "integer", "minimum": 0, "maximum": 11}],
        "x-construct": True,
        "description": "After a drop, how many of the next players get one more turn (all: every other player) "
                       "before the drop is decided; 0 (the default) decides it at once.",
    }

    def __init__(self, turns: int) -> None:
        self.turns = turns

    @classmethod
    def build(cls, rs: "Ruleset") -> "LastRound | None":
        turns = _turns(cls.section(rs))
        return cls(turns) if turns > 0 else None

    # --- at play ---------------------------------------------------------------------------
    def close(self, st: "State", seat: int, this_turn: bool) -> bool:
        players = st.num_players - st.sitting_out.bit_count()  # those who have not folded
        if players <= 1:
            return False
        left = min(self.turns, players - 1)
        # The turn now being played (a drop out of turn before the player to move is done) is
        # the first of the round; else the round begins with the next turn.
        st.closing = LastRoundLeft(seat, left - 1 if this_turn else left, self.turns)
        return True

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        built = cls.build(rs)
        if built is None:
            return []
        turns = built.turns
        who = "every other player" if turns >= ALL else f"each of the next {turns} player{'s' if turns != 1 else ''}"
        hits = "hit" not in never
        plays = " and ".join([*(["lay spreads"] if "spread" not in never else []),
                              *(["hit spreads on the table"] if hits else [])])
        return [Sentence(DROP_SENTENCES, f"After a drop, {who} has one more turn (no one else may drop)"
                         + (f", in which they may {plays}" + (", the dropper's too" if hits else "") if plays else "")
                         + "; then the drop is decided.")]

    @classmethod
    def changed(cls, old: Any, new: Any) -> str | None:
        return f"After a drop, one more turn for {_said(old)} -> {_said(new)}"

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        built = cls.build(rs)
        if built is None:
            return []
        here = tuple(cls.key.split("."))
        out = []
        if rs.drop_allowed.constant is False:
            out.append(Finding("rule-for-disabled", "warning", f"{cls.key} says how a drop goes, but no one may ever "
                               "drop (turn.drop.allowed is false)", here, (("turn", "drop", "allowed"),)))
        if built.turns < ALL and built.turns >= rs.players_max:
            out.append(Finding("last-round-too-long", "warning", f"after a drop, {built.turns} more turns are given, "
                               f"but at most {rs.players_max - 1} other players play: write 'last_round: all'", here,
                               (("players", "max"),)))
        return out
