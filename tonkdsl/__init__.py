"""tonkdsl: Tonk's house rules as data.

The public API is small:

- :func:`load_ruleset` reads a ruleset file or shipped name into an immutable :class:`Ruleset`;
- :func:`deal` deals a hand of a ruleset and returns a :class:`State`;
- :mod:`tonkdsl.interpreter.actions` holds the action values (``Action.parse("draw stock")``);
- :func:`load_scenario` / :func:`replay` run scenario files.

Errors in input files are reported as :class:`LoadError`, which carries a list of
:class:`Diagnostic` objects (file, line, column, path, message).
"""
from __future__ import annotations

import sys
import warnings
from importlib import import_module
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_loader
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tonkdsl.interpreter.actions import Action, parse_action
    from tonkdsl.interpreter.engine import IllegalAction, State, deal
    from tonkdsl.interpreter.outcome import Outcome
    from tonkdsl.language.diagnostics import Diagnostic, LoadError
    from tonkdsl.language.loader import load_ruleset
    from tonkdsl.language.ruleset import Ruleset
    from tonkdsl.tools.scenario import load_scenario, replay

# The names load on first use (PEP 562), so that 'import tonkdsl.cli' for 'tonk --help' does not
# pay for the engine, the schema validator and the expression parser (about 0.2 s).
_HOMES = {
    "Action": "interpreter.actions", "parse_action": "interpreter.actions", "Diagnostic": "language.diagnostics",
    "LoadError": "language.diagnostics", "IllegalAction": "interpreter.engine", "State": "interpreter.engine",
    "deal": "interpreter.engine", "load_ruleset": "language.loader", "Outcome": "interpreter.outcome",
    "Ruleset": "language.ruleset", "load_scenario": "tools.scenario", "replay": "tools.scenario",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tonkdsl' has no attribute {name!r}")
    value = getattr(import_module(f"tonkdsl.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "Action",
    "Diagnostic",
    "IllegalAction",
    "LoadError",
    "Outcome",
    "Ruleset",
    "State",
    "deal",
    "load_ruleset",
    "load_scenario",
    "parse_action",
    "replay",
]
__version__ = "0.1.0"


# The modules' paths before the layers had folders (tonkdsl.engine, tonkdsl.lint.odds, ...) still
# import, as the same module objects, with a DeprecationWarning: code written against them keeps
# working. The finder goes first on the meta path so that a submodule of a moved package is never
# loaded a second time under its old name.
_MOVED = {
    **dict.fromkeys(("cards", "diagnostics", "expr", "yamlsrc", "merge", "schema_check", "resources", "ruleset",
                     "loader", "names", "limits", "rng"), "language"),
    **dict.fromkeys(("actions", "table", "melds", "outcome", "turn", "turn_flow", "engine", "dealer", "session",
                     "view"), "interpreter"),
    **dict.fromkeys(("bots", "strong", "simulate", "stats", "report_sim", "lint", "explain", "play", "screen",
                     "serve", "scenario", "starter"), "tools"),
}


class _OldPaths:
    """Imports ``tonkdsl.<module>[.<sub>]`` as ``tonkdsl.<layer>.<module>[.<sub>]``: a meta path
    finder and its loader (the import system asks only for these three methods; the abstract
    classes of importlib.abc would import importlib.resources, pathlib, tempfile and zipfile,
    10 ms of 'import tonkdsl')."""

    @staticmethod
    def new_name(fullname: str) -> str | None:
        parts = fullname.split(".")
        if len(parts) < 2 or parts[0] != "tonkdsl" or parts[1] not in _MOVED:
            return None
        return ".".join(["tonkdsl", _MOVED[parts[1]], *parts[1:]])

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        new = self.new_name(fullname)
        return None if new is None else spec_from_loader(fullname, self)  # type: ignore[arg-type]  # a loader by its methods (see above)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        new = self.new_name(spec.name)
        assert new is not None
        warnings.warn(f"{spec.name} is now {new}; the old path will go in a later version",
                      DeprecationWarning, stacklevel=2)
        return import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        pass  # the module under its new name is already loaded


if not any(isinstance(f, _OldPaths) for f in sys.meta_path):
    sys.meta_path.insert(0, _OldPaths())
