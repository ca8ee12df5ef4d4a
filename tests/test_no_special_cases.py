"""Variations are data: the engine's code names no ruleset, region or catalog ID."""
import re

from tonkdsl.language.resources import shipped_ruleset_names
from conftest import ROOT

CATALOG_ID = re.compile(r"\b[SBVR][0-9]{1,2}[a-z]?\b")
REGIONS = ["baton rouge", "baton-rouge", "rushville", "indiana", "chicago", "washington", "seattle",
           "vietnam", "newark", "speno", "baltimore", "pagat", "push-ups", "pushups"]


def engine_sources():
    files = sorted((ROOT / "tonkdsl").rglob("*.py")) + sorted((ROOT / "grammars").glob("*.lark"))
    assert len(files) > 10
    return files


def test_no_catalog_ids_in_engine_code() -> None:
    hits = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
            for p in engine_sources() for i, line in enumerate(p.read_text().splitlines(), 1)
            if CATALOG_ID.search(line)]
    assert hits == []


def test_no_ruleset_or_region_names_in_engine_code() -> None:
    names = [n for n in shipped_ruleset_names() if n != "standard"] + REGIONS
    quoted = re.compile(r"""["']standard["']""")  # 'standard' as English is fine, as a name is not
    hits = []
    for p in engine_sources():
        for i, line in enumerate(p.read_text().splitlines(), 1):
            low = line.lower()
            if any(re.search(rf"\b{re.escape(n)}\b", low) for n in names) or quoted.search(line):
                hits.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert hits == []


def test_the_check_would_catch_a_special_case(tmp_path) -> None:
    """The patterns above do find what they look for."""
    assert CATALOG_ID.search("if variation == 'V17':")
    assert CATALOG_ID.search("# R3b reading")
    assert re.search(r"\bchicago\b", "if ruleset.name == 'chicago':".lower())
