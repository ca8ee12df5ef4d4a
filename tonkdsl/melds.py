"""Books and runs: checking a set of cards, and listing the spreads and hits a hand allows.

Works on card ids with the pack's tables; wild cards, a pack's own run order and runs that
turn the corner are handled generically.
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.ruleset import Ruleset

BOOK, RUN = "book", "run"


class MeldRules:
    """The meld settings of a ruleset with fast membership tables."""

    def __init__(self, rs: "Ruleset") -> None:
        pack = rs.pack
        self.pack = pack
        self.book_min, self.book_max = rs.book_min, rs.book_max
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

    def kind(self, cards: Sequence[int]) -> str | None:
        """``"book"``, ``"run"`` or ``None`` for these cards as one spread."""
        if self.is_book(cards):
            return BOOK
        if self.is_run(cards):
            return RUN
        return None

    def is_book(self, cards: Sequence[int]) -> bool:
        n = len(cards)
        if n < self.book_min or n > self.book_max:
            return False
        ranks = self.pack.ranks
        rank = None
        for c in cards:
            if not self.meldable[c]:
                return False
            if self.wild[c]:
                continue
            if rank is None:
                rank = ranks[c]
            elif ranks[c] != rank:
                return False
        return rank is not None

    def is_run(self, cards: Sequence[int]) -> bool:
        n = len(cards)
        if n < self.run_min or n > self.run_max:
            return False
        pack = self.pack
        suit = None
        positions = []
        for c in cards:
            if not self.meldable[c]:
                return False
            if self.wild[c]:
                continue
            pos = pack.run_index[c]
            if pos < 0:
                return False
            if suit is None:
                suit = pack.suits[c]
            elif pack.suits[c] != suit:
                return False
            positions.append(pos)
        if not positions:
            return False
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

    # --- enumeration -----------------------------------------------------------------------
    def spreads_in(self, hand: Sequence[int]) -> Iterator[tuple[int, ...]]:
        """Every set of cards of ``hand`` that makes a spread (each listed once, sorted)."""
        cards = [c for c in hand if self.meldable[c]]
        if len(cards) < self.min_size:
            return
        wilds = [c for c in cards if self.wild[c]]
        if not wilds and len(cards) <= 12:
            yield from self._spreads_natural(cards)
            return
        seen: set[tuple[int, ...]] = set()
        top = min(len(cards), max(self.book_max, self.run_max))
        for size in range(self.min_size, top + 1):
            for combo in combinations(sorted(cards), size):
                if combo not in seen and (self.is_book(combo) or self.is_run(combo)):
                    seen.add(combo)
                    yield combo

    def _spreads_natural(self, cards: list[int]) -> Iterator[tuple[int, ...]]:
        pack = self.pack
        by_rank: dict[str, list[int]] = {}
        by_suit: dict[str | None, list[int]] = {}
        for c in sorted(cards):
            by_rank.setdefault(pack.ranks[c], []).append(c)
            by_suit.setdefault(pack.suits[c], []).append(c)
        for group in by_rank.values():
            for size in range(self.book_min, min(len(group), self.book_max) + 1):
                yield from combinations(group, size)
        for group in by_suit.values():
            if len(group) < self.run_min:
                continue
            for size in range(self.run_min, min(len(group), self.run_max) + 1):
                for combo in combinations(group, size):
                    if self.is_run(combo) and not self.is_book(combo):
                        yield combo

    def hits_on(self, spread: Sequence[int], kind: str, hand: Iterable[int], limit: int) -> Iterator[tuple[int, ...]]:
        """Every set of at most ``limit`` hand cards that keeps ``spread`` a spread of ``kind``."""
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
                if check(base + list(combo)):
                    yield combo
