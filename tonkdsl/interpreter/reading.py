"""Reading a hand's public record: how likely a guess at another player's hand is, given every
turn they were seen to play.

The strong bot guesses the cards it cannot see many times (its worlds) and plays each action in
every world. A guess that the others' play makes unlikely should count for less: players keep
low cards and partial spreads, let their highest loose card go, and drop when their count is low.
:func:`record_weight` is the chance that a player following that habit (the greedy bot's, the
model the bot's own searches play the others with) would have played the turns the record shows
and now hold the guessed hand: the sum, over the ways the hand could have come about (which card
each draw from the stock brought), of the product of each turn's chances: of letting the card go
that they did let go, and of not dropping when a drop was open. Any card is let go ``eps`` of
the time, and a drop is not taken ``eps`` of the time, so that a player who is not greedy makes a
guess less likely, never impossible.

Going back from the guess turn by turn, the hands a player could have held grow by one card a
turn (any card of the hand could be the one drawn): the likeliest ``BEAM`` are kept at each step
and the latest ``WINDOW`` turns read. Measured on the drop decisions of 60 hands of standard
(bench_reading.py's cases), a beam of 24 moves the chance that a drop wins by 0.005 on average
and 12 by 0.027 (up to 0.66); more turns than six move it by 0.0003.

It lives in the interpreter, compiled with it (setup.py), because the bot weighs a thousand
guesses at each decision where a drop is open: compiled, about 40 us a guess. The card tables
are typed as tuples (which they are: MeldRules.near, Pack.values) rather than sequences, so that
compiled code reads them directly: 20% fewer instructions a guess (callgrind).
"""
from __future__ import annotations

from typing import Final, Sequence

from tonkdsl.interpreter.table import DISCARDED, DROP_DECLINED, LAID, TOOK

Turn = tuple[int, int, int, bool]  # (card taken, or STOCK, or NO_DRAW; mask of cards laid; card discarded or -1; drop declined)
STOCK: Final = -1  # the turn's card came from the stock (nobody saw it)
NO_DRAW: Final = -2  # the turn drew nothing (a first turn without a draw, an extra discard)

BEAM: Final = 48  # the most hands kept at each step back (the likeliest)
WINDOW: Final = 6  # the turns read, the latest ones
EPS: Final = 0.2  # how often the model lets any card go, or keeps a hand it would drop


def turns_of(record: Sequence[tuple[int, int, int]], seat: int) -> list[Turn]:
    """``seat``'s turns in a hand's public record (State.record), oldest first: a turn begins
    with a draw and ends with a discard; one that has not ended yet (or ended without a
    discard, as a hit may end it) is listed with the discard -1."""
    turns: list[Turn] = []
    taken, laid, declined, begun = NO_DRAW, 0, False, False
    for who, kind, card in record:
        if who != seat:
            continue
        base = kind % DROP_DECLINED  # the event, whether or not a drop was declined with it
        if base == LAID:
            laid |= 1 << card
            begun = True
        elif base == DISCARDED:
            turns.append((taken, laid, card, declined))
            taken, laid, declined, begun = NO_DRAW, 0, False, False
        else:  # a draw begins a turn
            if begun:
                turns.append((taken, laid, -1, declined))
            taken = card if base == TOOK else STOCK
            laid, declined, begun = 0, kind >= DROP_DECLINED, True
    if begun:
        turns.append((taken, laid, -1, declined))
    return turns


def record_weight(hand: int, turns: Sequence[Turn], taken: int, near: tuple[int, ...], values: tuple[int, ...],
                  declines: Sequence[float], eps: float = EPS) -> float:
    """How likely a greedy player would have played ``turns`` (:func:`turns_of`) and now hold the
    cards of the mask ``hand``; ``taken`` is the mask of the cards everyone saw go into that hand
    (none of them came from the stock), ``near`` MeldRules.near(2) (the cards each card is kept
    with), ``values`` the cards' values, ``declines[c]`` the chance that the player does not take
    a drop open to them with a count of ``c`` (1 beyond the table: :func:`declines_above`)."""
    states: dict[int, float] = {hand: 1.0}
    first = len(turns) - WINDOW if len(turns) > WINDOW else 0
    for i in range(len(turns) - 1, first - 1, -1):
        pile, laid, discard, declined = turns[i]
        back: dict[int, float] = {}
        for held, w in states.items():
            before_discard = held
            if discard >= 0:
                before_discard = held | (1 << discard)
                w = w * discard_odds(before_discard, discard, near, values, eps)
            after_draw = before_discard | laid
            if pile != STOCK:  # the card taken is known (or none was drawn)
                if pile >= 0:
                    if not after_draw >> pile & 1:
                        continue
                    start = after_draw & ~(1 << pile)
                else:
                    start = after_draw
                if declined:
                    w = w * _declines(declines, _count(start, values))
                back[start] = back.get(start, 0.0) + w
                continue
            count = _count(after_draw, values) if declined else 0
            rest = after_draw & ~taken  # any card of the hand but those seen taken may have been drawn
            while rest:
                low = rest & -rest
                rest ^= low
                start = after_draw ^ low
                if declined:
                    back[start] = back.get(start, 0.0) + w * _declines(declines, count - values[low.bit_length() - 1])
                else:
                    back[start] = back.get(start, 0.0) + w
        if not back:
            return 0.0
        if len(back) > BEAM:
            states = dict(sorted(back.items(), key=_heaviest_first)[:BEAM])
        else:
            states = back
    total = 0.0
    for w in states.values():
        total += w
    return total


def discard_odds(held: int, card: int, near: tuple[int, ...], values: tuple[int, ...], eps: float) -> float:
    """How likely a greedy player holding the mask ``held`` (``card`` in it) lets ``card`` go: its
    highest card in no pair or near-run (``near``), else its highest card, equals alike; any
    card ``eps`` of the time."""
    n = 0
    top_loose = top_all = -1 << 30
    ties_loose = ties_all = 0
    card_loose = False
    mask = held
    while mask:
        low = mask & -mask
        mask ^= low
        c = low.bit_length() - 1
        n += 1
        v = values[c]
        if v > top_all:
            top_all, ties_all = v, 1
        elif v == top_all:
            ties_all += 1
        if not near[c] & held:
            if c == card:
                card_loose = True
            if v > top_loose:
                top_loose, ties_loose = v, 1
            elif v == top_loose:
                ties_loose += 1
    if ties_loose:
        fits, ties = card_loose and values[card] == top_loose, ties_loose
    else:
        fits, ties = values[card] == top_all, ties_all
    return (1.0 - eps) * ((1.0 if fits else 0.0) / ties) + eps / n


def declines_above(drop_at: int, eps: float = EPS) -> list[float]:
    """The chances of declining a drop for a player who drops with ``drop_at`` or less: ``eps``
    up to it (any hand is kept now and then), 1 above."""
    return [eps] * (max(drop_at, -1) + 1)


def _declines(declines: Sequence[float], count: int) -> float:
    if count >= len(declines):
        return 1.0
    return declines[count] if count >= 0 else declines[0]  # a count below 0 (cards worth less than nothing) as 0


def _count(mask: int, values: tuple[int, ...]) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += values[low.bit_length() - 1]
        mask ^= low
    return total


def _heaviest_first(item: tuple[int, float]) -> float:
    return -item[1]
