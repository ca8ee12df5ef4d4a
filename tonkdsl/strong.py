"""The strong bot: determinized Monte-Carlo search over every decision the ruleset offers.

At each decision with more than one legal action, the bot deals several worlds consistent with
what its view shows (``View.determinize``: the others keep their hand sizes and the cards everyone
saw them take; the other unseen cards are shuffled into their hands and the stock), plays every
legal action in each world and then the rest of the hand with the greedy policy at every seat,
and takes the action whose hands end best for it on average. The same worlds and the same
rollout seeds serve every action (common random numbers), so that the comparison is between
actions, not between lucky deals. This is perfect-information Monte-Carlo (PIMC), the
determinization behind OpenSpiel's and CardStock's information-set search, with full-hand
rollouts: it reads the ruleset only through the engine, so it plays any ruleset.

It never sees hidden cards: it is given a :class:`View`, and a world is made from the view alone.
Its choices are fixed by the random generator it is given (the same seed, the same play).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from tonkdsl import actions as A
from tonkdsl.bots import Policy, greedy_bot
from tonkdsl.outcome import Outcome
from tonkdsl.rng import Rng
from tonkdsl.view import View, play_out

DEFAULT_ROLLOUTS = 96  # rollouts per decision: about 0.1 s for a 5-card ruleset on one core here


def hand_value(outcome: Outcome, seat: int, points: bool, lowest_wins: bool) -> float:
    """What a finished hand is worth to ``seat``: its money, or on a score sheet its score
    against the others' average (negated where the lowest score wins)."""
    if points and outcome.scores:
        others = [s for i, s in enumerate(outcome.scores) if i != seat]
        relative = outcome.scores[seat] - (sum(others) / len(others) if others else 0)
        return -relative if lowest_wins else relative
    return float(outcome.payouts[seat])


@dataclass
class SearchStats:
    """What the bot's searches cost: for benchmarks (decisions/s, rollout actions/s)."""

    decisions: int = 0  # decisions searched (more than one legal action)
    rollouts: int = 0
    actions: int = 0  # actions played in rollouts
    seconds: float = 0.0


class StrongBot:
    """The search bot with ``rollouts`` rollouts per decision, shared among its legal actions
    (at least two worlds each); a policy like the others (``bot(view, legal, rng)``).

    ``rollout_policy`` plays every seat in the rollouts (docs/play.md says what other choices
    were measured)."""

    def __init__(self, rollouts: int = DEFAULT_ROLLOUTS, rollout_policy: Policy = greedy_bot) -> None:
        if rollouts < 1:
            raise ValueError("the strong bot needs at least one rollout per decision")
        self.rollouts = rollouts
        self.rollout_policy = rollout_policy
        self.stats = SearchStats()

    def __call__(self, view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        rs = view.ruleset
        points, lowest_wins = rs.score_sheet == "points", rs.lowest_score_wins
        played = 0
        worlds = max(2, self.rollouts // len(legal))
        totals = [0.0] * len(legal)
        policies = [self.rollout_policy] * view.num_players
        for _ in range(worlds):
            world = view.determinize(rng)
            seed = rng.next_u64()
            for i, action in enumerate(legal):
                sim = world.clone()
                sim.apply(action)
                played += 1 + play_out(sim, policies, Rng(seed))
                outcome = sim.outcome()
                assert outcome is not None  # play_out returns at the end of the hand
                totals[i] += hand_value(outcome, view.seat, points, lowest_wins)
        st = self.stats
        st.decisions += 1
        st.rollouts += worlds * len(legal)
        st.actions += played
        st.seconds += time.perf_counter() - started  # measured only: never read by the search
        return legal[totals.index(max(totals))]  # the first of equals: the same choice every time
