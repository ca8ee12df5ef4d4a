"""Speed of the interpreter next to the hard-coded baseline, in one run on one machine.

    python benchmarks/bench_simulate.py [--hands 1500] [--reps 15] [--players 3]
                                        [--workers-hands 6000] [--memory 20000,200000]
                                        [--e2e-hands 20000] [--rollout-hands 6]

Prints hands/s and actions/s of `tonk simulate standard` (greedy bots, one core) and of
`../shared/bench/tonk_min.py bench --players 3`, and the ratio. Both run in this same process,
repetitions alternating between them; the medians are reported. Then the speed-up of two
worker processes over one, and the peak memory of whole `tonk simulate` runs of growing size
(tallies stream: memory should not grow with the number of hands), and the start-up of the
commands (a whole short `tonk simulate` next to the same hands played in-process), and the strong
bot's rollouts per second.

The first line says which interpreter ran: compiled by mypyc (a non-editable `pip install .`)
or plain Python (an editable install, or `TONKDSL_PURE=1`). Run it from outside the repository
with the installed package to measure the compiled one; `PYTHONPATH=.` measures the sources.
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tonkdsl.interpreter.engine as engine
from tonkdsl import load_ruleset
from tonkdsl.tools import simulate as sim
from tonkdsl.tools.bots import greedy_bot
from tonkdsl.tools.simulate import simulate
from tonkdsl.tools.strong import StrongBot

BASELINE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "tonk_min.py"


def load_baseline() -> Any | None:
    if not BASELINE.exists():
        print(f"  baseline not found at {BASELINE}")
        return None
    spec = importlib.util.spec_from_file_location("tonk_min", BASELINE)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tonkdsl_once(rs: Any, players: int, hands: int, rep: int) -> tuple[float, float]:
    t0 = time.perf_counter()
    s = simulate(rs, [greedy_bot] * players, hands, rep)
    dt = time.perf_counter() - t0
    return hands / dt, s.actions / dt


def baseline_once(mod: Any, players: int, hands: int, rep: int) -> tuple[float, float]:
    rng = random.Random(12345 + rep)
    acts = 0
    t0 = time.perf_counter()
    for _ in range(hands):
        acts += mod.play_hand(players, rng)[3]
    dt = time.perf_counter() - t0
    return hands / dt, acts / dt


def bench_speed(players: int, hands: int, reps: int) -> None:
    """Repetitions alternate between the two, so that a machine that speeds up or slows down
    during the run (shared cores, frequency scaling) weighs on both alike; the ratio reported
    is the median of the repetitions' ratios."""
    rs = load_ruleset("standard")
    mod = load_baseline()
    simulate(rs, [greedy_bot] * players, 200, 99)  # warm up
    ours: list[tuple[float, float]] = []
    base: list[tuple[float, float]] = []
    ratios: list[float] = []
    for rep in range(reps):
        ours.append(tonkdsl_once(rs, players, hands, rep))
        line = f"  rep {rep}: tonkdsl {ours[-1][0]:7.0f} hands/s {ours[-1][1]:8.0f} actions/s"
        if mod is not None:
            base.append(baseline_once(mod, players, hands * 4, rep))
            ratios.append(ours[-1][0] / base[-1][0])
            line += f" | baseline {base[-1][0]:7.0f} hands/s {base[-1][1]:8.0f} actions/s | ratio {ratios[-1]:.3f}"
        print(line)
    hps, aps = statistics.median(h for h, _ in ours), statistics.median(a for _, a in ours)
    print(f"tonkdsl : {hps:8.0f} hands/s {aps:9.0f} actions/s ({1e6 / aps:.1f} us/action)")
    if base:
        bhps, baps = statistics.median(h for h, _ in base), statistics.median(a for _, a in base)
        print(f"baseline: {bhps:8.0f} hands/s {baps:9.0f} actions/s ({1e6 / baps:.1f} us/action)")
        print(f"ratio   : {statistics.median(ratios):.3f} x the baseline's hands/s, median of {reps} "
              f"(range {min(ratios):.3f}-{max(ratios):.3f}; target 1.0)")


def bench_workers(hands: int) -> None:
    spec = sim.Spec("standard", ("greedy",) * 3, 1)
    times = {}
    for w in (1, 2):
        t0 = time.perf_counter()
        sim.run(spec, hands, workers=w)
        times[w] = time.perf_counter() - t0
        print(f"  workers={w}: {hands / times[w]:8.0f} hands/s")
    print(f"two workers: {times[1] / times[2]:.2f} x one worker (target 1.7)")


# Commands run from a folder outside the repository: 'python -m tonkdsl' there imports the
# installed package (the one this process measures), not the sources of the current folder.
ELSEWHERE = tempfile.gettempdir()


def _best_wall(argv: list[str], reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, cwd=ELSEWHERE)
        best = min(best, time.perf_counter() - t0)
    return best


def bench_startup(hands: int, reps: int) -> None:
    """The commands' start: '--help' alone, and a whole 'tonk simulate' against the same hands
    played in this process (the start-up's share of a short run)."""
    tonk = [sys.executable, "-m", "tonkdsl"]
    for args in (["--help"], ["simulate", "--help"], ["validate", "--help"]):
        print(f"  tonk {' '.join(args):<18} {_best_wall(tonk + args, reps):.3f} s (target 0.25)")
    spec = sim.Spec("standard", ("greedy",) * 3, 0)
    sim.ruleset_of("standard")
    inside = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        sim.run(spec, hands)
        inside = min(inside, time.perf_counter() - t0)
    whole = _best_wall(tonk + ["simulate", "standard", "-n", str(hands), "--players", "3"], reps)
    print(f"  {hands} hands in this process {inside:.3f} s; 'tonk simulate standard -n {hands}' "
          f"{whole:.3f} s: {whole / inside:.2f} x (target 1.3), best of {reps}")


def bench_end_to_end(hands: int, reps: int) -> None:
    """A whole 'tonk simulate standard' from the command line, start included, against the
    baseline's own command on as many hands (best of ``reps`` each)."""
    mod = load_baseline()
    if mod is None:
        return
    ours = _best_wall([sys.executable, "-m", "tonkdsl", "simulate", "standard", "-n", str(hands), "--players", "3"], reps)
    theirs = _best_wall([sys.executable, str(BASELINE), "bench", "--players", "3", "--hands", str(hands),
                         "--reps", "1"], reps)
    print(f"  'tonk simulate standard -n {hands} --players 3' {ours:.3f} s ({hands / ours:.0f} hands/s); "
          f"'tonk_min.py bench --hands {hands}' {theirs:.3f} s ({hands / theirs:.0f} hands/s): "
          f"{theirs / ours:.2f} x the baseline end to end (target 0.8), best of {reps}")


def bench_rollouts(hands: int) -> None:
    """The strong bot's searches: rollouts a second and actions a second within them (each
    rollout clones a world and plays it out with greedy or dropping players)."""
    rs = load_ruleset("standard")
    bot = StrongBot()
    t0 = time.perf_counter()
    for hand in range(hands):
        sim.play_hand(rs, [bot, greedy_bot], seed=1000 + hand, dealer=hand % 2)
    dt = time.perf_counter() - t0
    st = bot.stats
    print(f"  strong vs greedy, standard, {hands} hands: {st.decisions} decisions, "
          f"{1000 * st.seconds / max(1, st.decisions):.0f} ms a decision, {st.rollouts / st.seconds:,.0f} rollouts/s, "
          f"{st.actions / st.seconds:,.0f} rollout actions/s ({dt:.1f} s in all)")


def bench_memory(sizes: list[int]) -> None:
    for n in sizes:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "tonkdsl", "simulate", "standard", "-n", str(n), "--workers", "2",
                        "--json"], check=True, capture_output=True, cwd=ELSEWHERE)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"  {n:>9,} hands: {time.perf_counter() - t0:7.1f} s, peak memory of a process "
              f"{max(peak, before) / 1024:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1500, help="hands per repetition of the interpreter")
    ap.add_argument("--reps", type=int, default=15, help="repetitions of each (many short ones: a steadier median)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--workers-hands", type=int, default=6000)
    ap.add_argument("--memory", default="20000,200000", help="comma-separated run sizes ('' to skip)")
    ap.add_argument("--startup-hands", type=int, default=4000, help="hands of the start-up comparison (0 skips)")
    ap.add_argument("--e2e-hands", type=int, default=20000,
                    help="hands of the end-to-end comparison with the baseline's command (0 skips)")
    ap.add_argument("--rollout-hands", type=int, default=6, help="hands of the strong bot's rollouts (0 skips)")
    a = ap.parse_args()
    build = "compiled by mypyc" if not engine.__file__.endswith(".py") else "plain Python"
    print(f"python {sys.version.split()[0]}; interpreter {build} ({Path(engine.__file__).parent}); "
          f"standard, {a.players} players, greedy bots, one core")
    bench_speed(a.players, a.hands, a.reps)
    if a.workers_hands:
        bench_workers(a.workers_hands)
    if a.startup_hands:
        print("start-up")
        bench_startup(a.startup_hands, 7)
    if a.e2e_hands:
        print("end to end")
        bench_end_to_end(a.e2e_hands, 3)
    if a.rollout_hands:
        print("the strong bot's rollouts")
        bench_rollouts(a.rollout_hands)
    if a.memory:
        bench_memory([int(x) for x in a.memory.split(",")])


if __name__ == "__main__":
    main()
