"""Limits on what a command line or a scenario may ask for, shared by the CLI (which must stay
light to import) and the readers of scenario files. The limits inside ruleset files live with
the code that checks them (docs/security.md lists them all)."""

# The largest stake of a table: amounts are stakes times small factors, and every number an
# expression makes is capped at MAX_NUMBER (10^12); a stake of a million leaves room for that.
MAX_STAKE = 1_000_000
