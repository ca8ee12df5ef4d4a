"""``tonk simulate``: bots play N seeded hands; what the rules do, with 95% confidence intervals.

Hands are played in sessions of the ruleset's length (one hand when it sets none, an evening of
POT_SESSION_HANDS when it has a pot that carries over), so the deal
rotates, the Big One and side bets apply and score sheets are kept. Session ``k`` is dealt from
seeds derived from the master seed and the hands' indexes, and tallies are integer sums, so the
totals are identical for any number of workers, on one machine (a process pool) or on a Dask
cluster.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO

from tonkdsl.interpreter.outcome import END_KINDS, Outcome
from tonkdsl.interpreter.session import Session
from tonkdsl.interpreter.view import play_out
from tonkdsl.language.cards import SUITS_STANDARD
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.tools.bots import Policy, new_policy, tell_hand_over
from tonkdsl.tools.pool import ordered_results
from tonkdsl.tools.stats import Tally, mean_ci, quantile, wilson

CHUNK_HANDS = 250  # hands per task sent to a worker (rounded to whole sessions)


def play_hand(ruleset: Ruleset, bots: Sequence[Policy], seed: int, dealer: int, stake: int = 1) -> tuple[Outcome, int]:
    """Play one hand between bots outside a session; returns the outcome and the number of actions."""
    session = Session(ruleset, len(bots), stake=stake, dealer=dealer)
    state = session.start_hand(seed=seed)
    n = play_out(state, bots, Rng(seed ^ 0x5DEECE66D))
    tell_hand_over(bots, state)
    outcome = state.outcome()
    assert outcome is not None  # play_out only returns on a terminal state
    return outcome, n


@dataclass(frozen=True)
class Spec:
    """What to simulate; small and picklable, so that workers can rebuild everything from it."""

    ruleset: str  # a shipped name or an absolute path
    bots: tuple[str, ...]
    seed: int
    stake: int = 1
    allow: tuple[str, ...] = ()  # folders the ruleset's 'extends' may reach (absolute; --allow-path)

    @property
    def players(self) -> int:
        return len(self.bots)


@lru_cache(maxsize=8)
def ruleset_of(ref: str, allow: tuple[str, ...] = ()) -> Ruleset:
    """The ruleset a :class:`Spec` names, loaded once per process (the CLI loads it through
    here too, so that a run compiles its expressions once); ``allow``: folders its 'extends' may
    reach besides its own and the working folder (--allow-path)."""
    return load_ruleset(Path(ref) if ref.endswith((".yaml", ".yml")) else ref, allow_paths=[Path(a) for a in allow])


# A ruleset with a pot and no session length is played as a table plays it: the pot carries
# over from hand to hand until someone wins it, over an evening of this many hands (one-hand
# sessions would leave every ante in a pot nobody can win yet, and show every seat losing).
POT_SESSION_HANDS = 20


def session_length(rs: Ruleset) -> int:
    """Hands per session (a task holds whole sessions); a match counts as one (it is the unit)."""
    if rs.session.is_match:
        return 1
    return rs.session.hands or (POT_SESSION_HANDS if rs.has_pots else 1)


MATCH_CHUNK = 20  # matches per task sent to a worker


def run_sessions(spec: Spec, first_hand: int, hands: int, records: bool = False, *,
                 ruleset: Ruleset | None = None, bots: Sequence[Policy] | None = None) -> tuple[Tally, list[str]]:
    """Play ``hands`` hands from hand index ``first_hand`` (whole sessions); a worker's task."""
    rs = ruleset if ruleset is not None else ruleset_of(spec.ruleset, spec.allow)
    # Bots of the task's own: a bot that learns from the hands it sees (tell_hand_over) learns over
    # the task's hands, which do not depend on the number of workers (a match's bots, over the match).
    fresh = bots is None
    bots = list(bots) if bots is not None else [new_policy(b) for b in spec.bots]
    if rs.session.is_match:
        return run_matches(spec, first_hand, hands, records, ruleset=rs, bots=bots, fresh=fresh)
    players = spec.players
    length = session_length(rs)
    tally = Tally(players)
    score_ids = _score_rule_ids(rs)
    lines: list[str] = []
    index = first_hand
    end = first_hand + hands
    while index < end:
        session = Session(rs, players, stake=spec.stake, hands=length, dealer=(index // length) % players)
        for _ in range(length):
            if index >= end:
                break
            hand_seed = derive_seed(spec.seed, index)
            rng = Rng(hand_seed ^ 0x5DEECE66D)
            state = session.start_hand(seed=hand_seed)
            n = play_out(state, bots, rng)
            tell_hand_over(bots, state)
            outcome = state._outcome
            assert outcome is not None
            side_bets = rs.session.side_bets
            suits = {b.id: rng.choice(SUITS_STANDARD) for b in side_bets if b.kind == "named_suit"} if side_bets else None
            session.finish_hand(state, named_suits=suits)
            tally.add_hand(outcome.end, outcome.rules, n, _scored(outcome, score_ids))  # rules have no repeats
            if records:
                lines.append(json.dumps({
                    "hand": index, "seed": hand_seed, "dealer": state.dealer, "end": outcome.end,
                    "winners": list(outcome.winners), "payouts": list(outcome.payouts),
                    "scores": list(outcome.scores), "counts": list(outcome.counts), "actions": n,
                    "rules": list(outcome.rules)}))
            index += 1
        tally.add_session(session.money(), session.scores, session.pot + sum(session.side_pots))
    return tally, lines


def run_matches(spec: Spec, first: int, count: int, records: bool, *, ruleset: Ruleset,
                bots: Sequence[Policy], fresh: bool = False) -> tuple[Tally, list[str]]:
    """Play matches ``first`` to ``first + count`` (a match: hands until the ruleset's match
    end); match ``m`` is seeded with ``derive_seed(seed, m)`` and its hand ``h`` with
    ``derive_seed`` of that and ``h``; the first dealer moves round the table match by match."""
    rs = ruleset
    players = spec.players
    tally = Tally(players)
    score_ids = _score_rule_ids(rs)
    lines: list[str] = []
    for m in range(first, first + count):
        match_seed = derive_seed(spec.seed, m)
        session = Session(rs, players, stake=spec.stake, dealer=m % players)
        if fresh and m > first:  # new bots for each match: the same whatever the tasks (see run_sessions)
            bots = [new_policy(b) for b in spec.bots]
        h = 0
        while not session.is_over():
            hand_seed = derive_seed(match_seed, h)
            rng = Rng(hand_seed ^ 0x5DEECE66D)
            state = session.start_hand(seed=hand_seed)
            seats = session.seats
            seated = [bots[g] for g in seats]
            n = play_out(state, seated, rng)
            tell_hand_over(seated, state)
            outcome = state._outcome
            assert outcome is not None
            record = session.finish_hand(state)
            tally.add_hand(outcome.end, outcome.rules, n, _scored(outcome, score_ids))
            if records:
                lines.append(json.dumps({
                    "match": m, "hand": h, "seed": hand_seed, "seats": list(seats), "dealer": seats[state.dealer],
                    "end": outcome.end, "winners": [seats[w] for w in outcome.winners],
                    "payouts": list(outcome.payouts), "scores": list(outcome.scores),
                    "eliminated": list(record.eliminated), "actions": n, "rules": list(outcome.rules)}))
            h += 1
        tally.add_session(session.money(), session.scores, session.pot + sum(session.side_pots))
        tally.match_lengths[h] += 1
        settled = session.settlement()
        tally.match_capped += settled.capped  # stopped at MAX_MATCH_HANDS: nobody won it
        for seat in settled.winners:
            tally.match_wins[seat] += 1
    return tally, lines


def _score_rule_ids(rs: Ruleset) -> frozenset[str]:
    """The ids of the score entries and of the automatic wins that score: the rules of a score sheet."""
    ids = {e.id for ending in rs.endings.values() for e in ending.scores}
    ids |= {e.id for w in rs.deal_wins for e in w.scores}
    return frozenset(ids)


def _scored(outcome: Outcome, score_ids: frozenset[str]) -> tuple[str, ...]:
    return tuple(r for r in outcome.fired if r in score_ids) if score_ids else ()


def _chunks(spec: Spec, hands: int, per_match: bool = False) -> Iterator[tuple[int, int]]:
    """The tasks' (first hand, hands), made as they are sent (a billion hands are four million)."""
    if ruleset_of(spec.ruleset, spec.allow).session.is_match:  # 'hands' counts matches
        size = 1 if per_match else MATCH_CHUNK  # in this process, a task per match: the bar moves each match
    else:
        length = session_length(ruleset_of(spec.ruleset, spec.allow))
        size = max(length, (CHUNK_HANDS // length) * length)
    return ((start, min(size, hands - start)) for start in range(0, hands, size))


def _task(args: tuple[Spec, int, int, bool]) -> tuple[Tally, list[str]]:
    return run_sessions(*args)


def run(spec: Spec, hands: int, *, workers: int = 1, scheduler: str | None = None,
        progress: Callable[[int], None] | None = None, out: TextIO | None = None) -> Tally:
    """Simulate ``hands`` hands; the result does not depend on ``workers`` or ``scheduler``."""
    here = workers <= 1 and scheduler is None
    tasks = ((spec, start, n, out is not None) for start, n in _chunks(spec, hands, per_match=here))
    matches = ruleset_of(spec.ruleset, spec.allow).session.is_match
    total = Tally(spec.players)
    done = 0
    for tally, lines in _results(tasks, workers, scheduler):
        total.add(tally)
        if out is not None:
            for line in lines:
                out.write(line + "\n")
        done += tally.sessions if matches else tally.hands  # the unit of -n
        if progress is not None:
            progress(done)
    return total


def _results(tasks: Iterable[tuple[Spec, int, int, bool]], workers: int,
             scheduler: str | None) -> Iterator[tuple[Tally, list[str]]]:
    return ordered_results(_task, tasks, workers=workers, scheduler=scheduler)


def summary(tally: Tally) -> dict[str, Any]:
    """Everything the command prints, with 95% intervals."""
    n = tally.hands
    endings = {}
    for kind in END_KINDS:
        k = tally.endings.get(kind, 0)
        lo, hi = wilson(k, n)
        endings[kind] = {"hands": k, "share": k / n if n else 0.0, "ci95": [lo, hi]}
    seats = []
    for seat in range(tally.players):
        mean, lo, hi = mean_ci(tally.pay_sum[seat], tally.pay_sq[seat], tally.sessions)
        per_hand = tally.hands / max(tally.sessions, 1)
        smean, slo, shi = mean_ci(tally.score_sum[seat], tally.score_sq[seat], tally.sessions)
        seats.append({"seat": seat + 1, "net": tally.pay_sum[seat],
                      "per_hand": mean / per_hand, "ci95": [lo / per_hand, hi / per_hand],
                      "score": tally.score_sum[seat], "score_per_hand": smean / per_hand,
                      "score_ci95": [slo / per_hand, shi / per_hand]})
    mean_len = tally.actions / n if n else 0.0
    sq = sum(v * v * c for v, c in tally.lengths.items())
    _, llo, lhi = mean_ci(tally.actions, sq, n)
    rules, scored = {}, {}
    for rule, k in sorted(tally.rules.items()):
        lo, hi = wilson(k, n)
        rules[rule] = {"hands": k, "share": k / n if n else 0.0, "ci95": [lo, hi]}
    for rule, k in sorted(tally.scored.items()):
        lo, hi = wilson(k, n)
        scored[rule] = {"hands": k, "share": k / n if n else 0.0, "ci95": [lo, hi]}
    matches: dict[str, Any] = {}
    if tally.match_lengths:
        m = tally.sessions
        wins = []
        for seat in range(tally.players):
            k = tally.match_wins[seat]
            lo, hi = wilson(k, m)
            wins.append({"seat": seat + 1, "wins": k, "share": k / m if m else 0.0, "ci95": [lo, hi]})
        total = sum(v * c for v, c in tally.match_lengths.items())
        sq = sum(v * v * c for v, c in tally.match_lengths.items())
        mean, mlo, mhi = mean_ci(total, sq, m)
        matches = {"matches": m, "wins": wins, "capped": tally.match_capped,
                   "hands": {"mean": mean, "ci95": [mlo, mhi], "median": quantile(tally.match_lengths, 0.5),
                             "p90": quantile(tally.match_lengths, 0.9)}}
    return {
        "hands": n, "players": tally.players, "sessions": tally.sessions,
        "endings": endings, "seats": seats,
        "length": {"mean": mean_len, "ci95": [llo, lhi], "median": quantile(tally.lengths, 0.5),
                   "p90": quantile(tally.lengths, 0.9)},
        "rules": rules,
        **({"scored": scored} if scored else {}),
        **({"matches": matches} if matches else {}),
        **({"pot_left": tally.pot_left} if tally.pot_left else {}),
    }


def paying_rules(rs: Ruleset) -> list[str]:
    """The ids of the ruleset's rules that pay money, as simulate counts them: automatic wins,
    the endings' payouts, bonuses. None where the ruleset keeps points rather than money."""
    if rs.score_sheet == "points":
        return []
    ids = [w.id for w in rs.deal_wins]
    for ending in rs.endings.values():
        ids += [t.id for t in ending.payouts]
    ids += [b.transfer.id for b in rs.bonuses]
    return list(dict.fromkeys(ids))


def simulate(ruleset: Ruleset, bots: Sequence[Policy], hands: int, seed: int, stake: int = 1,
             progress: Callable[[int], None] | None = None) -> "Summary":
    """In-process simulation with a ruleset and policy objects (the library API)."""
    spec = Spec("", tuple("policy" for _ in bots), seed, stake)
    length = session_length(ruleset)
    total = Tally(len(bots))
    for start in range(0, hands, CHUNK_HANDS * length):
        n = min(CHUNK_HANDS * length, hands - start)
        tally, _ = run_sessions(spec, start, n, ruleset=ruleset, bots=bots)
        total.add(tally)
        if progress is not None:
            progress(total.hands)
    return Summary.of(total)


@dataclass
class Summary:
    """Totals of a simulation (kept for the library API and older callers)."""

    hands: int
    players: int
    sessions: int
    endings: dict[str, int]
    net: list[int]
    scores: list[int]
    actions: int
    rules_fired: dict[str, int]
    pot_left: int = 0  # money left in pots when the sessions ended: sum(net) + pot_left == 0

    @classmethod
    def of(cls, t: Tally) -> "Summary":
        return cls(t.hands, t.players, t.sessions, dict(t.endings), list(t.pay_sum), list(t.score_sum),
                   t.actions, dict(t.rules), t.pot_left)

