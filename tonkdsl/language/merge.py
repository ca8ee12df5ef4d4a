"""Resolve ``extends:``: deep merge with explicit removal, remembering where each value came from.

Rules (documented in docs/rulesets.md):

- mappings merge key by key, recursively;
- lists of mappings that all have an ``id`` merge by id (same id: merged; new id: appended);
- any other value (scalars, other lists) replaces the inherited one;
- ``remove: [deal_wins.rules.tonk-49-50, hits.max_cards_per_turn]`` deletes inherited entries
  first (a list entry is named by its id).

Every merged value keeps an *origin* (source file and path there) so that a diagnostic about
the merged ruleset still points at the line of the file that wrote the value.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from tonkdsl.language.diagnostics import Diagnostic, Path, did_you_mean, json_path
from tonkdsl.language.yamlsrc import Source


@dataclass
class Doc:
    """Merged data plus, for subtree roots, the source and path that wrote them."""

    data: Any
    origins: dict[Path, tuple[Source, Path]] = field(default_factory=dict)
    # Mappings that a later file merged keys into (pack.values in a file that extends
    # standard): a diagnostic about that very mapping points at the later file's line.
    touched: dict[Path, tuple[Source, Path]] = field(default_factory=dict)
    # What could not be merged (a 'remove' that names nothing): said with every other problem
    # of the file (loader.load_doc raises them unless asked to collect them).
    problems: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def single(cls, src: Source) -> "Doc":
        return cls(src.data, {(): (src, ())})

    def origin(self, path: Path) -> tuple[Source, Path]:
        p = tuple(path)
        if p in self.touched and p not in self.origins:
            return self.touched[p]
        for cut in range(len(p), -1, -1):
            hit = self.origins.get(p[:cut])
            if hit is not None:
                return hit[0], hit[1] + p[cut:]
        raise KeyError(path)  # pragma: no cover - the root always has an origin

    def diagnostic(self, code: str, message: str, path: Path, *, key: bool = False, hint: str = "",
                   line_offset: int = 0, column_offset: int = 0) -> Diagnostic:
        src, spath = self.origin(path)
        d = src.diagnostic(code, message, spath, key=key, hint=hint,
                           line_offset=line_offset, column_offset=column_offset)
        # Report the path in the merged ruleset, which is what the schema and docs talk about.
        return Diagnostic(d.code, d.message, d.file, d.line, d.column, json_path(path), d.severity,
                          d.source_line, d.hint)

    def source_of(self, path: Path) -> Source:
        return self.origin(path)[0]


def is_id_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(x, dict) and isinstance(x.get("id"), str) for x in value
    )


def _rekey(origins: dict[Path, tuple[Source, Path]], old: Path, new: Path | None) -> None:
    """Move (or drop, when ``new`` is None) every origin under ``old``."""
    moved = {p: o for p, o in origins.items() if p[: len(old)] == old}
    for p in moved:
        del origins[p]
    if new is not None:
        for p, o in moved.items():
            origins[new + p[len(old):]] = o


def apply_removals(base: Doc, removals: list[Any], child: Source) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    for i, dotted in enumerate(removals):
        where: Path = ("remove", i)
        if not isinstance(dotted, str):
            continue  # the schema reports the wrong type
        parts = dotted.split(".")
        node: Any = base.data
        path: Path = ()

        for j, part in enumerate(parts):
            last = j == len(parts) - 1
            if isinstance(node, dict):
                if part not in node:
                    problems.append(child.diagnostic(
                        "extends-remove", f"nothing to remove at '{dotted}': the extended ruleset has no "
                        f"'{part}' there{did_you_mean(part, node)}", where))

                    break
                if last:
                    del node[part]
                    _rekey(base.origins, path + (part,), None)
                else:
                    node, path = node[part], path + (part,)
            elif is_id_list(node):
                ids = [x["id"] for x in node]
                if part not in ids:
                    problems.append(child.diagnostic(
                        "extends-remove", f"nothing to remove at '{dotted}': no entry with id '{part}'"
                        f"{did_you_mean(part, ids)}", where))

                    break
                k = ids.index(part)
                if last:
                    del node[k]
                    _rekey(base.origins, path + (k,), None)
                    for later in range(k + 1, len(ids)):
                        _rekey(base.origins, path + (later,), path + (later - 1,))
                else:
                    node, path = node[k], path + (k,)
            else:
                problems.append(child.diagnostic(
                    "extends-remove", f"nothing to remove at '{dotted}'", where))
                break
    return problems


def merge(base: Doc, child: Source) -> Doc:
    """Merge ``child`` (already read) over ``base`` (already resolved)."""
    result = Doc(copy.deepcopy(base.data), dict(base.origins), dict(base.touched), list(base.problems))
    _merge_into(result, result.data, (), child, child.data, ())
    return result


def _merge_into(doc: Doc, target: dict[str, Any], rpath: Path, src: Source, over: dict[str, Any],
                spath: Path) -> None:
    for key, value in over.items():
        if key in ("extends", "remove") and rpath == ():
            continue
        rp, sp = rpath + (key,), spath + (key,)
        old = target.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            doc.touched[rp] = (src, sp)
            _merge_into(doc, old, rp, src, value, sp)
        elif isinstance(old, list) and is_id_list(old) and is_id_list(value):
            ids = [x["id"] for x in old]
            for j, item in enumerate(value):
                if item["id"] in ids:
                    k = ids.index(item["id"])
                    _merge_into(doc, old[k], rp + (k,), src, item, sp + (j,))
                else:
                    old.append(copy.deepcopy(item))
                    ids.append(item["id"])
                    doc.origins[rp + (len(old) - 1,)] = (src, sp + (j,))
        else:
            _rekey(doc.origins, rp, None)
            _rekey(doc.touched, rp, None)
            target[key] = copy.deepcopy(value)
            doc.origins[rp] = (src, sp)
