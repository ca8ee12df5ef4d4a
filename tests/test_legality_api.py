"""The legality check as a product (issue 80): tonkdsl.tools.legality, `tonk lint --simulate`,
and the short check before `tonk serve` opens a table."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tonkdsl.cli import main
from tonkdsl.language.loader import load_ruleset
from tonkdsl.tools.legality import check
from tonkdsl.tools.scenario import load_scenario, replay

FAILS = ("extends: standard\nname: Fails at the third turn\n"
         "turn:\n  drop: {allowed: '10 / (3 - turns) >= 0'}\n")


def _write(tmp_path: Path, text: str = FAILS) -> Path:
    path = tmp_path / "fails.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_rule_failing_at_play_is_found_with_a_scenario_that_replays_to_it(tmp_path: Path) -> None:
    path = _write(tmp_path)
    report = check(load_ruleset(path), seeds=range(3), ruleset_ref=str(path))
    assert report.hands == 12  # 2 and 4 players, 3 seeds, random and greedy bots
    assert report.findings and {f.kind for f in report.findings} == {"rule-failed"}
    first = report.findings[0]
    assert "the rule '10 / (3 - turns) >= 0' failed: division by zero" in first.message
    scenario = tmp_path / "found.yaml"
    scenario.write_text(first.scenario, encoding="utf-8")
    result = replay(load_scenario(scenario))
    # The scenario's last action is the one on which the rule failed (or the state where listing
    # the actions failed): replayed, the ruleset fails there again.
    assert result.error is None or result.error.get("kind") == "ruleset"


def test_a_sound_ruleset_has_no_finding() -> None:
    report = check(load_ruleset("standard"), seeds=range(4))
    assert report.ok and report.hands == 16


def test_lint_simulate_names_the_failing_rule_at_its_line_and_writes_the_hand(tmp_path: Path) -> None:
    path = _write(tmp_path)
    folder = tmp_path / "found"
    result = CliRunner().invoke(main, ["lint", str(path), "--simulate", "200", "--witness", str(folder)])
    assert result.exit_code == 1, result.output
    line = next(x for x in result.output.splitlines() if "breaks-at-play" in x)
    assert line.startswith(f"{path}:4:19: error[breaks-at-play]: ") and "division by zero" in line
    assert line.count("breaks-at-play") == 1 and result.output.count("error[breaks-at-play]") == 1  # said once
    written = sorted(folder.glob("legality-*.yaml"))
    assert written and f"tonk replay {written[0]} shows the hand" in result.output
    assert replay(load_scenario(written[0], allow_paths=[tmp_path])).scenario.ruleset.name == "Fails at the third turn"


def test_lint_simulate_is_quiet_about_a_sound_ruleset() -> None:
    result = CliRunner().invoke(main, ["lint", "standard", "--simulate", "200"])
    assert "breaks-at-play" not in result.output and result.exit_code == 0


def test_serve_warns_before_it_opens_a_table_that_breaks(tmp_path: Path, monkeypatch) -> None:
    import uvicorn

    opened = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: opened.append(True))
    path = _write(tmp_path)
    result = CliRunner().invoke(main, ["serve", str(path), "--seats", "2", "--bots", "greedy", "--seed", "1"])
    assert result.exit_code == 0 and opened == [True]
    assert (f"warning: {path} breaks at play (rule-failed: " in result.output
            and "a hand where it happens is void at the table, nothing lost" in result.output)
    opened.clear()
    result = CliRunner().invoke(main, ["serve", "standard", "--seats", "2", "--bots", "greedy", "--seed", "1"])
    assert "breaks at play" not in result.output and opened == [True]
