"""How `tonk serve` holds up under load: many tables, many browsers, bots thinking meanwhile.

    python benchmarks/bench_serve.py [--tables 50] [--clients 4] [--bot-tables 10] [--seconds 30]
                                     [--think 0.5] [--ruleset standard] [--bot strong] [--json]

One server process (uvicorn, as `tonk serve` runs it) hosts every table in one app; this process
plays every browser over a real WebSocket (the `websockets` client the serve extra installs).
Each browser takes a seat with the table's code, and when the page offers it legal actions it
waits a person's thinking time (uniform between 0 and 2 x --think seconds), sends one of them
(a seeded random choice; the first seat deals the next hand) and measures the **answer**: the
seconds from sending the action to receiving the snapshot that follows it.

Two runs, the same tables and seeds: first people only at every table, then with --bot-tables
of them seating two bots (--bot, the strong bot by default: about 0.1 s of search a decision) for
two of the people, whose browsers stay to watch. Printed for each run: actions answered, the
answer's p50, p95, p99 and max over the people-only tables and over the tables with bots, and
the server's CPU. The second run's people-only p99 against the first's says whether a bot
thinking at one table delays another table's answers (the target: p99 under 1.1 s, and the
people-only tables' p99 no worse with bots than without beyond noise). The figures are in
docs/serve.md.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

try:
    import uvicorn
    import websockets
except ImportError:  # the serve extra is optional
    sys.exit("bench_serve.py needs the serve extra: pip install -e '.[serve]'")


@dataclass
class TableSpec:
    table: str
    code: str
    bots: bool


def _serve(port: int, tables: int, clients: int, bot_tables: int, bot: str, ruleset: str,
           ready: Any) -> None:
    """The server process: every table in one app, as many people as browsers (less two where
    bots sit), sessions long enough not to end during the run."""
    from tonkdsl.tools.serve import make_game
    from tonkdsl.tools.serve.app import create_app
    from tonkdsl.tools.serve.room import Room

    rooms, specs = [], []
    for t in range(tables):
        bots = (bot, bot) if t < bot_tables else ()
        game = make_game(ruleset, seats=clients, bots=bots, names=(), stake=1, hands=10_000, seed=1_000 + t,
                         save=None, resume=None)
        room = Room(game, lobby=False)
        rooms.append(room)
        specs.append(TableSpec(room.table_id, room.code, bool(bots)))
    app = create_app(rooms, bot_delay=0.6)  # the default of tonk serve: bots pause so people can follow
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", ws_max_size=1 << 20))
    ready.send([(s.table, s.code, s.bots) for s in specs])
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped
        pass


@dataclass
class Results:
    answers: dict[bool, list[float]] = field(default_factory=lambda: {False: [], True: []})
    errors: list[str] = field(default_factory=list)


async def _browser(url: str, spec: TableSpec, index: int, think: float, until: float, rng: random.Random,
                   results: Results) -> None:
    """One person's browser: join, then act whenever the page offers actions, timing each answer."""
    async with websockets.connect(url, max_size=1 << 22) as ws:
        await ws.send(json.dumps({"type": "join", "code": spec.code, "token": None}))
        sent_at: float | None = None
        seated = False
        msg: dict[str, Any] | None = None
        while time.monotonic() < until:
            if msg is None:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                msg = json.loads(raw)
            if msg["type"] == "seat":
                seated = True
            if sent_at is not None and msg["type"] in ("state", "error"):
                results.answers[spec.bots].append(time.perf_counter() - sent_at)
                sent_at = None
                if msg["type"] == "error":
                    results.errors.append(msg["message"])
            action = _choice(msg, index, rng) if seated else None
            msg = None
            if action is None:
                continue
            await asyncio.sleep(rng.uniform(0, 2 * think))
            # A person acts on the page as it is now: snapshots that came while they thought
            # (another player's move, a bot's) are read first, as a browser shows them.
            newer = await _drain(ws)
            if newer is not None:
                msg = newer
                continue
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action}))


def _choice(msg: dict[str, Any], index: int, rng: random.Random) -> str | None:
    """What a person does on this page: one of the legal actions, or deal the next hand (the
    first seat), or nothing (not their turn)."""
    if msg["type"] != "state" or msg.get("you") is None:
        return None
    if msg.get("legal"):
        return str(rng.choice(msg["legal"]))
    if msg.get("over") and index == 0 and not msg.get("game_over"):
        return f"next hand {msg['hand_number'] + 1}"
    return None


async def _drain(ws: Any) -> dict[str, Any] | None:
    """The newest of the messages already received, if any."""
    newest = None
    while True:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=0.001)
        except asyncio.TimeoutError:
            return newest
        newest = json.loads(raw)


def _quantile(xs: list[float], q: float) -> float:
    return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


async def _play(port: int, specs: list[TableSpec], clients: int, bots: int, think: float, seconds: float,
                seed: int) -> Results:
    results = Results()
    until = time.monotonic() + seconds
    tasks = []
    for t, spec in enumerate(specs):
        for i in range(clients):
            url = f"ws://127.0.0.1:{port}/t/{spec.table}/ws"
            rng = random.Random(seed * 10_007 + t * 101 + i)
            # Where bots sit, the browsers beyond the people's seats watch (and are counted).
            tasks.append(_browser(url, spec, i, think, until, rng, results) if i < clients - (2 if spec.bots else 0)
                         else _watch(url, until))
    await asyncio.gather(*tasks)
    return results


async def _watch(url: str, until: float) -> None:
    async with websockets.connect(url, max_size=1 << 22) as ws:
        while time.monotonic() < until:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
            except asyncio.TimeoutError:
                break


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(tables: int, clients: int, bot_tables: int, bot: str, ruleset: str, think: float, seconds: float,
        seed: int) -> dict[str, Any]:
    port = _free_port()
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    server = ctx.Process(target=_serve, args=(port, tables, clients, bot_tables, bot, ruleset, child))
    server.start()
    try:
        specs = [TableSpec(*s) for s in parent.recv()]
        for _ in range(200):  # until the server listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        cpu0 = _cpu_seconds(server.pid)
        t0 = time.monotonic()
        results = asyncio.run(_play(port, specs, clients, bot_tables, think, seconds, seed))
        wall = time.monotonic() - t0
        cpu = _cpu_seconds(server.pid) - cpu0
    finally:
        if server.pid is not None:
            os.kill(server.pid, signal.SIGINT)  # uvicorn's orderly stop: the bots' workers end with it
        server.join(timeout=15)
        if server.is_alive():
            server.kill()
    out: dict[str, Any] = {"tables": tables, "clients": tables * clients, "tables_with_bots": bot_tables,
                           "seconds": round(wall, 1), "server_cpu": round(cpu / wall, 2) if wall else None,
                           "refusals": sorted(set(results.errors))}
    for bots, label in ((False, "people_tables"), (True, "bot_tables")):
        xs = results.answers[bots]
        out[label] = {"answers": len(xs), "per_second": round(len(xs) / wall, 1),
                      "p50": round(_quantile(xs, 0.50), 3), "p95": round(_quantile(xs, 0.95), 3),
                      "p99": round(_quantile(xs, 0.99), 3), "max": round(max(xs), 3) if xs else None,
                      "mean": round(statistics.fmean(xs), 3) if xs else None}
    return out


def _cpu_seconds(pid: int | None) -> float:
    """The CPU seconds a process and its children (the bots' worker processes) have used, from
    Linux's /proc (0 elsewhere)."""
    total = 0.0
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return 0.0
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:  # fields[1]: the parent's pid
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--clients", type=int, default=4, help="browsers per table (its seats)")
    ap.add_argument("--bot-tables", type=int, default=10, help="tables seating two bots in the second run")
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--think", type=float, default=0.5, help="a person's mean seconds before acting")
    ap.add_argument("--seconds", type=float, default=30.0, help="length of each run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs = []
    for bot_tables in (0, args.bot_tables):
        runs.append(run(args.tables, args.clients, bot_tables, args.bot, args.ruleset, args.think, args.seconds,
                        args.seed))
        if not args.json:
            r = runs[-1]
            print(f"{r['tables']} tables, {r['clients']} browsers, {r['tables_with_bots']} tables with two {args.bot} bots, "
                  f"{r['seconds']} s, server CPU {r['server_cpu']} cores")
            for why in r["refusals"]:
                print(f"  refused: {why}")
            for label in ("people_tables", "bot_tables"):
                s = r[label]
                if s["answers"]:
                    print(f"  {label.replace('_', ' ')}: {s['answers']} answers ({s['per_second']}/s), "
                          f"p50 {s['p50']:.3f} s, p95 {s['p95']:.3f} s, p99 {s['p99']:.3f} s, max {s['max']:.3f} s")
    if args.json:
        print(json.dumps({"ruleset": args.ruleset, "think": args.think, "runs": runs}, indent=1))
    else:
        a, b = runs[0]["people_tables"]["p99"], runs[-1]["people_tables"]["p99"]
        worst = max(r[k]["p99"] for r in runs for k in ("people_tables", "bot_tables") if r[k]["answers"])
        print(f"p99 at people-only tables: {a:.3f} s without bots, {b:.3f} s with bots at other tables "
              f"(x{b / a:.2f}); worst p99 {worst:.3f} s (target < 1.1 s): {'ok' if worst < 1.1 else 'MISSED'}")


if __name__ == "__main__":
    main()
