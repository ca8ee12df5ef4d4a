"""Sessions: a sequence of hands with the deal rotating, a money ledger, a score sheet, side
bets and settlement at the end. ``tonk play``, ``tonk simulate`` and session scenarios use it.

Everything here is generic: the ruleset's ``session`` section (the last hands at a higher stake,
side bets) and ``scoring`` section (a score sheet instead of money) say what happens.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from tonkdsl.interpreter.board import by_fields
from tonkdsl.interpreter.dealer import next_dealer
from tonkdsl.interpreter.engine import Layout, RulesetError, State, deal
from tonkdsl.interpreter.outcome import Outcome, run_scores
from tonkdsl.language.expr.compiler import EvalError
from tonkdsl.language.names import EvalContext
from tonkdsl.language.ruleset import Ruleset, SideBet


@dataclass(frozen=True)
class BetResult:
    id: str
    paid_in: tuple[int, ...]  # what each seat put into the pot this hand
    winner: int | None
    won: int  # the pot taken (0 if nobody won it)
    pot_after: int


# A match that never meets its end (a condition that cannot hold, nobody ever eliminated) stops
# after this many hands; it is then "capped": nobody won it (Session.capped, Settlement.capped).
MAX_MATCH_HANDS = 1000
# The most money or points any seat, pot or payment may reach (docs/security.md). Amounts are
# bounded by MAX_NUMBER one expression at a time; a pot that doubles every hand or a Big One
# multiplier would still grow past anything a report can average, so totals are checked too.
MAX_MONEY = 10**15


@dataclass(frozen=True)
class HandRecord:
    index: int
    dealer: int
    stake: int
    outcome: Outcome  # by the hand's own seats (``seats``)
    bets: tuple[BetResult, ...] = ()
    seats: tuple[int, ...] = ()  # the session seat of each seat of the hand (players still in)
    eliminated: tuple[int, ...] = ()  # session seats out of the match after this hand

    def __init__(self, index: int, dealer: int, stake: int, outcome: Outcome, bets: tuple[BetResult, ...] = (),
                 seats: tuple[int, ...] = (), eliminated: tuple[int, ...] = ()) -> None:
        # A native store once compiled, one record a hand (see outcome.Payment).
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "stake", stake)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "bets", bets)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "eliminated", eliminated)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)


@dataclass(frozen=True)
class Settlement:
    money: list[int]  # each seat's money at the end of the session
    winners: list[int]  # the seats that won the session (none for a capped match)
    capped: bool = False  # a match stopped at MAX_MATCH_HANDS before its end: nobody won it


@dataclass
class Session:
    """A session of hands. Call :meth:`start_hand`, play the state, then :meth:`finish_hand`."""

    ruleset: Ruleset
    num_players: int
    stake: int = 1
    hands: int | None = None
    dealer: int = 0
    ledger: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    pots: dict[str, list[int]] = field(default_factory=dict)  # bet id -> contributions by seat
    records: list[HandRecord] = field(default_factory=list)
    active: list[int] = field(default_factory=list)  # the seats still in the match, in seat order
    pot: int = 0  # the money in the ruleset's pot, carried from hand to hand until won
    side_pots: list[int] = field(default_factory=list)  # the money in each side pot (ruleset.side_pots), as the pot
    # Parallel score columns (session.columns): each column's total by seat, and whether it is closed.
    columns: list[list[int]] = field(default_factory=list)
    columns_closed: list[bool] = field(default_factory=list)
    match_over: bool = False  # the match's end condition held after a hand
    won: list[int] = field(default_factory=list)  # hands each seat has won in the session (hands_won)
    # The score entries of session.bonuses once the session was over: (seat, points, id), each
    # that scored (None until then: they are added once).
    bonus_lines: tuple[tuple[int, int, str], ...] | None = None
    # The arguments of the last deal, plain data: ``deal(ruleset, n, **kwargs)`` deals the same
    # hand again elsewhere (tonk serve's bots think in another process from it).
    dealt_with: tuple[int, dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        if self.hands is None:
            self.hands = self.ruleset.session.hands
        self.ledger = self.ledger or [0] * self.num_players
        self.scores = self.scores or [0] * self.num_players
        self.active = self.active or list(range(self.num_players))
        self.won = self.won or [0] * self.num_players
        self.side_pots = self.side_pots or [0] * len(self.ruleset.side_pots)
        count = self.ruleset.session.columns
        self.columns = self.columns or [[0] * self.num_players for _ in range(count)]
        self.columns_closed = self.columns_closed or [False] * count
        for bet in self.ruleset.session.side_bets:
            self.pots.setdefault(bet.id, [0] * self.num_players)

    @property
    def index(self) -> int:
        return len(self.records)

    def copy(self) -> "Session":
        """A session to try a booking on ("would this hand end the match?"), this one untouched."""
        return replace(self, ledger=list(self.ledger), scores=list(self.scores), active=list(self.active),
                       pots={k: list(v) for k, v in self.pots.items()}, records=list(self.records),
                       won=list(self.won), side_pots=list(self.side_pots),
                       columns=[list(c) for c in self.columns], columns_closed=list(self.columns_closed))

    @property
    def seats(self) -> tuple[int, ...]:
        """The session seat of each seat of the next (or current) hand: the players still in."""
        return tuple(self.active)

    def is_over(self) -> bool:
        if self.hands is not None and self.index >= self.hands:
            return True
        if self.ruleset.session.is_match:
            return self.match_over or self._sides_left() <= 1 or self.index >= MAX_MATCH_HANDS
        return False

    def why_over(self) -> str:
        """Why no hand follows, in words: "the match ended after hand 2: one player is left"."""
        n = self.index
        if self.ruleset.session.is_match:
            if self.match_over:
                why = "its end condition held"
            elif self._sides_left() <= 1:
                why = "one side is left" if self.ruleset.side_size else "one player is left"
            elif self.index >= MAX_MATCH_HANDS:
                why = f"it reached {MAX_MATCH_HANDS:,} hands (MAX_MATCH_HANDS)"
            else:
                why = f"it lasts at most {self.hands} hands"
            return f"the match ended after hand {n}: {why}"
        return f"the session ended after hand {n}: it is {self.hands} hands"

    @property
    def capped(self) -> bool:
        """A match that reached MAX_MATCH_HANDS before its end condition held or one player was left."""
        return (self.ruleset.session.is_match and self.index >= MAX_MATCH_HANDS and not self.match_over
                and self._sides_left() > 1)

    def totals(self) -> list[int]:
        """Each seat's total so far: the score sheet, or the money where there is none; with
        sides (players.sides), their side's total."""
        return self._by_side(self.scores if self.ruleset.score_sheet != "money" else self.ledger)

    @property
    def side_of(self) -> tuple[int, ...]:
        """The side of each session seat (each plays alone without players.sides)."""
        return self.ruleset.sides_for(self.num_players)

    def _by_side(self, values: Sequence[int]) -> list[int]:
        """Each seat's value, or with sides the sum of their side's values."""
        if self.ruleset.side_size is None:
            return list(values)
        side = self.side_of
        sums: dict[int, int] = {}
        for g, v in enumerate(values):
            sums[side[g]] = sums.get(side[g], 0) + v
        return [sums[side[g]] for g in range(len(values))]

    def _sides_left(self) -> int:
        """How many sides still have players in the match (players, without sides)."""
        side = self.side_of
        return len({side[g] for g in self.active})

    def stake_for(self, index: int) -> int:
        """The stake of hand ``index``: the last hands of a session may be for more ("the Big One")."""
        rules = self.ruleset.session
        if self.hands is not None and rules.big_one_last and index >= self.hands - rules.big_one_last:
            stake = self.stake * rules.big_one_multiplier
            if stake > MAX_MONEY // 1000:  # amounts are stakes times small factors: leave room for them
                raise RulesetError(f"the Big One's stake ({self.stake:,} x {rules.big_one_multiplier:,}) is beyond "
                                   f"the limit on money ({MAX_MONEY // 1000:,} a stake, MAX_MONEY)")
            return stake
        return self.stake

    def start_hand(self, *, seed: int = 0, layout: Layout | None = None) -> State:
        """Deal the next hand to the players still in (its seats are ``seats``, in order)."""
        if self.is_over():
            raise ValueError(self.why_over())
        seats = self.active
        if layout is not None and len(seats) < self.num_players:
            local = {g: i for i, g in enumerate(seats)}
            out = [g for g in layout.hands if g not in local]
            if out:
                raise ValueError(f"seat {out[0]} is out of the match and is dealt no hand")
            layout = Layout({local[g]: h for g, h in layout.hands.items()}, layout.upcard, layout.stock_top)
        totals = self.totals()
        self.dealt_with = (len(seats), dict(
            seed=seed, dealer=seats.index(self.dealer), stake=self.stake_for(self.index), layout=layout,
            unit=self.stake, totals=tuple(totals[g] for g in seats), pot=self.pot,
            side_pots=tuple(self.side_pots) if self.side_pots else None,
            hands_won=tuple(self.won[g] for g in seats),
            sides=tuple(self.side_of[g] for g in seats) if self.ruleset.side_size else None))
        return deal(self.ruleset, self.dealt_with[0], **self.dealt_with[1])

    def finish_hand(self, state: State, *, named_suits: Mapping[str, str] | None = None,
                    bettors: Mapping[str, Sequence[int]] | None = None) -> HandRecord:
        """Book a finished hand: ledger, score sheet, side bets; the deal passes on."""
        outcome = state.outcome()
        if outcome is None:
            raise ValueError("the hand is not over")
        seats = tuple(self.active)
        self.pot = state.pot
        self.side_pots = list(state.side_pots)
        for seat, v in enumerate(outcome.payouts):
            self.ledger[seats[seat]] += v
        for seat, v in enumerate(outcome.scores):
            self.scores[seats[seat]] += v
        for seat in outcome.winners:
            self.won[seats[seat]] += 1
        if self.columns:
            sheet = outcome.scores if self.ruleset.score_sheet != "money" else outcome.payouts
            for seat, v in enumerate(sheet):
                # As many columns as hands this player has won so far (at least the first), of
                # those still open: Hollywood's first win scores in game 1, the second in 1 and 2...
                g = seats[seat]
                for c in range(min(max(1, self.won[g]), len(self.columns))):
                    if not self.columns_closed[c]:
                        self.columns[c][g] += v
        state.hands_won = tuple(self.won[g] for g in seats)  # what the match rules read after the hand
        self._check_money()
        side_bets = self.ruleset.session.side_bets
        bets = tuple(self._settle_bet(state, bet, (named_suits or {}).get(bet.id),
                                      (bettors or {}).get(bet.id)) for bet in side_bets) if side_bets else ()
        nxt = seats[next_dealer(self.ruleset, state.dealer, len(seats), state)]
        out = self._match_after(state, seats)
        record = HandRecord(self.index, self.dealer, state.stake, outcome, bets, seats, out)
        self.records.append(record)
        if self.ruleset.session.bonuses and self.bonus_lines is None and self.is_over():
            self._end_bonuses(state, seats)
        while nxt not in self.active:  # an eliminated dealer: the deal passes to the next player still in
            nxt = (nxt + 1) % self.num_players
        self.dealer = nxt
        return record

    def _end_bonuses(self, state: State, seats: tuple[int, ...]) -> None:
        """session.bonuses, once the session is over: each entry's points on the score sheet of
        the players of the last hand it names (a game bonus, a bonus per hand won), before the
        winner is named."""
        totals = self.totals()
        state.totals = tuple(totals[g] for g in seats)
        scores = [0] * len(seats)
        lines: list[tuple[int, int, str]] = []
        try:
            run_scores(state, self.ruleset.session.bonuses, EvalContext(state), scores, lines)
        except EvalError as exc:
            raise RulesetError(f"the session bonus failed: {exc}") from None
        for seat, v in enumerate(scores):
            self.scores[seats[seat]] += v
        self.bonus_lines = tuple((seats[p], v, rule) for p, v, rule in lines)
        self._check_money()

    def _check_money(self) -> None:
        """Every total stays within MAX_MONEY (a plain error, not an overflow in a report)."""
        for what, values in (("money", self.ledger), ("score", self.scores), ("pot", [self.pot, *self.side_pots])):
            worst = _largest_size(values)
            if worst > MAX_MONEY:
                raise RulesetError(f"a {what} of {worst:,} after hand {self.index + 1} is beyond the limit of "
                                   f"{MAX_MONEY:,} (MAX_MONEY): an amount grows without bound (a pot that "
                                   "doubles, a multiplier)")

    def _match_after(self, state: State, seats: tuple[int, ...]) -> tuple[int, ...]:
        """After a hand of a match: who is out, and whether the match is over."""
        rules = self.ruleset.session
        if not rules.is_match:
            return ()
        totals = self.totals()
        state.totals = tuple(totals[g] for g in seats)  # the expressions read the totals after the hand
        out: list[int] = []
        try:
            if rules.eliminate_when is not None:
                out = [g for i, g in enumerate(seats) if state._eval(rules.eliminate_when, EvalContext(state, i))]
                if len(out) == len(seats):  # everyone out at once: the best totals stay in
                    best = self._best([totals[g] for g in seats])
                    out = [g for g in out if totals[g] != best]
                for g in out:
                    self.active.remove(g)
            if rules.ends_when is not None and state._eval(rules.ends_when, EvalContext(state)):
                self.match_over = True
            if rules.column_ends is not None:
                for c, column in enumerate(self.columns):
                    if not self.columns_closed[c]:
                        by_side = self._by_side(column)
                        state.totals = tuple(by_side[g] for g in seats)  # the column's totals, for its rule
                        self.columns_closed[c] = bool(state._eval(rules.column_ends, EvalContext(state)))
                state.totals = tuple(totals[g] for g in seats)
                if all(self.columns_closed):
                    self.match_over = True
        except EvalError as exc:
            raise RulesetError(f"the match rule failed: {exc}") from None
        return tuple(out)

    def lowest_wins(self) -> bool:
        """Whether the lowest total is the best: the match's rule, else the score sheet's."""
        lowest = self.ruleset.session.lowest_total_wins
        return self.ruleset.lowest_score_wins if lowest is None else lowest

    def _best(self, totals: Sequence[int]) -> int:
        return min(totals) if self.lowest_wins() else max(totals)

    def column_winners(self) -> list[list[int]]:
        """Each score column's winners (session.columns): the best total in it among those in."""
        out = []
        for column in self.columns:
            totals = self._by_side(column)
            best = self._best([totals[g] for g in self.active])
            out.append([g for g in self.active if totals[g] == best])
        return out

    def match_winners(self) -> list[int]:
        """The winners of a match: the last player (or side) left, else the best total among those
        still in (with sides, a side's total: its players win together); with score columns,
        whoever wins the most columns."""
        if self._sides_left() == 1:
            return list(self.active)
        if self.columns:
            wins = [sum(g in won for won in self.column_winners()) for g in range(self.num_players)]
            most = max(wins[g] for g in self.active)
            return [g for g in self.active if wins[g] == most]
        totals = self.totals()
        best = self._best([totals[g] for g in self.active])
        return [g for g in self.active if totals[g] == best]

    def _settle_bet(self, state: State, bet: SideBet, suit: str | None, bettors: Sequence[int] | None) -> BetResult:
        try:
            amount = int(bet.amount(EvalContext(state)))
        except EvalError as exc:
            raise RulesetError(f"the side bet '{bet.id}' failed: {exc}") from None
        pot = self.pots[bet.id]
        seats = list(range(state.num_players)) if bettors is None else sorted(set(bettors))
        paid = [0] * self.num_players
        to_session = self.active  # a seat of the hand -> a seat of the session
        for s in seats:
            paid[to_session[s]] = amount
            pot[to_session[s]] += amount
            self.ledger[to_session[s]] -= amount
        winner = self._bet_winner(state, bet, suit, seats)
        winner = None if winner is None else to_session[winner]
        won = 0
        if winner is not None:
            won = sum(pot)
            self.ledger[winner] += won
            pot[:] = [0] * self.num_players
        elif not bet.carry_over:
            for s in range(self.num_players):  # nobody won and nothing carries: money back
                self.ledger[s] += pot[s]
            pot[:] = [0] * self.num_players
        return BetResult(bet.id, tuple(paid), winner, won, sum(pot))

    def _bet_winner(self, state: State, bet: SideBet, suit: str | None, seats: Sequence[int]) -> int | None:
        pack = state.pack
        if bet.kind == "named_suit":
            if suit is None:
                raise ValueError(f"the side bet '{bet.id}' needs the suit the dealer named")
            order = {r: i for i, r in enumerate(dict.fromkeys(pack.ranks))}
            best: tuple[int, int] | None = None
            for s in seats:
                for c in state.dealt_hands[s]:
                    if pack.suits[c] == suit and (best is None or order[pack.ranks[c]] > best[0]):
                        best = (order[pack.ranks[c]], s)
            return best[1] if best is not None else None
        # "natural": the first player to lay a spread of three cards takes the pot.
        return next((seat for seat, size in state.spread_log if size == 3 and seat in seats), None)

    def money(self) -> list[int]:
        """Each seat's money at the end: the ledger, plus the score sheet in stakes when scores
        are units. Money left in side-bet pots goes back to those who put it in."""
        money = list(self.ledger)
        for pot in self.pots.values():
            for s, v in enumerate(pot):
                money[s] += v
        if self.ruleset.score_sheet == "units":
            money = [m + sc * self.stake for m, sc in zip(money, self.scores)]
        return money

    def settlement(self) -> Settlement:
        """Money at the end (:meth:`money`) and who won the session."""
        money = self.money()
        if self.ruleset.session.is_match:
            if self.capped:
                return Settlement(money, [], capped=True)
            return Settlement(money, self.match_winners())
        if self.ruleset.score_sheet == "points":
            scores = self._by_side(self.scores)  # with sides, a side wins together
            best = min(scores) if self.ruleset.lowest_score_wins else max(scores)
            winners = [s for s, v in enumerate(scores) if v == best]
        else:
            sums = self._by_side(money)
            top = max(sums)
            winners = [s for s, v in enumerate(sums) if v == top]
        return Settlement(money, winners)


def _largest_size(values: list[int]) -> int:
    """``max(map(abs, values), default=0)`` as a loop: compiled, it runs in C, where that call
    (a keyword argument and a map) cost 2% of a simulation, checked after every hand."""
    worst = 0
    for v in values:
        size = v if v >= 0 else -v
        if size > worst:
            worst = size
    return worst
