"""The mutable records of a hand in progress: each player's tallies and the spreads on the table.

A module of their own so that mypyc compiles them with the interpreter (setup.py): a search clones
the state of a hand for every world it plays, each clone copying every player's tallies and every
spread. Each class writes its own ``__init__``, the fields in the dataclass's order with its
defaults: compiled, that is a native store (a copy of the tallies in 35 ns, against 167 ns when
they were plain Python; the ``__init__`` that dataclasses writes stays interpreted even in a
compiled module); the dataclass still gives them their equality and repr.
tests/test_outcome_init.py checks each ``__init__`` against its fields.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


def by_fields(obj: Any) -> tuple[Any, ...]:
    """``__reduce__`` for the records that write their own ``__init__`` (here, outcome.py,
    session.py): rebuilt from their fields in order. Compiled, a class with an ``__init__`` of
    its own is otherwise copied and pickled by calling it with no arguments, which fails."""
    return (type(obj), tuple([getattr(obj, f.name) for f in fields(obj)]))


@dataclass(slots=True)
class PlayerStats:
    dealt_count: int = 0
    spreads: int = 0
    spreads_this_turn: int = 0
    hits: int = 0
    turns: int = 0
    out_by_spread: bool = False

    def __init__(self, dealt_count: int = 0, spreads: int = 0, spreads_this_turn: int = 0, hits: int = 0,
                 turns: int = 0, out_by_spread: bool = False) -> None:
        self.dealt_count = dealt_count
        self.spreads = spreads
        self.spreads_this_turn = spreads_this_turn
        self.hits = hits
        self.turns = turns
        self.out_by_spread = out_by_spread

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def copy(self) -> "PlayerStats":  # field by field: copy.copy takes three times as long
        return PlayerStats(self.dealt_count, self.spreads, self.spreads_this_turn, self.hits, self.turns,
                           self.out_by_spread)


@dataclass(slots=True)
class TableSpread:
    owner: int
    kind: str
    cards: list[int]
    # The cards that fit this spread alone (MeldRules.accepts), once asked; None again
    # whenever ``cards`` changes.
    fits: int | None = field(default=None, compare=False, repr=False)

    def __init__(self, owner: int, kind: str, cards: list[int], fits: int | None = None) -> None:
        self.owner = owner
        self.kind = kind
        self.cards = cards
        self.fits = fits

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)
