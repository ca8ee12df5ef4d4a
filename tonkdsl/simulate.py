"""A first, small simulator: bots play N seeded hands as sessions; ending frequencies and money.

Hands are played through :class:`~tonkdsl.session.Session`, so the deal rotates, the last hands
of a session may be for a higher stake, side bets are settled, and score sheets are kept.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from tonkdsl.bots import Policy
from tonkdsl.cards import SUITS_STANDARD
from tonkdsl.engine import State
from tonkdsl.outcome import END_KINDS, Outcome
from tonkdsl.rng import Rng, derive_seed
from tonkdsl.ruleset import Ruleset
from tonkdsl.session import Session
from tonkdsl.view import observation

MAX_ACTIONS_PER_HAND = 50_000


@dataclass
class Summary:
    hands: int
    players: int
    endings: Counter[str] = field(default_factory=Counter)
    net: list[int] = field(default_factory=list)  # money per seat, sessions settled
    scores: list[int] = field(default_factory=list)
    actions: int = 0
    rules_fired: Counter[str] = field(default_factory=Counter)
    sessions: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "hands": self.hands, "players": self.players, "sessions": self.sessions,
            "endings": {k: self.endings.get(k, 0) for k in END_KINDS},
            "ending_share": {k: self.endings.get(k, 0) / self.hands for k in END_KINDS},
            "net_payout_per_seat": self.net, "scores_per_seat": self.scores,
            "mean_actions_per_hand": self.actions / max(self.hands, 1),
            "payout_rules_fired": dict(sorted(self.rules_fired.items())),
        }


def play_out(state: State, bots: Sequence[Policy], rng: Rng) -> int:
    """Let the bots play ``state`` to its end; returns the number of actions."""
    n = 0
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(bots[seat](observation(state, seat), state.legal_actions(), rng))
        n += 1
        if n > MAX_ACTIONS_PER_HAND:  # pragma: no cover - the engine's turn cap ends hands first
            raise RuntimeError("a hand did not end")
    return n


def play_hand(ruleset: Ruleset, bots: Sequence[Policy], seed: int, dealer: int, stake: int = 1) -> tuple[Outcome, int]:
    """Play one hand between bots outside a session; returns the outcome and the number of actions."""
    session = Session(ruleset, len(bots), stake=stake, dealer=dealer)
    state = session.start_hand(seed=seed)
    n = play_out(state, bots, Rng(seed ^ 0x5DEECE66D))
    outcome = state.outcome()
    assert outcome is not None  # play_out only returns on a terminal state
    return outcome, n


def simulate(ruleset: Ruleset, bots: Sequence[Policy], hands: int, seed: int, stake: int = 1,
             progress: Callable[[int], None] | None = None) -> Summary:
    """Play ``hands`` hands; hand ``i`` is dealt from a seed derived from ``seed`` and ``i``."""
    players = len(bots)
    s = Summary(hands, players, net=[0] * players, scores=[0] * players)
    session = Session(ruleset, players, stake=stake, dealer=0)

    def close(sess: Session) -> None:
        for seat, v in enumerate(sess.settlement().money):
            s.net[seat] += v
        for seat, v in enumerate(sess.scores):
            s.scores[seat] += v
        s.sessions += 1

    for i in range(hands):
        if session.is_over():
            close(session)
            session = Session(ruleset, players, stake=stake, dealer=i % players)
        hand_seed = derive_seed(seed, i)
        rng = Rng(hand_seed ^ 0x5DEECE66D)
        state = session.start_hand(seed=hand_seed)
        s.actions += play_out(state, bots, rng)
        outcome = state.outcome()
        assert outcome is not None
        suits = {b.id: rng.choice(SUITS_STANDARD) for b in ruleset.session.side_bets if b.kind == "named_suit"}
        session.finish_hand(state, named_suits=suits)
        s.endings[outcome.end] += 1
        for p in outcome.payments:
            s.rules_fired[p.rule] += 1
        if progress is not None:
            progress(i + 1)
    close(session)
    return s
