"""Bots are policies: ``choose(view, legal_actions, rng) -> action``.

The greedy bot is the interpreter's own player (tonkdsl/interpreter/greedy.py, compiled with
the interpreter); the others build on it. The judgement of a drop over dealt worlds
(drop_value) is the interpreter's too (tonkdsl/interpreter/judge.py), compiled with it."""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.greedy import completes_spread, greedy_bot
from tonkdsl.interpreter.judge import drop_outcomes, drop_value, hand_value
from tonkdsl.interpreter.engine import State
from tonkdsl.interpreter.view import View
from tonkdsl.language.diagnostics import did_you_mean
from tonkdsl.language.rng import Rng

Policy = Callable[[View, Sequence[A.Action], Rng], A.Action]

__all__ = ["BOTS", "BOT_NAMES", "Policy", "bot_problem", "completes_spread", "drop_outcomes", "drop_value",
           "greedy_bot", "hand_value", "make_montecarlo_bot", "new_policy", "policy", "random_bot",
           "tell_hand_over"]


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


BOTS["montecarlo"] = make_montecarlo_bot()


# The bots by name, for --bots and saved games: "strong" takes an optional rollout budget,
# "strong:200" (see tonkdsl/tools/strong.py).
BOT_NAMES = ("random", "greedy", "montecarlo", "strong")


def bot_problem(name: str) -> str | None:
    """Why ``name`` names no bot (None when it names one)."""
    base, colon, arg = name.partition(":")
    if base not in BOT_NAMES:
        return (f"unknown bot '{name}'{did_you_mean(base, BOT_NAMES)} (bots: {', '.join(BOT_NAMES)}; "
                "strong:N gives the strong bot N rollouts)")
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
