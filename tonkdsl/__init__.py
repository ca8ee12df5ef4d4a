"""tonkdsl: Tonk's house rules as data.

The public API is small:

- :func:`load_ruleset` reads a ruleset file or shipped name into an immutable :class:`Ruleset`;
- :meth:`Ruleset.new_hand` deals a hand and returns a :class:`State`;
- :mod:`tonkdsl.actions` holds the action values (``Action.parse("draw stock")``);
- :func:`load_scenario` / :func:`replay` run scenario files.

Errors in input files are reported as :class:`LoadError`, which carries a list of
:class:`Diagnostic` objects (file, line, column, path, message).
"""
from tonkdsl.actions import Action, parse_action
from tonkdsl.diagnostics import Diagnostic, LoadError
from tonkdsl.engine import IllegalAction, State
from tonkdsl.loader import load_ruleset
from tonkdsl.outcome import Outcome
from tonkdsl.ruleset import Ruleset
from tonkdsl.scenario import load_scenario, replay

__all__ = [
    "Action",
    "Diagnostic",
    "IllegalAction",
    "LoadError",
    "Outcome",
    "Ruleset",
    "State",
    "load_ruleset",
    "load_scenario",
    "parse_action",
    "replay",
]
__version__ = "0.1.0"
