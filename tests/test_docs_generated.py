"""Generated docs are up to date, the DSL reference covers every schema key, every example in
docs/ is valid, and `tonk diff standard speno` names every B rule's difference."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tonkdsl import load_ruleset, load_scenario
from tonkdsl.cli import main
from tonkdsl.docgen import generated, schema_keys
from tonkdsl.tools.explain import explain
from conftest import ROOT

DOCS = ROOT / "docs"


@pytest.mark.parametrize("path,text", sorted(generated(DOCS).items()), ids=lambda x: getattr(x, "name", ""))
def test_generated_docs_are_fresh(path: Path, text: str) -> None:
    assert path.exists(), f"{path} is missing: run python -m tonkdsl.docgen"
    assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run python -m tonkdsl.docgen"


def test_reference_covers_every_schema_key() -> None:
    ref = (DOCS / "reference.md").read_text()
    keys = [p for p, _ in schema_keys()]
    assert len(keys) > 80
    assert [k for k in keys if f"`{k}`" not in ref] == []


def yaml_blocks() -> list[tuple[Path, int, str]]:
    out = []
    for md in sorted(DOCS.rglob("*.md")):
        for m in re.finditer(r"```yaml\n(.*?)```", md.read_text(), re.S):
            out.append((md, md.read_text()[: m.start()].count("\n") + 1, m.group(1)))
    return out


@pytest.mark.parametrize("md,line,block", yaml_blocks(), ids=lambda x: str(x)[-30:] if isinstance(x, Path) else "")
def test_every_yaml_example_in_docs_is_valid(tmp_path: Path, md: Path, line: int, block: str) -> None:
    if re.search(r"^(extends|name):", block, re.M):
        p = tmp_path / "example.yaml"
        p.write_text(block)
        load_ruleset(p)
    elif re.search(r"^ruleset:", block, re.M):
        p = tmp_path / "example.yaml"
        p.write_text(block)
        load_scenario(p)
    else:
        pytest.skip(f"{md.name}:{line} is a fragment, not a whole file")


def test_explain_every_shipped_ruleset_in_three_formats() -> None:
    rs = load_ruleset("washington-state")
    md, text, html = (explain(rs, f, 2) for f in ("md", "text", "html"))
    assert md.startswith("# Washington State") and "## Waiting" in md
    assert "2 x the number of players x the stake" in md or "caught-dropper-pays" in md
    assert text.startswith("WASHINGTON STATE\n") and html.startswith("<!doctype html>")
    assert "4 (2 x the stake)" in md  # amounts worked out for the stake


def test_diff_standard_speno_names_every_b_difference() -> None:
    r = CliRunner().invoke(main, ["diff", "standard", "speno"])
    assert r.exit_code == 1
    out = r.output
    assert "Automatic win added: tonk-15-or-less: the player's count is at most 15, paid 2 (2 x the stake)" in out  # B1
    assert "redeal -> all_paid  ($.deal_wins.several)" in out  # B1: tonk players pay each other nothing
    assert "Books can no longer be hit  ($.hits.books)" in out  # B2
    assert "Payout tonk-out: How much each payer pays each receiver: 2 (2 x the stake) -> 1 (the stake)" in out  # B3


def test_diff_same_ruleset_exit_0() -> None:
    r = CliRunner().invoke(main, ["diff", "standard", "standard"])
    assert r.exit_code == 0 and "0 differences" in r.output


def test_new_writes_a_valid_starter(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["new", "our-table", "--from", "speno", "--dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    rs_path, scn_path = tmp_path / "our-table.yaml", tmp_path / "our-table-hand.yaml"
    text = rs_path.read_text()
    assert text.startswith("# yaml-language-server: $schema=") and "extends: speno" in text
    assert load_ruleset(rs_path).name == "Our Table"
    r = CliRunner().invoke(main, ["check", str(scn_path)])
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output
    r = CliRunner().invoke(main, ["new", "our-table", "--from", "standard", "--dir", str(tmp_path)])
    assert r.exit_code == 2 and "exists already" in r.output


def _plain(text: str) -> str:
    return " ".join(text.replace("\n- ", "\n").replace("\n  ", "\n").split())


def recipe_quotes() -> list[tuple[str, str]]:
    """Each passage a recipe of docs/recipes.md quotes from its rules sheet (parts between '...')."""
    out = []
    title = ""
    for line_block in re.split(r"^(###? .*)$", (DOCS / "recipes.md").read_text(), flags=re.M):
        if line_block.startswith("### "):
            title = line_block[4:].strip()
            continue
        for quote in re.findall(r"((?:^> .*\n?)+)", line_block, flags=re.M):
            text = " ".join(q[2:] for q in quote.splitlines())
            out += [(title, part.strip(" -")) for part in text.split("...") if part.strip(" -")]
    return out


@pytest.mark.parametrize("title,passage", recipe_quotes(), ids=lambda x: x[:40])
def test_every_sheet_a_recipe_quotes_is_what_explain_prints(title: str, passage: str) -> None:
    from tonkdsl.docgen import slug
    sheets = [p.read_text() for p in (DOCS / "recipe-sheets").glob(f"{slug(title)}*.md")]
    assert sheets and any(_plain(passage.replace(" - ", " ")) in _plain(sheet) for sheet in sheets)
