"""Discarding several cards of one rank at once (from online Tonk tables and Tunk simulators): after
the draw, instead of one card, the player may throw a pair, three or four of a kind onto the
discard pile; they go down together, the last one named on top, and the turn ends as a discard
ends it (the windows, the next player's draw, going out with an empty hand).

Everything about it is here: its schema, its action, when it is offered and what it does, its
rules-sheet sentence and what lint says of it. The turn (turn.py) only asks the plan.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.rules.base import Finding, Sentence, TurnRule
from tonkdsl.interpreter.table import DISCARDED, IllegalAction
from tonkdsl.language.cards import parse_card

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Ruleset


@dataclass(frozen=True)
class Throw(A.Action):
    """Discard several cards of one rank at once (the last one named ends on top)."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "throw " + " ".join(self.cards)


def _parse(words: list[str]) -> A.Action:
    cards = A._cards(words, "throw")
    if len(cards) < 2:
        raise A.ActionSyntaxError("'throw' discards two or more cards of one rank at once, e.g. 'throw 7S 7H'; "
                                  "one card is 'discard 7S'")
    return Throw(cards)


class DiscardSets(TurnRule):
    key = "discard_sets"
    named = "discard_sets"
    kinds = (Throw,)
    verbs: ClassVar[dict[str, Callable[[list[str]], A.Action]]] = {"throw": _parse}
    usage = ("throw <cards>",)
    help = (("throw 7S 7H", "discard a pair (or three or four of a kind) at once"),)
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "min": {"type": "integer", "minimum": 2, "maximum": 8,
                    "description": "The fewest cards of one rank discarded together (default 2: a pair)."},
        },
        "description": "Discarding several cards of one rank at once, after the draw, instead of one card.",
    }

    def __init__(self, least: int) -> None:
        self.least = least

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "DiscardSets":
        return cls(int(s.get("min", 2)))

    # --- at play ---------------------------------------------------------------------------
    def in_play(self, st: "State", seat: int, offered: A.ActionList) -> list[A.Action]:
        """The sets of the cards the player may discard now (never after a drop declared before
        the discard: that discard is asked of one card)."""
        cards = getattr(offered, "discard_cards", ())
        if len(cards) < self.least or st.knock_declared:
            return []
        pack = st.pack
        by_rank: dict[str, list[int]] = {}
        for c in sorted(set(cards)):
            by_rank.setdefault(pack.ranks[c], []).append(c)
        out: list[A.Action] = []
        seen: set[tuple[str, ...]] = set()
        for same in by_rank.values():
            for size in range(self.least, len(same) + 1):
                for combo in combinations(same, size):
                    names = tuple(pack.names[c] for c in combo)
                    if names not in seen:  # identical cards (two decks) make one action
                        seen.add(names)
                        out.append(Throw(names))
        return out

    def play(self, st: "State", seat: int, action: A.Action) -> None:
        assert isinstance(action, Throw)
        mine = sorted(A._norm(n) for n in action.cards)  # in any order: the last one named ends on top
        if seat != st.current or not any(isinstance(a, Throw) and sorted(a.cards) == mine for a in st.legal_actions()):
            raise IllegalAction(self._refusal(st, seat, action))
        ids = st._take_ids(seat, action.cards)
        for c in ids[:-1]:  # down together; the last one is the turn's own discard, on top
            st._take(seat, c)
            st.discard_pile.append(c)
            st.record.append((seat, DISCARDED, c))
        st._do_discard(seat, A.Discard(action.cards[-1]))

    def _refusal(self, st: "State", seat: int, action: "Throw") -> str:
        if seat != st.current:
            return "it is not your turn: you throw cards instead of your discard"
        ranks = {parse_card(n)[0] for n in action.cards}
        if len(ranks) > 1:
            return "the cards thrown together are all of one rank"
        if len(action.cards) < self.least:
            return f"throw at least {self.least} cards of one rank together"
        return "you may throw cards only after your draw, in place of your discard, with cards you may discard now"

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Callable[..., str], never: frozenset[str]) -> list[Sentence]:
        section = cls.section(rs)
        if section is None:
            return []
        least = cls.from_section(section).least
        what = "a pair, three or four of a kind" if least == 2 else f"{least} or more cards of one rank"
        return [Sentence("A turn", f"Instead of one card, a player may discard {what} at once: they go onto the "
                         "discard pile together, the last one named on top, and the turn ends as with a discard.")]

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        section = cls.section(rs)
        if section is None:
            return []
        least = cls.from_section(section).least
        most = max((rs.pack_for(n).ranks.count(r) for n in (rs.players_min, rs.players_max)
                    for r in set(rs.pack_for(n).ranks)), default=0)
        if least > most:
            return [Finding("rule-for-disabled", "warning", f"discard_sets asks for {least} cards of one rank, but the "
                            f"pack holds at most {most} of a rank: no set is ever thrown", (cls.key, "min"),
                            (("pack",),), hint=f"min: {most} or less")]
        return []

    @classmethod
    def action_texts(cls, cards: Sequence[str], max_spreads: int) -> list[str]:
        # A set is of several cards: over one card name (the fixed ids of an action table) there
        # is none, and each set met gets a spare id; over several names, the set of them.
        return ["throw " + " ".join(cards)] if len(cards) >= 2 else []
