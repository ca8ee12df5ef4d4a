"""Who deals: the cut for the first dealer  and the deal passing after each hand."""
from __future__ import annotations

from typing import TYPE_CHECKING

from tonkdsl.interpreter.shuffle import shuffle
from tonkdsl.language.names import EvalContext
from tonkdsl.language.rng import Rng
from tonkdsl.language.ruleset import Ruleset

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.interpreter.engine import State

MAX_CUTS = 100


def cut_for_deal(ruleset: Ruleset, num_players: int, rng: Rng) -> tuple[int, list[list[str]]]:
    """Each player cuts a card; the highest (or lowest) deals, equal cards cut again.

    Returns the dealer's seat and the cuts made, round by round (for showing the players).
    Ranks are ordered as the pack lists them (A low, K high in the standard pack).
    """
    if ruleset.first_dealer == "first_seat":
        return 0, []
    pack = ruleset.pack_for(num_players)
    order = {r: i for i, r in enumerate(dict.fromkeys(pack.ranks))}
    pick = max if ruleset.first_dealer == "highest_cut" else min
    contenders = list(range(num_players))
    rounds: list[list[str]] = []
    for _ in range(MAX_CUTS):
        cards = list(range(len(pack)))
        shuffle(rng, cards)
        cuts = {seat: cards[i] for i, seat in enumerate(contenders)}
        rounds.append([pack.names[cuts[s]] for s in contenders])
        best = pick(order[pack.ranks[c]] for c in cuts.values())
        contenders = [s for s in contenders if order[pack.ranks[cuts[s]]] == best]
        if len(contenders) == 1:
            return contenders[0], rounds
    return contenders[0], rounds  # pragma: no cover - 100 tied cuts in a row


def next_dealer(ruleset: Ruleset, dealer: int, num_players: int, state: "State | None" = None) -> int:
    """The dealer of the next hand: the first of the ruleset's ``deal.next_dealer`` rules that
    fits how ``state`` ended and names someone (the one nearest the dealer's left), else the
    deal passes to the left (next seat) or the right."""
    outcome = state.outcome() if state is not None else None
    if state is not None and outcome is not None:
        for rule in ruleset.next_dealers:
            if rule.after and outcome.end not in rule.after:
                continue
            if "dropper" in rule.dealer.names_used and state.dropper is None:
                continue  # a rule about the dropper, after a hand nobody dropped
            seats = set(state._eval(rule.dealer, EvalContext(state, dropper=state.dropper)))
            order = [(dealer + 1 + i) % num_players for i in range(num_players)]
            pick = next((s for s in order if s in seats), None)
            if pick is not None:
                return pick
    step = 1 if ruleset.rotation == "left" else -1
    return (dealer + step) % num_players
