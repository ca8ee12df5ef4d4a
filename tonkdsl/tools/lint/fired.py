"""``tonk lint --simulate N``: rules that never took effect in N simulated hands (notes), winners
who lost (errors, with the hand)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import play_out
from tonkdsl.language.cards import SUITS_STANDARD
from tonkdsl.language.diagnostics import Diagnostic
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.tools.bots import greedy_bot, random_bot
from tonkdsl.language.ruleset import expression_places
from tonkdsl.tools.lint.causes import (KEPT, bonus_cause, listed_rules, payout_cause, refused_by_rule, rule_cause,
                                       watch_conditions)
from tonkdsl.tools.lint.witness import search, targets
from tonkdsl.tools.simulate import session_length

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import Ruleset
    from tonkdsl.tools.lint.checks import _Linter

_MIXED = 0x11A7  # the seeds of the hands with careless players, apart from simulate's


def _hands(rs: "Ruleset", players: int, hands: int, seed: int) -> Iterator[tuple[int, "State"]]:
    """The hands lint plays: first exactly those of `tonk simulate` with this seed and players
    (greedy bots, the same seeds, dealers and sessions), so that lint never says an ending never
    happens where simulate shows it; then as many again with careless players mixed in, so that
    more of the rules get a chance to fire."""
    length = session_length(rs)
    for mixed in (False, True):
        session: Session | None = None
        for i in range(hands):
            if session is None or session.is_over():
                session = Session(rs, players, hands=length, dealer=(i // length) % players)
            hand_seed = derive_seed(seed ^ _MIXED if mixed else seed, i)
            rng = Rng(hand_seed ^ 0x5DEECE66D)  # as simulate draws the bots' choices
            bots = [greedy_bot if not mixed or (i + s) % 3 else random_bot for s in range(players)]
            state = session.start_hand(seed=hand_seed)
            play_out(state, [bots[g] for g in session.seats], rng)
            side_bets = rs.session.side_bets
            suits = {b.id: rng.choice(SUITS_STANDARD) for b in side_bets if b.kind == "named_suit"}
            session.finish_hand(state, named_suits=suits)
            yield i, state


def never_fired(linter: "_Linter", hands: int, seed: int) -> list[Diagnostic]:
    """What never took effect in the simulated hands (a note: evidence, not proof), and winners
    who lost money (an error: the hand is the witness)."""
    rs = linter.rs
    players = max(rs.players_min, min(3, rs.players_max))
    happened: set[str] = set()
    losers: list[tuple[str, int]] = []
    ended: dict[str, list["State"]] = {}  # the states hands ended in, by ending (causes.py asks them)
    places = expression_places(linter.doc)
    # The bonuses' conditions are asked mid-hand, at their events: a copy of the ruleset whose
    # conditions keep count as they answer (the same hands) says why one never paid.
    watched_rs, coverage = watch_conditions(rs, places)
    for i, state in _hands(watched_rs, players, hands, seed):
        out = state.outcome()
        assert out is not None
        happened.add(f"end:{out.end}")
        kept = ended.setdefault(out.end, [])
        if len(kept) < KEPT:
            kept.append(state)
        happened.update(f"rule:{r}" for r in out.fired)
        happened.update(f"event:{c}:{j}" for c, j in state.events_fired)
        gains = [0] * state.num_players  # what the ending paid each seat (a pot is no seat)
        # (The outcome's payments begin with those made as the hand went, State.paid: antes,
        # bonuses, a misplay's penalty; the ending's come after them.)
        for p in out.payments[len(state.paid):]:
            if p.payer >= 0:
                gains[p.payer] -= p.amount
            if p.payee >= 0:
                gains[p.payee] += p.amount
        if any(gains[w] < 0 for w in out.winners):
            losers.append((out.end, i))
    found: list[Diagnostic] = []

    def add(code: str, severity: str, msg: str, path: tuple[str | int, ...]) -> None:
        linter.add(code, severity, msg, path)
        found.append(linter.out.pop())

    missing = [t for t in targets(rs) if t.key not in happened]
    if missing:  # the witness search (patient players too) may yet make them happen: then nothing is said
        witnessed = search(rs, hands, seed).found
        payouts = {f"rule:{t.id}": (kind, j, t) for kind, e in rs.endings.items() for j, t in enumerate(e.payouts)}
        bonuses = {f"rule:{b.transfer.id}": (j, b) for j, b in enumerate(rs.bonuses)}
        listed = listed_rules(rs)
        for target in missing:
            if target.key not in witnessed:
                said = (f"{target.what} never took effect in {2 * hands:,} simulated hands nor in a witness search "
                        f"of {hands:,}")
                found_in = payouts.get(target.key)
                cause = payout_cause(rs, places, *found_in, ended.get(found_in[0], [])) if found_in else None
                paid_at_once = bonuses.get(target.key)
                if paid_at_once is not None:
                    cause = bonus_cause(*paid_at_once, coverage.get(("bonuses", paid_at_once[0])))
                rule_path = listed.get(target.key)
                if rule_path is not None:
                    cause = rule_cause(rs, rule_path, coverage.get(rule_path))
                ending = target.key[4:] if target.key.startswith("end:") else found_in[0] if found_in else None
                if cause is None and ending is not None and f"end:{ending}" not in happened:
                    cause = refused_by_rule(rs, ending, coverage)  # an ending no action could lead to
                if cause is not None:  # the cause, at the part of the rule it is about
                    add("never-fired", "note", f"{said}: {cause.message}", cause.path)
                    found[-1] = linter.at_part(found[-1], cause.path, cause.line, cause.column)
                    continue
                add("never-fired", "note", f"{said}: evidence that it is rare, not proof that it cannot happen",
                    target.path)
    if losers:
        end, index = losers[0]
        add("winner-loses", "error", f"a winner lost money in {len(losers)} of {2 * hands:,} simulated hands "
            f"(first: hand {index}, '{end}')", ("endings", end) if end in rs.endings else ("deal_wins",))
    return found
