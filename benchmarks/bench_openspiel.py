"""OpenSpiel's bots against tonkdsl's strong bot, through the OpenSpiel adapter (python_tonk);
with --cost, the adapter's cost per player action next to the native engine's.

    python benchmarks/bench_openspiel.py [--ruleset standard] [--hands 200] [--workers 2]
                                         [--opponents random,ismcts:100,ismcts:400,greedy] [--bot strong]
                                         [--json]
    python benchmarks/bench_openspiel.py --cost [--ruleset standard] [--players 2] [--hands 3000]
                                         [--reps 7] [--json]

--cost: on one core, random and greedy playouts, side by side. Native: the interpreter deals
(its own shuffle) and plays each hand, a uniformly random legal action at each step (Python's
random.Random) or the greedy bot in every seat (as `tonk simulate` plays). OpenSpiel: the same
kind of hands through python_tonk, chance nodes included: at a chance node an outcome drawn by
its probability (one random number, walked along the outcomes), at a player node a uniformly
random legal action or the adapter's TonkdslBot("greedy"), each applied with apply_action.
Printed: microseconds a player action for both and their ratio, the median of REPS alternated
repetitions of HANDS hands; the first line says whether the interpreter ran compiled. The goal
(issue 81): OpenSpiel within 3 x native.

Needs the openspiel extra (pip install -e '.[openspiel]'). Two players. Every deal (its chance
outcomes, drawn once from a seeded generator: the hands, the upcard and the stock's cards in the
order they are needed) is played twice, the tonkdsl bot in one seat and
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

import random

from duplicate import in_chunks, interval
import tonkdsl.interpreter.engine as engine
from tonkdsl.interpreter.view import play_out
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.tools.bots import new_policy
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


class _Deal:
    """One deal played twice: the chance outcomes in the order the first play met them (the
    hands, the upcard, then each card of the stock as it was needed), given again in that order
    to the second play, and drawn from ``rng`` past what the first play needed (or where a
    rebuilt stock makes one impossible)."""

    def __init__(self, rng: Any) -> None:
        self.rng, self.outcomes = rng, []

    def outcome(self, state: Any, i: int) -> int:
        outcomes = state.chance_outcomes()
        if i < len(self.outcomes) and any(a == self.outcomes[i] for a, _ in outcomes):
            return self.outcomes[i]
        actions, probs = zip(*outcomes)
        drawn = int(self.rng.choice(actions, p=probs))
        if i == len(self.outcomes):
            self.outcomes.append(drawn)
        return drawn


def _play(game: Any, chance: _Deal, bots: list[Any], clocks: list[list[float]]) -> list[float]:
    state = game.new_initial_state()
    met = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance.outcome(state, met))
            met += 1
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
        chance = _Deal(np.random.RandomState(seed * 1_000_003 + deal))  # the deal, drawn once and played twice
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


_CHANCE = int(pyspiel.PlayerId.CHANCE)


def _native(ruleset: str, players: int, hands: int, bot: str, seed: int) -> tuple[int, float]:
    """(player actions, seconds) for ``hands`` hands played by the interpreter alone."""
    rs = load_ruleset(ruleset)
    actions, dealer = 0, players - 1
    r = random.Random(seed)
    policies = [new_policy(bot)] * players if bot != "random" else []
    start = time.perf_counter()
    for i in range(hands):
        st = engine.deal(rs, players, seed=derive_seed(seed, i), dealer=dealer)
        if policies:
            actions += play_out(st, policies, Rng(derive_seed(seed, i)))
            continue
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(legal[r.randrange(len(legal))], player=st.current_player())
            actions += 1
    return actions, time.perf_counter() - start


def _drive(game: Any, hands: int, seed: int, pick: Any) -> tuple[int, float]:
    """(player actions, seconds) for ``hands`` hands of ``game``: at a chance node an outcome
    drawn by its probability (one random number walked along the outcomes), at a player node
    ``pick(state, player, r)``'s action."""
    r = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == _CHANCE:
                x = r.random()
                for outcome, p in state.chance_outcomes():
                    x -= p
                    if x < 0:
                        break
                state.apply_action(outcome)
                continue
            state.apply_action(pick(state, player, r))
            actions += 1
    return actions, time.perf_counter() - start


def _at_random(state: Any, player: int, r: random.Random) -> int:
    legal = state.legal_actions()
    return int(legal[r.randrange(len(legal))])


def _through_openspiel(game: Any, hands: int, bot: str, seed: int) -> tuple[int, float]:
    """(player actions, seconds) for ``hands`` hands through the OpenSpiel game, chance included."""
    if bot == "random":
        return _drive(game, hands, seed, _at_random)
    bots = [T.TonkdslBot(bot, seed=seed)] * game.num_players()
    return _drive(game, hands, seed, lambda state, player, r: bots[player].step(state))


# --- the floor: OpenSpiel's own cost for a Python game, whatever the game computes -------------
# A Python game whose states replay the nodes of recorded python_tonk hands (the same chance
# nodes with the same outcome lists, the same player nodes with the same legal actions), every
# answer made in advance: what is left is pyspiel's round trips and the driver's loop, the least
# any Python OpenSpiel game with these nodes costs.
_FLOOR = pyspiel.GameType(
    short_name="python_tonk_floor", long_name="python_tonk's nodes, nothing computed",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION, utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=T.MAX_PLAYERS, min_num_players=1,
    provides_information_state_string=False, provides_information_state_tensor=False,
    provides_observation_string=False, provides_observation_tensor=False, parameter_specification={})
_SCRIPTS: list[list[tuple[int, Any, int]]] = []  # per hand: (player, outcomes or legal ids, the action applied)


class _FloorGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: Any = None) -> None:
        super().__init__(_FLOOR, pyspiel.GameInfo(
            num_distinct_actions=T.SPARE_IDS * 2, max_chance_outcomes=1000, num_players=_FLOOR_PLAYERS[0],
            min_utility=-1.0, max_utility=1.0, utility_sum=None, max_game_length=1_000_000), params or {})
        self.hands = 0

    def new_initial_state(self) -> "_FloorState":
        self.hands += 1
        return _FloorState(self, _SCRIPTS[(self.hands - 1) % len(_SCRIPTS)])


class _FloorState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: _FloorGame, script: list[tuple[int, Any, int]]) -> None:
        super().__init__(game)
        self.script, self.at, self.end = script, 0, len(script)

    def current_player(self) -> int:
        return self.script[self.at][0] if self.at < self.end else int(pyspiel.PlayerId.TERMINAL)

    def is_terminal(self) -> bool:
        return self.at >= self.end

    def chance_outcomes(self) -> Any:
        return self.script[self.at][1]

    def legal_actions(self, player: Any = None) -> Any:
        return self.script[self.at][1]

    def _apply_action(self, action: int) -> None:
        self.at += 1

    def returns(self) -> list[float]:
        return [0.0] * _FLOOR_PLAYERS[0]


_FLOOR_PLAYERS = [2]
pyspiel.register_game(_FLOOR, _FloorGame)


def _record(game: Any, hands: int, bot: str, seed: int) -> list[list[tuple[int, Any, int]]]:
    """The nodes of ``hands`` hands through python_tonk, as _through_openspiel plays them."""
    r = random.Random(seed)
    bots = [T.TonkdslBot(bot, seed=seed)] * game.num_players() if bot != "random" else []
    scripts = []
    for _ in range(hands):
        state, script = game.new_initial_state(), []
        while not state.is_terminal():
            player = state.current_player()
            if player == _CHANCE:
                outcomes = state.chance_outcomes()
                action = outcomes[int(r.random() * len(outcomes))][0]
                script.append((player, outcomes, action))
            else:
                legal = state.legal_actions()
                action = bots[player].step(state) if bots else legal[r.randrange(len(legal))]
                script.append((player, legal, action))
            state.apply_action(action)
        scripts.append(script)
    return scripts


def _floor(game: Any, hands: int, bot: str) -> tuple[int, float]:
    """(player actions, seconds) for the floor game's hands, driven as _through_openspiel drives
    python_tonk (a bot's choice replaced by the recorded action: the bot's work is not OpenSpiel's)."""
    if bot == "random":
        return _drive(game, hands, 0, _at_random)
    return _drive(game, hands, 0, lambda state, player, r: state.script[state.at][2])


def cost(ruleset: str, players: int, hands: int, reps: int, seed: int) -> list[dict[str, Any]]:
    game = pyspiel.load_game(T.SHORT_NAME, {"ruleset": ruleset, "players": players})
    _FLOOR_PLAYERS[0] = players
    floor_game = pyspiel.load_game("python_tonk_floor")
    rows = []
    for bot in ("random", "greedy"):
        _through_openspiel(game, 20, bot, seed)  # the action table and caches warmed
        _SCRIPTS[:] = _record(game, min(hands, 500), bot, seed)
        mine: list[float] = []
        theirs: list[float] = []
        floors: list[float] = []
        for rep in range(reps):  # alternated, so that a slow moment of the machine hits all three
            n, t = _native(ruleset, players, hands, bot, seed + rep)
            mine.append(1e6 * t / n)
            n, t = _through_openspiel(game, hands, bot, seed + rep)
            theirs.append(1e6 * t / n)
            n, t = _floor(floor_game, len(_SCRIPTS), bot)
            floors.append(1e6 * t / n)
        a, b, f = statistics.median(mine), statistics.median(theirs), statistics.median(floors)
        rows.append({"ruleset": ruleset, "players": players, "playouts": bot, "hands": hands, "reps": reps,
                     "native_us_per_action": round(a, 2), "openspiel_us_per_action": round(b, 2),
                     "ratio": round(b / a, 2), "floor_us_per_action": round(f, 2), "floor_ratio": round(f / a, 2)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--opponents", default="random,ismcts:100,ismcts:400,greedy")
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cost", action="store_true", help="the cost per player action next to the native engine's")
    ap.add_argument("--players", type=int, default=2, help="--cost: players at the table")
    ap.add_argument("--reps", type=int, default=7, help="--cost: alternated repetitions (the median is printed)")
    args = ap.parse_args()
    if args.cost:
        hands = args.hands if args.hands != ap.get_default("hands") else 3000
        rows = cost(args.ruleset, args.players, hands, args.reps, args.seed)
        if args.json:
            print(json.dumps({"compiled": engine.__file__.endswith((".so", ".pyd")), "rows": rows}, indent=1))
            return
        print(f"{args.ruleset}, {args.players} players, {hands} hands x {args.reps}, one core; interpreter "
              f"{'compiled (mypyc)' if engine.__file__.endswith(('.so', '.pyd')) else 'pure Python'}")
        print(f"{'playouts':10} {'native':>14} {'OpenSpiel':>14} {'ratio':>8}   {'floor':>14} {'ratio':>8}")
        for row in rows:
            print(f"{row['playouts']:10} {row['native_us_per_action']:>9.2f} us/a {row['openspiel_us_per_action']:>9.2f}"
                  f" us/a {row['ratio']:>6.2f} x   {row['floor_us_per_action']:>9.2f} us/a {row['floor_ratio']:>6.2f} x")
        print("floor: a Python OpenSpiel game with the same nodes and every answer made in advance "
              "(pyspiel's round trips and the driver alone)")
        return
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
