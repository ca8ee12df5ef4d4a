"""How strong the bots are: a `tonk tournament` between them on each ruleset, two players.

    python benchmarks/bench_bots.py [--deals 1000] [--bots greedy,montecarlo,strong] [--workers 2]
        [--rulesets standard,speno,chicago,seattle,hoyle-tunk,tests/rulesets/eating-and-pot.yaml]
        [--seed 7] [--json]

Every pair of bots plays the same deals, each deal twice with the same dealer (seat 0), each bot
in one seat and then in the other, so that both sides get the same cards and the same turn (who
plays first weighs a lot in Tonk); the margin of a hand is the first bot's payout minus the
other's (money; a ruleset with a score sheet counts its scores the same way), in stakes, with its
95% interval over deals (tonkdsl.tools.tournament). Printed per ruleset: every pair's margin, the
ranking by Elo rating with its bootstrap interval, and each bot's seconds per decision (with the
benchmark's workers busy on every core), then the wall time. The figures are in docs/play.md.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tonkdsl.tools import tournament

RULESETS = "standard,speno,chicago,seattle,hoyle-tunk,tests/rulesets/eating-and-pot.yaml"
ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals per pair of bots (each played twice)")
    ap.add_argument("--rulesets", default=RULESETS, help="shipped names or paths (from the repository's root)")
    ap.add_argument("--bots", default="greedy,montecarlo,strong")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true", help="one JSON object per ruleset (tonk tournament --json's)")
    a = ap.parse_args()
    bots = a.bots.split(",")
    for ref in a.rulesets.split(","):
        key = str(ROOT / ref) if ref.endswith((".yaml", ".yml")) else ref
        started = time.perf_counter()
        result = tournament.run(key, bots, a.deals, a.seed, label=ref, workers=a.workers)
        wall = time.perf_counter() - started
        if a.json:
            print(json.dumps({**tournament.to_json(result), "seconds": wall}), flush=True)
        else:
            print(tournament.render_text(result), flush=True)
            print(f"  {wall:.0f} s with {a.workers} workers\n", flush=True)


if __name__ == "__main__":
    main()
