"""The language: ruleset text (YAML read with locations, ``extends`` merged, the JSON Schema,
the expression language) compiled into an immutable :class:`~tonkdsl.language.ruleset.Ruleset`.
Imports nothing from the interpreter, the tools or the CLI."""
