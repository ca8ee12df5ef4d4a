"""Card notation (``10S``, ``QH``, ``JK``) and packs built from a ruleset's deck section.

Inside the engine a card is an ``int``: its index in the :class:`Pack`. The pack knows each
card's rank, suit, value and place in the run order, as tuples indexed by card id, so the hot
path never builds objects.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

RANKS_STANDARD = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS_STANDARD = ("C", "D", "H", "S")
JOKER = "JK"
# The most cards a pack may hold: four decks of 52 and 8 jokers each (the schema's limits on
# pack.decks and pack.jokers). Pack.build checks it again so that nothing huge is ever built.
MAX_PACK_CARDS = 4 * (52 + 8)
_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class CardSyntaxError(ValueError):
    """A card written in a way the notation does not allow."""


def parse_card(text: str) -> tuple[str, str | None]:
    """Parse card notation into ``(rank, suit)``; a joker is ``("JK", None)``.

    >>> parse_card("10s"), parse_card("T♥"), parse_card("jk")
    (('10', 'S'), ('10', 'H'), ('JK', None))
    """
    raw = text.strip()
    t = raw.upper()
    if t == JOKER:
        return JOKER, None
    if len(t) < 2:
        raise CardSyntaxError(f"'{raw}' is not a card (write rank then suit, e.g. 10S, QH, AC, JK)")
    rank, suit = t[:-1], t[-1]
    suit = _SUIT_SYMBOLS.get(raw[-1], suit)
    if rank == "T":
        rank = "10"
    if rank not in RANKS_STANDARD:
        raise CardSyntaxError(
            f"'{raw}' is not a card: unknown rank '{rank}' (ranks are A 2-10 J Q K, T for 10)"
        )
    if suit not in SUITS_STANDARD:
        raise CardSyntaxError(f"'{raw}' is not a card: unknown suit '{suit}' (suits are C D H S)")
    return rank, suit


def format_card(rank: str, suit: str | None) -> str:
    return JOKER if suit is None else f"{rank}{suit}"


@dataclass(frozen=True)
class Pack:
    """The cards of one ruleset, each with its value and its place in the run order.

    ``run_index[c]`` is the (first) position of the card's rank in the run order, or -1 when
    the rank never takes part in a run (a joker); ``run_places[c]`` lists every position (a
    rank written at both ends of the run order, such as an ace high or low, has two).
    ``wild[c]`` tells whether the card is wild in melds. ``values[c]`` is what the card counts
    at the least; ``options[c]`` every value the holder may choose for it (one value for most
    cards). Several decks shuffled together repeat every card ``decks`` times: identical cards
    have the same name and attributes, only their ids differ.
    """

    ranks: tuple[str, ...]
    suits: tuple[str | None, ...]
    values: tuple[int, ...]
    run_index: tuple[int, ...]
    wild: tuple[bool, ...]
    run_length: int
    run_wraps: bool
    options: tuple[tuple[int, ...], ...] = ()
    run_places: tuple[tuple[int, ...], ...] = ()
    decks: int = 1
    names: tuple[str, ...] = field(init=False)
    has_choices: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "names", tuple(format_card(r, s) for r, s in zip(self.ranks, self.suits))
        )
        if not self.options:
            object.__setattr__(self, "options", tuple((v,) for v in self.values))
        if not self.run_places:
            object.__setattr__(self, "run_places", tuple((p,) if p >= 0 else () for p in self.run_index))
        object.__setattr__(self, "has_choices", any(len(o) > 1 for o in self.options))

    @classmethod
    def build(
        cls,
        ranks: Sequence[str],
        suits: Sequence[str],
        jokers: int,
        values: Mapping[str, int | Sequence[int]],
        run_order: Sequence[str],
        wild: Iterable[str],
        wraps: bool = False,
        decks: int = 1,
        wild_value: int | Sequence[int] | None = None,
    ) -> "Pack":
        """Build a pack. ``values`` maps a rank or a card (``QS``, ``JK``) to its value or to
        the values the holder chooses from; a card's own entry comes before its rank's.
        ``wild_value`` (when given) is what every wild card counts instead."""
        size = decks * (len(suits) * len(ranks) + jokers)
        if size > MAX_PACK_CARDS:  # the schema's limits allow no more; a second guard before building
            raise ValueError(f"a pack of {size:,} cards is more than {MAX_PACK_CARDS} (MAX_PACK_CARDS)")
        wild_set = set(wild)
        card_ranks: list[str] = []
        card_suits: list[str | None] = []
        for _ in range(decks):
            for suit in suits:
                for rank in ranks:
                    card_ranks.append(rank)
                    card_suits.append(suit)
            for _ in range(jokers):
                card_ranks.append(JOKER)
                card_suits.append(None)
        places: dict[str, list[int]] = {}
        for i, r in enumerate(run_order):
            places.setdefault(r, []).append(i)
        is_wild = tuple(r in wild_set or format_card(r, s) in wild_set for r, s in zip(card_ranks, card_suits))

        def options(rank: str, suit: str | None, wild_card: bool) -> tuple[int, ...]:
            raw: int | Sequence[int]
            if wild_card and wild_value is not None:
                raw = wild_value
            else:
                raw = values.get(format_card(rank, suit), values[rank])
            if isinstance(raw, int):
                return (raw,)
            return tuple(sorted(set(raw)))

        opts = tuple(options(r, s, w) for r, s, w in zip(card_ranks, card_suits, is_wild))
        return cls(
            ranks=tuple(card_ranks),
            suits=tuple(card_suits),
            values=tuple(o[0] for o in opts),
            run_index=tuple(places[r][0] if r in places else -1 for r in card_ranks),
            wild=is_wild,
            run_length=len(run_order),
            run_wraps=wraps,
            options=opts,
            run_places=tuple(tuple(places.get(r, ())) for r in card_ranks),
            decks=decks,
        )

    def copies(self, name: str) -> int:
        """How many cards of the pack are written ``name``."""
        return self.names.count(name)

    def totals(self, cards: Iterable[int]) -> tuple[int, ...]:
        """Every count ``cards`` can make, lowest first: one total unless some card's value is
        the holder's choice (an ace counting 1 or 11)."""
        values, options = self.values, self.options
        if not self.has_choices:
            return (sum(values[c] for c in cards),)
        sums = {0}
        for c in cards:
            opts = options[c]
            sums = {t + o for t in sums for o in opts} if len(opts) > 1 else {t + opts[0] for t in sums}
        return tuple(sorted(sums))

    def __len__(self) -> int:
        return len(self.ranks)

    def name(self, card: int) -> str:
        return self.names[card]

    def find(self, text: str, taken: Iterable[int] = ()) -> int:
        """The id of the card written ``text``, skipping ids in ``taken`` (for jokers).

        Raises ``CardSyntaxError`` for bad notation and ``KeyError`` when the pack has no such
        card (or every copy is already taken).
        """
        rank, suit = parse_card(text)
        name = format_card(rank, suit)
        used = set(taken)
        for cid, n in enumerate(self.names):
            if n == name and cid not in used:
                return cid
        raise KeyError(name)

    def hand_value(self, cards: Iterable[int]) -> int:
        values = self.values
        return sum(values[c] for c in cards)
