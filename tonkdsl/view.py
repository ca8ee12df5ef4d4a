"""What one player may see of a hand: bots and the terminal read views, never the state."""
from __future__ import annotations

from dataclasses import dataclass

from tonkdsl.engine import State


@dataclass(frozen=True)
class View:
    seat: int
    phase: str
    hand: tuple[str, ...]
    hand_values: tuple[int, ...]
    count: int
    top_discard: str | None
    spreads: tuple[tuple[int, tuple[str, ...]], ...]  # (owner seat, cards), numbered from 1
    stock_size: int
    cards_held: tuple[int, ...]  # how many cards each seat holds
    counters: dict[str, int]
    turn_number: int


def observation(state: State, seat: int) -> View:
    names, values = state.pack.names, state.pack.values
    hand = state.hands[seat]
    top = state.top_discard()
    return View(
        seat=seat,
        phase=state.phase,
        hand=tuple(names[c] for c in hand),
        hand_values=tuple(values[c] for c in hand),
        count=state.count(seat),
        top_discard=names[top] if top is not None else None,
        spreads=tuple((sp.owner, tuple(names[c] for c in sp.cards)) for sp in state.spreads),
        stock_size=len(state.stock),
        cards_held=tuple(len(h) for h in state.hands),
        counters={k: v[seat] for k, v in state.counters.items()},
        turn_number=state.turn_number,
    )
