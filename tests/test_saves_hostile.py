"""Saves that never lose a move (issue 74): a disk that fills or a folder that goes away mid-game
is said, never a traceback, and saving resumes; two processes on one save are refused; what a
process killed mid-save left beside the save is removed."""
from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tonkdsl.tools import play as play_module
from tonkdsl.tools.play import Player, SaveInUse, lock_save, new_game, resume_game
from tonkdsl.tools.scenario import load_scenario

TONK = [sys.executable, "-m", "tonkdsl"]
ENV = {**os.environ, "NO_COLOR": "1"}


def _let_go(save: Path) -> None:
    """This test process lets go of a save it made, as a process that ended would."""
    play_module._HELD.pop(str((save.parent / f".{save.name}.lock").resolve())).close()


class _Screen:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, text: str) -> None:
        self.lines.append(text)

    def __getattr__(self, name: str) -> Any:  # the rest of the screen shows nothing here
        return lambda *args, **kwargs: None


def test_a_full_disk_during_play_is_said_and_the_game_goes_on(tmp_path: Path, monkeypatch: Any) -> None:
    save = tmp_path / "game.yaml"
    game = new_game("standard", players=2, bots=["greedy"], stake=1, hands=1, seed=11, save=save)
    game.start_hand()
    kept = save.read_text(encoding="utf-8")
    real_replace = os.replace

    def disk_full(src: Any, dst: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(play_module.os, "replace", disk_full)
    screen = _Screen()
    moves = iter(["s", "1", "quit"])
    code = Player(game, screen, lambda prompt: next(moves)).run()  # type: ignore[arg-type]
    assert code == 0
    assert any(line.startswith(f"Warning: the game cannot be saved to {save} (No space left on device). Play goes on")
               for line in screen.lines), screen.lines
    assert screen.lines[-1] == (f"The game could not be saved: the game cannot be saved to {save} (No space left on "
                                "device); the last good save is kept.")
    assert save.read_text(encoding="utf-8") == kept  # the last good save, whole
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".game.yaml.") and p.suffix != ".lock"]
    # The disk has room again: the next move is saved, with every move before it.
    monkeypatch.setattr(play_module.os, "replace", real_replace)
    state = game.state
    assert state is not None
    seat = state.current_player()
    game.apply(seat, state.legal_actions()[0])
    assert game.save_error is None and game.save_news() == f"The game is saved again to {save}."
    assert len(load_scenario(save).deals[0].actions) == len(game.deals[0]["actions"]) >= 3


def test_a_second_process_on_the_same_save_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "game.yaml"
    first = subprocess.Popen(TONK + ["play", "standard", "--seed", "11", "--save", str(save)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        for _ in range(200):
            if save.exists():
                break
            time.sleep(0.05)
        second = subprocess.run(TONK + ["play", "--resume", str(save)], input="quit\n", capture_output=True,
                                text=True, timeout=60, env=ENV)
        assert second.returncode == 2
        assert f"the game saved in {save} is being played by another tonk (process {first.pid})" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        first.kill()
        first.wait(timeout=10)
    # Once the first is gone, the save resumes.
    again = subprocess.run(TONK + ["play", "--resume", str(save)], input="quit\n", capture_output=True, text=True,
                           timeout=60, env=ENV)
    assert again.returncode == 0, again.stderr


def test_two_tables_resuming_one_save_are_refused(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="tonk serve needs the 'serve' extra")
    pytest.importorskip("websockets.sync.client")
    from live_serve import LiveServe

    save = tmp_path / "evening.yaml"
    game = new_game("standard", players=2, bots=["greedy"], stake=1, hands=3, seed=5, save=save)
    game.start_hand()
    _let_go(save)
    with LiveServe("--resume", str(save)):
        second = subprocess.run(TONK + ["serve", "--resume", str(save), "--port", "0"], capture_output=True,
                                text=True, timeout=60, env=ENV)
        assert second.returncode == 2
        assert "is being played by another tonk" in second.stderr


def test_what_a_killed_save_left_beside_it_is_removed_on_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.yaml"
    game = new_game("standard", players=2, bots=["greedy"], stake=1, hands=1, seed=11, save=save)
    game.start_hand()
    # A process killed mid-save leaves its temporary file (and the table file's) behind.
    leftovers = [tmp_path / ".game.yaml.k3x9_q", tmp_path / ".game.yaml.table.p0w2"]
    for p in leftovers:
        p.write_text("half a save", encoding="utf-8")
    other = tmp_path / ".other.yaml.zz1"
    other.write_text("not ours", encoding="utf-8")
    _let_go(save)  # as in a new process
    resume_game(save, people=None)
    assert not any(p.exists() for p in leftovers) and other.exists()


def test_the_lock_is_taken_once_per_process(tmp_path: Path) -> None:
    save = tmp_path / "g.yaml"
    assert lock_save(save) is lock_save(save)  # a rematch or a second resume in one process
    assert issubclass(SaveInUse, ValueError)


@pytest.mark.slow
def test_a_long_game_saves_quickly_and_resumes(tmp_path: Path) -> None:
    # 700 hands at a big table: the save (about 0.8 MB, 120,000 YAML nodes) was past the limits of
    # a file to read, so the game could never be resumed, and every move dumped it all again.
    import yaml

    from tonkdsl.interpreter.view import observation
    from tonkdsl.tools.bots import policy
    from tonkdsl.tools.play import new_table

    game = new_table("big-table", people=["Ann"], bots=["greedy"] * 7, stake=1, hands=1000, seed=3, save=None)
    ann = policy("random")
    for _ in range(700):
        state = game.start_hand()
        while not state.is_terminal():
            seat = state.current_player()
            bot = game.bot(seat) if game.seats[game.session.seats[seat]] != "human" else ann
            game.apply(seat, bot(observation(state, seat), state.legal_actions(), game.bot_rng()))
        game.finish_hand()
    # The text is the whole game dumped at once, made from the hands over (dumped once) and this one.
    data = {"ruleset": game.ruleset_ref, "players": game.names, "dealer": game.names[game.first_dealer],
            "stake": game.stake, "session_hands": game.hands, "play": {"seats": game.seats, "seed": game.seed},
            "deals": game.deals}
    assert game.to_yaml().split("\n", 1)[1] == yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100)
    started = time.perf_counter()
    game.to_yaml()
    assert time.perf_counter() - started < 0.2  # 1.25 s a move before
    game.save_path = tmp_path / "long.yaml"
    game.save()
    again = resume_game(game.save_path, people=1)
    assert len(again.deals) == 700 and again.session.index == game.session.index
