"""How `tonk simulate` scales on a Dask cluster: hands a second with 1, 2, ... worker processes.

    python benchmarks/bench_dask.py [--hands 200000] [--ruleset standard] [--max-workers CORES]

Starts a LocalCluster of N single-threaded worker processes for N = 1 .. max-workers, runs the
same seeded simulation on it (`tonkdsl.tools.simulate.run(..., scheduler=...)`) and prints the
wall time, hands a second and the speed-up over one worker; then the same run in this process.
Every run's totals are checked equal. Needs the 'dask' extra.
"""
from __future__ import annotations

import argparse
import os
import time

try:
    from dask.distributed import LocalCluster
except ImportError:
    raise SystemExit("bench_dask.py needs the dask extra: pip install -e '.[dask]'")

from tonkdsl.tools import simulate as sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--max-workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    spec = sim.Spec(args.ruleset, ("greedy",) * 3, 1)
    first = None
    base = 0.0
    for n in range(1, args.max_workers + 1):
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            sim.run(spec, 2_000, scheduler=cluster.scheduler_address)  # the workers load the ruleset once
            start = time.perf_counter()
            tally = sim.run(spec, args.hands, scheduler=cluster.scheduler_address)
            took = time.perf_counter() - start
        first = first or tally.to_json()
        assert tally.to_json() == first, "the totals differ with the number of workers"
        rate = args.hands / took
        base = base or rate
        print(f"dask, {n} worker{'s' if n > 1 else ' '}: {took:7.1f} s  {rate:9,.0f} hands/s  {rate / base:4.2f} x one worker")
    start = time.perf_counter()
    tally = sim.run(spec, args.hands)
    took = time.perf_counter() - start
    assert tally.to_json() == first
    print(f"this process:    {took:7.1f} s  {args.hands / took:9,.0f} hands/s")


if __name__ == "__main__":
    main()
