"""The tonk command: exit codes, JSON shapes and messages of replay, check, validate, simulate."""
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tonkdsl.cli import main
from conftest import EXAMPLES, TESTS

EXAMPLE1 = EXAMPLES / "speno-seed-example-1.yaml"
GOOD = """\
ruleset: standard
players: [Ann, Bob, Cy]
hands:
  Ann: [AH, 2H, 3C, 4D, 5S]
  Bob: [KH, 3D, 4C, 5H, 9H]
  Cy: [KD, 10D, JH, 10C, 3S]
actions:
  - Ann drop
"""


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def test_replay_json_keys_as_the_contract_says(write) -> None:
    code, out = run("replay", str(write("s.yaml", GOOD)), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "standard"
    assert data["end"] == "drop_won"
    assert data["winners"] == ["Ann"]
    assert data["payouts"] == {"Ann": 2, "Bob": -1, "Cy": -1}
    assert data["counts"] == {"Ann": 15, "Bob": 31, "Cy": 43}
    assert data["actions_applied"] == 1
    assert data["next"] is None


def test_replay_in_progress_names_next(write) -> None:
    text = GOOD.replace("  - Ann drop\n", "  - Ann draw stock\n")
    code, out = run("replay", str(write("s.yaml", text)), "--json")
    data = json.loads(out)
    assert code == 0 and data["end"] is None and data["next"] == "Ann"


def test_replay_illegal_action_exit_1_with_error_object(write) -> None:
    text = GOOD.replace("  - Ann drop\n", "  - Ann drop\n  - Bob draw stock\n")
    code, out = run("replay", str(write("s.yaml", text)), "--json")
    assert code == 1
    assert json.loads(out) == {"error": {"index": 2, "action": "Bob draw stock", "message": "the hand is over"}}


def test_replay_illegal_action_plain_line_on_stderr(write) -> None:
    text = GOOD.replace("  - Ann drop\n", "  - Bob drop\n")
    r = CliRunner().invoke(main, ["replay", str(write("s.yaml", text))])
    assert r.exit_code == 1
    assert "action 1 (Bob drop) is illegal: it is Ann's turn, not Bob's" in r.output


def test_replay_invalid_scenario_exit_2_names_file_line_field(write) -> None:
    text = GOOD.replace("Ann: [AH,", "Ann: [ZZ,")
    path = write("s.yaml", text)
    code, out = run("replay", str(path))
    assert code == 2
    assert f"{path}:4:9: error[scenario-card]: 'ZZ' is not a card" in out
    assert "(at $.hands.Ann[0])" in out


def test_scenario_cards_must_be_distinct_and_in_the_pack(write) -> None:
    text = GOOD.replace("Bob: [KH,", "Bob: [AH,").replace("Cy: [KD,", "Cy: [JK,")
    code, out = run("replay", str(write("s.yaml", text)))
    assert code == 2
    assert "AH appears twice in the scenario" in out
    assert "JK is not in the pack of 'standard'" in out


def test_scenario_hand_size_checked(write) -> None:
    code, out = run("replay", str(write("s.yaml", GOOD.replace(", 5S]", "]"))))
    assert code == 2 and "Ann has 4 cards; this ruleset deals 5" in out


def test_scenario_unknown_player_in_action(write) -> None:
    code, out = run("replay", str(write("s.yaml", GOOD.replace("- Ann drop", "- Anne drop"))))
    assert code == 2 and "'Anne' is not one of the players (did you mean 'Ann'?)" in out


def test_check_reports_mismatch_exit_1(write) -> None:
    text = GOOD + "expect:\n  end: drop_caught\n  payouts: {Ann: 2, Bob: -1, Cy: -1}\n"
    code, out = run("check", str(write("s.yaml", text)))
    assert code == 1
    assert "end: expected 'drop_caught', got 'drop_won'" in out
    assert "0 passed, 1 failed" in out


def test_check_expected_refusal_that_does_not_happen_fails(write) -> None:
    text = GOOD + "expect:\n  error: {index: 1, message: nope}\n"
    code, out = run("check", str(write("s.yaml", text)))
    assert code == 1 and "expected action 1 to be refused" in out


def test_check_shared_example() -> None:
    code, out = run("check", str(EXAMPLE1))
    assert code == 0 and "1 passed, 0 failed" in out


def test_validate_shipped_and_json() -> None:
    code, out = run("validate", "standard", "speno")
    assert code == 0 and "standard: valid" in out and "speno: valid" in out
    code, out = run("validate", "speno", "--json")
    assert code == 0 and json.loads(out)["valid"] is True


def test_validate_unknown_shipped_name_suggests() -> None:
    code, out = run("validate", "spenno")
    assert code == 2 and "no shipped ruleset is called 'spenno' (did you mean 'speno'?)" in out


def test_validate_test_rulesets() -> None:
    for p in sorted((TESTS / "rulesets").glob("*.yaml")):
        code, out = run("validate", str(p))
        assert code == 0, out


def test_simulate_prints_endings_and_is_deterministic() -> None:
    code, out = run("simulate", "standard", "-n", "200", "--players", "3", "--seed", "5", "--json")
    assert code == 0
    a = json.loads(out)["rulesets"][0]
    assert a["hands"] == 200 and sum(e["hands"] for e in a["endings"].values()) == 200
    assert sum(s["net"] for s in a["seats"]) == 0
    code, out2 = run("simulate", "standard", "-n", "200", "--players", "3", "--seed", "5", "--json")
    assert json.loads(out2)["rulesets"][0] == a


def test_simulate_text_and_bad_bot() -> None:
    code, out = run("simulate", "speno", "-n", "50", "--bots", "random")
    assert code == 0 and "drop" in out
    code, out = run("simulate", "speno", "-n", "5", "--bots", "greedy,clever,random")
    assert code == 2 and "unknown bot 'clever'" in out


def test_help_lists_commands() -> None:
    code, out = run("--help")
    assert code == 0
    for cmd in ("validate", "replay", "check", "simulate"):
        assert cmd in out


def test_replay_missing_file(tmp_path: Path) -> None:
    code, out = run("replay", str(tmp_path / "nope.yaml"))
    assert code == 2 and "cannot read the file" in out


def test_new_starts_from_standard_and_simulate_refuses_a_pack_that_cannot_deal(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["new", "ourtable", "--dir", str(tmp_path)])
    assert res.exit_code == 0 and "extends: standard" in (tmp_path / "ourtable.yaml").read_text()
    res = CliRunner().invoke(main, ["simulate", "big-table", "-n", "5", "--players", "12"])
    assert res.exit_code == 0
    big = tmp_path / "huge.yaml"
    big.write_text("extends: standard\nname: Huge\nplayers: {max: 12}\n")
    res = CliRunner().invoke(main, ["simulate", str(big), "-n", "5", "--players", "12"])
    assert res.exit_code == 2
    assert "cannot be dealt to 12 players: the pack has 52 cards; 12 players x 5 cards + the upcard need 61" in res.output


def test_the_modeline_written_by_new_resolves_from_the_new_files_folder(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["new", "ourtable", "--dir", str(tmp_path / "rules")])
    assert res.exit_code == 0, res.output
    first = (tmp_path / "rules" / "ourtable.yaml").read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    target = (tmp_path / "rules" / first.split("$schema=", 1)[1]).resolve()
    assert target.is_file() and json.loads(target.read_text())["$id"]
    res = CliRunner().invoke(main, ["schema", "--write", str(tmp_path / "elsewhere")])
    assert res.exit_code == 0 and (tmp_path / "elsewhere" / "ruleset.schema.json").is_file()


def test_check_on_a_folder_says_a_ruleset_is_a_ruleset(tmp_path: Path) -> None:
    # A folder's ruleset is skipped and said so (issue 78); named alone it is refused, once.
    (tmp_path / "ours.yaml").write_text("extends: standard\nname: Ours\n")
    res = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert res.exit_code == 0 and "(a ruleset, not a scenario: tonk validate and tonk lint check it)" in res.output
    res = CliRunner().invoke(main, ["check", str(tmp_path / "ours.yaml")])
    assert res.exit_code == 2
    assert "error[scenario-is-ruleset]: this is a ruleset, not a scenario" in res.output
    assert res.output.count("error[") == 1  # one plain error, not one per key


def test_the_starter_hand_still_replays_after_getting_started_step_3(tmp_path: Path) -> None:
    from conftest import ROOT
    assert CliRunner().invoke(main, ["new", "our-table", "--dir", str(tmp_path)]).exit_code == 0
    guide = (ROOT / "docs" / "getting-started.md").read_text()
    step3 = guide.split("## 3.")[1].split("```yaml")[1].split("```")[0]
    (tmp_path / "our-table.yaml").write_text(step3)  # the reader writes what step 3 shows
    res = CliRunner().invoke(main, ["check", str(tmp_path / "our-table-hand.yaml")])
    assert res.exit_code == 0, res.output


def _modules_after(code: str) -> list[str]:
    import subprocess
    import sys

    probe = (f"{code}\nimport sys\n"
             "print(' '.join(m for m in ('tonkdsl.interpreter.engine', 'jsonschema', 'lark', 'rich') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_help_loads_neither_the_engine_nor_jsonschema_nor_lark() -> None:
    # What keeps 'tonk --help' and every subcommand's --help under 0.25 s (measured in
    # benchmarks/bench_simulate.py): the commands import what they need when they run.
    assert _modules_after("from tonkdsl.cli import main\nimport tonkdsl") == []


def test_a_shipped_ruleset_loads_without_jsonschema_and_a_user_file_is_checked_in_full(tmp_path: Path) -> None:
    # The shipped rulesets' digests are listed (valid-digests.txt, made and checked by docgen):
    # loading one skips jsonschema's import; any other document is validated by jsonschema.
    assert "jsonschema" not in _modules_after("from tonkdsl import load_ruleset\nload_ruleset('standard')")
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: standard\nmelds: {book: {min: two}}\n")
    code = f"from tonkdsl import load_ruleset, LoadError\ntry:\n    load_ruleset({str(bad)!r})\nexcept LoadError: pass"
    assert "jsonschema" in _modules_after(code)


def test_a_session_scenario_whose_last_hand_is_unfinished_replays_in_words(tmp_path: Path) -> None:
    # Found by the fuzz tests: the readable output of a session still being played crashed.
    import yaml
    doc = yaml.safe_load((TESTS / "scenarios" / "v20-units-session.yaml").read_text())
    doc["ruleset"] = str((TESTS / "scenarios" / doc["ruleset"]).resolve())
    doc["deals"][1]["actions"] = None
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    res = CliRunner().invoke(main, ["replay", str(path), "--allow-path", str(TESTS)])
    assert res.exit_code == 0, res.output
    assert "hand 2 (dealer Ann, stake 2): in progress, next: Bob" in res.output
    assert "session in progress: Bob to play" in res.output


def test_expect_entries_of_the_wrong_kind_are_located_errors(tmp_path: Path) -> None:
    # Found by the thorough fuzz run: 'expect: {payouts: QS}' crashed tonk check.
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: standard\nplayers: [a, b]\nactions: []\nexpect: {payouts: QS, winners: x}\n")
    res = CliRunner().invoke(main, ["check", str(path)])
    assert res.exit_code == 2 and not isinstance(res.exception, AttributeError)
    assert "'payouts' must map each player to a whole number" in res.output
    assert "'winners' must be a list, e.g. [Ann]" in res.output


@pytest.mark.parametrize("order", ["[]", "[A, A]", "[A, 2, A]"])
def test_a_run_order_too_short_for_a_run_is_explained_and_diffed(tmp_path: Path, order: str) -> None:
    # Found by the fuzz run (issue 28): 'pack.run_order: []' is valid, and explain ended in IndexError.
    path = tmp_path / "short.yaml"
    path.write_text(f"extends: standard\nname: Short order\npack:\n  run_order: {order}\n")
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0
    res = CliRunner().invoke(main, ["explain", str(path)])
    assert res.exit_code == 0 and res.exception is None, res.output
    if order != "[A, 2, A]":
        assert "There are no runs: the run order" in res.output
    res = CliRunner().invoke(main, ["diff", "standard", str(path)])
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output  # 1: they differ
    assert "($.pack.run_order)" in res.output


def test_docs_ship_with_the_package_and_the_starter_points_at_them(tmp_path: Path) -> None:
    from tonkdsl.docgen import reference
    runner = CliRunner()
    listed = runner.invoke(main, ["docs"])
    assert listed.exit_code == 0 and "reference        Ruleset file reference" in listed.output
    assert runner.invoke(main, ["docs", "reference"]).output == reference()
    wrong = runner.invoke(main, ["docs", "refrence"])
    assert wrong.exit_code == 2
    assert "error: no topic 'refrence' (did you mean 'reference'?); 'tonk docs' lists them" in wrong.output
    new = runner.invoke(main, ["new", "mine", "--dir", str(tmp_path)])
    assert new.exit_code == 0, new.output
    written = (tmp_path / "mine.yaml").read_text()
    assert "'tonk docs reference'" in written and "docs/reference.md" not in written


def test_a_reader_that_closes_the_pipe_early_ends_tonk_quietly(monkeypatch) -> None:
    """tonk replay ... | head: the reader closed the pipe before tonk was done writing (a race in a
    real pipe, made certain here): tonk stops quietly, exit 0, never an 'internal error'."""
    import os

    import tonkdsl.cli as cli

    def closed(*args, **kwargs):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "echo", closed)
    monkeypatch.setattr(os, "dup2", lambda a, b: None)  # (the runner's stdout is no real file to point at devnull)
    result = CliRunner().invoke(main, ["replay", str(TESTS / "scenarios" / "x76-out-with-exactly-six.yaml")])
    assert result.exit_code == 0, result.output
    assert "internal error" not in result.output
