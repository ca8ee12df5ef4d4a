"""How well readings of the public record foretell whether a drop wins (Brier scores).

    python benchmarks/bench_reading.py [RULESET] [--opponent greedy] [--hands 300] [--guesses 256] [--workers 2]

Plays hands of montecarlo (seat 0) against the opponent and, at each of seat 0's decisions where
a drop is open and would end the hand at once, guesses the other hand ``--guesses`` times from
seat 0's view and weighs the guesses three ways:

* ``uniform``: every guess alike;
* ``last discard``: as the strong bot weighs its worlds (tonkdsl/tools/strong.py: the loose
  cards kept above the other's last discard);
* ``whole record``: the chance that a greedy player (who discards its highest card in no pair or
  near-run, and drops with a count of 10 or less) would have played the other's turns seen so
  far and ended with the guessed hand (:func:`record_weight`, below).

Each reading's chance that the drop wins is the weighted share of the guesses in which it wins;
printed: each reading's Brier score (the mean squared error against what the drop would really
have done; lower is better) and its difference from ``uniform``, paired by decision, with a 95%
interval. The figures are in docs/play.md ("Where the room is").

The engine keeps no record of the turns (only each player's last discard, View.last_discards),
so this benchmark keeps its own as it plays: what every player saw, that is the card taken from
the discard pile (not the one drawn from the stock), the cards laid, the card discarded.
"""
from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.greedy import DROP_AT
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import new_policy
from tonkdsl.tools.simulate import ruleset_of
from tonkdsl.tools.strong import KEPT_ODDS, kept_above_discard
from tonkdsl.tools.tournament import _match

Turn = tuple[int, int, int]  # a finished turn: the card taken from the pile (-1: the stock), the mask laid, the discard
Log = list[tuple[int, Turn]]  # (seat, turn), in order
BEAM = 48  # the most hands kept at each step back (the likeliest)
WINDOW = 6  # the turns read, the latest ones


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def discard_odds(held: int, card: int, near: Sequence[int], values: Sequence[int], eps: float) -> float:
    """How likely a greedy player holding the mask ``held`` (``card`` in it) discards ``card``:
    its highest card in no pair or near-run (``near``: MeldRules.near(2)), else its highest card,
    equals alike; any card ``eps`` of the time."""
    cards = _cards(held)
    loose = [c for c in cards if not near[c] & held]
    pool = loose or cards
    top = max(values[c] for c in pool)
    ties = sum(values[c] == top for c in pool)
    fits = card in pool and values[card] == top
    return (1 - eps) * (fits / ties) + eps / len(cards)


def record_weight(hand: int, turns: Sequence[Turn], taken: int, near: Sequence[int], values: Sequence[int],
                  eps: float = 0.2, no_drop_above: int | None = DROP_AT) -> float:
    """How likely a greedy player would have played ``turns`` and now hold the mask ``hand``:
    the sum over the ways it could have (which card each draw from the stock brought: any card
    of the hand that held it, but those everyone saw it take from the pile, ``taken``) of the
    product of each turn's :func:`discard_odds` and, with ``no_drop_above``, of not having
    dropped at the start of each turn (``eps`` if the count was that or less)."""
    states = {hand: 1.0}
    for pile, laid, discard in reversed(turns[-WINDOW:]):
        back: dict[int, float] = {}
        for held, w in states.items():
            before_discard = held | 1 << discard
            w *= discard_odds(before_discard, discard, near, values, eps)
            after_draw = before_discard | laid
            drawn = [pile] if pile >= 0 else _cards(after_draw & ~taken)
            for card in drawn:
                if not after_draw >> card & 1:
                    continue
                start = after_draw & ~(1 << card)
                dropped = no_drop_above is not None and sum(values[c] for c in _cards(start)) <= no_drop_above
                odds = eps if dropped else 1.0
                back[start] = back.get(start, 0.0) + w * odds
        if not back:
            return 0.0
        states = dict(sorted(back.items(), key=lambda kv: -kv[1])[:BEAM])
    return sum(states.values())


def play_recorded_hand(ruleset: str, opponent: str, seed: int, on_drop: Callable[[State, Log, A.Action], None]) -> None:
    """One hand of montecarlo (seat 0) against ``opponent``, keeping the log of finished turns."""
    rs = ruleset_of(ruleset)
    state = deal(rs, 2, seed=seed, dealer=0)
    bots = [new_policy("montecarlo"), new_policy(opponent)]
    rng, views, names = Rng(seed ^ 0x5555), [View(state, s) for s in range(2)], state.pack.names
    log: Log = []
    turn = {0: [-1, 0], 1: [-1, 0]}  # the turn under way: the card taken, the mask laid
    while not state.is_terminal():
        seat = state.current if state.out_of_turn_seat is None else state.out_of_turn_seat
        legal = state.legal_actions()
        drop = next((a for a in legal if type(a) is A.Drop), None)
        if seat == 0 and drop is not None:
            on_drop(state, log, drop)
        action = bots[seat](views[seat], legal, rng)
        kind = type(action)
        if kind is A.DrawStock:
            turn[seat] = [-1, 0]
        elif kind is A.DrawDiscard:
            turn[seat] = [state.discard_pile[-1], 0]
        elif kind is A.Spread or kind is A.Hit:
            for name in action.cards:  # type: ignore[attr-defined]
                turn[seat][1] |= 1 << names.index(name)
        elif kind is A.Discard:
            log.append((seat, (turn[seat][0], turn[seat][1], names.index(action.card))))  # type: ignore[attr-defined]
        state.apply(action)


READINGS = ("uniform", "last discard", "whole record")


def _part(task: tuple[str, str, int, int, int, float]) -> list[tuple[float, ...]]:
    """(truth, one chance per reading) at each drop decision of hands ``start`` .. ``start + count``."""
    ruleset, opponent, start, count, guesses, eps = task
    rows: list[tuple[float, ...]] = []

    def on_drop(state: State, log: Log, drop: A.Action) -> None:
        ended = state.clone()
        ended.apply(drop)
        outcome = ended.outcome()
        if outcome is None:  # a last round or a discard follows: not judged here
            return
        view, other = View(state, 0), 1
        near, values = view.meld_rules.near(2), view.pack.values
        turns, taken, last = [turn for who, turn in log if who == other], state.public_cards[other], view.last_discards[other]
        rng = Rng(state.seed * 7919 + len(log))
        wins, weights = [0.0] * len(READINGS), [0.0] * len(READINGS)
        for _ in range(guesses):
            hands, stock = view.guess_hidden(rng)
            world = view.world(hands, stock)
            world.apply(drop)
            end = world.outcome()
            assert end is not None
            won = float(end.payouts[0] > 0)
            mask = sum(1 << c for c in hands[other])
            by_last = KEPT_ODDS ** kept_above_discard(hands[other], last, near, values) if last is not None else 1.0
            for i, w in enumerate((1.0, by_last, record_weight(mask, turns, taken, near, values, eps))):
                wins[i] += w * won
                weights[i] += w
        rows.append((float(outcome.payouts[0] > 0), *(wn / wt if wt else 0.5 for wn, wt in zip(wins, weights))))

    for h in range(start, start + count):
        play_recorded_hand(ruleset, opponent, 1000 + h, on_drop)
    return rows


def _interval(diffs: list[float]) -> str:
    """The mean difference and its 95% interval, as `tonk tournament` computes a margin's."""
    m = _match("", "", diffs)
    return f"{m.margin:+.4f} [{m.low:+.4f}, {m.high:+.4f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", nargs="?", default="standard")
    ap.add_argument("--opponent", default="greedy", help="the bot whose hand is read")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--guesses", type=int, default=256, help="guesses at each drop decision")
    ap.add_argument("--eps", type=float, default=0.2, help="how often the greedy model plays any card")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    started = time.perf_counter()
    step = max(1, a.hands // (4 * a.workers))
    tasks = [(a.ruleset, a.opponent, s, min(step, a.hands - s), a.guesses, a.eps) for s in range(0, a.hands, step)]
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        rows = [r for part in pool.map(_part, tasks) for r in part]
    if not rows:
        print("no drop decision to judge")
        return
    print(f"{a.ruleset}: montecarlo's drop decisions against {a.opponent}, {a.hands} hands, {len(rows)} decisions, "
          f"{a.guesses} guesses each")
    squared = [[(r[i + 1] - r[0]) ** 2 for r in rows] for i in range(len(READINGS))]
    for i, name in enumerate(READINGS):
        paired = [s - u for s, u in zip(squared[i], squared[0])]
        against = "" if i == 0 else f"   against uniform {_interval(paired)}"
        print(f"  {name:13s} Brier {sum(squared[i]) / len(rows):.4f}{against}")
    print(f"  {time.perf_counter() - started:.0f} s with {a.workers} workers")


if __name__ == "__main__":
    main()
