"""Scenario files (see ../shared/scenario-format.md): load, replay, compare with ``expect``."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from tonkdsl.actions import Action, ActionSyntaxError, Slap, parse_action
from tonkdsl.cards import CardSyntaxError
from tonkdsl.diagnostics import Diagnostic, LoadError, Path, did_you_mean
from tonkdsl.engine import IllegalAction, Layout, RulesetError, State, deal
from tonkdsl.loader import load_ruleset, resolve_name
from tonkdsl.outcome import END_KINDS
from tonkdsl.ruleset import Ruleset
from tonkdsl.yamlsrc import Source, load_yaml_file

_KEYS = ("ruleset", "players", "dealer", "stake", "seed", "hands", "upcard", "stock", "actions", "expect")
_EXPECT_KEYS = ("end", "winners", "payouts", "counts", "scores", "error", "next")


@dataclass
class Scenario:
    file: str
    ruleset_ref: str
    ruleset: Ruleset
    players: list[str]
    dealer: int
    stake: int
    seed: int
    layout: Layout
    actions: list[tuple[int, Action, str]]  # (seat, action, text as written)
    expect: dict[str, Any] | None
    source: Source = field(repr=False)

    def new_state(self) -> State:
        return deal(self.ruleset, len(self.players), seed=self.seed, dealer=self.dealer, stake=self.stake,
                    layout=self.layout)


@dataclass
class Result:
    """What ``tonk replay`` prints; ``error`` is set when an action was illegal."""

    scenario: Scenario
    state: State
    applied: int
    error: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"error": self.error}
        names = self.scenario.players
        out = self.state.outcome()
        counts = self.state.counts()
        data: dict[str, Any] = {"ruleset": self.scenario.ruleset_ref}
        if out is None:
            data.update(end=None, winners=[], payouts={n: 0 for n in names})
        else:
            data.update(end=out.end, winners=[names[s] for s in out.winners],
                        payouts={n: out.payouts[i] for i, n in enumerate(names)})
            if out.message:
                data["message"] = out.message
        data["counts"] = {n: counts[i] for i, n in enumerate(names)}
        data["actions_applied"] = self.applied
        data["next"] = None if out is not None else names[self.state.current_player()]
        if out is not None and out.scores:
            data["scores"] = {n: out.scores[i] for i, n in enumerate(names)}
        if out is not None and out.payments:
            data["payments"] = [
                {"rule": p.rule, "from": names[p.payer], "to": names[p.payee], "amount": p.amount}
                for p in out.payments
            ]
        return data


class _Reader:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.problems: list[Diagnostic] = []

    def err(self, path: Path, message: str, code: str = "scenario", key: bool = False) -> None:
        self.problems.append(self.src.diagnostic(code, message, path, key=key))


def load_scenario(path: str | FsPath) -> Scenario:
    """Read and check a scenario file; raises :class:`LoadError` listing every problem."""
    p = FsPath(path)
    src = load_yaml_file(p)
    r = _Reader(src)
    d = src.data
    if not isinstance(d, dict):
        raise LoadError([src.diagnostic("scenario-shape", "a scenario file must be a mapping of keys", ())])
    for key in d:
        if key not in _KEYS:
            r.err((key,), f"unknown key '{key}'{did_you_mean(key, _KEYS)}", "scenario-unknown-key", key=True)
    for key in ("ruleset", "players", "actions"):
        if key not in d:
            r.err((), f"the scenario needs the key '{key}'", "scenario-missing-key")
    if r.problems:
        raise LoadError(r.problems)
    ref = d["ruleset"]
    if not isinstance(ref, str):
        raise LoadError([src.diagnostic("scenario-type", "'ruleset' must be a ruleset name or path", ("ruleset",))])
    try:
        ruleset = load_ruleset(resolve_name(ref, p.parent))
    except LoadError as exc:
        raise LoadError([src.diagnostic("scenario-ruleset", f"the ruleset '{ref}' cannot be loaded (see below)",
                                        ("ruleset",))] + exc.diagnostics) from None
    players = d["players"]
    if (not isinstance(players, list) or not players
            or not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in players)):
        raise LoadError([src.diagnostic("scenario-type", "'players' must be a list of names", ("players",))])
    players = [str(x) for x in players]
    if len(set(players)) != len(players):
        r.err(("players",), "two players have the same name")
    if not ruleset.players_min <= len(players) <= ruleset.players_max:
        r.err(("players",), f"this ruleset is for {ruleset.players_min} to {ruleset.players_max} players, "
              f"not {len(players)}")
    seat_of = {n: i for i, n in enumerate(players)}

    def seat(name: Any, path: Path) -> int | None:
        if str(name) in seat_of:
            return seat_of[str(name)]
        r.err(path, f"'{name}' is not one of the players{did_you_mean(str(name), players)}")
        return None

    dealer = len(players) - 1
    if "dealer" in d:
        found = seat(d["dealer"], ("dealer",))
        dealer = found if found is not None else dealer
    stake, seed = d.get("stake", 1), d.get("seed", 0)
    if not isinstance(stake, int) or isinstance(stake, bool) or stake < 1:
        r.err(("stake",), "'stake' must be a whole number of at least 1")
        stake = 1
    if not isinstance(seed, int) or isinstance(seed, bool):
        r.err(("seed",), "'seed' must be a whole number")
        seed = 0
    pack = ruleset.pack
    taken: list[int] = []

    def card(text: Any, path: Path) -> int | None:
        try:
            cid = pack.find(str(text), taken)
        except CardSyntaxError as exc:
            r.err(path, str(exc), "scenario-card")
            return None
        except KeyError:
            name = str(text).upper()
            if any(n == name for n in pack.names) or name in (pack.names[c] for c in taken):
                r.err(path, f"{text} appears twice in the scenario", "scenario-card")
            else:
                r.err(path, f"{text} is not in the pack of '{ref}'", "scenario-card")
            return None
        taken.append(cid)
        return cid

    hands: dict[int, list[int]] = {}
    raw_hands = d.get("hands") or {}
    if not isinstance(raw_hands, dict):
        r.err(("hands",), "'hands' must map player names to lists of cards")
        raw_hands = {}
    for name, cards in raw_hands.items():
        s = seat(name, ("hands", name))
        if not isinstance(cards, list):
            r.err(("hands", name), "a hand must be a list of cards, e.g. [10S, 8D, 8H, 5S, 4H]")
            continue
        ids = [card(c, ("hands", name, i)) for i, c in enumerate(cards)]
        if len(cards) != ruleset.hand_size:
            r.err(("hands", name), f"{name} has {len(cards)} cards; this ruleset deals {ruleset.hand_size}")
        if s is not None:
            hands[s] = [c for c in ids if c is not None]
    upcard = None
    if d.get("upcard") is not None:
        if not ruleset.upcard:
            r.err(("upcard",), f"the ruleset '{ref}' turns no upcard")
        else:
            upcard = card(d["upcard"], ("upcard",))
    stock: list[int] = []
    raw_stock = d.get("stock") or []
    if not isinstance(raw_stock, list):
        r.err(("stock",), "'stock' must be a list of cards, top first")
        raw_stock = []
    for i, c in enumerate(raw_stock):
        cid = card(c, ("stock", i))
        if cid is not None:
            stock.append(cid)
    room = len(pack) - len(players) * ruleset.hand_size - (1 if ruleset.upcard else 0)
    if len(stock) > room:
        r.err(("stock",), f"the stock holds {room} cards in this deal, but {len(stock)} are listed")
    acts: list[tuple[int, Action, str]] = []
    raw_actions = d.get("actions") or []
    if not isinstance(raw_actions, list):
        r.err(("actions",), "'actions' must be a list such as ['Toubib draw stock', ...]")
        raw_actions = []
    for i, line in enumerate(raw_actions):
        if not isinstance(line, str) or not line.split():
            r.err(("actions", i), "an action is '<player> <action>', e.g. 'Toubib draw stock'")
            continue
        who, _, rest = line.strip().partition(" ")
        s = seat(who, ("actions", i))
        try:
            act = parse_action(rest)
        except ActionSyntaxError as exc:
            r.err(("actions", i), str(exc), "scenario-action")
            continue
        if s is not None:
            acts.append((s, act, line.strip()))
    expect = d.get("expect")
    if expect is not None:
        if not isinstance(expect, dict):
            r.err(("expect",), "'expect' must be a mapping (end, winners, payouts, counts, error)")
            expect = None
        else:
            for key in expect:
                if key not in _EXPECT_KEYS:
                    r.err(("expect", key), f"unknown key '{key}'{did_you_mean(key, _EXPECT_KEYS)}",
                          "scenario-unknown-key", key=True)
            end = expect.get("end")
            if end is not None and end not in END_KINDS:
                r.err(("expect", "end"), f"'{end}' is not an ending{did_you_mean(str(end), END_KINDS)}; "
                      f"endings: {', '.join(END_KINDS)}")
    if r.problems:
        raise LoadError(r.problems)
    return Scenario(str(path), ref, ruleset, players, dealer, stake, seed, Layout(hands, upcard, stock),
                    acts, expect, src)


def replay(scn: Scenario) -> Result:
    """Deal and apply every action; stops at the first illegal one."""
    state = scn.new_state()
    names = scn.players
    for i, (seat, act, text) in enumerate(scn.actions):
        reason: str | None = None
        if state.is_terminal():
            reason = "the hand is over"
        elif seat != state.current_player() and not isinstance(act, Slap):
            reason = f"it is {names[state.current_player()]}'s turn, not {names[seat]}'s"
        else:
            try:
                state.apply(act, player=seat)
            except IllegalAction as exc:
                reason = str(exc)
            except RulesetError as exc:
                reason = f"the ruleset failed: {exc}"
        if reason is not None:
            return Result(scn, state, i, {"index": i + 1, "action": text, "message": reason})
    return Result(scn, state, len(scn.actions))


def compare(result: Result) -> list[str]:
    """The differences between the replay and the scenario's ``expect`` (empty when it matches)."""
    exp = result.scenario.expect or {}
    got = result.to_json()
    out: list[str] = []
    if "error" in exp:
        want = exp["error"] or {}
        err = got.get("error")
        if err is None:
            return [f"expected action {want.get('index', '?')} to be refused, but every action was legal"]
        if "index" in want and want["index"] != err["index"]:
            out.append(f"expected action {want['index']} to be refused, but action {err['index']} was: "
                       f"{err['message']}")
        if "message" in want and want["message"] != err["message"]:
            out.append(f"refusal message: expected '{want['message']}', got '{err['message']}'")
        return out
    if "error" in got:
        e = got["error"]
        return [f"action {e['index']} ('{e['action']}') was refused: {e['message']}"]
    for key in ("end", "next"):
        if key in exp and exp[key] != got.get(key):
            out.append(f"{key}: expected {exp[key]!r}, got {got.get(key)!r}")
    if "winners" in exp and sorted(map(str, exp["winners"] or [])) != sorted(got["winners"]):
        out.append(f"winners: expected {exp['winners']}, got {got['winners']}")
    # Payouts are compared for every player (an unlisted player is expected to get 0); counts
    # only for the players listed, so a scenario can pin down just the counts it is about.
    for key in ("payouts", "counts", "scores"):
        if key in exp:
            want = {str(k): v for k, v in (exp[key] or {}).items()}
            have = got.get(key, {})
            names = sorted(set(want) | set(have)) if key != "counts" else sorted(want)
            default = 0 if key != "counts" else None
            diff = ", ".join(f"{n}: expected {want.get(n, default)}, got {have.get(n, default)}"
                             for n in names if want.get(n, default) != have.get(n, default))
            if diff:
                out.append(f"{key}: {diff}")
    return out
