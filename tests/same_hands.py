"""Seeded hands of every shipped ruleset and of the search bots, one JSON line each: run by
tests/test_compiled.py and tests/test_install.py under the interpreter compiled by mypyc and
under the plain Python one, whose lines must be identical.

    python tests/same_hands.py

The first line says which interpreter ran (``compiled``: the engine module is a C extension).
"""
from __future__ import annotations

import copy
import io
import json
import os
import pickle
import subprocess
from pathlib import Path

import tonkdsl.interpreter.engine as engine
from tonkdsl.language.resources import shipped_ruleset_names
from tonkdsl.tools import simulate as sim

HANDS = 40  # a ruleset's hands (matches, for a ruleset played as matches)
MATCHES = 3


def lines() -> list[str]:
    out = [json.dumps({"compiled": not engine.__file__.endswith(".py")})]
    for name in shipped_ruleset_names():
        rs = sim.ruleset_of(name)
        players = min(max(3, rs.players_min), rs.players_max)
        spec = sim.Spec(name, ("greedy", "random") + ("greedy",) * (players - 2), seed=11)
        buf = io.StringIO()
        tally = sim.run(spec, MATCHES if rs.session.is_match else HANDS, out=buf)
        out.append(json.dumps({"ruleset": name, "net": tally.pay_sum, "actions": tally.actions}))
        out.extend(buf.getvalue().splitlines())
    # The search bots' seeded decisions: a different choice shows in the hand's record (its
    # ending, payouts, counts or number of actions).
    for bots, hands in ((("montecarlo", "greedy"), 12), (("strong", "montecarlo"), 3)):
        buf = io.StringIO()
        sim.run(sim.Spec("standard", bots, seed=5), hands, out=buf)
        out.extend(buf.getvalue().splitlines())
    out.append(json.dumps({"records rebuilt": records_rebuilt()}))
    return out


def record_samples() -> list[object]:
    """One of each record that writes its own __init__, every field set (typed: compiled, an
    __init__ checks its arguments' types)."""
    from tonkdsl.interpreter.board import PlayerStats, TableSpread
    from tonkdsl.interpreter.outcome import Outcome, Payment
    from tonkdsl.interpreter.session import HandRecord

    paid = Payment("drop-won", 1, 0, 2)
    outcome = Outcome("drop_won", (0,), (2, -2), (3, 20), (paid,), "a message", ("drop-won",), (1, -1), 0,
                      ("drop-won",))
    return [paid, outcome, HandRecord(4, 1, 2, outcome, (), (0, 1), (1,)), PlayerStats(40, 1, 1, 2, 3, True),
            TableSpread(0, "run", [1, 2, 3], 7)]


def records_rebuilt() -> dict[str, bool]:
    """Whether copy, deepcopy and pickle rebuild each record that writes its own __init__ (a
    compiled class copied without saying how is called with no arguments, and fails)."""
    done = {}
    for obj in record_samples():
        twins = (copy.copy(obj), copy.deepcopy(obj), pickle.loads(pickle.dumps(obj)))
        done[type(obj).__name__] = all(type(t) is type(obj) and t == obj and repr(t) == repr(obj) for t in twins)
    return done


def run_in(python: str, cwd: Path, pure: bool = False) -> list[str]:
    """The lines printed by this script under ``python``: with ``pure``, from the source tree
    (its plain modules first on the path); else from wherever ``python`` installed tonkdsl
    (``-P``: the current folder is not put on the path)."""
    root = Path(__file__).resolve().parent.parent
    env = {"PYTHONPATH": str(root)} if pure else {}
    argv = [python, *([] if pure else ["-P"]), str(Path(__file__).resolve())]
    base = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(argv, cwd=cwd, env={**base, **env}, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


if __name__ == "__main__":
    print("\n".join(lines()))
