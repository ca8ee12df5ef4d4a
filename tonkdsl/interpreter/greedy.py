"""The greedy player: the interpreter's own policy, ``greedy_bot(view, legal, rng)``.

It plays every simulation's greedy seats (``tonk simulate``'s default bots), and the model
players of the search bots' rollouts and judgements (tonkdsl/tools/bots.py and strong.py name
it as the ``greedy`` bot). It lives here rather than with the other bots so that it is compiled
with the interpreter (setup.py): it is asked at every decision of those hands, and compiled it
makes a simulation of ``standard`` about 11% faster (benchmarks/bench_simulate.py). It reads only
what a player sees (the view) and the legal actions, as every bot does.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Final, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.grouping import grouped as _grouped
from tonkdsl.interpreter.melds import MeldRules
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng

# Module names for the action kinds: the greedy bot looks them up at every decision (Final:
# compiled, they are read from C variables rather than looked up in the module's dict).
_ACTION_LIST: Final = A.ActionList
_CLAIM: Final = A.Claim
_DROP: Final = A.Drop
_DRAW_STOCK: Final = A.DrawStock
_DRAW_DISCARD: Final = A.DrawDiscard
_PLAYS: Final = (A.Spread, A.Hit)
_DISCARD: Final = A.Discard
_EAT: Final = A.Eat
_PASS: Final = A.Pass
_FOLD: Final = A.Fold
_CARDS: Final = attrgetter("cards")


DROP_AT: Final = 10  # the greedy bot drops (or claims) with a count of this or less


def greedy_bot(view: View, legal: Sequence[A.Action], rng: Rng, drop_at: int = DROP_AT) -> A.Action:
    """Claims or drops when its count is low, lays the biggest spread, hits, discards high.

    The discard is the highest-valued card that is not part of a pair or of a near-run (same
    suit, within two places in the run order), else the highest-valued card; the first of
    equals."""
    grouped = legal if type(legal) is _ACTION_LIST else _grouped(legal)
    spans = grouped.spans
    if len(spans) > 1 or _DISCARD not in spans:  # anything but the most common choice, discards only
        if _CLAIM in spans:
            return grouped[spans[_CLAIM][0]]
        if _EAT in spans:  # eat the discard out of turn only when it completes a spread
            return grouped[spans[_EAT][0] if completes_spread(view) else spans[_PASS][0]]
        if _DROP in spans and view.count <= _knock_at(view, drop_at):
            return grouped[spans[_DROP][0]]
        if _DRAW_STOCK in spans:
            return grouped[spans[_DRAW_STOCK][0]]
        if _DRAW_DISCARD in spans:
            return grouped[spans[_DRAW_DISCARD][0]]
        for kind in _PLAYS:  # the spread, else the hit, that plays the most cards (the first of equals)
            if kind in spans:
                lo, hi = spans[kind]
                sizes = list(map(len, map(_CARDS, grouped[lo:hi])))
                return grouped[lo + sizes.index(max(sizes))]
        if _DISCARD not in spans:
            # Asked out of turn (last: the questions above are the common ones): fold a hand
            # too heavy to play, else pass.
            if _FOLD in spans and view.count > _FOLD_PER_CARD * len(view.hand):
                return grouped[spans[_FOLD][0]]
            if _PASS in spans:
                return grouped[spans[_PASS][0]]
            return grouped[0]
    lo, hi = spans[_DISCARD]
    cards = grouped.discard_cards or _card_ids(view, grouped[lo:hi])
    held = view.hand_mask
    melds = view.meld_rules
    near = _NEAR.get(melds) or _near(melds)
    values = melds.value  # the pack's values, read from a compiled object (the Pack is plain)
    best, best_value = -1, -1 << 62
    for c in cards:
        if values[c] > best_value and not near[c] & held:
            best, best_value = c, values[c]
    if best < 0:
        held_values = [values[c] for c in cards]
        return grouped[lo + held_values.index(max(held_values))]
    return grouped[lo + cards.index(best)]


# Where no spread can ever be laid in play (a knock-only game: turn.spread.allowed written as
# false), hands never shrink and a count of DROP_AT is almost never reached: with it the greedy
# bot never knocked, and every hand of a seven-card knock game ran the stock out. There it knocks
# when its count is at most 1/KNOCK_SHARE of what the lightest other hand would count if its
# cards were of the pack's mean value. On that game (300 seeded hands, three players) 145 of its
# 147 knocks won; at a third, 29 knocks all won and 70% of the hands still ran the stock out. The
# shipped rulesets all let spreads be laid: their hands are played as before.
KNOCK_SHARE: Final = 2
_KNOCK_ONLY: dict[MeldRules, tuple[bool, float]] = {}


def _knock_at(view: View, drop_at: int) -> int:
    melds = view.meld_rules
    known = _KNOCK_ONLY.get(melds)
    if known is None:
        allowed = view.ruleset.spread_allowed
        values = view.pack.values
        known = _KNOCK_ONLY[melds] = (allowed is not None and allowed.constant is False,
                                      sum(values) / max(len(values), 1))
    if not known[0]:
        return drop_at
    held = view.cards_held
    lightest = min((held[s] for s in range(len(held)) if s != view.seat and held[s]), default=0)
    return max(drop_at, int(lightest * known[1]) // KNOCK_SHARE)


# The greedy bot folds (where a ruleset lets players sit a hand out) a hand that counts more
# than this per card: a hand of high cards with no spread in sight.
_FOLD_PER_CARD = 8

# The greedy bot's sense of a partial spread, per ruleset (MeldRules.near with reach 2).
_NEAR: dict[MeldRules, tuple[int, ...]] = {}


def _near(melds: MeldRules) -> tuple[int, ...]:
    got = _NEAR[melds] = melds.near(2)
    return got


def _card_ids(view: View, discards: Sequence[A.Action]) -> list[int]:
    by_name = {view.pack.names[c]: c for c in view.hand}
    return [by_name[d.card] for d in discards]  # type: ignore[attr-defined]  # discards only


# The strong bot's habit (habit_bot): a card in a partial spread counts this much less when it
# chooses its discard, and it takes a top discard worth this much or less from the pile.
KEEP_BONUS: Final = 3
TAKE_AT: Final = 4


def habit_bot(view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
    """The strong bot's habit, and its own seat's model in its rollouts: the greedy player with
    two changes for hands that end early. Against players who drop as soon as a drop pays (as
    montecarlo does), the two make a better player in every ruleset measured (six); against the
    greedy player, who waits, they are worth about nothing (docs/strong-bot.md, "A better habit").

    * Its discard is the card worth the most less ``KEEP_BONUS`` when the card is part of a
      partial spread (the first of equals), where the greedy player never breaks a partial spread
      while it holds a loose card: it lets a king of a pair go before a loose four.
    * At the draw, it takes the top discard when that card is worth ``TAKE_AT`` or less and it
      holds a card worth more (the greedy player takes from the stock).

    Everything else (claims, drops, eating, spreads and hits, folds) is the greedy player's."""
    grouped = legal if type(legal) is _ACTION_LIST else _grouped(legal)
    spans = grouped.spans
    if len(spans) == 1 and _DISCARD in spans:
        lo, hi = spans[_DISCARD]
        cards = grouped.discard_cards or _card_ids(view, grouped[lo:hi])
        held = view.hand_mask
        melds = view.meld_rules
        near = _NEAR.get(melds) or _near(melds)
        values = melds.value
        best, best_score = 0, -1 << 62
        for i in range(len(cards)):
            c = cards[i]
            score = values[c] - KEEP_BONUS if near[c] & held else values[c]
            if score > best_score:
                best, best_score = i, score
        return grouped[lo + best]
    if _DRAW_DISCARD in spans and _DROP not in spans and _CLAIM not in spans:
        top = view.top_discard
        if top is not None:
            values = view.meld_rules.value
            worth = values[top]
            if worth <= TAKE_AT:
                for c in view.hand:
                    if values[c] > worth:
                        return grouped[spans[_DRAW_DISCARD][0]]
    return greedy_bot(view, grouped, rng)


def completes_spread(view: View) -> bool:
    world_melds = view.meld_rules
    top = view.top_discard
    assert top is not None
    return any(top in combo for combo in world_melds.spreads_in(list(view.hand) + [top]))
