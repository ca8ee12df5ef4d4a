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
    hand = view.hand
    by_name = {pack.names[c]: c for c in hand}
    ranks, suits, order, values = pack.ranks, pack.suits, pack.run_index, pack.values
    rank_n: dict[str, int] = {}
    places = set()  # (suit, place in the run order) of each card held
    for d in hand:
        rank_n[ranks[d]] = rank_n.get(ranks[d], 0) + 1
        places.add((suits[d], order[d]))
    best, best_key = 0, (-1, -1)
    for i, name in enumerate(names):
        c = by_name[name]
        lonely = rank_n[ranks[c]] == 1
        if lonely and suits[c] is not None:
            s, o = suits[c], order[c]
            lonely = not ((s, o - 1) in places or (s, o + 1) in places or (s, o - 2) in places
                          or (s, o + 2) in places)
        key = (1 if lonely else 0, values[c])
        if key > best_key:
            best, best_key = i, key
    return best


BOTS: dict[str, Policy] = {"random": random_bot, "greedy": greedy_bot}


def make_montecarlo_bot(samples: int = 24, margin: float = 0.0) -> Policy:
    """A bot that decides when to drop by determinized Monte-Carlo over the unseen cards.

    When a drop is legal, it deals the unseen cards at random to the other hands many times,
    drops in each of those worlds under the ruleset's own payout rules, and drops when the
    average gain beats ``margin`` (in stakes). It also takes the top discard when that card
    completes a spread. Otherwise it plays like the greedy bot.
    """

    def choose(view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        kinds = {type(a): a for a in legal}
        if A.Claim in kinds:
            return kinds[A.Claim]
        if A.Drop in kinds and _drop_value(view, rng, samples) > margin * view.stake:
            return kinds[A.Drop]
        if A.DrawDiscard in kinds and view.top_discard is not None and _completes_spread(view):
            return kinds[A.DrawDiscard]
        return greedy_bot(view, [a for a in legal if type(a) is not A.Drop], rng)

    return choose


def _drop_value(view: View, rng: Rng, samples: int) -> float:
    total = 0
    for _ in range(samples):
        world = view.determinize(rng)
        world.apply(A.Drop())
        out = world.outcome()
        if out is not None:
            total += out.payouts[view.seat]
    return total / samples


def _completes_spread(view: View) -> bool:
    world_melds = view.meld_rules
    top = view.top_discard
    assert top is not None
    return any(top in combo for combo in world_melds.spreads_in(list(view.hand) + [top]))


BOTS["montecarlo"] = make_montecarlo_bot()
