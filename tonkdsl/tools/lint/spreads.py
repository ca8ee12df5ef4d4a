"""Every spread the melds can make, for the questions that read ``spread`` (a bonus on
spread_laid or spread_hit, melds.hold.except).

The spreads are listed, not reasoned about: candidate books (cards of one rank, wild cards
standing in) and runs (consecutive places of one suit, wild cards standing in) are built from the
pack, one card per name, and the engine's own ``is_book``/``is_run`` keeps those the meld rules
allow (sizes, decks, ``min_natural``, ``max_wild``, wild cards and jokers in melds). A part of an
expression that reads nothing but ``spread`` (``is_book(spread)``, ``count(spread) == 5``) is then
evaluated by the engine on every listed spread: the values it takes are exactly those a real
spread gives it, so a rule the melds can never meet (five of a kind from one deck, a bonus for a
run where runs are switched off) is proven impossible by construction, and a possible one comes
with its spread. A construct that reads the spread later is covered the same way, with no new
check. Where the candidates are too many to list (many wild cards in long runs), the question is
left undecided.
"""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement, product
from typing import Any, Iterator, Sequence

from tonkdsl.interpreter.engine import State
from tonkdsl.interpreter.melds import MeldRules, table_for
from tonkdsl.language.expr.compiler import EvalError, ExprError, compile_expr
from tonkdsl.language.names import EvalContext, make_names
from tonkdsl.language.ruleset import MAX_SEAT_CARDS, Ruleset

# The most candidate spreads listed for one table size: past it the questions are undecided.
MAX_CANDIDATES = 50_000


class TooManySpreads(Exception):
    """More candidates than MAX_CANDIDATES: the domain is not listed."""


class Spreads:
    """The spreads of a ruleset at each table size, listed once, and the values expressions
    take on them."""

    def __init__(self, rs: Ruleset, hit: bool = False, held: int = MAX_SEAT_CARDS + 1) -> None:
        self.rs = rs
        self.hit = hit  # the spread has just been hit: a kind hits allow, past its least size
        # A spread just laid came from one hand: it holds at most the cards a hand holds. A hit
        # spread grows on the table, up to what the meld rules allow.
        self.most = None if hit else held
        self.listed: dict[int, tuple[tuple[tuple[int, ...], ...], str] | None] = {}

    def spreads(self, n: int) -> tuple[tuple[tuple[int, ...], ...], str]:
        if n not in self.listed:
            try:
                self.listed[n] = _listed(self.rs, n, self.hit, self.most)
            except TooManySpreads:
                self.listed[n] = None  # remembered: the next question is undecided at once
        got = self.listed[n]
        if got is None:
            raise TooManySpreads(f"more than {MAX_CANDIDATES:,} candidate spreads")
        return got

    def profiles(self, n: int, terms: Sequence[str]) -> tuple[dict[tuple[Any, ...], tuple[int, ...]], str]:
        """The distinct values the ``terms`` take together on the spreads, each with one spread
        that gives them, and the words for a proof. A term the engine cannot evaluate on a
        spread makes the question undecided (TooManySpreads)."""
        spreads, words = self.spreads(n)
        names = make_names((), (), subject=False, card_sets=("spread",))
        try:
            compiled = [compile_expr(t, names) for t in terms]
        except ExprError:
            raise TooManySpreads(", ".join(terms)) from None
        ctx = EvalContext(State(self.rs, n, dealer=n - 1, stake=1))
        out: dict[tuple[Any, ...], tuple[int, ...]] = {}
        for spread in spreads:
            ctx.spread = spread
            try:
                key = tuple(c(ctx) for c in compiled)
            except EvalError:
                raise TooManySpreads(", ".join(terms)) from None
            out.setdefault(key, spread)
        return out, words

    def names(self, n: int, spread: Sequence[int]) -> list[str]:
        pack = self.rs.pack_for(n)
        return [pack.names[c] for c in spread]


def _listed(rs: Ruleset, n: int, hit: bool, most: int | None) -> tuple[tuple[tuple[int, ...], ...], str]:
    """Every spread the melds allow at a table of ``n`` players, one card per name; after a hit,
    those of a kind hits may extend, one card longer than the least at the least."""
    pack, melds = table_for(rs, n)
    books, runs = (rs.hit_books, rs.hit_runs) if hit else (True, True)
    got = []
    for seen, combo in enumerate(_candidates(pack, melds, most)):
        if seen >= MAX_CANDIDATES:
            raise TooManySpreads(f"more than {MAX_CANDIDATES:,} candidate spreads")
        if len(set(combo)) != len(combo):
            continue
        if (books and melds.is_book(combo) and (not hit or len(combo) > rs.book_min)) or \
                (runs and melds.is_run(combo) and (not hit or len(combo) > rs.run_min)):
            got.append(combo)
    return tuple(got), _words(rs, got, hit)


def _words(rs: Ruleset, spreads: Sequence[tuple[int, ...]], hit: bool) -> str:
    kinds = [k for k, on in (("book", rs.hit_books), ("run", rs.hit_runs)) if on]
    what = (f"a spread just hit is a {' or '.join(kinds) or 'spread no rule lets be hit'} longer than its least (hits: "
            f"books {str(rs.hit_books).lower()}, runs {str(rs.hit_runs).lower()})" if hit else
            f"a spread is one the meld rules allow (books of {rs.book_min} to {rs.book_max} cards, runs of "
            f"{rs.run_min} or more)")
    if not spreads:
        return what + ": there is none"
    sizes = sorted({len(s) for s in spreads})
    return f"{what}: {len(spreads):,} kinds, of {sizes[0]} to {sizes[-1]} cards"


def _candidates(pack: Any, melds: MeldRules, most: int | None) -> Iterator[tuple[int, ...]]:
    """Books and runs of at most ``most`` cards over one card id per name (identical cards of
    several decks as several ids of the same name, up to the copies the pack holds). Only as
    many wild cards as the meld rules let stand in are tried."""
    ids: dict[str, list[int]] = {}
    for c, name in enumerate(pack.names):
        ids.setdefault(name, []).append(c)
    wild_names = [nm for nm, cs in ids.items() if melds.wild[cs[0]]]
    wild_ids = [c for nm in wild_names for c in ids[nm]]
    book_max = min(melds.book_max, most or melds.book_max)
    run_max = min(melds.run_max, pack.run_length, most or melds.run_max)

    def wild_counts(size: int, kind: str) -> range:
        least, most = melds.wild_limits[kind]
        limit = min(len(wild_ids), size - max(1, least))
        return range(0, min(limit, most if most is not None else limit) + 1)
    # Books: every multiset of one rank's names (up to their copies), with wild cards added.
    by_rank: dict[str, list[str]] = {}
    for nm, cs in ids.items():
        if pack.suits[cs[0]] is not None and melds.meldable[cs[0]]:
            by_rank.setdefault(pack.ranks[cs[0]], []).append(nm)
    for names in by_rank.values():
        for counts in product(*(range(len(ids[nm]) + 1) for nm in names)):
            natural = [ids[nm][i] for nm, k in zip(names, counts) for i in range(k)]
            if not natural or len(natural) > book_max:
                continue
            for w in wild_counts(book_max, "book"):
                if len(natural) + w > book_max:
                    break
                for extra in _wilds(ids, wild_names, w):
                    size = len(natural) + w
                    if melds.book_min <= size:
                        yield tuple(natural) + extra
    # Runs: windows of consecutive places of one suit, any of their places held by a wild card.
    lanes: dict[str, dict[int, list[int]]] = {}
    for nm, cs in ids.items():
        c = cs[0]
        if pack.suits[c] is None or not melds.meldable[c]:
            continue
        for place in pack.run_places[c]:
            lanes.setdefault(pack.suits[c], {}).setdefault(place, []).append(c)
    length = pack.run_length
    for suit, places in lanes.items():
        starts = range(length) if pack.run_wraps else range(length - melds.run_min + 1)
        for start in starts:
            for size in range(melds.run_min, run_max + 1):
                window = [(start + i) % length for i in range(size)]
                if not pack.run_wraps and window[-1] < window[0]:
                    break
                for w in wild_counts(size, "run"):
                    for held_by_wild in combinations(range(size), w):
                        choices = [places.get(p, []) for i, p in enumerate(window) if i not in held_by_wild]
                        if any(not c for c in choices):
                            continue
                        for naturals in product(*choices):
                            for extra in _wilds(ids, wild_names, w):
                                yield tuple(naturals) + extra


def _wilds(ids: dict[str, list[int]], wild_names: list[str], w: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``w`` wild cards the pack holds, one tuple of ids each."""
    if w == 0:
        yield ()
        return
    for names in combinations_with_replacement(wild_names, w):
        taken: dict[str, int] = {}
        out = []
        for nm in names:
            k = taken.get(nm, 0)
            if k >= len(ids[nm]):
                break
            out.append(ids[nm][k])
            taken[nm] = k + 1
        else:
            yield tuple(out)
