"""Sessions: a sequence of hands with the deal rotating, a money ledger, a score sheet, side
bets and settlement at the end. ``tonk play``, ``tonk simulate`` and session scenarios use it.

Everything here is generic: the ruleset's ``session`` section (the last hands at a higher stake,
side bets) and ``scoring`` section (a score sheet instead of money) say what happens.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from tonkdsl.dealer import next_dealer
from tonkdsl.engine import Layout, RulesetError, State, deal
from tonkdsl.expr.compiler import EvalError
from tonkdsl.names import EvalContext
from tonkdsl.outcome import Outcome
from tonkdsl.ruleset import Ruleset, SideBet


@dataclass(frozen=True)
class BetResult:
    id: str
    paid_in: tuple[int, ...]  # what each seat put into the pot this hand
    winner: int | None
    won: int  # the pot taken (0 if nobody won it)
    pot_after: int


@dataclass(frozen=True)
class HandRecord:
    index: int
    dealer: int
    stake: int
    outcome: Outcome
    bets: tuple[BetResult, ...] = ()


@dataclass(frozen=True)
class Settlement:
    money: list[int]  # each seat's money at the end of the session
    winners: list[int]  # the seats that won the session


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

    def __post_init__(self) -> None:
        if self.hands is None:
            self.hands = self.ruleset.session.hands
        self.ledger = self.ledger or [0] * self.num_players
        self.scores = self.scores or [0] * self.num_players
        for bet in self.ruleset.session.side_bets:
            self.pots.setdefault(bet.id, [0] * self.num_players)

    @property
    def index(self) -> int:
        return len(self.records)

    def is_over(self) -> bool:
        return self.hands is not None and self.index >= self.hands

    def stake_for(self, index: int) -> int:
        """The stake of hand ``index``: the last hands of a session may be for more ("the Big One")."""
        rules = self.ruleset.session
        if self.hands is not None and rules.big_one_last and index >= self.hands - rules.big_one_last:
            return self.stake * rules.big_one_multiplier
        return self.stake

    def start_hand(self, *, seed: int = 0, layout: Layout | None = None) -> State:
        if self.is_over():
            raise ValueError(f"the session is over ({self.hands} hands)")
        return deal(self.ruleset, self.num_players, seed=seed, dealer=self.dealer,
                    stake=self.stake_for(self.index), layout=layout, unit=self.stake)

    def finish_hand(self, state: State, *, named_suits: Mapping[str, str] | None = None,
                    bettors: Mapping[str, Sequence[int]] | None = None) -> HandRecord:
        """Book a finished hand: ledger, score sheet, side bets; the deal passes on."""
        outcome = state.outcome()
        if outcome is None:
            raise ValueError("the hand is not over")
        for seat, v in enumerate(outcome.payouts):
            self.ledger[seat] += v
        for seat, v in enumerate(outcome.scores):
            self.scores[seat] += v
        side_bets = self.ruleset.session.side_bets
        bets = tuple(self._settle_bet(state, bet, (named_suits or {}).get(bet.id),
                                      (bettors or {}).get(bet.id)) for bet in side_bets) if side_bets else ()
        record = HandRecord(self.index, self.dealer, state.stake, outcome, bets)
        self.records.append(record)
        self.dealer = next_dealer(self.ruleset, self.dealer, self.num_players, state)
        return record

    def _settle_bet(self, state: State, bet: SideBet, suit: str | None, bettors: Sequence[int] | None) -> BetResult:
        try:
            amount = int(bet.amount(EvalContext(state)))
        except EvalError as exc:
            raise RulesetError(f"the side bet '{bet.id}' failed: {exc}") from None
        pot = self.pots[bet.id]
        seats = list(range(self.num_players)) if bettors is None else sorted(set(bettors))
        paid = [0] * self.num_players
        for s in seats:
            paid[s] = amount
            pot[s] += amount
            self.ledger[s] -= amount
        winner = self._bet_winner(state, bet, suit, seats)
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
        if self.ruleset.score_sheet == "points":
            best = min(self.scores) if self.ruleset.lowest_score_wins else max(self.scores)
            winners = [s for s, v in enumerate(self.scores) if v == best]
        else:
            top = max(money)
            winners = [s for s, v in enumerate(money) if v == top]
        return Settlement(money, winners)
