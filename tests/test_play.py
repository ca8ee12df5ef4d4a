"""tonk play driven through stdin: a whole session, bad input, save and resume after a kill."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from tonkdsl.interpreter import actions as A
from tonkdsl.tools.play import parse_input
from tonkdsl.tools.scenario import load_scenario, replay

TONK = [sys.executable, "-m", "tonkdsl"]
ENV = {**os.environ, "NO_COLOR": "1"}


def play(args: list[str], lines: list[str], timeout: int = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(TONK + ["play", *args], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=timeout, env=ENV)


def test_a_whole_hand_to_the_end() -> None:
    # Draw from the stock and discard the first card listed, every turn, until the hand ends.
    res = play(["standard", "--seed", "11", "--players", "3"], ["s", "1"] * 60)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "Hand 1 of 1" in out and "Your hand:" in out
    assert "== hand over:" in out and "== session over ==" in out
    assert "\x1b[" not in out  # plain text when piped


def test_bad_input_gets_a_message_and_the_same_prompt() -> None:
    res = play(["standard", "--seed", "11"], ["fly away", "42", "discard 7Z", "quit"])
    assert res.returncode == 0
    assert "Not possible: 'fly away' is not an action; actions are: drop | draw stock" in res.stdout
    assert "Not possible: there is no choice 42 in the menu (1-3)" in res.stdout
    assert "Not possible: '7Z' is not a card: unknown suit" in res.stdout
    assert "Traceback" not in res.stdout + res.stderr


def test_help_rules_hint() -> None:
    res = play(["speno", "--seed", "5"], ["help", "rules", "hint", "quit"])
    assert "sp 8D 8H 8C" in res.stdout
    # 'rules' says the rules sheet's words for this moment of the turn, not raw YAML.
    assert "A turn:\n  Play starts at the dealer's left and goes clockwise." in res.stdout
    assert "The drop is won when your count is less than the lowest of the other players' counts" in res.stdout
    assert "wins_if:" not in res.stdout
    assert "The strong bot would play:" in res.stdout


def test_resume_after_the_process_was_killed(tmp_path: Path) -> None:
    save = tmp_path / "game.yaml"
    proc = subprocess.Popen(TONK + ["play", "standard", "--seed", "11", "--save", str(save)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdin is not None
    proc.stdin.write("s\n1\n")
    proc.stdin.flush()
    deadline = time.time() + 30
    while time.time() < deadline:  # wait until the bots have answered our discard
        if save.exists():
            actions = (yaml.safe_load(save.read_text())["deals"][0]["actions"])
            if sum(a.startswith("You ") for a in actions) >= 2:
                break
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    saved = yaml.safe_load(save.read_text())
    done = saved["deals"][0]["actions"]
    assert "You draw stock" in done and sum(a.startswith("You ") for a in done) >= 2
    # The save is a valid scenario that replays, and the game goes on from there.
    result = replay(load_scenario(save))
    data = result.to_json()
    assert data["actions_applied"] == len(done)
    res = play(["--resume", str(save)], ["quit"])
    assert res.returncode == 0, res.stderr
    state = result.state
    from tonkdsl.tools.screen import in_hand_order
    hand = " ".join(in_hand_order([state.pack.names[c] for c in state.hands[0]], state.pack))
    if state.current_player() == 0:
        assert f"Your hand: {hand}" in res.stdout
    assert "Hand 1 of 1" not in res.stdout  # not dealt again


def test_a_damaged_save_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "game.yaml"
    play(["standard", "--seed", "11", "--save", str(save)], ["s", "1", "quit"])
    text = save.read_text()
    assert "You draw stock" in text
    save.write_text(text.replace("You draw stock", "You draw sock", 1))
    res = play(["--resume", str(save)], ["quit"])
    assert res.returncode == 2
    assert "game.yaml" in res.stderr and "write 'draw stock' or 'draw discard'" in res.stderr
    assert "Traceback" not in res.stderr


def test_a_save_that_is_not_a_game(tmp_path: Path) -> None:
    scenario = Path(__file__).parent / "scenarios" / "v18-big-one.yaml"
    target = tmp_path / "s.yaml"
    target.write_text(scenario.read_text().replace("../variations/", str(scenario.parent.parent / "variations") + "/"))
    res = play(["--resume", str(target)], ["quit"])
    assert res.returncode == 2 and "error[save-play]" in res.stderr


def test_parse_input_short_forms() -> None:
    legal = [A.Drop(), A.DrawStock(), A.DrawDiscard()]
    assert parse_input("2", legal) == A.DrawStock()
    assert parse_input("s", legal) == A.DrawStock()
    assert parse_input("t", legal) == A.DrawDiscard()
    assert parse_input("k", legal) == A.Drop()
    assert parse_input("6s", legal) == A.Discard("6S")
    assert parse_input("sp 8d 8h 8c", legal) == A.Spread(("8D", "8H", "8C"))
    assert parse_input("h 8S 1", legal) == A.Hit(("8S",), 1)
    assert parse_input("hit 8S on 2", legal) == A.Hit(("8S",), 2)
    # One-word actions are actions, not cards: eating the discard and declining it are typed.
    assert parse_input("eat", [A.Eat(), A.Pass()]) == A.Eat()
    assert parse_input("pass", [A.Eat(), A.Pass()]) == A.Pass()
    assert parse_input("drop", legal) == A.Drop()
    with pytest.raises(A.ActionSyntaxError, match="'zz' is not an action or a card"):
        parse_input("zz", legal)


def test_a_save_with_an_illegal_action_is_refused(tmp_path: Path) -> None:
    from tonkdsl import LoadError
    from tonkdsl.tools.play import resume_game

    save = tmp_path / "game.yaml"
    play(["standard", "--seed", "11", "--save", str(save)], ["s", "1", "quit"])
    data = yaml.safe_load(save.read_text())
    actions = data["deals"][0]["actions"]
    mine = next(i for i, a in enumerate(actions) if a == "You draw stock")
    actions.insert(mine, "You draw stock")  # two draws in one turn: valid text, illegal play
    save.write_text(yaml.safe_dump(data, sort_keys=False))
    try:
        resume_game(save)
    except LoadError as exc:
        (d,) = exc.diagnostics
        assert d.code == "save-action" and "you have already drawn this turn" in d.message
        assert d.line > 0
    else:
        raise AssertionError("a damaged save was accepted")


def test_colour_on_a_terminal_plain_otherwise(monkeypatch) -> None:
    import io

    from tonkdsl.tools.screen import Screen

    coloured = io.StringIO()
    Screen(coloured, colour=True).say("Your hand: 8H KD", "bold green")
    assert "\x1b[" in coloured.getvalue() and "Your hand: 8H KD" in coloured.getvalue()
    plain = io.StringIO()
    Screen(plain).say("Your hand: 8H KD", "bold green")  # a StringIO is not a terminal
    assert plain.getvalue() == "Your hand: 8H KD\n"
    monkeypatch.setenv("NO_COLOR", "1")

    class FakeTty(io.StringIO):
        def isatty(self) -> bool:
            return True
    tty = FakeTty()
    Screen(tty).say("x", "bold")
    assert tty.getvalue() == "x\n"  # NO_COLOR wins even on a terminal


def test_a_session_with_side_bets_saves_and_replays(tmp_path: Path) -> None:
    ruleset = Path(__file__).parent / "variations" / "v19a-named-suit.yaml"
    save = tmp_path / "game.yaml"
    res = play([str(ruleset), "--seed", "4", "--hands", "2", "--save", str(save)], ["s", "1"] * 60)
    assert res.returncode == 0, res.stderr
    assert "Side bet high-card: the dealer names" in res.stdout and "== session over ==" in res.stdout
    won_by = res.stdout.strip().splitlines()[-1]
    data = replay(load_scenario(save)).to_json()
    assert len(data["hands"]) == 2 and sum(data["settlement"].values()) == 0
    assert won_by == "Won by " + ", ".join(data["winners"])


def test_the_person_at_the_keyboard_is_addressed_in_english() -> None:
    # Three hands to the end, from a seed where the person deals one: 'You deal', 'You pay'.
    outs = [play(["standard", "--seed", str(seed), "--players", "2", "--hands", "2"], ["s", "1"] * 200).stdout
            for seed in range(4)]
    text = "\n".join(outs)
    assert "You deals" not in text and "You pays" not in text
    assert "You deal." in text and "You pay " in text


def test_a_match_is_played_to_its_end_and_names_its_winner() -> None:
    res = play([str(Path(__file__).parent / "variations" / "x16-match-elimination.yaml"), "--seed", "3",
                "--players", "3", "--bots", "greedy"], ["1"] * 3000, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "Hand 1 of the match" in res.stdout and "== match over ==" in res.stdout
    assert "You are out of the match." in res.stdout and "Match won by Greedy2" in res.stdout


def test_a_save_whose_dealt_cards_were_edited_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "game.yaml"
    play(["standard", "--seed", "11", "--save", str(save)], ["quit"])
    data = yaml.safe_load(save.read_text())
    you = data["deals"][0]["hands"]["You"]
    stock = data["deals"][0]["stock"]
    you[0], stock[0] = stock[0], you[0]  # a better card swapped in from the stock
    save.write_text(yaml.safe_dump(data, sort_keys=False))
    good = save.read_text()
    res = play(["--resume", str(save)], ["quit"])
    assert res.returncode == 2 and "error[save-deal]" in res.stderr
    assert "hand 1 of the save is not the hand its seed deals" in res.stderr
    assert save.read_text() == good  # refused, and the file is left as it was
    data["deals"][0]["seed"] += 1  # a seed that is not the game's
    save.write_text(yaml.safe_dump(data, sort_keys=False))
    assert "error[save-deal]" in play(["--resume", str(save)], ["quit"]).stderr


def test_names_that_could_not_be_resumed_are_refused_up_front(tmp_path: Path) -> None:
    for name, said in (("Ann Lee", "a name is one word"), ("", "a name is one word"), ("- x", "a name is one word"),
                       ("Greedy1", "is the name of a bot at this table")):
        res = play(["standard", "--seed", "1", "--name", name, "--save", str(tmp_path / "g.yaml")], ["quit"])
        assert res.returncode == 2 and said in res.stderr, (name, res.stderr)
        assert not (tmp_path / "g.yaml").exists()
    res = play(["standard", "--seed", "1", "--name", "Ann_Lee", "--save", str(tmp_path / "g.yaml")], ["quit"])
    assert res.returncode == 0 and "Ann_Lee" in (tmp_path / "g.yaml").read_text()


def test_save_paths_are_checked_before_the_game(tmp_path: Path) -> None:
    res = play(["standard", "--seed", "1", "--save", str(tmp_path / "missing" / "g.yaml")], ["quit"])
    assert res.returncode == 2 and f"the folder {tmp_path / 'missing'} does not exist" in res.stderr
    existing = tmp_path / "old.yaml"
    existing.write_text("a game in progress\n")
    res = play(["standard", "--seed", "1", "--save", str(existing)], ["quit"])
    assert res.returncode == 2 and "exists already" in res.stderr and f"--resume {existing}" in res.stderr
    assert existing.read_text() == "a game in progress\n"
    assert "Traceback" not in res.stderr


def test_the_rules_example_of_the_docs_is_what_play_prints() -> None:
    import re

    from tonkdsl import load_ruleset
    from tonkdsl.tools.play import rules_for
    from conftest import ROOT
    doc = (ROOT / "docs" / "play.md").read_text()
    shown = re.search(r"```text\n> rules\n(.*?)\n```", doc, re.S)
    assert shown is not None and shown.group(1) == rules_for(load_ruleset("speno"), "start")


def test_the_hand_is_sorted_and_suits_are_symbols_on_a_terminal_only() -> None:
    import io

    from tonkdsl import load_ruleset
    from tonkdsl.tools.screen import Screen, in_hand_order
    pack = load_ruleset("standard").pack
    assert in_hand_order(["KD", "2S", "AH", "2C", "10H"], pack) == ["AH", "2C", "2S", "10H", "KD"]
    utf = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert Screen(utf, colour=True).cards(["5H", "JK", "10S"]) == "5\u2665 JK 10\u2660"
    assert Screen(io.StringIO()).cards(["5H", "JK", "10S"]) == "5H JK 10S"  # piped: as actions are typed


def test_ctrl_c_says_where_the_game_is_saved(tmp_path: Path, monkeypatch: Any) -> None:
    import builtins

    from click.testing import CliRunner

    from tonkdsl.cli import main

    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt
    monkeypatch.setattr(builtins, "input", interrupted)
    save = tmp_path / "game.yaml"
    res = CliRunner().invoke(main, ["play", "standard", "--seed", "5", "--save", str(save)])
    assert res.exit_code == 130
    assert f"Stopped: the game is saved in {save}: continue it with tonk play --resume {save}." in res.output
    assert save.exists()


def test_the_tables_word_for_a_drop_is_shown_and_understood() -> None:
    from tonkdsl.tools.screen import Screen

    legal = [A.Drop(), A.DrawStock()]
    assert Screen.menu(legal, "knock") == "  [1] drop (knock)   [2] draw stock"
    assert Screen.menu(legal) == "  [1] drop   [2] draw stock"
    assert parse_input("knock", legal, "knock") == A.Drop() == parse_input("Knock", legal, "knock")
    assert parse_input("go down", legal, "go down") == A.Drop()
