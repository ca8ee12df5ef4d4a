"""The strong bot's margin over greedy, with a 95% confidence interval.

    python benchmarks/bench_bots.py [--hands 2000] [--seed 7] [--ruleset standard]

Each seeded hand of 3 players seats the Monte-Carlo bot in one seat (rotating) against two
greedy bots; the margin is the strong bot's payout minus the greedy bots' average payout in the
same hand, in stakes per hand. The interval is mean +- 1.96 standard errors.
"""
from __future__ import annotations

import argparse
import math
import statistics
import time

from tonkdsl import load_ruleset
from tonkdsl.bots import greedy_bot, make_montecarlo_bot
from tonkdsl.rng import derive_seed
from tonkdsl.simulate import play_hand


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--samples", type=int, default=24, help="Monte-Carlo worlds per drop decision")
    a = ap.parse_args()
    rs = load_ruleset(a.ruleset)
    strong = make_montecarlo_bot(samples=a.samples)
    margins, strong_pay = [], []
    t0 = time.perf_counter()
    for i in range(a.hands):
        seat = i % 3
        bots = [greedy_bot] * 3
        bots[seat] = strong
        out, _ = play_hand(rs, bots, derive_seed(a.seed, i), i % 3)
        others = [out.payouts[s] for s in range(3) if s != seat]
        margins.append(out.payouts[seat] - sum(others) / 2)
        strong_pay.append(out.payouts[seat])
    dt = time.perf_counter() - t0
    m = statistics.mean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    print(f"{a.ruleset}: {a.hands} seeded hands, montecarlo ({a.samples} worlds) vs 2 greedy, {dt:.1f} s")
    print(f"montecarlo mean payout: {statistics.mean(strong_pay):+.3f} stakes/hand")
    print(f"margin over greedy: {m:+.3f} stakes/hand, 95% CI [{m - half:+.3f}, {m + half:+.3f}]")
    print("significant" if m - half > 0 else "not significant")


if __name__ == "__main__":
    main()
