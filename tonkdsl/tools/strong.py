"""The strong bot: determinized Monte-Carlo search over every decision the ruleset offers.

At each decision with more than one legal action the bot guesses the hidden cards many times
(worlds), plays every legal action in each world and then the rest of the hand with model
players, and takes the action whose hands end best for it on average. Three things make it strong:

* **It reads the others' play.** A world is made from the view alone (``View.guess_hidden``:
  the others keep their hand sizes and the cards everyone saw them take); among many guesses it
  keeps mostly those where each other player's last discard makes sense, that is where they did
  not keep a loose card worth more than the one they let go of (players keep low cards and
  partial spreads). A guess is weighed ``KEPT_ODDS`` to the power of the cards that contradict
  it, and the worlds are drawn by those weights. Where a drop is open, what it wins hangs on the
  others' counts, so each world's values are weighed as well by how much likelier the whole
  public record makes it (:func:`record_odds`: every turn the others played, every card they let
  go, every drop they did not take, read as a greedy player would have played them).
* **Its model players drop when a drop pays, and it learns who does.** In some worlds the others
  play like the greedy bot (they drop late, with a low count); in the others they play like
  players who drop as soon as a drop gains on average against the hands they cannot see
  (``Dropper``). Against either kind of opponent the search then neither waits too long nor
  drops too soon. The share of each seat's dropper worlds is learnt from the hands the bot sees
  end (``hand_over``, ``dropper_share``): at least a half, more for a seat seen dropping with
  counts the greedy model would keep. Its own seat drops in the rollouts only for a gain above
  ``OWN_MARGIN``: the bot plays on better than that model, so a drop must beat what playing on
  is worth to it; otherwise its own seat plays as the bot's habit (below).
* **It changes a sound habit only for a clear gain.** The action of its habit
  (``greedy.habit_bot``: the greedy player, but that it lets a high card of a partial spread go
  before a much lower loose card, and takes a low top discard) is kept unless another one does
  better on the same worlds by more than ``Z`` standard errors of the difference: a search of a
  few dozen worlds per action is noisy, and a noisy choice among discards is worse than the
  habit. A drop is taken when dropping (judged on twice as many worlds:
  it needs no rollout) pays more than the best way to play on.

A hand is worth to the bot the money it is paid, and with a pot its share of what the pot gained
or paid (``hand_value``'s ``pot_shared``): a pot that carries over is won back in later hands, so
a caught dropper who matches it loses less than what it pays in. Counting only the money paid,
as montecarlo does, a drop between two players for a pot of two antes pays only when it wins
three times in four (+1 against -3); counting the pot as the table's, once it wins more often
than not (+1 against -1).

The same worlds and the same rollout seeds serve every action (common random numbers), so that
actions are compared on the same deals. This is perfect-information Monte-Carlo (PIMC), the
determinization behind OpenSpiel's and CardStock's information-set searches, with full-hand
rollouts; it reads the ruleset only through the engine, so it plays any ruleset. Its choices are
fixed by the random generator it is given (the same seed, the same play).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import State
from tonkdsl.interpreter.greedy import DROP_AT, habit_bot
from tonkdsl.interpreter.outcome import Outcome
from tonkdsl.interpreter.reading import declines_above, record_weight, turns_of
from tonkdsl.interpreter.view import View, play_out
from tonkdsl.language.rng import Rng
from tonkdsl.tools.bots import Policy, completes_spread, drop_value, greedy_bot, hand_value

DEFAULT_ROLLOUTS = 2048  # the default's most rollouts per decision and per five cards dealt
DEFAULT_WORK = 12_000  # the default's most actions played in its rollouts per decision, two players (default_work)
WORLDS_AT_ONCE = 64  # worlds the default's search draws at a time (it may stop well short of its most)
KEPT_ODDS = 0.25  # how much less likely a guess is for each loose card kept above a discard
GUESSES_PER_WORLD = 4  # guesses weighed for each world searched
Z = 2.0  # standard errors by which an action must beat the habit
DROPPER_SAMPLES = 16  # guesses a model player makes to judge a drop
# Stakes a drop must gain for the bot's own seat in its rollouts to take it: where the bot played
# on with a value near 0 by its rollouts, its hands ended at +0.43 on average (docs/strong-bot.md).
OWN_MARGIN = 0.5


def kept_above_discard(hand: Sequence[int], discard: int, near: Sequence[int], values: Sequence[int]) -> int:
    """How badly ``hand`` fits its holder having just discarded ``discard``: the loose cards it
    keeps (part of no partial spread with the rest of the hand or the discard) that are worth more
    than the discard, plus one when the discard was part of a partial spread while a loose card
    was kept. ``near`` is ``MeldRules.near``: the cards each card is kept with."""
    mask = 1 << discard
    for c in hand:
        mask |= 1 << c
    worse = loose = 0
    limit = values[discard]
    for c in hand:
        if not near[c] & mask:
            loose += 1
            if values[c] > limit:
                worse += 1
    if loose and near[discard] & mask:
        worse += 1
    return worse


def likely_worlds(view: View, rng: Rng, n: int) -> list[State]:
    """``n`` worlds consistent with ``view``, drawn among ``GUESSES_PER_WORLD * n`` guesses by how
    well each other hand fits its holder's last discard (``kept_above_discard``)."""
    discards = [(seat, card) for seat, card in enumerate(view.last_discards)
                if card is not None and seat != view.seat]
    if not discards:  # nothing to weigh a guess by: every guess is as likely
        return [view.determinize(rng) for _ in range(n)]
    near, values = view.meld_rules.near(2), view.pack.values
    guesses, weights = [], []
    for _ in range(n * GUESSES_PER_WORLD):
        hands, stock = view.guess_hidden(rng)
        worse = sum(kept_above_discard(hands[seat], card, near, values) for seat, card in discards)
        guesses.append((hands, stock))
        weights.append(KEPT_ODDS ** worse)
    # Systematic resampling: n evenly spaced points through the cumulative weights, one random
    # offset; a guess is drawn about n * weight / total times (low variance, deterministic).
    step = sum(weights) / n
    point = step * rng.next_u64() / 2.0 ** 64
    worlds, at, reached = [], 0, weights[0]
    for _ in range(n):
        while reached < point and at < len(weights) - 1:
            at += 1
            reached += weights[at]
        worlds.append(view.world(*guesses[at]))
        point += step
    return worlds


def record_odds(view: View, declines: Sequence[Sequence[float]]) -> Callable[[State], float] | None:
    """How much more likely each world is by the whole public record than by the last discards
    it was drawn by (:func:`likely_worlds`): for each other player who has played a turn, the
    chance that a greedy player would have played their turns and now hold the world's hand
    (``reading.record_weight``) over ``KEPT_ODDS`` to the power of the cards that contradict
    their last discard. Weighing each world's values by it makes the search's averages those of
    worlds drawn by the record, in the very worlds the actions are compared on. ``declines[seat]``
    is that player's chance of not taking a drop open to them, by count (reading.record_weight).
    None when nobody else has played a turn: every world is as likely."""
    players = [(seat, turns) for seat in range(view.num_players) if seat != view.seat
               for turns in [turns_of(view.record, seat)] if turns]
    if not players:
        return None
    near, values = view.meld_rules.near(2), view.pack.values
    last, taken = view.last_discards, view.public_cards
    known: dict[tuple[int, int], float] = {}  # a hand's odds, by seat and cards (worlds share hands)

    def odds(world: State) -> float:
        total = 1.0
        for seat, turns in players:
            hand = world.hands[seat]
            mask = 0
            for c in hand:
                mask |= 1 << c
            got = known.get((seat, mask))
            if got is None:
                discard = last[seat]
                drawn_by = KEPT_ODDS ** kept_above_discard(hand, discard, near, values) if discard is not None else 1.0
                got = known[(seat, mask)] = record_weight(mask, turns, taken[seat], near, values, declines[seat]) / drawn_by
            total *= got
        return total

    return odds


class Dropper:
    """A model player for the rollouts: drops when a drop gains more than ``margin`` stakes on
    average against hands dealt at random from what it cannot see, takes the top discard when it
    completes a spread, and plays like ``base`` otherwise (the greedy bot for the others, the
    bot's habit for its own seat), counting a pot's money as ``pot_shared`` says (hand_value).
    Its judgements of a drop are kept by seat, count and hand sizes during one search
    (``forget`` starts a new one): rollouts ask the same question often."""

    def __init__(self, samples: int = DROPPER_SAMPLES, margin: float = 0.0, base: Policy = greedy_bot,
                 pot_shared: bool = False) -> None:
        self.samples = samples
        self.margin = margin
        self.base = base
        self.pot_shared = pot_shared  # how it counts a pot's money (judge.hand_value)
        self._drops: dict[tuple[int, int, tuple[int, ...]], bool] = {}

    def forget(self) -> None:
        self._drops.clear()

    def __call__(self, view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        grouped = legal if type(legal) is A.ActionList else A.ActionList.grouped(legal)
        spans = grouped.spans
        if A.Drop in spans:
            key = (view.seat, view.count, view.cards_held)
            drops = self._drops.get(key)
            if drops is None:
                drops = self._drops[key] = self._drop_gains(view, rng)
            if drops:
                return grouped[spans[A.Drop][0]]
        if A.DrawDiscard in spans and view.top_discard is not None and completes_spread(view):
            return grouped[spans[A.DrawDiscard][0]]
        return self.base(view, grouped.without(A.Drop), rng)

    def _drop_gains(self, view: View, rng: Rng) -> bool:
        return drop_value(view, rng, self.samples, pot_shared=self.pot_shared) > self.margin * view.stake


@dataclass
class SearchStats:
    """What the bot's searches cost: for benchmarks (decisions/s, rollout actions/s)."""

    decisions: int = 0  # decisions searched (more than one legal action)
    rollouts: int = 0
    actions: int = 0  # actions played in rollouts
    seconds: float = 0.0


@dataclass(frozen=True)
class DropJudgement:
    """What the search made of a decision where a drop was open (``StrongBot.judged``), for
    benchmarks that compare it with what came of it (benchmarks/bench_calibration.py)."""

    drop: float  # the drop's value, the worlds' weighted mean
    play: float  # the value of the best way to play on, the same
    wins: float  # the weighted share of the worlds where the drop gains
    # The standard error of the drop's gain over that way to play on, in the worlds both were
    # played in, paired: how close a call the decision was for the search's own noise.
    spread: float


def default_rollouts(hand_size: int) -> int:
    """The default budget's most rollouts: ``DEFAULT_ROLLOUTS`` for every five cards dealt
    (rounded up), since a bigger hand has more discards to share the rollouts among (seven cards:
    4,096); fewer where ``DEFAULT_WORK`` is spent first (see StrongBot)."""
    return DEFAULT_ROLLOUTS * max(1, -(-hand_size // 5))


def default_work(num_players: int) -> int:
    """The most actions the default budget's rollouts play per decision at a table of
    ``num_players``: ``DEFAULT_WORK`` at two, in inverse proportion beyond. A rollout action
    costs more with every player at the table (each world deals every other hand, each model
    player judges its drops on worlds of all the others': compiled, at four players 1.2 to 2.5
    times the cost at two in the six rulesets of the goals, about twice on average; see
    docs/strong-bot.md, "At a bigger table"), so the same count of actions would make a decision
    at four players twice as long."""
    return DEFAULT_WORK * 2 // max(2, num_players)


class StrongBot:
    """The search bot with ``rollouts`` rollouts per decision, shared among its legal actions (at
    least two worlds each); a policy like the others (``bot(view, legal, rng)``).

    The default (``rollouts`` None) is :func:`default_rollouts` of the ruleset's hand size, cut
    short once its rollouts have played :func:`default_work` actions (``DEFAULT_WORK`` between two
    players): a rollout's time goes with the actions it plays (7 to 15 us an action between two
    players, the model players' judgements of a drop included, in every shipped ruleset
    compiled), so rulesets whose hands run long get fewer rollouts and every decision about the
    same time (under 0.2 s on one core here), where a fixed number would take three times as
    long in one ruleset as in another, and a table of four twice as long as one of two. The work
    is counted, not timed: the same seed gives the same play everywhere."""

    def __init__(self, rollouts: int | None = None) -> None:
        if rollouts is not None and rollouts < 1:
            raise ValueError("the strong bot needs at least one rollout per decision")
        self.rollouts = rollouts
        self.dropper = Dropper()  # the others' model, where they drop early
        # Its own seat's model in the rollouts counts a pot as the bot does (below); the others'
        # model counts only the money paid them this hand, as the montecarlo bot does.
        self.own = Dropper(margin=OWN_MARGIN, base=habit_bot, pot_shared=True)
        self.stats = SearchStats()
        self.judged: DropJudgement | None = None  # the last decision's, where a drop was open: measured only
        # What it learnt of each seat from the hands it saw end (hand_over): the drops made there
        # with a count the greedy model would drop with, and those with a higher count.
        self.drops_seen: dict[int, list[int]] = {}

    def hand_over(self, view: View, outcome: Outcome) -> None:
        """Learn from a hand's end, from ``view`` (its seat's) and its showdown (public): who
        dropped, and with what count. See :meth:`dropper_share`."""
        dropper = view.dropper
        if dropper is not None and dropper != view.seat:
            tally = self.drops_seen.setdefault(dropper, [0, 0])
            tally[outcome.counts[dropper] > DROP_AT] += 1

    def dropper_share(self, seat: int) -> float:
        """The share of the worlds where ``seat`` is modelled as a dropper rather than a greedy
        player: the share of the drops seen at that seat made with a count the greedy model would
        not drop with, counting one of each before any is seen (Laplace's rule), and at least a
        half: against players who wait, a search whose model of them waits in half its worlds
        and drops early in the other half plays better than one that models them as waiting in
        every world (docs/strong-bot.md, "Learning who drops early")."""
        low, high = self.drops_seen.get(seat, (0, 0))
        return max(0.5, (high + 1) / (low + high + 2))

    def declines(self, seat: int) -> list[float]:
        """``seat``'s chance of not taking a drop open to them, by count, for the reading of the
        record (:func:`record_odds`): as the greedy model, who drops with ``DROP_AT`` or less."""
        return declines_above(DROP_AT)

    def __call__(self, view: View, legal: Sequence[A.Action], rng: Rng) -> A.Action:
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        rs = view.ruleset
        points, lowest_wins = rs.score_sheet == "points", rs.lowest_score_wins
        budget = self.rollouts or default_rollouts(rs.hand_size)
        work_limit = default_work(view.num_players) if self.rollouts is None else None  # None: the rollouts alone
        legal = list(legal)
        drops = [i for i, a in enumerate(legal) if type(a) is A.Drop]
        plays = [i for i in range(len(legal)) if i not in drops]
        habit = legal.index(habit_bot(view, [legal[i] for i in plays] or legal, Rng(rng.next_u64())))
        per_action = max(2, budget // len(legal))
        # A drop ends the hand at once: judging it on more worlds costs no rollout.
        n_worlds = max(per_action, budget // 2) if drops else per_action
        self.dropper.forget()
        self.own.forget()
        # The model players of each world: the bot's own seat its own model (a dropper leaving
        # OWN_MARGIN to playing on); each other seat a dropper in its share of the worlds
        # (dropper_share), spread evenly among them (every other world at a half, as before any
        # hand is seen), greedy in the rest.
        shares = [self.dropper_share(seat) for seat in range(view.num_players)]
        plans: dict[tuple[bool, ...], list[Policy]] = {}

        def plan_of(w: int) -> list[Policy]:
            dropping = tuple(int((w + 1) * share) > int(w * share) for share in shares)
            plan = plans.get(dropping)
            if plan is None:
                plan = plans[dropping] = [self.own if seat == view.seat else self.dropper if d else greedy_bot
                                          for seat, d in enumerate(dropping)]
            return plan

        # Where a drop is open, what it wins hangs on the others' counts: each world's values
        # are weighed by how likely the whole record makes it (record_odds).
        odds = self.world_odds(view) if drops else None
        worlds = self.worlds(view, rng, n_worlds, WORLDS_AT_ONCE if work_limit is not None else n_worlds)
        values = [[0.0] * n_worlds for _ in legal]
        weights = [1.0] * n_worlds
        played = rollouts = 0
        for w, world in enumerate(worlds):
            if w >= n_worlds:  # the default's search was cut short (below)
                break
            if odds is not None:
                weights[w] = odds(world)
            seed = rng.next_u64()
            policies = plan_of(w)
            for i, action in enumerate(legal):
                if w >= per_action and i not in drops:
                    continue
                sim = world.clone()
                sim.apply(action)
                played += 1 + play_out(sim, policies, Rng(seed))
                rollouts += 1
                outcome = sim.outcome()
                assert outcome is not None  # play_out returns at the end of the hand
                values[i][w] = hand_value(outcome, view.seat, points, lowest_wins, view.sides, pot_shared=True)
            if work_limit is not None and w + 1 < per_action and w >= 1 and played >= work_limit:
                # The work is spent: every action has been played in the worlds so far; the drops
                # are judged on as many more as the budget's rule gives them (a rollout each).
                per_action = w + 1
                n_worlds = max(per_action, per_action * len(legal) // 2) if drops else per_action
        if sum(weights[:per_action]) <= 0:  # no world every action was played in fits the record: read none of it
            weights = [1.0] * n_worlds
        choice = _clear_gain(values, weights, habit, [i for i in plays if i != habit], per_action)
        self.judged = None
        if drops:
            drop = max(drops, key=lambda i: _mean(values[i], weights, n_worlds))
            drop_worth, play_worth = _mean(values[drop], weights, n_worlds), _mean(values[choice], weights, per_action)
            self.judged = DropJudgement(drop_worth, play_worth, _mean([float(v > 0) for v in values[drop]], weights, n_worlds),
                                        _paired_gain(values[drop], values[choice], weights, per_action)[1])
            if drop_worth > play_worth:
                choice = drop
        st = self.stats
        st.decisions += 1
        st.rollouts += rollouts
        st.actions += played
        st.seconds += time.perf_counter() - started  # measured only: never read by the search
        return legal[choice]

    def world_odds(self, view: View) -> Callable[[State], float] | None:
        """How much each world's values count at a decision where a drop is open: the whole
        record's reading (:func:`record_odds`). (benchmarks/bench_room.py overrides it to measure
        what a sharper reading would be worth.)"""
        return record_odds(view, [self.declines(seat) for seat in range(view.num_players)])

    def worlds(self, view: View, rng: Rng, n: int, at_once: int) -> Iterator[State]:
        """The worlds a decision searches: ``n`` from :func:`likely_worlds`, drawn ``at_once`` at
        a time as they are asked for. (benchmarks/bench_room.py overrides it to measure what
        knowing the hidden hands would be worth.)"""
        while n > 0:
            k = min(n, at_once)
            yield from likely_worlds(view, rng, k)
            n -= k


def _mean(values: list[float], weights: list[float], n: int) -> float:
    """The weighted mean of the first ``n`` values."""
    total = weight = 0.0
    for v, x in zip(values[:n], weights[:n]):
        total += v * x
        weight += x
    return total / weight


def _paired_gain(values: list[float], base: list[float], weights: list[float], n: int) -> tuple[float, float]:
    """How much ``values`` beat ``base`` on the first ``n`` worlds, paired (their weighted mean
    difference, by ``weights``), and the standard error of that mean."""
    diffs = [values[w] - base[w] for w in range(n)]
    ws = weights[:n]
    weight = sum(ws)
    mean = sum(d * x for d, x in zip(diffs, ws)) / weight
    # The standard error of a weighted mean (equal weights: the usual s / sqrt(n)).
    spread = math.sqrt(sum(x * x * (d - mean) ** 2 for d, x in zip(diffs, ws)) / weight / weight * n / max(1, n - 1))
    return mean, spread


def _clear_gain(values: list[list[float]], weights: list[float], habit: int, others: list[int], n: int) -> int:
    """The action that beats ``habit`` on the first ``n`` worlds by the most (their values
    weighed by ``weights``), among those that beat it by more than ``Z`` standard errors of the
    paired difference; else ``habit``."""
    best, best_gain = habit, 0.0
    for i in others:
        mean, spread = _paired_gain(values[i], values[habit], weights, n)
        if mean > Z * spread and mean > best_gain:  # the first of equals: the same choice every time
            best, best_gain = i, mean
    return best
