"""Bots are policies: ``choose(view, legal_actions, rng) -> action``."""
from __future__ import annotations

from typing import Callable, Sequence

from tonkdsl import actions as A
from tonkdsl.cards import parse_card
from tonkdsl.rng import Rng
from tonkdsl.view import View

Policy = Callable[[View, Sequence[A.Action], Rng], A.Action]


def random_bot(view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
    """Any legal action, uniformly."""
    return rng.choice(legal)


def _partial_meld(card: str, others: Sequence[str]) -> bool:
    rank, suit = parse_card(card)
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for o in others:
        r2, s2 = parse_card(o)
        if r2 == rank:
            return True
        if suit is not None and s2 == suit and rank in order and r2 in order \
                and abs(order.index(r2) - order.index(rank)) <= 2:
            return True
    return False


def greedy_bot(view: View, legal: Sequence[A.Action], rng: Rng, drop_at: int = 10) -> A.Action:
    """Claims or drops when its count is low, lays the biggest spread, hits, discards high."""
    by_type: dict[type, list[A.Action]] = {}
    for a in legal:
        by_type.setdefault(type(a), []).append(a)
    if A.Claim in by_type:
        return by_type[A.Claim][0]
    if A.Drop in by_type and view.count <= drop_at:
        return by_type[A.Drop][0]
    if A.DrawStock in by_type:
        return by_type[A.DrawStock][0]
    if A.DrawDiscard in by_type:
        return by_type[A.DrawDiscard][0]
    spreads = [a for a in by_type.get(A.Spread, []) if isinstance(a, A.Spread)]
    if spreads:
        return max(spreads, key=lambda a: len(a.cards))
    hits = [a for a in by_type.get(A.Hit, []) if isinstance(a, A.Hit)]
    if hits:
        return max(hits, key=lambda a: len(a.cards))
    discards = [a for a in by_type.get(A.Discard, []) if isinstance(a, A.Discard)]
    if discards:
        value = dict(zip(view.hand, view.hand_values))

        def score(a: A.Discard) -> tuple[int, int]:
            rest = [c for c in view.hand if c != a.card]
            return (0 if _partial_meld(a.card, rest) else 1, value.get(a.card, 0))
        return max(discards, key=score)
    return legal[0]


BOTS: dict[str, Policy] = {"random": random_bot, "greedy": greedy_bot}
