"""What ``tonk lsp`` tells an editor about a ruleset or scenario file being typed.

Plain functions of a file's path and its unsaved text, with no protocol in them (the server in
:mod:`tonkdsl.tools.lsp.server` turns their answers into LSP messages): the findings of
``tonk validate`` and static ``tonk lint``, the words of a rule or a name under the cursor, what
may be written at the cursor, where an inherited key is defined, and the fix of a "did you mean".
Each answer is the same as the command's: the same loader, the same table of names per place,
the same rules sheet. Lines and columns here are 0-based, in Python characters.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, Iterable

import yaml

from tonkdsl.language.cards import RANKS_STANDARD, SUITS_STANDARD
from tonkdsl.language.diagnostics import Diagnostic, LoadError
from tonkdsl.language.expr import ExprError, compile_expr
from tonkdsl.language.expr.types import ListType, Names, Type
from tonkdsl.language.loader import load_doc, load_ruleset, resolve_name
from tonkdsl.language.merge import Doc
from tonkdsl.language.names import CARD_ATTRS, CARD_SETS, FUNCTIONS, GLOBALS, PLAYER_ATTRS, ROLES
from tonkdsl.language.resources import shipped_ruleset_names
from tonkdsl.language.ruleset import Place, Ruleset, build, expression_places
from tonkdsl.language.schema_check import load_schema, schema_at
from tonkdsl.language.yamlsrc import Source, load_yaml_file, unsaved
from tonkdsl.tools.lsp.yamlpos import Spot, compose_typed, locate

PathPart = str | int
Pos = tuple[int, int]

SCENARIO_KEYS = frozenset({"ruleset", "actions", "deals", "expect", "hands", "session_hands"})

# The functions every place knows (the compiler's own), in docs/expressions.md's words.
BUILTIN_FUNCTIONS = {
    "count": "count(L): how many members a list or set has",
    "sum": "sum(L): the total of numbers, or of cards' values",
    "min": "min(L): the smallest number (an empty list is an error)",
    "max": "max(L): the largest number (an empty list is an error)",
    "any": "any(L): whether any of the booleans holds",
    "all": "all(L): whether all of the booleans hold",
    "abs": "abs(n): the absolute value of a number",
}
KEYWORDS = {"and": "both hold", "or": "either holds", "not": "does not hold", "in": "membership: x in L",
            "where": "S where C: the members of S for which C holds", "true": "true", "false": "false"}
_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_WORD = re.compile(r"[A-Za-z0-9_$]+")


@dataclass(frozen=True)
class Finding:
    """A diagnostic placed in the open file: ``start``/``end`` in it, and for an inherited
    finding the file and 1-based line and column where it really is (``related``)."""

    start: Pos
    end: Pos
    severity: str
    code: str
    message: str
    related: tuple[tuple[str, int, int, str], ...] = ()


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # "key", "name", "attribute", "function", "keyword", "card", "value"
    detail: str = ""


@dataclass
class Edit:
    start: Pos
    end: Pos
    text: str
    title: str = ""


@dataclass
class Context:
    """The open file read as far as it can be: its own data, the merged document, the ruleset
    when it is valid, and the places of its expressions."""

    path: FsPath
    text: str
    data: Any
    doc: Doc | None = None
    ruleset: Ruleset | None = None
    places: dict[tuple[PathPart, ...], Place] = field(default_factory=dict)


def file_kind(data: Any) -> str | None:
    """'ruleset', 'scenario' or None (some other YAML file), by the file's top-level keys."""
    if not isinstance(data, dict):
        return None
    keys = set(map(str, data))
    if "ruleset" in keys or (keys & SCENARIO_KEYS and "extends" not in keys):
        return "scenario"
    if keys & set(load_schema().get("properties", {})):
        return "ruleset"
    return None


def safe_data(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


# --- diagnostics -------------------------------------------------------------------------------

def findings(path: FsPath, text: str, *, lint: bool, open_texts: dict[FsPath, str] | None = None) -> list[Finding]:
    """The findings of ``tonk validate`` (and with ``lint`` of static ``tonk lint``) for the file
    at ``path`` whose text is ``text``, each placed in that file."""
    kind = file_kind(safe_data(text))
    diags: list[Diagnostic] = []
    with unsaved({**(open_texts or {}), path: text}):
        try:
            if kind == "scenario":
                return [_place(d, path, text) for d in _scenario_findings(path, text, replay=lint)]
            elif lint:
                from tonkdsl.tools.lint import lint as run_lint

                diags = list(run_lint(path).diagnostics)
            else:
                load_ruleset(path)
        except LoadError as exc:
            diags = list(exc.diagnostics)
    return [_place(d, path, text) for d in diags]


def _scenario_findings(path: FsPath, text: str, *, replay: bool) -> list[Diagnostic]:
    """A scenario's load errors; with ``replay``, as ``tonk check`` says them, how its replay
    differs from its 'expect' (at the 'expect:' line)."""
    from tonkdsl.tools.scenario import compare, load_scenario, replay as replayed

    scenario = load_scenario(path)  # raises LoadError with every problem
    if not replay:
        return []
    try:
        problems = compare(replayed(scenario))
    except LoadError as exc:
        return list(exc.diagnostics)
    rows = text.split("\n")
    line = next((i for i, row in enumerate(rows) if re.match(r"expect\s*:", row)), 0)
    return [Diagnostic("scenario-mismatch", f"tonk check: {p}", str(path), line + 1, 1, severity="warning",
                       source_line=rows[line] if line < len(rows) else "") for p in problems]


def _is_this_file(d: Diagnostic, path: FsPath) -> bool:
    if not d.file:
        return True
    try:
        return FsPath(d.file).resolve() == path.resolve()
    except OSError:
        return False


def word_end(line: str, col: int) -> int:
    """Where the word, quoted text or bracket at ``col`` ends: a finding's range."""
    if col >= len(line):
        return len(line)
    ch = line[col]
    if ch in "{[":
        depth = 0
        for i in range(col, len(line)):
            depth += {"{": 1, "[": 1, "}": -1, "]": -1}.get(line[i], 0)
            if depth == 0:
                return i + 1
        return len(line.rstrip())
    if ch in "'\"":
        close = line.find(ch, col + 1)
        return close + 1 if close > 0 else len(line.rstrip())
    m = re.compile(r"[\w.$-]+").match(line, col)
    return m.end() if m else len(line.rstrip()) if col < len(line.rstrip()) else col + 1


def _place(d: Diagnostic, path: FsPath, text: str) -> Finding:
    lines = text.split("\n")
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    if _is_this_file(d, path):
        line = max(d.line - 1, 0)
        col = max(d.column - 1, 0)
        if not d.line:  # about the whole file: its first line
            return Finding((0, 0), (0, len(lines[0]) if lines else 0), d.severity, d.code, message)
        row = lines[line] if line < len(lines) else ""
        return Finding((line, col), (line, max(word_end(row, col), col + 1)), d.severity, d.code, message)
    at = _extends_line(text)
    if not FsPath(d.file).is_file():  # about a name 'extends' gives that is no file (a shipped name misspelt)
        row = lines[at] if at < len(lines) else ""
        return Finding((at, 0), (at, len(row.rstrip())), d.severity, d.code, message)
    # Inherited: said at this file's own 'extends:' line, with where the rule really is.
    row = lines[at] if at < len(lines) else ""
    where = f"{d.file}:{d.line}:{d.column}" if d.line else d.file
    related = ((d.file, d.line, d.column, d.message),) if d.line else ()
    return Finding((at, 0), (at, len(row.rstrip())), d.severity, d.code,
                   f"in {where} (inherited): {message}", related)


def _extends_line(text: str) -> int:
    for i, line in enumerate(text.split("\n")):
        if re.match(r"extends\s*:", line):
            return i
    return 0


# --- reading the file -------------------------------------------------------------------------

def context(path: FsPath, text: str, line: int = 0, col: int = 0,
            open_texts: dict[FsPath, str] | None = None) -> Context:
    """The file read as it is being typed (see :func:`yamlpos.compose_typed`)."""
    _, lines = compose_typed(text, line, col)
    typed = "\n".join(lines)
    data = safe_data(typed)
    ctx = Context(path, text, data)
    if file_kind(data) != "ruleset":
        return ctx
    with unsaved({**(open_texts or {}), path: typed}):
        try:
            ctx.doc = load_doc(path, collect=True)
        except LoadError:
            return ctx
        ctx.places = expression_places(ctx.doc)
        try:
            ctx.ruleset, _ = build(ctx.doc)
        except LoadError:  # pragma: no cover - build reports problems, it does not raise them
            ctx.ruleset = None
    return ctx


def merged_path(ctx: Context, path: tuple[PathPart, ...]) -> tuple[PathPart, ...]:
    """``path`` in the file's own data, as a path in the merged ruleset: an entry of a list
    merged by id is found by its id."""
    mine: Any = ctx.data
    merged: Any = ctx.doc.data if ctx.doc is not None else ctx.data
    out: list[PathPart] = []
    for part in path:
        if isinstance(part, int) and isinstance(mine, list) and isinstance(merged, list):
            item = mine[part] if part < len(mine) else None
            ident = item.get("id") if isinstance(item, dict) else None
            found = next((j for j, m in enumerate(merged) if isinstance(m, dict) and ident is not None
                          and m.get("id") == ident), part)
            out.append(found)
            mine, merged = item, merged[found] if found < len(merged) else None
        else:
            out.append(part)
            mine = mine.get(part) if isinstance(mine, dict) else None
            merged = merged.get(part) if isinstance(merged, dict) else None
    return tuple(out)


def _value_at(data: Any, path: Iterable[PathPart]) -> Any:
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


def _word_at(line: str, col: int) -> tuple[str, int, int]:
    for m in _WORD.finditer(line):
        if m.start() <= col <= m.end():
            return m.group(), m.start(), m.end()
    return "", col, col


# --- hover ------------------------------------------------------------------------------------

def sheet_sentence(rs: Ruleset, ident: str) -> str | None:
    """The rules sheet's sentence of the entry ``ident`` (as ``tonk explain`` prints it)."""
    from tonkdsl.tools.explain.sheet import build as sheet

    named = re.compile(rf"^(- )?(Bonus |Side bet )?{re.escape(ident)}(:| \()|\({re.escape(ident)}\)\.?$")
    for section in sheet(rs):
        for line in section.lines:
            if named.search(line):
                return line[2:] if line.startswith("- ") else line
    return None


def hover(path: FsPath, text: str, line: int, col: int, open_texts: dict[FsPath, str] | None = None) -> str | None:
    """Markdown for the editor's hover at ``line``/``col``, or None."""
    spot = locate(text, line, col)
    if spot is None:
        return None
    ctx = context(path, text, line, col, open_texts)
    if ctx.doc is None:
        return None
    where = merged_path(ctx, spot.path)
    place = ctx.places.get(where)
    rows = text.split("\n")
    if place is not None and not spot.on_key and line < len(rows):
        said = name_meaning(place, rows[line], col)
        if said is not None:
            return said
    return _key_words(ctx, spot, where)


def _key_words(ctx: Context, spot: Spot, where: tuple[PathPart, ...]) -> str | None:
    from tonkdsl.tools.explain.diff import in_words

    parts: list[str] = []
    entry = _entry_of(ctx.doc.data if ctx.doc else None, where)
    if entry is not None and ctx.ruleset is not None:
        sentence = sheet_sentence(ctx.ruleset, entry)
        if sentence is not None:
            parts.append(sentence)
    key_path = where if spot.on_key or not where or isinstance(where[-1], str) else where[:-1]
    key_path = tuple(p for p in key_path if p != "")
    if not key_path:
        return "\n\n".join(parts) or None
    value = _value_at(ctx.doc.data if ctx.doc else None, key_path)
    if not parts and value is not None and not isinstance(key_path[-1], int):
        parts.append(in_words(key_path, value))
    described = schema_at(key_path, resolve_last=False).get("description") or schema_at(key_path).get("description")
    if described:
        dotted = ".".join(str(p) for p in key_path if isinstance(p, str))
        parts.append(f"`{dotted}`: {described}")
    return "\n\n---\n\n".join(parts) or None


def _entry_of(data: Any, path: tuple[PathPart, ...]) -> str | None:
    """The id of the innermost list entry ``path`` is in (or names), if it has one."""
    best = None
    node = data
    for part in path:
        if isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
            if isinstance(node, dict) and isinstance(node.get("id"), str):
                best = node["id"]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            break
    return best


def name_meaning(place: Place, row: str, col: int) -> str | None:
    """What the name under ``col`` of ``row`` means at this place of the ruleset."""
    word, start, end = _word_at(row, col)
    if not word:
        return None
    names = place.names
    called = row[end:].lstrip().startswith("(")
    if start > 0 and row[start - 1] == ".":  # an attribute: of a player or of a card
        said = PLAYER_ATTRS.get(word) or CARD_ATTRS.get(word)
        return f"`.{word}`: {said[2]}" if said else None
    if called and word in BUILTIN_FUNCTIONS:
        return f"`{word}()`: {BUILTIN_FUNCTIONS[word].split(': ', 1)[1]}"
    if called and word in FUNCTIONS:
        return f"`{word}()`: {FUNCTIONS[word][3]}"
    if word in GLOBALS and word in names.globals:
        return f"`{word}`: {GLOBALS[word][2]}"
    if word in ROLES and word in names.globals:
        return f"`{word}`: {ROLES[word]}"
    if word == "self" and "self" in names.globals:
        return f"`self`: another name for `actor`, {ROLES['actor']}"
    if word in CARD_SETS and word in names.globals:
        return f"`{word}`: {CARD_SETS[word][2]}"
    if names.subject is not None and word in PLAYER_ATTRS:
        return f"`{word}` (the player the rule is about: `actor.{word}`): {PLAYER_ATTRS[word][2]}"
    if names.subject is not None and word in names.attrs.get(names.subject[0], {}):
        return f"`{word}`: a counter the ruleset declares (`counters.{word}`), of the player the rule is about"
    if word in KEYWORDS:
        return f"`{word}`: {KEYWORDS[word]}"
    card = _card_words(word)
    if card:
        return card
    if word in names.elsewhere:
        return f"`{word}` cannot be used here: {names.elsewhere[word]}"
    return None


def _card_words(word: str) -> str | None:
    if word in _SUIT_NAMES:
        return f"`{word}`: the suit of {_SUIT_NAMES[word]}"
    if word in RANKS_STANDARD or word in ("T", "JK"):
        return f"`{word}`: a rank" + (" (the joker)" if word == "JK" else "")
    m = re.fullmatch(r"(10|[A2-9TJQK])([CDHS])", word)
    if m:
        return f"`{word}`: a card, the {m.group(1)} of {_SUIT_NAMES[m.group(2)]}"
    return None


# --- completion -------------------------------------------------------------------------------

def completions(path: FsPath, text: str, line: int, col: int,
                open_texts: dict[FsPath, str] | None = None) -> list[Completion]:
    """What may be written at ``line``/``col``: keys of the mapping the cursor is in, with
    their reference text; in an expression, the names, functions, keywords and cards valid at
    that place (the very table that refuses an unknown name when the file loads)."""
    spot = locate(text, line, col)
    if spot is None:
        return []
    ctx = context(path, text, line, col, open_texts)
    if spot.on_key:
        if file_kind(ctx.data) == "scenario":
            return _scenario_keys(spot)
        if file_kind(ctx.data) != "ruleset":
            return []
        return _key_completions(ctx, spot)
    if file_kind(ctx.data) == "scenario" and spot.path == ("ruleset",):
        return [Completion(n, "value", "a shipped ruleset") for n in shipped_ruleset_names()]
    where = merged_path(ctx, spot.path)
    place = ctx.places.get(where)
    if place is not None:
        return expression_completions(place, spot.before, ctx.ruleset)
    if where == ("extends",):
        return [Completion(n, "value", "a shipped ruleset") for n in shipped_ruleset_names()]
    node = schema_at(where)
    return [Completion(str(v), "value", "") for v in node.get("enum", [])]


def _key_completions(ctx: Context, spot: Spot) -> list[Completion]:
    owner = merged_path(ctx, spot.path[:-1])
    node = schema_at(owner)
    written = _value_at(ctx.data, spot.path[:-1])
    present = set(written) if isinstance(written, dict) else set()
    out = []
    for key, sub in node.get("properties", {}).items():
        if key in present and key != spot.path[-1]:
            continue
        out.append(Completion(key, "key", _described(sub) or _described(schema_at(owner + (key,)))))
    return out


def _scenario_keys(spot: Spot) -> list[Completion]:
    from tonkdsl.tools.scenario import DEAL_KEYS, KEYS

    if len(spot.path) == 1:
        return [Completion(k, "key", "a key of a scenario (docs/scenarios.md)") for k in KEYS]
    if len(spot.path) == 3 and spot.path[0] == "deals":
        return [Completion(k, "key", "a key of one hand of a session scenario (docs/scenarios.md)") for k in DEAL_KEYS]
    return []


def _described(node: dict[str, Any]) -> str:
    """A schema node in a line: its reference text, else what it holds."""
    if node.get("description"):
        return str(node["description"])
    if node.get("properties"):
        return "a table of keys: " + ", ".join(node["properties"])
    if node.get("enum"):
        return "one of: " + ", ".join(map(str, node["enum"]))
    return ""


def _type_of(source: str, names: Names) -> Type | None:
    try:
        return compile_expr(source, names).type
    except ExprError:
        return None


def expression_completions(place: Place, before: str, rs: Ruleset | None = None) -> list[Completion]:
    names = place.names
    m = re.search(r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_]\w*)*)\.(\w*)$", before)
    if m:  # after a dot: the attributes of what stands before it
        typ = _type_of(m.group(1), names)
        if isinstance(typ, ListType):
            typ = typ.item
        attrs = names.attrs.get(typ, {}) if typ is not None else {}
        return [Completion(a, "attribute", _attr_words(a)) for a in attrs if a not in place.refused]
    out: list[Completion] = []
    for name in names.globals:
        if name.startswith("$") or name in place.refused:
            continue
        out.append(Completion(name, "name", _global_words(name)))
    if names.subject is not None:
        for attr in names.attrs.get(names.subject[0], {}):
            if attr in place.refused:
                continue
            out.append(Completion(attr, "attribute", "of the player the rule is about: " + _attr_words(attr)))
    for fn, fn_words in BUILTIN_FUNCTIONS.items():
        out.append(Completion(fn, "function", fn_words))
    for fn in names.functions:
        out.append(Completion(fn, "function", FUNCTIONS[fn][3] if fn in FUNCTIONS else ""))
    for kw, kw_words in KEYWORDS.items():
        out.append(Completion(kw, "keyword", kw_words))
    word = re.search(r"[\w]*$", before)
    typed = word.group() if word else ""
    if typed[:1].isupper() or typed[:1].isdigit():
        out += _cards(rs)
    return out


def _global_words(name: str) -> str:
    said = GLOBALS.get(name) or CARD_SETS.get(name)
    if said is not None:
        return said[2]
    return ROLES.get(name, "another name for actor" if name == "self" else "")


def _attr_words(attr: str) -> str:
    said = PLAYER_ATTRS.get(attr) or CARD_ATTRS.get(attr)
    return said[2] if said else "a counter the ruleset declares"


def _cards(rs: Ruleset | None) -> list[Completion]:
    ranks = list(dict.fromkeys(rs.pack.ranks)) if rs is not None else list(RANKS_STANDARD)
    ranks = [r for r in ranks if r and r != "JK"] if rs is not None else ranks
    out = [Completion(s, "card", f"the suit of {_SUIT_NAMES[s]}") for s in SUITS_STANDARD]
    out += [Completion(r, "card", "a rank") for r in ranks]
    out += [Completion(r + s, "card", f"the {r} of {_SUIT_NAMES[s]}") for r in ranks for s in SUITS_STANDARD]
    if rs is not None and any(r == "JK" for r in rs.pack.ranks):
        out.append(Completion("JK", "card", "the joker"))
    return out


# --- go to definition -------------------------------------------------------------------------

@dataclass(frozen=True)
class Location:
    file: FsPath
    line: int
    col: int


def _parents(path: FsPath, text: str, open_texts: dict[FsPath, str] | None) -> list[tuple[FsPath, Source]]:
    """The files ``path`` extends, nearest first, each parsed."""
    out: list[tuple[FsPath, Source]] = []
    data = safe_data(text)
    here = path
    with unsaved({**(open_texts or {}), path: text}):
        for _ in range(8):
            ref = data.get("extends") if isinstance(data, dict) else None
            if not isinstance(ref, str):
                break
            try:
                parent = resolve_name(ref, here.parent)
                src = load_yaml_file(parent)
            except LoadError:
                break
            out.append((parent, src))
            here, data = parent, src.data
    return out


def _named(data: Any, path: tuple[PathPart, ...]) -> tuple[PathPart, ...]:
    """``path`` with each list index replaced by the entry's id (where it has one)."""
    out: list[PathPart] = []
    for part in path:
        if isinstance(part, int) and isinstance(data, list) and part < len(data):
            data = data[part]
            out.append(data["id"] if isinstance(data, dict) and isinstance(data.get("id"), str) else part)
        else:
            out.append(part)
            data = data.get(part) if isinstance(data, dict) else None
    return tuple(out)


def _find(data: Any, named: tuple[PathPart, ...]) -> tuple[PathPart, ...] | None:
    """The path in ``data`` of the named path (an id names the list entry that has it)."""
    out: list[PathPart] = []
    for part in named:
        if isinstance(data, dict) and part in data:
            out.append(part)
            data = data[part]
        elif isinstance(data, list):
            j = next((j for j, item in enumerate(data) if isinstance(item, dict) and item.get("id") == part),
                     part if isinstance(part, int) and part < len(data) else None)
            if j is None:
                return None
            out.append(j)
            data = data[j]
        else:
            return None
    return tuple(out)


def definition(path: FsPath, text: str, line: int, col: int,
               open_texts: dict[FsPath, str] | None = None) -> Location | None:
    """Where the key, rule id or removed entry under the cursor is defined in the files this
    one extends (a shipped ruleset too); on ``extends:`` itself, the file it names."""
    spot = locate(text, line, col)
    if spot is None or not spot.path:
        return None
    if spot.path == ("ruleset",) and file_kind(safe_data(text)) == "scenario" and spot.value:
        try:  # a scenario's ruleset: the file it names
            return Location(resolve_name(spot.value, path.parent), 0, 0)
        except LoadError:
            return None
    parents = _parents(path, text, open_texts)
    if not parents:
        return None
    if spot.path == ("extends",):
        return Location(parents[0][0], 0, 0)
    data = safe_data("\n".join(compose_typed(text, line, col)[1]))
    if spot.path[0] == "remove" and not spot.on_key and spot.value:
        named: tuple[PathPart, ...] = tuple(spot.value.split("."))
    else:
        named = _named(data, spot.path)
    named = tuple(p for p in named if p != "")
    for file, src in parents:
        found = _find(src.data, named)
        if found is not None:
            at_line, at_col = src.locate(found, key=spot.on_key and isinstance(found[-1], str))
            return Location(file, at_line - 1, at_col - 1)
    return None


# --- code actions -----------------------------------------------------------------------------

_SUGGESTION = re.compile(r"\(did you mean '([^']+)'\?\)")
_QUOTED = re.compile(r"'([^']+)'")


def did_you_mean_fix(text: str, start: Pos, end: Pos, message: str) -> Edit | None:
    """The edit that takes a finding's "did you mean" suggestion: the misspelt word in the
    finding's range replaced by the suggested one."""
    m = _SUGGESTION.search(message)
    if m is None:
        return None
    right = m.group(1)
    # The word to replace is one the message quotes before its suggestion ("unknown key 'drpo'
    # in 'turn'", "nothing to remove at 'a.b.c': no entry with id 'c'"): the one most like the fix.
    quoted = _QUOTED.findall(message[:m.start()])
    if not quoted:
        return None
    wrong = max(quoted, key=lambda q: difflib.SequenceMatcher(None, q, right).ratio())
    rows = text.split("\n")
    if start[0] >= len(rows):
        return None
    row = rows[start[0]]
    # The word itself, at the finding's start or nearest after it on the line.
    at = row.find(wrong, start[1]) if row[start[1]:start[1] + len(wrong)] != wrong else start[1]
    if at < 0:
        at = row.find(wrong)
    if at < 0 or not wrong:
        return None
    return Edit((start[0], at), (start[0], at + len(wrong)), right, f"Replace '{wrong}' with '{right}'")
