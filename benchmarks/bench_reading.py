"""How well readings of the public record foretell whether a drop wins (Brier scores).

    python benchmarks/bench_reading.py [RULESET] [--opponent greedy] [--hands 300] [--guesses 256] [--eps 0.2]
        [--per-card 6] [--band 3] [--workers 2]

Plays hands of montecarlo (seat 0) against the opponent and, at each of seat 0's decisions where
a drop is open and would end the hand at once, guesses the other hand ``--guesses`` times from
seat 0's view and weighs the guesses four ways:

* ``uniform``: every guess alike;
* ``last discard``: as the strong bot weighs its worlds (tonkdsl/tools/strong.py: the loose
  cards kept above the other's last discard);
* ``whole record``: the chance that a greedy player (who discards its highest card in no pair or
  near-run, and drops with a count of 10 or less) would have played the other's turns seen so
  far and ended with the guessed hand (``reading.record_weight`` of the hand's public record,
  State.record: what the strong bot weighs its worlds by where a drop is open);
* ``record, drops by card``: the same, but a drop not taken read as montecarlo's are: it drops
  with a count under about ``--per-card`` points for each card the other holds (measured in
  docs/strong-bot.md), now and then not within ``--band`` of that line: a drop is declined ``eps`` of
  the time below the band, half the time within it, always above.

Each reading's chance that the drop wins is the weighted share of the guesses in which it wins;
printed: each reading's Brier score (the mean squared error against what the drop would really
have done; lower is better) and its difference from ``uniform``, paired by decision, with a 95%
interval. The figures are in docs/strong-bot.md ("Where the room is").
"""
from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.greedy import DROP_AT
from tonkdsl.interpreter.reading import declines_above, record_weight, turns_of
from tonkdsl.interpreter.table import DISCARDED
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import new_policy
from tonkdsl.tools.simulate import ruleset_of
from tonkdsl.tools.strong import KEPT_ODDS, kept_above_discard
from tonkdsl.tools.tournament import _match


def play_hand_judged(ruleset: str, opponent: str, seed: int, on_drop: Callable[[State, A.Action], None]) -> None:
    """One hand of montecarlo (seat 0) against ``opponent``, ``on_drop`` asked at each of seat 0's
    decisions where a drop is open."""
    rs = ruleset_of(ruleset)
    state = deal(rs, 2, seed=seed, dealer=0)
    bots = [new_policy("montecarlo"), new_policy(opponent)]
    rng, views = Rng(seed ^ 0x5555), [View(state, s) for s in range(2)]
    while not state.is_terminal():
        seat = state.current if state.out_of_turn_seat is None else state.out_of_turn_seat
        legal = state.legal_actions()
        drop = next((a for a in legal if type(a) is A.Drop), None)
        if seat == 0 and drop is not None:
            on_drop(state, drop)
        state.apply(bots[seat](views[seat], legal, rng))


READINGS = ("uniform", "last discard", "whole record", "record, drops by card")


def _part(task: tuple[str, str, int, int, int, float, float, int]) -> list[tuple[float, ...]]:
    """(truth, one chance per reading) at each drop decision of hands ``start`` .. ``start + count``."""
    ruleset, opponent, start, count, guesses, eps, per_card, band = task
    rows: list[tuple[float, ...]] = []

    def on_drop(state: State, drop: A.Action) -> None:
        ended = state.clone()
        ended.apply(drop)
        outcome = ended.outcome()
        if outcome is None:  # a last round or a discard follows: not judged here
            return
        view, other = View(state, 0), 1
        near, values = view.meld_rules.near(2), view.pack.values
        turns, taken, last = turns_of(view.record, other), state.public_cards[other], view.last_discards[other]
        declines = declines_above(DROP_AT, eps)
        # The other's threshold is read off the cards this seat holds now (it held as many or one
        # more at the other's turns: a drop decision comes before the draw).
        line = int(per_card * len(state.hands[0]))
        by_card = [eps if c < line - band else 0.5 if c <= line + band else 1.0 for c in range(line + band + 1)]
        rng = Rng(state.seed * 7919 + sum(kind == DISCARDED for _, kind, _ in state.record))  # turns finished
        wins, weights = [0.0] * len(READINGS), [0.0] * len(READINGS)
        for _ in range(guesses):
            hands, stock = view.guess_hidden(rng)
            world = view.world(hands, stock)
            world.apply(drop)
            end = world.outcome()
            assert end is not None
            won = float(end.payouts[0] > 0)
            mask = sum(1 << c for c in hands[other])
            by_last = KEPT_ODDS ** kept_above_discard(hands[other], last, near, values) if last is not None else 1.0
            for i, w in enumerate((1.0, by_last, record_weight(mask, turns, taken, near, values, declines, eps),
                                   record_weight(mask, turns, taken, near, values, by_card, eps))):
                wins[i] += w * won
                weights[i] += w
        rows.append((float(outcome.payouts[0] > 0), *(wn / wt if wt else 0.5 for wn, wt in zip(wins, weights))))

    for h in range(start, start + count):
        play_hand_judged(ruleset, opponent, 1000 + h, on_drop)
    return rows


def _interval(diffs: list[float]) -> str:
    """The mean difference and its 95% interval, as `tonk tournament` computes a margin's."""
    m = _match("", "", diffs)
    return f"{m.margin:+.4f} [{m.low:+.4f}, {m.high:+.4f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", nargs="?", default="standard")
    ap.add_argument("--opponent", default="greedy", help="the bot whose hand is read")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--guesses", type=int, default=256, help="guesses at each drop decision")
    ap.add_argument("--eps", type=float, default=0.2, help="how often the greedy model plays any card")
    ap.add_argument("--per-card", type=float, default=6.0,
                    help="the last reading's drops: under this many points a card the other holds")
    ap.add_argument("--band", type=int, default=3, help="the last reading's drops: points either side of that line")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    started = time.perf_counter()
    step = max(1, a.hands // (4 * a.workers))
    tasks = [(a.ruleset, a.opponent, s, min(step, a.hands - s), a.guesses, a.eps, a.per_card, a.band)
             for s in range(0, a.hands, step)]
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        rows = [r for part in pool.map(_part, tasks) for r in part]
    if not rows:
        print("no drop decision to judge")
        return
    print(f"{a.ruleset}: montecarlo's drop decisions against {a.opponent}, {a.hands} hands, {len(rows)} decisions, "
          f"{a.guesses} guesses each")
    squared = [[(r[i + 1] - r[0]) ** 2 for r in rows] for i in range(len(READINGS))]
    for i, name in enumerate(READINGS):
        paired = [s - u for s, u in zip(squared[i], squared[0])]
        against = "" if i == 0 else f"   against uniform {_interval(paired)}"
        print(f"  {name:21s} Brier {sum(squared[i]) / len(rows):.4f}{against}")
    print(f"  {time.perf_counter() - started:.0f} s with {a.workers} workers")


if __name__ == "__main__":
    main()
