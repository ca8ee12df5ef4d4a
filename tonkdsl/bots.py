"""Bots are policies: ``choose(view, legal_actions, rng) -> action``."""
from __future__ import annotations

from typing import Callable, Sequence

from tonkdsl import actions as A
from tonkdsl.rng import Rng
from tonkdsl.view import View

Policy = Callable[[View, Sequence[A.Action], Rng], A.Action]


def random_bot(view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
    """Any legal action, uniformly."""
    return rng.choice(legal)


def greedy_bot(view: View, legal: Sequence[A.Action], rng: Rng, drop_at: int = 10) -> A.Action:
    """Claims or drops when its count is low, lays the biggest spread, hits, discards high.

    The discard is the highest card that is not part of a pair or of a near-run (same suit,
    within two places in the run order)."""
    first: dict[type, A.Action] = {}
    spreads: list[A.Spread] = []
    hits: list[A.Hit] = []
    discards: list[A.Discard] = []
    for a in legal:
        kind = type(a)
        if kind is A.Discard:
            discards.append(a)  # type: ignore[arg-type]
        elif kind is A.Spread:
            spreads.append(a)  # type: ignore[arg-type]
        elif kind is A.Hit:
            hits.append(a)  # type: ignore[arg-type]
        elif kind not in first:
            first[kind] = a
    if A.Claim in first:
        return first[A.Claim]
    if A.Drop in first and view.count <= drop_at:
        return first[A.Drop]
    if A.DrawStock in first:
        return first[A.DrawStock]
    if A.DrawDiscard in first:
        return first[A.DrawDiscard]
    if spreads:
        return max(spreads, key=lambda a: len(a.cards))
    if hits:
        return max(hits, key=lambda a: len(a.cards))
    if discards:
        return discards[_discard_choice(view, [d.card for d in discards])]
    return legal[0]


def _discard_choice(view: View, names: list[str]) -> int:
    pack = view.pack
    by_name = {pack.names[c]: c for c in view.hand}
    hand = view.hand
    ranks, suits, order, values = pack.ranks, pack.suits, pack.run_index, pack.values
    best, best_key = 0, (-1, -1)
    for i, name in enumerate(names):
        c = by_name[name]
        lonely = 1
        for d in hand:
            if d != c and (ranks[d] == ranks[c] or (suits[d] == suits[c] and suits[c] is not None
                                                      and abs(order[d] - order[c]) <= 2)):
                lonely = 0
                break
        key = (lonely, values[c])
        if key > best_key:
            best, best_key = i, key
    return best


BOTS: dict[str, Policy] = {"random": random_bot, "greedy": greedy_bot}
