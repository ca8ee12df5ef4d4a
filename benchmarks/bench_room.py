"""Where the strong bot's room is: the same bot told the others' hands when a drop is open.

    python benchmarks/bench_room.py [RULESET] [--opponent greedy] [--deals 300] [--seed 7] [--workers 2]

Plays the strong bot and a copy of it that cheats against the same opponent on the same
duplicate deals (as `tonk tournament` does: each deal twice, seats swapped, sittings of ten deals
with bots of their own). The copy searches as the bot does, except at its decisions where a drop
is open: there every world it searches holds the others' real hands (the stock is shuffled
anew, so it still does not know what it will draw). Printed: both margins over the opponent with
their 95% intervals over deals, and the copy's gain over the bot, paired deal by deal: how much a
perfect reading of the others' hands at drop decisions would be worth. The figures are in
docs/strong-bot.md ("Where the room is").

A benchmark only: the cheating copy reads the state behind its view, which no bot may do.
"""
from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Iterator, Sequence

from duplicate import ruleset_ref, sitting_arguments, sittings
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State
from tonkdsl.interpreter.shuffle import shuffle
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import new_policy
from tonkdsl.tools.simulate import ruleset_of
from tonkdsl.tools.strong import StrongBot
from tonkdsl.tools.tournament import _match, play_deals


class ToldBot(StrongBot):
    """The strong bot, told the others' hands at its decisions where a drop is open."""

    def __init__(self) -> None:
        super().__init__()
        self.drop_open = False

    def __call__(self, view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        self.drop_open = any(type(a) is A.Drop for a in legal)
        return super().__call__(view, legal, rng)

    def worlds(self, view: View, rng: Rng, n: int, at_once: int) -> Iterator[State]:
        if not self.drop_open:
            yield from super().worlds(view, rng, n, at_once)
            return
        real = view._state  # the cheat: the hands behind the view
        for _ in range(n):
            stock = list(real.stock)
            shuffle(rng, stock)
            yield view.world([list(hand) for hand in real.hands], stock)


def _sitting(task: tuple[str, bool, str, int, int, int]) -> list[float]:
    ref, told, opponent, seed, start, count = task
    bot = ToldBot() if told else StrongBot()
    pairs = play_deals(ruleset_of(ref), bot, new_policy(opponent), seed, start, count)
    return [(a + b) / 2 for a, b in pairs]


def _interval(values: list[float]) -> str:
    """The mean a deal and its 95% interval, as `tonk tournament` computes a margin's."""
    m = _match("", "", values)
    return f"{m.margin:+.3f} [{m.low:+.3f}, {m.high:+.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sitting_arguments(ap, "greedy", "the bot both play against")
    a = ap.parse_args()
    ref = ruleset_ref(a.ruleset)
    started = time.perf_counter()
    margins: dict[bool, list[float]] = {}
    for told in (False, True):
        tasks = [(ref, told, a.opponent, a.seed, start, count) for start, count in sittings(a.deals)]
        with ProcessPoolExecutor(max_workers=a.workers) as pool:
            margins[told] = [m for part in pool.map(_sitting, tasks) for m in part]
    gain = [t - s for t, s in zip(margins[True], margins[False])]
    print(f"{a.ruleset} against {a.opponent}: {a.deals} deals, each played twice with the seats swapped; seed {a.seed}")
    print(f"  strong bot                            {_interval(margins[False])}")
    print(f"  told the others' hands at drop times  {_interval(margins[True])}")
    print(f"  gain, paired by deal                  {_interval(gain)} ({sum(g != 0 for g in gain)} deals differ)")
    print(f"  {time.perf_counter() - started:.0f} s with {a.workers} workers")


if __name__ == "__main__":
    main()
