"""Tallies of simulated hands that merge exactly, and the 95% confidence intervals drawn from them.

A :class:`Tally` holds only integer sums and counts, so tallies made by any number of workers,
in any grouping, add up to exactly the same totals. Memory does not grow with the number of
hands: the hand-length histogram has one entry per distinct length.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any, Iterable, Sequence

Z95 = 1.959963984540054


@dataclass
class Tally:
    players: int
    hands: int = 0
    sessions: int = 0
    actions: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)  # hands in which each payout or win rule paid
    scored: Counter[str] = field(default_factory=Counter)  # hands in which each score rule scored
    pay_sum: list[int] = field(default_factory=list)  # money per seat, sessions settled
    pay_sq: list[int] = field(default_factory=list)  # sum of squares of per-session money, per seat
    score_sum: list[int] = field(default_factory=list)
    score_sq: list[int] = field(default_factory=list)  # sum of squares of per-session scores, per seat
    lengths: Counter[int] = field(default_factory=Counter)  # actions per hand -> hands
    match_wins: list[int] = field(default_factory=list)  # matches won per seat (a shared win counts for each)
    match_lengths: Counter[int] = field(default_factory=Counter)  # hands per match -> matches
    match_capped: int = 0  # matches stopped at MAX_MATCH_HANDS before their end (won by nobody)
    pot_left: int = 0  # money left in the ruleset's pot at the end of the sessions (players + pots = 0)

    def __post_init__(self) -> None:
        self.pay_sum = self.pay_sum or [0] * self.players
        self.pay_sq = self.pay_sq or [0] * self.players
        self.score_sum = self.score_sum or [0] * self.players
        self.score_sq = self.score_sq or [0] * self.players
        self.match_wins = self.match_wins or [0] * self.players

    def add_hand(self, end: str, rules: Iterable[str], actions: int, scored: Iterable[str] = ()) -> None:
        """Count one hand: how it ended, the rules that paid and that scored (each once), its length."""
        self.hands += 1
        self.actions += actions
        self.lengths[actions] += 1
        self.endings[end] += 1
        for rule in rules:
            self.rules[rule] += 1
        for rule in scored:
            self.scored[rule] += 1

    def add_session(self, money: Sequence[int], scores: Sequence[int], pot: int) -> None:
        """Count one settled session (or match): each seat's money and score, the pot left."""
        self.sessions += 1
        self.pot_left += pot
        for seat in range(self.players):
            self.pay_sum[seat] += money[seat]
            self.pay_sq[seat] += money[seat] * money[seat]
            self.score_sum[seat] += scores[seat]
            self.score_sq[seat] += scores[seat] * scores[seat]

    def add(self, other: "Tally") -> None:
        self.hands += other.hands
        self.sessions += other.sessions
        self.actions += other.actions
        self.endings.update(other.endings)
        self.rules.update(other.rules)
        self.scored.update(other.scored)
        self.lengths.update(other.lengths)
        self.match_lengths.update(other.match_lengths)
        self.match_capped += other.match_capped
        self.pot_left += other.pot_left
        for i in range(self.players):
            self.match_wins[i] += other.match_wins[i]
            self.pay_sum[i] += other.pay_sum[i]
            self.pay_sq[i] += other.pay_sq[i]
            self.score_sum[i] += other.score_sum[i]
            self.score_sq[i] += other.score_sq[i]


    def to_json(self) -> dict[str, Any]:
        """Every count, as JSON: what ``tonk simulate --json`` keeps under ``tally`` so that runs
        can be added up later (``tonk merge``), exactly, as if they had been one run."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = {str(k): v for k, v in value.items()} if isinstance(value, Counter) else value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Tally":
        """The tally ``to_json`` wrote; ValueError when it is not one."""
        try:
            players = int(data["players"])
            t = cls(players)
            for f in fields(cls):
                if f.name == "players" or f.name not in data:
                    continue
                value = data[f.name]
                current = getattr(t, f.name)
                if isinstance(current, Counter):
                    keys = int if f.name in ("lengths", "match_lengths") else str
                    setattr(t, f.name, Counter({keys(k): int(v) for k, v in value.items()}))
                elif isinstance(current, list):
                    if len(value) != players:
                        raise ValueError(f"{f.name} has {len(value)} seats, not {players}")
                    setattr(t, f.name, [int(v) for v in value])
                else:
                    setattr(t, f.name, int(value))
            return t
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a tally of tonk simulate --json ({exc})") from None


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion k/n."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """Mean and 95% interval (normal approximation) from a sum and a sum of squares."""
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * (n / (n - 1) if n > 1 else 0.0)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def quantile(hist: Counter[int], q: float) -> int:
    total = sum(hist.values())
    if total == 0:
        return 0
    target = q * total
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= target:
            return value
    return max(hist)  # pragma: no cover


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> float:
    """z statistic of the difference between two proportions (0 when undefined)."""
    if n1 == 0 or n2 == 0:
        return 0.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return 0.0 if se == 0 else (k1 / n1 - k2 / n2) / se


def two_means(m1: float, lo1: float, m2: float, lo2: float) -> float:
    """z statistic of the difference of two means given their 95% lower bounds."""
    se1, se2 = (m1 - lo1) / Z95, (m2 - lo2) / Z95
    se = math.sqrt(se1 * se1 + se2 * se2)
    return 0.0 if se == 0 else (m1 - m2) / se
