"""Digging into the discard pile (from Rummy 500): instead of drawing, the player to move may
take a card from under the top of the discard pile, with every card above it, and must then
play the card dug for at once: their first spread or hit of the turn holds it.

Everything about digging is here: its schema, its action (``dig 7H``), when it is offered (only
where the card dug for can be played at once with the cards taken) and what it does, the
refusals that keep the card dug for first, its rules-sheet sentence, what lint says of it. The
turn asks the plan at the start of a turn and at each spread, hit and discard.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.rules.base import Finding, Sentence, TurnRule, Words, needs_draw_from, recall, remember
from tonkdsl.interpreter.table import START, TOOK, IllegalAction
from tonkdsl.language.ruleset import MAX_SEAT_CARDS

if TYPE_CHECKING:
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.expr import Compiled
    from tonkdsl.language.ruleset import Ruleset


@dataclass(frozen=True)
class Dig(A.Action):
    """Take ``card`` from under the top of the discard pile, with every card above it."""

    card: str

    def __str__(self) -> str:
        return f"dig {self.card}"


def _parse(words: list[str]) -> A.Action:
    if len(words) != 1:
        raise A.ActionSyntaxError("write 'dig' and one card of the discard pile: dig 7H")
    return Dig(A._cards(words, "dig")[0])


_KEY = "digging"  # the construct's memory: (turn, the card dug for) while it must still be played


class Digging(TurnRule):
    key = "digging"
    named = "digging|Digging|\\bDig\\b"
    kinds = (Dig,)
    verbs: ClassVar[dict[str, Callable[[list[str]], A.Action]]] = {"dig": _parse}
    usage = ("dig <card>",)
    help = (("dig 7H", "take the 7H from the discard pile with every card above it (play it at once)"),)
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "allowed": {"$ref": "#/$defs/condition",
                        "description": "When the player to move may dig (about them: actor). Default: always.",
                        "x-expr": {"type": "bool", "roles": ["actor"]}},
            "most": {"type": "integer", "minimum": 2, "maximum": 12,
                     "description": "The most cards one dig takes, the card dug for and those above it (default "
                                    "4); never so many that a hand would hold more than 13 cards."},
        },
        "description": "Digging into the discard pile: instead of drawing, take a card from under the top with "
                       "every card above it, and play that card at once (Rummy 500).",
    }

    def __init__(self, allowed: "Compiled | None", most: int = 4) -> None:
        self.allowed = allowed
        self.most = most

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "Digging":
        return cls(s.get("allowed"), int(s.get("most", 4)))

    # --- at play ---------------------------------------------------------------------------
    def at_start(self, st: "State", seat: int) -> list[A.Action]:
        pile = st.discard_pile
        if len(pile) < 2 or "discard" not in st.ruleset.draw_from:
            return []
        if self.allowed is not None and not st._eval(self.allowed, st._ctx(actor=seat)):
            return []
        names = st.pack.names
        out: list[A.Action] = []
        seen: set[str] = {names[pile[-1]]}  # the top card is taken as a draw, not dug for
        # As deep as the ruleset's most, and no deeper than a hand can hold (MAX_SEAT_CARDS).
        deepest = max(len(pile) - min(self.most, MAX_SEAT_CARDS - len(st.hands[seat])), 0)
        for at in range(len(pile) - 2, deepest - 1, -1):  # from just under the top down (a name once: the topmost)
            name = names[pile[at]]
            if name not in seen:
                seen.add(name)
                if self._playable(st, seat, at):
                    out.append(Dig(name))
        return out

    def _playable(self, st: "State", seat: int, at: int) -> bool:
        """Whether, having dug for the card at ``at``, ``seat`` can play it at once: first whether
        it makes a spread with the cards they would hold, or fits one on the table (cheap, and
        false for most cards of a pile); then, on a copy that has dug, whether a spread or hit
        holding it is legal (the ruleset's own conditions on spreads and hits)."""
        pile = st.discard_pile
        card = pile[at]
        held = [*st.hands[seat], *pile[at + 1:], card]
        melds, pack = st.melds, st.pack
        # Asked of the cards that can make the smallest spread with it: its rank, its suit within
        # a short run of its place, a few wild cards. The search over every card held grows
        # with the pile and takes seconds; this one stays small. (A spread that needs more
        # cards than the smallest is not seen here: the dig is then not offered, never wrongly.)
        rank, suit = pack.ranks[card], pack.suits[card]
        reach = max(melds.run_min, melds.wild_limits["run"][0]) - 1
        length = pack.run_length
        places = pack.run_places[card]

        def close(c: int) -> bool:
            return any(min(abs(p - q), length - abs(p - q) if pack.run_wraps else abs(p - q)) <= reach
                       for p in pack.run_places[c] for q in places)

        wild = [c for c in held if melds.wild[c]][:max(reach, melds.book_min)]
        near = [c for c in held if not melds.wild[c] and (pack.ranks[c] == rank or (pack.suits[c] == suit and close(c)))]
        if card not in near:
            near.append(card)
        if not any(card in combo for combo in melds.spreads_in(near + [w for w in wild if w != card])) and not any(
                card in combo for _, combo in st._hit_options(seat, held)):
            return False
        twin = st.clone()
        self._dig(twin, seat, at)
        name = st.pack.names[st.discard_pile[at]]
        return any(name in a.cards for a in twin.legal_actions() if isinstance(a, (A.Spread, A.Hit)))

    @staticmethod
    def _dig(st: "State", seat: int, at: int) -> None:
        pile = st.discard_pile
        card, above = pile[at], pile[at + 1:]
        del pile[at:]
        st.set_hand(seat, [*st.hands[seat], *above])
        for c in above:
            st.public_cards[seat] |= 1 << c  # everyone saw them taken
            st.record.append((seat, TOOK, c))  # each card into a hand is recorded (the view reads it)
        st._draw(seat, card, True)  # the card dug for is the draw (the card taken)
        remember(st, _KEY, (st.turn_number, card))

    def play(self, st: "State", seat: int, action: A.Action) -> None:
        assert isinstance(action, Dig)
        if st.phase != START or seat != st.current_player():
            raise IllegalAction("you may dig into the discard pile only at the start of your turn, instead of drawing")
        names = st.pack.names
        pile = st.discard_pile
        at = next((i for i in range(len(pile) - 2, -1, -1) if names[pile[i]] == action.card), None)
        if at is None:
            if pile and names[pile[-1]] == action.card:
                raise IllegalAction(f"{action.card} is the top discard: take it with 'draw discard'")
            raise IllegalAction(f"{action.card} is not in the discard pile")
        if Dig(action.card) not in self.at_start(st, seat):
            raise IllegalAction(f"you may not dig for {action.card}: you could not play it at once")
        self._dig(st, seat, at)

    def _owed(self, st: "State", seat: int) -> int | None:
        """The card ``seat`` dug for this turn and has not played yet."""
        kept = recall(st, _KEY)
        if isinstance(kept, tuple) and kept[0] == st.turn_number and seat == st.current and kept[1] in st.hands[seat]:
            return int(kept[1])
        return None

    def refuses_spread(self, st: "State", seat: int, cards: Sequence[int]) -> str | None:
        owed = self._owed(st, seat)
        return None if owed is None or owed in cards else self._first(st, owed)

    def refuses_hit(self, st: "State", seat: int, cards: Sequence[int] | None) -> str | None:
        owed = self._owed(st, seat)
        return None if owed is None or cards is None or owed in cards else self._first(st, owed)

    def refuses_discard(self, st: "State", seat: int, card: int | None) -> str | None:
        if st.knock_declared:
            return None  # a drop ends the turn with this discard: the hand is shown, as any drop shows it
        owed = self._owed(st, seat)
        return None if owed is None else self._first(st, owed)

    @staticmethod
    def _first(st: "State", card: int) -> str:
        return f"play the {st.pack.names[card]} you dug for first: in a spread, or onto one"

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Words, never: frozenset[str]) -> list[Sentence]:
        section = cls.section(rs)
        if section is None or "discard" not in rs.draw_from:
            return []
        dig = cls.from_section(section)
        when = "" if dig.allowed is None or dig.allowed.source.strip() == "true" else \
            f" (when {words(dig.allowed.source, 'you')})"
        return [Sentence("A turn", f"Digging: instead of drawing, you may take a card from under the top of the "
                         f"discard pile{when}, with every card above it ({dig.most} cards at most), if you can play "
                         "it at once; your first spread or hit of the turn must hold it.")]

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        return needs_draw_from(cls, rs, "discard", "digging takes cards from the discard pile")

    @classmethod
    def action_texts(cls, cards: Sequence[str], max_spreads: int) -> list[str]:
        return [f"dig {n}" for n in cards]
