"""The loading pipeline: YAML with positions -> extends -> JSON Schema -> expressions -> Ruleset.

Each step collects every problem it finds; the pipeline stops after a step that found any,
because later steps assume the earlier ones passed (expressions are only compiled in a file
whose shape is valid).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path as FsPath
from typing import Iterable

from tonkdsl.language.diagnostics import Diagnostic, LoadError, did_you_mean
from tonkdsl.language.merge import Doc, apply_removals, merge
from tonkdsl.language.resources import rulesets_dir, shipped_ruleset_names
from tonkdsl.language.ruleset import Ruleset, build
from tonkdsl.language.schema_check import validate
from tonkdsl.language.yamlsrc import Source, load_yaml_file, unsaved_text

MAX_EXTENDS_DEPTH = 8


def resolve_name(ref: str, base_dir: FsPath | None = None) -> FsPath:
    """A shipped ruleset name or a path (relative to ``base_dir``)."""
    looks_like_path = ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref
    if not looks_like_path:
        shipped = rulesets_dir() / f"{ref}.yaml"
        if _is_file(shipped):
            return shipped
        shown = ref if len(ref) <= 60 else ref[:57] + "..."
        raise LoadError([Diagnostic(
            "ruleset-unknown",
            f"no shipped ruleset is called '{shown}'{did_you_mean(ref, shipped_ruleset_names())}; "
            f"shipped: {', '.join(shipped_ruleset_names())} (or give a path to a .yaml file)", ref)])
    p = FsPath(ref)
    if not p.is_absolute() and base_dir is not None:
        p = base_dir / p
    return p


def _is_file(path: FsPath) -> bool:
    if unsaved_text(path) is not None:
        return True
    try:
        return path.is_file()
    except OSError:  # a name longer than the file system takes, and the like: no such file
        return False


def display_name(path: FsPath) -> str:
    """How a file is named in diagnostics: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(FsPath.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def _within(path: FsPath, dirs: Iterable[FsPath]) -> bool:
    rp = path.resolve()
    return any(rp.is_relative_to(d.resolve()) for d in dirs)


def may_read(path: FsPath, near: FsPath, allow_paths: Iterable[FsPath] = ()) -> bool:
    """The one rule for a file that another file names (``extends``, a scenario's ``ruleset``):
    a shipped ruleset, or a file inside the naming file's folder, the working folder or an
    ``--allow-path`` folder (docs/security.md)."""
    if path.resolve().is_relative_to(rulesets_dir().resolve()):
        return True
    return _within(path, [near, FsPath.cwd(), *allow_paths])


def _ruleset_keys() -> frozenset[str]:
    from tonkdsl.language.schema_check import load_schema

    return frozenset(load_schema().get("properties", {}))


def read_named(path: FsPath, display: str) -> Source:
    """Read a file that another file names as a ruleset, showing none of its lines unless it is
    one: a scenario naming /etc/passwd or a configuration file must not echo that file. A file
    YAML cannot read gets its diagnostics without the source lines; a file that is not a
    mapping with ruleset keys gets one diagnostic that says so."""
    try:
        src = load_yaml_file(path, display)
    except LoadError as exc:
        raise LoadError([replace(d, source_line="") for d in exc.diagnostics]) from None
    if not isinstance(src.data, dict) or not _ruleset_keys() & set(src.data):
        raise LoadError([Diagnostic("not-a-ruleset", f"{display} is not a ruleset file (its lines are not shown)",
                                    display, hint="name a shipped ruleset or a ruleset .yaml file")])
    return src


def read_doc(path: FsPath, *, allow_paths: Iterable[FsPath] = (), _chain: tuple[FsPath, ...] = (),
             named: bool = False) -> Doc:
    """Read ``path`` and everything it extends, merged. ``named``: the file was named by another
    file (not by the user on the command line), so it is read as :func:`read_named` says."""
    src = read_named(path, display_name(path)) if named else load_yaml_file(path, display_name(path))
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
    if not may_read(parent, path.parent, allow_paths):
        raise LoadError([src.diagnostic(
            "extends-outside", f"'extends' names {parent}, outside the folder of this file and the working "
            "folder; pass --allow-path DIR to allow it", ("extends",))])
    if not _is_file(parent):
        raise LoadError([src.diagnostic("extends-missing", f"'extends' names {ref}, but there is no such file "
                                        f"({parent})", ("extends",))])
    base = read_doc(parent, allow_paths=allow_paths, _chain=chain, named=True)
    removals = src.data.get("remove") or []
    problems = apply_removals(base, removals if isinstance(removals, list) else [], src)
    merged = merge(base, src)
    merged.problems += problems  # said with the file's other problems (load_doc, load_ruleset)
    return merged


def load_doc(ref: str | FsPath, *, allow_paths: Iterable[FsPath] = (), named: bool = False,
             collect: bool = False) -> Doc:
    """The merged document of ``ref``. A removal that names nothing raises :class:`LoadError`,
    unless ``collect``: then it is kept in ``Doc.problems`` for the caller to say with the rest."""
    path = resolve_name(str(ref)) if isinstance(ref, str) else ref
    try:
        if unsaved_text(path) is None:  # an editor's buffer not saved yet is read as it is
            path.stat()
    except FileNotFoundError:
        raise LoadError([Diagnostic("file-missing", f"no such file: {path}", str(path))]) from None
    except OSError as exc:
        raise LoadError([Diagnostic("file-unreadable", f"cannot read the file: {exc.strerror}",
                                    str(path)[:200])]) from None
    doc = read_doc(path, allow_paths=allow_paths, named=named)
    if doc.problems and not collect:
        raise LoadError(doc.problems)
    return doc


def load_ruleset(ref: str | FsPath, *, allow_paths: Iterable[FsPath] = (), named: bool = False) -> Ruleset:
    """Load a ruleset by shipped name or path; raises :class:`LoadError` with every problem.
    ``named``: another file (a scenario, a save) names it, so it is read as :func:`read_named` says."""
    doc = load_doc(ref, allow_paths=allow_paths, named=named, collect=True)
    problems = validate(doc)
    if problems or doc.problems:  # every problem at once: a bad 'remove' hides nothing else
        _, more = build(doc, shape_checked=False)
        raise LoadError(sorted(doc.problems + problems + more, key=lambda d: (d.file, d.line, d.column)))
    ruleset, problems = build(doc)
    if problems or ruleset is None:
        raise LoadError(problems)
    return ruleset


__all__ = ["load_ruleset", "load_doc", "resolve_name", "read_doc", "display_name", "may_read"]
