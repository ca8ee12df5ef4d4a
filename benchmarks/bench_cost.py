"""The strong bot's time a decision at the default budget, by ruleset and number of players.

    python benchmarks/bench_cost.py [RULESET ...] [--players 2,3,4] [--hands 8] [--opponent montecarlo]
                                    [--seed 0] [--json]

For each ruleset (shipped names or paths; by default the six of the strong bot's goals) and each
number of players the ruleset seats, plays ``--hands`` hands, the strong bot at the default
budget in seat ``hand mod players`` and the opponent bot in every other seat, on one core, and
prints the bot's decisions, its time a decision (the mean and the slowest), its rollouts and the
actions they played a decision, and the time a rollout action took (the model players' judgements
of a drop included). The goal (docs/play.md, "The strong bot"): at most 0.2 s a decision on one
core. These are times: run it on a quiet machine, from the repository's root (a ruleset of tests/
extends a file beside its folder, which is allowed from there); it imports the installed package,
the compiled interpreter after a `pip install .` (the first line says which ran).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import tonkdsl.interpreter.engine as engine
from duplicate import ruleset_ref
from tonkdsl.language.diagnostics import LoadError
from tonkdsl.language.rng import derive_seed
from tonkdsl.tools.bots import bot_problem, new_policy
from tonkdsl.tools.simulate import play_hand, ruleset_of
from tonkdsl.tools.strong import StrongBot

RULESETS = ("standard", "speno", "chicago", "seattle", "hoyle-tunk", "tests/rulesets/eating-and-pot.yaml")


class _Watched(StrongBot):
    """The strong bot at the default budget, noting its slowest decision."""

    slowest = 0.0

    def __call__(self, view: Any, legal: Any, rng: Any) -> Any:
        before = self.stats.seconds
        action = super().__call__(view, legal, rng)
        self.slowest = max(self.slowest, self.stats.seconds - before)
        return action


def measure(ruleset: str, players: int, hands: int, opponent: str, seed: int) -> dict[str, Any]:
    """One row: the strong bot's costs over ``hands`` hands at a table of ``players``."""
    rs = ruleset_of(ruleset_ref(ruleset))
    bot, other = _Watched(), new_policy(opponent)
    for hand in range(hands):
        bots = [other] * players
        bots[hand % players] = bot
        play_hand(rs, bots, derive_seed(seed, hand), dealer=0)
    st = bot.stats
    row: dict[str, Any] = {"ruleset": ruleset, "players": players, "hands": hands, "decisions": st.decisions}
    if not st.decisions:  # every hand ended before the bot had a choice: no figure a decision, not a 0
        return {**row, "ms_per_decision": None, "slowest_ms": None, "rollouts_per_decision": None,
                "actions_per_decision": None, "us_per_action": None}
    return {**row, "ms_per_decision": 1000 * st.seconds / st.decisions, "slowest_ms": 1000 * bot.slowest,
            "rollouts_per_decision": st.rollouts / st.decisions, "actions_per_decision": st.actions / st.decisions,
            "us_per_action": 1e6 * st.seconds / max(1, st.actions)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", default=list(RULESETS), help="shipped names or paths")
    ap.add_argument("--players", default="2,3,4", help="comma-separated table sizes (those a ruleset seats)")
    ap.add_argument("--hands", type=int, default=8, help="hands for each ruleset and table size")
    ap.add_argument("--opponent", default="montecarlo", help="the bot in every other seat")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    a = ap.parse_args(argv)
    try:
        sizes = [int(x) for x in a.players.split(",")]
    except ValueError:
        ap.error(f"--players takes comma-separated numbers, e.g. 2,3,4 (got '{a.players}')")
    if a.hands < 1 or min(sizes) < 2:
        ap.error("--hands must be at least 1 and every table size at least 2")
    problem = bot_problem(a.opponent)
    if problem is not None:  # a misspelt bot: a usage error with "did you mean", before any hand
        ap.error(f"--opponent: {problem}")
    build = "compiled by mypyc" if not engine.__file__.endswith(".py") else "plain Python"
    try:
        loaded = [ruleset_of(ruleset_ref(ruleset)) for ruleset in a.rulesets]
    except LoadError as exc:  # a misspelt name or a broken file: its located message, no traceback
        ap.exit(2, f"{exc}\n")
    rows, started = [], time.perf_counter()
    for ruleset, rs in zip(a.rulesets, loaded):
        for players in sizes:
            if rs.players_min <= players <= rs.players_max:
                rows.append(measure(ruleset, players, a.hands, a.opponent, a.seed))
    if a.json:
        print(json.dumps({"interpreter": build, "opponent": a.opponent, "seed": a.seed, "rows": rows}, indent=2))
        return 0
    print(f"python {sys.version.split()[0]}; interpreter {build} ({Path(engine.__file__).parent}); "
          f"the strong bot at the default budget against {a.opponent}, one core")
    print(f"{'ruleset':<36} {'players':>7} {'decisions':>9} {'ms/decision':>11} {'slowest':>8} "
          f"{'rollouts':>8} {'actions':>8} {'us/action':>9}")
    for r in rows:
        name = f"{Path(r['ruleset']).stem:<36} {r['players']:>7} {r['decisions']:>9}"
        if not r["decisions"]:  # every hand ended before the bot had a choice to make
            print(f"{name} {'-':>11} {'-':>8} {'-':>8} {'-':>8} {'-':>9}")
            continue
        print(f"{name} {r['ms_per_decision']:>11.1f} {r['slowest_ms']:>8.0f} {r['rollouts_per_decision']:>8.0f} "
              f"{r['actions_per_decision']:>8.0f} {r['us_per_action']:>9.1f}")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
