"""Where the strong bot's room is: the same bot told the others' hands when a drop is open.

    python benchmarks/bench_room.py [RULESET] [--opponent greedy] [--deals 300] [--seed 7] [--workers 2] [--signal SIGMA[,SIGMA...]]

Plays the strong bot and a copy of it that cheats against the same opponent on the same
duplicate deals (as `tonk tournament` does: each deal twice, seats swapped, sittings of ten deals
with bots of their own). The copy searches as the bot does, except at its decisions where a drop
is open: there every world it searches holds the others' real hands (the stock is shuffled
anew, so it still does not know what it will draw). Printed: both margins over the opponent with
their 95% intervals over deals, and the copy's gain over the bot, paired deal by deal: how much a
perfect reading of the others' hands at drop decisions would be worth. The figures are in
docs/strong-bot.md ("Where the room is").

With ``--signal SIGMA`` the copy is told less (several SIGMAs: a copy for each): at its
decisions where a drop is open, each other player's count with an error drawn from a normal law
of SIGMA points (drawn from the deal's seed and how far the hand has gone: the same from run
to run, and anew at each decision), and it weighs its own worlds by it as a Bayesian would (each
world's reading times the error's density at that world's count). Between the bot (SIGMA
infinite) and a copy told the counts (SIGMA 0), it measures what a sharper reading of the public
record would be worth. Printed too, for the bot and every copy, over their decisions where a
drop is open and ends the hand at once: the Brier score of the chance their worlds gave the drop
of winning, and its AUC (how well that chance tells the drops that win from those that lose,
however it is scaled). The figures are in docs/strong-bot.md ("How sharp a reading the goal
needs").

A benchmark only: the cheating copy reads the state behind its view, which no bot may do.
"""
from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterator, Sequence

from duplicate import auc, brier, real_drop, ruleset_ref, sitting_arguments, sittings, worth
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State
from tonkdsl.interpreter.shuffle import shuffle
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng, derive_seed
from tonkdsl.tools.bots import new_policy
from tonkdsl.tools.simulate import ruleset_of
from tonkdsl.tools.strong import StrongBot
from tonkdsl.tools.tournament import _match, play_deals


class Noted(StrongBot):
    """The strong bot, noting at each decision where a drop is open and ends the hand at once the
    chance its worlds gave the drop of winning, and whether it would have won (the real hands,
    read behind the view)."""

    def __init__(self) -> None:
        super().__init__()
        self.drop_open = False
        self.noted: list[tuple[float, bool]] = []

    def __call__(self, view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        drop = next((a for a in legal if type(a) is A.Drop), None)
        self.drop_open = drop is not None
        action = super().__call__(view, legal, rng)
        if drop is not None and self.judged is not None:
            outcome = real_drop(view, drop)
            if outcome is not None:
                self.noted.append((self.judged.wins, worth(view, outcome) > 0))
        return action


class ToldBot(Noted):
    """The strong bot, told the others' hands at its decisions where a drop is open."""

    def worlds(self, view: View, rng: Rng, n: int, at_once: int) -> Iterator[State]:
        if not self.drop_open:
            yield from super().worlds(view, rng, n, at_once)
            return
        real = view._state  # the cheat: the hands behind the view
        for _ in range(n):
            stock = list(real.stock)
            shuffle(rng, stock)
            yield view.world([list(hand) for hand in real.hands], stock)


class SignalBot(Noted):
    """The strong bot, told each other player's count with a normal error of ``sigma`` points at
    its decisions where a drop is open, and weighing its worlds by it."""

    def __init__(self, sigma: float) -> None:
        super().__init__()
        self.sigma = sigma

    def world_odds(self, view: View) -> Callable[[State], float] | None:
        reading = super().world_odds(view)
        real = view._state  # the cheat: the counts behind the view
        values = view.pack.values
        told = {}
        for seat in range(view.num_players):
            if seat != view.seat:
                noise = Rng(derive_seed(real.seed, 8 * len(real.record) + seat))
                told[seat] = sum(values[c] for c in real.hands[seat]) + self.sigma * _normal(noise)
        spread = 2 * max(self.sigma, 0.25) ** 2  # a signal told exactly still leaves the worlds some weight

        def odds(world: State) -> float:
            weight = reading(world) if reading is not None else 1.0
            for seat, count in told.items():
                weight *= math.exp(-((sum(values[c] for c in world.hands[seat]) - count) ** 2) / spread)
            return weight

        return odds


def _normal(rng: Rng) -> float:
    """A draw from the standard normal law (Box and Muller)."""
    u = (rng.next_u64() + 1) / 2.0 ** 64
    v = rng.next_u64() / 2.0 ** 64
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * v)


def _sitting(task: tuple[str, str, str, int, int, int]) -> tuple[list[float], list[tuple[float, bool]]]:
    ref, copy, opponent, seed, start, count = task
    bot = Noted() if copy == "bot" else ToldBot() if copy == "told" else SignalBot(float(copy))
    pairs = play_deals(ruleset_of(ref), bot, new_policy(opponent), seed, start, count)
    return [(a + b) / 2 for a, b in pairs], bot.noted


def _interval(values: list[float]) -> str:
    """The mean a deal and its 95% interval, as `tonk tournament` computes a margin's."""
    m = _match("", "", values)
    return f"{m.margin:+.3f} [{m.low:+.3f}, {m.high:+.3f}]"


def _sigmas(text: str) -> list[float]:
    try:
        sigmas = [float(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': give points, as 8 or 16,8,4") from None
    if not all(x >= 0 for x in sigmas):
        raise argparse.ArgumentTypeError(f"'{text}': an error of 0 points or more")
    return sigmas


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sitting_arguments(ap, "greedy", "the bot both play against")
    ap.add_argument("--signal", type=_sigmas, metavar="SIGMA[,SIGMA...]",
                    help="tell the copy the others' counts with a normal error of SIGMA points, not their hands "
                         "(several: a copy for each, on the same deals)")
    a = ap.parse_args()
    ref = ruleset_ref(a.ruleset)
    started = time.perf_counter()
    copies = ["told"] if a.signal is None else [repr(sigma) for sigma in a.signal]
    margins: dict[str, list[float]] = {}
    noted: dict[str, list[tuple[float, bool]]] = {}
    for who in ["bot", *copies]:
        tasks = [(ref, who, a.opponent, a.seed, start, count) for start, count in sittings(a.deals)]
        with ProcessPoolExecutor(max_workers=a.workers) as pool:
            parts = list(pool.map(_sitting, tasks))
        margins[who] = [m for part, _ in parts for m in part]
        noted[who] = [row for _, rows in parts for row in rows]
    print(f"{a.ruleset} against {a.opponent}: {a.deals} deals, each played twice with the seats swapped; seed {a.seed}")
    print(f"  strong bot                            {_interval(margins['bot'])}")
    for who in copies:
        gain = [t - s for t, s in zip(margins[who], margins["bot"])]
        label = "told the others' hands at drop times" if who == "told" else f"told their counts +- {float(who):g} points"
        print(f"  {label:37s} {_interval(margins[who])}")
        print(f"    gain, paired by deal                {_interval(gain)} ({sum(g != 0 for g in gain)} deals differ)")
    print("  drop decisions (those a drop would end at once): the chance the worlds gave the drop against what it did")
    for who in ["bot", *copies]:
        name = "strong bot" if who == "bot" else "told the hands" if who == "told" else f"told +- {float(who):g}"
        if noted[who]:
            print(f"    {name:20s} {len(noted[who]):6d} decisions, Brier {brier(noted[who]):.4f}, AUC {auc(noted[who]):.3f}")
    print(f"  {time.perf_counter() - started:.0f} s with {a.workers} workers")


if __name__ == "__main__":
    main()
