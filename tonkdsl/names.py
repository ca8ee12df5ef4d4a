"""The names an expression may use, and the context it is evaluated in.

This module is the whole surface between the expression language and the game: every name a
ruleset can write is listed here with its type and a getter. Which names exist depends on the
place in the ruleset (``dropper`` only in the drop endings, ``payer`` only in amounts, ...).
"""
from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Iterable

from tonkdsl.expr.types import BOOL, CARD, NUM, PLAYER, RANK, SUIT, Names, Type, list_of

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.engine import State


class EvalContext:
    """What an expression sees: the state, the players playing a role, the 'where' items."""

    __slots__ = ("state", "actor", "dropper", "payer", "payee", "owner", "scored", "spread", "items")

    def __init__(self, state: "State", actor: int | None = None, dropper: int | None = None,
                 payer: int | None = None, payee: int | None = None, owner: int | None = None,
                 scored: int | None = None, spread: tuple[int, ...] = ()) -> None:
        self.state = state
        self.actor = actor
        self.dropper = dropper
        self.payer = payer
        self.payee = payee
        self.owner = owner
        self.scored = scored
        self.spread = spread
        self.items: list[Any] = []


_OTHERS: dict[tuple[int, int | None], tuple[int, ...]] = {}  # (players, actor) -> the others


def _others(c: EvalContext) -> tuple[int, ...]:
    key = (c.state.num_players, c.actor)
    got = _OTHERS.get(key)
    if got is None:
        got = _OTHERS[key] = tuple(s for s in range(key[0]) if s != key[1])
    return got


def _lowest(c: EvalContext) -> tuple[int, ...]:
    counts = c.state.hand_value
    low = min(counts)
    return tuple(s for s, v in enumerate(counts) if v == low)


GLOBALS: dict[str, tuple[Type, Any, str]] = {
    "stake": (NUM, attrgetter("state.stake"), "the base stake of the game"),
    "players": (list_of(PLAYER), lambda c: tuple(range(c.state.num_players)), "every player"),
    "others": (list_of(PLAYER), _others, "every player but the one the rule is about"),
    "lowest": (list_of(PLAYER), _lowest, "the player(s) with the lowest count"),
    "min_count": (NUM, lambda c: min(c.state.hand_value), "the lowest count at the table"),
    "num_players": (NUM, attrgetter("state.num_players"), "how many play"),
    "stock": (NUM, lambda c: len(c.state.stock), "cards left in the stock"),
    "discards": (NUM, lambda c: len(c.state.discard_pile), "cards in the discard pile"),
    "turn": (NUM, attrgetter("state.turn_number"), "the turn number, 1 for the first turn of the hand"),
    "round": (NUM, attrgetter("state.round_number"), "the round number, 1 while each player has their first turn"),
    "spreads_on_table": (NUM, lambda c: len(c.state.spreads), "spreads laid so far this hand"),
    "dealer": (PLAYER, attrgetter("state.dealer"), "the dealer"),
}

ROLES: dict[str, str] = {
    "actor": "the player the rule is about (who acts, or who ended the hand)",
    "dropper": "the player who dropped (drop endings only)",
    "payer": "the player paying (payout amounts only)",
    "payee": "the player receiving (payout amounts only)",
    "owner": "the owner of the spread hit (counter events and slapping only)",
    "scored": "the player whose score changes (score entries only)",
}
# Plain attribute reads are operator.attrgetter: called from C, with no Python frame.
_ROLE_GET = {role: attrgetter(role) for role in ROLES}
# Card sets that exist in one place only.
CARD_SETS: dict[str, tuple[Any, str]] = {
    "spread": (lambda c: c.spread, "the cards of the spread in question (melds.hold.except)"),
}

PLAYER_ATTRS: dict[str, tuple[Type, Any, str]] = {
    "count": (NUM, lambda c, p: c.state.hand_value[p], "the value of the cards in hand"),
    "hand": (list_of(CARD), lambda c, p: tuple(c.state.hands[p]), "the cards in hand"),
    "cards": (NUM, lambda c, p: len(c.state.hands[p]), "how many cards are in hand"),
    "seat": (NUM, lambda c, p: p, "the seat, 0 for the first listed player"),
    "dealt_count": (NUM, lambda c, p: c.state.stats[p].dealt_count, "the count of the hand as dealt"),
    "spreads": (NUM, lambda c, p: c.state.stats[p].spreads, "spreads laid by the player this hand"),
    "spreads_this_turn": (NUM, lambda c, p: c.state.stats[p].spreads_this_turn, "spreads laid in the current turn"),
    "hits": (NUM, lambda c, p: c.state.stats[p].hits, "cards the player added to spreads this hand"),
    "turns": (NUM, lambda c, p: c.state.stats[p].turns, "turns the player has started this hand"),
    "out_by_spread": (BOOL, lambda c, p: c.state.stats[p].out_by_spread, "the hand was emptied by laying a new spread"),
    "is_dealer": (BOOL, lambda c, p: p == c.state.dealer, "the player dealt this hand"),
    "deal_win": (BOOL, lambda c, p: p in c.state.deal_winners, "the player holds an automatic win on the deal"),
}

CARD_ATTRS: dict[str, tuple[Type, Any, str]] = {
    "rank": (RANK, lambda c, x: c.state.pack.ranks[x], "the rank (A, 2-10, J, Q, K, JK)"),
    "suit": (SUIT, lambda c, x: c.state.pack.suits[x], "the suit (C, D, H, S)"),
    "value": (NUM, lambda c, x: c.state.pack.values[x], "what the card counts"),
    "is_wild": (BOOL, lambda c, x: c.state.pack.wild[x], "the card is wild"),
    "is_joker": (BOOL, lambda c, x: c.state.pack.suits[x] is None, "the card is a joker"),
}


def _nearest_left(c: EvalContext, seats: tuple[int, ...]) -> tuple[int, ...]:
    """The member of ``seats`` first in play order from the dealer's left (empty stays empty)."""
    n = c.state.num_players
    order = sorted(seats, key=lambda s: (s - c.state.dealer - 1) % n)
    return tuple(order[:1])


FUNCTIONS: dict[str, tuple[Type, Type, Any, str]] = {
    "nearest_left": (list_of(PLAYER), list_of(PLAYER), _nearest_left,
                     "the one player of a set nearest to the dealer's left (empty if the set is)"),
}


def _counter_getter(name: str) -> Any:
    return lambda c, p: c.state.counters[name][p]


def make_names(roles: Iterable[str], counters: Iterable[str], *, subject: bool | str,
               card_sets: Iterable[str] = ()) -> Names:
    """The names of one place: the global names, the listed roles, and when ``subject`` the
    attributes of the actor (or of the role named by ``subject``) written bare: ``count`` for
    ``actor.count``."""
    roles = list(roles)
    globals_: dict[str, tuple[Type, Any]] = {k: (t, g) for k, (t, g, _) in GLOBALS.items()}
    for role in roles:
        globals_[role] = (PLAYER, _ROLE_GET[role])
    for name in card_sets:
        globals_[name] = (list_of(CARD), CARD_SETS[name][0])
    if "actor" in roles:
        globals_["self"] = (PLAYER, _ROLE_GET["actor"])
    globals_["$card"] = (CARD, lambda c: c.state.card_id)
    player_attrs: dict[str, tuple[Type, Any]] = {k: (t, g) for k, (t, g, _) in PLAYER_ATTRS.items()}
    for name in counters:
        player_attrs[name] = (NUM, _counter_getter(name))
    names = Names(
        globals=globals_,
        attrs={PLAYER: player_attrs, CARD: {k: (t, g) for k, (t, g, _) in CARD_ATTRS.items()}},
        subject=(PLAYER, _ROLE_GET["actor" if subject is True else str(subject)]) if subject else None,
        elsewhere={**{r: f"'{r}' is {why}" for r, why in ROLES.items() if r not in roles},
                   **{k: f"'{k}' is {why}" for k, (_, why) in CARD_SETS.items() if k not in card_sets}},
        functions={k: (a, r, f) for k, (a, r, f, _) in FUNCTIONS.items()},
    )
    return names
