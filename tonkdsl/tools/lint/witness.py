"""Witnesses: for a rule that lint says can happen, a hand that makes it happen.

`tonk lint FILE --witness DIR` searches seeded hands (greedy players, and careless ones mixed
in so that more rules get their chance) for every ending, payout, score entry, automatic win,
bonus, ante and counter event of the ruleset. The first hand that makes each one happen is
written to DIR as a scenario file (seed, dealer and actions, with its `expect`), replayed at
once to check that it ends as found, so that `tonk replay` and `tonk check` show it happening.
What the search does not reach in its budget is neither proven nor witnessed: lint says so in a
note, never a warning (docs/lint.md).

The targets come from the compiled ruleset, not from a list of constructs: a rule that takes
effect is named in ``Outcome.fired`` by the engine, whatever kind of rule it is.
"""
from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path as FsPath
from typing import Iterator, Sequence

import yaml

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.rules import RULES
from tonkdsl.interpreter.engine import IllegalAction, RulesetError, State, deal
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View
from tonkdsl.language.diagnostics import LoadError, Path
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.tools.bots import greedy_bot, random_bot

_SALT = 0x3177  # the witness search's seeds, apart from simulate's and lint --simulate's
MAX_ACTIONS = 3000  # a hand longer than this is left out of the search (the turn cap ends it first)


@dataclass(frozen=True)
class Target:
    """Something the ruleset can make happen: ``key`` as the engine names it when it does."""

    key: str  # "end:drop_won", "rule:drop-won" (a payout, score entry, automatic win, bonus), "event:c:0"
    what: str  # in words: "the payout 'drop-won'"
    path: Path  # where the ruleset says it


@dataclass(frozen=True)
class Witness:
    target: Target
    seed: int
    dealer: int
    actions: list[str]
    outcome: Outcome  # how the hand ended: what its scenario's replay must end with
    hands: dict[str, list[str]] | None = None  # cards placed in the deal (a constructed witness)


@dataclass
class Search:
    """The result of one search: a witness per target reached, and what it cost."""

    targets: list[Target]
    players: int
    hands: int  # the budget
    played: int = 0
    seconds: float = 0.0
    found: dict[str, Witness] = field(default_factory=dict)
    # Witnesses not written, by target: their file in the folder is a link, or a file lint did not
    # write (not a witness), and was left as it was.
    kept: dict[str, FsPath] = field(default_factory=dict)

    def missing(self) -> list[Target]:
        return [t for t in self.targets if t.key not in self.found and t.key not in self.kept]

    def budget(self) -> str:
        return (f"{self.played:,} of at most {self.hands:,} seeded hands, {self.players} players, "
                f"{self.seconds:.2f} s")


def targets(rs: Ruleset) -> list[Target]:
    """Every rule of ``rs`` that a hand can make happen, with its place in the file."""
    out: list[Target] = []
    for i, rule in enumerate(rs.deal_wins):
        out.append(Target(f"rule:{rule.id}", f"the automatic win '{rule.id}'", ("deal_wins", "rules", i)))
        out += [Target(f"rule:{e.id}", f"the score entry '{e.id}'", ("deal_wins", "rules", i, "scores", j))
                for j, e in enumerate(rule.scores)]
    for kind, ending in rs.endings.items():
        out.append(Target(f"end:{kind}", f"the ending '{kind}'", ("endings", kind)))
        out += [Target(f"rule:{t.id}", f"the payout '{t.id}'", ("endings", kind, "payouts", j))
                for j, t in enumerate(ending.payouts)]
        out += [Target(f"rule:{e.id}", f"the score entry '{e.id}'", ("endings", kind, "scores", j))
                for j, e in enumerate(ending.scores)]
    out += [Target(f"rule:{b.transfer.id}", f"the bonus '{b.transfer.id}'", ("bonuses", j))
            for j, b in enumerate(rs.bonuses)]
    out += [Target(f"rule:{rid}", what, path) for rule in RULES for rid, what, path in rule.fired(rs)]
    if rs.ante is not None:
        out.append(Target("rule:ante", "the ante", ("pot", "ante")))
    out += [Target(f"rule:ante-{p.id}", f"the ante into '{p.id}'", ("side_pots", i, "ante"))
            for i, p in enumerate(rs.side_pots) if p.ante is not None]
    for counter in rs.counters:
        out += [Target(f"event:{counter.name}:{j}", f"the counter '{counter.name}' event {j + 1}",
                       ("counters", counter.name, "events", j)) for j in range(len(counter.events))]
    return list({t.key: t for t in out}.values())  # an id used twice is one target


_ENDS_A_HAND = (A.Drop, A.Claim, A.Spread, A.Hit, A.Eat, A.Fold)


def patient_bot(view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
    """Plays as greedy does, but never drops, claims, lays, hits, eats or folds while it can do
    anything else: the hands it plays reach the end of the stock."""
    calm = [a for a in legal if not isinstance(a, _ENDS_A_HAND)]
    return greedy_bot(view, calm or legal, rng)


def _hands(rs: Ruleset, players: int, hands: int, seed: int) -> Iterator[tuple[int, int, State, list[str]]]:
    """Seeded single hands, each played to its end: (seed, dealer, final state, actions)."""
    names = [f"P{s + 1}" for s in range(players)]
    for i in range(hands):
        hand_seed = derive_seed(seed ^ _SALT, i)
        dealer = i % players
        try:
            state = deal(rs, players, seed=hand_seed, dealer=dealer)
        except (RulesetError, ValueError):
            return  # the ruleset cannot deal these players: lint says why elsewhere
        rng = Rng(hand_seed ^ 0x5DEECE66D)
        # Hands of three kinds in turn: greedy players; one player in three careless (rules that
        # careful players avoid, a caught drop, a payout for the worst hand, get their chance);
        # patient players, who never end a hand they can go on with (the stock runs out).
        kind = i % 3
        bots = [patient_bot] * players if kind == 2 else [
            greedy_bot if kind == 0 or (i + s) % 3 else random_bot for s in range(players)]
        views = [View(state, s) for s in range(players)]
        actions: list[str] = []
        try:
            while state._outcome is None and len(actions) < MAX_ACTIONS:
                who = state.current if state.out_of_turn_seat is None else state.out_of_turn_seat
                action = bots[who](views[who], state.legal_actions(), rng)
                state.apply(action)
                actions.append(f"{names[who]} {action}")
        except (RulesetError, IllegalAction):
            return  # a rule that fails in play, or an offered action refused: lint --simulate and simulate say how
        if state._outcome is not None:
            yield hand_seed, dealer, state, actions


def search(rs: Ruleset, hands: int, seed: int = 0, players: int | None = None) -> Search:
    """Play up to ``hands`` seeded hands; keep the first that makes each target happen."""
    players = players or max(rs.players_min, min(3, rs.players_max))
    result = Search(targets(rs), players, hands)
    wanted = {t.key: t for t in result.targets}
    start = time.perf_counter()
    for hand_seed, dealer, state, actions in _hands(rs, players, hands, seed):
        result.played += 1
        out = state._outcome
        assert out is not None
        keys = {f"end:{out.end}", *(f"rule:{r}" for r in out.fired),
                *(f"event:{c}:{j}" for c, j in state.events_fired)}
        for key in keys:
            if key in wanted and key not in result.found:
                result.found[key] = Witness(wanted[key], hand_seed, dealer, actions, out)
        if len(result.found) == len(wanted):
            break
    result.seconds = time.perf_counter() - start
    return result


def _file_name(target: Target) -> str:
    """The witness file of ``target``: its key in letters, digits, - and _; where that loses
    something (a character replaced, a key cut at 80), a digest of the key keeps names apart."""
    plain = target.key.replace(":", "-")
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in plain)
    if safe == plain and len(safe) <= 80:
        return f"{safe}.yaml"
    return f"{safe[:70]}-{hashlib.sha256(target.key.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}.yaml"


_HEAD = "# Witness: "  # the first line of every witness file (lint replaces only such files)


def _writable(path: FsPath) -> bool:
    """Whether lint may write ``path``: not a link (which could lead outside the folder), and not
    a file of the user's (one that is not a witness lint wrote)."""
    if path.is_symlink():
        return False
    if not path.exists():
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return path.is_file() and f.read(len(_HEAD)) == _HEAD
    except OSError:
        return False


def write_text(folder: FsPath, name: str, text: str, ruleset_ref: str) -> FsPath | None:
    """Write a scenario found otherwise (the legality check's) into the witness folder, its
    ruleset line made relative to the folder; None where the file is not lint's to replace."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if not _writable(path):
        return None
    is_path = ruleset_ref.endswith((".yaml", ".yml")) or os.sep in ruleset_ref or "/" in ruleset_ref
    if is_path:
        rel = os.path.relpath(FsPath(ruleset_ref).resolve(), folder.resolve())
        text = re.sub(r"^ruleset: .*$", lambda _: f"ruleset: {yaml.safe_dump(rel).splitlines()[0]}", text, count=1,
                      flags=re.M)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(f"{_HEAD}a state that breaks the table.\n{text}")
    return path


def write(result: Search, ruleset_ref: str, folder: FsPath, rs: Ruleset | None = None) -> None:
    """Write each witness to ``folder`` as a scenario and replay it; a witness whose replay does
    not end as found is dropped (it is then reported as not witnessed). With ``rs``, an
    automatic win the search did not reach is built from the exact odds' example hand, dealt
    to the first player, and kept when its replay makes the win happen."""
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"P{s + 1}" for s in range(result.players)]
    is_path = ruleset_ref.endswith((".yaml", ".yml")) or os.sep in ruleset_ref or "/" in ruleset_ref
    ref = os.path.relpath(FsPath(ruleset_ref).resolve(), folder.resolve()) if is_path else ruleset_ref
    allow = [folder.resolve().parent, FsPath(ruleset_ref).resolve().parent] if is_path else []
    for key, w in list(result.found.items()):
        path = folder / _file_name(w.target)
        if not _writable(path):
            result.kept[key] = path
            del result.found[key]
            continue
        out = _write_one(path, w, names, ref, allow)
        if out != w.outcome:  # the hand did not replay to the same end: not a witness
            path.unlink()
            del result.found[key]
    if rs is not None:
        _constructed(rs, result, names, ref, allow, folder)


def _write_one(path: FsPath, w: Witness, names: list[str], ref: str, allow: list[FsPath],
               expect: bool = True) -> Outcome | None:
    """Write ``w`` as a scenario at ``path`` and replay it: the outcome of the replay (None when
    it does not replay)."""
    from tonkdsl.tools.scenario import load_scenario, replay

    doc: dict[str, object] = {"ruleset": ref, "players": names, "dealer": names[w.dealer], "seed": w.seed}
    if w.hands:
        doc["hands"] = w.hands
    doc["actions"] = w.actions
    out = w.outcome
    if expect:
        exp: dict[str, object] = {"end": out.end, "winners": [names[s] for s in out.winners],
                                  "payouts": {n: out.payouts[s] for s, n in enumerate(names)}}
        if out.scores:
            exp["scores"] = {n: out.scores[s] for s, n in enumerate(names)}
        doc["expect"] = exp
    where = ".".join(map(str, w.target.path))
    text = (f"{_HEAD}{w.target.what} ({where}) happens in this hand.\n"
            "# Written by tonk lint --witness; `tonk check` replays it.\n" + yaml.safe_dump(doc, sort_keys=False, width=100))
    # O_NOFOLLOW: a link put there after the check above is not followed either.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    try:
        got = replay(load_scenario(path, allow_paths=allow))
    except (LoadError, IllegalAction, RulesetError):
        return None
    return got.state.outcome() if got.error is None else None


# A placeholder until the constructed hand's replay gives the outcome (expect is not written then).
_NO_OUTCOME = Outcome("", (), (), ())
# Seeds tried for the rest of the deal around a constructed hand (another player may be dealt an
# automatic win too, and the wins then compete).
CONSTRUCT_SEEDS = 10


def _constructed(rs: Ruleset, result: Search, names: list[str], ref: str, allow: list[FsPath],
                 folder: FsPath) -> None:
    from tonkdsl.tools.lint.odds import TooManyHands, compute

    wanted = [t for t in result.missing() if t.key.startswith("rule:") and t.path[:2] == ("deal_wins", "rules")
              and len(t.path) == 3]
    if not wanted:
        return
    try:
        table = compute(rs, result.players)
    except TooManyHands:
        return
    examples = dict(table.examples)
    pack = rs.pack_for(result.players)
    for target in wanted:
        hand = examples.get(target.key.removeprefix("rule:"))
        if hand is None:
            continue
        path = folder / _file_name(target)
        if not _writable(path):
            result.kept[target.key] = path
            continue
        for seed in range(CONSTRUCT_SEEDS):
            w = Witness(target, seed, result.players - 1, [], _NO_OUTCOME, {names[0]: [pack.name(c) for c in hand]})
            out = _write_one(path, w, names, ref, allow, expect=False)
            if out is not None and target.key.removeprefix("rule:") in out.fired:
                w = replace(w, outcome=out)
                if _write_one(path, w, names, ref, allow) == out:
                    result.found[target.key] = w
                    break
        else:
            path.unlink(missing_ok=True)


__all__ = ["Search", "Target", "Witness", "search", "targets", "write"]
