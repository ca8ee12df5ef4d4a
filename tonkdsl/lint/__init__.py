"""``tonk lint``: what is contradictory, impossible, unreachable or surprising in a valid ruleset."""
from tonkdsl.lint.checks import LintReport, lint

__all__ = ["LintReport", "lint"]
