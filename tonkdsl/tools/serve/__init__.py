"""`tonk serve`: the table in a browser, for friends and bots, under any ruleset.

The web stack (Starlette on uvicorn, with WebSockets) is the optional 'serve' extra:
``pip install 'tonkdsl[serve]'``. See docs/serve.md.
"""
from __future__ import annotations

import socket
from pathlib import Path
from typing import Sequence

from tonkdsl.tools.play import Game, new_table, resume_game

SERVE_HANDS = 10  # the session a table plays when neither --hands nor the ruleset says


def make_game(ruleset: str | None, *, seats: int, bots: Sequence[str], names: Sequence[str], stake: int,
              hands: int | None, seed: int, save: Path | None, resume: Path | None,
              allow_paths: Sequence[Path] = ()) -> Game:
    """The game of a new table (people in the first seats, then the bots), or a saved one."""
    if resume is not None:
        game = resume_game(resume, allow_paths=allow_paths, people=None)
        if save is not None:
            game.save_path = save
            game.hold_save()
        return game
    if ruleset is None:
        raise ValueError("give a RULESET to play, or --resume FILE")
    people = seats - len(bots)
    if people < 1:
        raise ValueError(f"--seats {seats} leaves no seat for a person next to {len(bots)} bots")
    given = list(names)
    if len(given) > people:
        raise ValueError(f"--names gives {len(given)} names for {people} people")
    given += [f"Player{i}" for i in range(len(given) + 1, people + 1)]
    game = new_table(ruleset, people=given, bots=list(bots), stake=stake, hands=hands, seed=seed, save=save,
                     allow_paths=allow_paths)
    if hands is None and not game.ruleset.session.hands and not game.ruleset.session.is_match:
        game.hands = game.session.hands = SERVE_HANDS  # friends sit down for a session, not one hand
    return game


def lan_address() -> str:
    """This machine's address on the local network (for the link to share), else 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
