"""OpenSpiel's bots against tonkdsl's strong bot, through the OpenSpiel adapter (python_tonk).

    python benchmarks/bench_openspiel.py [--ruleset standard] [--hands 200] [--workers 2]
                                         [--opponents random,ismcts:100,ismcts:400,greedy] [--bot strong]
                                         [--json]

Needs the openspiel extra (pip install -e '.[openspiel]'). Two players. Every deal (its chance
outcomes, drawn once from a seeded generator) is played twice, the tonkdsl bot in one seat and
then in the other, as benchmarks/bench_bots.py does. The margin of a hand is the tonkdsl bot's
return minus the opponent's (stakes). Opponents: `random` (OpenSpiel's Python uniform random bot),
`ismcts:N` (OpenSpiel's information-set MCTS, N simulations a decision, random rollouts, UCT
c = 2, worlds from the adapter's resample_from_infostate), `ismcts:N:BOT` (the same, its rollouts
played by the tonkdsl bot BOT in every seat: the adapter's BotRolloutEvaluator, `ismcts:400:greedy`),
or any tonkdsl bot name (as a
reference, through the same adapter). Printed per opponent: the mean margin with its 95%
interval, and each side's seconds per decision. The figures are in docs/openspiel.md.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.bots import uniform_random
except ImportError:
    sys.exit("bench_openspiel.py needs the openspiel extra: pip install -e '.[openspiel]'")

from duplicate import in_chunks, interval
from tonkdsl.tools import openspiel as T
from tonkdsl.tools.bots import bot_problem


def _opponent(name: str, game: Any, seat: int, seed: int) -> Any:
    if name == "random":
        return uniform_random.UniformRandomBot(seat, np.random.RandomState(seed))
    if name.startswith("ismcts"):
        _, _, rest = name.partition(":")
        sims_text, _, rollout_bot = rest.partition(":")
        sims = int(sims_text or 100)
        rng = np.random.RandomState(seed)
        evaluator = (T.BotRolloutEvaluator(rollout_bot, seed=seed) if rollout_bot
                     else mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng))
        search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=sims, random_state=rng)
        # OpenSpiel's own resampling draws from an unseeded sampler: seeded here, the search plays
        # the same for the same seed.
        search.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random_sample))
        return search
    return T.TonkdslBot(name, seed=seed)


def _tonkdsl_bot_in(name: str) -> str:
    """The tonkdsl bot that plays as ``name`` or plays its rollouts ('' for none)."""
    base, _, rest = name.partition(":")
    if base == "random":
        return ""
    return rest.partition(":")[2] if base == "ismcts" else name


def _play(game: Any, chance: list[int], bots: list[Any], clocks: list[list[float]]) -> list[float]:
    state = game.new_initial_state()
    outcomes = iter(chance)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(next(outcomes))
            continue
        player = state.current_player()
        t0 = time.perf_counter()
        action = bots[player].step(state)
        clocks[player].append(time.perf_counter() - t0)
        state.apply_action(action)
    return list(state.returns())


def _deals(args: tuple[str, str, str, int, int, int]) -> dict[str, Any]:
    ruleset, bot_name, opponent, seed, first, count = args
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": ruleset, "players": 2})
    margins: list[float] = []
    costs: dict[str, list[float]] = {"bot": [], "opponent": []}
    for deal in range(first, first + count):
        rng = np.random.RandomState(seed * 1_000_003 + deal)
        state, chance = game.new_initial_state(), []
        while state.is_chance_node():  # the deal, drawn once and played twice
            outcomes, probs = zip(*state.chance_outcomes())
            chance.append(int(rng.choice(outcomes, p=probs)))
            state.apply_action(chance[-1])
        for seat in (0, 1):
            bots: list[Any] = [None, None]
            bots[seat] = T.TonkdslBot(bot_name, seed=seed + deal)
            bots[1 - seat] = _opponent(opponent, game, 1 - seat, seed + deal)
            clocks: list[list[float]] = [[], []]
            returns = _play(game, chance, bots, clocks)
            margins.append(returns[seat] - returns[1 - seat])
            costs["bot"] += clocks[seat]
            costs["opponent"] += clocks[1 - seat]
    return {"margins": margins, "costs": costs}


def bench(ruleset: str, bot: str, opponent: str, hands: int, seed: int, workers: int) -> dict[str, Any]:
    parts, wall = in_chunks(_deals, ruleset, bot, opponent, hands, seed, workers)
    margins = [m for p in parts for m in p["margins"]]
    mean, half = interval(margins)
    bot_clock = [c for p in parts for c in p["costs"]["bot"]]
    opp_clock = [c for p in parts for c in p["costs"]["opponent"]]
    return {"ruleset": ruleset, "bot": bot, "opponent": opponent, "hands": len(margins),
            "margin": round(mean, 3), "low": round(mean - half, 3), "high": round(mean + half, 3),
            "bot_seconds_per_decision": round(statistics.fmean(bot_clock), 4) if bot_clock else None,
            "opponent_seconds_per_decision": round(statistics.fmean(opp_clock), 4) if opp_clock else None,
            "wall_seconds": round(wall, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--opponents", default="random,ismcts:100,ismcts:400,greedy")
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    for name in [args.bot] + opponents:  # a misspelt bot stops the run before any hand is played
        bot = _tonkdsl_bot_in(name)
        problem = bot_problem(bot) if bot else None
        if problem is not None:
            ap.error(f"{name}: {problem}")
    rows = []
    for opponent in opponents:
        row = bench(args.ruleset, args.bot, opponent, args.hands, args.seed, args.workers)
        rows.append(row)
        if not args.json:
            print(f"{args.ruleset}: {args.bot} vs {opponent}: margin {row['margin']:+.3f} "
                  f"[{row['low']:+.3f}, {row['high']:+.3f}] stakes a hand over {row['hands']} hands; "
                  f"s/decision {args.bot} {row['bot_seconds_per_decision']}, {opponent} "
                  f"{row['opponent_seconds_per_decision']} ({row['wall_seconds']} s)", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
