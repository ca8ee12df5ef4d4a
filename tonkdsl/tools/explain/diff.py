"""``tonk diff A B``: how two rulesets differ, in plain words, each with its YAML path.

The merged data of both rulesets are compared key by key (lists of entries with an ``id`` entry
by entry). Each difference is phrased from the schema: a boolean key can carry its own wording
(``x-when-true`` / ``x-when-false``), automatic wins and payouts are read out with the
expression reader, and anything else is "<description>: <old> -> <new>".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from tonkdsl.language.diagnostics import json_path
from tonkdsl.language.merge import is_id_list
from tonkdsl.language.schema_check import schema_at
from tonkdsl.interpreter.rules import rule_at
from tonkdsl.tools.explain.words import READER, amount, payment, players, pot_words, words


@dataclass(frozen=True)
class Difference:
    path: str
    text: str


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    return str(v)


def _label(path: tuple[Any, ...]) -> str:
    desc = str(schema_at(path, resolve_last=False).get("description", ""))
    if not desc:
        return ".".join(str(p) for p in path)
    for cut in (" (", "; ", ": ", ". "):
        desc = desc.split(cut)[0]
    return desc.rstrip(".")


def _entry(kind: str, item: dict[str, Any], stake: int, path: tuple[Any, ...], pots: Sequence[str] = ()) -> str:
    if kind == "score":  # "boxes: every player adds minus 5 x ... to their score"
        who, cond = players(str(item.get("players", "?")))
        conds = ([cond] if cond else []) + ([words(str(item["when"]))] if item.get("when") is not None else [])
        return (f"{item['id']}: {who} adds {words(str(item.get('points', '?')), 'scored')} to their score"
                + (f" when {' and '.join(conds)}" if conds else ""))
    if kind == "side_pot":
        ante = item.get("ante")
        return f"{pot_words(item['id'], [item['id']])}" + (f", each player antes {amount(str(ante), stake)}"
                                                           if ante is not None else "")
    if kind == "deal_win":
        pays = amount(str(item.get("pays", "?")), stake)
        return f"{item['id']}: {words(str(item.get('when', '')))}, paid {pays}"
    if kind in ("transfer", "bonus"):
        said, conds = payment(str(item.get("from", "?")), str(item.get("to", "?")), str(item.get("amount", "?")), stake,
                              item.get("split"), pots)
        if item.get("when") is not None:  # the entry's own condition, then those of its sets
            conds = [words(str(item["when"])), *conds]
        on = "" if kind == "transfer" else f" on {item.get('on', '?')}"
        if item.get("on") == "claim":  # a claim that reads 'spread' claims for the spread laid last this turn
            on = (" when claimed for the spread laid last this turn"
                  if re.search(r"\bspread\b", f"{item.get('when', '')} {item.get('amount', '')}") else " when claimed")
        return f"{item['id']}{on}: {said}" + (f" when {' and '.join(conds)}" if conds else "")
    if kind == "custom":
        return f"{item['id']}: \"{item.get('text', '')}\""
    construct = rule_at(path)  # a construct's list says its entries itself (tonkdsl/interpreter/rules/)
    told = construct.entry_words(item, READER) if construct is not None else None
    return told if told is not None else f"{item['id']}"


def _entry_name(kind: str, path: tuple[Any, ...]) -> str:
    construct = rule_at(path)
    return construct.entry_name if construct is not None and construct.entry_name else _ENTRY_NAME[kind]


def _kind(path: tuple[Any, ...]) -> str:
    if path[:2] == ("deal_wins", "rules"):
        return "deal_win"
    if path == ("table_customs",):
        return "custom"
    if path == ("bonuses",):
        return "bonus"
    if path == ("side_pots",):
        return "side_pot"
    if path == ("session", "bonuses") or (len(path) == 3 and path[0] == "endings" and path[2] == "scores"):
        return "score"
    if len(path) >= 3 and path[0] == "endings" and path[2] == "payouts":
        return "transfer"
    return "entry"


_ENTRY_NAME = {"deal_win": "Automatic win", "transfer": "Payout", "entry": "Entry",
               "custom": "Custom at a physical table", "bonus": "Bonus paid at once", "side_pot": "Side pot",
               "score": "Score entry"}


def diff(a: dict[str, Any], b: dict[str, Any], stake: int = 1) -> list[Difference]:
    out: list[Difference] = []
    # The side pots' names on either side: payments name them as they name 'pot'.
    pots = sorted({str(e["id"]) for d in (a, b) for e in (d.get("side_pots") or [])
                   if isinstance(e, dict) and "id" in e})

    def walk(x: Any, y: Any, path: tuple[Any, ...]) -> None:
        if isinstance(x, dict) and isinstance(y, dict) or _said_key_by_key(path, x, y, stake):
            x, y = ({} if v is _MISSING else v for v in (x, y))
            for key in list(x) + [k for k in y if k not in x]:
                if path == () and key in ("extends", "remove"):
                    continue
                walk(x.get(key, _MISSING), y.get(key, _MISSING), path + (key,))
            return
        # A list of entries with ids on one side and nothing (or an empty list) on the other is
        # said entry by entry ("Payout removed: ..."), never as raw YAML.
        if (is_id_list(x) or is_id_list(y)) and all(is_id_list(v) or v is _MISSING or v == [] for v in (x, y)):
            x, y = (v if is_id_list(v) else [] for v in (x, y))
            xs, ys = {e["id"]: e for e in x}, {e["id"]: e for e in y}
            kind = _kind(path)
            for i, e in enumerate(x):
                if e["id"] not in ys:
                    out.append(Difference(json_path(path + (i,)), f"{_entry_name(kind, path)} removed: {_entry(kind, e, stake, path, pots)}"))
            for j, e in enumerate(y):
                if e["id"] not in xs:
                    out.append(Difference(json_path(path + (j,)), f"{_entry_name(kind, path)} added: {_entry(kind, e, stake, path, pots)}"))
                else:
                    before = len(out)
                    walk(xs[e["id"]], e, path + (j,))
                    if len(out) > before and kind != "entry":
                        for k in range(before, len(out)):
                            out[k] = Difference(out[k].path, f"{_entry_name(kind, path)} {e['id']}: {out[k].text}")
            return
        if x == y:
            return
        said = _say(path, x, y, stake)
        if said is not None:
            out.append(Difference(json_path(path), said))
            return
        label = _label(path)
        node = schema_at(path)
        if isinstance(y, bool) and ("x-when-true" in node or "x-when-false" in node):
            out.append(Difference(json_path(path), node["x-when-true" if y else "x-when-false"]))
        elif x is _MISSING:
            out.append(Difference(json_path(path), f"Added: {label}{_said(path, y, stake)}"))
        elif y is _MISSING:
            out.append(Difference(json_path(path), f"Removed: {label} (was {_said(path, x, stake)[2:].lstrip()})"))
        elif isinstance(y, bool) and ("x-when-true" in node or "x-when-false" in node):
            out.append(Difference(json_path(path), node["x-when-true" if y else "x-when-false"]))
        elif path and path[-1] in (*_CONDITION_KEYS, "winners", "from", "to"):
            out.append(Difference(json_path(path), f"{_cap(label)}: {words(str(x))} -> {words(str(y))}"))
        elif path and path[-1] in ("pays", "amount", "points"):
            out.append(Difference(json_path(path), f"{_cap(label)}: {amount(str(x), stake)} -> {amount(str(y), stake)}"))
        else:
            out.append(Difference(json_path(path), f"{_cap(label)}: {_show(x)} -> {_show(y)}"))

    walk(a, b, ())
    return out


def _said_key_by_key(path: tuple[Any, ...], x: Any, y: Any, stake: int) -> bool:
    """Whether a table added or removed whole is said key by key: when it holds a condition
    (said in words: "Added: When a player may lay a spread in play: ..."), no sentence says it
    whole, and each of its keys has a description to say it by."""
    v = x if y is _MISSING else y if x is _MISSING else None
    if path == ("session",) and isinstance(v, dict):
        return True  # its keys are each said in words (a match's end, score columns, bonuses...)
    if not isinstance(v, dict) or not set(_CONDITION_KEYS).intersection(v) or _say(path, x, y, stake) is not None:
        return False
    props = schema_at(path).get("properties") or {}
    return all(k in props and schema_at(path + (k,), resolve_last=False).get("description") for k in v)


_CONDITION_KEYS = ("when", "allowed", "wins_if", "void_if", "except", "claim", "must_take")


def _said(path: tuple[Any, ...], v: Any, stake: int) -> str:
    """A value added or removed, after its label: in words where it is a condition or an
    amount (": the player has laid ..."), else as written (" = 3")."""
    if path and path[-1] in (*_CONDITION_KEYS, "winners", "from", "to") and isinstance(v, (str, bool)):
        return ": " + words(str(v).lower() if isinstance(v, bool) else v)
    if path == ("players", "sides") and isinstance(v, dict) and isinstance(v.get("size"), int):
        return (f": the players play in sides of {v['size']}, partners sitting apart; partners never pay "
                "each other, and a side keeps one total")
    if path and path[-1] in ("pays", "amount", "points") and isinstance(v, (str, int)):
        return ": " + amount(str(v), stake)
    return " = " + _show(v)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _decks(v: Any) -> str:
    if v is _MISSING or v == 1:
        return "one deck"
    if isinstance(v, int):
        return f"{v} decks shuffled together"
    return "; ".join(f"{e['decks']} deck{'s' if e['decks'] != 1 else ''} up to {e['up_to']} players" for e in v)


def _counts(v: Any) -> str:
    if isinstance(v, list):
        return " or ".join(map(str, v)) + ", the holder's choice"
    return "its own value" if v == "own" or v is _MISSING else str(v)


def _say(path: tuple[Any, ...], x: Any, y: Any, stake: int = 1) -> str | None:
    """Keys whose change reads better in words of its own than as '<description>: old -> new'."""
    if path == ("pack", "decks"):
        return f"Decks: {_decks(x)} -> {_decks(y)}"
    if len(path) == 3 and path[:2] == ("pack", "values"):
        card = path[2]
        if x is _MISSING:
            return f"{card} now counts {_counts(y)}"
        if y is _MISSING:
            return f"{card} no longer has a value of its own (it counted {_counts(x)})"
        return f"{card} counts {_counts(x)} -> {_counts(y)}"
    if path == ("pack", "wild_value"):
        return f"A wild card held in hand counts {_counts(x)} -> {_counts(y)}"
    if path == ("pack", "run_order") and isinstance(y, list):
        both = [str(r) for r in dict.fromkeys(y) if y.count(r) == 2]
        if both and len(y) >= 3:  # shorter: no three places to show (the generic wording says it)
            return (f"{' and '.join(both)} is now high or low in runs ({y[0]}-{y[1]}-{y[2]} and "
                    f"{y[-3]}-{y[-2]}-{y[-1]} are runs, {y[-2]}-{y[-1]}-{y[1]} is not)")
        return None
    if len(path) == 3 and path[0] == "endings" and path[2] == "void_if":
        def void(v: Any) -> str:
            if v is _MISSING or str(v).strip().lower() == "false":
                return "never dead"
            return "always dead" if str(v).strip().lower() == "true" else f"dead when {words(str(v))}"
        return f"{path[1].replace('_', ' ').capitalize()}: the hand is {void(x)} -> {void(y)}"
    if path == ("turn", "drop", "at"):
        moments = {"start": "at the start of the turn", "before_discard": "after drawing, before the discard",
                   "instead_of_discard": "after drawing, instead of the discard"}

        def at(v: Any) -> str:
            return " or ".join(moments.get(str(m), str(m)) for m in (["start"] if v is _MISSING else v))
        return f"A drop may be made {at(x)} -> {at(y)}"
    construct = rule_at(path)
    if construct is not None:  # a construct whose key is one value says its change itself
        told = construct.changed(None if x is _MISSING else x, None if y is _MISSING else y)
        if told is not None:
            return told
    if path == ("stock", "rebuild"):
        def times(v: Any) -> str:
            return ("never" if v is _MISSING or v == 0 else "every time it runs out" if v == "always" else
                    "once a hand" if v == 1 else f"up to {v} times a hand")
        return f"An empty stock is rebuilt from the discard pile {times(x)} -> {times(y)}"
    if path == ("stock", "rebuild_takes"):
        def takes(v: Any) -> str:
            return "the whole pile" if v == "whole_pile" else "the pile but its top card"
        return f"A rebuilt stock takes {takes(x)} -> {takes(y)}"
    if path == ("turn", "first_turn"):
        def first(v: Any) -> str:
            return "without a draw (spreads and the discard)" if v == "no_draw" else "with a draw"
        return f"The first turn starts {first(x)} -> {first(y)}"
    if path == ("turn", "first_player"):
        def who(v: Any) -> str:
            return "the dealer's left" if v is _MISSING or v == "dealer_left" else words(str(v))
        return f"Play starts at {who(x)} -> {who(y)}"
    if path == ("deal", "extra_cards"):
        def extra(v: Any) -> str:
            if v is _MISSING or not v:
                return "every player the same number of cards"
            return "; ".join(f"{words(str(e.get('to')))} {e.get('cards'):+d} card(s)" for e in v)
        return f"The deal: {extra(x)} -> {extra(y)}"
    if path == ("session", "columns"):
        def kept(v: Any) -> str:
            if v is _MISSING or not isinstance(v, dict):
                return "one score column"
            return f"{v.get('count')} score columns side by side, each closed when {words(str(v.get('ends_when')))}"
        return f"Score columns: {kept(x)} -> {kept(y)}"
    if path == ("deal", "face_up"):
        def shown(v: Any) -> str:
            if v is _MISSING or not v:
                return "every card face down"
            return "; ".join(f"the last {e.get('cards', 1)} card(s) dealt to {words(str(e.get('to')))} face up"
                             for e in v)
        return f"The deal: {shown(x)} -> {shown(y)}"
    if path == ("deal", "next_dealer"):
        def nxt(v: Any) -> str:
            if v is _MISSING or not v:
                return "the deal passes on"
            return "; ".join(f"after {' or '.join(e.get('after') or ['any hand'])}: {words(str(e.get('dealer')))}"
                             for e in v)
        return f"Who deals next: {nxt(x)} -> {nxt(y)}"
    if path[:2] == ("turn", "eat") and len(path) == 2:
        def eat(v: Any) -> str:
            if v is _MISSING:
                return "no eating"
            once = ", spread at once" if v.get("spread_at_once") else ""
            allowed = str(v.get("allowed")).strip()
            who = "by any player" if allowed in ("true", "True") else f"when {words(allowed)}"
            return f"eating the last discard out of turn {who}{once}"
        return f"{eat(x)} -> {eat(y)}"
    if path in (("session", "ends_when"), ("session", "eliminate_when")):
        what = "The match ends after a hand where" if path[1] == "ends_when" else "A player is out of the match when"
        def cond(v: Any) -> str:
            return "(no such rule)" if v is _MISSING else words(str(v))
        return f"{what}: {cond(x)} -> {cond(y)}"
    if path == ("pot",) or path == ("pot", "ante"):
        def ante(v: Any) -> str:
            if v is _MISSING:
                return "no pot"
            return f"a pot, each player antes {words(str(v.get('ante') if isinstance(v, dict) else v))}"
        return f"{ante(x)} -> {ante(y)}"
    if path == ("limits",):
        def lims(v: Any) -> str:
            if v is _MISSING or not v:
                return "no limit"
            parts = []
            if "most_lost" in v:
                parts.append(f"a player loses at most {amount(str(v['most_lost']), stake)}")
            if "most_won" in v:
                parts.append(f"wins at most {amount(str(v['most_won']), stake)}")
            return ", ".join(parts)
        return f"The ending of one hand: {lims(x)} -> {lims(y)}"
    if path[:1] == ("limits",) and len(path) == 2:
        what = "The most one hand costs a player" if path[1] == "most_lost" else "The most a player wins from one hand"
        def lim(v: Any) -> str:
            return "no limit" if v is _MISSING else amount(str(v), stake)
        return f"{what}: {lim(x)} -> {lim(y)}"
    if path[:1] == ("melds",) and path[-1] in ("min_natural", "max_wild") and len(path) <= 3:
        what = "A spread" if len(path) == 2 else f"A {path[1]}"
        if path[-1] == "min_natural":
            return f"{what} holds at least {0 if x is _MISSING else x} -> {0 if y is _MISSING else y} natural cards"

        def limit(v: Any) -> str:
            return "any number of" if v is _MISSING or v is None else f"at most {v}"
        return f"{what} holds {limit(x)} -> {limit(y)} wild cards"
    return None


class _Missing:
    def __repr__(self) -> str:  # pragma: no cover
        return "<missing>"


_MISSING: Any = _Missing()


def in_words(path: tuple[Any, ...], value: Any, stake: int = 1) -> str:
    """The key at ``path`` set to ``value``, as ``tonk diff`` says it: its label from the
    reference, then the value in words where it is a condition or an amount."""
    return _cap(_label(path)) + ("" if isinstance(value, (dict, list)) else _said(path, value, stake))

