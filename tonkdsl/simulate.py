"""A first, small simulator: bots play N seeded hands; ending frequencies and net payouts."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from tonkdsl.bots import Policy
from tonkdsl.engine import deal
from tonkdsl.outcome import END_KINDS, Outcome
from tonkdsl.rng import Rng, derive_seed
from tonkdsl.ruleset import Ruleset
from tonkdsl.view import observation

MAX_ACTIONS_PER_HAND = 20_000


@dataclass
class Summary:
    hands: int
    players: int
    endings: Counter[str] = field(default_factory=Counter)
    net: list[int] = field(default_factory=list)
    actions: int = 0
    rules_fired: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, object]:
        return {
            "hands": self.hands, "players": self.players,
            "endings": {k: self.endings.get(k, 0) for k in END_KINDS},
            "ending_share": {k: self.endings.get(k, 0) / self.hands for k in END_KINDS},
            "net_payout_per_seat": self.net, "mean_actions_per_hand": self.actions / max(self.hands, 1),
            "payout_rules_fired": dict(sorted(self.rules_fired.items())),
        }


def play_hand(ruleset: Ruleset, bots: Sequence[Policy], seed: int, dealer: int, stake: int = 1) -> tuple[Outcome, int]:
    """Play one hand between bots; returns the outcome and the number of actions."""
    state = deal(ruleset, len(bots), seed=seed, dealer=dealer, stake=stake)
    rng = Rng(seed ^ 0x5DEECE66D)
    n = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        state.apply(bots[seat](observation(state, seat), legal, rng))
        n += 1
        if n > MAX_ACTIONS_PER_HAND:  # pragma: no cover - the engine's turn cap ends hands first
            raise RuntimeError("a hand did not end")
    outcome = state.outcome()
    assert outcome is not None  # the loop only ends on a terminal state
    return outcome, n


def simulate(ruleset: Ruleset, bots: Sequence[Policy], hands: int, seed: int, stake: int = 1,
             progress: Callable[[int], None] | None = None) -> Summary:
    s = Summary(hands, len(bots), net=[0] * len(bots))
    for i in range(hands):
        outcome, n = play_hand(ruleset, bots, derive_seed(seed, i), i % len(bots), stake)
        s.endings[outcome.end] += 1
        for seat, v in enumerate(outcome.payouts):
            s.net[seat] += v
        for p in outcome.payments:
            s.rules_fired[p.rule] += 1
        s.actions += n
        if progress is not None:
            progress(i + 1)
    return s
