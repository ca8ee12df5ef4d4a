"""Validate merged ruleset data against the shipped JSON Schema (2020-12) and translate each
jsonschema error into a located :class:`Diagnostic` in a player's words."""
from __future__ import annotations

import functools
import hashlib
import json
from typing import TYPE_CHECKING, Any, Iterable

from tonkdsl.language.diagnostics import Diagnostic, did_you_mean
from tonkdsl.language.merge import Doc
from tonkdsl.language.resources import schema_path

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

# The digests of the shipped rulesets' merged documents, checked against this very schema when
# the package was built (``python -m tonkdsl.docgen`` writes the file; a test keeps it fresh).
# A document whose digest is listed is known valid, so loading it skips importing jsonschema
# (0.1 s of every 'tonk simulate standard'). Any other document is validated in full.
VALID_DIGESTS_FILE = "valid-digests.txt"

_TYPE_WORDS = {"integer": "a whole number", "string": "text", "boolean": "true or false",
               "array": "a list", "object": "a mapping of keys", "null": "empty", "number": "a number"}


@functools.lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return data


@functools.lru_cache(maxsize=1)
def construct_schemas() -> dict[str, dict[str, Any]]:
    """The keys whose section is a construct's (``x-construct``), by dotted path ("slapping",
    "turn.in_turn", "turn.drop.last_round"), with their schema, at any depth of the sections."""
    out: dict[str, dict[str, Any]] = {}

    def walk(properties: dict[str, Any], prefix: str) -> None:
        for key, node in properties.items():
            if not isinstance(node, dict):
                continue
            if node.get("x-construct"):
                out[prefix + key] = node
            elif isinstance(node.get("properties"), dict):
                walk(node["properties"], f"{prefix}{key}.")

    walk(load_schema()["properties"], "")
    return out


@functools.lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(load_schema())


def forget_schema() -> None:
    """Read the schema file afresh from now on (docgen rewrites it, then checks against it)."""
    load_schema.cache_clear()
    construct_schemas.cache_clear()
    _validator.cache_clear()


def schema_at(path: tuple[Any, ...], *, resolve_last: bool = True) -> dict[str, Any]:
    """The schema node of the value at ``path`` (keys and list indices; a string naming an entry
    of a list goes into its items), ``{}`` where the schema has none. ``resolve_last=False``
    keeps the last ``$ref`` unresolved, with the description written beside it."""
    schema = load_schema()
    node: dict[str, Any] = schema
    for part in path:
        while "$ref" in node:
            node = _resolve_ref(schema, node["$ref"])
        if isinstance(part, int) or (isinstance(part, str) and node.get("type") == "array"):
            node = node.get("items", {})
            if isinstance(part, int):
                continue
        while "$ref" in node:
            node = _resolve_ref(schema, node["$ref"])
        props = node.get("properties", {})
        if isinstance(part, str) and part in props:
            node = props[part]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return {}
    if resolve_last and "description" not in node:
        while "$ref" in node:
            node = _resolve_ref(schema, node["$ref"])
    return node


def _resolve_ref(schema: dict[str, Any], ref: str) -> dict[str, Any]:
    node: Any = schema
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    result: dict[str, Any] = node
    return result


def digest(data: Any) -> str:
    """The digest of a merged document together with the schema it is checked against."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(schema_path().read_bytes() + b"\0" + text.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=1)
def known_valid() -> frozenset[str]:
    try:
        text = (schema_path().parent / VALID_DIGESTS_FILE).read_text(encoding="ascii")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def _field(path: Iterable[Any]) -> str:
    parts = [str(p) for p in path if not isinstance(p, int)]
    return parts[-1] if parts else "the file"


def _describe(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return "a mapping" if isinstance(v, dict) else "a list"
    return repr(v) if isinstance(v, str) else str(v)


def _parent_description(path: tuple[Any, ...]) -> str:
    """The schema's description of the field at ``path`` (for a hint)."""
    node: Any = load_schema()
    for part in path:
        if isinstance(part, int):
            node = node.get("items", {})
        else:
            node = node.get("properties", {}).get(part, {})
    return str(node.get("description", ""))


def _translate(doc: Doc, err: ValidationError) -> list[Diagnostic]:
    path = tuple(err.absolute_path)
    v = err.validator
    if v == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(err.schema.get("properties", {}))
        out = []
        for key in err.instance:
            if key in allowed:
                continue
            where = f"in '{_field(path)}'" if path else "at the top level"
            out.append(doc.diagnostic(
                "schema-unknown-key", f"unknown key '{key}' {where}{did_you_mean(key, allowed)}",
                path + (key,), key=True, hint=f"allowed keys: {', '.join(allowed)}"))
        return out
    if v == "required":
        missing = [m for m in err.validator_value if m not in err.instance]
        return [doc.diagnostic("schema-missing-key",
                               f"'{_field(path)}' needs the key '{m}'" if path else f"the ruleset needs the key '{m}'",
                               path) for m in missing]
    if "propertyNames" in err.relative_schema_path and isinstance(err.instance, str):
        # A key that is not allowed in a mapping (pack.values: {ZZ: 3}): point at the key.
        known = err.schema.get("enum") or [a for sub in err.schema.get("anyOf", []) for a in sub.get("enum", [])]
        return [doc.diagnostic("schema-key", f"'{_field(path)}' cannot have the key {_describe(err.instance)}"
                               f"{did_you_mean(err.instance, map(str, known))}", path + (err.instance,), key=True,
                               hint=_parent_description(path))]
    if v in ("anyOf", "oneOf") and err.context:
        # The branch of the instance's own type says what is wrong inside it ('decks' given as
        # a list with a misspelled key), better than another branch's "must be a number".
        same_type = [e for e in err.context if e.validator != "type" or len(e.absolute_path) > len(err.absolute_path)]
        if isinstance(err.instance, (list, dict)):  # a list is wrong as a list (too long), not as a word
            same_type = [e for e in same_type if e.validator not in ("enum", "const", "pattern")
                         or len(e.absolute_path) > len(err.absolute_path)] or same_type
        from jsonschema.exceptions import best_match

        inner = best_match(same_type or err.context)
        if inner.validator in ("enum", "const", "pattern"):
            return [doc.diagnostic("schema-value", f"'{_field(path)}': {_describe(err.instance)} is not allowed "
                                   f"here", path, hint=err.schema.get("description", ""))]
        return _translate(doc, inner)
    if v == "type":
        want = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        words = " or ".join(_TYPE_WORDS.get(str(w), str(w)) for w in want)
        return [doc.diagnostic("schema-type", f"'{_field(path)}' must be {words}, not {_describe(err.instance)}",
                               path)]
    if v == "enum":
        choices = [str(c) for c in err.validator_value]
        return [doc.diagnostic("schema-value",
                               f"'{_field(path)}' cannot be {_describe(err.instance)}"
                               f"{did_you_mean(str(err.instance), choices)}; choose one of: {', '.join(dict.fromkeys(choices))}",
                               path)]
    if v in ("minimum", "maximum"):
        word = "at least" if v == "minimum" else "at most"
        return [doc.diagnostic("schema-range", f"'{_field(path)}' must be {word} {err.validator_value}, "
                               f"not {_describe(err.instance)}", path)]
    if v == "uniqueItems":
        return [doc.diagnostic("schema-duplicate", f"'{_field(path)}' lists the same item twice", path)]
    if v == "maxItems":
        return [doc.diagnostic("schema-too-long", f"'{_field(path)}' lists {len(err.instance)} items; at most "
                               f"{err.validator_value} are allowed", path,
                               hint=err.schema.get("description", "") or _parent_description(path))]
    if v == "minItems":
        return [doc.diagnostic("schema-empty", f"'{_field(path)}' must not be empty", path)]
    if v == "propertyNames":
        return [doc.diagnostic("schema-key", f"'{_field(path)}' has a key that is not allowed",
                               path, hint=_parent_description(path))]
    if v == "pattern":  # never the raw regular expression: say what the field holds instead
        return [doc.diagnostic("schema-value", f"'{_field(path)}' cannot be {_describe(err.instance)}", path,
                               hint=err.schema.get("description", "") or _parent_description(path)
                               or "a name is letters, digits, _ and - (no spaces)")]
    return [doc.diagnostic("schema", f"'{_field(path)}': {err.message}", path)]


def validate(doc: Doc) -> list[Diagnostic]:
    """Every schema problem of ``doc``, sorted by file position."""
    if digest(doc.data) in known_valid():
        return []
    return full_validation(doc)


def full_validation(doc: Doc) -> list[Diagnostic]:
    """Every schema problem of ``doc`` found by jsonschema (never the list of known digests)."""
    out: list[Diagnostic] = []
    for err in _validator().iter_errors(doc.data):
        out.extend(_translate(doc, err))
    # One problem found through several branches of the schema (anyOf, a $ref used twice) is
    # reported once.
    out = list(dict.fromkeys(out))
    out.sort(key=lambda d: (d.file, d.line, d.column))
    return out
