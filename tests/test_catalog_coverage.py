"""Every V and R entry of the rules catalog has a passing scenario and a row in docs/variations.md."""
import re

import pytest

from conftest import ROOT, TESTS

CATALOG = ROOT / "docs" / "rules-catalog.md"


def catalog_ids() -> list[str]:
    text = CATALOG.read_text()
    ids = set(re.findall(r"^\s*- ([VR]\d+[a-z]?)\b", text, re.M))
    ids |= set(re.findall(r"\b((?:V|R)\d+[a-z])\b", text))  # sub-readings named in the text
    if "V19" in ids:  # the catalog writes V19's readings as (a) and (b)
        ids |= {"V19a", "V19b"}
    return sorted(ids, key=lambda i: (i[0], int(re.sub(r"\D", "", i)), i))


def scenario_prefix(cid: str) -> str:
    m = re.fullmatch(r"([VR])(\d+)([a-z]?)", cid)
    assert m
    return f"{m.group(1).lower()}{int(m.group(2)):02d}{m.group(3)}"


@pytest.mark.skipif(not CATALOG.exists(), reason="../shared is not beside the checkout")
def test_catalog_ids_have_scenarios_and_docs() -> None:
    ids = catalog_ids()
    assert {"V1", "V4e", "V6g", "V20", "R1", "R9", "R3b", "R6b"} <= set(ids)
    scenarios = {p.name for p in (TESTS / "scenarios").glob("*.yaml")}
    docs = (ROOT / "docs" / "variations.md").read_text()
    missing_docs = [i for i in ids if f"| {i} |" not in docs]
    assert missing_docs == []
    parents = {"V4", "V6", "V19"}  # described by their lettered readings
    sub_readings_in_ruleset = {"R3b", "R3c"}  # chicago's comments show the lines; no ruleset of their own
    missing = []
    for cid in ids:
        if cid in parents or cid in sub_readings_in_ruleset:
            continue
        prefix = scenario_prefix(cid)
        if cid == "R6b":
            prefix = "r06-vietnam"
        if cid == "R9":
            ok = any(n.startswith("s") for n in scenarios) and any(n.startswith("b") for n in scenarios)
        else:
            ok = any(n.startswith(prefix + "-") for n in scenarios)
        if not ok:
            missing.append(cid)
    assert missing == []


def test_each_variation_ruleset_has_a_scenario() -> None:
    scenarios = "\n".join(p.read_text() for p in (TESTS / "scenarios").glob("*.yaml"))
    for rs in (TESTS / "variations").glob("*.yaml"):
        assert f"../variations/{rs.name}" in scenarios, rs.name


def test_at_least_five_combinations_of_three_variations() -> None:
    combos = list((TESTS / "variations").glob("combo-*.yaml"))
    rich = [p for p in combos if len(set(re.findall(r"# (V\d+[a-z]?)\b", p.read_text()))) >= 3]
    assert len(rich) >= 5
