"""Books and runs: checking a set of cards, and listing the spreads and hits a hand allows.

Works on card ids with the pack's tables; wild cards, a pack's own run order and runs that
turn the corner are handled generically.
"""
from __future__ import annotations

from functools import reduce
from itertools import combinations, product
from operator import or_

from tonkdsl.interpreter.actions import Discard, Hit, Spread
from tonkdsl.interpreter.asking import eating
from tonkdsl.interpreter.rules import Plan, plan_for
from tonkdsl.interpreter.rules.base import Guard
from tonkdsl.language.expr.compiler import NOT_CONSTANT
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.language.cards import Pack
    from tonkdsl.language.ruleset import Ruleset

BOOK, RUN = "book", "run"
# For MeldRules._grow: natural cards that differ in rank (or in suit), and the suit of a card
# that has none (a joker that is not wild), which no card with a suit shares.
_MIXED, _NO_SUIT = "\0mixed", "\0none"


def table_for(rs: "Ruleset", num_players: int) -> "tuple[Pack, MeldRules]":
    """The pack and meld rules of ``num_players`` players, built once and kept with the ruleset
    (one lookup per dealt hand)."""
    got: "tuple[Pack, MeldRules] | None" = rs.tables.get(num_players)
    if got is None:
        pack = rs.pack_for(num_players)
        got = rs.tables[num_players] = (pack, _for_pack(rs, pack))
    return got


def meld_rules(rs: "Ruleset") -> "MeldRules":
    """The spread and hit rules over the ruleset's own pack (its fewest players' pack)."""
    return _for_pack(rs, rs.pack)


def _for_pack(rs: "Ruleset", pack: "Pack") -> "MeldRules":
    melds: "MeldRules | None" = rs.tables.get(("decks", pack.decks))
    if melds is None:
        melds = rs.tables[("decks", pack.decks)] = MeldRules(rs, None if pack is rs.pack else pack)
    return melds


# Spread and hit actions kept per ruleset, at most (memory stays bounded with wild cards and
# two decks, where the possible spreads are many).
_MAX_KEPT_ACTIONS = 20_000
_ARRANGEMENTS_KEPT = 50_000  # hands whose deadwood MeldRules remembers (a few MB at most)
# The names of the expression language whose value is the player's own hand and nothing else.
_HAND_NAMES = frozenset({"count", "deadwood_count", "hand", "cards"})


class MeldRules:
    """The meld settings of a ruleset with fast membership tables."""

    # Fixed attributes (read at every decision): a dict of more than 30 keys is not shared
    # between instances in CPython, and reads from it are slower.
    __slots__ = (
        "pack", "book_min", "book_max", "run_min", "run_max", "wild", "meldable", "min_size",
        "discard_actions", "unique_names", "ids_by_name", "only_id", "has_claims", "draws_stock",
        "draws_discard", "events_listened", "rank_id", "suit_id", "n_ranks", "n_suits", "run_bit",
        "natural", "_wraps", "_shifts", "_ids_in_run_order", "rank_unit", "_book_add", "_lane_top", "_same_rank",
        "_same_suit", "table_order", "card_bit", "all_cards", "value", "_run_at", "_rank_at",
        "card_sig", "_run_region", "indexable", "_accepts", "_near", "start_kinds", "drop_varies",
        "spread_actions", "hit_actions", "simple_runs", "copies", "book_identical", "wild_limits",
        "play_drop", "one_copy", "discard_flow", "on_discarded", "on_turn_start",
        "asks_after_deal", "asks_at_start", "asks_after_draw", "asks_after_discard", "turn_start_hooks",
        "claims_in_play", "play_extras", "_arrangements", "_dead_counts", "drop_reads_hand", "drop_reads_deadwood", "hand_drops", "guards",
        "spread_checked", "free_discard_draw", "play_conditions", "hit_reads_cards", "naturals_bind", "plan",
        "windows", "hits_checked", "discards_checked", "starts_extra", "draws_last")

    def __init__(self, rs: "Ruleset", pack: "Pack | None" = None) -> None:
        pack = rs.pack if pack is None else pack
        self.pack = pack
        self.book_min, self.book_max = rs.book_min, rs.book_max
        self.book_identical = rs.book_identical  # a book may hold identical cards (several decks)
        # (min_natural, max_wild) of each kind of spread (melds.min_natural, melds.book.max_wild, ...)
        self.wild_limits = {kind: (lim.min_natural, lim.max_wild) for kind, lim in rs.wild_limits.items()}
        self.run_min = rs.run_min
        self.run_max = rs.run_max if rs.run_max is not None else pack.run_length
        self.wild = tuple(pack.wild[c] and rs.wild_in_melds for c in range(len(pack)))
        # A card that is neither wild nor part of the run order (a joker) never melds, unless
        # jokers are allowed in melds, where it acts as a wild card.
        self.meldable = tuple(
            self.wild[c] or pack.suits[c] is not None or rs.jokers_in_melds for c in range(len(pack))
        )
        if rs.jokers_in_melds:
            self.wild = tuple(w or pack.suits[c] is None for c, w in enumerate(self.wild))
        self.min_size = min(self.book_min, self.run_min)
        # Built once per ruleset for the engine's fast paths.
        by_name: dict[str, Discard] = {}
        self.discard_actions = tuple(by_name.setdefault(n, Discard(n)) for n in pack.names)
        self.unique_names = len(by_name) == len(pack.names)
        ids: dict[str, list[int]] = {}
        for c, n in enumerate(pack.names):
            ids.setdefault(n, []).append(c)
        self.ids_by_name = {n: tuple(v) for n, v in ids.items()}
        self.only_id = {n: v[0] for n, v in ids.items() if len(v) == 1}  # names one card has
        self.has_claims = any(w.claim is not None for w in rs.deal_wins)
        # The ruleset's constructs by the steps they act at (tonkdsl/interpreter/rules/): empty
        # for most rulesets, so that each of the turn's hooks is one test of an empty tuple.
        self.plan: Plan = plan_for(rs)
        # A turn whose draw comes last (a construct's: TurnRule.owes_draw) offers no draw at its
        # start: the player plays and discards, then draws from the stock (TurnRules._do_last_draw).
        self.draws_last = bool(self.plan.drawing_last)
        self.draws_stock = "stock" in rs.draw_from
        self.draws_discard = "discard" in rs.draw_from and not self.draws_last
        # The constructs' guards by (step, action): the conditions on the player to move's own
        # actions beyond the keys' own (rules/in_turn.py). Empty for most rulesets: each check is
        # one dict lookup.
        guards: dict[tuple[str, str], list[Guard]] = {}
        for rule in self.plan.rules:
            for g in rule.guards():
                for at in sorted(g.at):
                    guards.setdefault((at, g.do), []).append(g)
        self.guards = {key: tuple(ws) for key, ws in guards.items()}
        # Taking the discard into a hand that keeps other cards needs no check unless the card
        # must be played at once, or a rule of turn.in_turn guards it (TurnRules._start_options).
        self.free_discard_draw = len(by_name) == len(pack.names) and ("turn_start", "draw_discard") not in self.guards
        # Whether a spread needs its condition asked (turn.spread.allowed, or a rule of turn.in_turn).
        self.spread_checked = (rs.spread_allowed is not None or ("after_draw", "spread") in self.guards
                               or bool(self.plan.spread_refusers))
        # Whether a spread or a hit may depend on the state (a condition reads it): then whether a
        # card taken can be played at once is asked of a twin holding it (TurnRules._fits_at_once).
        # Whether a construct may refuse a hit, or the discard that ends a turn (an opening
        # requirement): flags, read where every turn offers them.
        self.hits_checked = bool(self.plan.hit_refusers)
        self.discards_checked = bool(self.plan.discard_refusers)
        self.starts_extra = bool(self.plan.starting)  # a construct's other way to begin a turn
        self.play_conditions = (self.spread_checked or bool(self.guards) or rs.hit_allowed is not None
                                or bool(self.plan.hit_refusers))
        # hits.allowed reads the cards of a hit (the spread as it leaves it, the cards hit): it
        # is asked of each hit, not of each spread.
        self.hit_reads_cards = rs.hit_allowed is not None and bool(rs.hit_allowed.names_used & {"spread", "hit"})
        # The start-of-turn actions (bits: 1 drop, 2 claim, 4 draw stock, 8 draw discard) that
        # are legal at every start of a turn; a drop rule that is not a constant is evaluated.
        drop = rs.drop_allowed.constant
        at_start = "start" in rs.drop_at
        # A drop allowed always is still refused while the hand closes after a drop (its last
        # round): then it varies.
        always = drop is True and not self.plan.closing and ("turn_start", "drop") not in self.guards
        self.start_kinds = (1 if always and at_start else 0) | (4 if self.draws_stock and not self.draws_last else 0)
        self.drop_varies = at_start and not always and drop is not False
        # A drop (knock) may be made after drawing, before the discard or instead of it.
        self.play_drop = "before_discard" in rs.drop_at or "instead_of_discard" in rs.drop_at
        # The moments at which players may be asked out of turn (Ruleset.windows), as flags.
        # Eating's window (turn.eat) and the constructs' (turn.out_of_turn, ...): asking.open_at reads them.
        self.windows = ((eating(rs.eat_allowed),) if rs.eat_allowed is not None else ()) + self.plan.windows
        asked = {at for w in self.windows for at in w.at}
        self.asks_after_deal = "after_deal" in asked
        self.asks_at_start = "turn_start" in asked
        self.asks_after_draw = "after_draw" in asked
        self.asks_after_discard = "after_discard" in asked
        # Something may follow a discard other than the next turn: a drop it completes, eating.
        self.discard_flow = self.play_drop or self.asks_after_discard
        self.events_listened = frozenset([ev.on for c in rs.counters for ev in c.events] + [b.on for b in rs.bonuses])
        # The two events of every turn, as flags: a flag read is cheaper than a set lookup, and
        # most rulesets listen to neither.
        self.on_discarded = "discarded" in self.events_listened
        self.on_turn_start = "turn_start" in self.events_listened
        # Bonuses paid only when claimed (on: claim): 'claim' may join the plays after the draw.
        self.claims_in_play = "claim" in self.events_listened
        # Something may join the plays after the draw (a drop, a claim): one flag for the hot path.
        self.play_extras = self.play_drop or self.claims_in_play or bool(self.plan.in_play)
        self._arrangements: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._dead_counts: dict[int, int] = {}  # deadwood_count's memory, by the mask of the cards
        # A drop condition that reads nothing but the player's own hand (deadwood_count <= 5)
        # gives the same answer for the same hand and card taken: TurnFlow remembers it here
        # (a constant needs no memory).
        self.drop_reads_hand = rs.drop_allowed.constant is NOT_CONSTANT and rs.drop_allowed.names_used <= _HAND_NAMES
        self.hand_drops: dict[tuple[tuple[int, ...], int | None], bool] = {}
        # The drop condition reads the deadwood: the counts of a hand less each card are searched
        # together where each discard is tried (remember_deadwood_without).
        self.drop_reads_deadwood = "deadwood_count" in rs.drop_allowed.names_used
        self.turn_start_hooks = self.on_turn_start or self.asks_at_start  # one flag read per turn
        # Small ints for ranks and suits, so that a hand can be grouped without hashing strings.
        rank_ids = {r: i for i, r in enumerate(dict.fromkeys(pack.ranks))}
        suit_ids = {s: i for i, s in enumerate(dict.fromkeys(pack.suits))}
        self.rank_id = tuple(rank_ids[r] for r in pack.ranks)
        self.suit_id = tuple(suit_ids[s] for s in pack.suits)
        self.n_ranks, self.n_suits = len(rank_ids), len(suit_ids)
        # One bit per (suit, place in the run order), each suit in its own lane with a spare
        # bit between lanes: a hand's bits ANDed with themselves shifted by 1..run_min-1 are
        # non-zero only if it holds run_min consecutive places of one suit.
        lane = pack.run_length + 1
        self.run_bit = tuple(1 << (self.suit_id[c] * lane + pack.run_index[c])
                             if pack.run_index[c] >= 0 and pack.suits[c] is not None else 0
                             for c in range(len(pack)))
        # Every card has at most one place in the run order (an ace high or low has two).
        self.simple_runs = all(len(p) <= 1 for p in pack.run_places)
        # Natural: the bit tests and windows of the fast paths hold (no wild card, every card
        # melds, one place per card).
        # A limit on natural cards that a spread of the kind's least size can miss (min_natural
        # 4 with books of 3) binds even without wild cards: then the general checks, which read
        # the limits, are the only ones (the fast paths below know nothing of them).
        self.naturals_bind = self.wild_limits[BOOK][0] > self.book_min or self.wild_limits[RUN][0] > self.run_min
        self.natural = not any(self.wild) and all(self.meldable) and self.simple_runs and not self.naturals_bind
        self._wraps = pack.run_wraps
        self._shifts = tuple(range(1, self.run_min))
        # Card ids increase with the place in the run order within each suit, and every card
        # has a place (_spreads_natural then needs no sorting).
        last_place: dict[str | None, int] = {}
        self._ids_in_run_order = True
        for c in range(len(pack)):
            place = pack.run_index[c]
            if place <= last_place.get(pack.suits[c], -1):
                self._ids_in_run_order = False
                break
            last_place[pack.suits[c]] = place
        # Ranks counted in 5-bit lanes (a hand holds at most 15 of a rank): adding
        # 16 - book_min to every lane carries into the lane's top bit where a book is possible.
        self.rank_unit = tuple(1 << (5 * self.rank_id[c]) for c in range(len(pack)))
        self._book_add = sum((16 - self.book_min) << (5 * r) for r in range(self.n_ranks))
        self._lane_top = sum(16 << (5 * r) for r in range(self.n_ranks))
        # Cards that may join a book (same rank) or a run (same suit), wild cards included.
        self._same_rank = tuple(tuple(d for d in range(len(pack)) if self.meldable[d] and
                                      (self.wild[d] or self.rank_id[d] == self.rank_id[c]))
                                for c in range(len(pack)))
        self._same_suit = tuple(tuple(d for d in range(len(pack)) if self.meldable[d] and
                                      (self.wild[d] or (pack.suits[c] is not None and self.suit_id[d] == self.suit_id[c])))
                                for c in range(len(pack)))
        # The order of cards in a spread on the table: by place in the run order, then name.
        keys = sorted({(pack.run_index[c], pack.names[c]) for c in range(len(pack))})
        position = {k: i for i, k in enumerate(keys)}
        self.table_order = tuple(position[(pack.run_index[c], pack.names[c])] for c in range(len(pack)))
        self.card_bit = tuple(1 << c for c in range(len(pack)))
        self.all_cards = (1 << len(pack)) - 1
        self.value = pack.values  # beside the other per-card tables the engine reads
        # A hand's signature is the sum of its cards' signatures: the card-id mask in the low
        # bits, then the run bits, then the rank lanes, with run_min zero bits between the
        # regions so that the run test's shifts never bring rank bits into the run region. The
        # state keeps one per hand up to date with one addition per card that comes or goes;
        # the mask part is always exact (card ids are distinct), the other two are when sums
        # of them are (indexable): no wild cards, no two cards with the same place in the same
        # suit (a second deck), at most 15 cards of a rank.
        self._run_at = len(pack) + self.run_min
        self._rank_at = self._run_at + self.n_suits * lane + self.run_min
        self.card_sig = tuple(self.card_bit[c] | self.run_bit[c] << self._run_at | self.rank_unit[c] << self._rank_at
                              for c in range(len(pack)))
        self._run_region = ((1 << (self.n_suits * lane)) - 1) << self._run_at
        self._book_add <<= self._rank_at
        self._lane_top <<= self._rank_at
        placed = [b for b in self.run_bit if b]
        # Two cards with the same place in a suit (several decks): spreads are listed by the
        # general search, which finds every copy's spreads.
        self.copies = len(set(placed)) != len(placed)
        # Natural cards with one copy each: the bit tests of the fast paths hold (one read).
        self.one_copy = self.natural and not self.copies
        self.indexable = (self.natural and not self.copies
                          and max(self.rank_id.count(r) for r in range(self.n_ranks)) <= 15)
        self._accepts: dict[tuple[str, tuple[int, ...]], int] = {}
        self._near: dict[int, tuple[int, ...]] = {}
        # The action of each spread and hit met so far (actions are immutable values): a legal
        # list reuses them instead of making new ones at every decision.
        self.spread_actions: dict[tuple[int, ...], Spread] = {}
        self.hit_actions: dict[tuple[tuple[int, ...], int], Hit] = {}

    def describe(self) -> str:
        """What a spread is, in a player's words (for refusals)."""
        twins = ", no two identical" if self.copies and not self.book_identical else ""
        text = (f"a book is {self.book_min}-{self.book_max} cards of one rank{twins}; a run is "
                f"{self.run_min}+ cards in sequence of one suit")
        if not any(self.wild):
            return text
        book, run = self.wild_limits[BOOK], self.wild_limits[RUN]
        kinds = [("spread", book)] if book == run else [("book", book), ("run", run)]
        for what, (_, most) in kinds:
            if most is not None:
                text += f"; at most {most} wild card{'s' if most != 1 else ''} in a {what}"
        for what, (least, _) in kinds:
            if least:
                text += f"; at least {least} natural cards in a {what}"
        return text

    def _names(self, combo: tuple[int, ...]) -> tuple[str, ...]:
        """The names of cards in an action: with identical cards (several decks), in table
        order, so that two copies give the same action (``spread 7H 7H 7S``)."""
        if self.copies:
            combo = tuple(sorted(combo, key=self.table_order.__getitem__))
        return tuple(map(self.pack.names.__getitem__, combo))

    def spread_action(self, combo: tuple[int, ...]) -> Spread:
        """The action that lays these cards as a spread (kept: see ``spread_actions``)."""
        action = self.spread_actions.get(combo)
        if action is None:
            action = Spread(self._names(combo))
            if len(self.spread_actions) < _MAX_KEPT_ACTIONS:
                self.spread_actions[combo] = action
        return action

    def hit_action(self, combo: tuple[int, ...], target: int) -> Hit:
        """The action that plays these cards onto spread ``target`` (kept: see ``hit_actions``)."""
        action = self.hit_actions.get((combo, target))
        if action is None:
            action = Hit(self._names(combo), target)
            if len(self.hit_actions) < _MAX_KEPT_ACTIONS:
                self.hit_actions[(combo, target)] = action
        return action

    def kind(self, cards: Sequence[int]) -> str | None:
        """``"book"``, ``"run"`` or ``None`` for these cards as one spread."""
        if self.is_book(cards):
            return BOOK
        if self.is_run(cards):
            return RUN
        return None

    def is_book(self, cards: Sequence[int]) -> bool:
        """Whether ``cards`` make a book: book_min to book_max cards of one rank, wild cards
        standing in."""
        n = len(cards)
        if n < self.book_min or n > self.book_max:
            return False
        if self.one_copy:  # no wild card: one rank
            return len(set(map(self.rank_id.__getitem__, cards))) == 1
        return self._is_book_general(cards)

    def _is_book_general(self, cards: Sequence[int]) -> bool:
        ranks = self.pack.ranks
        rank = None
        wild = 0
        for c in cards:
            if not self.meldable[c]:
                return False
            if self.wild[c]:
                wild += 1
                continue
            if rank is None:
                rank = ranks[c]
            elif ranks[c] != rank:
                return False
        if rank is None or not self._wild_within_limits(BOOK, len(cards), wild):
            return False
        if not self.book_identical and self.copies:
            names = [self.pack.names[c] for c in cards if not self.wild[c]]
            return len(set(names)) == len(names)
        return True

    def _wild_within_limits(self, kind: str, size: int, wild: int) -> bool:
        """The ruleset's limits on wild cards in one spread of this kind (melds.min_natural,
        max_wild, or the kind's own)."""
        least, most = self.wild_limits[kind]
        if most is not None and wild > most:
            return False
        return size - wild >= least

    def is_run(self, cards: Sequence[int]) -> bool:
        """Whether ``cards`` make a run: run_min to run_max cards of one suit in consecutive
        places of the run order (wrapping if the pack says so), wild cards standing in."""
        n = len(cards)
        if n < self.run_min or n > self.run_max:
            return False
        if self.natural and not self._wraps:
            # n distinct places of one suit in a row: the cards' run bits are one block of n
            # bits (a suit's lane ends with a bit no card has; a card with no place has none).
            bits = reduce(or_, map(self.run_bit.__getitem__, cards), 0)
            return bits != 0 and bits // (bits & -bits) == (1 << n) - 1
        return self._is_run_general(cards)

    def _is_run_general(self, cards: Sequence[int]) -> bool:
        n = len(cards)
        pack = self.pack
        suit = None
        places = []
        wild = 0
        for c in cards:
            if not self.meldable[c]:
                return False
            if self.wild[c]:
                wild += 1
                continue
            if not pack.run_places[c]:
                return False
            if suit is None:
                suit = pack.suits[c]
            elif pack.suits[c] != suit:
                return False
            places.append(pack.run_places[c])
        if not places or not self._wild_within_limits(RUN, n, wild):
            return False
        if all(len(p) == 1 for p in places):
            return self._places_run([p[0] for p in places], n)
        # A card with two places (an ace high or low): the run holds if one choice of places does.
        return any(self._places_run(list(choice), n) for choice in product(*places))

    def _places_run(self, positions: list[int], n: int) -> bool:
        """Whether cards at ``positions`` (and ``n`` - len(positions) wild cards) make a run."""
        pack = self.pack
        if len(set(positions)) != len(positions):
            return False
        length = pack.run_length
        if not pack.run_wraps:
            span = max(positions) - min(positions) + 1
            return span <= n and n <= length
        if n > length:
            return False
        for start in positions:
            span = max((p - start) % length for p in positions) + 1
            if span <= n:
                return True
        return False

    # --- showing a spread ------------------------------------------------------------------
    def layout(self, cards: Sequence[int]) -> list[tuple[int, str | None]]:
        """The cards of a spread as a player lays them out, each with what a wild card stands for
        (None for a natural card): a run in its order, a wild card as the card it replaces ("4H");
        a book with its wild cards last, each as the book's rank ("7"). For the table's page,
        where 3H 2H 5H (deuces wild) reads 3H, 2H as 4H, 5H."""
        pack = self.pack
        wild = [c for c in cards if self.wild[c]]
        natural = [c for c in cards if not self.wild[c]]
        if not wild or not natural:
            return [(c, None) for c in cards]
        placed = self._run_places(natural, len(cards)) if self.kind(cards) == RUN else None
        if placed is None:
            rank = pack.ranks[natural[0]]
            return [(c, None) for c in natural] + [(c, rank) for c in wild]
        start, at = placed
        suit = pack.suits[natural[0]]
        names = {p: pack.names[d] for d in range(len(pack)) if pack.suits[d] == suit
                 for p in pack.run_places[d]}
        spare = iter(wild)
        out: list[tuple[int, str | None]] = []
        for k in range(len(cards)):
            p = (start + k) % pack.run_length if pack.run_wraps else start + k
            out.append((at[p], None) if p in at else (next(spare), names.get(p)))
        return out

    def _run_places(self, natural: list[int], n: int) -> tuple[int, dict[int, int]] | None:
        """Where a run of ``n`` cards with these natural cards starts, and each natural card's
        place; wild cards beyond the gaps go above the natural cards while the run order lasts."""
        pack = self.pack
        length = pack.run_length
        for choice in product(*(pack.run_places[c] for c in natural)):
            if len(set(choice)) != len(choice) or n > length:
                continue
            if not pack.run_wraps:
                if max(choice) - min(choice) + 1 <= n:
                    return min(min(choice), length - n), dict(zip(choice, natural))
                continue
            for first in choice:
                if max((p - first) % length for p in choice) + 1 <= n:
                    return first, dict(zip(choice, natural))
        return None

    # --- enumeration -----------------------------------------------------------------------
    def hand_sig(self, hand: Sequence[int]) -> int:
        """The signature of ``hand`` (see ``card_sig``), for :meth:`spreads_in`. A place
        held twice (two decks) counts once in the run bits."""
        if not self.copies:
            # No two cards share a run bit, so the or of the run bits is their sum and the
            # signature is the sum of the cards' own: one map instead of three (lint's count
            # of the dealt hands over 134,459 classes asks this once each, 0.1 s saved).
            return sum(map(self.card_sig.__getitem__, hand))
        return (sum(map(self.card_bit.__getitem__, hand))
                | reduce(or_, map(self.run_bit.__getitem__, hand), 0) << self._run_at
                | sum(map(self.rank_unit.__getitem__, hand)) << self._rank_at)

    def spreads_in(self, hand: Sequence[int], sig: int | None = None) -> list[tuple[int, ...]]:
        """Every set of cards of ``hand`` that makes a spread (each listed once, sorted).

        ``sig`` is the hand's signature when the caller keeps it up to date (:meth:`hand_sig`)."""
        if self.one_copy and len(hand) <= 12:
            cards = hand
        else:
            cards = [c for c in hand if self.meldable[c]]
            if (len(cards) > 12 or self.copies or not self.simple_runs or self.naturals_bind
                    or any(self.wild[c] for c in cards)):
                return self._spreads_any(cards)
            sig = None  # the caller's signature would count cards that never meld
        if len(cards) < self.min_size:
            return []
        if sig is None:
            sig = self.hand_sig(cards)
        if self._wraps:  # wrapping runs are always looked for
            return self._spreads_natural(cards, bool((sig + self._book_add) & self._lane_top), True)
        books, runs = self._may_hold(sig)
        if not (books or runs):
            return []
        return self._spreads_natural(cards, books, runs)

    def _may_hold(self, sig: int) -> tuple[bool, bool]:
        """Two bit tests on a hand's signature, which most hands fail: whether a rank lane
        counts book_min cards (a book may be there), and whether run_min neighbouring places of
        a suit are held (a run may be). Exact when both fail: no spread of that kind."""
        books = (sig + self._book_add) & self._lane_top
        streak = sig
        for shift in self._shifts:
            streak &= sig >> shift
        return bool(books), bool(streak & self._run_region)

    def _spreads_any(self, cards: Sequence[int]) -> list[tuple[int, ...]]:
        """:meth:`spreads_in` with wild cards (or a hand of more than 12): every combination
        that makes a book or a run, by size and then in the order of ``itertools.combinations``.

        The combinations are grown card by card, and a partial one whose natural cards already
        differ both in rank and in suit is dropped with all it would grow into: it can be
        neither a book (one rank) nor a run (one suit). Most pairs of cards are such: for eight
        cards of a pack with deuces wild, 54 us instead of 122 us."""
        if len(cards) < self.min_size:
            return []
        ordered = sorted(cards)
        found: list[tuple[int, ...]] = []
        top = min(len(ordered), max(self.book_max, self.run_max))
        for size in range(self.min_size, top + 1):
            self._grow(ordered, size, 0, [], None, None, found)
        return found

    def _grow(self, cards: list[int], size: int, start: int, combo: list[int], rank: str | None,
              suit: str | None, found: list[tuple[int, ...]]) -> None:
        """Extend ``combo`` with the cards from ``start`` on up to ``size`` cards; ``rank`` and
        ``suit`` are those its natural cards share (None before the first; _MIXED once two
        differ)."""
        if len(combo) == size:
            spread = tuple(combo)
            if self.is_book(spread) or self.is_run(spread):
                found.append(spread)
            return
        ranks, suits, wild = self.pack.ranks, self.pack.suits, self.wild
        for i in range(start, len(cards) - (size - len(combo)) + 1):
            c = cards[i]
            r, s = rank, suit
            if not wild[c]:
                r = ranks[c] if rank is None else (rank if ranks[c] == rank else _MIXED)
                card_suit = suits[c] if suits[c] is not None else _NO_SUIT
                s = card_suit if suit is None else (suit if card_suit == suit else _MIXED)
                if r == _MIXED and s == _MIXED:
                    continue
            combo.append(c)
            self._grow(cards, size, i + 1, combo, r, s, found)
            combo.pop()

    def _spreads_natural(self, cards: Sequence[int], books: bool, runs: bool) -> list[tuple[int, ...]]:
        """:meth:`spreads_in` for natural cards (no wild card, no joker), at most 12 of them;
        books and runs are only looked for when the signature says the hand may hold some."""
        rank_id, suit_id = self.rank_id, self.suit_id
        book_min, run_min = self.book_min, self.run_min
        out: list[tuple[int, ...]] = []
        cards = sorted(cards)
        if books:
            by_rank: dict[int, list[int]] = {}  # groups in the order of their lowest card id
            for c in cards:
                by_rank.setdefault(rank_id[c], []).append(c)
            for group in by_rank.values():
                if len(group) < book_min:
                    continue
                for size in range(book_min, min(len(group), self.book_max) + 1):
                    out.extend(combinations(group, size))
        if not runs:
            return out
        by_suit: dict[int, list[int]] = {}
        for c in cards:
            by_suit.setdefault(suit_id[c], []).append(c)
        order = self.pack.run_index
        wraps = self.pack.run_wraps
        for group in by_suit.values():
            if len(group) < run_min:
                continue
            if wraps:
                for size in range(run_min, min(len(group), self.run_max) + 1):
                    for combo in combinations(group, size):
                        if self.is_run(combo):
                            out.append(combo)
                continue
            # Without wild cards or wrapping, a run is a window of consecutive places. The group
            # is in card-id order; in most packs that is the run order within a suit too.
            in_order = self._ids_in_run_order
            if not in_order:
                group = sorted((c for c in group if order[c] >= 0), key=order.__getitem__)
            start = 0
            for i in range(1, len(group) + 1):
                if i == len(group) or order[group[i]] != order[group[i - 1]] + 1:
                    seq = group[start:i]
                    for lo in range(len(seq)):
                        for hi in range(lo + run_min, min(len(seq), lo + self.run_max) + 1):
                            out.append(tuple(seq[lo:hi]) if in_order else tuple(sorted(seq[lo:hi])))
                    start = i
        return out

    def near(self, reach: int) -> tuple[int, ...]:
        """For each card, a mask (of :attr:`card_bit`) of the other cards of its rank or of its
        suit within ``reach`` places in the run order: the cards a player would keep it with
        (bots' sense of a partial spread)."""
        got = self._near.get(reach)
        if got is None:
            pack = self.pack
            got = tuple(sum(
                self.card_bit[d] for d in range(len(pack)) if d != c and (
                    pack.ranks[d] == pack.ranks[c]
                    or (pack.suits[c] is not None and pack.suits[d] == pack.suits[c]
                        and 0 < abs(pack.run_index[d] - pack.run_index[c]) <= reach)))
                for c in range(len(pack)))
            self._near[reach] = got
        return got

    def accepts(self, spread: Sequence[int], kind: str) -> int:
        """The cards that fit ``spread`` (a spread of ``kind``) when added alone, as a mask of
        :attr:`card_bit`.

        A hit of several cards always includes one that fits alone (the cards added to a book
        are any of its rank; those added to a run include one next to it, or a wild card), so a
        hand that holds none of these has no hit on this spread. Memoised: the same spreads
        come back hand after hand."""
        key = (kind, tuple(spread))
        got = self._accepts.get(key)
        if got is None:
            if self.natural and not self._wraps and not self.copies and spread:
                got = self._accepts_natural(spread, kind)
            else:
                check = self.is_book if kind == BOOK else self.is_run
                base = list(spread)
                cands: set[int] = set()
                for c in spread:
                    if not self.wild[c]:
                        cands.update((self._same_rank if kind == BOOK else self._same_suit)[c])
                cands.update(d for d in range(len(self.pack)) if self.meldable[d] and self.wild[d])
                cands.difference_update(spread)
                got = sum(self.card_bit[c] for c in cands if check(base + [c]))
            if len(self._accepts) >= 100_000:  # bounded: a long run of odd spreads starts afresh
                self._accepts.clear()
            self._accepts[key] = got
        return got

    def _accepts_natural(self, spread: Sequence[int], kind: str) -> int:
        """:meth:`accepts` without wild cards or wrapping runs, from the rules of
        :meth:`is_book` and :meth:`is_run` directly (tested against them)."""
        n = len(spread) + 1
        if kind == BOOK:
            if not self.book_min <= n <= self.book_max or not self.is_book(spread):
                return 0
            return sum(self.card_bit[d] for d in self._same_rank[spread[0]] if d not in spread)
        pack = self.pack
        if not self.run_min <= n <= min(self.run_max, pack.run_length) or not self.is_run(spread):
            return 0
        places = {pack.run_index[c] for c in spread}
        low, high = min(places), max(places)
        got = 0
        for d in self._same_suit[spread[0]]:
            p = pack.run_index[d]
            if p >= 0 and p not in places and max(high, p) - min(low, p) < n:
                got |= self.card_bit[d]
        return got

    def hits_on(self, spread: Sequence[int], kind: str, hand: Iterable[int], limit: int,
                fits: int | None = None) -> Iterator[tuple[int, ...]]:
        """Every set of at most ``limit`` hand cards that keeps ``spread`` a spread of ``kind``.

        Only sets with a card that fits alone (:meth:`accepts`, or ``fits`` when the caller
        keeps it) are checked: no other set can be a hit."""
        if fits is None:
            fits = self.accepts(spread, kind)
        bit = self.card_bit
        pack = self.pack
        if kind == BOOK:
            ranks = {pack.ranks[c] for c in spread if not self.wild[c]}
            cand = [c for c in hand if self.meldable[c] and (self.wild[c] or pack.ranks[c] in ranks)]
            check = self.is_book
        else:
            suits = {pack.suits[c] for c in spread if not self.wild[c]}
            cand = [c for c in hand if self.meldable[c] and (self.wild[c] or pack.suits[c] in suits)]
            check = self.is_run
        cand.sort()
        base = list(spread)
        for size in range(1, min(limit, len(cand)) + 1):
            for combo in combinations(cand, size):
                if size == 1:
                    if fits & bit[combo[0]]:
                        yield combo
                elif any(fits & bit[c] for c in combo) and check(base + list(combo)):
                    yield combo

    # --- questions the expression language asks (is_book, longest_run, deadwood, ...) -----
    def largest(self, cards: Sequence[int], kind: str) -> int:
        """The size of the largest book (``kind`` "book") or run the cards can form, 0 if none."""
        if self.one_copy and not self._wraps and self.min_size <= len(cards) <= 12:
            # The bit tests alone answer 0 for most hands, without listing their spreads: a
            # dealt run is asked of each of lint's 134,459 classes of five-card hands, and this
            # and hand_sig's one map take those calls from 0.27 s to 0.15 s.
            books, runs = self._may_hold(self.hand_sig(cards))
            if not (books if kind == BOOK else runs):
                return 0
        check = self.is_book if kind == BOOK else self.is_run
        return max((len(s) for s in self.spreads_in(list(cards)) if check(s)), default=0)

    def deadwood(self, cards: Sequence[int]) -> tuple[int, ...]:
        """The cards left out of the best arrangement of disjoint spreads: the one that leaves
        the lowest count (ties: the fewest cards left), searched exactly."""
        key = tuple(cards)
        dead = self._arrangements.get(key)
        if dead is None:
            # The same hands are asked about again and again where a drop's condition reads the
            # deadwood (every discard tried at every decision, in every rollout of a search):
            # remembered, the search bot's decisions there take a third less time. The
            # answer depends on the cards alone (in their order); the memory is emptied when full.
            if len(self._arrangements) >= _ARRANGEMENTS_KEPT:
                self._arrangements.clear()
            dead = self._arrangements[key] = self.best_arrangement(key)[1]
        return dead

    def deadwood_count(self, cards: Sequence[int], mask: int) -> int:
        """The count of :meth:`deadwood` of ``cards``, whose card ids ``mask`` holds.

        Remembered by the mask: a drop's condition or a payout that reads the deadwood count
        (a knock on few unmatched points) is asked at every decision of every rollout of a
        search, and the count, the lowest an arrangement leaves, does not depend on the cards'
        order, so the same hand held in another order is not searched again and a hit costs no
        tuple of the cards."""
        got = self._dead_counts.get(mask)
        if got is None:
            if len(self._dead_counts) >= _ARRANGEMENTS_KEPT:
                self._dead_counts.clear()
            value = self.value
            got = 0
            for c in self.deadwood(cards):
                got += value[c]
            self._dead_counts[mask] = got
        return got

    def remember_deadwood_without(self, cards: Sequence[int], mask: int) -> None:
        """Remember for :meth:`deadwood_count` the count of ``cards`` (held as ``mask``) less each
        one of them, searched together: where a drop comes after the draw and its condition
        reads the deadwood, every discard of the hand is tried (``TurnFlow._drop_ok_without``),
        and the spreads of the hand less one card are those of the whole hand without that card,
        so one search of the spreads (the costly part, with wild cards) and one table of the
        subsets' counts serve them all. Each count is the lowest an arrangement of those cards
        leaves, the same as :meth:`deadwood_count` finds for them alone."""
        counts = self._dead_counts
        todo = [i for i, c in enumerate(cards) if mask & ~(1 << c) not in counts]
        if len(todo) < 2:  # nothing to share: asked one at a time
            return
        if len(counts) + len(todo) > _ARRANGEMENTS_KEPT:
            counts.clear()
        cards = list(cards)
        best, _, _ = self._arrangement_search(cards)
        full = (1 << len(cards)) - 1
        for i in todo:
            counts[mask & ~(1 << cards[i])] = best(full & ~(1 << i))[0]

    def best_arrangement(self, cards: Sequence[int]) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
        """The spreads of the best arrangement of ``cards`` (see :meth:`deadwood`) and the
        cards left out, searched exactly over the cards' subsets (memoised)."""
        cards = list(cards)
        best, combos, spreads = self._arrangement_search(cards)
        left = (1 << len(cards)) - 1
        chosen: list[tuple[int, ...]] = []
        dead: list[int] = []
        while left:
            k = best(left)[2]
            if k < 0:
                low = left & -left
                dead.append(cards[low.bit_length() - 1])
                left &= ~low
            else:
                chosen.append(combos[k])
                left &= ~spreads[k]
        index = {c: i for i, c in enumerate(cards)}
        return chosen, tuple(sorted(dead, key=index.__getitem__))

    def _arrangement_search(self, cards: list[int]) -> tuple[
            Callable[[int], tuple[int, int, int]], list[tuple[int, ...]], list[int]]:
        """The exact search behind :meth:`best_arrangement`: ``best(left)`` for a set of the
        cards (bit ``i`` for ``cards[i]``) gives (the lowest deadwood count of an arrangement of
        them, the fewest cards it leaves out, the spread laid first or -1 when the lowest card is
        deadwood), memoised across every set asked; with the spreads found in ``cards`` and
        their masks of those bits. Any subset's count can be asked: its spreads are those of the
        whole that it holds."""
        index = {c: i for i, c in enumerate(cards)}
        combos = self.spreads_in(cards)
        spreads = [sum(1 << index[c] for c in s) for s in combos]
        value = self.value
        memo: dict[int, tuple[int, int, int]] = {0: (0, 0, -1)}

        def best(left: int) -> tuple[int, int, int]:
            got = memo.get(left)
            if got is not None:
                return got
            low = left & -left
            i = low.bit_length() - 1
            count, n, _ = best(left & ~low)
            result = (count + value[cards[i]], n + 1, -1)
            for k, s in enumerate(spreads):
                if s & low and s & left == s:
                    rest = best(left & ~s)
                    if rest[:2] < result[:2]:
                        result = (rest[0], rest[1], k)
            memo[left] = result
            return result

        return best, combos, spreads
