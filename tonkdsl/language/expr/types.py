"""Types of the expression language and the tables of names it may use.

A name is looked up in a table, never on a Python object: the only things an expression can
reach are those the engine lists in :class:`Names` (value getters written by the engine).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class Type:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ListType(Type):
    item: Type


NUM = Type("number")
BOOL = Type("boolean")
RANK = Type("rank")
SUIT = Type("suit")
CARD = Type("card")
PLAYER = Type("player")
ANY = Type("anything")


def plural(t: Type) -> str:
    """'numbers', 'players', 'lists of numbers' (never 'numberss')."""
    if isinstance(t, ListType):
        return f"lists of {plural(t.item)}" if t.item not in (PLAYER, CARD) else f"sets of {t.name}"
    return {ANY: "values"}.get(t, f"{t.name}s")


def list_of(item: Type) -> ListType:
    name = {PLAYER: "players", CARD: "cards"}.get(item, f"list of {plural(item)}")
    return ListType(name, item)


# A getter for a global name receives the evaluation context; an attribute getter receives the
# context and the object (a seat number for a player, a card id for a card).
GlobalGetter = Callable[[Any], Any]
AttrGetter = Callable[[Any, Any], Any]


@dataclass
class Names:
    """What an expression may name in one place of a ruleset.

    ``globals``: names such as ``stake`` or ``dropper``; ``subject``: when set, the bare
    attributes of that player (``count`` means the checked player's count); ``attrs``: the
    attributes of each object type (``dropper.count``, ``card.rank``).
    """

    globals: dict[str, tuple[Type, GlobalGetter]] = field(default_factory=dict)
    attrs: dict[Type, dict[str, tuple[Type, AttrGetter]]] = field(default_factory=dict)
    subject: tuple[Type, GlobalGetter] | None = None
    # Names that exist in other places of a ruleset but not here: better messages.
    elsewhere: dict[str, str] = field(default_factory=dict)
    # Functions that need the game (e.g. seating order): name -> (argument type, result type,
    # implementation taking the context and the argument's value).
    functions: dict[str, tuple[Type, Type, Callable[[Any, Any], Any]]] = field(default_factory=dict)
    # Getters that only read the context's attributes, by their path (``("state", "stake")``:
    # ``ctx.state.stake``; an attribute's getter reads the last one at the player or card:
    # ``ctx.state.hand_value[p]``), for the generated function to read them in line, with no call.
    reads: dict[Any, tuple[str, ...]] = field(default_factory=dict)
    # Getters whose value is a table's entry for a key of such reads (``others``: the table of
    # player lists by number of players, actor and folded players), by their table and the
    # key's paths: the generated function looks the entry up in line (``table[(a, b, c)]``).
    lookups: dict[Any, tuple[Any, tuple[tuple[str, ...], ...]]] = field(default_factory=dict)
