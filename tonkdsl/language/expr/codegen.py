"""One straight-line Python function per expression, built from a syntax tree, never from text.

The compiler (compiler.py) turns each part of an expression into a closure; evaluating
``others where count <= dropper.count`` then calls a closure per operator, per name and per
attribute read, six Python calls for each player filtered. Alongside the closures the compiler
describes each part as a node of Python's own syntax tree (:mod:`ast`); this module joins them into
one function ``_expr(ctx)`` and compiles it once, when the ruleset loads. The getters of names
stay what they are (the game's functions); the operators, comparisons, filters, lists and literals
between them become plain Python inside one frame (payout and condition evaluation about twice
as fast, see docs/simulate.md).

Why it is safe on hostile files: nothing of the ruleset's text ever becomes source code or a
name in the generated function. The tree is built node by node; a number or a rank written in the
ruleset enters it only as a constant (``ast.Constant``) after the compiler has checked it, and every
other object (getters, their tables, helpers, written lists) is bound under a name this module makes up
(``_k0``, ``_k1``, ...), in a namespace with no built-ins. The results are the closures' own: the
same operations in the same order, through the same checked helpers (``_check_num``, ``_div``,
...), raising the same errors.
"""
from __future__ import annotations

import ast
from typing import Any, Callable

Fn = Callable[[Any], Any]

_CTX = "ctx"
_UNSET = object()  # a memo not yet worked out (see CodeGen.memo)


class CodeGen:
    """The objects one expression's function refers to, and the builders of its parts."""

    def __init__(self) -> None:
        self.bound: dict[str, Any] = {}
        self._ids: dict[int, str] = {}
        self._loop = 0
        self._memos: list[str] = []

    def name(self, obj: Any) -> ast.expr:
        """A reference to ``obj`` (a getter, a helper, a written list), bound once."""
        key = self._ids.get(id(obj))
        if key is None:
            key = self._ids[id(obj)] = f"_k{len(self.bound)}"
            self.bound[key] = obj
        return ast.Name(key, ast.Load())

    @staticmethod
    def ctx() -> ast.expr:
        return ast.Name(_CTX, ast.Load())

    @staticmethod
    def constant(value: int | bool | str) -> ast.expr:
        return ast.Constant(value)

    def read(self, path: tuple[str, ...], at: ast.expr | None = None) -> ast.expr:
        """``ctx.path[0].path[1]...``, then ``[at]`` when given: a getter's own reads in line. The
        attribute names are the game's (names.py), never the file's."""
        node: ast.expr = self.ctx()
        for attr in path:
            node = ast.Attribute(node, attr, ast.Load())
        return node if at is None else ast.Subscript(node, at, ast.Load())

    def lookup(self, table: Any, key: tuple[tuple[str, ...], ...]) -> ast.expr:
        """``table[(ctx.a.b, ctx.c, ...)]``, ``table`` bound: a getter's table looked up in line."""
        return ast.Subscript(self.name(table), ast.Tuple([self.read(path) for path in key], ast.Load()), ast.Load())

    def call(self, fn: Any, *args: ast.expr) -> ast.expr:
        """``fn(*args)``, ``fn`` bound."""
        return ast.Call(self.name(fn), list(args), [])

    def closure(self, fn: Fn) -> ast.expr:
        """A part left as its closure: ``fn(ctx)``."""
        return self.call(fn, self.ctx())

    def loop_var(self) -> str:
        """A fresh name for the item of a comprehension (``_i0``, ``_i1``, ...)."""
        self._loop += 1
        return f"_i{self._loop - 1}"

    @staticmethod
    def var(name: str) -> ast.expr:
        return ast.Name(name, ast.Load())

    @staticmethod
    def tuple_of_list(elt: ast.expr, var: str, iterable: ast.expr, cond: ast.expr | None = None) -> ast.expr:
        """``tuple([elt for var in iterable if cond])``, as the closures build their tuples."""
        comp = ast.comprehension(ast.Name(var, ast.Store()), iterable, [cond] if cond is not None else [], 0)
        return ast.Call(ast.Name("_tuple", ast.Load()), [ast.ListComp(elt, [comp])], [])

    def memo(self, code: ast.expr) -> ast.expr:
        """``code`` evaluated once per evaluation of the expression, where it is first needed: a
        part of a 'where' condition that does not read the item (``min_count`` in ``players where
        count > min_count``) is then not worked out again for each item. Once, and at that very point,
        so that it gives what the closures give, errors included (the getters only read the game)."""
        var = f"_h{len(self._memos)}"
        self._memos.append(var)
        known = ast.Compare(ast.Name(var, ast.Load()), [ast.IsNot()], [ast.Name("_UNSET", ast.Load())])
        return ast.IfExp(known, ast.Name(var, ast.Load()), ast.NamedExpr(ast.Name(var, ast.Store()), code))

    def build(self, body: ast.expr) -> Fn:
        """Compile ``def _expr(ctx): return body`` and return the function."""
        args = ast.arguments(posonlyargs=[], args=[ast.arg(_CTX)], vararg=None, kwonlyargs=[], kw_defaults=[],
                             kwarg=None, defaults=[])
        unset: list[ast.stmt] = [ast.Assign([ast.Name(var, ast.Store())], ast.Name("_UNSET", ast.Load()))
                                 for var in self._memos]
        func = ast.FunctionDef(name="_expr", args=args, body=[*unset, ast.Return(body)], decorator_list=[],
                               returns=None)
        module = ast.fix_missing_locations(ast.Module([func], []))
        namespace: dict[str, Any] = {"__builtins__": {}, "_tuple": tuple, "_UNSET": _UNSET, **self.bound}
        exec(compile(module, "<tonkdsl expression>", "exec"), namespace)  # noqa: S102 - a tree we built, see above
        fn: Fn = namespace["_expr"]
        return fn
