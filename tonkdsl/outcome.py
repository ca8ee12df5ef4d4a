"""How a hand ends: the ending kind, winners, payouts and the rule behind each payment."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Sequence

from tonkdsl.expr.compiler import EvalError
from tonkdsl.names import EvalContext

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.engine import State
    from tonkdsl.ruleset import DealWin, ScoreEntry, Transfer

END_KINDS = ("initial_tonk", "redeal", "tonk_out", "out_on_discard", "drop_won", "drop_caught",
             "stock_exhausted", "dead_hand")


@dataclass(frozen=True)
class Payment:
    rule: str
    payer: int
    payee: int
    amount: int


@dataclass(frozen=True)
class Outcome:
    """The end of a hand. ``payouts[seat]`` is that seat's net gain (they sum to zero)."""

    end: str
    winners: tuple[int, ...]
    payouts: tuple[int, ...]
    counts: tuple[int, ...]
    payments: tuple[Payment, ...] = ()
    message: str = ""
    rules: tuple[str, ...] = field(default=())
    # The score sheet change of each seat, for rulesets that keep one (else empty).
    scores: tuple[int, ...] = ()

    def by_rule(self) -> dict[str, int]:
        """Total amount moved by each payout rule."""
        out: dict[str, int] = {}
        for p in self.payments:
            out[p.rule] = out.get(p.rule, 0) + p.amount
        return out


def net(num_players: int, payments: Iterable[Payment]) -> tuple[int, ...]:
    totals = [0] * num_players
    for p in payments:
        totals[p.payer] -= p.amount
        totals[p.payee] += p.amount
    return tuple(totals)


def run_transfers(state: "State", transfers: Sequence["Transfer"], ctx: EvalContext) -> list[Payment]:
    """Evaluate payout rules: each payer pays each payee (never oneself) the rule's amount."""
    out: list[Payment] = []
    for t in transfers:
        try:
            out += _one_transfer(t, ctx)
        except EvalError as exc:
            raise EvalError(f"the payout '{t.id}' failed: {exc}") from None
    return out


def _one_transfer(t: "Transfer", ctx: EvalContext) -> list[Payment]:
    out: list[Payment] = []
    if t.when is None or t.when.fn(ctx):
        payers, payees = t.payers.fn(ctx), t.payees.fn(ctx)
        amount_of = t.amount.fn
        for p in payers:
            for q in payees:
                if p == q:
                    continue
                ctx.payer, ctx.payee = p, q
                amount = amount_of(ctx)
                ctx.payer = ctx.payee = None
                if amount < 0:
                    raise EvalError(f"it gives a negative amount ({amount})")
                if amount:
                    out.append(Payment(t.id, p, q, amount))
    return out


def run_scores(state: "State", entries: Sequence["ScoreEntry"], ctx: EvalContext, totals: list[int]) -> None:
    """Add each entry's points to the players it names."""
    for entry in entries:
        if entry.when is not None and not entry.when(ctx):
            continue
        for p in entry.players(ctx):
            ctx.scored = p
            totals[p] += entry.points(ctx)
            ctx.scored = None


def deal_win_payments(state: "State", winner: int, rule: "DealWin") -> list[Payment]:
    ctx = EvalContext(state, actor=winner)
    if rule.payers is not None:
        payers = rule.payers(ctx)
    else:
        payers = tuple(s for s in range(state.num_players) if s != winner and s not in state.deal_winners)
    out = []
    for p in payers:
        if p == winner:
            continue
        ctx.payer, ctx.payee = p, winner
        amount = rule.pays(ctx)
        if amount < 0:
            raise EvalError(f"the automatic win '{rule.id}' pays a negative amount ({amount})")
        if amount:
            out.append(Payment(rule.id, p, winner, amount))
    return out
