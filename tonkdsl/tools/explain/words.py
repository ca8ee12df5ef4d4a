"""Expressions in words: ``count in [49, 50]`` -> "a count of 49 or 50".

The renderer walks the same Lark tree the compiler uses, so every expression a ruleset can
hold has a reading; unusual shapes fall back to the expression itself in quotes.
"""
from __future__ import annotations

from typing import Any

from lark import Token, Tree

from tonkdsl.language.expr.compiler import ExprError, parse

_ROLE = {"actor": "the player", "self": "the player", "dropper": "the dropper", "payer": "the payer",
         "payee": "the payee", "owner": "the spread's owner", "scored": "the player", "dealer": "the dealer"}
_SETS = {"players": "every player", "others": "every other player", "lowest": "the player(s) with the lowest count",
         "hand": "the cards in hand", "spread": "the cards of the spread", "winners": "the winners of the hand"}
_NUMS = {"pot": "the pot", "stake": "the stake", "min_count": "the lowest count", "num_players": "the number of players",
         "stock": "the cards left in the stock", "turn": "the turn number", "round": "the round number",
         "spreads_on_table": "the spreads on the table", "discards": "the cards in the discard pile"}
_ATTRS = {"count": "count", "cards": "number of cards", "dealt_count": "count as dealt", "spreads": "spreads laid",
          "spreads_this_turn": "spreads laid this turn", "hits": "cards hit onto spreads", "turns": "turns",
          "seat": "seat", "rank": "rank", "suit": "suit", "value": "value", "hand": "hand",
          "low_count": "lowest total", "high_count": "highest total", "totals": "possible totals",
          "deadwood_count": "deadwood count", "total": "total", "payout": "payout this hand"}
# Functions over cards: how each reads, given its argument in words.
_CARD_CALLS = {"is_book": "{} make a book", "is_run": "{} make a run", "largest_book": "the largest book in {}",
               "longest_run": "the longest run in {}", "deadwood": "the cards of {} left out of spreads",
               "max_same_rank": "the most cards of one rank in {}", "max_same_suit": "the most cards of one suit in {}"}
_BOOL_ATTRS = {"out_by_spread": "emptied the hand with a new spread", "is_dealer": "is the dealer",
               "deal_win": "holds an automatic win", "is_wild": "is wild", "is_joker": "is a joker"}
_JOIN = {"and_": " and ", "or_": ", or ", "in_": " is ", "not_in": " is not "}
# Membership in a set (the cards in hand, the other players) rather than in written values.
_AMONG = {"in_": " is among ", "not_in": " is not among "}
# A yes-or-no attribute that filters a set: "the cards in hand that are jokers".
_FILTER = {"is_joker": "that are jokers", "is_wild": "that are wild", "is_dealer": "who is the dealer",
           "deal_win": "who holds an automatic win", "out_by_spread": "who emptied the hand with a new spread"}
_CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least"}


def words(source: str) -> str:
    """The expression in words, or the expression quoted when it cannot be read."""
    if str(source).strip() == "pot":  # a payout's side: the pot itself
        return "the pot"
    try:
        tree = parse(str(source))
    except ExprError:
        return f"'{source}'"
    try:
        return _w(tree)
    except (ValueError, KeyError, IndexError):
        return f"'{source}'"


# How tightly each construct binds (the grammar's precedence, loosest first): a part that binds
# more loosely than the operator around it is put in parentheses, so the words keep the grouping.
_PREC = {"where": 0, "or_": 1, "and_": 2, "not_": 3, "compare": 4, "in_": 4, "not_in": 4, "range": 5,
         "add": 6, "sub": 6, "mul": 7, "div": 7, "mod": 7, "neg": 8, "pow": 9}
# On the right, a part as tight as the operator keeps its parentheses unless regrouping changes
# nothing: a + (b - c) is a + b - c, but a - (b - c), a * (b / c) (whole numbers) are not.
_REGROUPS = {("add", "add"), ("add", "sub"), ("mul", "mul"), ("and_", "and_"), ("or_", "or_")}


def _prec(t: Tree[Token] | Token) -> int:
    return _PREC.get(str(t.data), 10) if isinstance(t, Tree) else 10


def _part(t: Tree[Token] | Token, parent: str, subject: str, right: bool = False) -> str:
    """A part of an operator's expression in words, in parentheses when it binds more loosely."""
    text = _w(t, subject)
    mine, theirs = _prec(t), _PREC[parent]
    kind = str(t.data) if isinstance(t, Tree) else ""
    same = mine == theirs and kind != ""
    if mine < theirs or (same and right and (parent, kind) not in _REGROUPS) or (
            same and not right and parent == "pow"):
        return f"({text})"
    return text


def _w(t: Tree[Token] | Token, subject: str = "the player") -> str:
    if isinstance(t, Token):
        return str(t)
    d = str(t.data)
    c = t.children
    if d == "number":
        return str(c[0])
    if d in ("true", "false"):
        return "always" if d == "true" else "never"
    if d == "symbol":
        return str(c[0])
    if d == "name":
        n = str(c[0])
        if n in _ROLE:
            return _ROLE[n]
        if n in _SETS:
            return _SETS[n]
        if n in _NUMS:
            return _NUMS[n]
        if n in _BOOL_ATTRS:
            return f"{subject} {_BOOL_ATTRS[n]}".strip()
        return f"{subject}'s {_ATTRS.get(n, n)}" if subject else _ATTRS.get(n, n)
    if d == "attr":
        base, attr = c[0], str(c[1])
        owner = _w(base, subject)
        if attr in _BOOL_ATTRS:
            return f"{owner} {_BOOL_ATTRS[attr]}"
        noun = _ATTRS.get(attr, attr)
        if owner.startswith(("every", "the player(s)")):
            return f"the {noun}s of {owner}"
        return f"{owner}'s {noun}"
    if d == "list":
        items = [_w(x, subject) for x in c]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
    if d == "range":
        return f"{_w(c[0], subject)} to {_w(c[1], subject)}"
    if d in ("add", "sub", "mul", "div", "mod", "pow"):
        sym = {"add": "+", "sub": "-", "mul": "x", "div": "/", "mod": "mod", "pow": "^"}[d]
        return f"{_part(c[0], d, subject)} {sym} {_part(c[1], d, subject, right=True)}"
    if d == "neg":
        return f"minus {_part(c[0], d, subject)}"
    if d == "not_":
        inner = _w(c[0], subject)
        return f"not {inner}" if " " not in inner or str(getattr(c[0], "data", "")) == "name" else f"not ({inner})"
    if d in _AMONG and not (isinstance(c[1], Tree) and str(c[1].data) in ("list", "range")):
        return f"{_part(c[0], d, subject)}{_AMONG[d]}{_part(c[1], d, subject, right=True)}"
    if d in _JOIN:
        return f"{_part(c[0], d, subject)}{_JOIN[d]}{_part(c[1], d, subject, right=True)}"
    if d == "compare":
        return f"{_part(c[0], d, subject)} {_CMP[str(c[1])]} {_part(c[2], d, subject, right=True)}"
    if d == "where":
        cond = c[1]
        if isinstance(cond, Tree) and str(cond.data) == "name" and str(cond.children[0]) in _FILTER:
            return f"{_w(c[0], subject)} {_FILTER[str(cond.children[0])]}"
        return f"{_w(c[0], subject)} whose {_w(c[1], '')}"
    if d == "call":
        fname = str(c[0])
        arg = _w(c[1], subject) if len(c) > 1 else ""
        if fname in _CARD_CALLS:
            return _CARD_CALLS[fname].format("the hand" if arg == _SETS["hand"] else arg)
        return {"count": f"the number of {arg}", "sum": f"the total of {arg}", "min": f"the lowest of {arg}",
                "max": f"the highest of {arg}", "any": f"any of {arg}", "all": f"all of {arg}",
                "abs": f"the size of {arg}", "nearest_left": f"the one of {arg} nearest the dealer's left"}[fname]
    raise ValueError(d)


def amount(source: str, stake: int) -> str:
    """An amount in words, worked out for ``stake`` when it depends on nothing else."""
    text = str(source).strip()
    if text == "pot":
        return "all the pot holds"
    try:
        tree = parse(text)
    except ExprError:
        return f"'{text}'"
    value = _fold(tree, stake)
    if value is not None:
        return f"{value} ({text})" if text not in (str(value),) else str(value)
    return words(text)


def _fold(t: Any, stake: int) -> int | None:
    if isinstance(t, Token):
        return None
    d = str(t.data)
    if d == "number":
        return int(str(t.children[0]))
    if d == "name" and str(t.children[0]) == "stake":
        return stake
    if d in ("add", "sub", "mul"):
        a, b = _fold(t.children[0], stake), _fold(t.children[1], stake)
        if a is None or b is None:
            return None
        return a + b if d == "add" else a - b if d == "sub" else a * b
    return None
