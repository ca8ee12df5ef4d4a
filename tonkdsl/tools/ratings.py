"""Ratings from duplicate deals, with bootstrap intervals (``tonk tournament``).

Every pair of bots played the same deals, each deal twice with the seats swapped; a deal's
margin is the first bot's average over its two hands minus the second's. Two ratings come of it:

* **The margin rating** (what the ranking follows: money is what Tonk is played for): the bot's
  margin a hand against the field's average, the least-squares fit of ``margin(i, j) = r_i - r_j``
  with the ratings summing to 0. Every pair plays the same number of deals, so it is the bot's
  margins against the others summed and divided by the number of bots (its margin against itself
  counts 0).
* **The Elo rating**: each deal is one game, won by the bot whose two hands together did better,
  a draw when they did equally (half a point each, as in chess). The ratings are the
  Bradley-Terry maximum-likelihood fit of those games (the model behind Elo: a bot rated D points
  above another is expected to score ``1 / (1 + 10 ** (-D / 400))`` against it), found by Hunter's
  minorize-maximize iteration, on the Elo scale with the field's average at 1500. One drawn game
  between every pair that played is added (the prior of Coulom's BayesElo), so that a bot that won
  every game gets a large but finite rating. A bot that wins small and often can out-rate by Elo
  one that wins less often but more money: the two ratings answer different questions.

The intervals are percentile bootstrap intervals: the deals of every pair are drawn again with
replacement ``resamples`` times from a seeded generator and both ratings fitted again each time;
an interval holds the middle 95% of those fits. The same deals and seed give the same ratings
and intervals on every machine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from tonkdsl.language.rng import Rng

ELO_AVERAGE = 1500.0
ELO_SCALE = 400.0 / math.log(10)  # Elo points per unit of the logistic model's log-strength
PRIOR_DRAWS = 1  # virtual drawn games added between every pair that played
RESAMPLES = 200  # bootstrap resamples behind each interval


@dataclass(frozen=True)
class Games:
    """What one pair's deals gave the first bot of the pair: won, drawn and lost."""

    won: int
    drawn: int
    lost: int

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def points(self) -> float:
        return self.won + self.drawn / 2


@dataclass(frozen=True)
class Rating:
    bot: str
    margin: float  # a hand, against the field's average
    margin_low: float  # the bootstrap interval's ends
    margin_high: float
    elo: float
    elo_low: float
    elo_high: float
    points: float  # games won plus half the games drawn, against every other bot
    played: int


Pairs = Mapping[tuple[int, int], Games]  # (i, j), i < j: bot i's games against bot j
Deals = Mapping[tuple[int, int], Sequence[float]]  # (i, j), i < j: bot i's margin over bot j, deal by deal
DRAWN = 1e-9  # a deal's margin this close to 0 is a draw (sums of halves and points averages)


def games_of(margins: Sequence[float]) -> Games:
    won = sum(1 for m in margins if m > DRAWN)
    lost = sum(1 for m in margins if m < -DRAWN)
    return Games(won, len(margins) - won - lost, lost)


def margin_ratings(players: int, means: Mapping[tuple[int, int], float]) -> list[float]:
    """The margin ratings of a complete round robin with as many deals for every pair, given each
    pair's mean margin (see the module's docstring)."""
    total = [0.0] * players
    for (i, j), m in means.items():
        total[i] += m
        total[j] -= m
    return [t / players for t in total]


def fit(players: int, pairs: Pairs, iterations: int = 10_000, tolerance: float = 1e-10) -> list[float]:
    """The Elo ratings (average ``ELO_AVERAGE``) that best explain ``pairs`` (with the prior)."""
    wins = [0.0] * players  # points scored, prior included
    games: dict[tuple[int, int], float] = {}
    for (i, j), g in pairs.items():
        if g.played == 0:
            continue
        games[i, j] = g.played + PRIOR_DRAWS
        wins[i] += g.points + PRIOR_DRAWS / 2
        wins[j] += (g.played - g.points) + PRIOR_DRAWS / 2
    strength = [1.0] * players
    for _ in range(iterations):
        denominators = [0.0] * players
        for (i, j), n_ij in games.items():
            share = n_ij / (strength[i] + strength[j])
            denominators[i] += share
            denominators[j] += share
        new = [wins[k] / denominators[k] if denominators[k] else 1.0 for k in range(players)]
        mean_log = sum(math.log(s) for s in new) / players  # strengths are only known up to a factor
        new = [s / math.exp(mean_log) for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength))
        strength = new
        if change < tolerance:
            break
    return [ELO_AVERAGE + ELO_SCALE * math.log(s) for s in strength]


def rate(bots: Sequence[str], deals: Deals, seed: int = 0, resamples: int = RESAMPLES) -> list[Rating]:
    """Every bot's ratings with their 95% bootstrap intervals, by margin rating, best first (ties
    in the given order). ``deals`` holds every pair of bots once, with as many deals each."""
    players = len(bots)
    if len({len(m) for m in deals.values()}) > 1 or len(deals) != players * (players - 1) // 2:
        raise ValueError("ratings need every pair of bots on as many deals")
    margin = margin_ratings(players, {k: sum(m) / len(m) for k, m in deals.items()})
    pairs = {k: games_of(m) for k, m in deals.items()}
    elo = fit(players, pairs)
    rng = Rng(seed)
    margin_fits, elo_fits = [], []
    for _ in range(resamples):
        drawn = {k: [m[rng.below(len(m))] for _ in m] for k, m in deals.items()}
        margin_fits.append(margin_ratings(players, {k: sum(m) / len(m) for k, m in drawn.items()}))
        elo_fits.append(fit(players, {k: games_of(m) for k, m in drawn.items()}))
    points, played = [0.0] * players, [0] * players
    for (i, j), g in pairs.items():
        points[i] += g.points
        points[j] += g.played - g.points
        played[i] += g.played
        played[j] += g.played
    ratings = []
    for k, name in enumerate(bots):
        m_low, m_high = _percentiles(sorted(f[k] for f in margin_fits)) if resamples else (margin[k], margin[k])
        e_low, e_high = _percentiles(sorted(f[k] for f in elo_fits)) if resamples else (elo[k], elo[k])
        ratings.append(Rating(name, margin[k], m_low, m_high, elo[k], e_low, e_high, points[k], played[k]))
    return sorted(ratings, key=lambda r: -r.margin)


def _percentiles(values: Sequence[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of sorted ``values`` (nearest rank)."""
    n = len(values)
    return values[max(0, math.ceil(0.025 * n) - 1)], values[min(n - 1, math.ceil(0.975 * n) - 1)]
