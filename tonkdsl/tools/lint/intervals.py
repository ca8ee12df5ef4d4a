"""Deciding conditions and amounts without playing: an interval evaluation of the expression tree.

Each name gets the range of values it can take under the ruleset (a count from the lowest to the
highest total a hand of the pack could make, the turn from 0 to MAX_TURNS, a counter from its floor
to what its events allow, a set of players from empty to the whole table...), and each operator
combines ranges soundly: the result holds every value the expression can take, perhaps more. So
when a condition's range is only "false", no state of any hand can make it hold; when it is only
"true", it always holds. Where the ranges cannot tell, nothing is claimed.

Why intervals rather than an SMT solver: the conditions of rulesets are small, mostly one
comparison of a count, a turn or a counter with numbers, joined by and/or; intervals decide those
exactly, in microseconds, with no extra dependency, and say why in the author's words ("count
is between 0 and 660"). What intervals cannot decide (a condition that relates two names to each
other, like 'count < dropper.count and count > dropper.count') is left undecided, never
misreported (docs/lint.md).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from lark import Token, Tree

from tonkdsl.language.expr.compiler import ExprError, parse

INF = math.inf


@dataclass(frozen=True)
class Num:
    lo: float
    hi: float


@dataclass(frozen=True)
class Bool:
    can_true: bool
    can_false: bool


@dataclass(frozen=True)
class Items:
    """A list or a set: how many items (and, for a written list of numbers, the numbers)."""
    lo: float
    hi: float
    numbers: tuple[int, ...] | None = None


TOP = None  # nothing known
Abs = Num | Bool | Items | None


# Ranges that hold for the subject only, at one moment (checks.Linter.moment_ranges): '@turns'.
SUBJECT = "@"


def decide(source: str, ranges: Mapping[str, Abs], subject: frozenset[str] = frozenset({"actor", "self"})) -> Abs:
    """The abstract value of ``source`` given the ranges of its names (None: undecided).
    ``subject``: the roles that name the player a bare name reads (in a drop ending the
    dropper is the actor): ``count - dropper.count`` there is 0, not a range."""
    try:
        tree = parse(source)
    except ExprError:  # not an expression (a file that loaded never has one here): undecided
        return TOP
    return _eval(tree, ranges, subject)


# env keys for the cards of one rank or suit in the largest pack ("@rank=A": 4 in one deck).
PACK_RANK, PACK_SUIT = "@rank=", "@suit="


def _in_pack(keep: Tree[Token] | Token, env: Mapping[str, Abs]) -> float:
    """How many cards of the pack can pass ``keep`` when it is 'rank == R', 'rank in [...]',
    'suit == S' or 'suit in [...]' (INF for any other condition)."""
    if not isinstance(keep, Tree) or str(keep.data) not in ("compare", "in_"):
        return INF
    kids = keep.children
    if not (isinstance(kids[0], Tree) and str(kids[0].data) == "name" and str(kids[0].children[0]) in ("rank", "suit")):
        return INF
    prefix = PACK_RANK if str(kids[0].children[0]) == "rank" else PACK_SUIT
    if str(keep.data) == "compare":
        if str(kids[1]) != "==" or not (isinstance(kids[2], Tree) and str(kids[2].data) == "symbol"):
            return INF
        symbols = [str(kids[2].children[0])]
    else:
        listed = kids[1]
        if not (isinstance(listed, Tree) and str(listed.data) == "list"
                and all(isinstance(k, Tree) and str(k.data) == "symbol" for k in listed.children)):
            return INF
        symbols = [str(k.children[0]) for k in listed.children if isinstance(k, Tree)]
    total = 0.0
    for symbol in symbols:
        got = env.get(prefix + symbol)
        if not isinstance(got, Num):
            return INF
        total += got.hi
    return total


def _key(t: Tree[Token] | Token, subject: frozenset[str]) -> Any:
    """What a part of an expression stands for, so that two parts that read the same value are
    known to be equal: the subject's roles are one player; a 'where' (its names read each item)
    is never equal to anything."""
    if isinstance(t, Token):
        return str(t)
    kind = str(t.data)
    if kind == "where":
        return object()
    if kind == "attr" and isinstance(t.children[0], Tree) and str(t.children[0].data) == "name" \
            and str(t.children[0].children[0]) in subject:
        return ("name", str(t.children[1]))  # dropper.count is the bare count
    return (kind, *(_key(c, subject) for c in t.children))


def _eval(t: Tree[Token] | Token, env: Mapping[str, Abs], subject: frozenset[str]) -> Abs:
    if isinstance(t, Token):
        return TOP
    kind = str(t.data)
    kids = [c for c in t.children]
    if kind == "number":
        v = int(str(kids[0]))
        return Num(v, v)
    if kind == "true":
        return Bool(True, False)
    if kind == "false":
        return Bool(False, True)
    if kind == "name":
        name = str(kids[0])
        # A bare name reads the subject (the player the rule is about) where there is one: what
        # the moment knows of that player ('@turns' at their own turn) comes first.
        return env.get(SUBJECT + name, env.get(name, TOP)) if subject else env.get(name, TOP)
    if kind == "attr":  # dropper.count, others.count: the attribute's range (a set keeps its size)
        base = _eval(kids[0], env, subject)
        of_subject = (isinstance(kids[0], Tree) and str(kids[0].data) == "name" and str(kids[0].children[0]) in subject)
        got = env.get(SUBJECT + str(kids[1]), env.get(str(kids[1]), TOP)) if of_subject else env.get(str(kids[1]), TOP)
        return Items(base.lo, base.hi) if isinstance(base, Items) else got
    if kind == "list":
        parts = [_eval(k, env, subject) for k in kids]
        if all(isinstance(p, Num) and p.lo == p.hi for p in parts):
            return Items(len(parts), len(parts), tuple(int(p.lo) for p in parts if isinstance(p, Num)))
        return Items(len(parts), len(parts))
    if kind == "range":
        a, b = _eval(kids[0], env, subject), _eval(kids[1], env, subject)
        if isinstance(a, Num) and isinstance(b, Num):
            return Items(max(0, b.lo - a.hi + 1), max(0, b.hi - a.lo + 1))
        return Items(0, INF)
    if kind == "where":
        base = _eval(kids[0], env, subject)
        # The item's attributes range as the names do; its bare names read the item, not the subject.
        keep = _eval(kids[1], env, frozenset())
        if isinstance(keep, Bool) and not keep.can_true:
            return Items(0, 0)  # no item can pass the filter
        if not isinstance(base, Items):
            return Items(0, INF)
        # Cards of a rank or a suit: no more than the pack holds (four aces in one deck).
        return Items(0, min(base.hi, _in_pack(kids[1], env)))
    if kind == "call":
        name = str(kids[0])
        arg = _eval(kids[1], env, subject) if len(kids) > 1 else TOP
        if name == "count" and isinstance(arg, Items):
            return Num(arg.lo, arg.hi)
        if name == "deadwood" and isinstance(arg, Items):
            return Items(0, arg.hi)  # some of the cards (none, where all go into spreads)
        if name == "abs" and isinstance(arg, Num):
            lo = 0 if arg.lo <= 0 <= arg.hi else min(abs(arg.lo), abs(arg.hi))
            return Num(lo, max(abs(arg.lo), abs(arg.hi)))
        return TOP
    if kind == "neg":
        a = _eval(kids[0], env, subject)
        return Num(-a.hi, -a.lo) if isinstance(a, Num) else TOP
    if kind in ("add", "sub", "mul", "mod", "div", "pow"):
        a, b = _eval(kids[0], env, subject), _eval(kids[1], env, subject)
        if not (isinstance(a, Num) and isinstance(b, Num)):
            return TOP
        if kind == "add":
            return Num(a.lo + b.lo, a.hi + b.hi)
        if kind == "sub":
            if _key(kids[0], subject) == _key(kids[1], subject):
                return Num(0, 0)  # a value less itself
            return Num(a.lo - b.hi, a.hi - b.lo)
        if kind == "mul":
            products = [_mul(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
            return Num(min(products), max(products))
        if kind == "mod" and b.lo == b.hi and b.lo > 0:
            return Num(0, b.lo - 1)
        if kind == "div" and b.lo > 0 and a.lo >= 0:
            return Num(0, a.hi)
        return TOP
    if kind == "not_":
        a = _eval(kids[0], env, subject)
        return Bool(a.can_false, a.can_true) if isinstance(a, Bool) else TOP
    if kind in ("and_", "or_"):
        a, b = _eval(kids[0], env, subject), _eval(kids[1], env, subject)
        a = a if isinstance(a, Bool) else Bool(True, True)
        b = b if isinstance(b, Bool) else Bool(True, True)
        if kind == "and_":
            return Bool(a.can_true and b.can_true, a.can_false or b.can_false)
        return Bool(a.can_true or b.can_true, a.can_false and b.can_false)
    if kind == "compare":
        a, op, b = _eval(kids[0], env, subject), str(kids[1]), _eval(kids[2], env, subject)
        if isinstance(a, Num) and isinstance(b, Num):
            if _key(kids[0], subject) == _key(kids[2], subject):  # a value against itself
                return Bool(op in ("==", "<=", ">="), op in ("!=", "<", ">"))
            return _compare(a, op, b)
        return TOP
    if kind in ("in_", "not_in"):
        a, b = _eval(kids[0], env, subject), _eval(kids[1], env, subject)
        got = _member(a, b, kids[1], env, subject)
        if got is None:
            return TOP
        return got if kind == "in_" else Bool(got.can_false, got.can_true)
    return TOP


def _mul(x: float, y: float) -> float:
    return 0.0 if x == 0 or y == 0 else x * y  # 0 x infinity is 0 here: a factor of 0 gives 0


def _compare(a: Num, op: str, b: Num) -> Bool:
    if op == "<":
        return Bool(a.lo < b.hi, a.hi >= b.lo)
    if op == "<=":
        return Bool(a.lo <= b.hi, a.hi > b.lo)
    if op == ">":
        return Bool(a.hi > b.lo, a.lo <= b.hi)
    if op == ">=":
        return Bool(a.hi >= b.lo, a.lo < b.hi)
    single = a.lo == a.hi == b.lo == b.hi
    overlap = a.lo <= b.hi and b.lo <= a.hi
    if op == "==":
        return Bool(overlap, not single)
    return Bool(not single, overlap)  # !=


def _member(a: Abs, b: Abs, right: Any, env: Mapping[str, Abs], subject: frozenset[str]) -> Bool | None:
    if not isinstance(a, Num):
        return None
    if isinstance(b, Items) and b.numbers is not None:
        inside = [v for v in b.numbers if a.lo <= v <= a.hi]
        width = a.hi - a.lo + 1
        return Bool(bool(inside), width > len(set(inside)))
    if isinstance(right, Tree) and str(right.data) == "range":
        lo, hi = _eval(right.children[0], env, subject), _eval(right.children[1], env, subject)
        if isinstance(lo, Num) and isinstance(hi, Num):
            both = _compare(a, ">=", lo), _compare(a, "<=", hi)
            return Bool(both[0].can_true and both[1].can_true, both[0].can_false or both[1].can_false)
    return None


def why(ranges: Mapping[str, Abs], source: str) -> str:
    """The ranges of the names ``source`` reads, in words: 'count is between 0 and 660'."""
    words = []
    for name, r in ranges.items():
        if name.startswith((PACK_RANK, PACK_SUIT)):
            attr, _, symbol = name[1:].partition("=")
            if isinstance(r, Num) and re.search(rf"\b{attr}\s*(==\s*{re.escape(symbol)}\b|in\s*\[[^\]]*\b{re.escape(symbol)}\b)", source):
                words.append(f"the pack holds {int(r.hi):,} cards of {attr} {symbol}")
            continue
        if name.startswith(SUBJECT):
            continue  # said with the name it narrows, below
        mine = ranges.get(SUBJECT + name)
        if isinstance(mine, Num) and re.search(rf"(?<![\w.]){re.escape(name)}\b(?!\s*\()", source):
            lo = f"{int(mine.lo):,}"  # the bare name reads the player the rule is about
            words.append(f"{name} is at least {lo} here (the player to move has started a turn)"
                         if name == "turns" else f"{name} is between {lo} and {int(mine.hi):,} here")
            continue
        if isinstance(r, Bool) and not (r.can_true and r.can_false) and _reads(source, name):
            words.append("nobody holds an automatic win once the hand is played" if name == "deal_win"
                         else f"{name} is {'false' if not r.can_true else 'true'} here")
        if isinstance(r, Items) and name == "hand" and _reads(source, name):
            words.append(f"a hand holds {int(r.lo):,} to {int(r.hi):,} cards")
        if isinstance(r, Num) and _reads(source, name):
            lo = "-infinity" if r.lo == -INF else f"{int(r.lo):,}"
            if r.lo == r.hi:
                words.append(f"{name} is {lo}")
            elif r.hi == INF:
                words.append(f"{name} is {lo} or more")
            else:
                words.append(f"{name} is between {lo} and {int(r.hi):,}")
    return "; ".join(words)


def _reads(source: str, name: str) -> bool:
    # A name, not a function of the same name ('count(hand)' reads hand, not count).
    return re.search(rf"(?<![\w.]){re.escape(name)}\b(?!\s*\()|\.{re.escape(name)}\b", source) is not None
