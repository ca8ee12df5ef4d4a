"""Parse, type-check and compile an expression in one pass over the Lark tree.

Each node becomes a closure ``fn(ctx) -> value``; names become calls of the getters listed in
:class:`~tonkdsl.language.expr.types.Names`. Each node is also described as a part of Python's
syntax tree, and the parts of a whole expression are joined into one function (codegen.py), which
the compiled expression runs: the closures' results in fewer calls. Type errors (unknown name, wrong type, wrong arity) are
found here, when the ruleset loads, with the column of the offending part of the expression.
"""
from __future__ import annotations

import ast
import functools
import operator
import os
from dataclasses import dataclass
from typing import Any, Callable

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from tonkdsl.language.cards import JOKER, RANKS_STANDARD, SUITS_STANDARD, parse_card
from tonkdsl.language.diagnostics import did_you_mean
from tonkdsl.language.expr.codegen import CodeGen
from tonkdsl.language.expr.types import ANY, BOOL, CARD, NUM, PLAYER, RANK, SUIT, ListType, Names, Type, list_of, plural
from tonkdsl.language.resources import grammar_text

# The size of an expression is bounded by its parts (MAX_EXPR_NODES: numbers, names, operators,
# calls), not by its characters, so that a long rule may be written over several lines with
# room for spaces; MAX_EXPR_CHARS only stops a pasted file before it is parsed.
MAX_EXPR_NODES = 400
MAX_EXPR_CHARS = 10_000
MAX_EXPR_DEPTH = 40
MAX_NUMBER = 10**12
MAX_RANGE = 10**6
# The evaluation cost of one expression, bounded when the file loads: an upper bound of the
# steps one evaluation may take (a 'where' multiplies its condition's cost by the size of what
# it filters; sum, min, max, any, all and 'in' walk their list), over the largest table the
# schema allows (COST_PLAYERS players, COST_CARDS cards, a range of MAX_RANGE numbers). Twelve
# nested 'count(players where ...)' or a sum over a million numbers are refused here, instead of
# hanging play or lint. One step is about a microsecond: 200,000 is a fifth of a second at worst.
MAX_EXPR_COST = 200_000
COST_PLAYERS = 12
COST_CARDS = 240  # four decks of 60 cards (pack.decks is at most 4)
COST_FUNCTION = 20  # per card, for the meld functions (deadwood, largest_book, ...)

Fn = Callable[[Any], Any]
# Join each expression's parts into one generated function (codegen.py); False keeps the closures
# alone (tests/test_codegen.py compares the two).
GENERATE = True


class ExprError(Exception):
    """A problem in an expression; ``line``/``column`` are 1-based inside the expression."""

    def __init__(self, message: str, line: int = 1, column: int = 1, code: str = "expr-type") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.code = code


class EvalError(Exception):
    """An expression failed while the game was running (division by zero, absurd number)."""


NOT_CONSTANT: Any = object()


@dataclass(frozen=True)
class Compiled:
    source: str
    type: Type
    fn: Fn
    # The value when the expression is a constant ("true", "2 * 3"): callers may skip evaluating.
    constant: Any = NOT_CONSTANT
    # The plain names the expression reads (``count``, ``stake``, ...), for the callers that
    # treat some names specially (a count the holder chooses) and for lint.
    names_used: frozenset[str] = frozenset()
    # The most steps one evaluation may take (see MAX_EXPR_COST), for callers that evaluate an
    # expression many times (lint's odds) and bound their total work.
    cost: int = 1

    def __call__(self, ctx: Any) -> Any:
        return self.fn(ctx)


def _parser_cache() -> str | bool:
    """Where Lark keeps the analysed grammar between runs (its own 'cache' option): reading it
    back is 0.04 s faster than analysing the grammar at every start. The file lives in the
    user's cache folder (Lark checks it against the grammar, the options and its version);
    TONKDSL_NO_CACHE=1, or a folder that cannot be made, turns it off."""
    if os.environ.get("TONKDSL_NO_CACHE"):
        return False
    from platformdirs import user_cache_dir  # ~/.cache/tonkdsl (XDG_CACHE_HOME), ~/Library/Caches, %LOCALAPPDATA%

    folder = user_cache_dir("tonkdsl", appauthor=False)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return False
    return os.path.join(folder, "expr-grammar.lark-cache")


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    # Built lazily on first use and reused: the grammar never changes within a process.
    return Lark(grammar_text("expr.lark"), parser="lalr", propagate_positions=True,
                maybe_placeholders=False, cache=_parser_cache())


def _syntax_error(source: str, exc: UnexpectedInput) -> ExprError:
    line, col = exc.line if exc.line > 0 else 1, exc.column if exc.column > 0 else 1
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        ch = source[pos] if pos < len(source) else ""
        nxt = source[pos:pos + 2]
        if nxt in ("&&", "||"):
            msg = f"'{nxt}' is not an operator here; write 'and' or 'or'"
        elif ch == "=":
            msg = "a single '=' is not allowed; compare with '=='"
        elif ch == "!":
            msg = "'!' is not an operator here; write 'not' (or '!=' to compare)"
        elif ch in "\"'":
            msg = "quotes are not used in expressions; write cards, ranks and suits as 10S, J, H"
        else:
            msg = f"unexpected character '{ch}'"
        return ExprError(msg, line, col, "expr-syntax")
    if isinstance(exc, UnexpectedEOF):
        return ExprError("the expression ends too early (an operand or ')' is missing)",
                         line, len(source) + 1, "expr-syntax")
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            return ExprError("the expression ends too early (an operand or ')' is missing)",
                             1, len(source) + 1, "expr-syntax")
        return ExprError(f"unexpected '{tok}' here", line, col, "expr-syntax")
    return ExprError("cannot read the expression", line, col, "expr-syntax")


def parse(source: str) -> Tree[Token]:
    if len(source) > MAX_EXPR_CHARS:
        raise ExprError(f"the expression is {len(source)} characters long; the limit "
                        f"(MAX_EXPR_CHARS) is {MAX_EXPR_CHARS}", 1, 1, "limit-expr-length")
    if not source.strip():
        raise ExprError("the expression is empty", 1, 1, "expr-syntax")
    try:
        tree = _parser().parse(source)
    except UnexpectedInput as exc:
        raise _syntax_error(source, exc) from None
    except RecursionError:
        raise ExprError(f"the expression nests too deeply (MAX_EXPR_DEPTH {MAX_EXPR_DEPTH})",
                        1, 1, "limit-expr-depth") from None
    return tree


def compile_expr(source: str, names: Names, expect: Type | None = None) -> Compiled:
    """Compile ``source`` against ``names``; ``expect`` is the type the field needs.

    A single player is accepted where players are expected (``to: dropper``).
    """
    tree = parse(str(source))
    size = sum(1 for _ in tree.iter_subtrees())  # iterative: no recursion on a long chain
    if size > MAX_EXPR_NODES:
        raise ExprError(f"the expression has {size} parts (numbers, names, operators); the limit "
                        f"(MAX_EXPR_NODES) is {MAX_EXPR_NODES}", 1, 1, "limit-expr-size")
    comp = _Compiler(names)
    typ, fn, lit = comp.node(tree, 0)
    code = comp.code.get(id(tree))  # the whole expression as one function (codegen.py), when it could be
    cost = comp.costs[id(tree)][0]
    if cost > MAX_EXPR_COST:
        raise ExprError(f"one evaluation of this expression may take {cost:,} steps; the limit (MAX_EXPR_COST) "
                        f"is {MAX_EXPR_COST:,}: a 'where' inside a 'where', or a sum over a long range, "
                        "multiplies the work", 1, 1, "limit-expr-cost")
    if expect is not None and typ != expect:
        if expect == list_of(PLAYER) and typ == PLAYER:
            inner = fn
            fn = lambda ctx: (inner(ctx),)  # noqa: E731
            typ = expect
            if code is not None:
                code = ast.Tuple([code], ast.Load())
                comp.bare.discard(id(tree))  # no longer its getter alone: one frame, not two
        elif isinstance(expect, ListType) and isinstance(typ, ListType) and typ.item == ANY:
            typ = expect
        else:
            raise ExprError(f"this should be {_a(expect)}, but it is {_a(typ)}", 1, 1)
    constant = lit if lit is not None and not isinstance(lit, tuple) else NOT_CONSTANT
    if GENERATE and code is not None and lit is None and id(tree) not in comp.bare:  # a bare name is its getter
        fn = comp.gen.build(code)
    return Compiled(str(source), typ, fn, constant, frozenset(comp.used), cost)


def _a(t: Type) -> str:
    if isinstance(t, ListType):
        return f"a list of {plural(t.item)}" if t.item not in (PLAYER, CARD) else f"a set of {t.name}"
    return ("an " if t.name[0] in "aeiou" else "a ") + t.name


def _where(tree: Tree[Token] | Token) -> tuple[int, int]:
    if isinstance(tree, Token):
        return (tree.line or 1, tree.column or 1)
    meta = tree.meta
    return (getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)


def _check_num(v: int) -> int:
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise EvalError(f"a number grew beyond the limit of {MAX_NUMBER:,} (MAX_NUMBER)")


def _div(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("division by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("division by zero (%)")
    return a % b


def _pow(a: int, b: int) -> int:
    if b < 0:
        raise EvalError("a negative exponent is not allowed")
    if b > 64 and abs(a) > 1:
        raise EvalError(f"the exponent {b} is too large: numbers are capped at {MAX_NUMBER:,} (MAX_NUMBER)")
    return _check_num(a ** b)


def _range(a: int, b: int) -> range:
    if b - a > MAX_RANGE:
        raise EvalError(f"the range {a}..{b} has more than {MAX_RANGE:,} numbers (MAX_RANGE)")
    return range(a, b + 1)


# Closures for the hot operators, one per operator, with a written number inlined (``2 * stake``,
# ``count < 10``): an expression is evaluated through as few Python calls as possible.
_Maker = Callable[[Fn, Fn, Any, Any], Fn]


def _checked(op: Callable[[Any, Any], Any]) -> _Maker:
    def make(lf: Fn, rf: Fn, lv: Any, rv: Any) -> Fn:
        if lv is not None:
            return lambda ctx: _check_num(op(lv, rf(ctx)))
        if rv is not None:
            return lambda ctx: _check_num(op(lf(ctx), rv))
        return lambda ctx: _check_num(op(lf(ctx), rf(ctx)))
    return make


def _compare(op: Callable[[Any, Any], Any]) -> _Maker:
    def make(lf: Fn, rf: Fn, lv: Any, rv: Any) -> Fn:
        if rv is not None:
            return lambda ctx: op(lf(ctx), rv)
        if lv is not None:
            return lambda ctx: op(lv, rf(ctx))
        return lambda ctx: op(lf(ctx), rf(ctx))
    return make


_CHECKED: dict[str, _Maker] = {"+": _checked(operator.add), "-": _checked(operator.sub),
                               "*": _checked(operator.mul)}
_COMPARE: dict[str, _Maker] = {"==": _compare(operator.eq), "!=": _compare(operator.ne),
                               "<": _compare(operator.lt), "<=": _compare(operator.le),
                               ">": _compare(operator.gt), ">=": _compare(operator.ge)}

_FUNCTIONS = ("count", "sum", "min", "max", "any", "all", "abs")
# A suit's name as a player writes it (without its plural s), to the letter the language writes it by.
_SUIT_WORDS = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}

# The same operators as nodes of the generated function (codegen.py).
_BINOP: dict[str, type[ast.operator]] = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult}
_CMPOP: dict[str, type[ast.cmpop]] = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt,
                                       ">=": ast.GtE}


def _min_of(values: Any) -> Any:
    if not values:
        raise EvalError("min() of an empty list")
    return min(values)


def _max_of(values: Any) -> Any:
    if not values:
        raise EvalError("max() of an empty list")
    return max(values)


class _Compiler:
    def __init__(self, names: Names) -> None:
        self.names = names
        self.costs: dict[int, tuple[int, int]] = {}  # per subtree: see _cost
        self.costs_lit: dict[int, Any] = {}  # per subtree: its literal value, when it has one
        self.items: list[Type] = []  # the item types of the enclosing 'where' filters
        self.item_vars: list[str] = []  # their items' names in the generated function
        self.used: set[str] = set()  # plain names and attributes read
        # Each part's node of Python's syntax tree, for the one function of the whole expression
        # (codegen.py); a part with none is called as its closure.
        self.gen = CodeGen()
        self.code: dict[int, ast.expr] = {}
        self.bare: set[int] = set()  # parts whose code only calls their own closure (a global name)
        # The levels of the enclosing 'where' filters whose items each part reads (0 the outermost).
        self.levels: dict[int, frozenset[int]] = {}

    def err(self, tree: Tree[Token] | Token, msg: str, hint: str = "", code: str = "expr-type") -> ExprError:
        line, col = _where(tree)
        return ExprError(msg + hint, line, col, code)

    # --- the generated function's parts (codegen.py) -------------------------------------------
    def part(self, tree: Tree[Token] | Token, part: tuple[Type, Fn, Any], embed: bool = True) -> ast.expr | None:
        """The code of a compiled part: its literal, its generated code, or else a call of its
        closure. A closure is called only outside a 'where' condition (``embed``; there the closures
        would read items the generated filter does not keep on ``ctx.items``): otherwise None."""
        lit = part[2]
        if isinstance(lit, (int, str)):  # numbers, truth values, ranks and suits
            return self.gen.constant(lit)
        if isinstance(lit, tuple):
            return self.gen.name(lit)
        code = self.code.get(id(tree))
        if code is not None:
            if self.items and id(tree) not in self.levels:  # the same for every item: worked out once
                return self.gen.memo(code)
            return code
        if embed and not self.items:
            return self.gen.closure(part[1])
        return None

    def iterable(self, tree: Tree[Token] | Token, part: tuple[Type, Fn, Any]) -> ast.expr | None:
        """The code of what a comprehension walks: Python forbids a memo (an assignment
        expression) anywhere in it, so a part that would hold one is called as its closure when it
        reads no item, else has no code."""
        code = self.part(tree, part)
        if code is None or not any(isinstance(n, ast.NamedExpr) for n in ast.walk(code)):
            return code
        if id(tree) not in self.levels:
            return self.gen.closure(part[1])
        return None

    def emit(self, tree: Tree[Token], code: ast.expr | None) -> None:
        if code is not None:
            self.code[id(tree)] = code

    def get_code(self, getter: Any, at: ast.expr | None = None) -> ast.expr:
        """A getter's value: its reads in line when it only reads (Names.reads), its table's
        entry when it looks one up (Names.lookups), else its call
        (``getter(ctx)``, or ``getter(ctx, at)`` for an attribute of ``at``)."""
        path = self.names.reads.get(getter)
        if path is not None:
            return self.gen.read(path, at)
        lookup = self.names.lookups.get(getter)
        if lookup is not None and at is None:
            return self.gen.lookup(*lookup)
        return self.gen.call(getter, self.gen.ctx()) if at is None else self.gen.call(getter, self.gen.ctx(), at)

    def call_code(self, fn: Any, *args: ast.expr | None) -> ast.expr | None:
        """``fn(*args)``, or None when a part has no code."""
        if any(a is None for a in args):
            return None
        return self.gen.call(fn, *args)  # type: ignore[arg-type]

    # Each handler returns (type, closure, literal value or None).
    def node(self, tree: Tree[Token] | Token, depth: int) -> tuple[Type, Fn, Any]:
        if depth > MAX_EXPR_DEPTH:
            line, col = _where(tree)
            raise ExprError(f"the expression nests deeper than {MAX_EXPR_DEPTH} levels (MAX_EXPR_DEPTH)",
                            line, col, "limit-expr-depth")
        if isinstance(tree, Token):  # pragma: no cover - the grammar wraps every token
            raise self.err(tree, f"unexpected '{tree}'")
        handler = getattr(self, "n_" + str(tree.data), None)
        if handler is None:  # pragma: no cover - every rule of the grammar has a handler
            raise self.err(tree, f"unsupported construct '{tree.data}'")
        result: tuple[Type, Fn, Any] = handler(tree, depth + 1)
        levels = self.levels.get(id(tree), frozenset()).union(*(self.levels.get(id(c), ()) for c in tree.children))
        if tree.data == "where":  # its own items are read inside it only
            levels = levels - {len(self.items)}
        if levels:
            self.levels[id(tree)] = levels
        self.costs_lit[id(tree)] = result[2]
        self.costs[id(tree)] = self._cost(tree, result[0], result[2])
        return result

    def _cost(self, tree: Tree[Token], typ: Type, lit: Any) -> tuple[int, int]:
        """(steps of one evaluation at most, the most items when ``typ`` is a list)."""
        kids = [self.costs.get(id(c), (1, 1)) for c in tree.children if isinstance(c, Tree)]
        cost = 1 + sum(c for c, _ in kids)
        size = 1
        if isinstance(typ, ListType):
            size = len(lit) if isinstance(lit, tuple) else COST_PLAYERS if typ.item == PLAYER else COST_CARDS
        kind = str(tree.data)
        if kind == "where":
            (bc, bs), (cc, _) = kids
            return 1 + bc + bs * cc, bs
        if kind == "range":
            lo, hi = (self.costs_lit.get(id(c)) for c in tree.children)
            size = hi - lo + 1 if isinstance(lo, int) and isinstance(hi, int) else MAX_RANGE
            return cost, max(size, 0)
        if kind == "call":
            fname = str(tree.children[0])
            arg_size = kids[0][1] if kids else 1
            if fname in self.names.functions:
                cost += COST_FUNCTION * arg_size
            elif fname != "count":
                cost += arg_size
        elif kind in ("in_", "not_in"):
            right = tree.children[1]
            if not (isinstance(right, Tree) and right.data == "range"):  # a range answers 'in' at once
                cost += kids[1][1]
        elif kind == "attr" or (kind == "name" and isinstance(typ, ListType)):
            cost += kids[0][1] if kids and kind == "attr" else size
            if kind == "attr" and isinstance(typ, ListType):
                size = kids[0][1]
        return cost, size

    # --- literals -----------------------------------------------------------------------
    def n_number(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        v = int(str(t.children[0]))
        if v > MAX_NUMBER:
            line, col = _where(t)
            raise ExprError(f"the number {v} is larger than the limit {MAX_NUMBER:,} (MAX_NUMBER)", line, col,
                            "limit-expr-number")
        return NUM, (lambda ctx: v), v

    def n_true(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        return BOOL, (lambda ctx: True), True

    def n_false(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        return BOOL, (lambda ctx: False), False

    def n_symbol(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        text = str(t.children[0])
        if text in ("A", "J", "Q", "K", JOKER, "T"):
            rank = "10" if text == "T" else text
            return RANK, (lambda ctx: rank), rank
        if text in SUITS_STANDARD:
            return SUIT, (lambda ctx: text), text
        try:
            rank, suit = parse_card(text)
        except ValueError:
            raise self.err(t, f"'{text}' is not a card, rank or suit (cards: 10S, QH; ranks: A J Q K JK; "
                              "suits: C D H S; names are written in lower case)") from None
        name = f"{rank}{suit}"
        card_named = self.names.globals.get("$card")
        if card_named is None:
            raise self.err(t, "cards cannot be named here")
        getter = card_named[1]
        return CARD, (lambda ctx: getter(ctx)(name)), None

    def n_list(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        parts = [self.node(c, d) for c in t.children]
        if not parts:
            return list_of(ANY), (lambda ctx: ()), ()
        types = {p[0] for p in parts}
        if types <= {NUM, RANK} and RANK in types:
            parts = [self._as_rank(c, p) for c, p in zip(t.children, parts)]
            types = {RANK}
        if len(types) > 1:
            raise self.err(t, "a list must hold values of one kind, here: "
                           + ", ".join(sorted(x.name for x in types)))
        typ = parts[0][0]
        if all(p[2] is not None for p in parts):
            lit = tuple(p[2] for p in parts)
            return list_of(typ), (lambda ctx: lit), lit
        fns = [p[1] for p in parts]
        codes = [code for c, p in zip(t.children, parts) if (code := self.part(c, p)) is not None]
        if len(codes) == len(parts):
            self.emit(t, ast.Tuple(codes, ast.Load()))
        return list_of(typ), (lambda ctx: tuple(f(ctx) for f in fns)), None

    def _as_rank(self, t: Tree[Token] | Token, part: tuple[Type, Fn, Any]) -> tuple[Type, Fn, Any]:
        """Turn a number literal into a rank (``rank in [9, 10]``)."""
        typ, fn, lit = part
        if typ == RANK:
            return part
        if lit is None or str(lit) not in RANKS_STANDARD:
            raise self.err(t, f"{lit if lit is not None else 'this number'} is not a rank "
                           "(ranks are A, 2-10, J, Q, K, JK)")
        rank = str(lit)
        return RANK, (lambda ctx: rank), rank

    # --- names ---------------------------------------------------------------------------
    def n_name(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        name = str(t.children[0])
        self.used.add(name)
        # Innermost 'where' item first, then the checked player, then the global names.
        for level in range(len(self.items) - 1, -1, -1):
            attrs = self.names.attrs.get(self.items[level], {})
            if name in attrs:
                typ, getter = attrs[name]
                lv = level
                self.emit(t, self.get_code(getter, self.gen.var(self.item_vars[lv])))
                self.levels[id(t)] = frozenset({lv})
                return typ, (lambda ctx: getter(ctx, ctx.items[lv])), None
        if self.names.subject is not None:
            stype, sget = self.names.subject
            attrs = self.names.attrs.get(stype, {})
            if name in attrs:
                typ, getter = attrs[name]
                self.emit(t, self.get_code(getter, self.get_code(sget)))
                return typ, (lambda ctx: getter(ctx, sget(ctx))), None
        if name in self.names.globals and not name.startswith("$"):
            typ, g = self.names.globals[name]
            self.emit(t, self.get_code(g))  # reads no 'where' item: fits anywhere
            self.bare.add(id(t))
            return typ, g, None
        if name in _FUNCTIONS or name in self.names.functions:
            raise self.err(t, f"'{name}' is a function: write {name}(...)")
        if name in self.names.elsewhere:
            raise self.err(t, f"'{name}' is not known here: {self.names.elsewhere[name]}")
        suit = _SUIT_WORDS.get(name.lower().rstrip("s"))
        if suit is not None:  # 'spades', 'Hearts': the suits are written by their letter
            raise self.err(t, f"unknown name '{name}': a suit is written by its letter, C, D, H or S "
                              f"(did you mean '{suit}'?)")
        known = [n for n in self.names.globals if not n.startswith("$")]
        if self.names.subject is not None:
            known += list(self.names.attrs.get(self.names.subject[0], {}))
        for it in self.items:
            known += list(self.names.attrs.get(it, {}))
        raise self.err(t, f"unknown name '{name}'", did_you_mean(name, known))

    def n_attr(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        base = self.node(t.children[0], d)
        base_t, base_f, _ = base
        attr = str(t.children[1])
        self.used.add(attr)
        item = base_t.item if isinstance(base_t, ListType) else base_t
        attrs = self.names.attrs.get(item, {})
        if attr not in attrs:
            what = f"{base_t.name}" if not isinstance(base_t, ListType) else f"a set of {base_t.name}"
            if not attrs:
                raise self.err(t.children[1], f"{what} has no attributes")
            raise self.err(t.children[1], f"a {what} has no attribute '{attr}'",
                           did_you_mean(attr, attrs) or f" (known: {', '.join(sorted(attrs))})")
        typ, getter = attrs[attr]
        if isinstance(base_t, ListType):
            base_code = self.iterable(t.children[0], base)
            if base_code is not None:
                x = self.gen.loop_var()
                self.emit(t, self.gen.tuple_of_list(self.get_code(getter, self.gen.var(x)), x, base_code))
            return list_of(typ), (lambda ctx: tuple([getter(ctx, x) for x in base_f(ctx)])), None
        base_code = self.part(t.children[0], base)
        if base_code is not None:
            self.emit(t, self.get_code(getter, base_code))
        return typ, (lambda ctx: getter(ctx, base_f(ctx))), None

    # --- calls ---------------------------------------------------------------------------
    def n_call(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        fname = str(t.children[0])
        args = t.children[1:]
        known = (*_FUNCTIONS, *self.names.functions)
        if fname not in known:
            raise self.err(t.children[0], f"unknown function '{fname}'",
                           did_you_mean(fname, known) or f" (functions: {', '.join(known)})")
        if len(args) != 1:
            raise self.err(t, f"{fname}() takes exactly one argument, got {len(args)}")
        arg_part = self.node(args[0], d)
        at, af, _ = arg_part
        ac = self.part(args[0], arg_part)
        if fname in self.names.functions:
            want, result, impl = self.names.functions[fname]
            if at != want and not (isinstance(at, ListType) and at.item == ANY and isinstance(want, ListType)):
                raise self.err(args[0], f"{fname}() needs {_a(want)}, not {_a(at)}")
            most = getattr(impl, "max_items", None)  # a function whose work grows fast with its list
            arg = args[0]
            written = len(arg.children) if isinstance(arg, Tree) and arg.data == "list" else None
            if most is not None and written is not None and written > most:
                raise self.err(args[0], f"{fname}() is given {written} cards; it takes at most {most} "
                               "(MAX_MELD_CARDS): its search grows fast with every card", code="limit-expr-cost")
            self.emit(t, self.call_code(impl, self.gen.ctx(), ac))
            return result, (lambda ctx: impl(ctx, af(ctx))), None
        if fname == "abs":
            if at != NUM:
                raise self.err(args[0], f"abs() needs a number, not {_a(at)}")
            self.emit(t, self.call_code(abs, ac))
            return NUM, (lambda ctx: abs(af(ctx))), None
        if not isinstance(at, ListType):
            raise self.err(args[0], f"{fname}() needs a list or a set, not {_a(at)}")
        if fname == "count":
            self.emit(t, self.call_code(len, ac))
            return NUM, (lambda ctx: len(af(ctx))), None
        if fname in ("any", "all"):
            if at.item not in (BOOL, ANY):
                raise self.err(args[0], f"{fname}() needs a list of booleans, not {_a(at)}")
            f = any if fname == "any" else all
            self.emit(t, self.call_code(f, ac))
            return BOOL, (lambda ctx: f(af(ctx))), None
        if fname == "sum" and at.item == CARD:
            value = self.names.attrs[CARD]["value"][1]
            walked = self.iterable(args[0], arg_part)  # sum(hand): the cards walked by a comprehension
            if walked is not None:
                x = self.gen.loop_var()
                values = self.gen.tuple_of_list(self.gen.call(value, self.gen.ctx(), self.gen.var(x)), x, walked)
                self.emit(t, self.gen.call(_check_num, self.gen.call(sum, values)))
            return NUM, (lambda ctx: _check_num(sum(value(ctx, c) for c in af(ctx)))), None
        if at.item not in (NUM, ANY):
            raise self.err(args[0], f"{fname}() needs a list of numbers, not {_a(at)}"
                           + (" (write e.g. min(players.count))" if at.item == PLAYER else ""))
        if fname == "sum":  # a sum is a number like any other: checked against MAX_NUMBER
            if ac is not None:
                self.emit(t, self.gen.call(_check_num, self.gen.call(sum, ac)))
            return NUM, (lambda ctx: _check_num(sum(af(ctx)))), None
        pick = _min_of if fname == "min" else _max_of
        self.emit(t, self.call_code(pick, ac))
        return NUM, (lambda ctx: pick(af(ctx))), None

    # --- operators -----------------------------------------------------------------------
    def _arith(self, t: Tree[Token], d: int, op: Callable[[int, int], int], sym: str) -> tuple[Type, Fn, Any]:
        (lt, lf, ll), (rt, rf, rl) = self.node(t.children[0], d), self.node(t.children[1], d)
        for side, typ in ((t.children[0], lt), (t.children[1], rt)):
            if typ != NUM:
                raise self.err(side, f"'{sym}' needs numbers on both sides, not {_a(typ)}")
        if ll is not None and rl is not None:
            try:
                v = op(ll, rl)
            except EvalError as exc:
                line, col = _where(t)
                code = "limit-expr-number" if "MAX_" in str(exc) else "expr-value"
                raise ExprError(str(exc), line, col, code) from None
            return NUM, (lambda ctx: v), v
        if sym in ("/", "%") and rl == 0:  # a division by a written 0 can never be evaluated
            line, col = _where(t.children[1])
            raise ExprError(f"'{sym}' by a written 0: a division by zero", line, col, "expr-value")
        lc, rc = self.part(t.children[0], (lt, lf, ll)), self.part(t.children[1], (rt, rf, rl))
        if sym in _CHECKED:  # + - * written out: one closure, no call of the operator
            if lc is not None and rc is not None:
                self.emit(t, self.gen.call(_check_num, ast.BinOp(lc, _BINOP[sym](), rc)))
            return NUM, _CHECKED[sym](lf, rf, ll, rl), None
        self.emit(t, self.call_code(op, lc, rc))
        return NUM, (lambda ctx: op(lf(ctx), rf(ctx))), None

    def n_add(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        return self._arith(t, d, lambda a, b: _check_num(a + b), "+")

    def n_sub(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        return self._arith(t, d, lambda a, b: _check_num(a - b), "-")

    def n_mul(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        return self._arith(t, d, lambda a, b: _check_num(a * b), "*")

    def n_div(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        return self._arith(t, d, _div, "/")

    def n_mod(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        return self._arith(t, d, _mod, "%")

    def n_pow(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        return self._arith(t, d, _pow, "^")

    def n_range(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        # Each side is compiled once (a nested range costs what it holds, not twice per level).
        lp, rp = self.node(t.children[0], d), self.node(t.children[1], d)
        (lt, lf, _), (rt, rf, _) = lp, rp
        for side, typ in ((t.children[0], lt), (t.children[1], rt)):
            if typ != NUM:
                raise self.err(side, f"'..' needs numbers on both sides, not {_a(typ)}")
        self.emit(t, self.call_code(_range, self.part(t.children[0], lp), self.part(t.children[1], rp)))
        return list_of(NUM), (lambda ctx: _range(lf(ctx), rf(ctx))), None

    def n_neg(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        typ, fn, lit = self.node(t.children[0], d)
        if typ != NUM:
            raise self.err(t, f"'-' needs a number, not {_a(typ)}")
        if lit is not None:
            return NUM, (lambda ctx: -lit), -lit
        code = self.part(t.children[0], (typ, fn, lit))
        if code is not None:
            self.emit(t, ast.UnaryOp(ast.USub(), code))
        return NUM, (lambda ctx: -fn(ctx)), None

    def _bool(self, t: Tree[Token] | Token, d: int, word: str) -> Fn:
        return self._bool_part(t, d, word)[1]

    def _bool_part(self, t: Tree[Token] | Token, d: int, word: str) -> tuple[Type, Fn, Any]:
        part = self.node(t, d)
        if part[0] != BOOL:
            raise self.err(t, f"'{word}' needs a condition (true or false), not {_a(part[0])}")
        return part

    def n_not_(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        part = self._bool_part(t.children[0], d, "not")
        f = part[1]
        code = self.part(t.children[0], part)
        if code is not None:
            self.emit(t, ast.UnaryOp(ast.Not(), code))
        return BOOL, (lambda ctx: not f(ctx)), None

    def _both(self, t: Tree[Token], d: int, word: str, op: ast.boolop) -> tuple[Fn, Fn]:
        left, right = self._bool_part(t.children[0], d, word), self._bool_part(t.children[1], d, word)
        lc, rc = self.part(t.children[0], left), self.part(t.children[1], right)
        if lc is not None and rc is not None:
            self.emit(t, ast.BoolOp(op, [lc, rc]))
        return left[1], right[1]

    def n_and_(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        a, b = self._both(t, d, "and", ast.And())
        return BOOL, (lambda ctx: a(ctx) and b(ctx)), None

    def n_or_(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        a, b = self._both(t, d, "or", ast.Or())
        return BOOL, (lambda ctx: a(ctx) or b(ctx)), None

    def n_compare(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        left, op_tok, right = t.children
        op = str(op_tok)
        lp, rp = self.node(left, d), self.node(right, d)
        # A written number compared with a rank is a rank: rank == 10.
        if lp[0] == RANK and rp[0] == NUM and rp[2] is not None:
            rp = self._as_rank(right, rp)
        elif rp[0] == RANK and lp[0] == NUM and lp[2] is not None:
            lp = self._as_rank(left, lp)
        lt, lf, _ = lp
        rt, rf, _ = rp
        if op in ("==", "!="):
            if lt != rt:
                raise self.err(t, f"cannot compare {_a(lt)} with {_a(rt)}")
        elif lt != NUM or rt != NUM:
            bad = lt if lt != NUM else rt
            raise self.err(t, f"'{op}' compares numbers, not {_a(bad)}")
        lc, rc = self.part(left, lp), self.part(right, rp)
        if lc is not None and rc is not None:
            self.emit(t, ast.Compare(lc, [_CMPOP[op]()], [rc]))
        return BOOL, _COMPARE[op](lf, rf, lp[2], rp[2]), None

    def _membership(self, t: Tree[Token], d: int, op: ast.cmpop) -> tuple[Fn, Fn | frozenset[Any]]:
        """The closures of both sides, or the set itself for a written list on the right."""
        left, right = t.children
        lp, rp = self.node(left, d), self.node(right, d)
        if not isinstance(rp[0], ListType):
            raise self.err(right, f"'in' needs a list, a range or a set on its right, not {_a(rp[0])}")
        item = rp[0].item
        if lp[0] == RANK and item == NUM:
            rp = self._rank_list(right, rp)
            item = RANK
        elif lp[0] == NUM and item == RANK:
            lp = self._as_rank(left, lp)
        if item != ANY and lp[0] != item:
            raise self.err(t, f"cannot look for {_a(lp[0])} in {_a(rp[0])}")
        lc = self.part(left, lp)
        if rp[2] is not None:
            written = frozenset(rp[2])
            if lc is not None:
                self.emit(t, ast.Compare(lc, [op], [self.gen.name(written)]))
            return lp[1], written
        rc = self.part(right, rp)
        if lc is not None and rc is not None:
            self.emit(t, ast.Compare(lc, [op], [rc]))
        return lp[1], rp[1]

    def _rank_list(self, t: Tree[Token] | Token, part: tuple[Type, Fn, Any]) -> tuple[Type, Fn, Any]:
        if part[2] is None:
            raise self.err(t, "a rank can only be looked for in a written list of ranks")
        ranks = tuple(self._as_rank(t, (NUM, part[1], v))[2] for v in part[2])
        return list_of(RANK), (lambda ctx: ranks), ranks

    def n_in_(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        lf, rf = self._membership(t, d, ast.In())
        if isinstance(rf, frozenset):
            return BOOL, (lambda ctx: lf(ctx) in rf), None
        return BOOL, (lambda ctx: lf(ctx) in rf(ctx)), None

    def n_not_in(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        lf, rf = self._membership(t, d, ast.NotIn())
        if isinstance(rf, frozenset):
            return BOOL, (lambda ctx: lf(ctx) not in rf), None
        return BOOL, (lambda ctx: lf(ctx) not in rf(ctx)), None

    def n_where(self, t: Tree[Token], d: int) -> tuple[Type, Fn, Any]:
        base = self.node(t.children[0], d)
        base_t, base_f, _ = base
        if not isinstance(base_t, ListType) or base_t.item not in (PLAYER, CARD):
            raise self.err(t.children[0], f"'where' filters a set of players or cards, not {_a(base_t)}")
        x = self.gen.loop_var()
        self.items.append(base_t.item)
        self.item_vars.append(x)
        try:
            cond_part = self._bool_part(t.children[1], d, "where")
            # The condition is generated whole or not at all: its closures would read ctx.items.
            cond_code = self.part(t.children[1], cond_part, embed=False)
        finally:
            self.items.pop()
            self.item_vars.pop()
        cond = cond_part[1]
        base_code = self.iterable(t.children[0], base)
        if base_code is not None and cond_code is not None:
            self.emit(t, self.gen.tuple_of_list(self.gen.var(x), x, base_code, cond_code))

        def filtered(ctx: Any) -> tuple[Any, ...]:
            out = []
            base = base_f(ctx)
            stack = ctx.items
            stack.append(None)
            try:
                for x in base:
                    stack[-1] = x
                    if cond(ctx):
                        out.append(x)
            finally:
                stack.pop()
            return tuple(out)
        return base_t, filtered, None
