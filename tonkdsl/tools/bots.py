"""Bots are policies: ``choose(view, legal_actions, rng) -> action``.

The greedy bot is the interpreter's own player (tonkdsl/interpreter/greedy.py, compiled with
the interpreter); the others build on it."""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterator, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.greedy import completes_spread as completes_spread, greedy_bot as greedy_bot  # re-exported
from tonkdsl.interpreter.engine import State
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View, play_out
from tonkdsl.language.rng import Rng

Policy = Callable[[View, Sequence[A.Action], Rng], A.Action]


def random_bot(view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
    """Any legal action, uniformly."""
    return rng.choice(legal)


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


def tell_hand_over(bots: Sequence[Policy | None], state: State) -> None:
    """Show the end of a finished hand to every bot that learns from the hands it sees end (a
    ``hand_over(view, outcome)`` method, as the strong bot has), from its seat's view (None: a
    seat with no bot)."""
    outcome = state.outcome()
    assert outcome is not None, "the hand is not over"
    for seat, bot in enumerate(bots):
        hand_over = getattr(bot, "hand_over", None)
        if hand_over is not None:
            hand_over(View(state, seat), outcome)


_DROP = A.Drop()


def drop_outcomes(view: View, rng: Rng, samples: int, play_on: bool = False) -> Iterator[Outcome]:
    """The endings of a drop now in ``samples`` worlds dealt from the view (search bots); with
    ``play_on``, a world the drop does not end is played to its end by greedy players (who
    draw nothing from ``rng``, so the worlds dealt after it are those dealt without it).

    Without ``play_on`` the worlds stop at the first one the drop does not end: whether a drop
    ends the hand at once (or a last round or the discard follows) is public, the same in every
    world, so none would yield an ending (a search's model players judge a drop so at almost
    every decision of every rollout where a knock is followed by a last round)."""
    for _ in range(samples):
        world = view.determinize(rng)
        world.apply(_DROP)
        if not world.is_terminal():
            if not play_on:
                return
            play_out(world, [greedy_bot] * world.num_players, rng)
        out = world.outcome()
        if out is not None:
            yield out


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


def new_policy(name: str) -> Policy:
    """A bot called ``name`` that has seen no hand yet (:func:`policy` gives the same one to every
    caller): a run whose results must not depend on how it is split among workers gives each of
    its parts bots of their own."""
    problem = bot_problem(name)
    if problem is not None:
        raise ValueError(problem)
    base, _, arg = name.partition(":")
    if base == "strong":
        from tonkdsl.tools.strong import StrongBot  # it builds on greedy_bot

        return StrongBot(int(arg) if arg else None)
    return BOTS[base]


@lru_cache(maxsize=None)
def policy(name: str) -> Policy:
    """The bot called ``name`` (see BOT_NAMES); raises ValueError for an unknown one."""
    return new_policy(name)
