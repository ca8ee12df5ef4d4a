"""The shipped JSON Schema is valid 2020-12, editors find it from the modeline, and the
package is mypy-clean."""
import json
import re
import subprocess
import sys

import jsonschema
import pytest

from tonkdsl.language.resources import rulesets_dir, schema_path
from conftest import ROOT


def test_schema_is_valid_2020_12() -> None:
    schema = json.loads(schema_path().read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_shipped_rulesets_have_a_modeline_that_reaches_the_schema() -> None:
    for path in sorted(rulesets_dir().glob("*.yaml")):
        first = path.read_text().splitlines()[0]
        m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert m, f"{path.name} has no schema modeline"
        assert (path.parent / m.group(1)).resolve() == schema_path().resolve()


def test_schema_rejects_unknown_keys_everywhere() -> None:
    """Every object in the schema is closed, so a misspelled key is always reported."""
    schema = json.loads(schema_path().read_text())

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                assert node.get("additionalProperties") is False, where
            for k, v in node.items():
                walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")
    walk(schema, "#")


@pytest.mark.slow
def test_mypy_clean() -> None:
    pytest.importorskip("mypy")
    res = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
