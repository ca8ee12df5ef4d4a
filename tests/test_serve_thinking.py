"""tonk serve's bots think in worker processes (tonkdsl/tools/serve/thinking.py): the decision
made there is the one made at the table, a hand the worker cannot rebuild falls back to the
table, and one app hosts several tables at their own links."""
from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("starlette", reason="tonk serve needs the 'serve' extra")
from starlette.testclient import TestClient  # noqa: E402

from tonkdsl.interpreter.view import observation  # noqa: E402
from tonkdsl.tools.bots import policy  # noqa: E402
from tonkdsl.tools.serve import make_game  # noqa: E402
from tonkdsl.tools.serve.app import create_app  # noqa: E402
from tonkdsl.tools.serve.room import Room  # noqa: E402
from tonkdsl.tools.serve.thinking import Unthinkable, think  # noqa: E402
from conftest import ROOT  # noqa: E402


def _bot_room(ruleset: str, bots: tuple[str, ...], seed: int) -> Room:
    game = make_game(ruleset, seats=1 + len(bots), bots=bots, names=(), stake=1, hands=3, seed=seed, save=None,
                     resume=None)
    room = Room(game, lobby=False)
    room.away.add(0)  # the person's seat is played by the stand-in: every decision is a bot's
    return room


@pytest.mark.parametrize("ruleset,bots", [
    ("standard", ("greedy", "strong:8")),
    ("hoyle-tunk", ("montecarlo",)),
    (str(ROOT / "tests" / "variations" / "x15-eating.yaml"), ("greedy", "greedy")),
])
def test_a_decision_rebuilt_from_plain_data_is_the_one_made_at_the_table(ruleset: str, bots: tuple[str, ...]) -> None:
    room = _bot_room(ruleset, bots, seed=21)
    g = room.game
    decisions = 0
    while not g.session.is_over() and decisions < 120:
        if g.state is None or g.state.is_terminal():
            room.next_hand()
            continue
        turn = room.bot_turn()
        seat = g.state.current_player()
        g_seat = g.session.seats[seat]
        here = (policy("greedy") if g.seats[g_seat] == "human" else g.bot(seat))(
            observation(g.state, seat), g.state.legal_actions(), g.bot_rng())
        assert think(turn) == str(here)
        room.bot_step(think(turn))
        decisions += 1
    assert decisions > 20


def test_a_hand_the_worker_cannot_rebuild_is_refused_not_guessed() -> None:
    room = _bot_room("standard", ("greedy",), seed=5)
    turn = room.bot_turn()
    with pytest.raises(Unthinkable, match="not the table's"):
        think(dataclasses.replace(turn, legal=turn.legal[1:]))
    with pytest.raises(Unthinkable):
        think(dataclasses.replace(turn, source=str(ROOT / "no-such-ruleset.yaml")))


def _play_to_end_of_first_hand(processes: int) -> list[str]:
    room = _bot_room("standard", ("greedy", "greedy"), seed=9)
    room.away.discard(0)
    app = create_app(room, bot_delay=0, bot_processes=processes)
    with TestClient(app) as client:
        with client.websocket_connect(f"/t/{room.table_id}/ws") as ws:
            ws.receive_json()
            ws.send_json({"type": "join", "code": room.code, "token": None})
            while True:
                msg = ws.receive_json()
                if msg["type"] != "state":
                    continue
                if msg.get("over"):
                    # Bots were asked in a worker process exactly when there were processes to ask.
                    assert (app.state.table.thinkers.pool is not None) == (processes > 0)
                    return list(room.game.deals[-1]["actions"])
                if msg.get("legal"):
                    legal = msg["legal"]
                    ws.send_json({"type": "act", "action": "draw stock" if "draw stock" in legal else legal[-1]})


def test_bots_in_worker_processes_play_the_hand_bots_in_threads_play() -> None:
    in_processes = _play_to_end_of_first_hand(1)
    assert len(in_processes) > 6
    assert in_processes == _play_to_end_of_first_hand(0)


def test_one_app_hosts_several_tables_each_at_its_own_link() -> None:
    rooms = [_bot_room("standard", ("greedy",), seed=s) for s in (1, 2)]
    client = TestClient(create_app(rooms, bot_delay=0, bot_processes=0))
    for room in rooms:
        assert client.get(f"/t/{room.table_id}").status_code == 200
        with client.websocket_connect(f"/t/{room.table_id}/ws") as ws:
            assert ws.receive_json()["table"] == room.table_id
    assert client.get("/t/nosuchtable").status_code == 404
