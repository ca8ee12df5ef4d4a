"""The immutable, compiled ruleset: what the engine reads while it plays.

:func:`build` turns validated ruleset data into a :class:`Ruleset`, compiling every expression
once with the names of its place (see :mod:`tonkdsl.language.names`). Problems are collected, never
stopped at the first.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from tonkdsl.language.cards import JOKER, RANKS_STANDARD, CardSyntaxError, Pack, format_card, parse_card
from tonkdsl.language.diagnostics import Diagnostic, Path
from tonkdsl.language.expr import BOOL, NUM, PLAYER, Compiled, ExprError, Type, compile_expr, list_of
from tonkdsl.language.expr.types import Names
from tonkdsl.language.merge import Doc
from tonkdsl.language.names import (CARD_SETS, FUNCTIONS, GLOBALS, PLAYER_ATTRS, ROLES, SIDE_NAMES, holder_chooses,
                                    make_names)
from tonkdsl.language.schema_check import construct_schemas

MAX_PLAYERS = 12  # the schema's limit on players.max
# The most cards one seat may be dealt: the schema's hand_size limit (13), or 12 and one extra card.
# Finding a hand's spreads grows fast with its size (a dealer dealt 34 cards made one hand last
# over 300 s), so the cards a seat can be dealt are bounded when the file loads.
MAX_SEAT_CARDS = 13
ENDINGS = ("tonk_out", "out_on_discard", "drop_won", "drop_caught", "stock_exhausted", "others_folded")
# The moments of a hand when players other than the one to move may be asked to act.
# The events that happen to one spread (the spread laid, or the spread hit): 'spread' names it there.
SPREAD_EVENTS = ("spread_laid", "spread_hit")
MOMENTS = ("after_deal", "turn_start", "after_draw", "after_discard")
PLAYERS = list_of(PLAYER)
# The types an x-expr field of the schema names.
_EXPR_TYPES = {"bool": BOOL, "num": NUM, "players": PLAYERS}


@dataclass(frozen=True)
class Transfer:
    """Each player of ``payers`` pays ``amount`` to each player of ``payees`` (never to oneself)."""

    id: str
    payers: Compiled
    payees: Compiled
    amount: Compiled
    when: Compiled | None
    # None: the amount goes to each payee; "down" / "dealer_left": it is shared among them
    # ("pooled": the payers' amounts put together first, then shared),
    # what does not divide staying with the payer or going a unit each from the dealer's left
    split: str | None = None


POT = -1  # the pot, where a payment's payer or payee is a seat


@dataclass(frozen=True)
class SidePot:
    """A pot beside the game pot (side_pots), won its own way: payouts pay from and to it by its
    name, and an expression reads what it holds by its name."""

    id: str
    ante: Compiled | None  # what each player puts into it at the deal (None: nothing)


@dataclass(frozen=True)
class Bonus:
    """A payment made the moment an event happens (``on``), without ending the hand."""

    on: str
    transfer: Transfer


@dataclass(frozen=True)
class ScoreEntry:
    """Each player of ``players`` adds ``points`` (evaluated for that player) to the score sheet."""

    id: str
    players: Compiled
    points: Compiled
    when: Compiled | None


@dataclass(frozen=True)
class Ending:
    winners: Compiled
    void_if: Compiled | None
    payouts: tuple[Transfer, ...]
    scores: tuple[ScoreEntry, ...] = ()


@dataclass(frozen=True)
class SideBet:
    id: str
    kind: str  # "named_suit" or "natural"
    amount: Compiled
    carry_over: bool


@dataclass(frozen=True)
class SessionRules:
    hands: int | None
    big_one_last: int
    big_one_multiplier: int
    side_bets: tuple[SideBet, ...]
    ends_when: Compiled | None = None  # a match: ends after the hand where this holds
    eliminate_when: Compiled | None = None  # a player is out after a hand where this holds
    lowest_total_wins: bool | None = None  # None: as scoring.lowest_wins says
    bonuses: tuple["ScoreEntry", ...] = ()  # score entries once the session is over (session.bonuses)
    # Parallel score columns (session.columns): how many (0: none), and when one closes, about its totals.
    columns: int = 0
    column_ends: Compiled | None = None

    @property
    def is_match(self) -> bool:
        """Whether sessions end on the players' totals rather than on a number of hands."""
        return self.ends_when is not None or self.eliminate_when is not None or self.column_ends is not None


@dataclass(frozen=True)
class NextDealer:
    """After one of ``after`` (any ending when empty), the member of ``dealer`` nearest the
    dealer's left deals the next hand."""

    after: frozenset[str]
    dealer: Compiled


@dataclass(frozen=True)
class DealWin:
    id: str
    when: Compiled
    pays: Compiled
    payers: Compiled | None
    priority: int
    prefer: str | None
    tie: str | None
    claim: Compiled | None
    scores: tuple[ScoreEntry, ...] = ()


@dataclass(frozen=True)
class CounterEvent:
    on: str
    target: str
    when: Compiled | None
    add: int | None
    set: int | None
    once_per: str | None


@dataclass(frozen=True)
class Counter:
    name: str
    initial: int
    floor: int | None
    events: tuple[CounterEvent, ...]


@dataclass(frozen=True)
class WildLimit:
    """How many natural cards one kind of spread needs at least and wild cards it holds at most."""

    min_natural: int
    max_wild: int | None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A compiled ruleset. Deal hands with :func:`tonkdsl.interpreter.engine.deal`.

    Slotted: the engine reads its settings at every decision, and a dict of more than 30 keys
    is not shared between instances in CPython (reads from it are slower)."""

    name: str
    description: str
    source: str
    players_min: int
    players_max: int
    pack: Pack
    hand_size: int
    upcard: bool
    first_dealer: str
    rotation: str
    deal_wins: tuple[DealWin, ...]
    several_deal_wins: str
    deal_win_tie: str
    book_min: int
    book_max: int
    run_min: int
    run_max: int | None
    book_identical: bool
    wild_limits: dict[str, WildLimit]  # per kind ("book", "run"): its own limit, or melds.min_natural/max_wild
    wild_in_melds: bool
    jokers_in_melds: bool
    hold_allowed: Compiled | None
    hold_except: Compiled | None
    hit_books: bool
    hit_runs: bool
    hit_spreads: str
    hits_per_turn: int | None
    hit_allowed: Compiled | None  # who may hit whose spreads, when (None: always)
    spread_allowed: Compiled | None  # when a spread may be laid in play (None: always)
    must_take: Compiled | None  # when the player to move must take the discard (None: never)
    hit_ends_turn: bool
    drop_allowed: Compiled
    drop_wins_if: Compiled
    drop_at: tuple[str, ...]
    drop_lays_spreads: bool
    first_player: Compiled | None  # None: the dealer's left
    first_turn_draws: bool
    stock_rebuild: int  # rebuilds a hand at most (stock.rebuild; 'always': MAX_TURNS, more than a hand can use)
    stock_rebuild_whole: bool  # a rebuild takes the whole discard pile, its top card too (stock.rebuild_takes)
    extra_cards: tuple[tuple[Compiled, int], ...]
    next_dealers: tuple[NextDealer, ...]
    eat_allowed: Compiled | None  # None: no eating
    eat_spread_at_once: bool
    ante: Compiled | None  # what each player puts into the pot at the deal (None: no pot)
    bonuses: tuple[Bonus, ...]
    most_lost: Compiled | None  # caps on what one hand's ending costs or brings a player
    most_won: Compiled | None
    draw_from: tuple[str, ...]
    discard_must_be_used: bool
    discard_required: bool
    not_the_card_taken: bool
    claim_when: Compiled | None
    going_out_allowed: Compiled
    stock_exhausted: str | None
    counters: tuple[Counter, ...]
    endings: dict[str, Ending]
    # The sections of the turn's constructs (the schema's keys marked x-construct), each a
    # mapping of its keys with its expressions compiled: the interpreter's construct of that
    # key (tonkdsl/interpreter/rules/) reads it; the language knows nothing else of it.
    constructs: dict[str, Any]
    score_sheet: str
    lowest_score_wins: bool
    session: SessionRules
    data: dict[str, Any] = field(repr=False, compare=False)
    # (up to this many players, decks shuffled together), by players; ``pack`` is the pack of
    # the fewest players, ``packs`` every pack by its number of decks.
    decks: tuple[tuple[int, int], ...] = ((12, 1),)
    packs: dict[int, Pack] = field(default_factory=dict, repr=False, compare=False)
    # The table's own words for what only happens at a physical table (a misdeal): (id, text),
    # printed in the rules sheet; the engine never reads them.
    table_customs: tuple[tuple[str, str], ...] = ()
    # Partnerships (players.sides.size): how many players make a side; None: each plays alone.
    side_size: int | None = None
    side_pots: tuple[SidePot, ...] = ()  # the pots beside the game pot, in the order written
    # Cards dealt face up (deal.face_up): to whom, and how many of the last cards dealt to them.
    face_up: tuple[tuple[Compiled, int], ...] = ()
    drop_called: str = "drop"  # what the table calls a drop (turn.drop.called): words only
    # What the interpreter builds from this ruleset on first use and keeps with it (the meld
    # rules of each pack: tonkdsl.interpreter.melds.table_for); not part of the ruleset's value.
    tables: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    _automatic: "tuple[DealWin, ...] | None" = field(default=None, init=False, repr=False, compare=False)

    def decks_for(self, num_players: int) -> int:
        """How many decks are shuffled together for ``num_players`` players."""
        for up_to, decks in self.decks:
            if num_players <= up_to:
                return decks
        return self.decks[-1][1]

    @property
    def has_pots(self) -> bool:
        """Whether money may wait in a pot between hands: the game pot, or a side pot."""
        return self.ante is not None or bool(self.side_pots)

    def pot_name(self, seat: int) -> str:
        """The name of the pot whose seat number in a payment is ``seat`` (-1: 'pot')."""
        return "pot" if seat == POT else self.side_pots[-2 - seat].id

    def sides_for(self, num_players: int) -> tuple[int, ...]:
        """The side of each seat at a table of ``num_players``: partners sit apart, seat s on
        side s mod the number of sides; without sides each player is a side of their own."""
        if self.side_size is None:
            return tuple(range(num_players))
        count = max(1, num_players // self.side_size)
        return tuple(s % count for s in range(num_players))

    def pack_for(self, num_players: int) -> Pack:
        """The pack dealt to ``num_players`` players."""
        return self.packs.get(self.decks_for(num_players), self.pack)

    @property
    def automatic_deal_wins(self) -> tuple[DealWin, ...]:
        """The deal wins that apply without a claim, highest priority first."""
        if self._automatic is None:
            object.__setattr__(self, "_automatic", tuple(
                sorted((r for r in self.deal_wins if r.claim is None), key=lambda r: -r.priority)))
        assert self._automatic is not None
        return self._automatic


class _Builder:
    def __init__(self, doc: Doc, *, shape_checked: bool = True) -> None:
        self.doc = doc
        # False: the schema found problems, so sizes may be past their limits; only expressions
        # are compiled (bounded by their own limits) and nothing is built from the numbers.
        self.shape_checked = shape_checked
        self.data: dict[str, Any] = doc.data
        self.problems: list[Diagnostic] = []
        self.places: dict[Path, Place] = {}  # every expression asked for, by path: expression_places
        counters = self.data.get("counters")
        self.counters = list(counters) if isinstance(counters, dict) else []  # the schema reports another shape
        pots = self.data.get("side_pots")
        self.pot_names = [str(e["id"]) for e in pots if isinstance(e, dict) and isinstance(e.get("id"), str)] \
            if isinstance(pots, list) else []
        # Some card's value is the holder's choice (an ace counting 1 or 11): conditions about a
        # player read the count they declare (names.holder_chooses).
        pack = self.get(("pack",))
        pack = pack if isinstance(pack, dict) else {}
        raw_values = pack.get("values")
        raw_values = raw_values if isinstance(raw_values, dict) else {}
        self.choices = any(isinstance(v, list) and len(set(map(str, v))) > 1 for v in raw_values.values()) or (
            isinstance(pack.get("wild_value"), list) and len(set(map(str, pack["wild_value"]))) > 1)

    def get(self, path: Path, default: Any = None) -> Any:
        node: Any = self.data
        for p in path:
            if isinstance(node, dict) and isinstance(p, str) and p in node:
                node = node[p]
            elif isinstance(node, list) and isinstance(p, int) and p < len(node):
                node = node[p]
            else:
                return default
        return node

    def expr(self, path: Path, expect: Type, roles: tuple[str, ...], *, subject: bool | str = True,
             required: bool = True, card_sets: tuple[str, ...] = ()) -> Compiled | None:
        names = make_names(roles, self.counters, subject=subject, card_sets=card_sets, choices=self.choices,
                           pots=self.pot_names)
        refused = frozenset(({"upcard"} if self.get(("deal", "upcard")) is False else set())
                            | (SIDE_NAMES - set(self.counters) if self.get(("players", "sides")) is None else set()))
        self.places[tuple(path)] = Place(names, expect, refused)
        raw = self.get(path)
        if raw is None:
            if required:
                self.problems.append(self.doc.diagnostic("schema-missing-key", f"'{path[-1]}' is required", path))
            return None
        if isinstance(raw, bool):
            raw = "true" if raw else "false"
        if isinstance(raw, (dict, list)):
            return None  # the schema reports the wrong type
        text = str(raw)
        try:
            compiled = compile_expr(text, names, expect)
            if "upcard" in compiled.names_used & refused:
                self.problems.append(self.doc.diagnostic(
                    "upcard-missing", "this rule reads the upcard, but the ruleset turns no card up "
                    "(deal.upcard: false)", path, hint="set deal.upcard: true, or write the rule without 'upcard'"))
                return None
            side_names = compiled.names_used & refused - {"upcard"}
            if side_names:
                name = sorted(side_names)[0]
                self.problems.append(self.doc.diagnostic(
                    "sides-missing", f"this rule reads '{name}', but the players play alone (players.sides "
                    "is not set)", path, hint="set players.sides: {size: 2} for partnerships, or write the "
                    f"rule without '{name}'"))
                return None
            if self.choices and subject is True and expect == BOOL and "count" in compiled.names_used:
                compiled = replace(compiled, fn=holder_chooses(compiled.fn))
            return compiled
        except ExprError as exc:
            src, spath = self.doc.origin(path)
            base_line, base_col = src.locate(spath)
            line, col = src.locate_in_scalar(spath, text, exc.line, exc.column)
            # A short one-line expression is quoted in the message; a longer one is shown by
            # the source line under the caret.
            quoted = f" (in '{text}')" if "\n" not in text.strip() and len(text) <= 80 else ""
            self.problems.append(self.doc.diagnostic(exc.code, exc.message + quoted, path,
                                                     line_offset=line - base_line,
                                                     column_offset=col - base_col))
            return None

    def pack(self) -> dict[int, Pack] | None:
        """Every pack the ruleset deals, by its number of decks."""
        p = self.data["pack"]
        ranks = [str(r) for r in p["ranks"]]
        suits = [str(s) for s in p["suits"]]
        jokers = int(p.get("jokers", 0))
        values: dict[str, int | list[int]] = {str(k): v for k, v in (p.get("values") or {}).items()}
        ok = True
        for key in list(values):
            if key in RANKS_STANDARD or key == JOKER:
                continue
            try:
                rank, suit = parse_card(key)
            except CardSyntaxError:
                continue  # the schema names the bad key
            values[format_card(rank, suit)] = values.pop(key)
            if rank not in ranks or suit not in suits:
                self.problems.append(self.doc.diagnostic(
                    "pack-value-unknown-card", f"pack.values gives a value to {key}, which is not in the pack",
                    ("pack", "values", key), key=True,
                    hint="remove it, or add its rank and suit to pack.ranks and pack.suits"))
                ok = False
        for r in ranks + ([JOKER] if jokers else []):
            if r not in values:
                if r.isdigit():
                    values[r] = int(r)
                else:
                    # A joker's missing value is the jokers' line's doing when the values are
                    # inherited (standard.yaml has none for JK): point there, not at the base file.
                    where = ("pack", "jokers") if r == JOKER else ("pack", "values")
                    self.problems.append(self.doc.diagnostic(
                        "pack-value-missing", f"the rank {r} has no value: add it to pack.values"
                        + (" (a pack with jokers needs one)" if r == JOKER else ""), where,
                        hint=f"pack: {{values: {{{r}: 0}}}}" if r == JOKER else ""))
                    ok = False
        run_order = [str(r) for r in p["run_order"]]
        for i, r in enumerate(run_order):
            if r not in ranks:
                self.problems.append(self.doc.diagnostic(
                    "pack-run-order", f"the run order names {r}, which is not in the pack", ("pack", "run_order", i)))
                ok = False
        for r in dict.fromkeys(run_order):
            at = [i for i, x in enumerate(run_order) if x == r]
            if len(at) > 2 or (len(at) == 2 and at != [0, len(run_order) - 1]):
                self.problems.append(self.doc.diagnostic(
                    "pack-run-order", f"{r} is listed {len(at)} times in the run order; a rank may be listed twice "
                    "only as the first and the last place (an ace high or low: [A, 2, ..., K, A])",
                    ("pack", "run_order", at[1])))
                ok = False
        wild = [str(w).upper() for w in p.get("wild", [])]
        raw_wild_value = p.get("wild_value", "own")
        wild_value = None if raw_wild_value == "own" else raw_wild_value
        if not ok:
            return None
        decks = {d for _, d in self.decks_table()}
        return {d: Pack.build(ranks, suits, jokers, values, run_order, wild,
                              bool(p.get("run_wraps", False)), d, wild_value) for d in sorted(decks)}

    def check_seat_cards(self) -> None:
        """No seat may be dealt more than MAX_SEAT_CARDS. Each entry of deal.extra_cards may name
        any seat, so the entries that add cards are counted as if they all named one seat."""
        size, extras = self.get(("deal", "hand_size")), self.get(("deal", "extra_cards"))
        if not isinstance(size, int) or not isinstance(extras, list):
            return
        added = [e["cards"] for e in extras if isinstance(e, dict) and isinstance(e.get("cards"), int)
                 and e["cards"] > 0]
        if size + sum(added) > MAX_SEAT_CARDS:
            sums = " + ".join(map(str, [size, *added]))
            self.problems.append(self.doc.diagnostic(
                "limit-seat-cards", f"a seat may be dealt {sums} = {size + sum(added)} cards (deal.hand_size and "
                f"the entries of deal.extra_cards that add cards, all of which may name the same seat): more than "
                f"{MAX_SEAT_CARDS} (MAX_SEAT_CARDS)", ("deal", "extra_cards"),
                hint=f"keep deal.hand_size plus the extra cards at most {MAX_SEAT_CARDS}"))

    def decks_table(self) -> tuple[tuple[int, int], ...]:
        """``pack.decks`` as (up to this many players, decks), by players."""
        raw = self.get(("pack", "decks"), 1)
        if isinstance(raw, int):
            return ((MAX_PLAYERS, raw),)
        table = [(int(e["up_to"]), int(e["decks"])) for e in raw]
        for j in range(1, len(table)):
            if table[j][0] <= table[j - 1][0]:
                self.problems.append(self.doc.diagnostic(
                    "pack-decks-order", f"pack.decks lists up_to {table[j][0]} after up_to {table[j - 1][0]}; "
                    "list the entries from the fewest players to the most", ("pack", "decks", j, "up_to")))
                return tuple(sorted(table))  # the order is the problem: say nothing of the rest
        most = self.get(("players", "max"), 0)
        if table and isinstance(most, int) and table[-1][0] < most:
            self.problems.append(self.doc.diagnostic(
                "pack-decks-players", f"pack.decks says how many decks up to {table[-1][0]} players, but up to "
                f"{most} may play", ("pack", "decks"), hint=f"end the list with up_to: {most}"))
        return tuple(table)

    def transfer(self, path: Path, roles: tuple[str, ...], card_sets: tuple[str, ...] = ()) -> Transfer | None:
        t = self.get(path)
        a = self._side(path + ("from",), roles, card_sets)
        b = self._side(path + ("to",), roles, card_sets)
        pot = a is _POT_SIDE or b is _POT_SIDE
        split = t.get("split")
        # A shared amount is one sum for all the payees: it cannot depend on which one is paid.
        if split and re.search(r"\bpayee\b", str(t.get("amount", ""))):
            self.problems.append(self.doc.diagnostic(
                "split-reads-payee", "a shared amount (split) is one sum divided among the payees, so it "
                "cannot read 'payee'", path + ("amount",), hint="write the whole amount, or remove split to pay "
                "each payee its own amount"))
            return None
        sides = () if pot else ("payer",) if split else ("payer", "payee")
        amount = self.expr(path + ("amount",), NUM, roles + sides, card_sets=card_sets)
        when = self.expr(path + ("when",), BOOL, roles, required=False, card_sets=card_sets)
        if a is None or b is None or amount is None:
            return None
        tid = t.get("id") or f"{path[1]}-{len(path) and int(path[-1]) + 1}"
        return Transfer(tid, a, b, amount, when, split)

    def _side(self, path: Path, roles: tuple[str, ...], card_sets: tuple[str, ...]) -> Compiled | None:
        """One side of a transfer: a set of players, or the pot (the word 'pot')."""
        raw = self.get(path)
        if isinstance(raw, str) and raw.strip() == "pot":
            if self.get(("pot",)) is None:
                self.problems.append(self.doc.diagnostic(
                    "pot-missing", "this payout pays to or from the pot, but the ruleset has no pot", path,
                    hint="add pot: {ante: stake}"))
                return None
            return _POT_SIDE
        if isinstance(raw, str) and raw.strip() in self.pot_names:  # a side pot, by its name
            i = self.pot_names.index(raw.strip())
            return Compiled(raw.strip(), PLAYERS, _pot_seat(-2 - i))
        return self.expr(path, PLAYERS, roles, card_sets=card_sets)

    def side_pots(self) -> tuple[SidePot, ...]:
        """The pots beside the game pot; each name is a word of expressions, so it may not be one
        the language already has (nor another pot's)."""
        out = []
        taken = {"pot", "self", "true", "false", "where", "and", "or", "not", "in", *GLOBALS, *PLAYER_ATTRS, *ROLES,
                 *CARD_SETS, *FUNCTIONS, *self.counters}
        for i, entry in enumerate(self.get(("side_pots",)) or []):
            if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
                continue  # the schema reports it
            name = entry["id"]
            if name in taken or self.pot_names.index(name) != i:
                said = ("another side pot's name" if name in self.pot_names[:i] else
                        "a counter's name" if name in self.counters else "a word of the rules language")
                self.problems.append(self.doc.diagnostic(
                    "side-pot-name", f"the side pot '{name}' is named with {said}: expressions could not tell "
                    "them apart", ("side_pots", i, "id"), hint=f"name it {name}_pot"))
                continue
            ante = self.expr(("side_pots", i, "ante"), NUM, (), subject=False, required=False)
            out.append(SidePot(name, ante))
        return tuple(out)

    def scores(self, path: Path, roles: tuple[str, ...]) -> tuple[ScoreEntry, ...]:
        out = []
        entries = self.get(path) or []
        for j, entry in enumerate(entries if isinstance(entries, list) else []):
            players = self.expr(path + (j, "players"), PLAYERS, roles, subject=False)
            points = self.expr(path + (j, "points"), NUM, roles + ("scored",), subject="scored")
            when = self.expr(path + (j, "when"), BOOL, roles, subject=False, required=False)
            if players is not None and points is not None:
                sid = entry.get("id") if isinstance(entry, dict) else None
                out.append(ScoreEntry(sid or f"{path[1]}-score-{j + 1}", players, points, when))
        return tuple(out)

    def session_rules(self) -> SessionRules:
        s = self.get(("session",)) or {}
        big = s.get("big_one") or {}
        bets = []
        for j, bet in enumerate(s.get("side_bets") or []):
            amount = self.expr(("session", "side_bets", j, "amount"), NUM, (), subject=False)
            if amount is not None:
                bets.append(SideBet(bet["id"], bet["kind"], amount, bool(bet.get("carry_over", False))))
        ends_when = self.expr(("session", "ends_when"), BOOL, (), subject=False, required=False)
        eliminate = self.expr(("session", "eliminate_when"), BOOL, ("actor",), required=False)
        winner = s.get("winner")
        bonuses = self.scores(("session", "bonuses"), ())
        if bonuses and (self.get(("scoring", "sheet")) or "money") == "money":
            self.problems.append(self.doc.diagnostic(
                "session-bonuses-money", "session.bonuses are score entries, but this ruleset keeps no score sheet "
                "(scoring.sheet: money): nobody would pay them", ("session", "bonuses"),
                hint="set scoring: {sheet: points}, or leave session.bonuses out"))
        columns: dict[str, Any] = s["columns"] if isinstance(s.get("columns"), dict) else {}
        column_ends = self.expr(("session", "columns", "ends_when"), BOOL, (), subject=False) if columns else None
        return SessionRules(s.get("hands"), int(big.get("last_hands", 0)), int(big.get("multiplier", 1)),
                            tuple(bets), ends_when, eliminate,
                            None if winner is None else winner == "lowest_total", bonuses,
                            int(columns.get("count", 0)) if column_ends is not None else 0, column_ends)

    def constructs(self) -> dict[str, Any]:
        """The sections of the keys the schema marks as a construct's (``x-construct``), by dotted
        path: each as written, with every field the schema marks ``x-expr`` compiled as it says
        (its type, the roles it may name, whether it is about a player; ``by`` and ``cases``: roles
        that depend on another field of the same entry). A list section gives a list of entries."""
        out: dict[str, Any] = {}
        for key, node in construct_schemas().items():
            path: Path = tuple(key.split("."))
            raw = self.get(path)
            if isinstance(raw, dict) and node.get("type") == "object":
                out[key] = self._construct_entry(path, raw, node)
            elif isinstance(raw, list) and node.get("type") == "array":
                out[key] = [self._construct_entry(path + (j,), item, node["items"])
                            for j, item in enumerate(raw) if isinstance(item, dict)]
            elif raw is not None and node.get("type") not in ("object", "array"):
                out[key] = raw  # a construct whose key is one value (the schema checked it)
            # absent (or another shape, which the schema reports)
        return out

    def _construct_entry(self, path: Path, raw: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
        entry = dict(raw)
        required = node.get("required", ())
        for name, field_node in node.get("properties", {}).items():
            spec = field_node.get("x-expr")
            if spec is None:
                continue
            case = spec.get("cases", {}).get(str(raw.get(spec["by"]))) or {} if "by" in spec else {}
            entry[name] = self.expr(path + (name,), _EXPR_TYPES[spec["type"]],
                                    tuple(case.get("roles", spec.get("roles", ("actor",)))),
                                    subject=spec.get("subject", True), required=name in required,
                                    card_sets=tuple(case.get("card_sets", spec.get("card_sets", ()))))
        return entry

    def build(self) -> Ruleset | None:
        d = self.data
        if self.get(("turn", "discard", "required")) is False:
            self.problems.append(self.doc.diagnostic(
                "not-supported-yet", "turns that end without a discard ('required: false') are not run by "
                "this version of the engine (see hits.ends_turn for a turn that ends after a hit)", ("turn", "discard", "required")))
        for kind in ("book", "run"):  # a size range that is empty: no such spread could ever be laid
            low, high = self.get(("melds", kind, "min")), self.get(("melds", kind, "max"))
            if isinstance(low, int) and isinstance(high, int) and low > high:
                self.problems.append(self.doc.diagnostic(
                    "melds-range", f"a {kind} is at least {low} and at most {high} cards: no {kind} can be made",
                    ("melds", kind, "min"), hint=f"make melds.{kind}.min at most melds.{kind}.max"))
        fewest, most = self.get(("players", "min")), self.get(("players", "max"))
        if isinstance(fewest, int) and isinstance(most, int) and fewest > most:
            self.problems.append(self.doc.diagnostic(
                "players-range", f"players.min ({fewest}) is above players.max ({most}): no table can play",
                ("players", "min"), hint="make players.min at most players.max"))
        self.check_seat_cards()
        self.check_sides()
        for key in ("pot", "side_pots"):
            if self.get((key,)) not in (None, []) and self.get(("scoring", "sheet")) == "points":
                self.problems.append(self.doc.diagnostic(
                    "pot-without-money", "a pot holds money, but scoring.sheet is points: no money changes hands, so "
                    "the antes would fill a pot that nothing pays out", (key,),
                    hint="keep the pot with scoring.sheet: money (or units), or leave the pot out"))
                break
        draw_from = self.get(("turn", "draw", "from")) or []
        if isinstance(draw_from, list) and draw_from and "stock" not in draw_from:
            self.problems.append(self.doc.diagnostic(
                "turn-may-cycle", "players never draw from the stock, so it never runs out and a hand could go "
                "round forever; add 'stock' to turn.draw.from", ("turn", "draw", "from")))
        act = ("actor",)
        deal_wins = []
        for i, rule in enumerate(self.get(("deal_wins", "rules"), []) or []):
            base = ("deal_wins", "rules", i)
            when = self.expr(base + ("when",), BOOL, act)
            # About the winner (actor) and each payer in turn: a payer holding the queen of spades
            # may pay double (outcome.deal_win_payments sets the payer).
            pays = self.expr(base + ("pays",), NUM, act + ("payer",))
            if pays is not None and "payer" in pays.names_used and rule.get("from") == "pot":
                self.problems.append(self.doc.diagnostic(
                    "payer-is-the-pot", "this automatic win is paid from the pot, so there is no payer for "
                    "'payer' to name", base + ("pays",), hint="leave 'payer' out, or let players pay it (from: others)"))
                pays = None
            # Who pays an automatic win: the others by default, a set of players, or the pot.
            payers = self._side(base + ("from",), act, ()) if "from" in rule else None
            claim = self.expr(base + ("claim",), BOOL, act, required=False)
            scores = self.scores(base + ("scores",), act)
            if when and pays:
                deal_wins.append(DealWin(rule["id"], when, pays, payers, int(rule.get("priority", 0)),
                                         rule.get("prefer"), rule.get("tie"), claim, scores))
        drop_allowed = self.expr(("turn", "drop", "allowed"), BOOL, act)
        eat_allowed = self.expr(("turn", "eat", "allowed"), BOOL, act, required=False)
        ante = self.expr(("pot", "ante"), NUM, (), subject=False, required=False)
        side_pots = self.side_pots()
        bonuses = []
        for j, b in enumerate(self.get(("bonuses",)) or []):
            # 'spread' is a spread only where there is one: the spread laid or hit, or for a
            # claim the spread the claimant laid last this turn (turn.py, _claimed_spread).
            reads_spread = isinstance(b, dict) and b.get("on") in SPREAD_EVENTS + ("claim",)
            t = self.transfer(("bonuses", j), ("actor", "owner"), card_sets=("spread",) if reads_spread else ())
            if t is not None and isinstance(b, dict):
                bonuses.append(Bonus(str(b.get("on")), t))
        most_lost = self.expr(("limits", "most_lost"), NUM, (), subject=False, required=False)
        most_won = self.expr(("limits", "most_won"), NUM, (), subject=False, required=False)
        first = self.get(("turn", "first_player"), "dealer_left")
        first_player = None if first == "dealer_left" else self.expr(("turn", "first_player"), PLAYERS, (),
                                                                       subject=False)
        extra_cards = []
        for j, e in enumerate(self.get(("deal", "extra_cards")) or []):
            to = self.expr(("deal", "extra_cards", j, "to"), PLAYERS, (), subject=False)
            if to is not None and isinstance(e, dict):
                extra_cards.append((to, int(e.get("cards", 0))))
        face_up = []
        for j, e in enumerate(self.get(("deal", "face_up")) or []):
            to = self.expr(("deal", "face_up", j, "to"), PLAYERS, (), subject=False)
            if to is not None and isinstance(e, dict):
                face_up.append((to, int(e.get("cards", 1))))
        next_dealers = []
        for j, e in enumerate(self.get(("deal", "next_dealer")) or []):
            who = self.expr(("deal", "next_dealer", j, "dealer"), PLAYERS, ("dropper",), subject=False,
                            card_sets=("winners",))
            if who is not None and isinstance(e, dict):
                next_dealers.append(NextDealer(frozenset(e.get("after") or ()), who))
        drop_wins_if = self.expr(("turn", "drop", "wins_if"), BOOL, act)
        claim_when = self.expr(("turn", "claim", "when"), BOOL, act, required=False)
        going_out = self.expr(("going_out", "allowed"), BOOL, act)
        hold_allowed = self.expr(("melds", "hold", "allowed"), BOOL, act, required=False)
        # About the hitter and the owner, and the cards: the spread as the hit leaves it, the cards hit.
        hit_allowed = self.expr(("hits", "allowed"), BOOL, ("actor", "owner"), required=False, card_sets=("spread", "hit"))
        hold_except = self.expr(("melds", "hold", "except"), BOOL, act, required=False, card_sets=("spread",))
        spread_allowed = self.expr(("turn", "spread", "allowed"), BOOL, act, required=False, card_sets=("spread",))
        must_take = self.expr(("turn", "draw", "must_take"), BOOL, act, required=False)
        counters = []
        for name, spec in (d.get("counters") or {}).items():
            events = []
            for j, ev in enumerate(spec.get("events", [])):
                when = self.expr(("counters", name, "events", j, "when"), BOOL, ("actor", "owner"),
                                 required=False, card_sets=("spread",) if ev.get("on") in SPREAD_EVENTS else ())
                events.append(CounterEvent(ev["on"], ev["target"], when, ev.get("add"), ev.get("set"),
                                           ev.get("once_per")))
            counters.append(Counter(name, int(spec.get("initial", 0)), spec.get("floor", 0), tuple(events)))
        endings: dict[str, Ending] = {}
        for kind in ENDINGS:
            spec = self.get(("endings", kind))
            if spec is None:
                continue
            roles: tuple[str, ...] = ("actor", "dropper") if kind.startswith("drop") else ("actor",)
            winners = self.expr(("endings", kind, "winners"), PLAYERS, roles, subject=False)
            void_if = self.expr(("endings", kind, "void_if"), BOOL, roles, subject=False, required=False)
            payouts = []
            for j in range(len(spec.get("payouts", []) or [])):
                t = self.transfer(("endings", kind, "payouts", j), roles)
                if t is not None:
                    payouts.append(t)
            scores = self.scores(("endings", kind, "scores"), roles)
            if winners is not None:
                endings[kind] = Ending(winners, void_if, tuple(payouts), scores)
        constructs = self.constructs()
        session = self.session_rules()
        packs = self.pack() if self.shape_checked else None
        if self.problems or packs is None or drop_allowed is None or drop_wins_if is None or going_out is None:
            return None
        melds, hits, turn, deal = d["melds"], d["hits"], d["turn"], d["deal"]
        decks = self.decks_table()
        players_min = d["players"]["min"]
        first = next((n for up_to, n in decks if players_min <= up_to), decks[-1][1])
        return Ruleset(
            name=d["name"], description=d.get("description", ""), source=self.doc.source_of(()).file,
            table_customs=tuple((str(c["id"]), str(c["text"])) for c in d.get("table_customs") or ()),
            players_min=players_min, players_max=d["players"]["max"], pack=packs[first],
            hand_size=deal["hand_size"], upcard=deal["upcard"],
            first_dealer=deal.get("first_dealer", "highest_cut"), rotation=deal.get("rotation", "left"),
            deal_wins=tuple(deal_wins),
            several_deal_wins=(d.get("deal_wins") or {}).get("several", "redeal"),
            deal_win_tie=(d.get("deal_wins") or {}).get("tie", "redeal"),
            book_min=melds["book"]["min"], book_max=melds["book"]["max"],
            run_min=melds["run"]["min"], run_max=melds["run"].get("max"),
            book_identical=bool(melds["book"].get("identical_cards", False)),
            wild_limits={kind: WildLimit(int(melds[kind].get("min_natural", melds.get("min_natural", 0))),
                                         melds[kind].get("max_wild", melds.get("max_wild")))
                         for kind in ("book", "run")},
            wild_in_melds=bool(melds.get("wild_cards", False)),
            jokers_in_melds=bool(melds.get("jokers_in_melds", False)),
            hold_allowed=hold_allowed, hold_except=hold_except,
            hit_books=hits["books"], hit_runs=hits["runs"], hit_spreads=hits["spreads"],
            hits_per_turn=hits.get("max_cards_per_turn"), hit_allowed=hit_allowed, spread_allowed=spread_allowed, must_take=must_take,
            hit_ends_turn=bool(hits.get("ends_turn", False)),
            drop_allowed=drop_allowed, drop_wins_if=drop_wins_if,
            drop_at=tuple(turn["drop"].get("at", ["start"])),
            drop_lays_spreads=bool(turn["drop"].get("lay_spreads", False)),
            first_player=first_player, first_turn_draws=turn.get("first_turn", "draw") == "draw",
            stock_rebuild=_rebuilds((d.get("stock") or {}).get("rebuild", 0)),
            stock_rebuild_whole=(d.get("stock") or {}).get("rebuild_takes") == "whole_pile",
            extra_cards=tuple(extra_cards), face_up=tuple(face_up), next_dealers=tuple(next_dealers),
            eat_allowed=eat_allowed, eat_spread_at_once=bool((turn.get("eat") or {}).get("spread_at_once", False)),
            ante=ante, side_pots=side_pots, bonuses=tuple(bonuses), most_lost=most_lost, most_won=most_won,
            draw_from=tuple(turn["draw"]["from"]),
            discard_must_be_used=bool(turn["draw"].get("discard_must_be_used", False)),
            discard_required=turn["discard"]["required"],
            not_the_card_taken=bool(turn["discard"].get("not_the_card_taken", False)),
            claim_when=claim_when, going_out_allowed=going_out,
            stock_exhausted=(d.get("stock") or {}).get("exhausted"),
            counters=tuple(counters), endings=endings, constructs=constructs,
            score_sheet=(d.get("scoring") or {}).get("sheet", "money"),
            lowest_score_wins=bool((d.get("scoring") or {}).get("lowest_wins", False)),
            session=session, data=d, decks=decks, packs=packs,
            side_size=(d["players"].get("sides") or {}).get("size"), drop_called=turn["drop"].get("called", "drop"),
        )

    def check_sides(self) -> None:
        """Every number of players the ruleset allows makes at least two whole sides."""
        size = self.get(("players", "sides", "size"))
        fewest, most = self.get(("players", "min")), self.get(("players", "max"))
        if not (isinstance(size, int) and isinstance(fewest, int) and isinstance(most, int)):
            return
        bad = [n for n in range(fewest, most + 1) if n % size or n < 2 * size]
        if bad:
            fits = [n for n in range(2 * size, 13, size)]
            self.problems.append(self.doc.diagnostic(
                "sides-players", f"{bad[0]} players cannot play in sides of {size}: every number of players "
                f"from players.min to players.max must make at least two whole sides", ("players", "sides", "size"),
                hint=f"play with {' or '.join(map(str, fits[:3]))} players (players.min and players.max)"
                if fits else "make the sides smaller"))


# The pot as one side of a transfer: a set holding the pot's seat number.
_POT_SIDE = Compiled("pot", PLAYERS, lambda ctx: (POT,))


def _pot_seat(seat: int) -> Any:
    """The 'set of players' a side pot stands for in a payment: its seat number alone."""
    return lambda ctx: (seat,)


# stock.rebuild: always: more rebuilds than any hand can make (the engine's turn cap ends a hand first).
REBUILD_ALWAYS = 1_000_000_000


def _rebuilds(value: Any) -> int:
    """stock.rebuild as a number of rebuilds a hand ('always': REBUILD_ALWAYS)."""
    return REBUILD_ALWAYS if value == "always" else int(value)


def build(doc: Doc, *, shape_checked: bool = True) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Compile ``doc``. With ``shape_checked=False`` (the schema found problems) the expressions
    are still compiled, so that the player sees every problem at once, but no ruleset is made."""
    if shape_checked:
        b = _Builder(doc)
        return b.build(), b.problems
    b = _Builder(doc, shape_checked=False)  # tolerates any shape: it only reads what it checks the type of
    try:
        b.build()
    except (KeyError, TypeError, AttributeError, ValueError, IndexError):
        pass  # a badly shaped file: the schema diagnostics already say what is wrong
    return None, [p for p in b.problems if p.code.startswith(("expr", "limit-expr"))]


@dataclass(frozen=True)
class Place:
    """Where an expression is written: the names it may use there (the very table its
    compilation checks them against) and the type it must have."""

    names: Names
    expect: Type
    # Names of the table the ruleset's own settings refuse here: 'upcard' with deal.upcard
    # false, the names of sides where the players play alone.
    refused: frozenset[str] = frozenset()


def expression_places(doc: Doc) -> dict[Path, Place]:
    """Every place of ``doc`` where an expression is or could be written (each place the ruleset
    compiles one from, written or not), by path in the merged data. The file need not be valid:
    what can be read is read (an editor asks while the file is being typed)."""
    b = _Builder(doc, shape_checked=False)
    try:
        b.build()
    except (KeyError, TypeError, AttributeError, ValueError, IndexError):
        pass  # a badly shaped file: the places read before the bad part are known
    return b.places


__all__ = ["Ruleset", "Place", "build", "expression_places"]
