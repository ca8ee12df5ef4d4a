"""Where the cursor is in a YAML file: the path of the key or value under it.

An editor asks while the file is being typed, so the text is often not valid YAML: a key with no
colon yet (``  dr``) is read as if its colon were there, which is what the writer is typing.
Positions are 0-based lines and columns of Python characters (the server converts the editor's
UTF-16 columns)."""
from __future__ import annotations

from dataclasses import dataclass

import yaml

PathPart = str | int


@dataclass(frozen=True)
class Spot:
    """What is under the cursor. ``path``: the key's path (``on_key``), or the value's;
    ``before``: the value's text before the cursor (for a key, the key's); ``start``: where the
    key or value begins."""

    path: tuple[PathPart, ...]
    on_key: bool
    before: str
    start: tuple[int, int]
    value: str = ""


def _mark(m: yaml.Mark) -> tuple[int, int]:
    return (m.line, m.column)


def _holds(node: yaml.Node, at: tuple[int, int]) -> bool:
    return _mark(node.start_mark) <= at <= _mark(node.end_mark)


def compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)  # nodes with their marks, no values built
    except yaml.YAMLError:
        return None


def _broken_line(text: str) -> int | None:
    """The line a YAML error is about (where a key lost its colon, ...), 0-based."""
    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.context_mark or exc.problem_mark
        return None if mark is None else mark.line
    except yaml.YAMLError:
        return None
    return None


def compose_typed(text: str, line: int, col: int) -> tuple[yaml.Node | None, list[str]]:
    """The nodes of ``text`` as it is being typed: when it is not valid YAML, the cursor's word
    is read as a key being typed (its colon added), and other broken lines are left out
    (blanked, so that every position stays where it is)."""
    lines = text.split("\n")
    root = compose(text)
    if root is not None:
        return root, lines
    if line < len(lines):
        patched = lines[:line] + [lines[line][:col] + ":" + lines[line][col:]] + lines[line + 1:]
        root = compose("\n".join(patched))
        if root is not None:
            return root, patched
    for _ in range(5):
        bad = _broken_line("\n".join(lines))
        if bad is None or bad >= len(lines):
            break
        word = lines[bad].strip()
        if word and ":" not in word and bad != line:  # a key with no colon yet: add it
            lines = lines[:bad] + [lines[bad] + ":"] + lines[bad + 1:]
        else:
            lines = lines[:bad] + [" " * len(lines[bad])] + lines[bad + 1:]
        root = compose("\n".join(lines))
        if root is not None:
            return root, lines
    return None, lines


def _scalar_before(lines: list[str], node: yaml.ScalarNode, at: tuple[int, int]) -> str:
    line, col = _mark(node.start_mark)
    if node.style in ("|", ">"):  # a block: its lines after the header, without their indent
        body = lines[line + 1:at[0] + 1]
        body[-1:] = [body[-1][:at[1]]] if body else []
        indent = min((len(x) - len(x.lstrip()) for x in body if x.strip()), default=0)
        return "\n".join(x[indent:] for x in body)
    if node.style in ("'", '"'):
        col += 1
    if at[0] == line:
        return lines[line][col:at[1]]
    return " ".join([lines[line][col:], *(x.strip() for x in lines[line + 1:at[0]]), lines[at[0]][:at[1]].strip()])


def _walk(node: yaml.Node, path: tuple[PathPart, ...], at: tuple[int, int], lines: list[str]) -> Spot | None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name: PathPart = key.value if isinstance(key, yaml.ScalarNode) else "?"
            if _holds(key, at):
                return Spot(path + (name,), True, _scalar_before(lines, key, at) if isinstance(key, yaml.ScalarNode)
                            else "", _mark(key.start_mark))
            if (isinstance(value, yaml.ScalarNode) and value.value == "" and at[0] == key.end_mark.line
                    and at > _mark(key.end_mark)):  # 'when: ' with nothing written after it yet
                after = lines[at[0]][key.end_mark.column:at[1]]
                colon = after.find(":")
                return Spot(path + (name,), False, after[colon + 1:].lstrip() if colon >= 0 else "", at)
            if _holds(value, at) and not (isinstance(value, yaml.ScalarNode) and value.value == ""
                                           and at[0] > key.start_mark.line):
                if (isinstance(value, yaml.ScalarNode) and value.style is None and value.start_mark.line > key.start_mark.line
                        and " " not in value.value.strip()):
                    # 'turn:' then '  dr' on the next line: a key being typed, not a value
                    return Spot(path + (name, value.value), True, _scalar_before(lines, value, at), _mark(value.start_mark))
                return _walk(value, path + (name,), at, lines)
        if _holds(node, at) or node.flow_style:
            return Spot(path + ("",), True, "", at)  # between the keys: a new key goes here
        return None
    if isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            if _holds(item, at):
                return _walk(item, path + (i,), at, lines)
        return None
    if isinstance(node, yaml.ScalarNode):
        return Spot(path, False, _scalar_before(lines, node, at), _mark(node.start_mark), node.value)
    return None


def _enclosing(root: yaml.Node, at: tuple[int, int], lines: list[str]) -> Spot | None:
    """On a blank or new line: the mapping the line's indentation puts it in."""
    indent = len(lines[at[0]]) - len(lines[at[0]].lstrip()) if at[0] < len(lines) else 0
    indent = min(indent, at[1]) if at[0] < len(lines) and not lines[at[0]].strip() else indent
    best: tuple[tuple[PathPart, ...], yaml.Node] | None = None

    def visit(node: yaml.Node, path: tuple[PathPart, ...]) -> None:
        nonlocal best
        if isinstance(node, yaml.MappingNode) and not node.flow_style:
            if node.start_mark.column == indent and _mark(node.start_mark) <= at:
                best = (path, node)
            for key, value in node.value:
                if _mark(key.start_mark) < at:
                    visit(value, path + (key.value if isinstance(key, yaml.ScalarNode) else "?",))
        elif isinstance(node, yaml.SequenceNode) and not node.flow_style:
            for i, item in enumerate(node.value):
                if _mark(item.start_mark) < at:
                    visit(item, path + (i,))

    visit(root, ())
    if best is None:
        return None
    return Spot(best[0] + ("",), True, lines[at[0]].strip() if at[0] < len(lines) else "", at)


def locate(text: str, line: int, col: int) -> Spot | None:
    """The spot at 0-based ``line``/``col`` of ``text``; None when nothing can be read there."""
    rows = text.split("\n")
    col = min(col, len(rows[line])) if line < len(rows) else col  # past the line's end: at its end
    at = (line, col)
    root, lines = compose_typed(text, line, col)
    if root is None:
        return None
    if line < len(lines) and not lines[line].strip():
        return _enclosing(root, at, lines)
    spot = _walk(root, (), at, lines)
    return spot if spot is not None else _enclosing(root, at, lines)
