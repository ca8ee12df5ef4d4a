"""Small shared types of a hand in progress: errors, phases, limits, a scenario's layout."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

MAX_TURNS = 2000  # a hand longer than this ends as a dead hand (see docs/security.md)

START, PLAY, EXTRA, OVER = "start", "play", "extra_discard", "over"
# The end of a hand a table voids when a rule fails at play (State.void): nothing is paid.
VOID = "void"
ASK = "ask"  # players other than the one to move are asked in turn (eat, drop, fold: Ruleset.windows)
# The player to move has played and discarded, and draws to end their turn: a turn whose draw
# comes last (a construct's: TurnRule.owes_draw).
DRAW_LAST = "draw_last"

# The kinds of event in a hand's public record (State.record: (seat, kind, card) in order; the
# card is -1 for a draw from the stock, which nobody else sees): what every player saw go into
# and out of each hand. DROP_DECLINED is added to a draw's kind when the player could have
# dropped instead (a drop was open at the start of their turn): not dropping says something
# about the hand too (tonkdsl/interpreter/reading.py reads the record).
DREW_STOCK, TOOK, LAID, DISCARDED = 0, 1, 2, 3
DROP_DECLINED = 4

# The slots of State's parts (TurnRules, TurnFlow): none of their own, State declares them all.
# A name rather than "()": mypy then leaves to State's slots the check of what the parts assign.
NO_SLOTS: tuple[str, ...] = ()


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str()`` says why in a player's words."""


class RulesetError(RuntimeError):
    """A ruleset expression failed while playing (division by zero, a negative payout)."""


@dataclass(frozen=True)
class Layout:
    """Cards fixed by a scenario: hands by seat, the upcard, the top of the stock (top first)."""

    hands: Mapping[int, Sequence[int]]
    upcard: int | None = None
    stock_top: Sequence[int] = ()
