"""What the bot benchmarks share: deals played in chunks by worker processes, and the margin's
95% interval (mean +- 1.96 standard errors), for bench_openspiel.py (bench_bots.py runs `tonk
tournament`, which computes the same over deals); the arguments and sittings of the benchmarks
that play the tournament's deals with bots of their own (bench_room.py, bench_calibration.py,
bench_endings.py); what a drop really did against the bot's view of it, and the Brier score and AUC
of chances against what came of them (bench_room.py, bench_reading.py)."""
from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View
from tonkdsl.tools.bots import hand_value
from tonkdsl.tools.tournament import MAX_CHUNK_DEALS

ROOT = Path(__file__).resolve().parent.parent


def sitting_arguments(ap: argparse.ArgumentParser, opponent: str, opponent_help: str) -> None:
    """The ruleset, ``--opponent`` (default ``opponent``), ``--deals``, ``--seed`` and
    ``--workers`` of a benchmark that plays the tournament's deals."""
    ap.add_argument("ruleset", nargs="?", default="standard", help="a shipped name or a path (from the repository's root)")
    ap.add_argument("--opponent", default=opponent, help=opponent_help)
    ap.add_argument("--deals", type=at_least_one, default=300, help="deals, each played twice")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=at_least_one, default=2)


def at_least_one(text: str) -> int:
    """A count of 1 or more, as argparse reads it: anything else is a usage error (exit 2), not
    a traceback from an empty match or pool."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': give a whole number, 1 or more") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"'{text}': give 1 or more")
    return number


def ruleset_ref(name: str) -> str:
    """A ruleset argument as the workers load it: a path from the repository's root, else a
    shipped name."""
    return str(ROOT / name) if name.endswith((".yaml", ".yml")) else name


def sittings(deals: int) -> list[tuple[int, int]]:
    """(first deal, deals) of each of `tonk tournament`'s sittings over deals 0 .. ``deals``: a
    sitting's bots are its own, so a bot that learns from the hands it sees end learns the same
    whatever the workers."""
    return [(start, min(MAX_CHUNK_DEALS, deals - start)) for start in range(0, deals, MAX_CHUNK_DEALS)]


def in_chunks(work: Callable[[tuple[str, str, str, int, int, int]], dict[str, Any]], ruleset: str, bot: str,
              opponent: str, hands: int, seed: int, workers: int) -> tuple[list[dict[str, Any]], float]:
    """``work`` run on every chunk of the hands' deals (each deal is played twice: hands / 2
    deals), in ``workers`` processes; its results in order, and the wall seconds."""
    deals = max(1, hands // 2)
    chunk = max(1, deals // (workers * 4))
    tasks = [(ruleset, bot, opponent, seed, first, min(chunk, deals - first)) for first in range(0, deals, chunk)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(work, tasks))
    return parts, time.perf_counter() - t0


def interval(margins: list[float]) -> tuple[float, float]:
    """The mean margin and the half-width of its 95% interval."""
    mean = statistics.fmean(margins)
    return mean, (1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else float("nan"))


def real_drop(view: View, drop: A.Action) -> Outcome | None:
    """What ``drop`` now would do with the real hands (read behind the view: benchmarks only);
    None where the hand goes on after it (a discard or a last round follows)."""
    ended = view._state.clone()
    ended.apply(drop)
    return ended.outcome()


def worth(view: View, outcome: Outcome) -> float:
    """What ``outcome`` is worth to ``view``'s seat, as the strong bot's search counts it."""
    rs = view.ruleset
    return hand_value(outcome, view.seat, rs.score_sheet == "points", rs.lowest_score_wins, view.sides, pot_shared=True)


def brier(noted: list[tuple[float, bool]]) -> float:
    """The mean squared error of the chances noted against what came of them."""
    return sum((chance - won) ** 2 for chance, won in noted) / len(noted)


def auc(noted: list[tuple[float, bool]]) -> float:
    """The chance that a drop that won was given a higher chance than one that lost (ties count
    a half): how well the chances tell them apart, however they are scaled."""
    ranked = sorted(noted)
    wins = sum(won for _, won in noted)
    losses = len(noted) - wins
    if not wins or not losses:
        return float("nan")
    below = 0.0  # the losses given less than the chance at hand, ties counting a half
    total = 0.0
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        tie_wins = sum(won for _, won in ranked[i:j])
        tie_losses = (j - i) - tie_wins
        total += tie_wins * (below + tie_losses / 2)
        below += tie_losses
        i = j
    return total / (wins * losses)
