"""What a newcomer and a packager tripped on (issue 78): each item pinned by its exact words."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tonkdsl.cli import main
from tonkdsl.tools.scenario import refusal_words


def _run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def test_check_of_a_folder_that_tonk_new_made_skips_the_ruleset(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert _run("new", "our-table", "--from", "standard").exit_code == 0
    result = _run("check", ".")
    assert result.exit_code == 0, result.output
    assert "SKIP  our-table.yaml (a ruleset, not a scenario: tonk validate and tonk lint check it)" in result.output
    assert result.output.rstrip().endswith("1 passed, 0 failed, 1 ruleset skipped")
    named = _run("check", "our-table.yaml")  # named on its own, a ruleset is still not a scenario
    assert named.exit_code == 2 and "error[scenario-is-ruleset]" in named.output


@pytest.mark.parametrize("word, letter", [("spades", "S"), ("hearts", "H"), ("club", "C"), ("diamonds", "D")])
def test_a_suit_written_as_a_word_is_told_its_letter(tmp_path: Path, word: str, letter: str) -> None:
    path = tmp_path / "suit.yaml"
    path.write_text("extends: standard\nname: Suit\ndeal_wins:\n  rules:\n"
                    f"    - {{id: by-suit, when: \"upcard.suit == {word}\", pays: stake}}\n", encoding="utf-8")
    result = _run("validate", str(path))
    assert result.exit_code == 2
    assert (f"error[expr-type]: unknown name '{word}': a suit is written by its letter, C, D, H or S "
            f"(did you mean '{letter}'?)") in result.output


def test_a_hand_that_cannot_be_dealt_is_named_not_called_action_0() -> None:
    error = {"hand": 2, "index": 0, "action": "", "message": "hand 2 cannot be dealt: seat 1 is out of the match"}
    assert refusal_words(error) == "hand 2 cannot be dealt: seat 1 is out of the match"
    refused = {"hand": 1, "index": 3, "action": "Bob drop", "message": "you may not drop now"}
    assert refusal_words(refused) == "hand 1, action 3 ('Bob drop') was refused: you may not drop now"


def test_a_pot_without_antes_says_so(tmp_path: Path) -> None:
    path = tmp_path / "pot.yaml"
    path.write_text("extends: standard\nname: Pot\npot: {ante: 0}\nendings:\n  tonk_out:\n"
                    "    payouts: [{id: pot-out, from: pot, to: actor, amount: pot}]\n", encoding="utf-8")
    out = " ".join(_run("explain", str(path)).output.split())
    assert "A pot: nobody antes into it. Payouts from or to 'pot' take from it or add to it" in out
    assert "puts 0 into it" not in out


def test_version_says_whether_the_interpreter_is_compiled() -> None:
    from tonkdsl import __version__
    from tonkdsl.interpreter import engine

    result = _run("--version")
    kind = "plain Python" if engine.__file__.endswith(".py") else "compiled by mypyc"
    assert result.exit_code == 0 and result.output.startswith(f"tonk (tonkdsl) {__version__}, interpreter {kind}, ")


def test_an_internal_error_exits_3_with_a_report_request_and_no_traceback(monkeypatch) -> None:
    import tonkdsl.tools.scenario as scenario

    def broken(*_a: object, **_k: object) -> None:
        raise KeyError("a table of the engine")
    monkeypatch.setattr(scenario, "load_scenario", broken)
    result = CliRunner().invoke(main, ["replay", "x.yaml"])
    assert result.exit_code == 3
    said = result.output  # (standard error too, with click 8.2)
    assert ("tonk: internal error, a bug in tonkdsl rather than in your files: KeyError: 'a table of the engine'. "
            "Please report it with the command you ran; the trace is in ") in said
    assert "Traceback" not in said
    trace = Path(said.split("the trace is in ")[1].split()[0].rstrip("."))
    assert "KeyError" in trace.read_text(encoding="utf-8")
    trace.unlink()


def test_a_bad_remove_path_hides_no_other_problem(tmp_path: Path) -> None:
    path = tmp_path / "rm.yaml"
    path.write_text("extends: standard\nname: R\nremove: [endings.tonk_out.payouts.nope]\n"
                    "turn:\n  drop: {allowed: \"count <\"}\nhits: {bookz: true}\n", encoding="utf-8")
    for command in ("validate", "lint"):
        result = _run(command, str(path))
        assert result.exit_code == 2, result.output
        assert ("error[extends-remove]: nothing to remove at 'endings.tonk_out.payouts.nope': no entry with id "
                "'nope'") in result.output
        assert "error[expr-syntax]: the expression ends too early" in result.output
        assert "error[schema-unknown-key]: unknown key 'bookz' in 'hits' (did you mean 'books'?)" in result.output


@pytest.mark.parametrize("source, said", [
    ("upcard in spread", "the upcard is among the cards of the spread"),  # was "the player's upcard counter"
    ("upcard.suit == S", "the upcard's suit is spades"),  # was "is S"
    ("count(hand where suit == H) >= 3", "the player holds at least 3 cards whose suit is hearts"),
])
def test_the_upcard_and_the_suits_read_as_a_player_says_them(source: str, said: str) -> None:
    from tonkdsl.tools.explain.words import words

    assert words(source) == said


def test_simulate_refuses_a_match_that_can_never_end_and_warns_of_one_that_may_not() -> None:
    from conftest import TESTS

    never = _run("simulate", str(TESTS / "lint" / "match-never-ends.yaml"), "-n", "5")
    assert never.exit_code == 1
    assert ("the match can never end: its end condition is never true and no one is ever eliminated (tonk lint "
            "says where: match-never-ends)") in never.output
    endless = _run("simulate", str(TESTS / "lint" / "match-may-not-end.yaml"), "-n", "2")
    assert endless.exit_code == 0
    assert "warning: " in endless.output and ("a match may never end: greedy bots played 1,000 hands "
                                             "(MAX_MATCH_HANDS) of a match seeded 0") in endless.output
    assert "and 2 of them take about " in endless.output


def test_lint_takes_json_as_every_command_does() -> None:
    import json

    as_flag, as_format = _run("lint", "standard", "--json"), _run("lint", "standard", "--format", "json")
    assert as_flag.exit_code == as_format.exit_code == 0
    assert json.loads(as_flag.output) == json.loads(as_format.output)


def test_a_bonus_at_the_deal_is_not_said_to_let_the_hand_go_on() -> None:
    # A bonus paid on 'dealt' comes before the automatic wins, which may end the hand at once.
    recipes = Path(__file__).resolve().parent.parent / "docs" / "recipe-sheets"
    text = (recipes / "money-at-the-deal-a-dealt-tonk-takes-the-pot-a-dealt-four-of.md").read_text(encoding="utf-8")
    assert ("every other player pays 1 (the stake) to the player at once (even when an automatic win then ends the "
            "hand on the deal).") in text


def test_the_html_sheet_keeps_lists_under_their_paragraph_and_the_rulesets_words_as_text(tmp_path: Path) -> None:
    from tonkdsl.language.loader import load_ruleset
    from tonkdsl.tools.explain import explain

    html = explain(load_ruleset("speno"), "html")
    assert html.index("<h2>Automatic wins on the deal</h2>") < html.index("<li>tonk-49-50:") < \
        html.index("<p>If several players have an automatic win")  # the list where the sheet has it
    path = tmp_path / "x.yaml"
    path.write_text("extends: standard\nname: \"<script>alert(1)</script>\"\n"
                    "description: \"![tracker](http://example.invalid/p.png) <img src=x onerror=alert(1)>\"\n",
                    encoding="utf-8")
    page = explain(load_ruleset(path), "html")
    assert "<script>" not in page and "<img" not in page and "&lt;script&gt;" in page


KNOCK_ONLY = """extends: standard
name: Seven-card knock
deal: {hand_size: 7}
turn:
  spread: {allowed: false}
  drop: {allowed: true, wins_if: count < min(others.count)}
"""


def test_the_default_bot_knocks_in_a_knock_only_game_and_mostly_wins(tmp_path: Path) -> None:
    import json

    path = tmp_path / "knock.yaml"
    path.write_text(KNOCK_ONLY, encoding="utf-8")
    result = _run("simulate", str(path), "-n", "300", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    (data,) = json.loads(result.output)["rulesets"]
    endings = {k: v["hands"] for k, v in data["endings"].items() if v["hands"]}
    # Before: stock_exhausted in every hand not won on the deal (the greedy bot knocked at 10 or less).
    assert endings["drop_won"] >= 120 and endings.get("drop_caught", 0) <= endings["drop_won"] // 20, endings
    assert endings["stock_exhausted"] < 120, endings
    assert data["never_paid"] == ["tonk-out", "out-on-discard"]  # no spread: nobody can go out


def test_a_report_where_one_ending_takes_every_hand_says_so(tmp_path: Path) -> None:
    path = tmp_path / "stuck.yaml"
    path.write_text(KNOCK_ONLY.replace("drop: {allowed: true", "drop: {allowed: false")
                    + "remove: [deal_wins.rules.tonk-49-50]\n", encoding="utf-8")
    result = _run("simulate", str(path), "-n", "50", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert ("note (Seven-card knock): every hand ended the same way, stock_exhausted: no other ending of the "
            "ruleset happened; bots that play closer to people (--bots montecarlo or strong) may reach the "
            "others") in result.output
    assert ("note (Seven-card knock): 5 rules never paid in these hands: tonk-out, out-on-discard, drop-won, "
            "caught-dropper-pays, caught-lowest-collects") in result.output


def test_sheet_says_where_the_asking_starts_in_short_sentences(tmp_path: Path) -> None:
    from tonkdsl import load_ruleset
    from tonkdsl.tools.explain import explain

    path = tmp_path / "demand.yaml"
    path.write_text("extends: standard\nname: Demand\nturn:\n  out_of_turn:\n"
                    "    - {id: demand, do: demand, at: [turn_start]}\n", encoding="utf-8")
    sheet = explain(load_ruleset(path), "text")
    # By every other player: the player to move is never asked, so the asking starts at their left.
    assert ("Those who may act out of turn are asked one at a time, starting from the left of the player to "
            "move. Each may act or pass. When the player to move takes their own turn, everyone still to be "
            "asked has passed.") in sheet


def test_sheet_of_a_knock_that_lays_every_card_is_not_called_going_out() -> None:
    from tonkdsl import load_ruleset
    from tonkdsl.tools.explain import explain

    sheet = explain(load_ruleset("hoyle-tunk"), "text")
    assert "Emptying your hand by laying and hitting (not by a drop that lays every card) ends the hand." in sheet
    assert "Emptying your hand ends the hand." not in sheet


def test_quiet_keeps_results_and_drops_notes_and_verbose_says_more(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "hands.jsonl"
    out.write_text("old\n", encoding="utf-8")
    said = _run("simulate", "standard", "-n", "20", "--out", str(out)).output
    assert f"note: --out replaces the existing file {out}" in said
    quiet = _run("-q", "simulate", "standard", "-n", "20", "--out", str(out)).output
    assert "note:" not in quiet and "money per hand, by seat" in quiet  # the results stay
    verbose = _run("-v", "simulate", "standard", "-n", "20").output
    assert "standard: 20 hands in " in verbose and " hands/s)" in verbose
    both = _run("-q", "-v", "simulate", "standard")
    assert both.exit_code == 2 and "-q and -v say opposite things: give one of them" in both.output

    import tonkdsl.tools.scenario as scenario

    def broken(*_a: object, **_k: object) -> None:
        raise KeyError("a table of the engine")
    monkeypatch.setattr(scenario, "load_scenario", broken)
    traced = CliRunner().invoke(main, ["-v", "replay", "x.yaml"])
    assert traced.exit_code == 3 and "Traceback (most recent call last)" in traced.output
    Path(traced.output.split("the trace is in ")[1].split()[0].rstrip(".")).unlink()


def test_the_grammar_cache_lives_in_the_users_cache_folder(tmp_path: Path, monkeypatch) -> None:
    from tonkdsl.language.expr.compiler import _parser_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("TONKDSL_NO_CACHE", raising=False)
    import sys
    if sys.platform.startswith("linux"):  # platformdirs: XDG on Linux, the system's own folder elsewhere
        assert _parser_cache() == str(tmp_path / "cache" / "tonkdsl" / "expr-grammar.lark-cache")
        assert (tmp_path / "cache" / "tonkdsl").stat().st_mode & 0o777 == 0o700
    monkeypatch.setenv("TONKDSL_NO_CACHE", "1")
    assert _parser_cache() is False
