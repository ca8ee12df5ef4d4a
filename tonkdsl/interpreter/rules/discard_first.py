"""Discarding before drawing (from online Tonk tables and Tunk simulators): a turn runs the other
way round. The player may drop at its start, lays spreads and hits, discards, and only then draws
a card from the stock, which ends the turn. A player who took a card this turn already (eating a
discard, a demand) does not draw again.

Everything about the rule is here: its schema, when the draw is still owed (``owes_draw``: the
turn then offers its plays from the start, and after the discard only the draw), its rules-sheet
sentence and ``tonk diff`` words, what lint says of it. The turn keeps the step itself (its phase
DRAW_LAST), since any construct of this kind would need it: the plays at the start, the draw
after the discard, the players asked about that discard once the draw is made, and the stock
running out at that draw (rebuilt, or the hand ends as an exhausted stock).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tonkdsl.interpreter.rules.base import DRAW_ENDS_TURN, Finding, Sentence, TurnRule, Words, recall, remember

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Ruleset

_KEY = "drew_this_turn"  # the construct's memory: the turn number of the player to move's last draw


class DiscardFirst(TurnRule):
    key = "turn.discard_first"
    named = r"discard_first|DiscardFirst"
    added_words = "A turn now discards before it draws (the draw from the stock ends the turn)"
    removed_words = "A turn now draws first and ends with the discard"
    facts = frozenset({DRAW_ENDS_TURN})
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {},
        "description": "Discarding before drawing: at their turn a player may drop (at its start), lay spreads and "
                       "hit, then discards, and only then draws a card from the stock, which ends the turn. A player "
                       "who took a card this turn already (eating a discard) does not draw again. Write it as {}.",
    }

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "DiscardFirst":
        return cls()

    # --- at play ---------------------------------------------------------------------------
    def drew(self, st: "State", seat: int, card: int, from_discard: bool) -> None:
        # Any card taken in the turn is its draw (the draw that ends it, an eaten discard, a
        # card demanded): the turn's number is kept, and no second draw is owed in that turn.
        remember(st, _KEY, st.turn_number)

    def owes_draw(self, st: "State", seat: int) -> bool:
        if st.turn_number == 1 and not st.ruleset.first_turn_draws:
            return False  # the first player does not draw on the first turn, first or last
        return bool(recall(st, _KEY) != st.turn_number)

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        if cls.section(rs) is None:
            return []
        again = " (a player who ate a discard in this turn does not draw again)" if rs.eat_allowed is not None else ""
        return [Sentence("A turn", "The draw comes last: after your discard you draw the top card of the stock, and "
                         f"that ends your turn{again}.")]

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        if cls.section(rs) is None:
            return []
        path = tuple(cls.key.split("."))
        # (A turn.draw.from without the stock is refused when the file loads: turn-may-cycle.)
        if "discard" in rs.draw_from:
            return [Finding("rule-for-disabled", "warning", "turn.draw.from lists 'discard', but with "
                            "turn.discard_first the draw comes after the player's own discard, from the stock: the "
                            "discard pile is never drawn from in one's turn", ("turn", "draw", "from"), (path,),
                            hint="draw from: [stock]")]
        return []
