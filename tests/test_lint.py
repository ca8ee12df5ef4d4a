"""tonk lint: each check fires on its test ruleset, with a location; shipped rulesets lint clean
but for the documented, intended warnings; text, JSON and SARIF output; exit codes."""
import importlib.util
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tonkdsl import load_ruleset
from tonkdsl.cli import main
from tonkdsl.language.resources import shipped_ruleset_names
from tonkdsl.tools.lint import lint
from tonkdsl.tools.lint.checks import CODES
from tonkdsl.tools.lint.odds import compute
from conftest import TESTS

LINT = TESTS / "lint"
# The corpus: each file of tests/lint/ holds one realistic mistake, and the line that causes it
# says what lint must report there ('# expect: CODE SEVERITY'); benchmarks/lint_corpus.py scores
# it (catch rate, false positives, time per file).
_spec = importlib.util.spec_from_file_location("lint_corpus", TESTS.parent / "benchmarks" / "lint_corpus.py")
assert _spec is not None and _spec.loader is not None
corpus = importlib.util.module_from_spec(_spec)
sys.modules["lint_corpus"] = corpus  # its dataclasses look their module up
_spec.loader.exec_module(corpus)
MISTAKES, CLEAN = corpus.corpus(LINT)
# Intended warnings of shipped rulesets (docs/lint.md says why).
INTENDED: dict[str, set[str]] = {}  # none: seattle and vietnam accept theirs (lint.accept)


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.stem)
def test_each_mistake_is_caught_at_its_line(path: Path) -> None:
    result = corpus.check(path)
    assert result.expected, f"{path.name} says nothing it expects ('# expect: CODE SEVERITY' on the line)"
    assert result.caught == result.expected, [d.render() for d in lint(path).diagnostics]


def test_the_corpus_is_large_enough() -> None:
    assert len(MISTAKES) >= 60 and len(CLEAN) >= 15, (len(MISTAKES), len(CLEAN))


def test_every_code_has_a_test_file() -> None:
    # (A mistake lint reports with validate's own code, expr-type, counts too: it is caught at its line.)
    covered = {e.code for p in MISTAKES for e in corpus.expectations(p)} & set(CODES)
    # (breaks-at-play: with --simulate only, tested in tests/test_legality_api.py)
    assert covered | {"deal-win-odds", "never-fired", "winner-loses", "witness", "breaks-at-play"} == set(CODES)


@pytest.mark.parametrize("name", shipped_ruleset_names())
def test_shipped_rulesets_lint_clean_or_intended(name: str) -> None:
    report = lint(name)
    assert report.errors() == []
    assert {d.code for d in report.warnings()} == INTENDED.get(name, set())


def test_odds_of_rules_on_suits_alone_are_exact(write) -> None:
    # A flush is 4 x C(13, 5) hands; five hearts C(13, 5); a rule on suits and ranks is not counted.
    path = write("flush.yaml", "extends: standard\nname: Flush\ndeal_wins:\n  rules:\n"
                 "    - {id: tonk-49-50, when: 'count in [49, 50]', pays: 2 * stake}\n"
                 "    - {id: flush, when: 'max_same_suit(hand) == 5', pays: 3 * stake, priority: 1}\n"
                 "    - {id: hearts, when: 'count(hand where suit == H) == 5', pays: 4 * stake, priority: 2}\n"
                 "    - {id: red-kings, when: 'count(hand where suit == H and rank == K) == 1', pays: stake, priority: 3}\n")
    odds = {o.rule: o for o in compute(load_ruleset(path)).odds}
    assert (odds["flush"].hands, odds["hearts"].hands, odds["tonk-49-50"].hands) == (5_148, 1_287, 11_648)
    assert odds["red-kings"].hands is None and "reads the suits" in odds["red-kings"].reason


def test_odds_of_rules_on_suits_and_ranks_together_are_exact(write) -> None:
    # Kind 7 (issue 75): counted over the hands up to a renaming of the suits (134,459 classes).
    # A dealt run of five in standard's run order (ace low only): 9 per suit; four of a kind:
    # 13 x 48; of the runs, 4 count 49 (9 10 J Q K).
    path = write("runs.yaml", "extends: standard\nname: Runs\ndeal_wins:\n  rules:\n"
                 "    - {id: dealt-run, when: 'longest_run(hand) >= 5', pays: 3 * stake, priority: 2}\n"
                 "    - {id: four-alike, when: 'largest_book(hand) >= 4', pays: 2 * stake, priority: 1}\n")
    table = compute(load_ruleset(path))
    odds = {o.rule: o for o in table.odds}
    assert (odds["dealt-run"].hands, odds["four-alike"].hands, odds["tonk-49-50"].hands) == (36, 624, 11_648)
    assert dict(((a, b), n) for a, b, n in table.overlaps)[("tonk-49-50", "dealt-run")] == 4


def test_odds_are_exact() -> None:
    odds = compute(load_ruleset("standard")).odds
    assert odds[0].describe() == "11,648 of 2,598,960 hands, 0.448%, 1 in 223"
    rush = compute(load_ruleset("rushville")).odds
    assert rush[0].hands == 792  # C(12, 5) hands of five face cards


def test_overlap_counts_shared_hands() -> None:
    report = lint(LINT / "deal-win-overlap.yaml")
    (d,) = [d for d in report.diagnostics if d.code == "deal-win-overlap"]
    assert d.message.startswith("792 hands meet both 'tonk-49-50' and 'five-faces'")
    # At the file's own rule; the inherited one under 'see also'.
    assert d.file.endswith("deal-win-overlap.yaml") and any(f.endswith("standard.yaml") for f, _, _ in d.related)


def test_pack_message_has_the_numbers() -> None:
    (d,) = [d for d in lint(LINT / "pack-cannot-deal.yaml").diagnostics if d.code == "pack-cannot-deal"]
    assert d.message == "the pack has 40 cards, but 10 players x 5 cards + the upcard need 51"
    assert len(d.related) == 2


def test_simulate_notes_rules_that_never_took_effect() -> None:
    report = lint(LINT / "rare" / "never-fired.yaml", simulate=20, seed=1)
    found = [d for d in report.diagnostics if d.code == "never-fired" and "'clubs-royal'" in d.message]
    assert [d.severity for d in found] == ["note"]  # evidence, never a warning by itself
    assert "the automatic win 'clubs-royal' never took effect in 40 simulated hands nor in a witness search of 20: " \
           "evidence that it is rare, not proof that it cannot happen" in found[0].message


# Issue 75, kind 6: where a payout never took effect though its ending happened, the cause is
# named at the part of the rule it is about (the part of the condition never true, the payers
# who were never anyone), not only the symptom.
CAUSES = {
    "cause-part-never-true": ((12, 39), "of the 309 hands that ended in 'drop_won', its condition's part "
                                        "'dropper.spreads >= 2' was true in none"),
    "cause-never-together": ((8, 79), "of the 309 hands that ended in 'drop_won', each part of its condition "
                                      "held in some, but never all at once"),
    "cause-nobody-pays": ((8, 33), "in the 309 hands that ended in 'drop_won' with its condition true, 'from' "
                                   "('others where hits >= 3') named no one"),
    # A bonus's condition is asked mid-hand, at its event: counted there as the hands are played.
    "cause-bonus-part-never-true": ((9, 27), "its condition was asked 7,124 times (at its event 'turn_start'), and "
                                             "its part 'spreads_this_turn >= 1' was true in none"),
    # A rule of a list construct asked as a hand ends: the endings it is asked at ('on').
    "cause-multiplier-never-true": ((7, 42), "its condition 'count(laid) == 0' was asked 17 times (at tonk_out) and "
                                             "was true in none"),
}


@pytest.mark.parametrize("name", sorted(CAUSES))
def test_simulate_names_the_cause_of_a_payout_that_never_took_effect_at_its_part(name: str) -> None:
    (line, column), cause = CAUSES[name]
    report = lint(LINT / "rare" / f"{name}.yaml", simulate=300, seed=1)
    found = [d for d in report.diagnostics if d.code == "never-fired"]
    assert len(found) == 1 and found[0].severity == "note"
    assert found[0].message.endswith(": " + cause) and (found[0].line, found[0].column) == (line, column)


@pytest.mark.parametrize("name", ["pushups", "chicago", "hoyle-tunk"])
def test_simulate_says_nothing_false_of_shipped_rulesets(name: str) -> None:
    # A points sheet records its rules too (pushups gave 7 false 'never fired' warnings).
    report = lint(name, simulate=2000)
    assert report.errors() == [] and report.warnings() == []
    assert not [d for d in report.diagnostics if d.code == "never-fired"], name


def test_witness_hands_are_written_and_replay_to_their_rule(tmp_path: Path) -> None:
    out = tmp_path / "w"
    code, text = run(str(LINT / "rare" / "never-fired.yaml"), "--witness", str(out), "--allow-path", str(LINT))
    assert code == 0, text
    assert "note[witness]: witnesses: 13 of 13 rules made to happen in 370 of at most 2,000 seeded hands" in text
    files = sorted(out.glob("*.yaml"))
    assert len(files) == 13 and (out / "rule-clubs-royal.yaml").exists()  # 50 with QC and KC: it can happen
    checked = CliRunner().invoke(main, ["check", *map(str, files), "--allow-path", str(LINT)])
    assert checked.exit_code == 0 and "13 passed, 0 failed" in checked.output, checked.output
    first = (out / "end-drop_caught.yaml").read_text()
    assert first.startswith("# Witness: the ending 'drop_caught' (endings.drop_caught) happens in this hand.")


def test_what_the_witness_search_does_not_reach_is_a_note(tmp_path: Path) -> None:
    code, text = run(str(LINT / "rare" / "never-fired.yaml"), "--witness", str(tmp_path / "w"), "--simulate", "3", "--strict")
    assert code == 0, text  # notes never fail --strict
    # 'tonk-49-50' is built from the odds' example hand; 'clubs-royal' reads suits, which the
    # exact count by ranks does not follow, so no hand is built for it.
    assert "witnesses: 8 of 13 rules made to happen in 3 of at most 3 seeded hands" in text
    assert "note[witness]: no witness: no hand of the search (3 hands) made the automatic win 'clubs-royal' happen; " \
           "lint has neither proven that it can nor that it cannot" in text


def test_a_rare_automatic_win_gets_a_witness_built_from_the_odds(tmp_path: Path) -> None:
    # About one hand in 216,000: 20 played hands never show it; the odds' example hand does.
    out = tmp_path / "w"
    code, text = run(str(LINT / "rare" / "four-kings.yaml"), "--witness", str(out), "--simulate", "20")
    assert code == 0 and not [line for line in text.splitlines() if "no witness" in line and "'four-kings-fifty'" in line], text
    scenario = (out / "rule-four-kings-fifty.yaml").read_text()
    assert "hands:\n  P1:\n  - 10C\n  - KC\n  - KD\n  - KH\n  - KS\n" in scenario and "end: initial_tonk" in scenario
    result = CliRunner().invoke(main, ["check", "--allow-path", str(LINT), str(out / "rule-four-kings-fifty.yaml")])
    assert result.exit_code == 0 and "1 passed" in result.output, result.output


def test_a_note_about_an_inherited_rule_is_placed_in_the_linted_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("extends: standard\nname: Mine\n")
    report = lint(path)
    notes = [d for d in report.diagnostics if d.severity == "note"]
    assert notes and all(d.file.endswith("mine.yaml") and d.line == 1 for d in notes)
    assert notes[0].related and notes[0].related[0][0].endswith("standard.yaml")


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["lint", *args])
    return r.exit_code, r.output


def test_exit_codes() -> None:
    assert run("standard")[0] == 0
    assert run(str(LINT / "pack-cannot-deal.yaml"))[0] == 1
    assert run(str(LINT / "extends-noop.yaml"))[0] == 0
    assert run("--strict", str(LINT / "extends-noop.yaml"))[0] == 0  # a note never fails --strict
    assert run("--strict", str(LINT / "condition-always.yaml"))[0] == 1


def test_unreadable_input_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [\n")
    code, out = run(str(bad))
    assert code == 2 and "yaml-syntax" in out


def test_text_output_shows_line_and_caret() -> None:
    code, out = run(str(LINT / "extends-noop.yaml"))
    assert "extends-noop.yaml:5:3: note[extends-noop]: 'hits.books' is already true in 'standard'" in out
    assert "\n      books: true  # expect: extends-noop note\n      ^" in out


def test_json_and_sarif() -> None:
    code, out = run("--format", "json", str(LINT / "winner-pays.yaml"))
    data = json.loads(out)
    assert data[0]["errors"] == 1 and data[0]["diagnostics"][0]["code"] == "winner-pays"
    code, out = run("--format", "sarif", str(LINT / "winner-pays.yaml"))
    sarif = json.loads(out)
    assert sarif["version"] == "2.1.0"
    run_ = sarif["runs"][0]
    assert {r["id"] for r in run_["tool"]["driver"]["rules"]} >= set(CODES)
    (res,) = [r for r in run_["results"] if r["ruleId"] == "winner-pays"]
    assert res["level"] == "error"
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"].endswith("winner-pays.yaml")
    assert loc["region"]["startLine"] == 7 and loc["region"]["startColumn"] > 0
    assert res["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] > 0


def test_simulate_finds_a_winner_who_loses() -> None:
    report = lint(LINT / "winner-loses.yaml", simulate=100, seed=2)
    (d,) = [d for d in report.diagnostics if d.code == "winner-loses"]
    assert d.severity == "error" and "a winner lost money in" in d.message


def test_simulate_in_lint_sees_every_ending_simulate_shows() -> None:
    # `tonk simulate standard -n 2000 --players 3 --seed 1` shows about 5% exhausted stocks:
    # lint plays those very hands first, so it never says that ending never happened.
    report = lint("standard", simulate=2000, seed=1)
    assert not [d for d in report.diagnostics if d.code == "never-fired"]


def test_conditions_and_amounts_are_decided_in_the_authors_words() -> None:
    code, out = run(str(LINT / "condition-never.yaml"))
    assert code == 1 and "error[condition-never]: 'count < 0' can never hold: count is between 0 and 60" in out
    code, out = run(str(LINT / "condition-always.yaml"))
    assert "warning[condition-always]: 'turn >= 0' always holds: turn is between 0 and 2,000" in out
    code, out = run(str(LINT / "amount-not-positive.yaml"))
    assert "error[amount-not-positive]: the amount 'count - dropper.count' is never more than 0: in 'drop_caught' the " \
           "bare names read the dropper (the ending's actor), so 'count - dropper.count' is the dropper's value less " \
           "itself: always 0" in out
    code, out = run(str(LINT / "amount-below-zero.yaml"))
    # The solver's example of values (which ones may change with z3's version).
    assert "warning[amount-not-positive]: the amount 'payer.count - 20' can be below 0: for example " in out
    assert "for the payer (seat 1)" in out
    # A restated payout that changes one field is not a no-op: no note for its other fields.
    assert "extends-noop" not in out


def test_a_multi_file_run_reports_the_valid_files_and_sarif_holds_load_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [\n")
    code, out = run("--format", "sarif", "standard", str(LINT / "condition-never.yaml"), str(bad))
    assert code == 2
    sarif = json.loads(out)
    run0 = sarif["runs"][0]
    ids = [r["ruleId"] for r in run0["results"]]
    assert "condition-never" in ids and "yaml-syntax" in ids
    rules = {r["id"] for r in run0["tool"]["driver"]["rules"]}
    assert set(ids) <= rules
    shipped = [r for r in run0["results"] if r["locations"][0]["physicalLocation"]["artifactLocation"].get("uriBaseId")]
    assert shipped and run0["originalUriBaseIds"]["TONKDSL_RULESETS"]["uri"].startswith("file://")
    code, out = run("--format", "json", "standard", str(bad))
    data = json.loads(out)
    assert code == 2 and [d["valid"] for d in data] == [True, False] and set(data[0]) == set(data[1])


def test_a_finding_caused_by_the_users_own_line_is_placed_there(tmp_path: Path) -> None:
    path = tmp_path / "seven.yaml"
    path.write_text("extends: standard\ndeal: {hand_size: 7}\n")
    report = lint(path)
    for code in ("pack-cannot-deal", "deal-win-frequent", "values-threshold"):
        found = [d for d in report.diagnostics if d.code == code]
        assert found and all(d.file.endswith("seven.yaml") and d.line == 2 for d in found), code
    threshold = next(d for d in report.diagnostics if d.code == "values-threshold")
    assert any(f.endswith("standard.yaml") for f, _, _ in threshold.related)  # the inherited rule, under related


# The parts of the SARIF 2.1.0 schema our output uses, with the spec's constraints (the whole
# official schema was checked by hand against this output: it is not ours to ship).
_SARIF_SUBSET = {
    "type": "object", "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "runs": {"type": "array", "items": {
            "type": "object", "required": ["tool"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string"}, "rules": {"type": "array", "items": {
                        "type": "object", "required": ["id"]}}}}}},
                "originalUriBaseIds": {"type": "object", "additionalProperties": {
                    "type": "object", "properties": {"uri": {"type": "string", "pattern": "/$"}}}},
                "results": {"type": "array", "items": {
                    "type": "object", "required": ["message"],
                    "properties": {
                        "ruleId": {"type": "string"},
                        "level": {"enum": ["none", "note", "warning", "error"]},
                        "message": {"type": "object", "required": ["text"]},
                        "locations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
                        "relatedLocations": {"type": "array", "items": {"$ref": "#/$defs/location"}}}}}}}}},
    "$defs": {"location": {"type": "object", "properties": {
        "id": {"type": "integer", "minimum": -1},
        "physicalLocation": {"type": "object", "properties": {
            "artifactLocation": {"type": "object", "additionalProperties": False, "properties": {
                "uri": {"type": "string", "pattern": "^[^ ]*$"}, "uriBaseId": {"type": "string"}}},
            "region": {"type": "object", "properties": {
                "startLine": {"type": "integer", "minimum": 1},
                "startColumn": {"type": "integer", "minimum": 1}}}}}}}},
}


@pytest.mark.parametrize("inputs", [["standard"], [str(LINT / "condition-never.yaml")],
                                    [str(LINT / "extends-noop.yaml"), "BAD"], ["BAD"]])
def test_sarif_has_the_shape_of_sarif_2_1_0_for_every_input(inputs: list[str], tmp_path: Path) -> None:
    import jsonschema
    bad = tmp_path / "a bad file.yaml"
    bad.write_text("name: [\n")
    code, out = run("--format", "sarif", *[str(bad) if i == "BAD" else i for i in inputs])
    assert code in (0, 1, 2)
    jsonschema.validate(json.loads(out), _SARIF_SUBSET)


def test_an_always_void_ending_is_not_said_to_leave_its_winners_unpaid(write) -> None:
    path = write("void.yaml", "extends: standard\nname: Void\nendings:\n  stock_exhausted:\n    winners: players\n"
                 "    void_if: 'true'\n    payouts: []\n")
    code, out = run(str(path))
    assert "winner-unpaid" not in out, out


def test_the_hint_for_an_amount_below_zero_is_valid_syntax(write) -> None:
    code, out = run(str(LINT / "amount-below-zero.yaml"))
    hint = next(line for line in out.splitlines() if "hint: a difference of counts" in line)
    assert "max([0, ...])" in hint and "max(0," not in hint


def test_the_odds_follow_each_seats_own_deal() -> None:
    code, out = run(str(LINT / "deal-win-extra-cards.yaml"))
    assert "deal-win-extra-cards.yaml:7:5: warning[deal-win-frequent]: 'tonk-49-50' wins on the deal in 9.1% of hands " \
           "of 7 cards (12,228,716 of 133,784,560 hands" in out
    assert "'tonk-49-50', hands of 5 cards: 11,648 of 2,598,960 hands, 0.448%" in out


def test_an_accepted_warning_is_a_note_that_says_why() -> None:
    report = lint("seattle")
    assert report.warnings() == []
    notes = [d for d in report.diagnostics if d.code == "deal-win-frequent"]
    assert notes and notes[0].severity == "note"
    assert notes[0].message.startswith("accepted (R6 deals seven cards and keeps the standard 49/50 automatic win "
                                       "(otherwise S)): 'tonk-49-50' wins on the deal in 9.1% of hands")
    code, out = run("--strict", "seattle", "vietnam")
    assert code == 0, out
    code, out = run(str(LINT / "accept-unknown.yaml"))
    assert "lint.accept names 'deal-win-frequnt', which is not a lint code (did you mean 'deal-win-frequent'?)" in out


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_correct_but_unusual_files_lint_clean(path: Path) -> None:
    # No false positive: each of these files is right (its comment says what is unusual).
    # Long hands (twelve cards) play slowly: fewer of them keep the suite quick.
    report = lint(path, simulate=300 if load_ruleset(path).hand_size <= 9 else 60)
    assert report.errors() == [] and report.warnings() == [], [d.render() for d in report.diagnostics
                                                               if d.severity != "note"]


@pytest.mark.parametrize("name", ["standard", "chicago", "seattle", "vietnam", "rushville"])
def test_odds_by_sets_of_totals_equal_odds_by_ranks(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The count by sets of totals (rules that read only the count) and the count by rank groups
    # are two ways to the same exact numbers.
    from tonkdsl.tools.lint import odds

    rs = load_ruleset(name)
    by_totals = odds.compute(rs)
    monkeypatch.setattr(odds, "_reads_totals_only", lambda source: False)
    assert odds.compute(rs) == by_totals


def test_twelve_cards_with_chosen_values_get_exact_odds() -> None:
    (table,) = [lint(LINT / "clean" / "twelve-cards-choices.yaml")]
    notes = [d.message for d in table.diagnostics if d.code == "deal-win-odds"]
    assert notes and all("odds not computed" not in m for m in notes), notes
    assert any(m.startswith("'very-low': ") and "of 206,379,406,870 hands" in m for m in notes), notes


def test_min_of_a_set_folding_can_empty_is_named_at_its_line() -> None:
    """The recipes 'Partners' and 'Folding before play' pasted together froze a table on
    min() of an empty list; lint names the cause at each expression (issue 75)."""
    from tonkdsl.tools.lint import lint

    path = Path(__file__).resolve().parent / "rulesets" / "stranding" / "partners-who-fold.yaml"
    found = [d for d in lint(path).diagnostics if d.code == "min-of-empty"]
    assert [(d.path, d.severity) for d in found] == [("$.turn.drop.wins_if", "warning"),
                                                     ("$.endings.drop_caught.winners", "warning")]
    assert found[0].message == ("min() of 'opponents' fails at play when 'opponents' is empty: every opponent of a "
                                "player can fold (turn.out_of_turn: fold) while the hand goes on, their partners "
                                "still in")
    assert found[0].hint == "guard it: count(opponents) == 0 or ..., or take min() over a set that is never empty"


def test_min_of_a_guarded_or_never_empty_set_is_not_flagged(tmp_path: Path) -> None:
    from tonkdsl.tools.lint import lint

    path = tmp_path / "guarded.yaml"
    path.write_text("extends: standard\nname: Guarded\nplayers: {min: 4, max: 4, sides: {size: 2}}\nturn:\n"
                    "  drop: {wins_if: \"count(opponents) == 0 or count < min(opponents.count)\"}\n"
                    "  out_of_turn: [{id: fold, do: fold, at: [after_deal], by: players}]\n", encoding="utf-8")
    assert not [d for d in lint(path).diagnostics if d.code == "min-of-empty"]
    assert not [d for d in lint("standard").diagnostics if d.code == "min-of-empty"]  # others is never empty


def test_simulate_names_the_rule_of_the_turn_that_starves_an_ending_at_its_part() -> None:
    """An ending no action could lead to is said at the rule of turn.in_turn that refused every
    such action (kind 6 for guards), at the part of its condition never true; so are its payouts."""
    report = lint(LINT / "rare" / "cause-guard-forbids-drop.yaml", simulate=300, seed=1)
    found = [d for d in report.diagnostics if d.code == "never-fired"]
    assert {(d.line, d.column) for d in found} == {(11, 29)} and len(found) == 6
    assert all(d.severity == "note" for d in found)
    (ending,) = [d for d in found if "the ending 'drop_won'" in d.message]
    assert ending.message.endswith(": every 'drop' was refused by the rule 'late-drop': its condition "
                                   "was asked 40,789 times (at turn_start, for 'drop'), and its part 'round >= 30' "
                                   "was true in none")
