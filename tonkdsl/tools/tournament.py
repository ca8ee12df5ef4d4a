"""``tonk tournament``: every pair of bots on the same duplicate deals; margins, ratings, costs.

Two players. Deal ``d`` (seeded ``derive_seed(seed, d)``, the first seat dealing) is played twice
by every pair of bots, each bot in one seat and then in the other, so that both get the same
cards and the same turn, and every pair plays the same deals. A hand's margin is the first bot's
value of the hand minus the second's (:func:`hand_value`: money in stakes, or on a score sheet
the score against the other's, counted so that + is ahead). A deal is the unit of chance: the
mean margin a hand and its 95% interval (mean +- 1.96 standard errors) are computed over deals,
each the average of its two hands, and each deal is one game for the ratings (won by the bot
whose two hands did better; :mod:`tonkdsl.tools.ratings`). Every bot's cost is the time it spent
on decisions with more than one legal action, measured around it, never read by a bot.

Deals are played in chunks of ``MAX_CHUNK_DEALS`` (sittings: each with bots of its own), in
worker processes with ``workers`` > 1; every deal is seeded on its own and the bots' choices
depend only on their views, the seeded generator and the hands of their sitting they saw end
(the strong bot learns from them), so the results do not depend on the number of workers (the
costs do).
"""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.tools.bots import Policy, hand_value, new_policy
from tonkdsl.tools.ratings import Games, Rating, games_of, rate
from tonkdsl.tools.pool import ordered_results
from tonkdsl.tools.simulate import play_hand, ruleset_of
from tonkdsl.tools.tables import render, table

Z95 = 1.96
MAX_CHUNK_DEALS = 10  # deals per task (a sitting: its bots are new): the bar moves every few seconds even for the strong bot


class Timed:
    """A bot with a stopwatch: how many decisions with a choice it made, and the seconds they took."""

    def __init__(self, bot: Policy) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0

    def __call__(self, view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        if len(legal) < 2:
            return self.bot(view, legal, rng)
        started = time.perf_counter()
        action = self.bot(view, legal, rng)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return action

    def hand_over(self, view: View, outcome: Outcome) -> None:
        """Pass a hand's end on to the bot, if it learns from hands (bots.tell_hand_over)."""
        hand_over = getattr(self.bot, "hand_over", None)
        if hand_over is not None:
            hand_over(view, outcome)


def play_deals(ruleset: Ruleset, first: Policy, second: Policy, seed: int, start: int,
               count: int) -> list[tuple[float, float]]:
    """Deals ``start`` .. ``start + count`` played twice each: the first bot's margin over the
    second with the first bot in seat 0, then in seat 1."""
    points, lowest = ruleset.score_sheet == "points", ruleset.lowest_score_wins
    margins = []
    for deal in range(start, start + count):
        pair = []
        for seat in (0, 1):
            bots = [second, second]
            bots[seat] = first
            outcome, _ = play_hand(ruleset, bots, derive_seed(seed, deal), dealer=0)
            pair.append(hand_value(outcome, seat, points, lowest) - hand_value(outcome, 1 - seat, points, lowest))
        margins.append((pair[0], pair[1]))
    return margins


# ruleset key, first bot, second bot, seed, first deal, deals, folders its 'extends' may reach
Task = tuple[str, str, str, int, int, int, tuple[str, ...]]


@dataclass(frozen=True)
class Part:
    """What a task returns: the margins of its deals and both bots' decisions and seconds."""

    margins: list[tuple[float, float]]
    costs: tuple[tuple[int, float], tuple[int, float]]


def _task(task: Task) -> Part:
    ref, first, second, seed, start, count, allow = task
    # Bots of the task's own: a bot that learns from the hands it sees end learns over a task's
    # deals, the same whatever the workers (tasks below).
    a, b = Timed(new_policy(first)), Timed(new_policy(second))
    margins = play_deals(ruleset_of(ref, allow), a, b, seed, start, count)
    return Part(margins, ((a.decisions, a.seconds), (b.decisions, b.seconds)))


@dataclass(frozen=True)
class Match:
    """One pair's results: margins a hand of ``bot`` over ``opponent``."""

    bot: str
    opponent: str
    deals: int
    margin: float
    low: float
    high: float
    games: Games  # deals won, drawn and lost by ``bot``

    @property
    def hands(self) -> int:
        return 2 * self.deals


@dataclass(frozen=True)
class Cost:
    bot: str
    decisions: int
    seconds: float

    @property
    def per_decision(self) -> float | None:
        return self.seconds / self.decisions if self.decisions else None


@dataclass(frozen=True)
class Tournament:
    ruleset: str  # as given
    name: str
    unit: str  # "stakes" or "points"
    deals: int
    seed: int
    matches: list[Match]
    ratings: list[Rating]
    costs: dict[str, Cost]


def pairs_of(bots: Sequence[str]) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(bots)) for j in range(i + 1, len(bots))]


def tasks(ref: str, bots: Sequence[str], deals: int, seed: int, allow: tuple[str, ...] = ()) -> list[Task]:
    """Every pair's deals in chunks of ``MAX_CHUNK_DEALS``: the workers share them and the bar moves.
    A chunk is a sitting whose bots are new (_task), the same whatever the workers."""
    return [(ref, bots[i], bots[j], seed, start, min(MAX_CHUNK_DEALS, deals - start), allow)
            for i, j in pairs_of(bots) for start in range(0, deals, MAX_CHUNK_DEALS)]


def run(ref: str, bots: Sequence[str], deals: int, seed: int, *, label: str | None = None, workers: int = 1,
        progress: Callable[[int], None] | None = None, allow: tuple[str, ...] = (),
        scheduler: str | None = None) -> Tournament:
    """Play the tournament on the ruleset ``ref`` (a shipped name or an absolute path, see
    ``simulate.ruleset_of``, with the folders ``allow`` its 'extends' may reach); ``progress`` is
    told the hands played so far."""
    if len(bots) < 2:
        raise ValueError("a tournament needs at least two bots")
    if len(set(bots)) < len(bots):
        raise ValueError("a bot is listed twice: " + ", ".join(sorted({b for b in bots if bots.count(b) > 1})))
    rs = ruleset_of(ref, allow)
    work = tasks(ref, bots, deals, seed, allow)
    margins: dict[tuple[str, str], list[tuple[float, float]]] = {}
    decisions = dict.fromkeys(bots, 0)
    seconds = dict.fromkeys(bots, 0.0)
    done = 0
    for task, part in zip(work, _results(work, workers, scheduler)):
        _, first, second, *_ = task
        margins.setdefault((first, second), []).extend(part.margins)
        for name, (made, took) in zip((first, second), part.costs):
            decisions[name] += made
            seconds[name] += took
        done += 2 * len(part.margins)
        if progress is not None:
            progress(done)
    index = {b: k for k, b in enumerate(bots)}
    per_deal = {pair: [(x + y) / 2 for x, y in m] for pair, m in margins.items()}
    matches = [_match(first, second, m) for (first, second), m in per_deal.items()]
    ratings = rate(bots, {(index[a], index[b]): m for (a, b), m in per_deal.items()}, seed)
    costs = {b: Cost(b, decisions[b], seconds[b]) for b in bots}
    return Tournament(label or ref, rs.name, "points" if rs.score_sheet == "points" else "stakes", deals, seed,
                      matches, ratings, costs)


def _match(first: str, second: str, per_deal: list[float]) -> Match:
    mean = statistics.fmean(per_deal)
    half = Z95 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else math.inf
    return Match(first, second, len(per_deal), mean, mean - half, mean + half, games_of(per_deal))


def _results(work: list[Task], workers: int, scheduler: str | None = None) -> Iterator[Part]:
    """The tasks' results in order: here, in ``workers`` processes, or on a Dask cluster."""
    return ordered_results(_task, work, workers=workers, scheduler=scheduler)


def to_json(t: Tournament) -> dict[str, Any]:
    return {
        "ruleset": t.ruleset, "name": t.name, "unit": t.unit, "deals": t.deals,
        "matches": [{"bot": m.bot, "opponent": m.opponent, "deals": m.deals, "hands": m.hands,
                     "margin": m.margin, "ci95": [m.low, m.high],
                     "games": {"won": m.games.won, "drawn": m.games.drawn, "lost": m.games.lost}}
                    for m in t.matches],
        "ranking": [{"rank": k + 1, "bot": r.bot, "margin": r.margin, "margin_ci95": [r.margin_low, r.margin_high],
                     "elo": r.elo, "elo_ci95": [r.elo_low, r.elo_high], "points": r.points,
                     "games": r.played, "decisions": t.costs[r.bot].decisions,
                     "seconds_per_decision": t.costs[r.bot].per_decision}
                    for k, r in enumerate(t.ratings)],
    }


def render_text(t: Tournament) -> str:
    lines = [f"{t.ruleset} ({t.name}): {t.deals:,} deals, each played twice by every pair with the seats "
             f"swapped; two players; seed {t.seed}",
             f"margin: the first bot's {'score' if t.unit == 'points' else 'payout'} minus the second's, "
             f"in {t.unit} a hand, with its 95% interval over deals (* the interval excludes 0)", ""]
    pairs = table(["bot", "vs", f"margin ({t.unit} a hand)", "", "deals won", "drawn", "lost"], right=(4, 5, 6))
    for m in t.matches:
        pairs.add_row(m.bot, m.opponent, f"{m.margin:+.3f} [{m.low:+.3f}, {m.high:+.3f}]",
                      "*" if m.low > 0 or m.high < 0 else "", str(m.games.won), str(m.games.drawn), str(m.games.lost))
    ranks = table(["rank", "bot", f"rating ({t.unit} a hand)", "Elo", "95% interval", "points", "ms/decision"],
                  right=(0, 3, 5, 6))
    for k, r in enumerate(t.ratings):
        cost = t.costs[r.bot].per_decision
        ranks.add_row(str(k + 1), r.bot, f"{r.margin:+.3f} [{r.margin_low:+.3f}, {r.margin_high:+.3f}]",
                      f"{r.elo:.0f}", f"[{r.elo_low:.0f}, {r.elo_high:.0f}]", f"{r.points:g}/{r.played}",
                      f"{1000 * cost:.3g}" if cost is not None else "-")
    lines += [render(pairs), "", render(ranks),
              "rating: the bot's margin against the field's average; Elo and points: from deals won "
              "(a draw counts half), the field's average Elo 1500"]
    return "\n".join(lines)
