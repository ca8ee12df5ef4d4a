"""How well readings of the public record foretell whether a drop wins (Brier scores).

    python benchmarks/bench_reading.py [RULESET] [--opponent greedy] [--hands 300] [--guesses 256] [--eps 0.2]
        [--per-card 6] [--band 3] [--workers 2] [--fit] [--json]

Plays hands of montecarlo (seat 0) against the opponent and, at each of seat 0's decisions where
a drop is open and would end the hand at once, guesses the other hand ``--guesses`` times from
seat 0's view and weighs the guesses four ways:

* ``uniform``: every guess alike;
* ``last discard``: as the strong bot weighs its worlds (tonkdsl/tools/strong.py: the loose
  cards kept above the other's last discard);
* ``whole record``: the chance that a greedy player (who discards its highest card in no pair or
  near-run, and drops with a count of 10 or less) would have played the other's turns seen so
  far and ended with the guessed hand (``reading.record_weight`` of the hand's public record,
  State.record: what the strong bot weighs its worlds by where a drop is open);
* ``record, drops by card``: the same, but a drop not taken read as montecarlo's are: it drops
  with a count under about ``--per-card`` points for each card the other holds (measured in
  docs/strong-bot.md), now and then not within ``--band`` of that line: a drop is declined ``eps`` of
  the time below the band, half the time within it, always above.

Each reading's chance that the drop wins is the weighted share of the guesses in which it wins;
printed: each reading's Brier score (the mean squared error against what the drop would really
have done; lower is better) and its difference from ``uniform``, paired by decision, with a 95%
interval. The figures are in docs/strong-bot.md ("Where the room is").

With ``--fit`` (it needs numpy, which the plot and test extras bring): how much more the public
record holds than the readings find. A logistic model of whether the drop wins, from the four
readings' chances (as log-odds) and the public figures of ``FIGURES`` (what seat 0 could count
from the table: cards held, turns, draws, discards...), is fitted and judged by ten-fold
cross-validation (each decision foretold by a model fitted on the other nine tenths); printed
beside it, for each reading, its AUC (how well its chances tell the drops that win from those
that lose, however they are scaled) and its Brier score once recalibrated the same way (a
logistic model of its log-odds alone). The figures are in docs/strong-bot.md ("How sharp a
reading the goal needs").
"""
from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable

from duplicate import auc, brier
from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State, deal
from tonkdsl.interpreter.greedy import DROP_AT
from tonkdsl.interpreter.reading import declines_above, record_weight, turns_of
from tonkdsl.interpreter.table import DISCARDED, DREW_STOCK, DROP_DECLINED, LAID, TOOK
from tonkdsl.interpreter.view import View
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import new_policy
from tonkdsl.tools.simulate import ruleset_of
from tonkdsl.tools.strong import KEPT_ODDS, kept_above_discard
from tonkdsl.tools.tournament import _match


def play_hand_judged(ruleset: str, opponent: str, seed: int, on_drop: Callable[[State, A.Action], None]) -> None:
    """One hand of montecarlo (seat 0) against ``opponent``, ``on_drop`` asked at each of seat 0's
    decisions where a drop is open."""
    rs = ruleset_of(ruleset)
    state = deal(rs, 2, seed=seed, dealer=0)
    bots = [new_policy("montecarlo"), new_policy(opponent)]
    rng, views = Rng(seed ^ 0x5555), [View(state, s) for s in range(2)]
    while not state.is_terminal():
        seat = state.current if state.out_of_turn_seat is None else state.out_of_turn_seat
        legal = state.legal_actions()
        drop = next((a for a in legal if type(a) is A.Drop), None)
        if seat == 0 and drop is not None:
            on_drop(state, drop)
        state.apply(bots[seat](views[seat], legal, rng))


READINGS = ("uniform", "last discard", "whole record", "record, drops by card")
FIGURES = ("cards the other holds", "cards seat 0 holds", "the other's turns", "its draws from the stock",
           "its draws from the pile", "cards it laid", "drops it declined", "its last discard's value",
           "its highest discard's value", "its lowest discard's value", "the stock", "the discard pile",
           "seat 0's count", "the value of the cards seen taken that it still holds")


def public_figures(state: State, other: int) -> tuple[float, ...]:
    """``FIGURES`` at a decision of seat 0's: what it could count from the table and the record."""
    view = View(state, 0)
    values = view.pack.values
    events = [(kind, card) for who, kind, card in state.record if who == other]
    discarded = [values[card] for kind, card in events if kind % DROP_DECLINED == DISCARDED]
    # Cards everyone saw the other take and never saw it let go: public, though read off the state.
    seen_held = state.public_cards[other] & state.hand_mask(other)
    return (len(state.hands[other]), len(state.hands[0]), len(turns_of(view.record, other)),
            sum(kind % DROP_DECLINED == DREW_STOCK for kind, _ in events),
            sum(kind % DROP_DECLINED == TOOK for kind, _ in events),
            sum(kind % DROP_DECLINED == LAID for kind, _ in events),
            sum(kind >= DROP_DECLINED for kind, _ in events),
            discarded[-1] if discarded else 0, max(discarded, default=0), min(discarded, default=0),
            len(state.stock), len(state.discard_pile), view.count,
            sum(values[c] for c in range(len(values)) if seen_held >> c & 1))


def _part(task: tuple[str, str, int, int, int, float, float, int]) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """(truth, one chance per reading) at each drop decision of hands ``start`` .. ``start + count``,
    and the decision's public figures (``FIGURES``)."""
    ruleset, opponent, start, count, guesses, eps, per_card, band = task
    rows: list[tuple[float, ...]] = []
    figures: list[tuple[float, ...]] = []

    def on_drop(state: State, drop: A.Action) -> None:
        ended = state.clone()
        ended.apply(drop)
        outcome = ended.outcome()
        if outcome is None:  # a last round or a discard follows: not judged here
            return
        view, other = View(state, 0), 1
        near, values = view.meld_rules.near(2), view.pack.values
        turns, taken, last = turns_of(view.record, other), state.public_cards[other], view.last_discards[other]
        declines = declines_above(DROP_AT, eps)
        # The other's threshold is read off the cards this seat holds now (it held as many or one
        # more at the other's turns: a drop decision comes before the draw).
        line = int(per_card * len(state.hands[0]))
        by_card = [eps if c < line - band else 0.5 if c <= line + band else 1.0 for c in range(line + band + 1)]
        rng = Rng(state.seed * 7919 + sum(kind == DISCARDED for _, kind, _ in state.record))  # turns finished
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
            for i, w in enumerate((1.0, by_last, record_weight(mask, turns, taken, near, values, declines, eps),
                                   record_weight(mask, turns, taken, near, values, by_card, eps))):
                wins[i] += w * won
                weights[i] += w
        rows.append((float(outcome.payouts[0] > 0), *(wn / wt if wt else 0.5 for wn, wt in zip(wins, weights))))
        figures.append(public_figures(state, other))

    for h in range(start, start + count):
        play_hand_judged(ruleset, opponent, 1000 + h, on_drop)
    return rows, figures


FOLDS = 10  # the fit's cross-validation: decision i is foretold by a model fitted without i's tenth
RIDGE = 0.01  # a little shrinkage of the fit's coefficients, so that a figure constant in a fold does no harm


def logistic_fit(x: Any, y: Any) -> Any:
    """The coefficients (the intercept first) of the logistic model of ``y`` (0 or 1) on the
    columns of ``x`` that makes the data likeliest, less ``RIDGE`` times their squares (numpy
    arrays; Newton's method, which converges in a few steps on so smooth a function)."""
    import numpy as np

    x = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(x.shape[1])
    shrink = RIDGE * np.diag([0.0] + [1.0] * (x.shape[1] - 1))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + shrink, x.T @ (p - y) + shrink @ w)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def cross_validated(x: Any, y: Any) -> list[float]:
    """Each decision's chance by the logistic model fitted on the other folds (``FOLDS``, by
    decision number: the same folds every run), its columns scaled by those folds' means and
    spreads."""
    import numpy as np

    out = np.zeros(len(y))
    fold = np.arange(len(y)) % FOLDS
    for f in range(FOLDS):
        test, train = fold == f, fold != f
        mean, spread = x[train].mean(axis=0), x[train].std(axis=0) + 1e-9
        w = logistic_fit((x[train] - mean) / spread, y[train])
        out[test] = 1.0 / (1.0 + np.exp(-(w[0] + ((x[test] - mean) / spread) @ w[1:])))
    return [float(p) for p in out]


def fit_report(rows: list[tuple[float, ...]], figures: list[tuple[float, ...]]) -> dict[str, dict[str, float]]:
    """Each reading's Brier score (as it is, and recalibrated by a cross-validated logistic model of
    its log-odds) and AUC, and the same of the cross-validated fit of the readings and the public
    figures together (``FIGURES``): {name: {"brier", "recalibrated", "auc"}}."""
    import numpy as np

    y = np.array([r[0] for r in rows])
    chances = np.array([r[1:] for r in rows])
    clipped = np.clip(chances, 1e-3, 1 - 1e-3)  # a chance of 0 or 1 has no finite log-odds
    odds = np.log(clipped / (1 - clipped))
    won = [bool(t) for t in y]
    report = {}
    for i, name in enumerate(READINGS):
        given = [float(c) for c in chances[:, i]]
        report[name] = {"brier": brier(list(zip(given, won))),
                        "recalibrated": brier(list(zip(cross_validated(odds[:, i:i + 1], y), won))),
                        "auc": auc(list(zip(given, won)))}
    fitted = list(zip(cross_validated(np.hstack([odds, np.array(figures, dtype=float)]), y), won))
    report["fit"] = {"brier": brier(fitted), "recalibrated": brier(fitted), "auc": auc(fitted)}
    return report


def scores(rows: list[tuple[float, ...]]) -> dict[str, dict[str, Any]]:
    """Each reading's Brier score and its difference from ``uniform``'s, paired by decision, with
    its 95% interval: {name: {"brier", "against_uniform": {"mean", "low", "high"}}}."""
    squared = [[(r[i + 1] - r[0]) ** 2 for r in rows] for i in range(len(READINGS))]
    out: dict[str, dict[str, Any]] = {}
    for i, name in enumerate(READINGS):
        m = _match("", "", [s - u for s, u in zip(squared[i], squared[0])])
        out[name] = {"brier": sum(squared[i]) / len(rows),
                     "against_uniform": {"mean": m.margin, "low": m.low, "high": m.high}}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", nargs="?", default="standard")
    ap.add_argument("--opponent", default="greedy", help="the bot whose hand is read")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--guesses", type=int, default=256, help="guesses at each drop decision")
    ap.add_argument("--eps", type=float, default=0.2, help="how often the greedy model plays any card")
    ap.add_argument("--per-card", type=float, default=6.0,
                    help="the last reading's drops: under this many points a card the other holds")
    ap.add_argument("--band", type=int, default=3, help="the last reading's drops: points either side of that line")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fit", action="store_true",
                    help="also fit the readings and the public figures to the truth (cross-validated; needs numpy)")
    ap.add_argument("--json", action="store_true", help="the scores as one JSON object")
    a = ap.parse_args()
    if a.fit:
        try:
            import numpy  # noqa: F401
        except ImportError:
            ap.error("--fit needs numpy: pip install numpy (the plot and test extras bring it)")
    started = time.perf_counter()
    step = max(1, a.hands // (4 * a.workers))
    tasks = [(a.ruleset, a.opponent, s, min(step, a.hands - s), a.guesses, a.eps, a.per_card, a.band)
             for s in range(0, a.hands, step)]
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        parts = list(pool.map(_part, tasks))
    rows = [r for part, _ in parts for r in part]
    figures = [f for _, part in parts for f in part]
    out: dict[str, Any] = {"ruleset": a.ruleset, "opponent": a.opponent, "hands": a.hands, "guesses": a.guesses,
                           "decisions": len(rows), "readings": scores(rows) if rows else {}}
    if a.fit and rows:
        out["fit"] = fit_report(rows, figures)
    out["seconds"] = round(time.perf_counter() - started, 1)
    if a.json:
        print(json.dumps(out))
        return
    if not rows:
        print("no drop decision to judge")
        return
    print(f"{a.ruleset}: montecarlo's drop decisions against {a.opponent}, {a.hands} hands, {len(rows)} decisions, "
          f"{a.guesses} guesses each")
    for name, score in out["readings"].items():
        d = score["against_uniform"]
        against = "" if name == READINGS[0] else f"   against uniform {d['mean']:+.4f} [{d['low']:+.4f}, {d['high']:+.4f}]"
        print(f"  {name:21s} Brier {score['brier']:.4f}{against}")
    if "fit" in out:
        report = out["fit"]
        print(f"  fitted ({FOLDS}-fold cross-validated logistic models): Brier recalibrated, AUC")
        for name in READINGS:
            print(f"    {name:21s} {report[name]['recalibrated']:.4f}, {report[name]['auc']:.3f}")
        print(f"    {'readings and figures':21s} {report['fit']['brier']:.4f}, {report['fit']['auc']:.3f}")
        print(f"    (the {len(FIGURES)} public figures: {', '.join(FIGURES)})")
    print(f"  {out['seconds']:.0f} s with {a.workers} workers")


if __name__ == "__main__":
    main()
