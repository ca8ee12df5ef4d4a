"""Buying the discard (from the rummy cousins: Rummy 500, Shanghai, Liverpool): after a discard,
before the next player draws, another player may buy it: the discard goes into their hand with
a penalty card from the stock, out of turn, and play goes on with the next player. The next
player wants the card? They take it as their draw. A player buys at most so many times a hand.

Everything about buying is here: its schema, its action, when it is offered and what it does,
and its rules-sheet sentence. The turn (turn.py) only asks the plan. Bots do not buy (they play
their own turns); people at a table do, and the legality check tries every buy it is offered.
In OpenSpiel's action table "buy" takes one of the spare ids (tonkdsl/tools/openspiel.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.rules.base import OnTheDiscard, Sentence, open_discard, recall, remember
from tonkdsl.interpreter.table import DREW_STOCK, TOOK, IllegalAction

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.expr import Compiled
    from tonkdsl.language.ruleset import Ruleset


@dataclass(frozen=True)
class Buy(A.Action):
    """Buy the last discard, out of turn."""

    def __str__(self) -> str:
        return "buy"


def _parse(words: list[str]) -> A.Action:
    if words:
        raise A.ActionSyntaxError("write 'buy' alone: it buys the last discard")
    return Buy()


_BUY: Any = Buy()


class Buying(OnTheDiscard):
    key = "buying"
    named = "buy"
    kinds = (Buy,)
    verbs: ClassVar[dict[str, Callable[[list[str]], A.Action]]] = {"buy": _parse}
    usage = ("buy",)
    help = (("buy", "buy the last discard out of turn, with a penalty card"),)
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "allowed": {"$ref": "#/$defs/condition", "description": "When a player may buy the discard (about the "
                        "buyer: actor).", "x-expr": {"type": "bool", "roles": ["actor"]}},
            "penalty": {"type": "integer", "minimum": 0, "maximum": 5,
                        "description": "Cards the buyer also takes from the top of the stock (default 1)."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 20,
                      "description": "Buys a player may make in one hand (default 3)."},
        },
        "required": ["allowed"],
        "description": "Buying the discard out of turn, with a penalty card from the stock, before the next "
                       "player draws.",
    }

    def __init__(self, allowed: "Compiled", penalty: int, limit: int) -> None:
        self.allowed = allowed
        self.penalty = penalty
        self.limit = limit

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "Buying":
        return cls(s["allowed"], int(s.get("penalty", 1)), int(s.get("limit", 3)))

    # --- at play ---------------------------------------------------------------------------
    def options(self, st: "State", seat: int) -> list[A.Action]:
        return [_BUY] if self._refusal(st, seat) is None else []

    def _refusal(self, st: "State", seat: int) -> str | None:
        """Why ``seat`` may not buy now, or None."""
        opened = open_discard(st)
        if opened is None or not st.discard_pile or st.discard_pile[-1] != opened.card:
            return "there is no discard to buy now"
        if seat == st.current:
            return "the discard is yours to take as your draw: draw it ('draw discard')"
        if st.sitting_out >> seat & 1:
            return "you have folded this hand"
        if self._bought(st, seat) >= self.limit:
            return (f"you have bought {'once' if self.limit == 1 else f'{self.limit} times'} this hand, the most a "
                    "player may")
        if len(st.stock) < self.penalty:
            return "the stock does not hold the penalty card"
        if not st._eval(self.allowed, st._ctx(actor=seat)):
            return f"you may buy only when {self.allowed.source}"
        return None

    @staticmethod
    def _bought(st: "State", seat: int) -> int:
        return int(recall(st, f"buying:{seat}", 0))

    def play(self, st: "State", seat: int, action: A.Action) -> None:
        why = self._refusal(st, seat)
        if why is not None:
            raise IllegalAction(why)
        card = st.discard_pile.pop()
        penalty = [st.stock.pop() for _ in range(self.penalty)]
        st.set_hand(seat, [*st.hands[seat], card, *penalty])
        st.public_cards[seat] |= 1 << card  # everyone saw the card bought go into that hand
        # Each card into a hand is recorded (the view reads it): the one bought seen, the penalty not.
        st.record.extend([(seat, TOOK, card), *((seat, DREW_STOCK, -1) for _ in penalty)])
        st.pending = None
        remember(st, f"buying:{seat}", self._bought(st, seat) + 1)

    def stock_cards(self) -> int:
        return self.penalty

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Callable[..., str], never: frozenset[str]) -> list[Sentence]:
        section = cls.section(rs)
        if section is None:
            return []
        buy = cls.from_section(section)
        when = "" if buy.allowed.source.strip() == "true" else f" (when {words(buy.allowed.source)})"
        penalty = ("nothing more" if buy.penalty == 0 else "the top card of the stock" if buy.penalty == 1
                   else f"the top {buy.penalty} cards of the stock")
        return [Sentence("A turn", f"Buying: after a discard, before the next player draws, any other player may buy "
                         f"it{when}: they take it and {penalty} into their hand, out of turn, and play goes on with "
                         f"the next player, who may instead take the discard as their draw. A player buys at most "
                         + ("once a hand." if buy.limit == 1 else f"{buy.limit} times a hand."))]
