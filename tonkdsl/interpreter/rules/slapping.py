"""Slapping: a discard that could extend a spread on the table may be played there,
out of turn, until the next player draws; the slapper then owes an extra discard.

Everything about slapping is here: its schema, its actions, when they are offered and what they
do, its rules-sheet sentence and what lint says of it. The turn (turn.py) only asks the plan.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.rules.base import (HITS_ANY_SPREAD, HITS_SPREADS, PLAYS_OUT_OF_TURN, Finding, OnTheDiscard,
                                            Sentence, open_discard)
from tonkdsl.interpreter.table import EXTRA, IllegalAction

if TYPE_CHECKING:
    from tonkdsl.interpreter.board import TableSpread
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.expr import Compiled
    from tonkdsl.language.ruleset import Ruleset


@dataclass(frozen=True)
class Slap(A.Action):
    """Play the last discard onto a spread out of turn."""

    card: str
    target: int  # 1-based spread number

    def __str__(self) -> str:
        return f"slap {self.card} on {self.target}"


def _parse(words: list[str]) -> A.Action:
    cards, n = A.parse_target(words, "slap")
    if len(cards) != 1:
        raise A.ActionSyntaxError("a slap plays exactly one card")
    return Slap(cards[0], n)


class Slapping(OnTheDiscard):
    key = "slapping"
    named = "slap"
    kinds = (Slap,)
    verbs: ClassVar[dict[str, Callable[[list[str]], A.Action]]] = {"slap": _parse}
    usage = ("slap <card> on <n>",)
    help = (("slap 8S on 1", "slap the discard onto spread 1"),)
    facts = frozenset({HITS_SPREADS, PLAYS_OUT_OF_TURN, HITS_ANY_SPREAD})
    schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "x-construct": True,
        "additionalProperties": False,
        "properties": {
            "allowed": {"$ref": "#/$defs/condition", "description": "When a discard may be slapped onto a spread.",
                        "x-expr": {"type": "bool", "roles": ["actor", "owner"]}},
            "priority": {"enum": ["first", "next_player"],
                         "description": "Who may slap first: any player (first) or only the player about to draw "
                                        "(next_player)."},
            "extra_discard": {"type": "boolean", "description": "Whether a slapper other than the discarder then "
                                                                "discards an extra card (default: true)."},
            "own_card_extra_discard": {"type": "boolean", "description": "Whether the discarder who slaps his own "
                                                                         "card discards again (default: false)."},
        },
        "required": ["allowed", "priority"],
        "description": "Out-of-turn plays of a discard onto a spread.",
    }

    def __init__(self, allowed: "Compiled", priority: str, extra_discard: bool, own_card_extra_discard: bool) -> None:
        self.allowed = allowed
        self.next_player_only = priority == "next_player"  # else the first player to slap
        self.extra_discard = extra_discard
        self.own_card_extra_discard = own_card_extra_discard

    @classmethod
    def from_section(cls, s: dict[str, Any]) -> "Slapping":
        return cls(s["allowed"], s["priority"], bool(s.get("extra_discard", True)),
                   bool(s.get("own_card_extra_discard", False)))

    # --- at play ---------------------------------------------------------------------------
    def options(self, st: "State", seat: int) -> list[A.Action]:
        opened = open_discard(st)
        if opened is None:
            return []
        if self.next_player_only and seat != st.current:
            return []
        name = st.pack.names[opened.card]
        return [Slap(name, i + 1) for i, sp in enumerate(st.spreads) if self._fits(st, seat, opened.card, sp)]

    def _fits(self, st: "State", seat: int, card: int, sp: "TableSpread") -> bool:
        if not st._may_hit(seat, sp, (card,)):
            return False
        check = st.melds.is_book if sp.kind == "book" else st.melds.is_run
        if not check(sp.cards + [card]):
            return False
        return bool(st._eval(self.allowed, st._ctx(actor=seat, owner=sp.owner)))

    def play(self, st: "State", seat: int, action: A.Action) -> None:
        assert isinstance(action, Slap)
        opened = open_discard(st)
        if opened is None:
            raise IllegalAction("there is no discard to slap now")
        card = opened.card
        if st.pack.names[card] != action.card:
            raise IllegalAction(f"only the last discard ({st.pack.names[card]}) may be slapped")
        if self.next_player_only and seat != st.current:
            raise IllegalAction("only the next player may slap in this ruleset")
        if action.target > len(st.spreads):
            raise IllegalAction(f"there is no spread {action.target} (spreads on the table: {len(st.spreads)})")
        sp = st.spreads[action.target - 1]
        if not self._fits(st, seat, card, sp):
            raise IllegalAction(f"{action.card} cannot be slapped onto spread {action.target}")
        st.discard_pile.pop()
        st.pending = None
        sp.cards, sp.fits = sorted(sp.cards + [card], key=st.melds.table_order.__getitem__), None
        st.stats[seat].hits += 1
        st._event("spread_hit", seat, owner=sp.owner, spread=tuple(sp.cards))
        extra = self.own_card_extra_discard if seat == opened.discarder else self.extra_discard
        if extra and st.hands[seat]:
            st.out_of_turn_seat = seat  # the slapper owes an extra discard before the next player acts
            st.phase = EXTRA

    # --- for the tools ---------------------------------------------------------------------
    @classmethod
    def sheet(cls, rs: "Ruleset", words: Callable[..., str], never: frozenset[str]) -> list[Sentence]:
        section = cls.section(rs)
        if section is None:
            return []
        slap = cls.from_section(section)
        who = "only the next player in turn" if slap.next_player_only else "the first player to slap"
        extra = "then discards an extra card" if slap.extra_discard else "gets no extra turn"
        return [Sentence("Hitting", f"Slapping: when a discard could extend a spread, {who} may play it there"
                         + ("" if slap.allowed.source.strip() == "true" else f" (when {words(slap.allowed.source)})")
                         + f", and {extra}" + ("" if slap.own_card_extra_discard else "; the discarder who slaps their "
                                                                                     "own card gets no extra discard")
                         + ". The card is dead once the next player draws.")]

    @classmethod
    def lint(cls, rs: "Ruleset", facts: frozenset[str]) -> list[Finding]:
        if cls.section(rs) is not None and not rs.hit_books and not rs.hit_runs:
            return [Finding("rule-for-disabled", "warning", "slapping plays a discard onto a spread, but spreads "
                            "cannot be hit", (cls.key,), (("hits",),))]
        return []

    @classmethod
    def action_texts(cls, cards: Sequence[str], max_spreads: int) -> list[str]:
        return [f"slap {n} on {t}" for n in cards for t in range(1, max_spreads + 1)]
