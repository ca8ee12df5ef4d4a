"""The PettingZoo environment's cost per step next to the native engine's, on random playouts.

    python benchmarks/bench_pettingzoo.py [--ruleset standard] [--players 2] [--hands 300] [--reps 5]

Native: the interpreter's State dealt and played with a random legal action at each step (a
seeded generator), one process. PettingZoo: the same hands (the same seeds) through
``tonkdsl.tools.pettingzoo_env``: at each step the acting agent's observation (the vector and
the action mask), a random legal action read from the mask, ``step``. Printed: microseconds a
player action for both, their ratio (median of REPS alternated repetitions). Needs the
'pettingzoo' extra.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

try:
    import numpy as np

    from tonkdsl.tools.pettingzoo_env import raw_env
except ImportError:
    sys.exit("bench_pettingzoo.py needs the pettingzoo extra: pip install -e '.[pettingzoo]'")

from tonkdsl.interpreter.engine import deal
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.rng import Rng, derive_seed


def native(ruleset: str, players: int, hands: int) -> tuple[int, float]:
    rs = load_ruleset(ruleset)
    actions = 0
    start = time.perf_counter()
    for i in range(hands):
        st = deal(rs, players, seed=derive_seed(1, i), dealer=players - 1)
        rng = Rng(i)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(rng.choice(legal), player=st.current_player())
            actions += 1
    return actions, time.perf_counter() - start


def through_pettingzoo(ruleset: str, players: int, hands: int) -> tuple[int, float]:
    e = raw_env(ruleset=ruleset, players=players, seed=1)
    actions = 0
    start = time.perf_counter()
    for i in range(hands):
        e.reset()
        rng = np.random.default_rng(i)
        for agent in e.agent_iter(max_iter=100_000):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            actions += 1
    return actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    through_pettingzoo(args.ruleset, args.players, 5)  # the action table and caches warmed
    mine, theirs = [], []
    for _ in range(args.reps):
        n, t = native(args.ruleset, args.players, args.hands)
        mine.append(1e6 * t / n)
        n, t = through_pettingzoo(args.ruleset, args.players, args.hands)
        theirs.append(1e6 * t / n)
    a, b = statistics.median(mine), statistics.median(theirs)
    print(f"{args.ruleset}, {args.players} players, random playouts, {args.hands} hands x {args.reps}")
    print(f"  native engine      {a:8.1f} us a player action")
    print(f"  PettingZoo (AEC)   {b:8.1f} us a player action   {b / a:.1f} x native")


if __name__ == "__main__":
    main()
