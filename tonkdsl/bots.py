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
    first = {type(a): a for a in reversed(legal)}  # the first action of each kind
    if A.Claim in first:
        return first[A.Claim]
    if A.Drop in first and view.count <= drop_at:
        return first[A.Drop]
    if A.DrawStock in first:
        return first[A.DrawStock]
    if A.DrawDiscard in first:
        return first[A.DrawDiscard]
    if A.Spread in first:
        return max((a for a in legal if type(a) is A.Spread), key=_size)
    if A.Hit in first:
        return max((a for a in legal if type(a) is A.Hit), key=_size)
    if A.Discard in first:
        discards: list[A.Discard] = [a for a in legal if type(a) is A.Discard]  # type: ignore[misc]
        return discards[_discard_choice(view, [d.card for d in discards])]
    return legal[0]


def _size(action: A.Spread | A.Hit) -> int:
    return len(action.cards)


def _discard_choice(view: View, names: list[str]) -> int:
    """Index in ``names`` of the card to discard: lonely before kept, then the highest value."""
    pack = view.pack
    hand = view.hand
    by_name = {pack.names[c]: c for c in hand}
    near = view.meld_rules.near(2)
    values = pack.values
    best, best_key = 0, (-1, -1)
    for i, name in enumerate(names):
        c = by_name[name]
        key = (1 if near[c].isdisjoint(hand) else 0, values[c])
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
