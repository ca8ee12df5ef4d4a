"""How a hand ends: the ending kind, winners, payouts and the rule behind each payment."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from tonkdsl.interpreter.board import by_fields
from tonkdsl.language.expr.compiler import EvalError
from tonkdsl.language.names import EvalContext

if TYPE_CHECKING:  # pragma: no cover
    from tonkdsl.interpreter.engine import State
    from tonkdsl.language.ruleset import DealWin, ScoreEntry, Transfer

END_KINDS = ("initial_tonk", "redeal", "tonk_out", "out_on_discard", "drop_won", "drop_caught",
             "stock_exhausted", "others_folded", "dead_hand")


# Payment, Outcome and HandRecord (session.py) write their own __init__, the fields in the order
# the dataclass would take them: compiled by mypyc, ``object.__setattr__`` on the new object is a
# direct store, 25 ns against 450 ns for the __init__ that dataclasses writes (interpreted even in
# the compiled build); a drop judged in a search builds an Outcome and one or two Payments, a
# fifth of its time. As plain Python it is the same store as the dataclass's own. The dataclass
# still gives them their equality, hash, repr and frozenness (tests/test_outcome_init.py checks
# that each __init__ takes the fields as the dataclass would); copies and pickles rebuild them
# from their fields (board.by_fields).
@dataclass(frozen=True)
class Payment:
    rule: str
    payer: int
    payee: int
    amount: int

    def __init__(self, rule: str, payer: int, payee: int, amount: int) -> None:
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "payer", payer)
        object.__setattr__(self, "payee", payee)
        object.__setattr__(self, "amount", amount)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)


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
    # What the pot gained this hand (antes, payments to it, less what it paid): the payouts and
    # this sum to zero.
    pot_change: int = 0
    # Every rule that took effect, by id: payouts, antes and bonuses that moved money (also on a
    # points sheet, where no money changes hands), score entries that scored, the automatic win
    # that ended the hand. ``rules`` keeps to money paid; lint's witnesses read this.
    fired: tuple[str, ...] = ()
    # On a score sheet, the reason for each number: (seat, points, the score entry's id) for
    # each entry that scored a player other than 0, in the order they were scored.
    score_lines: tuple[tuple[int, int, str], ...] = ()
    # What each side pot gained this hand (ruleset.side_pots, in order; empty without them).
    side_pot_change: tuple[int, ...] = ()

    def __init__(self, end: str, winners: tuple[int, ...], payouts: tuple[int, ...], counts: tuple[int, ...],
                 payments: tuple[Payment, ...] = (), message: str = "", rules: tuple[str, ...] = (),
                 scores: tuple[int, ...] = (), pot_change: int = 0, fired: tuple[str, ...] = (),
                 score_lines: tuple[tuple[int, int, str], ...] = (), side_pot_change: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "end", end)  # see Payment
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "payouts", payouts)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "payments", payments)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "pot_change", pot_change)
        object.__setattr__(self, "fired", fired)
        object.__setattr__(self, "score_lines", score_lines)
        object.__setattr__(self, "side_pot_change", side_pot_change)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def by_rule(self) -> dict[str, int]:
        """Total amount moved by each payout rule."""
        out: dict[str, int] = {}
        for p in self.payments:
            out[p.rule] = out.get(p.rule, 0) + p.amount
        return out


POT = -1  # the seat number of the pot in a payment (see ruleset.POT); side pot i is -2 - i


def side_pot_seat(i: int) -> int:
    """The seat number of side pot ``i`` (ruleset.side_pots) in a payment."""
    return -2 - i


def pot_money(state: "State", seat: int) -> int:
    """What the pot whose seat number is ``seat`` holds now (the game pot, or a side pot)."""
    return state.pot if seat == POT else state.side_pots[-2 - seat]


def move_pot(state: "State", seat: int, amount: int) -> None:
    """Add ``amount`` (negative: take it) to the pot whose seat number is ``seat``."""
    if seat == POT:
        state.pot += amount
    else:
        state.side_pots[-2 - seat] += amount


def moved(state: "State", payer: int, payee: int, amount: int) -> None:
    """A payment was made: the pots it was paid from or to hold what it moved (later amounts read
    a pot as it is now). Seats of players (0 and up) are not pots: nothing to do."""
    if payee < 0:
        move_pot(state, payee, amount)
    if payer < 0:
        move_pot(state, payer, -amount)


def net(num_players: int, payments: Iterable[Payment]) -> tuple[int, ...]:
    """Each seat's net gain; a payment to or from a pot counts for the seat only."""
    totals = [0] * num_players
    for p in payments:
        if p.payer >= 0:
            totals[p.payer] -= p.amount
        if p.payee >= 0:
            totals[p.payee] += p.amount
    return tuple(totals)


def pot_change(payments: Iterable[Payment], pot: int = POT) -> int:
    """What the pot ``pot`` (its seat number: the game pot by default) gained by these payments."""
    return sum(p.amount for p in payments if p.payee == pot) - sum(p.amount for p in payments if p.payer == pot)


def partners(side_of: Sequence[int], p: int, q: int) -> bool:
    """Two players of one side (players.sides), who never pay each other; a pot has no side."""
    return p >= 0 and q >= 0 and side_of[p] == side_of[q]


def run_transfers(state: "State", transfers: Sequence["Transfer"], ctx: EvalContext) -> list[Payment]:
    """Evaluate payout rules: each payer pays each payee (never oneself or a partner) the rule's amount."""
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
        if t.split is not None:
            return _shared(t, ctx, payers, payees)
        amount_of = t.amount.fn
        state = ctx.state
        side = state.side_of
        for p in payers:
            for q in payees:
                if p == q or partners(side, p, q):
                    continue
                pot = p < 0 or q < 0
                if not pot:
                    ctx.payer, ctx.payee = p, q
                amount = amount_of(ctx)
                ctx.payer = ctx.payee = None
                if amount < 0:
                    raise EvalError(f"it gives a negative amount ({amount})")
                if p < 0:
                    amount = min(amount, pot_money(state, p))  # a pot pays what it holds
                if amount:
                    out.append(Payment(t.id, p, q, amount))
                    if pot:  # later amounts read the pot as it is now
                        moved(state, p, q, amount)
    return out


def _shared(t: "Transfer", ctx: EvalContext, payers: Sequence[int], payees: Sequence[int]) -> list[Payment]:
    """Each payer's amount divided equally among the payees (never oneself or a partner): what does not
    divide stays with the payer (split: down) or goes one unit each to the payees nearest the
    dealer's left (split: dealer_left); or all the payers' amounts shared as one (split: pooled)."""
    state = ctx.state
    out: list[Payment] = []
    if t.split != "down":  # the units that do not divide go to the payees nearest the dealer's left
        n, dealer = state.num_players, state.dealer  # places from the dealer's left: 0, 1, ...
        payees = sorted(payees, key=lambda q: q if q < 0 else (q - dealer - 1) % n)
    if t.split == "pooled":
        return _pooled(t, ctx, payers, payees)
    side = state.side_of
    for p in payers:
        receivers = [q for q in payees if q != p and not partners(side, p, q)]
        if not receivers:
            continue
        amount = _shared_amount(t, ctx, p)
        share, rest = divmod(amount, len(receivers))
        for i, q in enumerate(receivers):
            paid = share + (1 if t.split == "dealer_left" and i < rest else 0)
            if paid:
                out.append(Payment(t.id, p, q, paid))
                if p < 0 or q < 0:  # later amounts read the pot as it is now
                    moved(state, p, q, paid)
    return out


def _shared_amount(t: "Transfer", ctx: EvalContext, p: int) -> int:
    """What payer ``p`` puts into a shared payment (the pot: what it holds, at most)."""
    ctx.payer = None if p < 0 else p
    amount: int = t.amount.fn(ctx)
    ctx.payer = None
    if amount < 0:
        raise EvalError(f"it gives a negative amount ({amount})")
    return min(amount, pot_money(ctx.state, p)) if p < 0 else amount


def _pooled(t: "Transfer", ctx: EvalContext, payers: Sequence[int], payees: Sequence[int]) -> list[Payment]:
    """The payers' amounts put together, then shared equally among the payees (``payees`` in
    order from the dealer's left: what does not divide goes a unit each to the first). Each
    payer's money goes to the payees in that order, as much as each is still owed; a payer never
    pays themselves or a partner (that share is left to the next payers, and what no one can pay
    a payee stays with its payers). Two payers of 1 and two tied winners: each winner gets 1."""
    state = ctx.state
    side = state.side_of
    paying: list[tuple[int, int]] = []
    for p in payers:
        if not any(q != p and not partners(side, p, q) for q in payees):
            continue  # no one this payer may pay
        amount = _shared_amount(t, ctx, p)
        paying.append((p, amount))
    if not payees:
        return []
    share, rest = divmod(sum(a for _, a in paying), len(payees))
    owed = [share + (1 if i < rest else 0) for i in range(len(payees))]
    out: list[Payment] = []
    for p, amount in paying:
        for i, q in enumerate(payees):
            if amount == 0:
                break
            if owed[i] == 0 or q == p or partners(side, p, q):
                continue
            paid = min(amount, owed[i])
            owed[i] -= paid
            amount -= paid
            out.append(Payment(t.id, p, q, paid))
            if p < 0 or q < 0:  # later amounts read the pot as it is now
                moved(state, p, q, paid)
    return out


def capped(payments: Sequence[Payment], most_lost: int | None, most_won: int | None) -> list[Payment]:
    """The payments in order, each cut so that no player loses more than ``most_lost`` or wins
    more than ``most_won`` in all (the pot is not capped); a payment cut to nothing is dropped."""
    lost: dict[int, int] = {}
    won: dict[int, int] = {}
    out = []
    for p in payments:
        amount = p.amount
        if most_lost is not None and p.payer >= 0:
            amount = min(amount, most_lost - lost.get(p.payer, 0))
        if most_won is not None and p.payee >= 0:
            amount = min(amount, most_won - won.get(p.payee, 0))
        if amount > 0:
            lost[p.payer] = lost.get(p.payer, 0) + amount
            won[p.payee] = won.get(p.payee, 0) + amount
            out.append(p if amount == p.amount else Payment(p.rule, p.payer, p.payee, amount))
    return out


def run_scores(state: "State", entries: Sequence["ScoreEntry"], ctx: EvalContext, totals: list[int],
               lines: list[tuple[int, int, str]] | None = None) -> list[str]:
    """Add each entry's points to the players it names; returns the ids of the entries that
    scored (points other than 0 for someone). ``lines`` gets (seat, points, id) for each."""
    scored: list[str] = []
    for entry in entries:
        if entry.when is not None and not entry.when(ctx):
            continue
        for p in entry.players(ctx):
            ctx.scored = p
            points = entry.points(ctx)
            totals[p] += points
            ctx.scored = None
            if points and lines is not None:
                lines.append((p, points, entry.id))
            if points and (not scored or scored[-1] != entry.id):
                scored.append(entry.id)
    return scored


def deal_win_payments(state: "State", winner: int, rule: "DealWin", pot_left: dict[int, int]) -> list[Payment]:
    """What ``winner``'s automatic win is paid. ``pot_left`` (by a pot's seat number, shared by
    the winners of one deal) is what each pot still holds: each winner's amount reads the pots as
    they stood before any of them was paid (``pays: pot / count(...)`` splits it evenly), and a
    pot pays at most what is left; the caller sets the pots to what is left once every winner is
    paid."""
    ctx = EvalContext(state, actor=winner)
    if rule.payers is not None:
        payers = rule.payers(ctx)
    else:
        payers = tuple(s for s in range(state.num_players) if s != winner and s not in state.deal_winners)
    out = []
    for p in payers:
        if p == winner or partners(state.side_of, p, winner):
            continue
        ctx.payer, ctx.payee = (None, None) if p < 0 else (p, winner)
        amount = rule.pays(ctx)
        if amount < 0:
            raise EvalError(f"the automatic win '{rule.id}' pays a negative amount ({amount})")
        if p < 0:  # a pot pays at most what it still holds
            amount = min(amount, pot_left[p])
            pot_left[p] -= amount
        if amount:
            out.append(Payment(rule.id, p, winner, amount))
    return out
