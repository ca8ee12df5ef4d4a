"""tonkdsl: Tonk's house rules as data.

The public API is small:

- :func:`load_ruleset` reads a ruleset file or shipped name into an immutable :class:`Ruleset`;
- :func:`deal` deals a hand of a ruleset and returns a :class:`State`;
- :mod:`tonkdsl.actions` holds the action values (``Action.parse("draw stock")``);
- :func:`load_scenario` / :func:`replay` run scenario files.

Errors in input files are reported as :class:`LoadError`, which carries a list of
:class:`Diagnostic` objects (file, line, column, path, message).
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tonkdsl.actions import Action, parse_action
    from tonkdsl.diagnostics import Diagnostic, LoadError
    from tonkdsl.engine import IllegalAction, State, deal
    from tonkdsl.loader import load_ruleset
    from tonkdsl.outcome import Outcome
    from tonkdsl.ruleset import Ruleset
    from tonkdsl.scenario import load_scenario, replay

# The names load on first use (PEP 562), so that 'import tonkdsl.cli' for 'tonk --help' does not
# pay for the engine, the schema validator and the expression parser (about 0.2 s).
_HOMES = {
    "Action": "actions", "parse_action": "actions", "Diagnostic": "diagnostics", "LoadError": "diagnostics",
    "IllegalAction": "engine", "State": "engine", "deal": "engine", "load_ruleset": "loader", "Outcome": "outcome",
    "Ruleset": "ruleset", "load_scenario": "scenario", "replay": "scenario",
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
