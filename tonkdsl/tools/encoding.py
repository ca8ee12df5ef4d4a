"""Actions as integers and what a player sees as numbers: the encoding the OpenSpiel game
(tools/openspiel.py) and the PettingZoo environment (tools/pettingzoo_env.py) share.

Both read only the interpreter's public API (the scenario strings of actions, a player's View),
so an agent trained through one sees the same numbers through the other."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tonkdsl.interpreter.rules import RULES

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from tonkdsl.interpreter.outcome import Outcome
    from tonkdsl.interpreter.view import View
    from tonkdsl.language.ruleset import Ruleset

# The actions without a card, first in every table.
SIMPLE = ("drop", "draw stock", "draw discard", "claim", "eat", "pass", "fold", "demand")
# Ids for spreads and hits of several cards, numbered as they are first met (see ActionTable).
SPARE_IDS = 20_000


class ActionIdsExhausted(RuntimeError):
    """More different spreads and multi-card hits met than SPARE_IDS leaves room for."""


class ActionTable:
    """A game's integer actions and their scenario strings. The first ids are fixed for every game
    of a ruleset: the actions without a card, then ``discard C``, each construct's actions of C
    and ``hit C on N`` for every card name C and spread number N. Spreads and hits of several
    cards are too many to number in advance (a hand of seven can spread thousands of ways with
    wild cards): each gets the next free id the first time the process meets it."""

    def __init__(self, names: list[str], max_spreads: int) -> None:
        fixed = list(SIMPLE) + [f"discard {n}" for n in names]
        for n in names:  # the constructs' actions of each card, then its hits (the ids stay as they were)
            for rule in RULES:
                fixed += rule.action_texts([n], max_spreads)
            fixed += [f"hit {n} on {t}" for t in range(1, max_spreads + 1)]
        self.fixed = len(fixed)
        self.size = self.fixed + SPARE_IDS
        self.text = fixed
        self.ids = {text: i for i, text in enumerate(fixed)}

    def id_of(self, text: str) -> int:
        known = self.ids.get(text)
        if known is not None:
            return known
        if len(self.text) >= self.size:
            raise ActionIdsExhausted(f"more than {SPARE_IDS} different spreads and multi-card hits met in this "
                                     "process for these game parameters (SPARE_IDS)")
        self.ids[text] = len(self.text)
        self.text.append(text)
        return self.ids[text]

    def __deepcopy__(self, memo: dict[int, Any]) -> "ActionTable":
        return self  # one table per game parameters in a process, shared by every state and clone


def view_pieces(players: int, names: int, shown: bool = False) -> list[tuple[str, int]]:
    """The parts of a player's observation vector, in order, with their sizes. ``shown``: the
    ruleset deals cards face up (deal.face_up), and the others' cards everyone has seen are a
    part of their own (at the end: the vectors of other rulesets keep their shape)."""
    return [("player", players), ("to_play", players), ("hand", names), ("top_discard", names),
            ("discard_pile", names), ("spreads", names), ("cards_held", players), ("stock", 1)] + (
        [("shown", names)] if shown else [])


def fill_from_view(d: dict[str, "np.ndarray"], view: "View", index: dict[str, int], to_play: int) -> None:
    """Write what ``view``'s player sees into the parts ``d`` (made by view_pieces, zeroed):
    their hand, the top discard, the pile, the spreads (card counts by name), the cards each
    player holds, the stock's size, who is to play."""
    names = view.pack.names
    d["player"][view.seat] = 1
    if to_play >= 0:
        d["to_play"][to_play] = 1
    for c in view.hand:
        d["hand"][index[names[c]]] += 1
    top = view.top_discard
    if top is not None:
        d["top_discard"][index[names[top]]] = 1
    for c in view.discard_pile:
        d["discard_pile"][index[names[c]]] += 1
    for _, cards in view.spreads:
        for c in cards:
            d["spreads"][index[names[c]]] += 1
    for seat, held in enumerate(view.cards_held):
        d["cards_held"][seat] = held
    d["stock"][0] = view.stock_size
    if "shown" in d:  # the cards in the others' hands everyone has seen (dealt face up, taken from the pile)
        for seat, cards in enumerate(view.shown):
            if seat != view.seat:
                for c in cards:
                    d["shown"][index[names[c]]] += 1


def returns(rs: "Ruleset", players: int, stake: int, out: "Outcome | None") -> list[float]:
    """Each player's return for a hand, 0 for every player until it is over: in stakes, the
    money each won or lost (partners for their side); on a score sheet, the player's score
    against the others' average, negated where the lowest score wins (bots.hand_value)."""
    from tonkdsl.tools.bots import hand_value

    if out is None:
        return [0.0] * players
    points = rs.score_sheet != "money"
    sides = rs.sides_for(players) if rs.side_size else None
    unit = stake if not points else 1
    return [hand_value(out, p, points, rs.lowest_score_wins, sides) / unit for p in range(players)]
