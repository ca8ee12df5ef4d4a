"""Catch rate of `tonk lint` on the project's corpus of mistakes, its false positives on correct
files, and the time each file takes.

    python benchmarks/lint_corpus.py [--simulate N] [--json] [FOLDER]

FOLDER (tests/lint by default) holds one ruleset per realistic mistake; the line that causes it
carries a comment '# expect: CODE SEVERITY'. A mistake is caught when lint reports that code, at
that severity, on that line of that file; found elsewhere (another line, another code) it counts
as misplaced. FOLDER/clean holds correct but unusual rulesets: any error or warning there is a
false positive. Static lint by default; --simulate N adds N simulated hands per file.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tonkdsl.language.diagnostics import Diagnostic, LoadError
from tonkdsl.tools.lint import lint
from tonkdsl.tools.lint.checks import LintReport

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "lint"
_EXPECT = re.compile(r"#\s*expect:\s*([a-z-]+)\s+(error|warning|note)\b")


@dataclass(frozen=True)
class Expected:
    line: int
    code: str
    severity: str


@dataclass
class FileResult:
    path: Path
    expected: list[Expected]
    caught: list[Expected] = field(default_factory=list)
    misplaced: list[Expected] = field(default_factory=list)  # the code, on another line
    false_positives: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def missed(self) -> list[Expected]:
        return [e for e in self.expected if e not in self.caught and e not in self.misplaced]


def expectations(path: Path) -> list[Expected]:
    """The '# expect: CODE SEVERITY' comments of a corpus file, with their lines."""
    out = []
    for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in _EXPECT.finditer(text):
            out.append(Expected(n, m.group(1), m.group(2)))
    return out


def check(path: Path, simulate: int = 0) -> FileResult:
    """Lint one corpus file and score it against its expectations (none for a clean file: every
    error and warning is then a false positive)."""
    expected = expectations(path)
    start = time.perf_counter()
    try:
        report = lint(path, simulate=simulate)
    except LoadError as exc:  # the file does not load: its load errors stand for lint's findings
        report = LintReport(str(path), list(exc.diagnostics), valid=False)
    result = FileResult(path, expected, seconds=time.perf_counter() - start)
    own = [d for d in report.diagnostics if Path(d.file).resolve() == path.resolve()]
    for e in expected:
        if any(d.code == e.code and d.severity == e.severity and d.line == e.line for d in own):
            result.caught.append(e)
        elif any(d.code == e.code for d in report.diagnostics):
            result.misplaced.append(e)
    if not expected:
        result.false_positives = [d for d in report.diagnostics if d.severity in ("error", "warning")]
    return result


def corpus(folder: Path = CORPUS) -> tuple[list[Path], list[Path]]:
    """(mistake files, clean files) of a corpus folder."""
    return sorted(folder.glob("*.yaml")), sorted((folder / "clean").glob("*.yaml"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--simulate", type=int, default=0, help="simulated hands per file (default: static lint)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = parser.parse_args(argv)
    mistakes, clean = corpus(args.folder)
    results = [check(p, args.simulate) for p in mistakes]
    cleans = [check(p, args.simulate) for p in clean]
    expected = sum(len(r.expected) for r in results)
    caught = sum(len(r.caught) for r in results)
    misplaced = sum(len(r.misplaced) for r in results)
    false_pos = sum(len(r.false_positives) for r in cleans)
    slowest = max(results + cleans, key=lambda r: r.seconds)
    if args.json:
        print(json.dumps({
            "mistakes": expected, "caught": caught, "misplaced": misplaced, "missed": expected - caught - misplaced,
            "clean_files": len(cleans), "false_positives": false_pos,
            "files": [{"file": r.path.name, "seconds": round(r.seconds, 3),
                       "caught": [e.code for e in r.caught], "misplaced": [e.code for e in r.misplaced],
                       "missed": [e.code for e in r.missed],
                       "false_positives": [f"{d.code}@{d.line}" for d in r.false_positives]}
                      for r in results + cleans]}, indent=2))
    else:
        for r in results + cleans:
            if r.expected:
                status = "caught" if not r.missed and not r.misplaced else \
                    ", ".join([f"MISSED {e.code}@{e.line}" for e in r.missed] +
                              [f"MISPLACED {e.code}@{e.line}" for e in r.misplaced])
            else:
                status = "clean" if not r.false_positives else \
                    "FALSE " + ", ".join(f"{d.code}@{d.line}" for d in r.false_positives)
            print(f"{r.seconds:6.2f}s  {r.path.parent.name + '/' + r.path.name:45} {status}")
        print(f"\nmistakes caught at the right line: {caught} of {expected} ({caught / max(expected, 1):.0%}); "
              f"misplaced {misplaced}; missed {expected - caught - misplaced}")
        print(f"false positives on {len(cleans)} correct files: {false_pos}")
        print(f"time per file: mean {sum(r.seconds for r in results + cleans) / max(len(results + cleans), 1):.2f}s, "
              f"slowest {slowest.seconds:.2f}s ({slowest.path.name})"
              + (f", with {args.simulate} simulated hands" if args.simulate else ", static"))
    return 0 if caught == expected and false_pos == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
