"""The questions lint asks the symbolic table (lint/smt.py) about each expression of a ruleset,
at the moment the engine evaluates it.

Every expression field has a type the schema gives it (a condition, a set of players, an amount)
and a moment (the ending it belongs to, the drop, the match). The questions follow from the type,
not from the construct: a condition can be false and can be true; a set can hold a player; an
amount can be above 0, and below 0, for a payer of 'from' and a payee of 'to' (never the same
player) when the payout's 'when' holds; the winners of an ending can receive what a payout pays
rather than pay it. A construct added to the language is covered as soon as its fields carry
these types: no new check is written for it (docs/lint.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import z3

from tonkdsl.interpreter.rules import ending_of, plan_for
from tonkdsl.interpreter.rules.base import DROPS_OUT_OF_TURN, HITS_ANY_SPREAD, PLAYS_OUT_OF_TURN
from tonkdsl.language.ruleset import MAX_SEAT_CARDS, Ruleset
from tonkdsl.tools.lint.intervals import Abs
from tonkdsl.tools.lint.smt import Answer, Moment, Table, Unknown
from tonkdsl.tools.lint.spreads import Spreads

# The most table sizes asked about: each size is one solver; rulesets allow 2 to 8 players or so.
MAX_SIZES = 8


@dataclass(frozen=True)
class Verdict:
    """One question over every table size: possible with the first example found, or proven
    impossible at every size with the reason of the first proof."""
    possible: bool
    reason: str = ""
    example: str = ""


def moment(rs: Ruleset, path: tuple[Any, ...], listed: Mapping[bool, Spreads] | None = None) -> Moment:
    """The facts that hold where ``path``'s expression is evaluated; ``listed`` holds the spreads
    of the ruleset, laid (False) and just hit (True), listed once for every moment."""
    listed = listed if listed is not None else spread_lists(rs, MAX_SEAT_CARDS + 1)
    kind = str(path[1]) if len(path) > 1 and path[0] == "endings" else ending_of(rs, path)
    if kind is not None:  # an ending's keys, or a construct's asked as one ending comes (a hand multiplier)
        ending = rs.endings.get(kind)
        winners = ending.winners.source if ending is not None else None
        wins_if = rs.drop_wins_if.source
        # Whoever drops does so in a turn of their own, unless a rule lets them drop out of turn;
        # whoever goes out too, unless a play out of turn (a slap, eating the discard) can empty
        # a hand.
        own_turn = ("turns >= 1", "the player who ends the hand has started a turn", True)
        drop_turn = [] if DROPS_OUT_OF_TURN in plan_for(rs).facts else [own_turn]
        if kind == "drop_won":
            return Moment({"dropper": "actor"}, [(wins_if, f"in 'drop_won' the dropper met turn.drop.wins_if "
                                                           f"('{wins_if}')", True), *drop_turn], winners=winners)
        if kind == "drop_caught":
            return Moment({"dropper": "actor"}, [(wins_if, f"in 'drop_caught' the dropper failed turn.drop.wins_if "
                                                           f"('{wins_if}')", False), *drop_turn], winners=winners)
        if kind == "others_folded":
            return Moment(winners=winners, others_folded=True)
        if kind in ("tonk_out", "out_on_discard"):
            emptied_in_own_turn = [own_turn] if PLAYS_OUT_OF_TURN not in plan_for(rs).facts and rs.eat_allowed is None else []
            # A hand emptied by laying and hitting (not by a discard) has laid the cards it held.
            laid = [("count(laid) >= 1", "whoever goes out by laying and hitting has laid cards this hand", True)] \
                if kind == "tonk_out" else []
            return Moment(facts=emptied_in_own_turn + laid, empty_hand=True, winners=winners)
        return Moment(winners=winners)
    on = _event(rs, path)
    if path[:2] == ("hits", "allowed"):
        # hits.allowed is asked of a hit hits.spreads already lets through (turn.py, _may_hit).
        return Moment(facts=_whose_spreads(rs))
    if on is not None:
        facts = []
        if on == "spread_hit":
            facts += _whose_spreads(rs)
        spreads = listed[on == "spread_hit"] if path[0] == "bonuses" and on in ("spread_laid", "spread_hit") \
            else None
        return Moment(facts=facts, spreads=spreads)
    if path[:3] == ("melds", "hold", "except"):
        return Moment(spreads=listed[False])
    if path[:2] == ("turn", "drop") and rs.stock_exhausted == "last_card_drawn" and rs.drop_at == ("start",):
        # The engine ends the hand at the start of a turn with an empty stock (turn.py), so a
        # drop at the start of a turn always sees a card in the stock.
        return Moment(facts=[("stock >= 1", "a drop comes at the start of a turn, and with stock.exhausted: "
                                            "last_card_drawn a turn starts only with a card in the stock", True)])
    return Moment()


def _whose_spreads(rs: Ruleset) -> list[tuple[str, str, bool]]:
    """At a hit, whose spreads may be hit (hits.spreads), unless a construct plays onto any spread."""
    if HITS_ANY_SPREAD in plan_for(rs).facts or rs.hit_spreads == "any":
        return []
    return [("owner == actor" if rs.hit_spreads == "own" else "owner != actor",
             f"with hits.spreads: {rs.hit_spreads}, a player hits only "
             f"{'their own' if rs.hit_spreads == 'own' else 'the others'} spreads", True)]


def spread_lists(rs: Ruleset, held: int) -> dict[bool, Spreads]:
    """The spreads laid (False: from a hand of at most ``held`` cards) and just hit (True); each
    is listed when first asked about."""
    return {hit: Spreads(rs, hit=hit, held=held) for hit in (False, True)}


def _event(rs: Ruleset, path: tuple[Any, ...]) -> str | None:
    """The event a bonus or a counter's event of ``path`` happens on."""
    if len(path) > 1 and path[0] == "bonuses" and isinstance(path[1], int) and path[1] < len(rs.bonuses):
        return rs.bonuses[path[1]].on
    if len(path) > 3 and path[0] == "counters" and path[2] == "events":
        counter = next((c for c in rs.counters if c.name == path[1]), None)
        if counter is not None and isinstance(path[3], int) and path[3] < len(counter.events):
            return counter.events[path[3]].on
    return None


def _moment_key(path: tuple[Any, ...]) -> tuple[Any, ...]:
    """Paths that share a moment (one table per moment and size): an ending, a bonus, a rule."""
    if path and path[0] in ("endings", "bonuses"):
        return tuple(path[:2])
    if path and path[0] == "counters":
        return tuple(path[:4])
    if path[:2] == ("turn", "drop") or path[:3] == ("melds", "hold", "except"):
        return tuple(path[:3])
    if path[:2] == ("hits", "allowed"):
        return tuple(path[:2])
    return ()


class Asker:
    """Builds one table per size and moment, and asks questions over all sizes."""

    def rs_pot(self, source: str) -> bool:
        """Whether a payment's side names a pot: 'pot', or a side pot by its name (side_pots)."""
        return source.strip() == "pot" or source.strip() in (p.id for p in self.rs.side_pots)

    def __init__(self, rs: Ruleset, ranges: Mapping[str, Abs], held: int = MAX_SEAT_CARDS + 1) -> None:
        self.rs, self.ranges = rs, ranges
        self.listed = spread_lists(rs, held)
        sizes = list(range(max(2, rs.players_min), rs.players_max + 1))
        self.sizes = sizes if len(sizes) <= MAX_SIZES else sizes[:MAX_SIZES - 1] + sizes[-1:]
        self.counters = [c.name for c in rs.counters]
        self.choices = any(p.has_choices for p in rs.packs.values())
        self.tables: dict[tuple[Any, int], Table] = {}

    def ask(self, path: tuple[Any, ...], build: Callable[[Table], Any], about: str = "") -> Verdict | None:
        """``build`` turns a table into the goal. None: undecided (an unknown name, a timeout)."""
        key = _moment_key(path)
        proof: Answer | None = None
        for n in self.sizes:
            try:
                table = self.tables.get((key, n))
                if table is None:  # one table per moment and size: its facts are built once
                    table = self.tables[key, n] = Table(n, self.ranges, moment(self.rs, path, self.listed),
                                                        self.counters, self.choices, self.rs.sides_for(n))
                got = table.ask(build(table), about)
            except (Unknown, z3.Z3Exception):  # a name the model does not follow: undecided
                return None
            if got is None:
                return None
            if got.possible:
                return Verdict(True, example=got.example)
            proof = proof or got
        return Verdict(False, reason=proof.reason if proof else "")

    # --- the questions by type --------------------------------------------------------------
    def condition(self, path: tuple[Any, ...], source: str) -> tuple[Verdict, Verdict] | None:
        """(can it hold, can it fail)."""
        holds = self.ask(path, lambda t: t.formula(source, z3.IntVal(0)))
        fails = self.ask(path, lambda t: z3.Not(t.formula(source, z3.IntVal(0))))
        return None if holds is None or fails is None else (holds, fails)

    def nonempty(self, path: tuple[Any, ...], source: str) -> Verdict | None:
        return self.ask(path, lambda t: z3.Or(t.set_of(source)))

    def empty(self, path: tuple[Any, ...], source: str) -> Verdict | None:
        """Can the set ``source`` be empty at the moment of ``path``?"""
        drop = len(path) > 1 and str(path[1]).startswith("drop")
        about = source + (" " + self.rs.drop_wins_if.source if drop else "")
        return self.ask(path, lambda t: z3.Not(z3.Or(t.set_of(source))), about)

    def unpaid_winner(self, path: tuple[Any, ...], winners: str, payouts: list[Mapping[str, Any]]) -> Verdict | None:
        """Can a winner of the ending be left out of every payout's 'to' (or its 'when')?"""
        def goal(t: Table) -> Any:
            win = t.set_of(winners)
            w = t.seat_var("winner")
            parts = [z3.Or([z3.And(w == s, m) for s, m in enumerate(win)])]
            for tr in payouts:
                to = t.set_of(str(tr.get("to", "")))
                paid = z3.Or([z3.And(w == s, m) for s, m in enumerate(to)])
                if isinstance(tr.get("when"), str):
                    paid = z3.And(paid, t.formula(tr["when"], z3.IntVal(0)))
                parts.append(z3.Not(paid))
            return z3.And(parts)
        about = " ".join([winners, self.rs.drop_wins_if.source, *(str(t.get("to", "")) for t in payouts)])
        return self.ask(path, goal, about)

    def amount(self, path: tuple[Any, ...], transfer: Mapping[str, Any], source: str, op: str) -> Verdict | None:
        """Can the amount be ``op`` 0 ('>' or '<') for a payer of 'from' paying a payee of 'to'?"""
        def goal(t: Table) -> Any:
            value = t.formula(source, z3.IntVal(0))
            parts = [value > 0 if op == ">" else value < 0, t.seats["payer"] != t.seats["payee"]]
            for key, role in (("from", "payer"), ("to", "payee")):
                who = str(transfer.get(key, ""))
                if not self.rs_pot(who):
                    members = t.set_of(who)
                    parts.append(z3.Or([z3.And(t.seats[role] == s, m) for s, m in enumerate(members)]))
            if isinstance(transfer.get("when"), str):
                parts.append(t.formula(transfer["when"], z3.IntVal(0)))
            return z3.And(parts)
        return self.ask(path, goal, source)

    def winner_keeps_out(self, path: tuple[Any, ...], winners: str, transfer: Mapping[str, Any]) -> \
            tuple[Verdict, Verdict] | None:
        """(can a winner stay out of the payers, can a winner pay someone): when the first is
        impossible and the second possible, every winner pays whenever the payout applies."""
        payers, payees = str(transfer.get("from", "")), str(transfer.get("to", ""))
        if self.rs_pot(payers) or self.rs_pot(payees):
            return None
        when = transfer.get("when") if isinstance(transfer.get("when"), str) else None

        def goal(pays: bool) -> Callable[[Table], Any]:
            def build(t: Table) -> Any:
                win, pay, get = (t.set_of(x) for x in (winners, payers, payees))
                w = t.seat_var("winner")
                parts = [z3.Or([z3.And(w == s, m) for s, m in enumerate(win)])]
                if pays:
                    parts.append(z3.Or([z3.And(w == s, m) for s, m in enumerate(pay)]))
                    parts.append(z3.Or([z3.And(t.apart(w, s), m) for s, m in enumerate(get)]))
                else:
                    parts.append(z3.Not(z3.Or([z3.And(w == s, m) for s, m in enumerate(pay)])))
                if when is not None:
                    parts.append(t.formula(when, z3.IntVal(0)))
                return z3.And(parts)
            return build
        out = self.ask(path, goal(False))
        pays = self.ask(path, goal(True))
        return None if out is None or pays is None else (out, pays)
