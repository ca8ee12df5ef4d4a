"""``tonk lint``: what is contradictory, impossible, unreachable or surprising in a valid ruleset."""
from tonkdsl.tools.lint.checks import LintReport, lint

__all__ = ["LintReport", "lint"]
