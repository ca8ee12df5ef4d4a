"""An opening requirement (from the rummy cousins: Kalooki's "40 to open", Rummy 500 tables): a
player's first spreads of the hand must be worth at least so many points together, laid in one
turn; before that, they may not play cards onto spreads on the table.

Everything about opening is here: its schema, its refusals (a spread that could not be
completed into an opening this turn, a hit before opening, a discard that would end an opening
turn short of the points), its rules-sheet sentence and what lint says of it. The turn asks the
plan at each spread, hit and discard, and offers only what no construct refuses.

A spread is offered to a player who has not opened only where the opening can still be completed
in this turn: its points, the points laid before it this turn and the most the rest of the hand
can lay (keeping a card to discard, or going out) reach the requirement. So the turn never
reaches a spread laid that can be neither completed nor taken back.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from tonkdsl.interpreter.rules.base import Finding, Sentence, TurnRule, Words, recall, remember

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Ruleset


class Opening(TurnRule):
    key = "opening"
    named = "opening"
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "points": {"type": "integer", "minimum": 1, "maximum": 500,
                       "description": "The points a player's first spreads of the hand must be worth together, "
                                      "laid in one turn (card values, as a hand counts them)."},
            "wilds": {"enum": ["own_value", "as_card"],
                      "description": "What a wild card laid in an opening counts: its own value, as in a hand "
                                     "(own_value, the default), or the value of the card it stands for (as_card, "
                                     "as Kalooki counts a joker)."},
            "hits_before": {"type": "boolean",
                            "description": "Whether a player who has not opened may play cards onto spreads on the "
                                           "table (default: false).",
                            "x-when-true": "A player who has not opened may hit",
                            "x-when-false": "A player who has not opened may not hit"},
        },
        "required": ["points"],
        "description": "An opening requirement: a player's first spreads of the hand, laid in one turn, are worth "
                       "at least so many points; before opening, no hits.",
    }

    def __init__(self, points: int, hits_before: bool, wilds_as_card: bool = False) -> None:
        self.points = points
        self.hits_before = hits_before
        self.wilds_as_card = wilds_as_card

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "Opening":
        return cls(int(s["points"]), bool(s.get("hits_before", False)), s.get("wilds") == "as_card")

    def _points(self, st: "State", cards: Sequence[int]) -> int:
        """What a spread counts towards the opening: its cards' values, a wild card's the value of
        the card it stands for where the ruleset says so (the book's rank; the run's place)."""
        melds = st.melds
        value = melds.value
        if not self.wilds_as_card or not any(melds.wild[c] for c in cards):
            return sum(value[c] for c in cards)
        pack = st.pack
        naturals = [c for c in cards if not melds.wild[c]]
        total = 0
        for c, stands in melds.layout(cards):
            if stands is None:
                total += value[c]
            elif stands in pack.names:  # a run's place: the card it replaces
                total += value[pack.names.index(stands)]
            else:  # a book's rank
                total += next((value[n] for n in naturals if pack.ranks[n] == stands), value[c])
        return total

    # --- what a player has laid -------------------------------------------------------------
    # What a player has laid towards their opening is kept as it is laid (the construct's memory:
    # "open", or the turn and the points so far): counted again from the table, a hit could make a
    # wild card stand for a lower card and an opening made fall short.
    @staticmethod
    def _key(seat: int) -> str:
        return f"opening:{seat}"

    def _laid_this_turn(self, st: "State", seat: int) -> int:
        """The points ``seat`` has laid towards their opening this turn."""
        kept = recall(st, self._key(seat))
        return kept[1] if isinstance(kept, tuple) and kept[0] == st.turn_number else 0

    def _opened(self, st: "State", seat: int) -> bool:
        """Whether ``seat`` has opened: enough laid in one turn, or spreads laid in an earlier turn
        (a drop lays spreads without asking)."""
        stats = st.stats[seat]
        return recall(st, self._key(seat)) == "open" or stats.spreads > stats.spreads_this_turn

    def laid(self, st: "State", seat: int, cards: Sequence[int]) -> None:
        if self._opened(st, seat):
            return
        points = self._laid_this_turn(st, seat) + self._points(st, cards)
        remember(st, self._key(seat), "open" if points >= self.points else (st.turn_number, points))

    def _most_laid(self, st: "State", seat: int, cards: list[int]) -> int:
        """The most points ``cards`` (the rest of a hand) can lay in spreads this turn while the
        turn can still end: a card kept to discard (not the card taken where it may not be), or
        every card laid (going out). The spreads are those of the hand's best arrangement (the
        fewest points left over): where wild cards count as the cards they stand for, another
        arrangement may lay more, so this is a bound the opening can surely reach, never more."""
        melds = st.melds
        spreads, dead = melds.best_arrangement(cards)
        taken = st.taken_discard if st.ruleset.not_the_card_taken else None
        names = st.pack.names
        if not dead or any(taken is None or names[c] != names[taken] for c in dead):
            # Every card in spreads (the hand goes out), or a card left over to discard.
            return sum(self._points(st, sp) for sp in spreads)
        # Only the card taken is left over, and it may not be discarded: keep another instead.
        best = 0
        for keep in dict.fromkeys(c for c in cards if taken is None or names[c] != names[taken]):
            laid, _ = melds.best_arrangement([c for c in cards if c != keep])
            best = max(best, sum(self._points(st, sp) for sp in laid))
        return best

    # --- at play ----------------------------------------------------------------------------
    def refuses_spread(self, st: "State", seat: int, cards: Sequence[int]) -> str | None:
        if self._opened(st, seat):
            return None
        laid = self._laid_this_turn(st, seat) + self._points(st, cards)
        if laid >= self.points:
            return None
        rest = [c for c in st.hands[seat] if c not in cards]
        if laid + self._most_laid(st, seat, rest) >= self.points:
            return None
        return (f"you have not opened: your first spreads this hand must be worth {self.points} points together, "
                f"laid in one turn, and with this one you could lay at most {laid + self._most_laid(st, seat, rest)}")

    def refuses_hit(self, st: "State", seat: int, cards: Sequence[int] | None) -> str | None:
        if self.hits_before or self._opened(st, seat):
            return None
        return f"you have not opened: lay spreads worth {self.points} points in one turn before you hit"

    def refuses_discard(self, st: "State", seat: int, card: int | None) -> str | None:
        if st.stats[seat].spreads_this_turn == 0 or self._opened(st, seat):
            return None  # nothing laid this turn, or opened
        if st.knock_declared:
            return None  # a drop ends the turn with this discard: the hand is shown, as any drop shows it
        laid = self._laid_this_turn(st, seat)
        return (f"your opening is {laid} points so far: lay spreads worth {self.points - laid} more before you "
                "discard")

    # --- for the tools ----------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        section = cls.section(rs)
        if section is None or "spread" in never:
            return []
        rule = cls.from_section(section)
        hits = "" if rule.hits_before or "hit" in never else " Until they have opened, they may not hit."
        counted = "a wild card as the card it stands for" if rule.wilds_as_card else "cards counted as in a hand"
        return [Sentence("A turn", f"Opening: a player's first spreads of the hand must be worth at least "
                         f"{rule.points} points together ({counted}), laid in one turn; a spread "
                         f"that could not be made up to that this turn is not allowed.{hits}")]

    @staticmethod
    def _said(section: Any) -> str:
        if not isinstance(section, dict) or "points" not in section:
            return "none"
        hits = ", hits allowed before" if section.get("hits_before") else ", no hits before"
        return f"{section['points']} points in one turn{hits}"

    @classmethod
    def changed(cls, old: Any, new: Any) -> str | None:
        """Said whole where the key is added or removed (a change of one field: by that field's words)."""
        if isinstance(old, dict) and isinstance(new, dict):
            return None
        return f"Opening requirement: {cls._said(old)} -> {cls._said(new)}"

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        section = cls.section(rs)
        if section is None:
            return []
        rule = cls.from_section(section)
        here = (cls.key, "points")
        if rs.spread_allowed is not None and rs.spread_allowed.constant is False:
            return [Finding("rule-for-disabled", "warning", "an opening requirement is set, but no one may ever "
                            "lay a spread (turn.spread.allowed is false)", here, (("turn", "spread", "allowed"),))]
        # The most a hand can lay in one turn: the highest values of the pack, as many as a hand
        # holds after its draw. Short of the requirement, no one can ever open: a proof, not a guess.
        pack = rs.pack
        highest = max((v for v, w in zip(pack.values, pack.wild) if not w), default=0)
        values = [max(v, highest) if w and rule.wilds_as_card else v for v, w in zip(pack.values, pack.wild)]
        most = sum(sorted(values, reverse=True)[:rs.hand_size + 1])
        if most < rule.points:
            return [Finding("opening-unreachable", "warning", f"an opening needs {rule.points} points, but the "
                            f"{rs.hand_size + 1} highest cards of the pack are worth {most}: no one can ever open, "
                            "so no one lays a spread", here, (("deal", "hand_size"),),
                            hint=f"points: {most} or less")]
        return []
