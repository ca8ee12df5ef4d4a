"""The loading pipeline: YAML with positions -> extends -> JSON Schema -> expressions -> Ruleset.

Each step collects every problem it finds; the pipeline stops after a step that found any,
because later steps assume the earlier ones passed (expressions are only compiled in a file
whose shape is valid).
"""
from __future__ import annotations

from pathlib import Path as FsPath
from typing import Iterable

from tonkdsl.diagnostics import Diagnostic, LoadError, did_you_mean
from tonkdsl.merge import Doc, apply_removals, merge
from tonkdsl.resources import rulesets_dir, shipped_ruleset_names
from tonkdsl.ruleset import Ruleset, build
from tonkdsl.schema_check import validate
from tonkdsl.yamlsrc import load_yaml_file

MAX_EXTENDS_DEPTH = 8


def resolve_name(ref: str, base_dir: FsPath | None = None) -> FsPath:
    """A shipped ruleset name or a path (relative to ``base_dir``)."""
    looks_like_path = ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref
    if not looks_like_path:
        shipped = rulesets_dir() / f"{ref}.yaml"
        if shipped.is_file():
            return shipped
        raise LoadError([Diagnostic(
            "ruleset-unknown",
            f"no shipped ruleset is called '{ref}'{did_you_mean(ref, shipped_ruleset_names())}; "
            f"shipped: {', '.join(shipped_ruleset_names())} (or give a path to a .yaml file)", ref)])
    p = FsPath(ref)
    if not p.is_absolute() and base_dir is not None:
        p = base_dir / p
    return p


def display_name(path: FsPath) -> str:
    """How a file is named in diagnostics: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(FsPath.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def _within(path: FsPath, dirs: Iterable[FsPath]) -> bool:
    rp = path.resolve()
    return any(rp.is_relative_to(d.resolve()) for d in dirs)


def read_doc(path: FsPath, *, allow_paths: Iterable[FsPath] = (), _chain: tuple[FsPath, ...] = ()) -> Doc:
    """Read ``path`` and everything it extends, merged."""
    src = load_yaml_file(path, display_name(path))
    if not isinstance(src.data, dict):
        raise LoadError([src.diagnostic("ruleset-shape", "a ruleset file must be a mapping of keys", ())])
    ref = src.data.get("extends")
    if ref is None:
        return Doc.single(src)
    if not isinstance(ref, str) or not ref:
        raise LoadError([src.diagnostic("schema-type", "'extends' must be a ruleset name or a path", ("extends",))])
    parent = resolve_name(ref, path.parent)
    chain = _chain + (path.resolve(),)
    if parent.resolve() in chain:
        names = " -> ".join(p.name for p in chain + (parent,))
        raise LoadError([src.diagnostic("extends-cycle", f"'extends' goes round in a circle: {names}", ("extends",))])
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise LoadError([src.diagnostic(
            "limit-extends-depth", f"'extends' chains more than {MAX_EXTENDS_DEPTH} files (MAX_EXTENDS_DEPTH)",
            ("extends",))])
    shipped = parent.resolve().is_relative_to(rulesets_dir().resolve())
    if not shipped and not _within(parent, [path.parent, *allow_paths]):
        raise LoadError([src.diagnostic(
            "extends-outside", f"'extends' names {parent}, outside the folder of this file; "
            "pass --allow-path DIR to allow it", ("extends",))])
    if not parent.is_file():
        raise LoadError([src.diagnostic("extends-missing", f"'extends' names {ref}, but there is no such file "
                                        f"({parent})", ("extends",))])
    base = read_doc(parent, allow_paths=allow_paths, _chain=chain)
    removals = src.data.get("remove") or []
    problems = apply_removals(base, removals if isinstance(removals, list) else [], src)
    if problems:
        raise LoadError(problems)
    return merge(base, src)


def load_doc(ref: str | FsPath, *, allow_paths: Iterable[FsPath] = ()) -> Doc:
    path = resolve_name(str(ref)) if isinstance(ref, str) else ref
    if not path.exists():
        raise LoadError([Diagnostic("file-missing", f"no such file: {path}", str(path))])
    return read_doc(path, allow_paths=allow_paths)


def load_ruleset(ref: str | FsPath, *, allow_paths: Iterable[FsPath] = ()) -> Ruleset:
    """Load a ruleset by shipped name or path; raises :class:`LoadError` with every problem."""
    doc = load_doc(ref, allow_paths=allow_paths)
    problems = validate(doc)
    if problems:
        _, more = build(doc, shape_checked=False)
        raise LoadError(sorted(problems + more, key=lambda d: (d.file, d.line, d.column)))
    ruleset, problems = build(doc)
    if problems or ruleset is None:
        raise LoadError(problems)
    return ruleset


__all__ = ["load_ruleset", "load_doc", "resolve_name", "read_doc", "display_name"]
