"""How strong the bots are: the strong bot against greedy and against montecarlo, two players.

    python benchmarks/bench_bots.py [--hands 2000] [--rulesets standard,speno,chicago,seattle]
                                    [--opponents greedy,montecarlo] [--bot strong] [--workers 2]
                                    [--no-reference]

Every deal is played twice with the same dealer (seat 0), the bot in one seat and then in the
other, so that both sides get the same cards and the same turn (who plays first weighs a lot in
Tonk); the margin of a hand is the bot's payout minus the opponent's (money; a ruleset with a
score sheet counts its scores the same way), in stakes. A reference line, montecarlo against
greedy on the same deals, gives the margin the strong bot's is compared with.
Printed per ruleset and opponent: the mean margin with its 95% confidence interval (mean +- 1.96
standard errors), whether the interval's lower bound is above 0, and what the search cost: the
seconds per decision it searched, decisions/s, and the engine's actions/s inside its rollouts.
The figures are in docs/play.md.
"""
from __future__ import annotations

import argparse
from typing import Any

from duplicate import in_chunks, interval
from tonkdsl import load_ruleset
from tonkdsl.language.rng import derive_seed
from tonkdsl.tools.bots import hand_value, policy
from tonkdsl.tools.simulate import play_hand
from tonkdsl.tools.strong import StrongBot


def _pairs(args: tuple[str, str, str, int, int, int]) -> dict[str, Any]:
    """Play deals ``first`` .. ``first + count`` twice each; the margins and the search costs."""
    ruleset, bot_name, opponent, seed, first, count = args
    rs = load_ruleset(ruleset)
    bot, other = policy(bot_name), policy(opponent)
    points, lowest = rs.score_sheet == "points", rs.lowest_score_wins
    margins = []
    for deal in range(first, first + count):
        for seat in (0, 1):
            bots = [other, other]
            bots[seat] = bot
            out, _ = play_hand(rs, bots, derive_seed(seed, deal), dealer=0)
            mine = hand_value(out, seat, points, lowest)
            margins.append(mine - hand_value(out, 1 - seat, points, lowest))
    stats = bot.stats if isinstance(bot, StrongBot) else None
    return {"margins": margins, "decisions": stats.decisions if stats else 0,
            "actions": stats.actions if stats else 0, "seconds": stats.seconds if stats else 0.0}


def bench(ruleset: str, bot: str, opponent: str, hands: int, seed: int, workers: int) -> bool:
    parts, wall = in_chunks(_pairs, ruleset, bot, opponent, hands, seed, workers)
    margins = [m for p in parts for m in p["margins"]]
    decisions = sum(p["decisions"] for p in parts)
    actions = sum(p["actions"] for p in parts)
    seconds = sum(p["seconds"] for p in parts)
    mean, half = interval(margins)
    above = bool(mean - half > 0)
    cost = (f"{seconds / decisions:.3f} s/decision, {decisions / seconds:.0f} decisions/s, "
            f"{actions / seconds:,.0f} rollout actions/s" if decisions else "no search")
    print(f"{ruleset:<10} {bot:<10} vs {opponent:<10} {len(margins):>5} hands  margin {mean:+.3f} "
          f"[{mean - half:+.3f}, {mean + half:+.3f}] {'above 0' if above else 'not above 0':<12} "
          f"{cost}; {wall:.0f} s", flush=True)
    return above


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands per ruleset and opponent (deals x 2 seats)")
    ap.add_argument("--rulesets", default="standard,speno,chicago,seattle")
    ap.add_argument("--opponents", default="greedy,montecarlo")
    ap.add_argument("--bot", default="strong", help="the bot measured (strong, strong:N, montecarlo, ...)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-reference", dest="reference", action="store_false",
                    help="leave out the reference line (montecarlo against greedy)")
    a = ap.parse_args()
    for name in a.rulesets.split(","):
        rs = load_ruleset(name)
        print(f"# {name}: {rs.name}, {rs.hand_size} cards, two players", flush=True)
        if a.reference:
            bench(name, "montecarlo", "greedy", a.hands, a.seed, a.workers)
        for opponent in a.opponents.split(","):
            bench(name, a.bot, opponent, a.hands, a.seed, a.workers)


if __name__ == "__main__":
    main()
