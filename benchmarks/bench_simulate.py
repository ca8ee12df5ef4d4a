"""Speed of the interpreter next to the hard-coded baseline, in one run on one machine.

    python benchmarks/bench_simulate.py [--hands 3000] [--reps 3] [--players 3]

Prints hands/s and actions/s of `tonk simulate standard` (greedy bots, one core) and of
`../shared/bench/tonk_min.py bench --players 3`, and the ratio. The median of the repetitions
is reported; both run in this same process, one after the other.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

from tonkdsl import load_ruleset
from tonkdsl.bots import greedy_bot
from tonkdsl.simulate import simulate

BASELINE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "tonk_min.py"


def bench_tonkdsl(players: int, hands: int, reps: int) -> tuple[float, float]:
    rs = load_ruleset("standard")
    simulate(rs, [greedy_bot] * players, 200, 99)  # warm up
    hps, aps = [], []
    for rep in range(reps):
        t0 = time.perf_counter()
        s = simulate(rs, [greedy_bot] * players, hands, rep)
        dt = time.perf_counter() - t0
        hps.append(hands / dt)
        aps.append(s.actions / dt)
        print(f"  tonkdsl rep {rep}: {hands / dt:8.0f} hands/s {s.actions / dt:9.0f} actions/s "
              f"({s.actions / hands:.1f} actions/hand)")
    return statistics.median(hps), statistics.median(aps)


def bench_baseline(players: int, hands: int, reps: int) -> tuple[float, float] | None:
    if not BASELINE.exists():
        print(f"  baseline not found at {BASELINE}")
        return None
    spec = importlib.util.spec_from_file_location("tonk_min", BASELINE)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    import random

    hps, aps = [], []
    for rep in range(reps):
        rng = random.Random(12345 + rep)
        acts = 0
        t0 = time.perf_counter()
        for _ in range(hands):
            acts += mod.play_hand(players, rng)[3]
        dt = time.perf_counter() - t0
        hps.append(hands / dt)
        aps.append(acts / dt)
        print(f"  baseline rep {rep}: {hands / dt:8.0f} hands/s {acts / dt:9.0f} actions/s")
    return statistics.median(hps), statistics.median(aps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--players", type=int, default=3)
    a = ap.parse_args()
    print(f"python {sys.version.split()[0]}; standard, {a.players} players, greedy bots, one core")
    ours = bench_tonkdsl(a.players, a.hands, a.reps)
    base = bench_baseline(a.players, a.hands * 5, a.reps)
    print(f"tonkdsl : {ours[0]:8.0f} hands/s {ours[1]:9.0f} actions/s ({1e6 / ours[1]:.1f} us/action)")
    if base:
        print(f"baseline: {base[0]:8.0f} hands/s {base[1]:9.0f} actions/s ({1e6 / base[1]:.1f} us/action)")
        print(f"ratio   : {ours[0] / base[0]:.3f} x the baseline's hands/s (target 0.4)")


if __name__ == "__main__":
    main()
