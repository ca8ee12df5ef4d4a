"""Small shared types of a hand in progress: what is on the table, errors, phases, limits."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

MAX_TURNS = 2000  # a hand longer than this ends as a dead hand (see docs/security.md)

START, PLAY, EXTRA, OVER = "start", "play", "extra_discard", "over"
ASK = "ask"  # players other than the one to move are asked in turn (eat, drop, fold: Ruleset.windows)

# The slots of State's parts (TurnRules, TurnFlow): none of their own, State declares them all.
# A name rather than "()": mypy then leaves to State's slots the check of what the parts assign.
NO_SLOTS: tuple[str, ...] = ()


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str()`` says why in a player's words."""


class RulesetError(RuntimeError):
    """A ruleset expression failed while playing (division by zero, a negative payout)."""


@dataclass(slots=True)
class PlayerStats:
    dealt_count: int = 0
    spreads: int = 0
    spreads_this_turn: int = 0
    hits: int = 0
    turns: int = 0
    out_by_spread: bool = False

    def copy(self) -> "PlayerStats":  # field by field: copy.copy takes three times as long
        return PlayerStats(self.dealt_count, self.spreads, self.spreads_this_turn, self.hits, self.turns,
                           self.out_by_spread)


@dataclass(slots=True)
class TableSpread:
    owner: int
    kind: str
    cards: list[int]
    # The cards that fit this spread alone (MeldRules.accepts), once asked; None again
    # whenever ``cards`` changes.
    fits: int | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Layout:
    """Cards fixed by a scenario: hands by seat, the upcard, the top of the stock (top first)."""

    hands: Mapping[int, Sequence[int]]
    upcard: int | None = None
    stock_top: Sequence[int] = ()
