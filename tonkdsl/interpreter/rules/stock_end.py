"""Dead cards at the bottom of the stock (from Gin rummy, Oklahoma and Tunk simulators): the hand
ends as an exhausted stock once a discard leaves so many cards in the stock or fewer. Nobody
draws them: in Gin the last two cards are dead, and a hand nobody has knocked by then is over.

Everything about it is here: its schema, its effect after each discard, its rules-sheet
sentence and what lint says of it. The turn (turn.py) only asks the plan, after a discard.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar

from tonkdsl.interpreter.rules.base import STOCK_NEVER_EMPTY, Finding, Sentence, TurnRule

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Ruleset

MAX_DEAD_CARDS = 20


class StockEnd(TurnRule):
    key = "stock_end"
    named = "stock_end"
    facts = frozenset({STOCK_NEVER_EMPTY})
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "cards_left": {"type": "integer", "minimum": 1, "maximum": MAX_DEAD_CARDS,
                           "description": "The hand ends as an exhausted stock (endings.stock_exhausted) once a "
                                          "discard leaves this many cards in the stock or fewer: they are dead, "
                                          "nobody draws them (Gin: 2)."},
        },
        "required": ["cards_left"],
        "description": "Dead cards at the bottom of the stock: the hand ends before the stock is empty.",
    }

    def __init__(self, cards_left: int) -> None:
        self.cards_left = cards_left

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "StockEnd":
        return cls(int(s["cards_left"]))

    # --- at play ---------------------------------------------------------------------------
    def discarded(self, st: "State", seat: int, card: int) -> None:
        # Called once the discard has passed the turn on (the hand goes on): the player to move
        # now would draw into the dead cards, so the hand is over, as when the stock runs out.
        if len(st.stock) <= self.cards_left:
            st._end("stock_exhausted", actor=st.current)

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Callable[..., str], never: frozenset[str]) -> list[Sentence]:
        section = cls.section(rs)
        if section is None:
            return []
        n = cls.from_section(section).cards_left
        cards = "card" if n == 1 else "cards"
        return [Sentence("A turn", f"The last {n} {cards} of the stock are dead: once a discard leaves {n} {cards} or "
                         "fewer in the stock, the hand ends as if the stock were exhausted.")]

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        section = cls.section(rs)
        if section is None or not rs.stock_rebuild:
            return []
        return [Finding("rule-for-disabled", "warning", f"stock.rebuild never happens: the hand ends with "
                        f"{section['cards_left']} cards still in the stock (stock_end), so the stock never runs out",
                        ("stock", "rebuild"), (("stock_end", "cards_left"),),
                        "leave out stock.rebuild, or stock_end")]
