"""Deciding what intervals cannot: relations between names, with an SMT solver (z3).

A symbolic table of ``n`` seats stands for every state of a hand at one moment of the ruleset:
each player's count, dealt count, total... is an integer unknown within the range lint/intervals.py
gives its name; ``min_count`` is the least count; the seats playing a role (the actor is seat 0,
the payer and payee are unknowns) and the sets of players (others, lowest, a 'where') are
formulas over those unknowns. The moment adds its facts: in 'drop_won' the dropper met
turn.drop.wins_if, in 'drop_caught' they did not, whoever goes out holds no card. A question is
then "is there a table where this holds?": unsatisfiable is a proof that it never does, and the
facts the proof needed (the solver's unsat core) are its reason, in words. Satisfiable comes
with the solver's example, which lint shows as values ("the payer counts 3").

The model is sound, not complete: every real state is one of its tables, but some of its tables
are no real state (it does not know which counts a pack can deal). So "never" is proven; "can"
is only an example of values, which lint words as such. A name or construct the model does not
know (cards in hand, suits, a count the holder chooses) makes the question undecided: lint then
says nothing, never a guess.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import z3
from lark import Token, Tree

from tonkdsl.language.expr.compiler import ExprError, parse
from tonkdsl.language.names import GLOBALS, PLAYER_ATTRS
from tonkdsl.tools.lint.intervals import INF, Abs, Num
from tonkdsl.tools.lint.spreads import Spreads, TooManySpreads

# Per-player names whose value the model follows (any other per-player name is unknown: a
# question that reads it is undecided). A counter is a per-player number too (added by name).
_PLAYER_NUMBERS = {"count", "low_count", "high_count", "dealt_count", "deadwood_count", "cards", "turns", "hits",
                   "spreads", "spreads_this_turn", "total", "payout", "count(laid)"}
# The cards a player has laid this hand ('laid') are followed by their number alone: count(laid),
# count(dropper.laid). A moment may say what it implies of it (whoever went out by laying laid some).
LAID = "count(laid)"
_PLAYER_BOOLS = {"deal_win", "out_by_spread"}
_SIDE_SETS = ("partners", "opponents")  # a player's sets of players (players.sides)
_GLOBAL_NUMBERS = {"stake", "stock", "discards", "turn", "round", "spreads_on_table", "pot"}


class Unknown(Exception):
    """The question reads something the model does not follow: undecided."""


@dataclass
class Moment:
    """Where an expression is evaluated: which roles are known seats, and the facts that hold."""
    roles: dict[str, str] = field(default_factory=dict)  # role -> "actor" | "payer" | "payee"
    facts: list[tuple[str, str, bool]] = field(default_factory=list)  # (source, words, holds)
    empty_hand: bool = False  # the actor has just gone out
    winners: str | None = None  # the ending's winners (for the name 'winners')
    spreads: Spreads | None = None  # the spreads 'spread' can be (a bonus on spread_laid...)
    # Every player but the actor has folded ('others_folded'): who folded is not among players,
    # others, partners or opponents (names.py), and is among 'folded'.
    others_folded: bool = False


@dataclass(frozen=True)
class Answer:
    possible: bool
    reason: str = ""  # why not (the facts of the proof), when impossible
    example: str = ""  # values that make it hold, when possible


class Table:
    """One symbolic table of ``n`` seats at one moment."""

    def __init__(self, n: int, ranges: Mapping[str, Abs], moment: Moment, counters: Iterable[str] = (),
                 choices: bool = False, sides: Sequence[int] | None = None) -> None:
        self.n, self.ranges, self.moment = n, ranges, moment
        # Each seat's side (players.sides): partners, opponents and sides are known seats.
        self.sides = tuple(sides) if sides is not None else tuple(range(n))
        self.counters = set(counters)
        self.choices = choices  # card values the holder chooses: 'count' is not one number
        self.solver = z3.Solver()
        self.solver.set("timeout", 2000)  # ms: a question past this is left undecided
        self.tracked: dict[str, z3.BoolRef] = {}  # words -> the literal that switches the fact on
        self.vars: dict[str, z3.ArithRef | z3.BoolRef] = {}
        self.fresh = 0
        self.seats = {"actor": z3.IntVal(0), "self": z3.IntVal(0)}
        # Parts of the expression being read that read only 'spread', by parse node: their
        # values are the engine's on the listed spreads (lint/spreads.py).
        # (The node is kept with its term: an id is reused once its node is freed.)
        self.spread_terms: dict[int, tuple[Tree[Token], z3.ExprRef]] = {}
        self.spread_examples: list[tuple[list[z3.ExprRef], dict[tuple[Any, ...], tuple[int, ...]]]] = []
        # Each expression read once per table: the same few sets ('winners', 'opponents', a
        # payout's 'from') are asked of one table by question after question, and the facts
        # their reading adds stay in the solver (they are added outside the questions' push).
        self._trees: dict[str, Tree[Token]] = {}
        self._sets: dict[str, list[Any]] = {}
        for role in ("payer", "payee", "scored", "owner", "dealer"):
            self.seats[role] = self.seat_var(role)
        for role, same in moment.roles.items():
            self.seats[role] = self.seats[same]
        if len(set(self.sides)) < n:  # the engine makes no payment between partners (outcome.partners)
            self.fact(self.apart(self.seats["payer"], self.seats["payee"]),
                      "partners never pay each other (players.sides)")
        if moment.empty_hand:
            for name in ("count", "low_count", "high_count", "deadwood_count", "cards"):
                self.fact(self.player(name, 0) == 0, "whoever goes out holds no card (count 0)")
        for source, words, holds in moment.facts:
            got = self.formula(source, subject=z3.IntVal(0))
            self.fact(got if holds else z3.Not(got), words)

    # --- unknowns ---------------------------------------------------------------------------
    def seat_var(self, role: str) -> z3.ArithRef:
        v = z3.Int(f"seat:{role}")
        self.solver.add(v >= 0, v < self.n)
        return v

    def fact(self, f: z3.BoolRef, words: str) -> None:
        lit = self.tracked.get(words)
        if lit is None:
            lit = self.tracked[words] = z3.Bool(f"fact:{len(self.tracked)}")
        self.solver.add(z3.Implies(lit, f))

    def bounded(self, key: str, name: str, is_bool: bool = False) -> z3.ArithRef | z3.BoolRef:
        got = self.vars.get(key)
        if got is not None:
            return got
        if is_bool:
            got = self.vars[key] = z3.Bool(key)
            return got
        v = self.vars[key] = z3.Int(key)
        r = self.ranges.get(name)
        if not isinstance(r, Num):
            return v
        if r.lo != -INF:
            self.fact(v >= int(r.lo), _range_words(name, r))
        if r.hi != INF:
            self.fact(v <= int(r.hi), _range_words(name, r))
        return v

    def player(self, name: str, seat: int) -> z3.ArithRef | z3.BoolRef:
        if name == "seat":
            return z3.IntVal(seat)
        if name == "side":
            return z3.IntVal(self.sides[seat])
        if name == "partner":
            return z3.IntVal(self.partner_of(seat))
        if name == "is_dealer":
            return self.seats["dealer"] == seat
        if name in ("count", "high_count", "low_count") and self.choices:
            raise Unknown(name)  # the holder chooses among totals
        if name in ("high_count", "low_count"):
            name = "count"  # one total per hand without choices
        if name in _PLAYER_BOOLS:
            return self.bounded(f"{name}@{seat}", name, is_bool=True)
        if name in _PLAYER_NUMBERS or name in self.counters:
            v = self.bounded(f"{name}@{seat}", name)
            if name == "deadwood_count" and isinstance(self.ranges.get("count"), Num) and \
                    self.ranges["count"].lo >= 0:  # type: ignore[union-attr]
                self.solver.add(v >= 0, v <= self.bounded(f"count@{seat}", "count"))  # deadwood is part of the hand
            return v
        raise Unknown(name)

    def at(self, name: str, seat: z3.ArithRef) -> z3.ArithRef | z3.BoolRef:
        """A per-player name read at a seat the solver chooses (the payer's count)."""
        if z3.is_int_value(seat):
            return self.player(name, seat.as_long())
        out = self.player(name, self.n - 1)
        for s in range(self.n - 2, -1, -1):
            out = z3.If(seat == s, self.player(name, s), out)
        return out

    def apart(self, a: z3.ArithRef, b: z3.ArithRef | int) -> z3.BoolRef:
        """The seats ``a`` and ``b`` are on different sides (two seats, without sides)."""
        b = z3.IntVal(b) if isinstance(b, int) else b
        side = self.sides
        if len(set(side)) == self.n:
            return a != b
        return z3.Or([z3.And(a == s, b == k) for s in range(self.n) for k in range(self.n) if side[s] != side[k]])

    def partner_of(self, seat: int) -> int:
        """The next player of ``seat``'s side in play order (names.py's 'partner')."""
        side, n = self.sides, self.n
        for i in range(1, n):
            if side[(seat + i) % n] == side[seat]:
                return (seat + i) % n
        raise Unknown("partner")  # nobody on the side: the engine stops the hand

    def side_members(self, name: str, seat: z3.ArithRef) -> list[Any]:
        """'partners' or 'opponents' of the player at ``seat``: one formula per seat."""
        side = self.sides

        def holds(k: int, s: int) -> bool:
            if self.moment.others_folded and s != 0:
                return False  # they folded: not among anyone's partners or opponents
            return side[s] != side[k] if name == "opponents" else s != k and side[s] == side[k]
        if z3.is_int_value(seat):
            k = seat.as_long()
            return [z3.BoolVal(holds(k, s)) for s in range(self.n)]
        return [z3.Or([seat == k for k in range(self.n) if holds(k, s)] or [z3.BoolVal(False)])
                for s in range(self.n)]

    def glob(self, name: str) -> Any:
        if name == "num_players":
            return z3.IntVal(self.n)
        if name == "min_count":
            if "min_count" not in self.vars:  # one definition per table, however often it is read
                self.vars["min_count"] = self.least([(z3.BoolVal(True), self.player("count", s))
                                                     for s in range(self.n)], "min_count")
            return self.vars["min_count"]
        if name in _GLOBAL_NUMBERS:
            return self.bounded(name, name)
        if name == "dealer":
            return self.seats["dealer"]
        raise Unknown(name)

    def least(self, items: Sequence[tuple[Any, Any]], what: str, most: bool = False) -> z3.ArithRef:
        """The least (most) value of the members of a set, which the engine needs non-empty."""
        self.fresh += 1
        m = z3.Int(f"{'max' if most else 'min'}:{self.fresh}")
        self.fact(z3.Or([member for member, _ in items]), f"{what} is never empty (the engine stops on an empty one)")
        for member, v in items:
            self.solver.add(z3.Implies(member, (m >= v) if most else (m <= v)))
        self.solver.add(z3.Or([z3.And(member, m == v) for member, v in items]))
        return m

    # --- expressions ------------------------------------------------------------------------
    def formula(self, source: str, subject: z3.ArithRef, item: int | None = None) -> Any:
        return self.expr(self.parsed(source), subject, item)

    def set_of(self, source: str) -> list[Any]:
        """The set of players ``source`` names, read for the actor (seat 0)."""
        got = self._sets.get(source)
        if got is None:
            got = self._sets[source] = self.members(self.parsed(source), z3.IntVal(0))
        return got

    def parsed(self, source: str) -> Tree[Token]:
        tree = self._trees.get(source)
        if tree is not None:
            return tree
        try:
            tree = parse(source)
        except ExprError:
            raise Unknown(source) from None
        if self.moment.spreads is not None and "spread" in source:
            self.read_spreads(source, tree)
        self._trees[source] = tree
        return tree

    def read_spreads(self, source: str, tree: Tree[Token]) -> None:
        """Tie the parts of ``tree`` that read only 'spread' to the values they take together
        on the spreads the melds allow: one fact, 'the spread is one of these'."""
        assert self.moment.spreads is not None
        found: list[Tree[Token]] = []
        stack: list[Any] = [tree]
        while stack:
            t = stack.pop()
            if not isinstance(t, Tree):
                continue
            if str(t.data) != "name" and _reads_only_spread(t):
                found.append(t)
            else:
                stack.extend(t.children)
        if not found:
            return
        texts = [source[t.meta.start_pos:t.meta.end_pos] for t in found]
        try:
            profiles, words = self.moment.spreads.profiles(self.n, texts)
        except TooManySpreads:
            raise Unknown("spread") from None
        sample = next(iter(profiles), None)
        if sample is None:
            self.fact(z3.BoolVal(False), words)
            return
        terms: list[z3.ExprRef] = []
        for t, text, value in zip(found, texts, sample):
            if isinstance(value, bool):
                term: z3.ExprRef = z3.Bool(f"spread:{text}")
            elif isinstance(value, int):
                term = z3.Int(f"spread:{text}")
            else:
                raise Unknown(text)  # a list of cards: not a number or a truth
            self.spread_terms[id(t)] = (t, term)
            terms.append(term)
        self.fact(z3.Or([z3.And([x == (z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v))
                                 for x, v in zip(terms, key)]) for key in profiles]), words)
        self.spread_examples.append((terms, profiles))

    def members(self, t: Tree[Token] | Token, subject: z3.ArithRef) -> list[Any]:
        """A set of players as one formula per seat (seat s is in the set)."""
        got = self.expr(t, subject, None)
        if isinstance(got, list):
            return got
        if isinstance(got, z3.ArithRef):  # a role used as a set: that one seat
            return [got == s for s in range(self.n)]
        raise Unknown("a set")

    def _laid_count(self, t: Tree[Token] | Token, subject: z3.ArithRef, item: int | None) -> Any:
        """count(laid) or count(p.laid): the number of cards that player laid this hand (None: the
        argument is something else)."""
        if not isinstance(t, Tree):
            return None
        kids = t.children
        if str(t.data) == "name" and str(kids[0]) == "laid":
            return self.player(LAID, item) if item is not None else self.at(LAID, subject)
        if str(t.data) == "attr" and str(kids[1]) == "laid":
            base = self.expr(kids[0], subject, item)
            if isinstance(base, z3.ArithRef) and not isinstance(base, z3.BoolRef):
                return self.at(LAID, base)
        return None

    def expr(self, t: Tree[Token] | Token, subject: z3.ArithRef, item: int | None) -> Any:
        """A z3 term (number, truth), a set (list of per-seat truths) or a seat (a role)."""
        if isinstance(t, Token):
            raise Unknown(str(t))
        known = self.spread_terms.get(id(t))
        if known is not None and known[0] is t:
            return known[1]
        kind = str(t.data)
        kids = list(t.children)
        if kind == "number":
            return z3.IntVal(int(str(kids[0])))
        if kind == "true":
            return z3.BoolVal(True)
        if kind == "false":
            return z3.BoolVal(False)
        if kind == "name":
            name = str(kids[0])
            if name in self.seats:
                return self.seats[name]
            if name == "players":
                return [z3.BoolVal(s == 0 or not self.moment.others_folded) for s in range(self.n)]
            if name == "others":
                return [z3.BoolVal(s != 0 and not self.moment.others_folded) for s in range(self.n)]
            if name == "folded" and self.moment.others_folded:
                return [z3.BoolVal(s != 0) for s in range(self.n)]
            if name == "lowest":
                low = self.glob("min_count")
                return [self.player("count", s) == low for s in range(self.n)]
            if name == "winners" and self.moment.winners is not None:
                return self.set_of(self.moment.winners)
            if name in _SIDE_SETS and name not in self.counters:
                return self.side_members(name, z3.IntVal(item) if item is not None else subject)
            if name in PLAYER_ATTRS or name in self.counters:
                return self.player(name, item) if item is not None else self.at(name, subject)
            if name in GLOBALS:
                return self.glob(name)
            raise Unknown(name)
        if kind == "attr":
            base = self.expr(kids[0], subject, item)
            attr = str(kids[1])
            if isinstance(base, list):
                return ("values", [(m, self.player(attr, s)) for s, m in enumerate(base)])
            if isinstance(base, z3.ArithRef) and not isinstance(base, z3.BoolRef):
                if attr in _SIDE_SETS and attr not in self.counters:
                    return self.side_members(attr, base)
                return self.at(attr, base)
            raise Unknown(attr)
        if kind == "where":
            base = self.members(kids[0], subject)
            return [z3.And(m, self.expr(kids[1], subject, s)) for s, m in enumerate(base)]
        if kind == "list":
            return ("list", [self.expr(k, subject, item) for k in kids])
        if kind == "call":
            return self.call(str(kids[0]), kids[1:], subject, item)
        if kind == "neg":
            return -self.expr(kids[0], subject, item)
        if kind in ("add", "sub", "mul"):
            a, b = self.expr(kids[0], subject, item), self.expr(kids[1], subject, item)
            _numbers(a, b)
            return a + b if kind == "add" else a - b if kind == "sub" else a * b
        if kind in ("and_", "or_"):
            a, b = self.expr(kids[0], subject, item), self.expr(kids[1], subject, item)
            _truths(a, b)
            return z3.And(a, b) if kind == "and_" else z3.Or(a, b)
        if kind == "not_":
            a = self.expr(kids[0], subject, item)
            _truths(a)
            return z3.Not(a)
        if kind == "compare":
            a, op, b = self.expr(kids[0], subject, item), str(kids[1]), self.expr(kids[2], subject, item)
            _numbers(a, b)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
        if kind in ("in_", "not_in"):
            a = self.expr(kids[0], subject, item)
            right = kids[1]
            if isinstance(right, Tree) and str(right.data) == "range":
                lo, hi = self.expr(right.children[0], subject, item), self.expr(right.children[1], subject, item)
                _numbers(a, lo, hi)
                inside = z3.And(a >= lo, a <= hi)
            else:
                b = self.expr(right, subject, item)
                if isinstance(b, tuple) and b[0] == "list":
                    _numbers(a, *b[1])
                    inside = z3.Or([a == v for v in b[1]]) if b[1] else z3.BoolVal(False)
                elif isinstance(b, list) and isinstance(a, z3.ArithRef):  # a seat in a set of players
                    inside = z3.Or([z3.And(a == s, m) for s, m in enumerate(b)])
                else:
                    raise Unknown("in")
            return inside if kind == "in_" else z3.Not(inside)
        raise Unknown(kind)

    def call(self, name: str, args: list[Any], subject: z3.ArithRef, item: int | None) -> Any:
        if len(args) != 1:
            raise Unknown(name)
        if name == "count":
            laid = self._laid_count(args[0], subject, item)
            if laid is not None:
                return laid
        arg = self.expr(args[0], subject, item)
        if name == "abs":
            _numbers(arg)
            return z3.If(arg >= 0, arg, -arg)
        if name == "count" and isinstance(arg, list):
            return z3.Sum([z3.If(m, 1, 0) for m in arg]) if arg else z3.IntVal(0)
        if isinstance(arg, tuple) and arg[0] == "values":
            pairs = arg[1]
        elif isinstance(arg, tuple) and arg[0] == "list":
            _numbers(*arg[1])
            pairs = [(z3.BoolVal(True), v) for v in arg[1]]
        else:
            raise Unknown(name)
        if name in ("min", "max") and pairs:
            return self.least(pairs, f"what {name}() reads", most=name == "max")
        if name == "sum":
            return z3.Sum([z3.If(m, v, 0) for m, v in pairs]) if pairs else z3.IntVal(0)
        raise Unknown(name)

    # --- questions --------------------------------------------------------------------------
    def ask(self, goal: Any, about: str = "") -> Answer | None:
        """Can ``goal`` hold at this moment? None when the solver cannot tell in time. The
        example shows the names ``about`` reads (all when empty)."""
        s = self.solver
        s.push()
        try:
            s.add(goal)
            got = s.check(*self.tracked.values())
            if got == z3.unsat:
                core = {str(c) for c in s.unsat_core()}
                words = [w for w, lit in self.tracked.items() if str(lit) in core]
                return Answer(False, reason="; ".join(words))
            if got == z3.sat:
                return Answer(True, example=self.example(s.model(), about))
            return None
        finally:
            s.pop()

    def example(self, model: z3.ModelRef, about: str = "") -> str:
        """The solver's example in words: 'the dropper's count 12, the payer's (seat 1) count 3'."""
        names = {0: "the dropper" if "dropper" in self.moment.roles else "the actor"}
        for role in ("payer", "payee"):
            if about and role not in about:
                continue  # the question is not about this role: its seat is any
            got = model.eval(self.seats[role], model_completion=False)
            if z3.is_int_value(got) and got.as_long() not in names:
                names[got.as_long()] = f"the {role} (seat {got.as_long()})"
        shown = []
        for key, v in sorted(self.vars.items(), key=lambda kv: kv[0].rpartition("@")[2]):
            if "@" in key or key in _GLOBAL_NUMBERS:
                got = model.eval(v, model_completion=False)
                if z3.is_int_value(got) or z3.is_true(got) or z3.is_false(got):
                    name, _, seat = key.partition("@")
                    if about and not re.search(rf"\b{name}\b", about):
                        continue
                    who = names.get(int(seat), f"seat {seat}") if seat else ""
                    shown.append(f"{name} {got} for {who}" if seat else f"{name} {got}")
        for terms, profiles in self.spread_examples:
            chosen = [str(model.eval(x, model_completion=True)).lower() for x in terms]
            for values, spread in profiles.items():
                if chosen == [str(v).lower() for v in values]:
                    shown.insert(0, "the spread " + " ".join(self.moment.spreads.names(self.n, spread)))  # type: ignore[union-attr]
                    break
        return ", ".join(shown[:6])


def _reads_only_spread(t: Tree[Token]) -> bool:
    """Whether the names ``t`` reads are 'spread' and nothing else (no player's attribute)."""
    names = [str(s.children[0]) for s in t.iter_subtrees() if str(s.data) == "name"]
    return bool(names) and set(names) == {"spread"} and not any(str(s.data) == "attr" for s in t.iter_subtrees())


def _range_words(name: str, r: Num) -> str:
    if r.hi == INF:
        return f"{name} is {int(r.lo)} or more"
    return f"{name} is between {int(r.lo)} and {int(r.hi)}"


def _numbers(*xs: Any) -> None:
    for x in xs:
        if not isinstance(x, z3.ArithRef) or isinstance(x, z3.BoolRef):
            raise Unknown("not a number")


def _truths(*xs: Any) -> None:
    for x in xs:
        if not isinstance(x, z3.BoolRef):
            raise Unknown("not a truth")

