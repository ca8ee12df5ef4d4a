"""Is the strong bot's search right about a drop? Its estimates against what came of them.

    python benchmarks/bench_calibration.py [RULESET] [--opponent greedy] [--deals 300] [--seed 7] [--workers 2] [--json]

Plays the strong bot against the opponent on `tonk tournament`'s duplicate deals (each deal twice,
seats swapped, sittings of ten deals with bots of their own) and, at each of its decisions where a
drop is open and would end the hand at once, keeps what its search made of it
(``StrongBot.judged``: the drop's value, the best way to play on's value, the drop's chance of
winning) beside what came of it: whether a drop there would have won (the real hands, read behind
the view: a benchmark only), and what the hand was worth to the bot in the end. Printed:

* the drops taken: expected and realized value, expected and real chance of winning;
* the drop's chance of winning, by tenths of what the search expected: how often a drop would
  really have won (a search that expects too much drops too often);
* where it played on, by its value for playing on (to the half stake): what the hand was then
  really worth (a search that expects too little of playing on drops too often too);
* where it played on, by the drop's chance as above: what the hand was then worth against what
  the drop would have paid (where playing on came out ahead in every row, a bolder bot would
  have lost: its drops were right, however its chances were off);
* the close calls: the decisions where the drop and playing on were within one (two) standard
  errors of the search's own noise (``StrongBot.judged``'s spread), the only ones more search
  could change much; and what settling every drop decision exactly would be worth by the
  search's own reckoning (each decision's difference known only to within its noise, a normal
  error: the spread times the normal density at difference/spread, less the difference times
  the chance of a difference as large the other way), in stakes a hand: the most any amount of
  search could gain at the drops while its worlds and models stay as they are.

The figures are in docs/strong-bot.md ("Reading the whole record, and the bot's own model"; the last table
in "Seattle and the pot: the drops are right; the rest is in the play before them"; the close calls in
"Are the drops close calls?").
"""
from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from statistics import NormalDist
from typing import Any, Sequence

from duplicate import real_drop, ruleset_ref, sitting_arguments, sittings, worth
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import new_policy
from tonkdsl.tools.simulate import ruleset_of
from tonkdsl.tools.strong import StrongBot
from tonkdsl.tools.tournament import play_deals


class Watched(StrongBot):
    """The strong bot, its drop decisions noted with what came of them."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []
        self._hand: list[dict[str, Any]] = []

    def __call__(self, view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        action = super().__call__(view, legal, rng)
        judged = self.judged
        drop = next((a for a in legal if type(a) is A.Drop), None)
        if judged is not None and drop is not None:
            outcome = real_drop(view, drop)  # the real hands: what a drop now would have done
            if outcome is not None:  # a discard or a last round follows: not judged here
                self._hand.append({"drop": judged.drop, "play": judged.play, "wins": judged.wins, "spread": judged.spread,
                                   "won": outcome.payouts[view.seat] > 0, "paid": worth(view, outcome),
                                   "dropped": type(action) is A.Drop})
        return action

    def hand_over(self, view: View, outcome: Outcome) -> None:
        super().hand_over(view, outcome)
        hand_worth = worth(view, outcome)
        self.rows += [{**row, "worth": hand_worth} for row in self._hand]
        self._hand = []


def _sitting(task: tuple[str, str, int, int, int]) -> list[dict[str, Any]]:
    ref, opponent, seed, start, count = task
    bot = Watched()
    play_deals(ruleset_of(ref), bot, new_policy(opponent), seed, start, count)
    return bot.rows


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def settling_worth(gain: float, spread: float) -> float:
    """What knowing a decision's gain exactly would be worth, where the search estimated ``gain``
    (the drop's value less playing on's) with a normal error of ``spread`` and takes the better
    by its estimate: the expected shortfall of that choice, for a flat prior on the true gain."""
    if spread <= 0:
        return 0.0
    z = abs(gain) / spread
    return spread * NormalDist().pdf(z) - abs(gain) * NormalDist().cdf(-z)


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The calibration tables of :func:`main` as data."""
    drops = [r for r in rows if r["dropped"]]
    plays = [r for r in rows if not r["dropped"]]
    chance: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        chance.setdefault(min(9, int(r["wins"] * 10)), []).append(r)
    play_on: dict[int, list[dict[str, Any]]] = {}
    played_on_by_chance: dict[int, list[dict[str, Any]]] = {}
    for r in plays:
        play_on.setdefault(round(r["play"] * 2), []).append(r)
        played_on_by_chance.setdefault(min(9, int(r["wins"] * 10)), []).append(r)
    return {
        "decisions": len(rows),
        "close_calls": {"within_one": sum(abs(r["drop"] - r["play"]) <= r["spread"] for r in rows),
                        "within_two": sum(abs(r["drop"] - r["play"]) <= 2 * r["spread"] for r in rows),
                        "settling_worth": sum(settling_worth(r["drop"] - r["play"], r["spread"]) for r in rows)},
        "drops": {"n": len(drops), "expected": _mean([r["drop"] for r in drops]),
                  "realized": _mean([r["worth"] for r in drops]),
                  "expected_wins": _mean([r["wins"] for r in drops]),
                  "won": _mean([float(r["won"]) for r in drops])},
        "chance": [{"from": b / 10, "to": (b + 1) / 10, "n": len(rs), "expected": _mean([r["wins"] for r in rs]),
                    "won": _mean([float(r["won"]) for r in rs]), "dropped": sum(r["dropped"] for r in rs)}
                   for b, rs in sorted(chance.items())],
        "play_on": [{"about": b / 2, "n": len(rs), "expected": _mean([r["play"] for r in rs]),
                     "realized": _mean([r["worth"] for r in rs])} for b, rs in sorted(play_on.items())],
        "played_on_by_chance": [{"from": b / 10, "to": (b + 1) / 10, "n": len(rs),
                                 "realized": _mean([r["worth"] for r in rs]),
                                 "drop_would_pay": _mean([r["paid"] for r in rs])}
                                for b, rs in sorted(played_on_by_chance.items())],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sitting_arguments(ap, "greedy", "the bot it plays against")
    ap.add_argument("--json", action="store_true", help="the tables as one JSON object")
    a = ap.parse_args()
    ref = ruleset_ref(a.ruleset)
    started = time.perf_counter()
    tasks = [(ref, a.opponent, a.seed, start, count) for start, count in sittings(a.deals)]
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        rows = [r for part in pool.map(_sitting, tasks) for r in part]
    out = report(rows)
    close = out["close_calls"]
    close["settling_worth_a_hand"] = close["settling_worth"] / (2 * a.deals)  # the bot plays each deal twice
    if a.json:
        print(json.dumps({"ruleset": a.ruleset, "opponent": a.opponent, "deals": a.deals, "seed": a.seed, **out}))
        return
    d = out["drops"]
    print(f"{a.ruleset} against {a.opponent}: {a.deals} deals, each played twice with the seats swapped; seed {a.seed}; "
          f"{out['decisions']} decisions where a drop was open")
    print(f"  drops taken: {d['n']}; expected {d['expected']:+.3f} a stake, realized {d['realized']:+.3f}; "
          f"expected to win {d['expected_wins']:.3f}, won {d['won']:.3f}")
    print("  the drop's chance of winning   decisions   expected   real   dropped")
    for b in out["chance"]:
        print(f"  {b['from']:.1f}-{b['to']:.1f}                       {b['n']:9d}   {b['expected']:8.3f}   {b['won']:.3f}   {b['dropped']:7d}")
    print("  played on, valued at about     decisions   expected   realized")
    for b in out["play_on"]:
        print(f"  {b['about']:+.1f}                           {b['n']:9d}   {b['expected']:+8.3f}   {b['realized']:+.3f}")
    print("  played on, the drop's chance   decisions   realized   the drop would have paid")
    for b in out["played_on_by_chance"]:
        print(f"  {b['from']:.1f}-{b['to']:.1f}                       {b['n']:9d}   {b['realized']:+8.3f}   {b['drop_would_pay']:+.3f}")
    print(f"  close calls: {close['within_one']} of {out['decisions']} decisions within one standard error of the search's "
          f"own noise, {close['within_two']} within two; settling them all exactly would be worth "
          f"{close['settling_worth_a_hand']:+.4f} stakes a hand to the bot, by its own reckoning")
    print(f"  {time.perf_counter() - started:.0f} s with {a.workers} workers")


if __name__ == "__main__":
    main()
