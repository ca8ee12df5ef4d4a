"""Text tables of the reports (simulate, tournament), drawn by rich.

A report is text that goes to a terminal, a file or a pipe alike: the table is rendered without
colour or terminal codes, as wide as its content (never wrapped), with its lines' trailing
spaces removed, so that the same results always print the same text."""
from __future__ import annotations

import io
from typing import Sequence

from rich import box
from rich.console import Console
from rich.table import Table


# rich's SIMPLE_HEAD in ASCII: a rule of '-' under the header and nothing else, so that a report
# saved to a file or read in any terminal shows the same characters.
_HEAD_RULE = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)


def table(headers: Sequence[str], *, right: Sequence[int] = ()) -> Table:
    """A report table: a header row and a rule under it, no outer frame; the columns whose
    index is in ``right`` are aligned right (numbers)."""
    t = Table(box=_HEAD_RULE, safe_box=True, show_edge=False, pad_edge=False, padding=(0, 2, 0, 0))
    for i, name in enumerate(headers):
        t.add_column(name, justify="right" if i in right else "left", no_wrap=True)
    return t


def render(t: Table) -> str:
    """The table as plain text lines."""
    width = 10_000  # as wide as the content needs: a report is never wrapped
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False,
                      highlight=False, emoji=False, markup=False, legacy_windows=False)
    measured = console.measure(t).maximum
    console = Console(file=io.StringIO(), width=measured, color_system=None, force_terminal=False,
                      highlight=False, emoji=False, markup=False, legacy_windows=False)
    console.print(t)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in text.splitlines())
