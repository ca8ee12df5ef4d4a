"""``tonk diff A B``: how two rulesets differ, in plain words, each with its YAML path.

The merged data of both rulesets are compared key by key (lists of entries with an ``id`` entry
by entry). Each difference is phrased from the schema: a boolean key can carry its own wording
(``x-when-true`` / ``x-when-false``), automatic wins and payouts are read out with the
expression reader, and anything else is "<description>: <old> -> <new>".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tonkdsl.diagnostics import json_path
from tonkdsl.explain.words import amount, words
from tonkdsl.merge import is_id_list
from tonkdsl.schema_check import load_schema


@dataclass(frozen=True)
class Difference:
    path: str
    text: str


def _schema_at(path: tuple[Any, ...], *, resolve_last: bool = True) -> dict[str, Any]:
    schema = load_schema()
    node: dict[str, Any] = schema
    for part in path:
        while "$ref" in node:
            node = _resolve(schema, node["$ref"])
        if isinstance(part, int) or (isinstance(part, str) and node.get("type") == "array"):
            node = node.get("items", {})
            if isinstance(part, int):
                continue
        while "$ref" in node:
            node = _resolve(schema, node["$ref"])
        props = node.get("properties", {})
        if isinstance(part, str) and part in props:
            node = props[part]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return {}
    if resolve_last and "description" not in node:
        while "$ref" in node:
            node = _resolve(schema, node["$ref"])
    return node


def _resolve(schema: dict[str, Any], ref: str) -> dict[str, Any]:
    node: Any = schema
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    result: dict[str, Any] = node
    return result


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    return str(v)


def _label(path: tuple[Any, ...]) -> str:
    desc = str(_schema_at(path, resolve_last=False).get("description", ""))
    if not desc:
        return ".".join(str(p) for p in path)
    for cut in (" (", "; ", ": ", ". "):
        desc = desc.split(cut)[0]
    return desc.rstrip(".")


def _entry(kind: str, item: dict[str, Any], stake: int) -> str:
    if kind == "deal_win":
        pays = amount(str(item.get("pays", "?")), stake)
        return f"{item['id']}: {words(str(item.get('when', '')))}, paid {pays}"
    if kind == "transfer":
        return (f"{item['id']}: {words(str(item.get('from', '?')))} pays {words(str(item.get('to', '?')))} "
                f"{amount(str(item.get('amount', '?')), stake)}")
    return f"{item['id']}"


def _kind(path: tuple[Any, ...]) -> str:
    if path[:2] == ("deal_wins", "rules"):
        return "deal_win"
    if len(path) >= 3 and path[0] == "endings" and path[2] == "payouts":
        return "transfer"
    return "entry"


_ENTRY_NAME = {"deal_win": "Automatic win", "transfer": "Payout", "entry": "Entry"}


def diff(a: dict[str, Any], b: dict[str, Any], stake: int = 1) -> list[Difference]:
    out: list[Difference] = []

    def walk(x: Any, y: Any, path: tuple[Any, ...]) -> None:
        if isinstance(x, dict) and isinstance(y, dict):
            for key in list(x) + [k for k in y if k not in x]:
                if path == () and key in ("extends", "remove"):
                    continue
                walk(x.get(key, _MISSING), y.get(key, _MISSING), path + (key,))
            return
        if is_id_list(x) and is_id_list(y):
            xs, ys = {e["id"]: e for e in x}, {e["id"]: e for e in y}
            kind = _kind(path)
            for i, e in enumerate(x):
                if e["id"] not in ys:
                    out.append(Difference(json_path(path + (i,)), f"{_ENTRY_NAME[kind]} removed: {_entry(kind, e, stake)}"))
            for j, e in enumerate(y):
                if e["id"] not in xs:
                    out.append(Difference(json_path(path + (j,)), f"{_ENTRY_NAME[kind]} added: {_entry(kind, e, stake)}"))
                else:
                    before = len(out)
                    walk(xs[e["id"]], e, path + (j,))
                    if len(out) > before and kind != "entry":
                        for k in range(before, len(out)):
                            out[k] = Difference(out[k].path, f"{_ENTRY_NAME[kind]} {e['id']}: {out[k].text}")
            return
        if x == y:
            return
        label = _label(path)
        node = _schema_at(path)
        if x is _MISSING:
            out.append(Difference(json_path(path), f"Added: {label} = {_show(y)}"))
        elif y is _MISSING:
            out.append(Difference(json_path(path), f"Removed: {label} (was {_show(x)})"))
        elif isinstance(y, bool) and ("x-when-true" in node or "x-when-false" in node):
            out.append(Difference(json_path(path), node["x-when-true" if y else "x-when-false"]))
        elif path and path[-1] in ("when", "allowed", "wins_if", "void_if", "winners", "from", "to"):
            out.append(Difference(json_path(path), f"{_cap(label)}: {words(str(x))} -> {words(str(y))}"))
        elif path and path[-1] in ("pays", "amount", "points"):
            out.append(Difference(json_path(path), f"{_cap(label)}: {amount(str(x), stake)} -> {amount(str(y), stake)}"))
        else:
            out.append(Difference(json_path(path), f"{_cap(label)}: {_show(x)} -> {_show(y)}"))

    walk(a, b, ())
    return out


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


class _Missing:
    def __repr__(self) -> str:  # pragma: no cover
        return "<missing>"


_MISSING: Any = _Missing()
