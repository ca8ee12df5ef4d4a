"""Every golden scenario in tests/scenarios (and the shared examples) passes `tonk check`."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from tonkdsl.cli import main
from conftest import EXAMPLES, SHARED, TESTS

SCENARIOS = sorted((TESTS / "scenarios").glob("*.yaml"))
# The examples kept in the repo, and those of the shared folder when it is beside the repo.
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.yaml")) + (
    sorted((SHARED / "examples").glob("*.yaml")) if (SHARED / "examples").is_dir() else [])


def test_there_is_a_scenario_for_every_s_and_b_rule() -> None:
    prefixes = {p.name.split("-")[0] for p in SCENARIOS}
    wanted = {f"s{i:02d}" for i in range(1, 16)} | {f"b{i:02d}" for i in range(1, 6)}
    # S3 (the dealer) and S6 (who starts) share s03/s06; every other rule has its own file.
    assert wanted - prefixes == set()


@pytest.mark.parametrize("path", SCENARIOS + EXAMPLE_FILES, ids=lambda p: p.name)
def test_scenario_passes_tonk_check(path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output


def test_check_all_at_once() -> None:
    result = CliRunner().invoke(main, ["check", *map(str, SCENARIOS + EXAMPLE_FILES)])
    assert result.exit_code == 0, result.output
    assert f"{len(SCENARIOS) + len(EXAMPLE_FILES)} passed, 0 failed" in result.output


def test_refusal_scenarios_exist() -> None:
    refusals = [p for p in SCENARIOS if "error:" in p.read_text()]
    assert len(refusals) >= 10
