"""What the bot benchmarks share: deals played in chunks by worker processes, and the margin's
95% interval (mean +- 1.96 standard errors), for bench_openspiel.py (bench_bots.py runs `tonk
tournament`, which computes the same over deals)."""
from __future__ import annotations

import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable


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
