"""Where the shipped grammars, rulesets and schema are found.

In a wheel, ``grammars/``, ``rulesets/`` and ``docs/`` are package data inside ``tonkdsl/``; in a source
checkout (or an editable install) they sit at the top of the repository.
"""
from __future__ import annotations

from pathlib import Path

# The package's folder (importlib.resources would say the same for a package installed as files,
# at the price of importing it: a few ms of every command's start).
_PACKAGE = Path(__file__).resolve().parents[1]


def _data_dir(name: str) -> Path:
    packaged = _PACKAGE / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name  # a source checkout: the data sit at the top of the repository


def grammar_text(name: str = "expr.lark") -> str:
    return (_data_dir("grammars") / name).read_text(encoding="utf-8")


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def shipped_ruleset_names() -> list[str]:
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def base_ruleset_name() -> str:
    """The shipped ruleset that the most shipped rulesets extend (the game the others change):
    where a command starts from when the user names none."""
    counts: dict[str, int] = {}
    for path in rulesets_dir().glob("*.yaml"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("extends:"):
                name = line.split(":", 1)[1].split("#", 1)[0].strip()
                counts[name] = counts.get(name, 0) + 1
    return max(sorted(counts), key=counts.__getitem__)


def docs_topics() -> dict[str, Path]:
    """The documentation pages that ship with the package (docs/ of the repository), by name."""
    folder = _data_dir("docs")
    return {p.stem: p for p in sorted(folder.glob("*.md"))} if folder.is_dir() else {}


def schema_path() -> Path:
    return _PACKAGE / "schema" / "ruleset.schema.json"
