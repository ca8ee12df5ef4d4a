"""The names an expression may use, and the context it is evaluated in.

This module is the whole surface between the expression language and the game: every name a
ruleset can write is listed here with its type and a getter. Which names exist depends on the
place in the ruleset (``dropper`` only in the drop endings, ``payer`` only in amounts, ...).
"""
from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from tonkdsl.language.expr.compiler import EvalError
from tonkdsl.language.expr.types import BOOL, CARD, NUM, PLAYER, RANK, SUIT, Names, Type, list_of

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.interpreter.engine import State


class EvalContext:
    """What an expression sees: the state, the players playing a role, the 'where' items."""

    __slots__ = ("state", "actor", "dropper", "payer", "payee", "owner", "scored", "spread", "hit", "items",
                 "declared")

    def __init__(self, state: "State", actor: int | None = None, dropper: int | None = None,
                 payer: int | None = None, payee: int | None = None, owner: int | None = None,
                 scored: int | None = None, spread: tuple[int, ...] = (), hit: tuple[int, ...] = ()) -> None:
        self.state = state
        self.actor = actor
        self.dropper = dropper
        self.payer = payer
        self.payee = payee
        self.owner = owner
        self.scored = scored
        self.spread = spread
        self.hit = hit  # the cards played onto a spread (hits.allowed reads them)
        self.items: list[Any] = []
        # The total the actor declares for their own count while a condition about them is
        # tried with each total their hand can make (see holder_chooses); None otherwise.
        self.declared: int | None = None


class _Table(dict[tuple[Any, ...], Any]):
    """A cache whose missing entries are worked out from their key (``make(*key)``): the
    player lists below depend only on a few numbers of the game, and are read at almost every
    payout and drop (the generated function looks them up in line, see Names.lookups)."""

    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: tuple[Any, ...]) -> Any:
        value = self[key] = self.make(*key)
        return value


# Players who folded (State.sitting_out, a mask) have left the hand: they are not among
# players, others or lowest, and their counts are not in min_count.
_OTHERS = _Table(lambda n, actor, out: tuple(s for s in range(n) if s != actor and not out >> s & 1))
_PLAYERS = _Table(lambda n, out: tuple(s for s in range(n) if not out >> s & 1))
_FOLDED = _Table(lambda n, out: tuple(s for s in range(n) if out >> s & 1))
# What each table's key is made of (paths read from the context, as Names.reads).
_OTHERS_KEY = (("state", "num_players"), ("actor",), ("state", "sitting_out"))
_PLAYERS_KEY = (("state", "num_players"), ("state", "sitting_out"))


def _others(c: EvalContext) -> tuple[int, ...]:
    return _OTHERS[c.state.num_players, c.actor, c.state.sitting_out]  # type: ignore[no-any-return]


def _players(c: EvalContext) -> tuple[int, ...]:
    return _PLAYERS[c.state.num_players, c.state.sitting_out]  # type: ignore[no-any-return]


def _folded(c: EvalContext) -> tuple[int, ...]:
    return _FOLDED[c.state.num_players, c.state.sitting_out]  # type: ignore[no-any-return]


def _min_count(c: EvalContext) -> int:
    counts = c.state.hand_value
    out = c.state.sitting_out
    return min(counts) if not out else min(v for s, v in enumerate(counts) if not out >> s & 1)


def _lowest(c: EvalContext) -> tuple[int, ...]:
    counts = c.state.hand_value
    low = _min_count(c)
    out = c.state.sitting_out
    return tuple(s for s, v in enumerate(counts) if v == low and not out >> s & 1)


def _partners(c: EvalContext, p: int) -> tuple[int, ...]:
    """The other players of ``p``'s side, in play order from ``p``'s left."""
    side, n = c.state.side_of, c.state.num_players
    return tuple(q for q in ((p + i) % n for i in range(1, n)) if side[q] == side[p])


def _partner(c: EvalContext, p: int) -> int:
    """``p``'s partner: the next player of their side to play after them."""
    mates = _partners(c, p)
    if not mates:
        raise EvalError(f"seat {p} has no partner (their side's other players are out of the match)")
    return mates[0]


def _opponents(c: EvalContext, p: int) -> tuple[int, ...]:
    side, out = c.state.side_of, c.state.sitting_out
    return tuple(q for q in range(c.state.num_players) if side[q] != side[p] and not out >> q & 1)


def _upcard(c: EvalContext) -> int:
    card = c.state.upcard
    if card < 0:  # the ruleset deals one wherever the name is allowed (ruleset.py): a deal made by hand
        raise EvalError("no card was turned up at this deal")
    return card


GLOBALS: dict[str, tuple[Type, Any, str]] = {
    "stake": (NUM, attrgetter("state.stake"), "the base stake of the game"),
    "players": (list_of(PLAYER), _players, "every player (but those who folded)"),
    "others": (list_of(PLAYER), _others, "every player but the one the rule is about (and those who folded)"),
    "folded": (list_of(PLAYER), _folded, "the players who folded this hand (a rule out of turn lets them fold)"),
    "lowest": (list_of(PLAYER), _lowest, "the player(s) with the lowest count"),
    "min_count": (NUM, _min_count, "the lowest count at the table (of those who did not fold)"),
    "num_players": (NUM, attrgetter("state.num_players"), "how many play"),
    "stock": (NUM, lambda c: len(c.state.stock), "cards left in the stock"),
    "discards": (NUM, lambda c: len(c.state.discard_pile), "cards in the discard pile"),
    "turn": (NUM, attrgetter("state.turn_number"), "the turn number, 1 for the first turn of the hand"),
    "round": (NUM, attrgetter("state.round_number"), "the round number, 1 while each player has their first turn"),
    "spreads_on_table": (NUM, lambda c: len(c.state.spreads), "spreads laid so far this hand"),
    "dealer": (PLAYER, attrgetter("state.dealer"), "the dealer"),
    "pot": (NUM, attrgetter("state.pot"), "the money in the pot (rulesets with a pot)"),
    "upcard": (CARD, _upcard, "the card turned up at the deal (deal.upcard), wherever it is now: "
               "upcard.rank, upcard.suit, upcard.value"),
}

ROLES: dict[str, str] = {
    "actor": "the player the rule is about (who acts, or who ended the hand)",
    "dropper": "the player who dropped (drop endings only)",
    "payer": "the player paying (payout amounts only)",
    "payee": "the player receiving (payout amounts only)",
    "owner": "the owner of the spread hit (where a spread is hit: counter events, hits.allowed, and the constructs that guard or make a hit)",
    "scored": "the player whose score changes (score entries only)",
}
# Plain attribute reads are operator.attrgetter: called from C, with no Python frame.
_ROLE_GET = {role: attrgetter(role) for role in ROLES}
def _winners(c: "EvalContext") -> tuple[int, ...]:
    out = c.state.outcome()
    return tuple(out.winners) if out is not None else ()


# Sets (of cards or players) that exist in one place only.
CARD_SETS: dict[str, tuple[Type, Any, str]] = {
    "spread": (list_of(CARD), lambda c: c.spread, "the cards of the spread in question (melds.hold.except; bonuses and counter events on spread_laid, spread_hit; "
               "a bonus on claim: the spread the player laid last this turn, as it is now; hits.allowed: the spread with the cards hit)"),
    "hit": (list_of(CARD), lambda c: c.hit, "the cards played onto the spread (hits.allowed)"),
    "winners": (list_of(PLAYER), _winners, "the winners of the hand that just ended (deal.next_dealer)"),
}

PLAYER_ATTRS: dict[str, tuple[Type, Any, str]] = {
    "count": (NUM, lambda c, p: c.state.hand_value[p], "the value of the cards in hand (where values are "
              "the holder's choice: the lowest total, or in a condition about the holder any total "
              "that makes it hold)"),
    # low_count, high_count and totals equal count unless some card's value is the holder's choice.
    "low_count": (NUM, lambda c, p: c.state.hand_value[p], "the lowest total the hand can make"),
    "high_count": (NUM, lambda c, p: c.state.pack.totals(c.state.hands[p])[-1],
                   "the highest total the hand can make"),
    "totals": (list_of(NUM), lambda c, p: c.state.pack.totals(c.state.hands[p]),
               "every total the hand can make, lowest first"),
    "deadwood_count": (NUM, lambda c, p: c.state.deadwood_count(p),
                       "the count of the cards left out of the hand's best arrangement of spreads"),
    "hand": (list_of(CARD), lambda c, p: tuple(c.state.hands[p]), "the cards in hand"),
    "cards": (NUM, lambda c, p: len(c.state.hands[p]), "how many cards are in hand"),
    "discard_fits": (BOOL, lambda c, p: c.state.discard_fits(p),
                     "the top discard would go into a spread at once, with cards in hand or onto a spread "
                     "on the table (false when the pile is empty)"),
    "seat": (NUM, lambda c, p: p, "the seat, 0 for the first listed player"),
    "side": (NUM, lambda c, p: c.state.side_of[p], "the player's side, 0 for the first seat's side "
             "(players.sides; partners share it)"),
    "partner": (PLAYER, _partner, "the player's partner: the next player of their side to play after them "
                "(players.sides)"),
    "partners": (list_of(PLAYER), _partners, "the other players of the player's side (players.sides)"),
    "opponents": (list_of(PLAYER), _opponents, "the players of the other sides, but those who folded "
                  "(players.sides)"),
    "dealt_count": (NUM, lambda c, p: c.state.stats[p].dealt_count, "the count of the hand as dealt"),
    "spreads": (NUM, lambda c, p: c.state.stats[p].spreads, "spreads laid by the player this hand"),
    "spreads_this_turn": (NUM, lambda c, p: c.state.stats[p].spreads_this_turn, "spreads laid in the current turn"),
    "hits": (NUM, lambda c, p: c.state.stats[p].hits, "cards the player added to spreads this hand"),
    "laid": (list_of(CARD), lambda c, p: c.state.laid_cards(p), "the cards the player has laid in spreads or "
             "hit onto spreads this hand (count(laid) == 0: nothing laid, a 'dark' knock)"),
    "turns": (NUM, lambda c, p: c.state.stats[p].turns, "turns the player has started this hand"),
    "out_by_spread": (BOOL, lambda c, p: c.state.stats[p].out_by_spread, "the hand was emptied by laying a new spread"),
    "is_dealer": (BOOL, lambda c, p: p == c.state.dealer, "the player dealt this hand"),
    "deal_win": (BOOL, lambda c, p: p in c.state.deal_winners, "the player holds an automatic win on the deal"),
    "hands_won": (NUM, lambda c, p: c.state.hands_won[p], "the hands this player has won so far in the session "
                  "(the match), this one counted once it is over"),
    "total": (NUM, lambda c, p: c.state.totals[p],
              "the player's total in the session so far: the score sheet, or money where there is none"),
    "payout": (NUM, lambda c, p: c.state.outcome().payouts[p] if c.state.outcome() is not None else 0,
               "the player's net gain in money this hand (0 until the hand ends)"),
}


# The names that read sides: a ruleset whose players play alone may not write them (ruleset.py).
SIDE_NAMES = frozenset({"side", "partner", "partners", "opponents"})


# The getters above that only read attributes (see Names.reads), and what they read: the
# generated function of an expression reads them in line (language/expr/codegen.py).
_READS: dict[Any, tuple[str, ...]] = {
    GLOBALS["stake"][1]: ("state", "stake"),
    GLOBALS["num_players"][1]: ("state", "num_players"),
    GLOBALS["turn"][1]: ("state", "turn_number"),
    GLOBALS["round"][1]: ("state", "round_number"),
    GLOBALS["dealer"][1]: ("state", "dealer"),
    GLOBALS["pot"][1]: ("state", "pot"),
    **{_ROLE_GET[role]: (role,) for role in ROLES},
    PLAYER_ATTRS["count"][1]: ("state", "hand_value"),
    PLAYER_ATTRS["low_count"][1]: ("state", "hand_value"),
    PLAYER_ATTRS["side"][1]: ("state", "side_of"),
    PLAYER_ATTRS["total"][1]: ("state", "totals"),
}
# The getters above that look a table up by a key of reads (see Names.lookups).
_LOOKUPS: dict[Any, tuple[Any, tuple[tuple[str, ...], ...]]] = {
    _others: (_OTHERS, _OTHERS_KEY),
    _players: (_PLAYERS, _PLAYERS_KEY),
    _folded: (_FOLDED, _PLAYERS_KEY),
}


def _declared_count(c: EvalContext, p: int) -> int:
    """``count`` where values may be chosen: the total the actor is trying, else the lowest."""
    declared = c.declared
    if declared is not None and p == c.actor:
        return declared
    return int(c.state.hand_value[p])


def holder_chooses(fn: Any) -> Any:
    """A condition about the actor, where card values may be chosen: it holds when some total
    of the actor's hand makes it hold (the holder declares the count that suits them)."""
    def chosen(ctx: EvalContext) -> Any:
        state = ctx.state
        actor = ctx.actor
        if actor is None:
            return fn(ctx)
        totals = state.pack.totals(state.hands[actor])
        if len(totals) == 1:
            return fn(ctx)
        try:
            for total in totals:
                ctx.declared = total
                if fn(ctx):
                    return True
            return False
        finally:
            ctx.declared = None
    return chosen


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


_CARDS = list_of(CARD)


def _by(attr: str) -> Any:
    """The most cards of ``cards`` sharing one rank (or suit); jokers share none."""
    def most(c: EvalContext, cards: tuple[int, ...]) -> int:
        table = getattr(c.state.pack, attr)
        tally: dict[Any, int] = {}
        for x in cards:
            if c.state.pack.suits[x] is not None:
                tally[table[x]] = tally.get(table[x], 0) + 1
        return max(tally.values(), default=0)
    return most


# The most cards one call of a searching meld function (largest_book, longest_run, deadwood)
# takes: the search for the best arrangement grows about fourfold with every two cards (16 cards
# about 0.2 s, 24 cards 40 s). A hand holds at most MAX_SEAT_CARDS (13) plus the cards drawn in
# a turn; a longer list written in the file is refused when it loads, any other when it is met.
MAX_MELD_CARDS = 16


def _searched(name: str, search: Any) -> Any:
    def bounded(c: EvalContext, cards: tuple[int, ...]) -> Any:
        if len(cards) > MAX_MELD_CARDS:
            raise EvalError(f"{name}() was given {len(cards)} cards; it takes at most {MAX_MELD_CARDS} "
                            "(MAX_MELD_CARDS)")
        return search(c, cards)
    bounded.max_items = MAX_MELD_CARDS  # type: ignore[attr-defined]  # read by the compiler for literal lists
    return bounded


FUNCTIONS: dict[str, tuple[Type, Type, Any, str]] = {
    "nearest_left": (list_of(PLAYER), list_of(PLAYER), _nearest_left,
                     "the one player of a set nearest to the dealer's left (empty if the set is)"),
    "is_book": (_CARDS, BOOL, lambda c, cards: c.state.melds.is_book(cards),
                "whether the cards make one book under the ruleset's meld rules"),
    "is_run": (_CARDS, BOOL, lambda c, cards: c.state.melds.is_run(cards),
               "whether the cards make one run under the ruleset's meld rules"),
    "largest_book": (_CARDS, NUM, _searched("largest_book", lambda c, cards: c.state.melds.largest(cards, "book")),
                     "the size of the largest book the cards can form (0 if none)"),
    "longest_run": (_CARDS, NUM, _searched("longest_run", lambda c, cards: c.state.melds.largest(cards, "run")),
                    "the length of the longest run the cards can form (0 if none)"),
    "deadwood": (_CARDS, _CARDS, _searched("deadwood", lambda c, cards: c.state.melds.deadwood(cards)),
                 "the cards left out of the best arrangement of spreads (the one that leaves the "
                 "lowest count); sum(deadwood(hand)) is their count"),
    "max_same_rank": (_CARDS, NUM, _by("ranks"), "the most cards that share one rank"),
    "max_same_suit": (_CARDS, NUM, _by("suits"), "the most cards that share one suit"),
}


def _counter_getter(name: str) -> Any:
    return lambda c, p: c.state.counters[name][p]


def _side_pot_getter(i: int) -> Any:
    return lambda c: c.state.side_pots[i]


def make_names(roles: Iterable[str], counters: Iterable[str], *, subject: bool | str,
               card_sets: Iterable[str] = (), choices: bool = False, pots: Sequence[str] = ()) -> Names:
    """The names of one place: the global names, the listed roles, and when ``subject`` the
    attributes of the actor (or of the role named by ``subject``) written bare: ``count`` for
    ``actor.count``. ``choices``: some card's value is the holder's choice, and ``count``
    reads the total the actor declares (see :func:`holder_chooses`)."""
    roles = list(roles)
    globals_: dict[str, tuple[Type, Any]] = {k: (t, g) for k, (t, g, _) in GLOBALS.items()}
    for role in roles:
        globals_[role] = (PLAYER, _ROLE_GET[role])
    for name in card_sets:
        globals_[name] = (CARD_SETS[name][0], CARD_SETS[name][1])
    if "actor" in roles:
        globals_["self"] = (PLAYER, _ROLE_GET["actor"])
    globals_["$card"] = (CARD, lambda c: c.state.card_id)
    for i, name in enumerate(pots):  # the money in each side pot (ruleset.side_pots), by its name
        globals_[name] = (NUM, _side_pot_getter(i))
    player_attrs: dict[str, tuple[Type, Any]] = {k: (t, g) for k, (t, g, _) in PLAYER_ATTRS.items()}
    if choices:
        player_attrs["count"] = (NUM, _declared_count)
    for name in counters:
        player_attrs[name] = (NUM, _counter_getter(name))
    names = Names(
        globals=globals_,
        attrs={PLAYER: player_attrs, CARD: {k: (t, g) for k, (t, g, _) in CARD_ATTRS.items()}},
        subject=(PLAYER, _ROLE_GET["actor" if subject is True else str(subject)]) if subject else None,
        elsewhere={**{r: f"'{r}' is {why}" for r, why in ROLES.items() if r not in roles},
                   **{k: f"'{k}' is {why}" for k, (_, _, why) in CARD_SETS.items() if k not in card_sets}},
        functions={k: (a, r, f) for k, (a, r, f, _) in FUNCTIONS.items()},
        reads=_READS,
        lookups=_LOOKUPS,
    )
    return names
