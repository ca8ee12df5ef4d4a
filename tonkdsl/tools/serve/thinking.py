"""Where the bots of `tonk serve` think: in worker processes, so that a bot's search never holds
the server's interpreter lock while other tables wait for their answers.

A decision travels as a :class:`BotTurn`, plain data (the ruleset's file, the deal's arguments,
the actions of the hand so far); the worker deals the same hand again, replays the actions and
asks the bot. It checks that it rebuilt the hand the table sees (the same legal actions), and
refuses otherwise (:class:`Unthinkable`): the table then lets the bot think in a thread instead.
The bot's generator is seeded from the table's game, so the decision is the one the bot would
make in a thread, and a resumed game goes on as it would have.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from tonkdsl.interpreter import actions as A
from tonkdsl.interpreter.engine import IllegalAction, State, deal
from tonkdsl.interpreter.view import observation
from tonkdsl.language.diagnostics import LoadError
from tonkdsl.language.loader import load_ruleset
from tonkdsl.language.rng import Rng
from tonkdsl.language.ruleset import Ruleset
from tonkdsl.tools.bots import policy


class Unthinkable(Exception):
    """The worker could not rebuild the table's hand (its ruleset file changed or cannot be read
    here): the decision is made at the table instead."""


@dataclass(frozen=True)
class BotTurn:
    bot: str  # the bot's name, as policy() reads it
    source: str  # the ruleset's file (absolute; "" when unknown: then the table decides)
    players: int
    dealt_with: dict[str, Any]  # deal()'s keyword arguments for this hand
    actions: tuple[tuple[int, str], ...]  # the hand's actions so far: (seat, action text)
    seat: int
    rng_seed: int
    legal: tuple[str, ...]  # the legal actions at the table: the rebuilt hand must offer the same


@lru_cache(maxsize=32)
def _ruleset(source: str) -> Ruleset:
    if not source:
        raise OSError("the ruleset's file is not known")
    # Files another file extends are looked for next to it, as when the table loaded it.
    return load_ruleset(source, allow_paths=[Path(source).parent])


def rebuild(turn: BotTurn) -> State:
    """The hand of ``turn``, dealt and played again to the decision."""
    try:
        state = deal(_ruleset(turn.source), turn.players, **turn.dealt_with)
        for seat, text in turn.actions:
            state.apply(A.parse_action(text), player=seat)
    except (LoadError, OSError, A.ActionSyntaxError, IllegalAction, ValueError) as exc:
        raise Unthinkable(str(exc)) from None
    if tuple(str(a) for a in state.legal_actions()) != turn.legal or state.current_player() != turn.seat:
        raise Unthinkable("the hand rebuilt is not the table's")
    return state


# How often a worker looks whether the server that started it is still there.
PARENT_CHECK_SECONDS = 1.0


def die_with_parent(parent: int) -> None:
    """A worker's start (the pool's initializer): a watch that ends the worker once the server is
    gone. A server killed outright (kill -9, the OOM killer) cannot stop its workers, and they
    would otherwise wait for work for good, one orphan per worker."""
    import os
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)  # the server is gone: nothing to save, nobody to answer

    threading.Thread(target=watch, name="tonk-parent-watch", daemon=True).start()


def think(turn: BotTurn) -> str:
    """The bot's action at ``turn`` (its text); runs in a worker process."""
    state = rebuild(turn)
    return str(policy(turn.bot)(observation(state, turn.seat), state.legal_actions(), Rng(turn.rng_seed)))
