"""A card drawn from the stock is played at once (from Conquian): it is laid in a spread, played
onto one, or thrown onto the discard pile, and never stays in the hand.

Everything about the rule is here: its schema, what the player is offered while the card is
owed (the spreads and hits that hold it, and its own discard, which ends the turn as any discard
does), the refusals in a player's words, its rules-sheet sentence and ``tonk diff`` words, what
lint says of it. The turn tells it of each draw (``drew``) and asks it at each spread, hit and
discard (``refuses_*``); it adds the discard of the card owed (``in_play``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.rules.base import (DRAW_ENDS_TURN, Finding, Sentence, TurnRule, Words, needs_draw_from, recall,
                                             remember)

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.expr import Compiled
    from tonkdsl.language.ruleset import Ruleset

_KEY = "drawn_at_once"  # the construct's memory: (turn, the card drawn) while it must still be played


class DrawnAtOnce(TurnRule):
    key = "drawn_at_once"
    named = "drawn_at_once|DrawnAtOnce"
    added_words = "A card drawn from the stock is now played at once (in a spread, onto one, or discarded)"
    removed_words = "A card drawn from the stock now joins the hand (no longer played at once)"
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "allowed": {"$ref": "#/$defs/condition",
                        "description": "When the card drawn must be played at once (about the player who drew it, "
                                       "as they draw: actor). Default: always.",
                        "x-expr": {"type": "bool", "roles": ["actor"]}},
        },
        "description": "A card drawn from the stock is played at once (Conquian): the player's first play after "
                       "drawing it is a spread or a hit that holds it, or its discard, which ends the turn; it "
                       "never stays in the hand.",
    }

    def __init__(self, allowed: "Compiled | None") -> None:
        self.allowed = allowed

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "DrawnAtOnce":
        return cls(s.get("allowed"))

    # --- at play ---------------------------------------------------------------------------
    def drew(self, st: "State", seat: int, card: int, from_discard: bool) -> None:
        if from_discard or seat != st.current:
            return  # only the player to move's draw from the stock
        if self.allowed is not None and not st._eval(self.allowed, st._ctx(actor=seat)):
            return
        # Identical cards (several decks, jokers) are one card to the player: what is owed is a
        # card of this name, until the hand holds fewer of them than it did with the one drawn.
        names = st.pack.names
        held = 1 + sum(1 for c in st.hands[seat] if names[c] == names[card])
        remember(st, _KEY, (st.turn_number, card, held))

    def _owed(self, st: "State", seat: int) -> int | None:
        """The card ``seat`` drew from the stock this turn and has not played yet (or its twin)."""
        kept = recall(st, _KEY)
        if not isinstance(kept, tuple) or kept[0] != st.turn_number or seat != st.current:
            return None
        names = st.pack.names
        name = names[kept[1]]
        held = [c for c in st.hands[seat] if names[c] == name]
        return held[0] if len(held) >= kept[2] else None

    @staticmethod
    def _holds(st: "State", cards: Sequence[int], owed: int) -> bool:
        names = st.pack.names
        return any(names[c] == names[owed] for c in cards)

    def in_play(self, st: "State", seat: int, offered: A.ActionList) -> list[A.Action]:
        owed = self._owed(st, seat)
        if owed is None or offered.discard_cards or st.knock_declared:
            return []
        if st.ruleset.hold_allowed is not None and st._held_spread(seat) is not None:
            return []  # the spread held is laid first (refuses_spread lets it)
        # The turn listed no discard (refuses_discard below, or another rule): the card owed may
        # still be thrown, unless another construct holds every discard back.
        if st.melds.plan.discard_refusal(st, seat, owed) is not None:
            return []
        return [A.Discard(st.pack.names[owed])]

    def refuses_spread(self, st: "State", seat: int, cards: Sequence[int]) -> str | None:
        owed = self._owed(st, seat)
        if owed is None or self._holds(st, cards, owed):
            return None
        if st.ruleset.hold_allowed is not None and st._held_spread(seat) is not None:
            return None  # a spread that may not be held is laid first (the card owed may fit nowhere)
        return self._first(st, owed)

    def refuses_hit(self, st: "State", seat: int, cards: Sequence[int] | None) -> str | None:
        owed = self._owed(st, seat)
        return None if owed is None or cards is None or self._holds(st, cards, owed) else self._first(st, owed)

    def refuses_discard(self, st: "State", seat: int, card: int | None) -> str | None:
        if st.knock_declared:
            return None  # a drop ends the turn with this discard: the hand is shown, as any drop shows it
        owed = self._owed(st, seat)
        return None if owed is None or (card is not None and self._holds(st, (card,), owed)) else self._first(st, owed)

    @staticmethod
    def _first(st: "State", card: int) -> str:
        name = st.pack.names[card]
        return f"play the {name} you drew at once: in a spread, onto one, or discard it"

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def _when(cls, rule: "DrawnAtOnce", words: Words) -> str:
        return "" if rule.allowed is None or rule.allowed.source.strip() == "true" else \
            f" (when {words(rule.allowed.source, 'you')} as you draw it)"

    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        section = cls.section(rs)
        if section is None or "stock" not in rs.draw_from or "play_after_draw" in never:
            return []  # (nobody draws from the stock, or nothing is played after a draw: lint says so)
        when = cls._when(cls.from_section(section), words)
        return [Sentence("A turn", f"A card you draw from the stock is played at once{when}: your first play after "
                         "drawing it is a spread or a hit that holds it, or its discard, which ends your turn; it "
                         "never stays in your hand.")]


    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        if cls.section(rs) is not None and DRAW_ENDS_TURN in facts:
            return [Finding("rule-for-disabled", "warning", "drawn_at_once is about the card drawn from the stock, "
                            "but here the draw ends the turn (a turn whose draw comes last): nothing is played "
                            "after it", (cls.key,), hint="leave drawn_at_once out")]
        return needs_draw_from(cls, rs, "stock", "drawn_at_once is about the card drawn from the stock")
