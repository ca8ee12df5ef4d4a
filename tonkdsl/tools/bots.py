"""Bots are policies: ``choose(view, legal_actions, rng) -> action``."""
from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import Callable, Iterator, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.melds import MeldRules
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View, play_out
from tonkdsl.language.rng import Rng

Policy = Callable[[View, Sequence[A.Action], Rng], A.Action]


def random_bot(view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
    """Any legal action, uniformly."""
    return rng.choice(legal)


# Module names for the action kinds: the greedy bot looks them up at every decision.
_ACTION_LIST, _CLAIM, _DROP, _DRAW_STOCK, _DRAW_DISCARD = A.ActionList, A.Claim, A.Drop, A.DrawStock, A.DrawDiscard
_PLAYS, _DISCARD = (A.Spread, A.Hit), A.Discard
_EAT, _PASS, _FOLD = A.Eat, A.Pass, A.Fold
_CARDS = attrgetter("cards")


def greedy_bot(view: View, legal: Sequence[A.Action], rng: Rng, drop_at: int = 10) -> A.Action:
    """Claims or drops when its count is low, lays the biggest spread, hits, discards high.

    The discard is the highest-valued card that is not part of a pair or of a near-run (same
    suit, within two places in the run order), else the highest-valued card; the first of
    equals."""
    grouped = legal if type(legal) is _ACTION_LIST else _ACTION_LIST.grouped(legal)
    spans = grouped.spans
    if len(spans) > 1 or _DISCARD not in spans:  # anything but the most common choice, discards only
        if _CLAIM in spans:
            return grouped[spans[_CLAIM][0]]
        if _EAT in spans:  # eat the discard out of turn only when it completes a spread
            return grouped[spans[_EAT][0] if completes_spread(view) else spans[_PASS][0]]
        if _DROP in spans and view.count <= drop_at:
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
    near = _NEAR.get(view.meld_rules) or _near(view.meld_rules)
    values = view.pack.values
    best, best_value = -1, -1 << 62
    for c in cards:
        if values[c] > best_value and not near[c] & held:
            best, best_value = c, values[c]
    if best < 0:
        held_values = [values[c] for c in cards]
        return grouped[lo + held_values.index(max(held_values))]
    return grouped[lo + cards.index(best)]


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


BOTS: dict[str, Policy] = {"random": random_bot, "greedy": greedy_bot}


def make_montecarlo_bot(samples: int = 24, margin: float = 0.0) -> Policy:
    """A bot that decides when to drop by determinized Monte-Carlo over the unseen cards.

    When a drop is legal, it deals the unseen cards at random to the other hands many times,
    drops in each of those worlds under the ruleset's own payout rules (where a discard or a last
    round follows the drop, greedy players play the world to its end), and drops when the
    average gain beats ``margin`` (in stakes; on a score sheet the gain is the score against the
    others' average, :func:`hand_value`). It also takes the top discard when that card
    completes a spread. Otherwise it plays like the greedy bot.
    """

    def choose(view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        kinds = {type(a): a for a in legal}
        if A.Claim in kinds:
            return kinds[A.Claim]
        if A.Drop in kinds and drop_value(view, rng, samples, play_on=True) > margin * view.stake:
            return kinds[A.Drop]
        if A.DrawDiscard in kinds and view.top_discard is not None and completes_spread(view):
            return kinds[A.DrawDiscard]
        grouped = legal if type(legal) is A.ActionList else A.ActionList.grouped(legal)
        return greedy_bot(view, grouped.without(A.Drop), rng)

    return choose


def drop_value(view: View, rng: Rng, samples: int, play_on: bool = False) -> float:
    """What a drop now is worth on average over ``samples`` worlds dealt from the view
    (:func:`hand_value`: money, or points on a score sheet). A drop that does not end the hand
    at once (a discard or a last round follows it) counts for nothing, unless ``play_on``: then
    greedy players play each world to its end after the drop."""
    rs = view.ruleset
    points, lowest_wins = rs.score_sheet == "points", rs.lowest_score_wins
    return sum(hand_value(out, view.seat, points, lowest_wins, view.sides)
               for out in drop_outcomes(view, rng, samples, play_on)) / samples


def hand_value(outcome: Outcome, seat: int, points: bool, lowest_wins: bool,
               sides: Sequence[int] | None = None) -> float:
    """What a finished hand is worth to ``seat``: its money, or on a score sheet its score
    against the others' average (negated where the lowest score wins). With ``sides`` (each
    seat's side, View.sides) a seat plays for its side: the side's money, its score against
    the other sides' average."""
    values = outcome.scores if points and outcome.scores else outcome.payouts
    if sides is not None and len(set(sides)) < len(sides):
        by_side: dict[int, int] = {}
        for i, v in enumerate(values):
            by_side[sides[i]] = by_side.get(sides[i], 0) + v
        values, seat = tuple(by_side.values()), list(by_side).index(sides[seat])
    if points and outcome.scores:
        others = [s for i, s in enumerate(values) if i != seat]
        relative = values[seat] - (sum(others) / len(others) if others else 0)
        return -relative if lowest_wins else relative
    return float(values[seat])


def drop_outcomes(view: View, rng: Rng, samples: int, play_on: bool = False) -> Iterator[Outcome]:
    """The endings of a drop now in ``samples`` worlds dealt from the view (search bots); with
    ``play_on``, a world the drop does not end is played to its end by greedy players (who
    draw nothing from ``rng``, so the worlds dealt after it are those dealt without it)."""
    for _ in range(samples):
        world = view.determinize(rng)
        world.apply(A.Drop())
        if play_on and not world.is_terminal():
            play_out(world, [greedy_bot] * world.num_players, rng)
        out = world.outcome()
        if out is not None:
            yield out


def completes_spread(view: View) -> bool:
    world_melds = view.meld_rules
    top = view.top_discard
    assert top is not None
    return any(top in combo for combo in world_melds.spreads_in(list(view.hand) + [top]))


BOTS["montecarlo"] = make_montecarlo_bot()


# The bots by name, for --bots and saved games: "strong" takes an optional rollout budget,
# "strong:200" (see tonkdsl/tools/strong.py).
BOT_NAMES = ("random", "greedy", "montecarlo", "strong")


def bot_problem(name: str) -> str | None:
    """Why ``name`` names no bot (None when it names one)."""
    base, colon, arg = name.partition(":")
    if base not in BOT_NAMES:
        return f"unknown bot '{name}' (bots: {', '.join(BOT_NAMES)}; strong:N gives the strong bot N rollouts)"
    if colon and (base != "strong" or not arg.isdigit() or not 1 <= int(arg) <= 100_000):
        return f"'{name}': only the strong bot takes a budget, a number of rollouts from 1 to 100,000 (strong:200)"
    return None


@lru_cache(maxsize=None)
def policy(name: str) -> Policy:
    """The bot called ``name`` (see BOT_NAMES); raises ValueError for an unknown one."""
    problem = bot_problem(name)
    if problem is not None:
        raise ValueError(problem)
    base, _, arg = name.partition(":")
    if base == "strong":
        from tonkdsl.tools.strong import StrongBot  # it builds on greedy_bot

        return StrongBot(int(arg) if arg else None)
    return BOTS[base]
