"""Read YAML while keeping the line and column of every node.

PyYAML's composer gives nodes with marks; we turn them into plain Python data plus a map
from JSON path to position, so later steps (schema, expressions, scenarios) can point at the
exact line and column of any field. Only the safe YAML types are accepted: a Python tag or
any other custom tag is an error, never code.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, Iterator

import yaml

from tonkdsl.language.diagnostics import Diagnostic, LoadError, Path

_SAFE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}
MAX_FILE_BYTES = 1_000_000
MAX_NODES = 100_000
# A scenario file may be a saved game, which grows with every hand: an evening of 700 hands at a
# big table is about 0.8 MB and 120,000 nodes. Scenarios and saves are read with these larger
# limits (about 400 MB and 15 s at the most to read); rulesets keep the ones above.
MAX_SCENARIO_BYTES = 4_000_000
MAX_SCENARIO_NODES = 400_000
MAX_DEPTH = 64


@dataclass
class Source:
    """A parsed YAML document: its data, and where each path came from."""

    file: str
    text: str
    data: Any
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def line_text(self, line: int) -> str:
        lines = self.text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def locate(self, path: Path, *, key: bool = False) -> tuple[int, int]:
        """The (line, column) of ``path``, falling back to the nearest enclosing node."""
        table = self.key_positions if key else self.positions
        p = tuple(path)
        if p in table:
            return table[p]
        while p:
            p = p[:-1]
            if p in self.positions:
                return self.positions[p]
        return (1, 1)

    def locate_in_scalar(self, path: Path, value: str, line: int, column: int) -> tuple[int, int]:
        """The (line, column) in the file of the character at ``line``/``column`` (1-based) of
        the string ``value`` written at ``path``, however the scalar is written: plain, quoted,
        or a block (``|``, ``>-``) spread over several lines.

        Folding and indentation only change whitespace, so the n-th non-blank character of the
        value is the n-th non-blank character of the scalar's text in the file."""
        start_line, start_col = self.locate(path)
        lines = value.split("\n")
        offset = sum(len(x) + 1 for x in lines[:max(line - 1, 0)]) + max(column - 1, 0)
        wanted = sum(1 for ch in value[:offset] if not ch.isspace())
        at_blank = offset >= len(value) or value[offset].isspace()
        before = value[:offset]
        gap = len(before) - len(before.rstrip())  # blanks between the last character and the spot
        gap = 0 if "\n" in before[len(before) - gap:] else gap
        text_lines = self.text.splitlines()
        row, col = start_line - 1, start_col - 1
        if row >= len(text_lines):
            return start_line, start_col
        head = text_lines[row][col:col + 1]
        if head in ("|", ">"):
            row, col = row + 1, 0  # a block scalar starts on the next line
        elif head in ("'", '"'):
            col += 1
        seen = 0
        last = (row, col)
        while row < len(text_lines):
            text = text_lines[row]
            while col < len(text):
                if not text[col].isspace():
                    if seen == wanted and not at_blank:
                        return row + 1, col + 1
                    seen += 1
                    last = (row, col)
                    if seen == wanted and at_blank:
                        return row + 1, col + 2 + gap  # in the gap after the last character
                col += 1
            row, col = row + 1, 0
        return last[0] + 1, last[1] + 2 + gap

    def diagnostic(
        self, code: str, message: str, path: Path, *, key: bool = False, hint: str = "",
        column_offset: int = 0, line_offset: int = 0,
    ) -> Diagnostic:
        from tonkdsl.language.diagnostics import json_path

        line, col = self.locate(path, key=key)
        line += line_offset
        col += column_offset
        return Diagnostic(
            code=code,
            message=message,
            file=self.file,
            line=line,
            column=col,
            path=json_path(path),
            source_line=self.line_text(line),
            hint=hint,
        )


def _error(file: str, text: str, code: str, message: str, line: int, col: int) -> LoadError:
    lines = text.splitlines()
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    return LoadError([Diagnostic(code, message, file, line, col, source_line=src)])


# Texts not yet saved, by resolved path: an editor's buffers (tonk lsp) are read in place of the
# files on disk, for the file being typed and for a file it extends that is open too. A context
# variable, so that a check running in a worker thread sees only the buffers it was given.
_UNSAVED: ContextVar[dict[str, str]] = ContextVar("tonkdsl_unsaved", default={})


@contextmanager
def unsaved(texts: dict[FsPath, str]) -> Iterator[None]:
    """Within the block, reading one of ``texts``' paths gives its text, not the file's."""
    token = _UNSAVED.set({str(path.resolve()): text for path, text in texts.items()})
    try:
        yield
    finally:
        _UNSAVED.reset(token)


def unsaved_text(p: FsPath) -> str | None:
    texts = _UNSAVED.get()
    return texts.get(str(p.resolve())) if texts else None


def read_text(path: str | FsPath, max_bytes: int = MAX_FILE_BYTES) -> str:
    p = FsPath(path)
    text = unsaved_text(p)
    if text is not None:
        if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise LoadError([Diagnostic("limit-file-size", f"the file is more than {max_bytes:,} bytes (the limit)",
                                        str(path))])
        return text
    try:
        if p.exists() and not p.is_file():  # a folder, a device or a FIFO: reading could hang
            raise LoadError([Diagnostic("file-not-regular", "this is not a regular file (a device, a pipe or "
                                        "a folder cannot be a ruleset or a scenario)", str(path))])
        size = p.stat().st_size
    except OSError as exc:
        raise LoadError([Diagnostic("file-unreadable", f"cannot read the file: {exc.strerror}", str(path))])
    if size > max_bytes:
        name = "MAX_FILE_BYTES" if max_bytes == MAX_FILE_BYTES else "MAX_SCENARIO_BYTES"
        raise LoadError([Diagnostic(
            "limit-file-size",
            f"the file is {size:,} bytes; the limit ({name}) is {max_bytes:,}",
            str(path),
        )])
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise LoadError([Diagnostic("file-encoding", f"the file is not UTF-8 text ({exc.reason})", str(path))])
    except OSError as exc:
        raise LoadError([Diagnostic("file-unreadable", f"cannot read the file: {exc.strerror}", str(path))])


def _flow_depth(text: str) -> tuple[int, int, int]:
    """The deepest nesting of [ and { (outside quotes), and where it first goes past MAX_DEPTH."""
    depth = best = 0
    where = (1, 1)
    line, col = 1, 0
    quote = ""
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
            continue
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "[{":
            depth += 1
            if depth > best:
                best = depth
                if best == MAX_DEPTH + 1:
                    where = (line, col)
        elif ch in "]}":
            depth = max(depth - 1, 0)
        elif ch == "#":
            quote = "\n"  # a comment runs to the end of the line
    return best, where[0], where[1]


def parse_yaml(text: str, file: str, max_nodes: int = MAX_NODES) -> Source:
    """Parse ``text`` (one YAML document) into a :class:`Source`; raises :class:`LoadError`."""
    depth, dline, dcol = _flow_depth(text)
    if depth > MAX_DEPTH:
        raise _error(file, text, "limit-yaml-depth",
                     f"the document nests deeper than {MAX_DEPTH} levels (MAX_DEPTH)", dline, dcol)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        raise _error(file, text, "limit-yaml-depth",
                     f"the document nests deeper than {MAX_DEPTH} levels (MAX_DEPTH)", 1, 1) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        raise _error(file, text, "yaml-syntax", f"YAML syntax error: {problem}", line, col)
    except yaml.YAMLError as exc:
        raise _error(file, text, "yaml-syntax", f"YAML error: {exc}", 1, 1)
    src = Source(file=file, text=text, data=None)
    if node is None:
        raise _error(file, text, "yaml-empty", "the file is empty", 1, 1)
    counter = [0, max_nodes]  # nodes seen, and the most allowed
    src.data = _convert(node, (), src, counter, 0, set())
    return src


def _convert(node: yaml.Node, path: Path, src: Source, counter: list[int], depth: int,
             active: set[int]) -> Any:
    counter[0] += 1
    line, col = node.start_mark.line + 1, node.start_mark.column + 1
    if counter[0] > counter[1]:
        name = "MAX_NODES" if counter[1] == MAX_NODES else "MAX_SCENARIO_NODES"
        raise _error(src.file, src.text, "limit-yaml-nodes",
                     f"the document expands to more than {counter[1]:,} nodes ({name}); "
                     "aliases that repeat large parts are refused", line, col)
    if depth > MAX_DEPTH:
        raise _error(src.file, src.text, "limit-yaml-depth",
                     f"the document nests deeper than {MAX_DEPTH} levels (MAX_DEPTH)", line, col)
    src.positions.setdefault(path, (line, col))
    if node.tag not in _SAFE_TAGS:
        raise _error(src.file, src.text, "yaml-tag",
                     f"the tag '{node.tag}' is not allowed; only plain YAML values are", line, col)
    if id(node) in active:
        raise _error(src.file, src.text, "yaml-recursive", "a recursive YAML alias is not allowed", line, col)
    if isinstance(node, yaml.MappingNode):
        active.add(id(node))
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            kline, kcol = key_node.start_mark.line + 1, key_node.start_mark.column + 1
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _error(src.file, src.text, "yaml-merge-key",
                             "YAML merge keys (<<) are not supported; use 'extends:'", kline, kcol)
            if not isinstance(key_node, yaml.ScalarNode):
                raise _error(src.file, src.text, "yaml-key", "a mapping key must be a plain word", kline, kcol)
            key = str(yaml.SafeLoader.construct_scalar(yaml.SafeLoader(""), key_node))
            _no_surrogate(src, key, kline, kcol)
            if key in out:
                raise _error(src.file, src.text, "yaml-duplicate-key",
                             f"the key '{key}' appears twice in the same mapping", kline, kcol)
            src.key_positions[path + (key,)] = (kline, kcol)
            out[key] = _convert(value_node, path + (key,), src, counter, depth + 1, active)
        active.discard(id(node))
        return out
    if isinstance(node, yaml.SequenceNode):
        active.add(id(node))
        items = [
            _convert(item, path + (i,), src, counter, depth + 1, active)
            for i, item in enumerate(node.value)
        ]
        active.discard(id(node))
        return items
    loader = yaml.SafeLoader("")
    try:
        value = loader.construct_object(node, deep=True)
        if isinstance(value, str):
            _no_surrogate(src, value, line, col)
        return value
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        if "Exceeds the limit" in str(exc) and "digits" in str(exc):  # Python's guard on huge integers
            message = ("cannot read this value: a number of more than 4,300 digits (numbers in ruleset "
                       "and scenario files are far smaller: see docs/security.md)")
        else:
            message = f"cannot read this value: {exc}"
        raise _error(src.file, src.text, "yaml-value", message, line, col)
    finally:
        loader.dispose()


_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_surrogate(src: Source, text: str, line: int, col: int) -> None:
    """A lone surrogate ("\\udc80" in a quoted string) is no character: no file, page or terminal
    can hold it, and printing or sending it failed far from here. Refused where it is written."""
    found = _SURROGATE.search(text)
    if found is not None:
        bad = found.group()
        raise _error(src.file, src.text, "yaml-value", f"cannot read this value: it holds \\u{ord(bad):04x}, a lone "
                     "surrogate, which is not a character (write the character itself)", line, col)


def load_yaml_file(path: str | FsPath, display: str | None = None, *, scenario: bool = False) -> Source:
    """Read and parse a file; ``scenario``: with the larger limits of scenarios and saved games."""
    if scenario:
        return parse_yaml(read_text(path, MAX_SCENARIO_BYTES), display or str(path), MAX_SCENARIO_NODES)
    return parse_yaml(read_text(path), display or str(path))
