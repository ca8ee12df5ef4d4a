"""Scenario files (see docs/scenario-format.md): load, replay, compare with ``expect``.

A scenario is one hand; a *session scenario* (an extension: a ``deals:`` list instead of
``hands``/``actions``) is a sequence of hands played as a session, with the deal rotating and
the ledger, score sheet and side bets carried from hand to hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, Iterable

from tonkdsl.interpreter.actions import Action, ActionSyntaxError, parse_action
from tonkdsl.interpreter.engine import IllegalAction, Layout, RulesetError, State, deal, hand_sizes
from tonkdsl.interpreter.outcome import END_KINDS
from tonkdsl.interpreter.table import VOID
from tonkdsl.interpreter.session import HandRecord, Session
from tonkdsl.language.cards import SUITS_STANDARD, CardSyntaxError
from tonkdsl.language.diagnostics import Diagnostic, LoadError, Path, did_you_mean
from tonkdsl.language.limits import MAX_STAKE
from tonkdsl.language.loader import load_ruleset, may_read, resolve_name
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.language.yamlsrc import Source, load_yaml_file

KEYS = ("ruleset", "players", "dealer", "stake", "seed", "hands", "upcard", "stock", "actions", "expect",
         "deals", "session_hands", "play", "void")
DEAL_KEYS = ("seed", "hands", "upcard", "stock", "actions", "expect", "side_bets", "void")
# The endings a scenario may expect: the rules' own, and a hand a table voided (State.void).
_ENDS = (*END_KINDS, VOID)
_EXPECT_KEYS = ("end", "winners", "payouts", "counts", "scores", "error", "next")
_SESSION_EXPECT_KEYS = ("ledger", "scores", "settlement", "winners", "error")


@dataclass
class Deal:
    """One hand of a scenario: the fixed cards, the actions, what to expect."""

    seed: int
    layout: Layout
    actions: list[tuple[int, Action, str]]  # (seat, action, text as written)
    expect: dict[str, Any] | None
    named_suits: dict[str, str] = field(default_factory=dict)
    bettors: dict[str, list[int]] = field(default_factory=dict)
    void: str | None = None  # why a table voided the hand after its actions (a rule failed at play)


@dataclass
class Scenario:
    file: str
    ruleset_ref: str
    ruleset: Ruleset
    players: list[str]
    dealer: int
    stake: int
    deals: list[Deal]
    expect: dict[str, Any] | None  # for a session: the session's expectations
    is_session: bool
    session_hands: int | None
    source: Source = field(repr=False)
    ruleset_file: str = ""  # the file the ruleset was loaded from (absolute)

    # A one-hand scenario's fields, as the contract names them.
    @property
    def seed(self) -> int:
        return self.deals[0].seed

    @property
    def layout(self) -> Layout:
        return self.deals[0].layout

    @property
    def actions(self) -> list[tuple[int, Action, str]]:
        return self.deals[0].actions

    def new_state(self) -> State:
        return deal(self.ruleset, len(self.players), seed=self.seed, dealer=self.dealer, stake=self.stake,
                    layout=self.layout)


def _hand_json(names: list[str], state: State, applied: int, ruleset_ref: str) -> dict[str, Any]:
    out = state.outcome()
    counts = state.counts()
    data: dict[str, Any] = {"ruleset": ruleset_ref}
    if out is None:
        data.update(end=None, winners=[], payouts={n: 0 for n in names})
    else:
        data.update(end=out.end, winners=[names[s] for s in out.winners],
                    payouts={n: out.payouts[i] for i, n in enumerate(names)})
        if out.message:
            data["message"] = out.message
    data["counts"] = {n: counts[i] for i, n in enumerate(names)}
    data["actions_applied"] = applied
    data["next"] = None if out is not None else names[state.current_player()]
    if out is not None and out.scores:
        data["scores"] = {n: out.scores[i] for i, n in enumerate(names)}
    if out is not None and out.payments:
        rs = state.ruleset

        def who(seat: int) -> str:  # a player, or a pot by its name (seat -1: 'pot')
            return names[seat] if seat >= 0 else rs.pot_name(seat)
        data["payments"] = [
            {"rule": p.rule, "from": who(p.payer), "to": who(p.payee), "amount": p.amount}
            for p in out.payments
        ]
    if state.ruleset.ante is not None:
        data["pot"] = state.pot
    if state.ruleset.side_pots:
        data["side_pots"] = {p.id: state.side_pots[i] for i, p in enumerate(state.ruleset.side_pots)}
    return data


@dataclass
class Result:
    """What ``tonk replay`` prints; ``error`` is set when an action was illegal."""

    scenario: Scenario
    state: State
    applied: int
    error: dict[str, Any] | None = None
    hands: list[dict[str, Any]] = field(default_factory=list)  # sessions: each hand's result
    session: Session | None = None

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"error": self.error}
        names = self.scenario.players
        if self.session is None:
            return _hand_json(names, self.state, self.applied, self.scenario.ruleset_ref)
        s = self.session
        settle = s.settlement()
        money, winners = settle.money, settle.winners
        return {
            "ruleset": self.scenario.ruleset_ref,
            "hands": self.hands,
            "ledger": {n: s.ledger[i] for i, n in enumerate(names)},
            "scores": {n: s.scores[i] for i, n in enumerate(names)},
            "pots": {k: sum(v) for k, v in s.pots.items()} | ({"pot": s.pot} if s.ruleset.ante is not None else {})
            | {p.id: s.side_pots[i] for i, p in enumerate(s.ruleset.side_pots)},
            "settlement": {n: money[i] for i, n in enumerate(names)},
            # Parallel score columns (session.columns): each one's totals, whether it is closed, its best.
            **({"columns": [{"totals": {n: column[i] for i, n in enumerate(names)}, "closed": closed,
                             "winners": [names[w] for w in best]}
                            for column, closed, best in zip(s.columns, s.columns_closed, s.column_winners())]}
               if s.columns else {}),
            "winners": [names[w] for w in winners],
            **({"capped": True} if settle.capped else {}),  # a match stopped at MAX_MATCH_HANDS
            "actions_applied": self.applied,
            "next": self.hands[-1]["next"] if self.hands and self.hands[-1]["end"] is None else None,
        }


class _Reader:
    def __init__(self, src: Source, path: FsPath) -> None:
        self.src = src
        self.path = path
        self.problems: list[Diagnostic] = []

    def err(self, path: Path, message: str, code: str = "scenario", key: bool = False) -> None:
        self.problems.append(self.src.diagnostic(code, message, path, key=key))

    def check_keys(self, node: dict[str, Any], base: Path, allowed: tuple[str, ...]) -> None:
        for key in node:
            if key not in allowed:
                self.err(base + (key,), f"unknown key '{key}'{did_you_mean(key, allowed)}",
                         "scenario-unknown-key", key=True)


class _DealReader:
    """Reads the cards and actions of one hand (the file's top level, or one item of deals:)."""

    def __init__(self, r: _Reader, ruleset: Ruleset, ref: str, players: list[str]) -> None:
        self.r, self.rs, self.ref, self.players = r, ruleset, ref, players
        self.seat_of = {n: i for i, n in enumerate(players)}
        # Each seat's hand size when the dealer is known (extra cards may go to the dealer);
        # None: a later deal of a session, checked when it is dealt.
        self.sizes: list[int] | None = [ruleset.hand_size] * len(players)

    def know_dealer(self, dealer: int | None, later: bool = False) -> None:
        rs = self.rs
        if later and rs.session.is_match:
            self.sizes = None  # players may be out of the match by then: checked when dealt
            return
        if not rs.extra_cards:
            return
        if dealer is None:
            self.sizes = None
            return
        try:
            self.sizes = hand_sizes(State(rs, len(self.players), dealer, 1))
        except (RulesetError, ValueError):
            self.sizes = None

    def seat(self, name: Any, path: Path) -> int | None:
        if str(name) in self.seat_of:
            return self.seat_of[str(name)]
        self.r.err(path, f"'{name}' is not one of the players{did_you_mean(str(name), self.players)}")
        return None

    def read(self, d: dict[str, Any], base: Path) -> Deal:
        r, rs = self.r, self.rs
        pack = rs.pack_for(len(self.players))
        taken: list[int] = []

        def card(text: Any, path: Path) -> int | None:
            try:
                cid = pack.find(str(text), taken)
            except CardSyntaxError as exc:
                r.err(path, str(exc), "scenario-card")
                return None
            except KeyError as exc:
                name = str(exc.args[0])
                copies = pack.copies(name)
                if copies == 1:
                    r.err(path, f"{text} appears twice in the scenario", "scenario-card")
                elif copies:
                    r.err(path, f"{text} appears {copies + 1} times in the scenario, but the pack holds "
                          f"{copies}", "scenario-card")
                else:
                    r.err(path, f"{text} is not in the pack of '{self.ref}'", "scenario-card")
                return None
            taken.append(cid)
            return cid

        seed = d.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            r.err(base + ("seed",), "'seed' must be a whole number")
            seed = 0
        hands: dict[int, list[int]] = {}
        raw_hands = d.get("hands") or {}
        if not isinstance(raw_hands, dict):
            r.err(base + ("hands",), "'hands' must map player names to lists of cards")
            raw_hands = {}
        for name, cards in raw_hands.items():
            s = self.seat(name, base + ("hands", name))
            if not isinstance(cards, list):
                r.err(base + ("hands", name), "a hand must be a list of cards, e.g. [10S, 8D, 8H, 5S, 4H]")
                continue
            ids = [card(c, base + ("hands", name, i)) for i, c in enumerate(cards)]
            size = self.sizes[s] if self.sizes is not None and s is not None else None
            if size is not None and len(cards) != size:
                r.err(base + ("hands", name), f"{name} has {len(cards)} cards; this ruleset deals {size}"
                      + (f" to {name}" if size != rs.hand_size else ""))
            if s is not None:
                hands[s] = [c for c in ids if c is not None]
        upcard = None
        if d.get("upcard") is not None:
            if not rs.upcard:
                r.err(base + ("upcard",), f"the ruleset '{self.ref}' turns no upcard")
            else:
                upcard = card(d["upcard"], base + ("upcard",))
        stock: list[int] = []
        raw_stock = d.get("stock") or []
        if not isinstance(raw_stock, list):
            r.err(base + ("stock",), "'stock' must be a list of cards, top first")
            raw_stock = []
        for i, c in enumerate(raw_stock):
            cid = card(c, base + ("stock", i))
            if cid is not None:
                stock.append(cid)
        room = len(pack) - (sum(self.sizes) if self.sizes else len(self.players) * rs.hand_size) - (1 if rs.upcard else 0)
        if len(stock) > room and self.sizes is not None:  # a later deal of a session is checked when dealt
            r.err(base + ("stock",), f"the stock holds {room} cards in this deal, but {len(stock)} are listed")
        acts: list[tuple[int, Action, str]] = []
        raw_actions = d.get("actions") or []
        if not isinstance(raw_actions, list):
            r.err(base + ("actions",), "'actions' must be a list such as ['Toubib draw stock', ...]")
            raw_actions = []
        for i, line in enumerate(raw_actions):
            if not isinstance(line, str) or not line.split():
                r.err(base + ("actions", i), "an action is '<player> <action>', e.g. 'Toubib draw stock'")
                continue
            who, _, rest = line.strip().partition(" ")
            s = self.seat(who, base + ("actions", i))
            try:
                act = parse_action(rest)
            except ActionSyntaxError as exc:
                r.err(base + ("actions", i), str(exc), "scenario-action")
                continue
            if s is not None:
                acts.append((s, act, line.strip()))
        expect = d.get("expect")
        if expect is not None:
            if not isinstance(expect, dict):
                r.err(base + ("expect",), "'expect' must be a mapping (end, winners, payouts, counts, error)")
                expect = None
            else:
                r.check_keys(expect, base + ("expect",), _EXPECT_KEYS)
                _check_expect_shapes(r, expect, base + ("expect",))
                end = expect.get("end")
                if end is not None and end not in _ENDS:
                    r.err(base + ("expect", "end"), f"'{end}' is not an ending{did_you_mean(str(end), _ENDS)}; "
                          f"endings: {', '.join(_ENDS)}")
        named: dict[str, str] = {}
        bettors: dict[str, list[int]] = {}
        bets = {b.id: b for b in rs.session.side_bets}
        raw_bets = d.get("side_bets") or {}
        for bet_id, spec in (raw_bets.items() if isinstance(raw_bets, dict) else []):
            path = base + ("side_bets", bet_id)
            if bet_id not in bets:
                r.err(path, f"the ruleset has no side bet '{bet_id}'{did_you_mean(str(bet_id), bets)}", key=True)
                continue
            spec = spec if isinstance(spec, dict) else {}
            if bets[bet_id].kind == "named_suit":
                suit = str(spec.get("suit", "")).upper()
                if suit not in SUITS_STANDARD:
                    r.err(path, "a named-suit bet needs 'suit: C|D|H|S' (the suit the dealer names)")
                named[bet_id] = suit
            if "bettors" in spec:
                bettors[bet_id] = [x for i, n in enumerate(spec["bettors"] or [])
                                   if (x := self.seat(n, path + ("bettors", i))) is not None]
        void = d.get("void")
        if void is not None and not isinstance(void, str):
            r.err(base + ("void",), "'void' says why a table voided the hand after its actions, e.g. "
                  "void: \"the rule 'min(opponents.count)' failed\"")
            void = None
        return Deal(seed, Layout(hands, upcard, stock), acts, expect, named, bettors, void)


def _check_expect_shapes(r: "_Reader", expect: dict[str, Any], path: Path) -> None:
    """The kind of value each 'expect' entry must be (compared later, so checked now)."""
    for key in ("payouts", "counts", "scores", "ledger", "settlement"):
        value = expect.get(key)
        if value is not None and (not isinstance(value, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value.values())):
            r.err(path + (key,), f"'{key}' must map each player to a whole number, e.g. {{Ann: 2, Bob: -2}}")
    for key, kind, example in (("winners", list, "[Ann]"), ("error", dict, "{index: 3, message: ...}")):
        value = expect.get(key)
        if value is not None and not isinstance(value, kind):
            r.err(path + (key,), f"'{key}' must be {'a list' if kind is list else 'a mapping'}, e.g. {example}")


def load_scenario(path: str | FsPath, *, allow_paths: Iterable[FsPath] = ()) -> Scenario:
    """Read and check a scenario file; raises :class:`LoadError` listing every problem. Its
    ``ruleset`` may name a shipped ruleset or a file as :func:`may_read` allows."""
    p = FsPath(path)
    src = load_yaml_file(p, scenario=True)
    r = _Reader(src, p)
    d = src.data
    if not isinstance(d, dict):
        raise LoadError([src.diagnostic("scenario-shape", "a scenario file must be a mapping of keys", ())])
    if "ruleset" not in d and ({"extends", "pack", "turn", "endings", "deal", "melds"} & set(d)):
        raise LoadError([src.diagnostic(
            "scenario-is-ruleset", "this is a ruleset, not a scenario", (),
            hint=f"check it with 'tonk validate {p.name}' and 'tonk lint {p.name}'; a scenario names its "
                 "ruleset with 'ruleset:'")])
    r.check_keys(d, (), KEYS)
    is_session = "deals" in d
    for key in ("ruleset", "players") + (() if is_session else ("actions",)):
        if key not in d:
            r.err((), f"the scenario needs the key '{key}'", "scenario-missing-key")
    if is_session:
        for key in ("hands", "upcard", "stock", "actions", "seed"):
            if key in d:
                r.err((key,), f"in a session scenario '{key}' belongs to each item of 'deals'", key=True)
    if r.problems:
        raise LoadError(r.problems)
    ref = d["ruleset"]
    if not isinstance(ref, str):
        raise LoadError([src.diagnostic("scenario-type", "'ruleset' must be a ruleset name or path", ("ruleset",))])
    target = resolve_name(ref, p.parent)
    if not may_read(target, p.parent, allow_paths):
        raise LoadError([src.diagnostic(
            "ruleset-outside", f"'ruleset' names {target}, outside the folder of this file and the working "
            "folder; pass --allow-path DIR to allow it", ("ruleset",))])
    try:
        ruleset = load_ruleset(target, allow_paths=allow_paths, named=True)
    except LoadError as exc:
        raise LoadError([src.diagnostic("scenario-ruleset", f"the ruleset '{ref}' cannot be loaded (see below)",
                                        ("ruleset",))] + exc.diagnostics) from None
    players = d["players"]
    if (not isinstance(players, list) or not players
            or not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in players)):
        raise LoadError([src.diagnostic("scenario-type", "'players' must be a list of names", ("players",))])
    players = [str(x) for x in players]
    if any(not n.split() or len(n.split()) > 1 for n in players):
        r.err(("players",), "a player's name is one word (each action starts with it), e.g. Ann or Ann_Lee")
    if len(set(players)) != len(players):
        r.err(("players",), "two players have the same name")
    if not ruleset.players_min <= len(players) <= ruleset.players_max:
        # The rest of the file (hands, stock room) means nothing for this many players: stop here.
        r.err(("players",), f"this ruleset is for {ruleset.players_min} to {ruleset.players_max} players, "
              f"not {len(players)}")
        raise LoadError(r.problems)
    reader = _DealReader(r, ruleset, ref, players)
    dealer = len(players) - 1
    if "dealer" in d:
        found = reader.seat(d["dealer"], ("dealer",))
        dealer = found if found is not None else dealer
    stake = d.get("stake", 1)
    if not isinstance(stake, int) or isinstance(stake, bool) or not 1 <= stake <= MAX_STAKE:
        r.err(("stake",), f"'stake' must be a whole number from 1 to {MAX_STAKE:,} (MAX_STAKE)")
        stake = 1
    session_hands = d.get("session_hands")
    if session_hands is not None and (not isinstance(session_hands, int) or session_hands < 1):
        r.err(("session_hands",), "'session_hands' must be a whole number of at least 1")
        session_hands = None
    expect = d.get("expect")
    if is_session:
        raw = d["deals"]
        if not isinstance(raw, list) or not raw:
            r.err(("deals",), "'deals' must be a list of hands, each with its cards and actions")
            raw = []
        deals = []
        for i, item in enumerate(raw):
            reader.know_dealer(dealer if i == 0 else None, later=i > 0)
            if not isinstance(item, dict):
                r.err(("deals", i), "each deal is a mapping (seed, hands, upcard, stock, actions, expect)")
                continue
            r.check_keys(item, ("deals", i), DEAL_KEYS)
            deals.append(reader.read(item, ("deals", i)))
        if isinstance(expect, dict):
            r.check_keys(expect, ("expect",), _SESSION_EXPECT_KEYS)
            _check_expect_shapes(r, expect, ("expect",))
        elif expect is not None:
            r.err(("expect",), "'expect' must be a mapping (ledger, scores, settlement, winners)")
            expect = None
    else:
        reader.know_dealer(dealer)
        deals = [reader.read(d, ())]
        expect = deals[0].expect
    if r.problems:
        raise LoadError(r.problems)
    return Scenario(str(path), ref, ruleset, players, dealer, stake, deals, expect, is_session,
                    session_hands, src, str(target.resolve()))


def _play(state: State, deal_: Deal, names: list[str],
          seats: tuple[int, ...] | None = None) -> tuple[int, dict[str, Any] | None]:
    """Apply a deal's actions; returns how many were applied and the refusal, if any.
    ``seats``: the session seat of each seat of the hand (a match leaves some players out)."""
    if seats is not None and len(seats) != len(names):
        local = {g: i for i, g in enumerate(seats)}
        names = [names[g] for g in seats]
    else:
        local = None
    for i, (seat, act, text) in enumerate(deal_.actions):
        reason: str | None = None
        if local is not None:
            if seat not in local:
                return i, {"index": i + 1, "action": text, "message": "that player is out of the match"}
            seat = local[seat]
        if state.is_terminal():
            reason = "the hand is over"
        elif seat != state.current_player() and not state.may_act_out_of_turn(seat, act):
            reason = f"it is {names[state.current_player()]}'s turn, not {names[seat]}'s"
        else:
            try:
                state.apply(act, player=seat)
            except IllegalAction as exc:
                reason = str(exc)
            except RulesetError as exc:
                # Not the player's fault: the action was legal and a rule could not be worked out.
                return i, {"index": i + 1, "action": text, "message": f"the ruleset failed: {exc}", "kind": "ruleset"}
        if reason is not None:
            return i, {"index": i + 1, "action": text, "message": reason}
    if deal_.void is not None and not state.is_terminal():
        state.void(deal_.void)
    return len(deal_.actions), None


def replay(scn: Scenario) -> Result:
    """Deal and apply every action; stops at the first illegal one."""
    if scn.is_session:
        return _replay_session(scn)
    try:
        state = scn.new_state()
    except RulesetError as exc:  # a rule of the deal (an automatic win's payout) cannot be worked out
        return Result(scn, State(scn.ruleset, len(scn.players), scn.dealer, scn.stake), 0,
                      {"index": 0, "action": "", "message": f"the ruleset failed on the deal: {exc}",
                       "kind": "ruleset"})
    applied, error = _play(state, scn.deals[0], scn.players)
    return Result(scn, state, applied, error)


def _replay_session(scn: Scenario) -> Result:
    names = scn.players
    session = Session(scn.ruleset, len(names), stake=scn.stake, hands=scn.session_hands or len(scn.deals),
                      dealer=scn.dealer)
    results: list[dict[str, Any]] = []
    total = 0
    state: State | None = None
    for h, deal_ in enumerate(scn.deals):
        try:
            state = session.start_hand(seed=deal_.seed, layout=deal_.layout)
        except (ValueError, RulesetError) as exc:
            return Result(scn, state or State(scn.ruleset, len(names), scn.dealer, scn.stake), total,
                          {"hand": h + 1, "index": 0, "action": "",
                                                                  "message": f"hand {h + 1} cannot be dealt: {exc}"})
        seats = session.seats
        local_names = [names[g] for g in seats]  # the players of this hand (a match leaves some out)
        applied, error = _play(state, deal_, names, seats)
        total += applied
        if error is not None:
            return Result(scn, state, total, {"hand": h + 1, **error})
        if not state.is_terminal():
            nxt = local_names[state.current_player()]
            if h == len(scn.deals) - 1:  # a session still being played (a saved game)
                results.append(_hand_json(local_names, state, applied, scn.ruleset_ref)
                               | {"dealer": local_names[state.dealer], "stake": state.stake})
                break
            return Result(scn, state, total, {"hand": h + 1, "index": applied, "action": "",
                                              "message": f"hand {h + 1} is not over (next: {nxt}); "
                                                         "only the last hand of a session may be unfinished"})
        record = session.finish_hand(state, named_suits=deal_.named_suits, bettors=deal_.bettors)
        results.append(_record_json(names, local_names, state, applied, scn.ruleset_ref, record))
    assert state is not None
    return Result(scn, state, total, None, results, session)


def _record_json(names: list[str], local_names: list[str], state: State, applied: int, ref: str,
                 record: HandRecord) -> dict[str, Any]:
    data = _hand_json(local_names, state, applied, ref)
    data["dealer"] = names[record.dealer]
    if record.eliminated:
        data["eliminated"] = [names[g] for g in record.eliminated]
    data["stake"] = record.stake
    if record.bets:
        data["side_bets"] = {
            b.id: {"paid_in": {n: b.paid_in[i] for i, n in enumerate(names) if b.paid_in[i]},
                   "winner": names[b.winner] if b.winner is not None else None, "won": b.won,
                   "pot_after": b.pot_after}
            for b in record.bets
        }
    return data


def _compare_hand(exp: dict[str, Any], got: dict[str, Any], label: str = "") -> list[str]:
    out: list[str] = []
    for key in ("end", "next"):
        if key in exp and exp[key] != got.get(key):
            out.append(f"{label}{key}: expected {exp[key]!r}, got {got.get(key)!r}")
    if "winners" in exp and sorted(map(str, exp["winners"] or [])) != sorted(got.get("winners", [])):
        out.append(f"{label}winners: expected {exp['winners']}, got {got.get('winners')}")
    # Payouts and scores are compared for every player (an unlisted player is expected to get
    # 0); counts only for the players listed, so a scenario can pin down just those it is about.
    for key in ("payouts", "counts", "scores", "ledger", "settlement"):
        if key in exp:
            want = {str(k): v for k, v in (exp[key] or {}).items()}
            have = got.get(key, {})
            names = sorted(set(want) | set(have)) if key != "counts" else sorted(want)
            default = 0 if key != "counts" else None
            diff = ", ".join(f"{n}: expected {want.get(n, default)}, got {have.get(n, default)}"
                             for n in names if want.get(n, default) != have.get(n, default))
            if diff:
                out.append(f"{label}{key}: {diff}")
    return out


def _compare_error(want: dict[str, Any], err: dict[str, Any] | None) -> list[str]:
    if err is None:
        return [f"expected action {want.get('index', '?')} to be refused, but every action was legal"]
    out = []
    if "index" in want and want["index"] != err["index"]:
        out.append(f"expected action {want['index']} to be refused, but action {err['index']} was: "
                   f"{err['message']}")
    if "message" in want and want["message"] != err["message"]:
        out.append(f"refusal message: expected '{want['message']}', got '{err['message']}'")
    return out


def refusal_words(e: dict[str, Any]) -> str:
    """A replay's error in words: the action refused, or the hand that could not be dealt (no
    action was played: its message says which hand)."""
    where = f"hand {e['hand']}, " if "hand" in e else ""
    message = str(e["message"])
    if not e["index"] and not e["action"]:
        return message if message.startswith("hand ") else where + message
    return f"{where}action {e['index']} ('{e['action']}') was refused: {e['message']}"


def compare(result: Result) -> list[str]:
    """The differences between the replay and the scenario's expectations (empty when it matches)."""
    scn = result.scenario
    got = result.to_json()
    if not scn.is_session:
        exp = scn.expect or {}
        if "error" in exp:
            return _compare_error(exp["error"] or {}, got.get("error"))
        if "error" in got:
            return [refusal_words(got["error"])]
        return _compare_hand(exp, got)
    if "error" in got:
        e = got["error"]
        want = (scn.expect or {}).get("error")
        if want is not None:
            return _compare_error(want, e)
        return [refusal_words(e)]
    out: list[str] = []
    for i, (deal_, hand) in enumerate(zip(scn.deals, got["hands"])):
        out += _compare_hand(deal_.expect or {}, hand, f"hand {i + 1}: ")
    exp = dict(scn.expect or {})
    if "error" in exp:
        return ["expected a refusal, but every action of the session was legal"] + out
    return out + _compare_hand(exp, got)
