"""A full book leaves the table (from Tonk tables that clear the board): a book that holds every
card of its rank the pack has can take no more cards, so once a discard ends the turn it is
taken off the table and its cards go under the discard pile (they come back into play only when
the pile is shuffled into a new stock). Its owner still counts it as a spread laid.

Everything about the rule is here: its schema, its effect after each discard, its rules-sheet
sentence and ``tonk diff`` words, what lint says of it. The turn only asks the plan after a
discard (``discarded``), so spread numbers never change in the middle of a turn.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tonkdsl.interpreter.rules.base import Finding, Sentence, TurnRule, Words

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Ruleset


class FullBooks(TurnRule):
    key = "full_books"
    named = r"full_books|FullBooks"
    added_words = "A full book now leaves the table (its cards go under the discard pile)"
    removed_words = "A full book now stays on the table"
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "to": {"enum": ["discard_pile"],
                   "description": "Where its cards go: under the discard pile (the top discard stays on top)."},
        },
        "description": "A full book leaves the table: a book that holds every card of its rank (four in one "
                       "deck) is taken off the table once a discard ends the turn, and its cards go under the "
                       "discard pile.",
    }

    def __init__(self) -> None:
        # By pack (several decks by the number of players): how many natural cards each rank has.
        self._ranks: dict[int, dict[str, int]] = {}

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "FullBooks":
        return cls()

    # --- at play ---------------------------------------------------------------------------
    def _of_rank(self, st: "State") -> dict[str, int]:
        key = id(st.pack)
        known = self._ranks.get(key)
        if known is None:
            known = {}
            wild, ranks = st.melds.wild, st.pack.ranks
            for c in range(len(st.pack.names)):
                if not wild[c]:
                    known[ranks[c]] = known.get(ranks[c], 0) + 1
            self._ranks[key] = known
        return known

    def _full(self, st: "State", cards: list[int]) -> bool:
        wild, ranks = st.melds.wild, st.pack.ranks
        natural = [c for c in cards if not wild[c]]
        return bool(natural) and len(natural) == self._of_rank(st).get(ranks[natural[0]], 0)

    def discarded(self, st: "State", seat: int, card: int) -> None:
        # Called once the discard has passed the turn on (the hand goes on): between turns, so a
        # hit's spread number never changes while a player plays.
        full = [sp for sp in st.spreads if sp.kind == "book" and self._full(st, sp.cards)]
        if not full:
            return
        st.spreads = [sp for sp in st.spreads if not any(sp is f for f in full)]
        for sp in full:
            st.discard_pile[:0] = sp.cards  # under the pile: the top discard stays the one to take

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        if cls.section(rs) is None or "spread" in never:
            return []
        return [Sentence("A turn", "A full book (every card of its rank) leaves the table once a discard ends the "
                         "turn: its cards go under the discard pile, and the spreads after it move up one number; "
                         "its owner still counts it as a spread laid.")]


    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        if cls.section(rs) is None:
            return []
        most = (rs.data.get("melds") or {}).get("book", {}) or {}
        largest = most.get("max") if isinstance(most, dict) else None
        if isinstance(largest, int) and largest < 4:
            return [Finding("rule-for-disabled", "warning", f"a book holds at most {largest} cards here "
                            "(melds.book.max), never every card of its rank: no book is ever full",
                            (cls.key,), (("melds", "book", "max"),), hint="leave full_books out")]
        return []
