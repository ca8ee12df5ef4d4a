"""One diagnostic shape for every problem the project reports about an input file.

Schema errors, expression errors, scenario errors and (later) lint findings all become a
:class:`Diagnostic`: a stable code, a severity, a message in a player's words, the file, the
1-based line and column, the JSON path of the field (``$.deal_wins.rules[0].when``) and the
source line, which :meth:`Diagnostic.render` prints with a caret like a compiler.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

PathPart = str | int
Path = tuple[PathPart, ...]


def json_path(path: Sequence[PathPart]) -> str:
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isprintable() and part and not any(c in part for c in " .[]'\""):
            out += f".{part}"
        else:  # a key with spaces, dots or control characters (a NUL byte) is quoted and escaped
            out += f"[{json.dumps(part)}]"
    return out


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    path: str = ""
    severity: str = "error"
    source_line: str = ""
    hint: str = ""
    related: tuple[tuple[str, int, int], ...] = field(default=())

    def location(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file or "<input>"

    def render(self) -> str:
        """``file:line:col: error[code]: message`` then the source line with a caret."""
        where = f" (at {self.path})" if self.path else ""
        text = f"{self.location()}: {self.severity}[{self.code}]: {self.message}{where}"
        if self.source_line:
            line, caret = clip_line(self.source_line, max(self.column - 1, 0))
            text += f"\n    {line}\n    {' ' * caret}^"
        for file, at_line, col in self.related:
            text += f"\n    see also: {file}:{at_line}:{col}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["related"] = [list(r) for r in self.related]
        return data


# Characters a terminal or a log would act on rather than show: the C0 and C1 controls (an
# escape sequence can set a window title or fill the clipboard) and the bidirectional overrides
# (which reorder what is shown). Newlines and tabs are layout, and stay.
_CONTROLS = {c: "?" for c in [*range(0x00, 0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F),
                                 *range(0x2066, 0x206A)] if c not in (0x09, 0x0A)}


def printable(text: str) -> str:
    """``text`` safe for a terminal or a log: each control character becomes '?'."""
    return text.translate(_CONTROLS)


MAX_SHOWN = 120  # characters of a source line shown under a diagnostic


def clip_line(line: str, at: int) -> tuple[str, int]:
    """``line`` cut to about MAX_SHOWN characters around position ``at`` (with '...' where it is
    cut), and where ``at`` falls in what is shown: a 20,000-character line is not echoed whole."""
    if len(line) <= MAX_SHOWN:
        return line, at
    start = max(0, min(at - MAX_SHOWN // 2, len(line) - MAX_SHOWN))
    shown = line[start:start + MAX_SHOWN]
    head = "..." if start > 0 else ""
    tail = "..." if start + MAX_SHOWN < len(line) else ""
    return head + shown + tail, at - start + len(head)


class LoadError(Exception):
    """Raised when an input file has problems; carries every diagnostic found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))

    def __reduce__(self) -> tuple[type["LoadError"], tuple[list[Diagnostic]]]:
        # Rebuilt from its diagnostics, not its message: a worker process (simulate's and
        # tournament's --workers) that meets a bad file sends this error back pickled, and
        # Exception's default would call __init__ with the rendered text.
        return (LoadError, (self.diagnostics,))


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when a close choice exists, else ``""``."""
    options = [c for c in choices if c]
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        # 'hits_rules' -> 'hits': a known word inside the unknown one (or the other way round).
        lw = word.lower()
        close = sorted((c for c in options if len(c) >= 3 and (c.lower() in lw or lw in c.lower())),
                       key=lambda c: -len(c))[:1]
    return f" (did you mean '{close[0]}'?)" if close else ""
