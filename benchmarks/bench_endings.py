"""Where a margin comes from: a match's hands by how they ended and who won them.

    python benchmarks/bench_endings.py [RULESET] [--bot strong] [--opponent montecarlo] [--deals 300] [--seed 7] [--workers 2] [--json]

Plays the bot against the opponent on `tonk tournament`'s duplicate deals (each deal twice, seats
swapped, sittings of ten deals with bots of their own, so the margin is the tournament's) and
sorts the hands by their ending (``Outcome.end``: drop_won, drop_caught, tonk_out, ...) and by
whose they were: the bot's when it is among the hand's winners, the opponent's when the
opponent is, nobody's otherwise. Per row: the hands, and their share of the margin a deal (the
bot's payout minus the opponent's, as the tournament counts it: the rows add up to the margin).
Then each side's drops: how many, and how many of them won.

A match between two bots who drop is a race to a drop (docs/strong-bot.md, "Where the margin comes
from"): the rows say whether a margin comes from drops won, from the other's drops caught, or
from the deal.
"""
from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from duplicate import ruleset_ref, sitting_arguments, sittings
from tonkdsl.language.rng import derive_seed
from tonkdsl.tools.bots import hand_value, new_policy
from tonkdsl.tools.simulate import play_hand, ruleset_of

SIDES = ("bot", "opponent", "nobody")


def _sitting(task: tuple[str, str, str, int, int, int]) -> dict[tuple[str, str], list[float]]:
    """Per (ending, whose): [hands, margin summed over the hands, each hand counting half its deal]."""
    ref, bot_name, opponent_name, seed, start, count = task
    rs = ruleset_of(ref)
    points, lowest = rs.score_sheet == "points", rs.lowest_score_wins
    bot, opponent = new_policy(bot_name), new_policy(opponent_name)  # the sitting's own, as the tournament's
    rows: dict[tuple[str, str], list[float]] = {}
    for deal in range(start, start + count):
        for seat in (0, 1):  # the tournament's seating: the bot in seat 0, then in seat 1
            bots = [opponent, opponent]
            bots[seat] = bot
            outcome, _ = play_hand(rs, bots, derive_seed(seed, deal), dealer=0)
            whose = "bot" if seat in outcome.winners else "opponent" if 1 - seat in outcome.winners else "nobody"
            margin = hand_value(outcome, seat, points, lowest) - hand_value(outcome, 1 - seat, points, lowest)
            row = rows.setdefault((outcome.end, whose), [0, 0.0])
            row[0] += 1
            row[1] += margin / 2  # a deal's margin is the mean of its two hands'
    return rows


def report(parts: list[dict[tuple[str, str], list[float]]], deals: int) -> dict[str, Any]:
    """The tables of :func:`main` as data."""
    total: dict[tuple[str, str], list[float]] = {}
    for part in parts:
        for key, (hands, margin) in part.items():
            row = total.setdefault(key, [0, 0.0])
            row[0] += hands
            row[1] += margin
    endings = [{"end": end, "won_by": whose, "hands": int(hands), "margin_per_deal": margin / deals}
               for (end, whose), (hands, margin) in sorted(total.items(), key=lambda kv: (kv[0][0], SIDES.index(kv[0][1])))]

    def drops(dropper: str) -> dict[str, int]:  # a drop is won by the dropper, or caught by another
        won = int(total.get(("drop_won", dropper), [0])[0])
        caught = int(sum(hands for (end, whose), (hands, _) in total.items() if end == "drop_caught" and whose != dropper))
        return {"drops": won + caught, "won": won}

    return {"deals": deals, "hands": 2 * deals, "margin_per_deal": sum(m for _, m in total.values()) / deals,
            "endings": endings, "drops": {"bot": drops("bot"), "opponent": drops("opponent")}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sitting_arguments(ap, "montecarlo", "the bot it plays against")
    ap.add_argument("--bot", default="strong", help="the bot whose margin is split")
    ap.add_argument("--json", action="store_true", help="the tables as one JSON object")
    a = ap.parse_args()
    ref = ruleset_ref(a.ruleset)
    started = time.perf_counter()
    tasks = [(ref, a.bot, a.opponent, a.seed, start, count) for start, count in sittings(a.deals)]
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        parts = list(pool.map(_sitting, tasks))
    out = report(parts, a.deals)
    if a.json:
        print(json.dumps({"ruleset": a.ruleset, "bot": a.bot, "opponent": a.opponent, "seed": a.seed, **out}))
        return
    print(f"{a.ruleset}: {a.bot} against {a.opponent}, {a.deals} deals, each played twice with the seats swapped; "
          f"seed {a.seed}; margin {out['margin_per_deal']:+.3f} a deal")
    print("  ending          won by      hands   margin a deal")
    for e in out["endings"]:
        print(f"  {e['end']:15s} {e['won_by']:9s} {e['hands']:7d}   {e['margin_per_deal']:+.3f}")
    for side in ("bot", "opponent"):
        d = out["drops"][side]
        name = a.bot if side == "bot" else a.opponent
        rate = f"{d['won'] / d['drops']:.0%}" if d["drops"] else "-"
        print(f"  {name}'s drops: {d['drops']}, won {d['won']} ({rate})")
    print(f"  {time.perf_counter() - started:.0f} s with {a.workers} workers")


if __name__ == "__main__":
    main()
