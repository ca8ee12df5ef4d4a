"""Actions: small immutable values whose ``str()`` is the scenario format's action text.

``parse_action("hit 8S on 1")`` gives ``Hit(cards=("8S",), target=1)`` and ``str()`` of that
gives the text back. Cards are kept in notation (canonical upper case) so that an action does
not depend on a pack; the engine maps them to card ids.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from tonkdsl.language.cards import CardSyntaxError, format_card, parse_card


class ActionSyntaxError(ValueError):
    """Text that is not an action of the scenario format."""


def _norm(card: str) -> str:
    return format_card(*parse_card(card))


@dataclass(frozen=True)
class Action:
    def __str__(self) -> str:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    @staticmethod
    def parse(text: str) -> "Action":
        return parse_action(text)


@dataclass(frozen=True)
class Drop(Action):
    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True)
class DrawStock(Action):
    def __str__(self) -> str:
        return "draw stock"


@dataclass(frozen=True)
class DrawDiscard(Action):
    def __str__(self) -> str:
        return "draw discard"


@dataclass(frozen=True)
class Spread(Action):
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "spread " + " ".join(self.cards)


@dataclass(frozen=True)
class Hit(Action):
    cards: tuple[str, ...]
    target: int  # 1-based spread number

    def __str__(self) -> str:
        return f"hit {' '.join(self.cards)} on {self.target}"


@dataclass(frozen=True)
class Discard(Action):
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Claim(Action):
    def __str__(self) -> str:
        return "claim"


@dataclass(frozen=True)
class Eat(Action):
    """Take the last discard out of turn (where the ruleset allows eating)."""

    def __str__(self) -> str:
        return "eat"


@dataclass(frozen=True)
class Fold(Action):
    """Sit out the rest of the hand (where the ruleset's turn.out_of_turn allows folding)."""

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True)
class Demand(Action):
    """Demand that the player to move take the top discard (where turn.out_of_turn allows it)."""

    def __str__(self) -> str:
        return "demand"


@dataclass(frozen=True)
class Pass(Action):
    """Decline to act when asked out of turn (to eat the last discard, to drop, to fold)."""

    def __str__(self) -> str:
        return "pass"


class ActionList(list[Action]):
    """The legal actions of one position: a plain list, grouped by kind, that also knows where
    each kind lies (``spans[Discard] == (start, end)``) and the card id of each discard
    (``discard_cards``, in the order of the discards; empty when not known).

    Bots read these to choose without sorting the list themselves; ``grouped`` makes one from
    any list of actions (the relative order within a kind is kept). Both are read-only (lists of
    the same shape may share one ``spans``). The engine sets both
    attributes after building the list (no ``__init__`` of its own: a list is made at every
    decision, so it must cost no more than a list)."""

    __slots__ = ("spans", "discard_cards")
    spans: dict[type, tuple[int, int]]
    discard_cards: Sequence[int]

    @classmethod
    def grouped(cls, actions: Iterable[Action]) -> "ActionList":
        # Compiled with the interpreter (grouping.py), imported here when first called: that
        # module builds ActionLists, so it imports this one.
        from tonkdsl.interpreter.grouping import grouped
        return grouped(actions)

    def without(self, kind: type) -> "ActionList":
        """This list without the actions of ``kind`` (itself when it has none): the same as
        ``grouped`` of the others, with the card ids of the discards kept. For bots that play
        like another bot but for one kind of action (a search bot's model players, which judge
        their drops themselves), without grouping the list again at every decision."""
        span = self.spans.get(kind)
        if span is None:
            return self
        lo, hi = span
        out = ActionList(self[:lo] + self[hi:])
        out.spans = {k: (a - (hi - lo) if a >= hi else a, b - (hi - lo) if b >= hi else b)
                     for k, (a, b) in self.spans.items() if k is not kind}
        out.discard_cards = self.discard_cards
        return out


_CORE_USAGE = ("drop", "draw stock", "draw discard", "spread <cards>", "hit <cards> on <n>", "discard <card>", "claim")
_ASKED_USAGE = ("eat", "fold", "demand", "pass")


def usage() -> str:
    """Every action's text, the constructs' too (tonkdsl/interpreter/rules/)."""
    from tonkdsl.interpreter.rules import RULES  # the constructs' actions are built on this module's

    return "actions are: " + " | ".join([*_CORE_USAGE, *(u for r in RULES for u in r.usage), *_ASKED_USAGE])


def _cards(words: list[str], what: str) -> tuple[str, ...]:
    if not words:
        raise ActionSyntaxError(f"'{what}' needs cards, e.g. '{what} 8D 8H 8C'")
    try:
        return tuple(_norm(w) for w in words)
    except CardSyntaxError as exc:
        raise ActionSyntaxError(str(exc)) from None


def parse_target(words: list[str], what: str) -> tuple[tuple[str, ...], int]:
    if len(words) < 3 or words[-2].lower() != "on":
        raise ActionSyntaxError(f"write '{what} <card> on <spread number>', e.g. '{what} 8S on 1'")
    try:
        n = int(words[-1])
    except ValueError:
        raise ActionSyntaxError(f"'{words[-1]}' is not a spread number (1 for the first spread laid)") from None
    if n < 1:
        raise ActionSyntaxError("spreads are numbered from 1")
    return _cards(words[:-2], what), n


def parse_action(text: str) -> Action:
    """Parse one action (without the player name); raises :class:`ActionSyntaxError`."""
    words = text.split()
    if not words:
        raise ActionSyntaxError("empty action; " + usage())
    verb, rest = words[0].lower(), words[1:]
    if verb == "drop" and not rest:
        return Drop()
    if verb == "claim" and not rest:
        return Claim()
    if verb == "eat" and not rest:
        return Eat()
    if verb == "fold" and not rest:
        return Fold()
    if verb == "demand" and not rest:
        return Demand()
    if verb == "pass" and not rest:
        return Pass()
    if verb == "draw":
        src = " ".join(rest).lower()
        if src == "stock":
            return DrawStock()
        if src == "discard":
            return DrawDiscard()
        raise ActionSyntaxError("write 'draw stock' or 'draw discard'")
    if verb == "spread":
        return Spread(_cards(rest, "spread"))
    if verb == "hit":
        cards, n = parse_target(rest, "hit")
        return Hit(cards, n)
    if verb == "discard":
        if len(rest) != 1:
            raise ActionSyntaxError("write 'discard <card>' with exactly one card, e.g. 'discard 6S'")
        return Discard(_cards(rest, "discard")[0])
    from tonkdsl.interpreter.rules import verbs  # imported here: the constructs' modules import this one

    parse = verbs().get(verb)
    if parse is not None:
        return parse(rest)
    raise ActionSyntaxError(f"'{text.strip()}' is not an action; " + usage())
