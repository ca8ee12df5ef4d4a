"""The expression language: parse (Lark), type-check and compile to closures, once."""
from tonkdsl.language.expr.compiler import Compiled, ExprError, compile_expr
from tonkdsl.language.expr.types import BOOL, CARD, NUM, PLAYER, RANK, SUIT, ListType, Names, Type, list_of

__all__ = [
    "BOOL", "CARD", "NUM", "PLAYER", "RANK", "SUIT", "Compiled", "ExprError", "ListType", "Names",
    "Type", "compile_expr", "list_of",
]
