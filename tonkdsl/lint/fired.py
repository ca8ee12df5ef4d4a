"""``tonk lint --simulate N``: rules that never fired in N simulated hands, winners who lost."""
from __future__ import annotations

from typing import TYPE_CHECKING

from tonkdsl.bots import greedy_bot, random_bot
from tonkdsl.diagnostics import Diagnostic
from tonkdsl.rng import Rng, derive_seed
from tonkdsl.session import Session
from tonkdsl.simulate import play_out

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.lint.checks import _Linter


def never_fired(linter: "_Linter", hands: int, seed: int) -> list[Diagnostic]:
    rs = linter.rs
    players = max(rs.players_min, min(3, rs.players_max))
    fired_rules: set[str] = set()
    fired_ends: set[str] = set()
    fired_events: set[tuple[str, int]] = set()
    losers: list[tuple[str, int]] = []
    session = Session(rs, players)
    for i in range(hands):
        if session.is_over():
            session = Session(rs, players, dealer=i % players)
        hand_seed = derive_seed(seed, i)
        # Mix careful and careless players so that more of the rules get a chance to fire.
        bots = [greedy_bot if (i + s) % 3 else random_bot for s in range(players)]
        state = session.start_hand(seed=hand_seed)
        play_out(state, bots, Rng(hand_seed))
        out = state.outcome()
        assert out is not None
        session.finish_hand(state, named_suits={b.id: "H" for b in rs.session.side_bets})
        fired_ends.add(out.end)
        fired_rules.update(p.rule for p in out.payments)
        if out.end == "initial_tonk":
            fired_rules.update(r.id for r in rs.deal_wins if any(p.rule == r.id for p in out.payments))
        fired_events.update(state.events_fired)
        for w in out.winners:
            if out.payouts[w] < 0:
                losers.append((out.end, i))
    found: list[Diagnostic] = []

    def add(code: str, severity: str, msg: str, path: tuple[str | int, ...]) -> None:
        linter.add(code, severity, msg, path)
        found.append(linter.out.pop())

    for i, r in enumerate(rs.deal_wins):
        if r.id not in fired_rules:
            add("never-fired", "warning", f"the automatic win '{r.id}' never fired in {hands:,} simulated hands",
                ("deal_wins", "rules", linter.rule_index(r.id)))
    for kind, ending in rs.endings.items():
        if kind not in fired_ends:
            add("never-fired", "warning", f"the ending '{kind}' never happened in {hands:,} simulated hands",
                ("endings", kind))
            continue
        for j, t in enumerate(ending.payouts):
            if t.id not in fired_rules:
                add("never-fired", "warning", f"the payout '{t.id}' never paid in {hands:,} simulated hands",
                    ("endings", kind, "payouts", j))
    for counter in rs.counters:
        for j, _ev in enumerate(counter.events):
            if (counter.name, j) not in fired_events:
                add("never-fired", "warning",
                    f"the counter '{counter.name}' event {j + 1} never fired in {hands:,} simulated hands",
                    ("counters", counter.name, "events", j))
    if losers:
        end, index = losers[0]
        add("winner-loses", "error", f"a winner lost money in {len(losers)} of {hands:,} simulated hands "
            f"(first: hand {index}, '{end}')", ("endings", end) if end in rs.endings else ("deal_wins",))
    return found
