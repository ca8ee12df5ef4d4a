"""Lint output: text like a compiler, JSON, and SARIF 2.1.0 for editors and CI annotations."""
from __future__ import annotations

import json
from pathlib import Path as FsPath
from typing import Any, Sequence
from urllib.parse import quote

from tonkdsl import __version__
from tonkdsl.language.diagnostics import Diagnostic
from tonkdsl.language.resources import rulesets_dir
from tonkdsl.tools.lint.checks import CODES, LintReport

_SARIF_LEVEL = {"error": "error", "warning": "warning", "note": "note"}


def text(reports: Sequence[LintReport]) -> str:
    lines = []
    for r in reports:
        for d in r.diagnostics:
            lines.append(d.render())
        e, w = len(r.errors()), len(r.warnings())
        lines.append(f"{r.ruleset}: {e} error{'s' * (e != 1)}, {w} warning{'s' * (w != 1)}")
    return "\n".join(lines)


def as_json(reports: Sequence[LintReport]) -> str:
    """One shape for every input: a list with one object per ruleset named, valid or not."""
    return json.dumps([{"ruleset": r.ruleset, "valid": r.valid, "errors": len(r.errors()),
                        "warnings": len(r.warnings()), "diagnostics": [d.to_json() for d in r.diagnostics]}
                       for r in reports], indent=2)


SHIPPED = "TONKDSL_RULESETS"  # the uriBaseId of locations in the shipped rulesets


def _artifact(file: str) -> dict[str, Any]:
    """A file as SARIF names it: a shipped ruleset relative to the SHIPPED base (so that code
    scanning can place it), any other file as a relative URI reference."""
    path = FsPath(file)
    try:
        inside = path.resolve().relative_to(rulesets_dir().resolve())
        return {"uri": inside.as_posix(), "uriBaseId": SHIPPED}
    except (ValueError, OSError):
        return {"uri": quote(path.as_posix())}


def _location(file: str, line: int, col: int) -> dict[str, Any]:
    region: dict[str, int] = {"startLine": max(line, 1)}
    if col:
        region["startColumn"] = col
    return {"physicalLocation": {"artifactLocation": _artifact(file or "<input>"), "region": region}}


def _result(d: Diagnostic) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleId": d.code,
        "level": _SARIF_LEVEL.get(d.severity, "note"),
        "message": {"text": d.message + (f" (hint: {d.hint})" if d.hint else "")},
        "locations": [_location(d.file, d.line, d.column)],
    }
    if d.related:
        out["relatedLocations"] = [
            {"id": i, **_location(f, line, c)} for i, (f, line, c) in enumerate(d.related)
        ]
    if d.path:
        out["properties"] = {"path": d.path}
    return out


def sarif(reports: Sequence[LintReport]) -> str:
    results = [_result(d) for r in reports for d in r.diagnostics]
    used = sorted({d.code for r in reports for d in r.diagnostics} | set(CODES))
    return json.dumps({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "tonk lint",
                "version": __version__,
                "informationUri": "https://github.com/tonkdsl/tonkdsl/blob/main/docs/lint.md",
                "rules": [{"id": c, "shortDescription": {"text": CODES.get(c, c)}} for c in used],
            }},
            "results": results,
            "originalUriBaseIds": {SHIPPED: {"uri": rulesets_dir().resolve().as_uri() + "/"}},
        }],
    }, indent=2)
