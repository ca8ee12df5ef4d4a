"""The legality check: seeded hands of a ruleset played by random and greedy bots, and in
every state they reach, what must hold at a table:

- there is a legal action until the hand ends (``no-legal-action``);
- every action offered applies (``refused``): a few of the offered actions besides the one
  played are tried on a copy of the hand;
- no rule fails at play (``rule-failed``): ``min()`` of an empty set, a division by 0, ...;
- nobody acts in another's turn unless asked (``acted-unasked``);
- the hand ends (``no-end``): past ``MAX_STEPS`` actions it is played on without the tries, to the
  end the rules give it (the engine's turn cap makes a hand nobody ends a dead hand); a turn that
  does not end in ``MAX_STEPS`` more actions is a finding.

Each finding carries its seed, the number of players, and a scenario file's text that replays the
hand up to the action that breaks (``tonk replay FILE`` shows it). ``tonk lint --simulate``
runs it; ``tonk serve`` runs a short one before it opens a table; the test suite runs it over
every shipped ruleset and every pair of recipes. As OpenSpiel's random simulation test states
it for every game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

import yaml

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction, RulesetError, State, deal
from tonkdsl.interpreter.rules import plan_for
from tonkdsl.interpreter.table import ASK, EXTRA
from tonkdsl.interpreter.view import observation
from tonkdsl.language.rng import Rng
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.tools.bots import BOTS

MAX_STEPS = 3000  # actions checked in a hand; a longer hand is played on to its end (the engine's turn cap)
TRIES = 6  # offered actions tried on a copy in each state, besides the one played
KINDS = ("no-legal-action", "refused", "rule-failed", "acted-unasked", "no-end")


@dataclass(frozen=True)
class Finding:
    """One state where the ruleset breaks a table, and how to get there again."""

    kind: str  # one of KINDS
    message: str  # in a player's words: what happened, at which step
    players: int
    seed: int  # the deal's seed; the dealer is seat ``seed % players``
    bot: str  # the bots that played the hand
    scenario: str  # a scenario file's text (its ruleset line: the reference given to check())

    def __str__(self) -> str:
        return f"{self.kind}: {self.message} ({self.players} players, seed {self.seed}, {self.bot} bots)"


@dataclass
class Report:
    """What :func:`check` played and found (at most one finding per hand)."""

    hands: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings


def table_sizes(rs: Ruleset) -> list[int]:
    """The numbers of players a check plays: the fewest the ruleset allows and four (or its most)."""
    return sorted({rs.players_min, max(rs.players_min, min(rs.players_max, 4))})


def check(rs: Ruleset, *, seeds: Iterable[int] = range(12), players: Sequence[int] | None = None,
          bots: Sequence[str] = ("random", "greedy"), ruleset_ref: str = "", tries: int = TRIES,
          stop_after: int | None = None, progress: Callable[[int], None] | None = None) -> Report:
    """Play a hand for every seed, table size and kind of bot; report what breaks.

    ``ruleset_ref`` is written as the scenarios' ``ruleset:`` line (a shipped name or a path).
    ``stop_after``: stop once this many findings are made."""
    report = Report()
    for n in players or table_sizes(rs):
        for seed in seeds:
            for bot in bots:
                found = next(check_hand(rs, n, seed, bot=bot, tries=tries, ruleset_ref=ruleset_ref), None)
                report.hands += 1
                if progress is not None:
                    progress(1)
                if found is not None:
                    report.findings.append(found)
                    if stop_after is not None and len(report.findings) >= stop_after:
                        return report
    return report


def check_hand(rs: Ruleset, players: int, seed: int, *, bot: str = "random", tries: int = TRIES,
               ruleset_ref: str = "", max_steps: int = MAX_STEPS) -> Iterator[Finding]:
    """Play one hand seeded ``seed``; yield what breaks (nothing when every state is sound)."""
    policy = BOTS[bot]
    rng = Rng(seed)
    dealer = seed % players
    state = deal(rs, players, seed=seed, dealer=dealer)
    played: list[str] = []
    offered_aside = bool(plan_for(rs).offering)

    def finding(kind: str, message: str, action: A.Action | None = None, by: int | None = None) -> Finding:
        acts = played + ([f"P{(seat if by is None else by) + 1} {action}"] if action is not None else [])
        return Finding(kind, message, players, seed, bot, scenario_text(ruleset_ref or rs.name, players, dealer,
                                                                        seed, acts, f"{kind}: {message}"))

    for step in range(max_steps):
        if state.is_terminal():
            return
        seat = state.current_player()
        if state.phase not in (ASK, EXTRA) and seat != state.current:  # (EXTRA: a slapper's extra discard)
            yield finding("acted-unasked", f"step {step}: seat {seat + 1} is to act in phase {state.phase}, in seat "
                          f"{state.current + 1}'s turn (only a player asked out of turn acts in another's turn)")
            return
        try:
            legal = list(state.legal_actions())
        except RulesetError as exc:
            yield finding("rule-failed", f"step {step}: a rule failed while listing the legal actions: {exc}")
            return
        if not legal:
            yield finding("no-legal-action", f"step {step}: no legal action in phase {state.phase} for seat {seat + 1}")
            return
        try:
            chosen = policy(observation(state, seat), legal, rng)
        except RulesetError as exc:
            yield finding("rule-failed", f"step {step}: a rule failed while a {bot} bot chose: {exc}")
            return
        # Drawn as the random bot draws its choice, so that a random hand here is the same hand
        # as tonk simulate's with the same seed and bots.
        others = dict.fromkeys(rng.choice(legal) for _ in range(min(tries, len(legal)) - 1))
        tries_now = [(seat, a) for a in others if a != chosen]
        if offered_aside:  # the constructs' plays out of turn (a slap, a buy) offered to the other players
            tries_now += _out_of_turn(state, seat, rng)
        for who, action in tries_now:
            try:
                state.clone().apply(action, player=None if who == seat else who)
            except IllegalAction as exc:
                yield finding("refused", f"step {step}: the legal action '{action}'{_of(who, seat)} is refused: "
                              f"{exc}", action, who)
                return
            except RulesetError as exc:
                yield finding("rule-failed", f"step {step}: a rule failed at play on '{action}'{_of(who, seat)}: "
                              f"{exc}", action, who)
                return
        taken = [(who, a) for who, a in tries_now if who != seat]
        if taken and rng.below(4) == 0:  # now and then another player takes it, so that the states after follow
            seat, chosen = taken[0]
        try:
            state.apply(chosen, player=None if seat == state.current_player() else seat)
        except IllegalAction as exc:
            yield finding("refused", f"step {step}: the legal action '{chosen}' is refused: {exc}", chosen)
            return
        except RulesetError as exc:
            yield finding("rule-failed", f"step {step}: a rule failed at play on '{chosen}': {exc}", chosen)
            return
        played.append(f"P{seat + 1} {chosen}")
    # A long hand may still end at the engine's turn cap (a dead hand, as the rules sheet says):
    # played on without the tries, it either gets there or is stuck in one turn.
    turn, still = state.turn_number, 0
    while not state.is_terminal() and still < max_steps:
        seat = state.current_player()
        try:
            legal = list(state.legal_actions())
            if not legal:
                yield finding("no-legal-action", f"no legal action in phase {state.phase} for seat {seat + 1}")
                return
            state.apply(policy(observation(state, seat), legal, rng))
        except (IllegalAction, RulesetError) as exc:
            yield finding("refused", f"after {max_steps} actions, a legal action failed: {exc}")
            return
        still = still + 1 if state.turn_number == turn else 0
        turn = state.turn_number
    if not state.is_terminal():
        yield finding("no-end", f"the hand did not end in {max_steps} actions, nor did a turn after them end in "
                      f"{max_steps} more")


def _of(who: int, seat: int) -> str:
    return "" if who == seat else f" of seat {who + 1}, out of turn,"


def _out_of_turn(state: State, seat: int, rng: Rng) -> list[tuple[int, A.Action]]:
    """Up to two plays out of turn offered to each player but ``seat`` (who is to act)."""
    out = []
    for other in range(state.num_players):
        if other != seat:
            offered = list(state.legal_actions(other))
            out += [(other, rng.choice(offered)) for _ in range(min(2, len(offered)))]
    return list(dict.fromkeys(out))


def scenario_text(ruleset_ref: str, players: int, dealer: int, seed: int, actions: list[str], why: str) -> str:
    """A scenario file replaying a hand (scenario format: ruleset, players, dealer, seed, actions)."""
    names = [f"P{s + 1}" for s in range(players)]
    doc = {"ruleset": ruleset_ref, "players": names, "dealer": names[dealer], "seed": seed, "actions": actions}
    return (f"# Found by the legality check (tonkdsl.tools.legality): {why}\n"
            "# `tonk replay` this file to see the hand up to that point.\n"
            + yaml.safe_dump(doc, sort_keys=False, width=100))
