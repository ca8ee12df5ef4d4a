"""What one player may see of a hand: bots and the terminal read views, never the state.

A view is made at every action, so it is a thin window: it keeps the state private and answers
only what the player may know (their own hand, the table, how many cards the others hold).
"""
from __future__ import annotations

from tonkdsl.cards import Pack
from tonkdsl.engine import State


class View:
    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def pack(self) -> Pack:
        return self._state.pack

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def hand(self) -> tuple[int, ...]:
        """The player's own cards (ids; ``hand_names`` gives their names)."""
        return tuple(self._state.hands[self.seat])

    @property
    def count(self) -> int:
        return self._state.count(self.seat)

    @property
    def hand_names(self) -> tuple[str, ...]:
        names = self._state.pack.names
        return tuple(names[c] for c in self._state.hands[self.seat])

    @property
    def top_discard(self) -> int | None:
        pile = self._state.discard_pile
        return pile[-1] if pile else None

    @property
    def top_discard_name(self) -> str | None:
        top = self.top_discard
        return self._state.pack.names[top] if top is not None else None

    @property
    def spreads(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(owner seat, card ids) of each spread on the table, numbered from 1."""
        return tuple((sp.owner, tuple(sp.cards)) for sp in self._state.spreads)

    @property
    def stock_size(self) -> int:
        return len(self._state.stock)

    @property
    def cards_held(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(h) for h in self._state.hands)

    @property
    def counters(self) -> dict[str, int]:
        return {k: v[self.seat] for k, v in self._state.counters.items()}

    @property
    def turn_number(self) -> int:
        return self._state.turn_number

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def stake(self) -> int:
        return self._state.stake


def observation(state: State, seat: int) -> View:
    return View(state, seat)
