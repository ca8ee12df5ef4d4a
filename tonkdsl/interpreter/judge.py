"""What a drop is worth: the search bots' judgement of a drop now, and what a finished hand is
worth to a seat.

The montecarlo bot and the strong bot's model players judge a drop at almost every decision
of every rollout, each time over many worlds dealt from what they see: this lives here
rather than with the bots so that it is compiled with the interpreter (setup.py), the loop
over worlds and the value of each ending in C rather than in Python frames (3% more rollouts a
second for the search bot measured in docs/simulate.md). tonkdsl/tools/bots.py gives these to
the bots under the same names.
"""
from __future__ import annotations

from typing import Final, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.greedy import greedy_bot
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.view import View, play_out
from tonkdsl.language.rng import Rng

_DROP: Final = A.Drop()


def hand_value(outcome: Outcome, seat: int, points: bool, lowest_wins: bool,
               sides: Sequence[int] | None = None, pot_shared: bool = False) -> float:
    """What a finished hand is worth to ``seat``: its money, or on a score sheet its score
    against the others' average (negated where the lowest score wins). With ``sides`` (each
    seat's side, View.sides) a seat plays for its side: the side's money, its score against
    the other sides' average.

    With ``pot_shared`` the money the pot gained or paid this hand counts too, as the table's:
    each seat's share of it (a side's, its seats' shares). Money left in a pot that carries over
    is won back in later hands, by each player as often as by another, so a caught dropper who
    matches a pot of two antes loses one ante's worth (-3 + 4 / 2 between two players), not three:
    the strong bot's own valuation. Without it (the montecarlo bot's), a seat counts only the
    money it was paid this hand. Where no pot moved the two are the same."""
    values: Sequence[int] = outcome.scores if points and outcome.scores else outcome.payouts
    members = 1  # the seats playing for ``seat``'s side (its share of the pot)
    if sides is not None and len(set(sides)) < len(sides):
        by_side: dict[int, int] = {}
        for i, v in enumerate(values):
            by_side[sides[i]] = by_side.get(sides[i], 0) + v
        members = sum(1 for s in sides if s == sides[seat])
        values, seat = tuple(by_side.values()), list(by_side).index(sides[seat])
    if points and outcome.scores:
        others = [s for i, s in enumerate(values) if i != seat]
        relative = values[seat] - (sum(others) / len(others) if others else 0)
        return -relative if lowest_wins else relative
    if pot_shared and outcome.pot_change:
        return values[seat] + outcome.pot_change * members / len(outcome.payouts)
    return float(values[seat])


def drop_outcomes(view: View, rng: Rng, samples: int, play_on: bool = False) -> list[Outcome]:
    """The endings of a drop now in ``samples`` worlds dealt from the view (search bots); with
    ``play_on``, a world the drop does not end is played to its end by greedy players (who
    draw nothing from ``rng``, so the worlds dealt after it are those dealt without it).

    Without ``play_on`` the worlds stop at the first one the drop does not end: whether a drop
    ends the hand at once (or a last round or the discard follows) is public, the same in every
    world, so none would yield an ending (a search's model players judge a drop so at almost
    every decision of every rollout where a knock is followed by a last round)."""
    out: list[Outcome] = []
    for _ in range(samples):
        world = view.determinize(rng)
        world.apply(_DROP)
        if not world.is_terminal():
            if not play_on:
                break
            play_out(world, [greedy_bot] * world.num_players, rng)
        ending = world.outcome()
        if ending is not None:
            out.append(ending)
    return out


def drop_value(view: View, rng: Rng, samples: int, play_on: bool = False, pot_shared: bool = False) -> float:
    """What a drop now is worth on average over ``samples`` worlds dealt from the view
    (:func:`hand_value`: money, or points on a score sheet; ``pot_shared`` as there). A drop that
    does not end the hand at once (a discard or a last round follows it) counts for nothing,
    unless ``play_on``: then greedy players play each world to its end after the drop."""
    rs = view.ruleset
    points, lowest_wins = rs.score_sheet == "points", rs.lowest_score_wins
    seat, sides = view.seat, view.sides
    total = 0.0  # summed in the order of the worlds, as sum() did: the same float every time
    for ending in drop_outcomes(view, rng, samples, play_on):
        total += hand_value(ending, seat, points, lowest_wins, sides, pot_shared)
    return total / samples
