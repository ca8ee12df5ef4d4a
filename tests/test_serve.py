"""tonk serve: the table's rules (seats, join codes, refusals), what each browser is sent (never
another player's hidden cards), whole hands over WebSockets, saving and resuming.

The browser tests (a real Chromium driven by Playwright) are in tests/test_serve_browser.py."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import time

import pytest

pytest.importorskip("starlette", reason="tonk serve needs the 'serve' extra")
from starlette.testclient import TestClient  # noqa: E402

from tonkdsl.language.rng import Rng  # noqa: E402
from tonkdsl.tools.serve import make_game  # noqa: E402
from tonkdsl.tools.serve.app import create_app  # noqa: E402
from tonkdsl.tools.serve.room import Refused, Room  # noqa: E402


def _room(ruleset: str = "standard", seats: int = 2, bots: tuple[str, ...] = (), seed: int = 3,
          save: Path | None = None, hands: int | None = None, lobby: bool = False) -> Room:
    """A table; without ``lobby`` its first hand is dealt at once (the lobby has its own tests)."""
    game = make_game(ruleset, seats=seats, bots=bots, names=(), stake=1, hands=hands, seed=seed, save=save,
                     resume=None)
    return Room(game, lobby=lobby)


def test_seats_need_the_code_and_a_token_keeps_the_seat() -> None:
    room = _room()
    with pytest.raises(Refused, match="needs its join code"):
        room.join("wrong", None)
    a = room.join(room.code, None)
    b = room.join(room.code, None)
    assert (a.name, b.name) == ("Player1", "Player2") and a.token and b.token and a.token != b.token
    with pytest.raises(Refused, match="every seat at this table is taken"):
        room.join(room.code, None)
    assert room.join(None, a.token) is a  # a reload: the browser's token, no code needed
    with pytest.raises(Refused, match="needs its join code"):
        room.join(None, "forged-token")


def _hidden_cards(room: Room, seat_name: str) -> set[str]:
    state = room.game.state
    if state is None or state.is_terminal():
        return set()
    local = room.game.hand_names().index(seat_name)
    public = state.public_cards[local]  # taken from the discard pile in sight of everyone
    return {state.pack.names[c] for c in state.hands[local] if not public >> c & 1}


def _strings(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set().union(*(_strings(v) for v in node.values())) | set(node)
    if isinstance(node, list):
        return set().union(*(_strings(v) for v in node)) if node else set()
    return {w for w in str(node).replace(",", " ").replace(":", " ").split()}


def _play_whole_hand(client: TestClient, room: Room, url: str, rng: Rng) -> list[tuple[str, dict[str, Any]]]:
    """Two people play a hand over two WebSockets, choosing legal actions at random; every
    message each receives is returned with the name of the receiver."""
    received: list[tuple[str, dict[str, Any]]] = []
    with client.websocket_connect(url) as w1, client.websocket_connect(url) as w2:
        latest: dict[str, dict[str, Any]] = {}
        seat_of: dict[Any, str] = {}

        def drain(ws: Any) -> dict[str, Any]:
            msg: dict[str, Any] = ws.receive_json()
            name = seat_of.get(ws, "nobody")
            # What this browser was sent never names a card hidden in another hand now.
            for other in ("Player1", "Player2"):
                if other != name:
                    leaked = _hidden_cards(room, other) & _strings(msg)
                    assert not leaked, f"{name} was sent {leaked} from {other}'s hand"
            received.append((name, msg))
            if msg["type"] == "state":
                latest[name] = msg
            return msg

        drain(w1), drain(w2)  # the snapshots of people without a seat
        for ws, others in ((w1, [w2]), (w2, [w1])):
            ws.send_json({"type": "join", "code": room.code, "token": None})
            seat = drain(ws)
            assert seat["type"] == "seat"
            seat_of[ws] = seat["name"]
            drain(ws)
            for o in others:
                drain(o)  # everyone is told the table changed
        sockets = {name: ws for ws, name in seat_of.items()}
        for _ in range(400):
            state = room.game.state
            if state is None or state.is_terminal():
                break
            to_play = room.game.hand_names()[state.current_player()]
            legal = state.legal_actions()
            action = str(rng.choice([a for a in legal if str(a) != "drop"] or legal))
            sockets[to_play].send_json({"type": "act", "action": action})
            for ws in sockets.values():
                drain(ws)
        assert room.game.state is not None and room.game.state.is_terminal()
        assert all(latest[name].get("over") for name in sockets)
    return received


# A browser that waits for a message that never comes would wait for ever: a minute at most, by
# pytest-timeout's limit for this file. (An alarm and a faulthandler exit armed here, never
# disarmed, once ended a pytest-xdist worker two minutes later, in whatever test it then ran.)
pytestmark = pytest.mark.timeout(60)


def test_two_people_play_a_whole_hand_and_neither_sees_the_others_cards() -> None:
    room = _room(seed=11)
    app = create_app(room, bot_delay=0, bot_processes=0)
    # As a context manager the test client runs every connection on one event loop, as uvicorn
    # does (otherwise each WebSocket gets a loop of its own and a broadcast crosses loops).
    with TestClient(app) as client:
        url = f"/t/{room.table_id}/ws"
        received = _play_whole_hand(client, room, url, Rng(5))
    states = [m for _, m in received if m["type"] == "state"]
    assert len(states) > 10
    for name, msg in received:
        if msg["type"] == "state" and "players" in msg:
            assert msg["you"] == (None if name == "nobody" else name)
            others = [p for p in msg["players"] if p["name"] != name]
            # 'last': a player's last action, as the log says it (a draw never names its card).
            assert all(set(p) <= {"name", "cards", "money", "score", "dealer", "to_play", "bot", "you", "connected",
                                  "away", "out", "folded", "last", "side", "partner", "reaction", "shown"}
                       for p in others)
            # 'shown': only cards everyone saw go into that hand (here: taken from the discard pile).
            assert all(p.get("shown") is None or len(p["shown"]) <= p["cards"] for p in others)
            assert all(p.get("last") in (None, "draw stock", "draw discard", "drop") or
                       p["last"].split()[0] in ("discard", "spread", "hit") for p in others)


def test_bad_and_forged_messages_are_refused_and_change_nothing() -> None:
    room = _room(seed=4)
    client = TestClient(create_app(room, bot_delay=0, bot_processes=0))
    with client.websocket_connect(f"/t/{room.table_id}/ws") as ws:
        ws.receive_json()
        before = json.dumps(room.snapshot(None))
        for text, said in (("not json", "not JSON"), ("[1, 2]", "a message is"), ('{"type": "cheat"}', "a message is"),
                           (json.dumps({"type": "act", "action": "draw stock"}), "take a seat first"),
                           (json.dumps({"type": "join", "code": "nope"}), "needs its join code"),
                           ("x" * 5000, "too long")):
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] == "error" and said in reply["message"], (text[:30], reply)
        ws.send_json({"type": "join", "code": room.code})
        seat = ws.receive_json()
        ws.receive_json()
        state = room.game.state
        assert state is not None
        mine = room.game.hand_names().index(seat["name"])
        if state.current_player() != mine:  # acting out of turn: the engine's own reason
            ws.send_json({"type": "act", "action": "draw stock"})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["message"].startswith("not possible:")
        ws.send_json({"type": "act", "action": {"forged": True}})
        assert ws.receive_json()["type"] == "error"
        ws.send_json({"type": "act", "action": "discard ZZ"})
        assert ws.receive_json()["type"] == "error"
        assert json.dumps(room.snapshot(None))[:40] == before[:40]


def test_bots_fill_the_other_seats_and_the_game_is_saved_and_resumed(tmp_path: Path) -> None:
    save = tmp_path / "table.yaml"
    room = _room("chicago", seats=3, bots=("greedy", "strong:8"), seed=2, save=save)
    client = TestClient(create_app(room, bot_delay=0, bot_processes=0))
    with client.websocket_connect(f"/t/{room.table_id}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "join", "code": room.code})
        assert ws.receive_json()["type"] == "seat"
        msg = ws.receive_json()
        while msg.get("to_play") not in (None, "Player1") or (msg.get("over") is None and not msg.get("legal")):
            msg = ws.receive_json()
        if msg.get("legal"):
            ws.send_json({"type": "act", "action": msg["legal"][0]})
    import yaml
    saved = yaml.safe_load(save.read_text())
    assert saved["play"]["seats"] == ["human", "greedy", "strong:8"] and saved["deals"][0]["actions"]
    again = make_game(None, seats=3, bots=(), names=(), stake=1, hands=None, seed=0, save=None, resume=save)
    assert again.seats == room.game.seats and again.deals[0]["actions"] == room.game.deals[0]["actions"]


def test_pages_and_the_rules_sheet() -> None:
    room = _room()
    client = TestClient(create_app(room, bot_delay=0, bot_processes=0))
    page = client.get(f"/t/{room.table_id}")
    assert page.status_code == 200 and "<title>Tonk table</title>" in page.text
    assert "standard" not in page.text.lower().split("<script>")[1]  # no ruleset in the page's code
    assert client.get("/t/nope").status_code == 404
    rules = client.get(f"/t/{room.table_id}/rules")
    assert rules.status_code == 200 and "<h1>Standard Tonk</h1>" in rules.text


@pytest.mark.parametrize("name", __import__("tonkdsl.language.resources", fromlist=["x"]).shipped_ruleset_names())
def test_every_shipped_ruleset_plays_a_hand_at_a_table(name: str) -> None:
    from tonkdsl import load_ruleset
    rs = load_ruleset(name)
    bots = ("greedy",) * (max(2, rs.players_min) - 1)
    room = _room(name, seats=1 + len(bots), bots=bots, seed=7)
    seat = room.join(room.code, None)
    rng = Rng(7)
    for _ in range(3000):
        state = room.game.state
        assert state is not None
        if state.is_terminal():
            break
        if room.bot_to_play():
            room.bot_step()
            continue
        room.act(seat, str(rng.choice(state.legal_actions())))
        snap = json.dumps(room.snapshot(seat))
        for other in room.game.hand_names()[1:]:
            assert not _hidden_cards(room, other) & _strings(json.loads(snap))
    state = room.game.state
    assert state is not None and state.is_terminal() and room.snapshot(seat)["over"]["end"]


def test_join_messages_of_the_wrong_shape_get_the_error_reply_not_a_dropped_connection() -> None:
    room = _room(seed=5)
    client = TestClient(create_app(room, bot_delay=0, bot_processes=0))
    with client.websocket_connect(f"/t/{room.table_id}/ws") as ws:
        ws.receive_json()
        for value in (7, [1, 2], {"a": 1}, "k\u00e9y", "x" * 500):
            for field in ("code", "token"):
                ws.send_json({"type": "join", field: value})
                reply = ws.receive_json()
                assert reply["type"] == "error", (field, value, reply)
        ws.send_text("[" * 1990 + "]" * 1990)  # nested past the JSON parser's depth, under MAX_MESSAGE
        assert ws.receive_json()["type"] == "error"
        ws.send_text('{"a":' * 600 + "1" + "}" * 600)
        assert ws.receive_json()["type"] == "error"
        ws.send_bytes(b'{"type": "join"}')
        assert ws.receive_json() == {"type": "error", "message": "the message is not JSON text"}
        ws.send_json({"type": "join", "code": room.code})  # the connection still works
        assert ws.receive_json()["type"] == "seat"


def test_one_seat_per_connection() -> None:
    room = _room(seed=6)
    client = TestClient(create_app(room, bot_delay=0, bot_processes=0))
    with client.websocket_connect(f"/t/{room.table_id}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "join", "code": room.code})
        seat = ws.receive_json()
        ws.receive_json()
        ws.send_json({"type": "join", "code": room.code})
        reply = ws.receive_json()
        assert reply == {"type": "error", "message": f"this browser already holds the seat of {seat['name']}: "
                                                     "one seat per browser"}
        assert sum(s.claimed for s in room.seats) == 1  # the other seat is still free
        ws.send_json({"type": "join", "token": seat["token"]})  # the same seat again: fine
        assert ws.receive_json()["type"] == "seat"


def test_watchers_are_capped_but_a_seat_link_or_the_join_code_always_gets_in() -> None:
    from tonkdsl.tools.serve import app as serve_app

    room = _room(seats=3, seed=6)
    ann = room.join(room.code, None)
    app = create_app(room, bot_delay=0, bot_processes=0)
    table = app.state.table
    table.clients.update({object(): None for _ in range(serve_app.MAX_WATCHERS)})  # watchers already there
    serve_app.JOIN_GRACE, grace = 0.5, serve_app.JOIN_GRACE
    try:
        with TestClient(app) as client:
            # One more watcher: told why, then closed.
            with client.websocket_connect(f"/t/{room.table_id}/ws") as ws:
                ws.send_json({"type": "act", "action": "draw stock"})
                reply = ws.receive_json()
                assert reply["type"] == "error" and reply["message"].startswith(
                    f"this table has {serve_app.MAX_WATCHERS} watchers, the most it takes (MAX_WATCHERS): a seat's "
                    "own link, or the join code while a seat is free, still gets in")
            # Ann's own seat link gets in, and so does a newcomer with the code while a seat is free.
            for join in ({"type": "join", "code": None, "token": ann.token},
                         {"type": "join", "code": room.code, "token": None}):
                with client.websocket_connect(f"/t/{room.table_id}/ws") as ws:
                    ws.send_json(join)
                    seat = ws.receive_json()
                    assert seat["type"] == "seat", seat
                    assert ws.receive_json()["type"] == "state"
    finally:
        serve_app.JOIN_GRACE = grace


def test_a_bot_thinks_without_stopping_the_server() -> None:
    import asyncio
    import time

    from tonkdsl.tools.serve.app import Table

    room = _room(seats=2, bots=("greedy",), seed=8)
    moves: list[str | None] = []

    def slow(decided: str | None = None, quick: bool = False) -> None:  # a slow bot: 0.8 s in all
        time.sleep(0.4)
        moves.append(decided)
    room.bot_to_play = lambda: len(moves) < 2  # type: ignore[method-assign]
    room.bot_step = slow  # type: ignore[method-assign]
    table = Table(room, bot_delay=0)

    async def both() -> int:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.02)
                ticks += 1
        tick = asyncio.ensure_future(ticker())
        await table.run_bots()
        tick.cancel()
        return ticks
    assert asyncio.run(both()) >= 10  # a blocked event loop would have ticked at most twice


def test_a_saved_game_whose_name_is_markup_is_refused(tmp_path: Path) -> None:
    import yaml

    from tonkdsl import LoadError

    save = tmp_path / "table.yaml"
    room = _room("standard", seats=2, bots=("greedy",), seed=2, save=save)
    room.game.save()
    text = save.read_text().replace("Greedy1", "<img/src=x/onerror=alert(1)>")
    save.write_text(text)
    assert "<img" in yaml.safe_load(text)["players"][1]
    with pytest.raises(LoadError) as exc:
        make_game(None, seats=2, bots=(), names=(), stake=1, hands=None, seed=0, save=None, resume=save)
    d = exc.value.diagnostics[0]
    assert d.code == "save-name" and d.path == "$.players[1]"
    assert "cannot be at a table: a name is one word" in d.message


def test_the_page_puts_no_data_into_it_as_html() -> None:
    from importlib import resources

    page = (resources.files("tonkdsl.tools.serve") / "table.html").read_text(encoding="utf-8")
    assert "innerHTML" not in page and "insertAdjacentHTML" not in page and "outerHTML" not in page


def test_eat_and_pass_are_played_by_people_at_the_table() -> None:
    # Two people at a table with eating: every legal action, sent as its button's text, is
    # accepted, 'eat' and 'pass' included (they were once read as card names), until the hand ends.
    from tonkdsl.interpreter.table import ASK

    eating = str(Path(__file__).parent / "variations" / "x15-eating.yaml")
    asked = 0
    for seed in range(200):
        if asked >= 3:
            break
        room = _room(eating, seed=seed)
        seats = [room.join(room.code, None) for _ in range(2)]

        def count_asked(state: Any) -> list[Any]:
            nonlocal asked
            asked += state.phase == ASK
            return list(state.legal_actions())
        _click_to_the_end(room, seats, Rng(seed), count_asked)
    assert asked > 0, "no discard could be eaten in these hands: choose other seeds"


def test_a_person_folds_at_the_table_and_everyone_sees_it() -> None:
    # Three people at a table where players may fold once the cards are dealt: the first asked
    # sees 'fold' and 'pass' (a fold asked twice on the page), folds, and every seat's snapshot
    # marks them as sitting out; the two others play the hand to its end without them.
    fold = str(Path(__file__).parent / "variations" / "x30-fold.yaml")
    room = _room(fold, seats=3, seed=5)
    seats = [room.join(room.code, None) for _ in range(3)]
    state = room.game.state
    assert state is not None
    first = next(s for s in seats if room.local_seat(s) == state.current_player())
    assert room.snapshot(first)["legal"] == ["fold", "pass"]
    room.act(first, "fold")
    for seat in seats:
        folded = {p["name"]: p["folded"] for p in room.snapshot(seat)["players"]}
        assert folded == {p.name: p is first for p in seats}

    def never_the_folder(state: Any) -> list[Any]:
        assert state.current_player() != room.local_seat(first), "a player who folded is never asked to act"
        return [a for a in state.legal_actions() if str(a) != "fold"]
    _click_to_the_end(room, seats, Rng(5), never_the_folder)


def _click_to_the_end(room: Room, seats: list[Any], rng: Rng, choices: Any) -> None:
    """People play the hand to its end, each sending one of ``choices(state)`` when it is theirs."""
    for _ in range(400):
        state = room.game.state
        assert state is not None
        if state.is_terminal():
            return
        seat = next(s for s in seats if room.local_seat(s) == state.current_player())
        room.act(seat, str(rng.choice(choices(state))))
    raise AssertionError("the hand did not end")


def test_a_restart_keeps_the_link_the_code_and_every_seat(tmp_path: Path) -> None:
    from tonkdsl.tools.serve.room import IdentityError
    save = tmp_path / "table.yaml"
    kept = tmp_path / "table.yaml.table"
    game = make_game("standard", seats=3, bots=(), names=("Ann", "Bob", "Cy"), stake=1, hands=2, seed=4, save=save,
                     resume=None)
    room = Room(game, identity_path=kept, lobby=False)
    bob = room.join(room.code, None), room.join(room.code, None)
    assert [s.name for s in bob] == ["Ann", "Bob"] and oct(kept.stat().st_mode & 0o777) == "0o600"
    # kill -9: only the files are left; the table opens again from them.
    again = make_game(None, seats=3, bots=(), names=(), stake=1, hands=None, seed=0, save=save, resume=save)
    back = Room(again, identity_path=kept)
    assert (back.table_id, back.code) == (room.table_id, room.code)
    assert [(s.name, s.token, s.claimed) for s in back.seats] == [(s.name, s.token, s.claimed) for s in room.seats]
    assert back.join(None, bob[1].token).name == "Bob"  # the old tab's token: Bob's own seat, nobody else's
    assert back.join(back.code, None).name == "Cy"  # a newcomer gets the seat nobody had, not Ann's
    with pytest.raises(Refused, match="every seat at this table is taken; a player who comes back on another device"):
        back.join(back.code, None)
    kept.write_text('{"table": "x", "code": "y", "seats": [{"name": "Mallory", "token": "t", "claimed": true}]}')
    with pytest.raises(IdentityError, match="its seats are not the people's seats of the saved game; delete it"):
        Room(make_game(None, seats=3, bots=(), names=(), stake=1, hands=None, seed=0, save=None, resume=save),
             identity_path=kept)


def test_a_seat_link_takes_the_seat_from_another_device_and_a_stand_in_plays_while_away() -> None:
    room = _room(seats=3, bots=("greedy",), seed=9)
    ann = room.join(room.code, None)
    room.join(room.code, None)
    link = room.seat_links("http://h:1")["Player1"]
    assert link == f"http://h:1/t/{room.table_id}?seat={ann.token}"
    assert room.join(None, ann.token) is ann  # a phone that died: the link on the laptop takes the seat
    room.turn_time = 20
    room.connected = {0, 1}
    state = room.game.state
    assert state is not None
    while room.bot_to_play():
        room.bot_step()
    who = room.game.session.seats[state.current_player()]
    key = room.turn_key()
    assert room.waiting_for() == (who, 20)
    assert room.time_out(key) and who in room.away and room.bot_to_play()
    assert room.log[-1].endswith("ran out of time: a bot plays for them until they are back.")
    assert not room.time_out(key)  # the same turn is not timed out twice
    room.bot_step()
    assert "(the stand-in bot)" in room.log[-1] or room.log[-1].startswith("The hand ends")
    room.back(room.seats[who])
    assert who not in room.away and room.log[-1] == f"{room.seats[who].name} is back."
    assert room.game.session.seats[state.current_player()] == who  # the stand-in drew; the discard is theirs
    room.connected = {0, 1} - {who}  # their browser is gone: the table waits 30 s at most for them
    assert room.waiting_for() == (who, 20)
    room.turn_time = None
    assert room.waiting_for() == (who, 30.0)
    other = room.seats[1 - who]
    assert next(p for p in room.snapshot(other)["players"] if p["name"] == room.seats[who].name)["connected"] is False


def test_the_last_hand_ends_in_final_standings_and_a_second_click_deals_once() -> None:
    room = _room(seats=2, bots=("greedy",), seed=12, hands=2)
    ann = room.join(room.code, None)
    for number in (1, 2):
        while not room.game.state.is_terminal():  # type: ignore[union-attr]
            if room.bot_to_play():
                room.bot_step()
            else:
                room.act(ann, str(room.game.state.legal_actions()[0]))  # type: ignore[union-attr]
        seen = room.snapshot(ann)
        out = seen["over"]
        mine = next(p for p in seen["players"] if p["name"] == "Player1")
        assert mine["money"] == room.game.session.ledger[0] + out["payouts"]["Player1"]  # totals at once
        assert seen["last_hand"] is (number == 2)
        room.act(ann, f"next hand {number}")
        if number == 1:
            assert room.game.session.index == 1 and room.game.state is not None
            room.act(ann, "next hand 1")  # the friend's click that crossed it: ignored, not dealt again
            assert room.game.session.index == 1 and len(room.game.deals) == 2
    final = room.snapshot(ann)
    assert final["game_over"] and final["last_over"]["end"] == out["end"]
    assert final["winners"] and final["standings"][0]["winner"] and final["standings"][0]["name"] in final["winners"]
    assert room.log[-1].startswith("The game is over: ") and room.log[-1].endswith(("wins.", "win.", "nobody wins."))
    with pytest.raises(Refused, match="the game is over"):
        room.act(ann, "next hand")


def _play_to_end(room: Room, seat: Any) -> None:
    """The person plays the first legal action each turn, the bots theirs, to the hand's end."""
    while not room.game.state.is_terminal():  # type: ignore[union-attr]
        if room.bot_to_play():
            room.bot_step()
        else:
            room.act(seat, str(room.game.state.legal_actions()[0]))  # type: ignore[union-attr]


def test_the_end_of_a_hand_shows_every_hand_and_each_payment_with_its_rule() -> None:
    room = _room(seats=2, bots=("greedy",), seed=12, hands=2)
    ann = room.join(room.code, None)
    _play_to_end(room, ann)
    state = room.game.state
    assert state is not None
    over = room.snapshot(ann)["over"]
    names = room.game.hand_names()
    assert {n: sorted(h) for n, h in over["hands"].items()} == {
        names[s]: sorted(state.pack.names[c] for c in h) for s, h in enumerate(state.hands)}
    out = state.outcome()
    assert out is not None and len(over["payments"]) == len(out.payments)
    for p, q in zip(over["payments"], out.payments):
        assert (p["payer"], p["payee"], p["amount"], p["rule"]) == (names[q.payer], names[q.payee], q.amount, q.rule)
    # The same end is kept for the final standings, hands and payments included.
    room.act(ann, "next hand 1")
    _play_to_end(room, ann)
    room.act(ann, "next hand 2")
    assert room.snapshot(ann)["last_over"]["hands"]


def test_a_rematch_deals_a_new_game_at_the_same_link_and_seats() -> None:
    room = _room(seats=2, bots=("greedy",), seed=12, hands=1)
    ann = room.join(room.code, None)
    with pytest.raises(Refused, match="a rematch starts once the game is over"):
        room.act(ann, "rematch")
    _play_to_end(room, ann)
    room.act(ann, "next hand 1")
    seen = room.snapshot(ann)
    assert seen["game_over"] and seen["can_rematch"] and not room.snapshot(None)["can_rematch"]
    old_seed, table, token = room.game.seed, room.table_id, ann.token
    room.act(ann, "rematch")
    assert room.game.seed != old_seed and room.game.session.index == 0 and room.game.state is not None
    assert (room.table_id, room.join(None, token)) == (table, ann)
    assert room.log[0] == "Rematch: a new game at the same table." and room.snapshot(ann)["hand"]


def test_the_card_drawn_and_the_last_move_are_marked() -> None:
    room = _room(seats=2, seed=4)
    a, b = room.join(room.code, None), room.join(room.code, None)
    state = room.game.state
    assert state is not None
    mover, other = (a, b) if room.game.hand_names()[state.current_player()] == a.name else (b, a)
    room.act(mover, "draw stock")
    local = room.game.hand_names().index(mover.name)
    drawn = state.pack.names[state.hands[local][-1]]
    mine, theirs = room.snapshot(mover), room.snapshot(other)
    assert mine["drawn"] == drawn and "drawn" not in theirs  # the drawn card is the drawer's secret
    assert theirs["last_move"] == {"name": mover.name, "action": "draw stock"}
    card = next(str(x) for x in state.legal_actions() if str(x).startswith("discard"))
    room.act(mover, card)
    assert room.snapshot(other)["last_move"] == {"name": mover.name, "action": card, "discard": True}
    assert "drawn" not in room.snapshot(mover)


def test_the_tables_own_words_the_knock_the_last_round_and_how_points_are_won() -> None:
    room = _room("hoyle-tunk", seats=2, bots=("greedy",), seed=2)
    ann = room.join(room.code, None)
    seen = room.snapshot(ann)
    assert seen["words"] == {"drop": "knock", "decided_later": True} and seen["points"]
    assert seen["scoring"] == "lowest total wins; a player is out when their total so far is at least 100"
    state = room.game.state
    assert state is not None
    here = room.local_seat(ann)
    assert here is not None
    melds = state.melds
    assert seen["unmatched"] == sum(melds.value[c] for c in melds.deadwood(state.hands[here]))
    # Ann knocks when the rules let her: typed as the table says it, and the others are told.
    for _ in range(400):
        if state.is_terminal():
            break
        if room.bot_to_play():
            room.bot_step()
            continue
        legal = [str(x) for x in state.legal_actions()]
        if "drop" in legal:
            room.act(ann, "knock")  # hoyle-tunk knocks before the discard: the discard completes it
            assert room.snapshot(ann)["last_move"]["action"] == "knock"
            room.act(ann, next(str(x) for x in state.legal_actions() if str(x).startswith("discard")))
            assert not state.is_terminal()  # every other player has a last turn
            notice = "Player1 chose to knock: every other player has one last turn."
            assert room.snapshot(ann)["notice"] == notice and room.log.count(notice) == 1
            break
        room.act(ann, legal[0])
    else:
        raise AssertionError("no knock was offered")


def test_a_new_table_waits_in_its_lobby_until_every_person_sits_down() -> None:
    room = _room(seats=4, bots=("greedy",), lobby=True)  # three people and a bot
    assert room.game.state is None and not room.started
    ann = room.join(room.code, None)
    seen = room.snapshot(ann)
    assert seen["lobby"]["seats"] == [{"name": "Player1", "bot": False, "taken": True, "ready": False},
                                      {"name": "Player2", "bot": False, "taken": False, "ready": False},
                                      {"name": "Player3", "bot": False, "taken": False, "ready": False},
                                      {"name": "Greedy1", "bot": True, "taken": True, "ready": True}]
    assert seen["lobby"]["asks_ready"] and not seen["lobby"]["you_ready"]
    assert seen["lobby"]["you_host"] and seen["lobby"]["link"] == f"/t/{room.table_id}?code={room.code}"
    assert room.snapshot(None)["lobby"]["link"] is None  # no seat, no code
    with pytest.raises(Refused, match=r"the game starts when every seat is taken \(waiting for Player2, Player3\)"):
        room.act(ann, "draw stock")
    room.rename(ann, "Ann")
    assert room.game.names[0] == ann.name == "Ann" and room.log[-1] == "Player1 is now called Ann."
    bob = room.join(room.code, None)
    for bad, why in (("Ann", "Ann is already at this table"), ("greedy1", "already at this table"),
                     ("<b>", "a name is one word"), (7, "a name is one word")):
        with pytest.raises(Refused, match=why):
            room.rename(bob, bad)
    assert room.game.state is None
    cy = room.join(room.code, None)
    # Every seat taken: the last to come still sees the lobby, chooses a name, and says Ready;
    # the first hand is dealt when every person is ready.
    assert room.game.state is None and not room.started and "lobby" in room.snapshot(cy)
    room.rename(cy, "Cy")
    for person in (ann, bob):
        room.act(person, "ready")
    assert room.game.state is None and room.log[-1] == "Player2 is ready."
    room.act(ann, "not ready")
    assert room.log[-1] == "Ann is not ready yet." and not room.snapshot(ann)["lobby"]["you_ready"]
    room.act(cy, "ready")
    room.act(ann, "ready")
    assert room.game.state is not None and room.started
    assert "Everyone is ready: the game starts." in room.log and "lobby" not in room.snapshot(cy)
    with pytest.raises(Refused, match="names are chosen in the lobby"):
        room.rename(bob, "Bob")
    with pytest.raises(Refused, match="the game has started"):
        room.act(bob, "ready")


def test_a_person_alone_with_bots_is_dealt_in_as_they_sit_down() -> None:
    room = _room(seats=3, bots=("greedy", "greedy"), lobby=True)
    ann = room.join(room.code, None)
    assert room.started and room.game.state is not None and "Every seat is taken: the game starts." in room.log


def test_a_reaction_shows_at_the_seat_for_a_few_seconds_and_one_at_a_time() -> None:
    room = _room(seats=3, bots=("greedy",), lobby=True)
    ann, bob = room.join(room.code, None), room.join(room.code, None)
    room.act(ann, "react \U0001F44D")
    shown = {p["name"]: p.get("reaction") for p in room.snapshot(bob)["players"]}
    assert shown["Player1"]["face"] == "\U0001F44D" and shown["Player1"]["words"] == "thumbs up"
    assert shown["Player2"] is None and 0 < shown["Player1"]["left"] <= 5
    with pytest.raises(Refused, match="one reaction at a time"):
        room.act(ann, "react \U0001F602")
    with pytest.raises(Refused, match="react with one of"):
        room.act(bob, "react <b>hi</b>")
    room.reactions.last[0] = (*room.reactions.last[0][:1], time.monotonic() - 6, room.reactions.last[0][2])
    assert all(p.get("reaction") is None for p in room.snapshot(bob)["players"])  # gone after five seconds


def test_the_host_may_start_early_and_a_bot_keeps_the_empty_seat_until_its_person_comes() -> None:
    room = _room(seats=3, lobby=True)
    ann = room.join(room.code, None)
    bob = room.join(room.code, None)
    with pytest.raises(Refused, match="only Player1, who opened the table, may start"):
        room.act(bob, "start")
    room.act(ann, "start")
    assert room.started and room.game.state is not None and room.away == {2}
    assert room.log[-2] == "Player1 starts the game: a bot plays for Player3 until they come."
    cy = room.join(room.code, None)
    assert cy.index == 2 and room.away == set()
    with pytest.raises(Refused, match="the game has started"):
        room.act(ann, "start")


def test_a_spread_with_wild_cards_is_sent_as_a_player_lays_it_out() -> None:
    # Chicago (2s and jokers wild), seed 6: the second player draws and may spread JD 2H KD.
    room = _room("chicago", seed=6)
    g = room.game
    assert g.state is not None
    seat = room.seats[g.session.seats[g.state.current_player()]]
    room.act(seat, "draw stock")
    room.act(seat, "spread JD KD 2H")
    spread = room.snapshot(None)["spreads"][0]
    assert spread["cards"] == ["2H", "JD", "KD"] and spread["kind"] == "run"  # as the engine keeps them
    assert spread["layout"] == [{"card": "JD", "as": None}, {"card": "2H", "as": "QD"}, {"card": "KD", "as": None}]


def test_a_table_stopped_in_its_lobby_opens_again_with_its_link_seats_and_chosen_names(tmp_path: Path) -> None:
    from tonkdsl.tools.serve.room import IdentityError
    save, kept = tmp_path / "evening.yaml", tmp_path / "evening.yaml.table"

    def table(seed: int) -> Room:  # the same command again: nothing was dealt, so nothing to resume
        return Room(make_game("standard", seats=3, bots=("greedy",), names=(), stake=1, hands=2, seed=seed, save=save,
                              resume=None), identity_path=kept)
    room = table(4)
    ann = room.join(room.code, None)
    room.rename(ann, "Ann")
    assert not save.exists() and not room.started
    back = table(9)
    assert (back.table_id, back.code, back.started) == (room.table_id, room.code, False)
    assert [(s.name, s.token, s.claimed) for s in back.seats] == [("Ann", ann.token, True), ("Player2", back.seats[1].token,
                                                                                            False)]
    assert back.game.names == ["Ann", "Player2", "Greedy1"]
    assert back.join(None, ann.token).name == "Ann"
    # A name a table file cannot carry (a bot's, markup) is refused as any damaged file is.
    kept.write_text(kept.read_text().replace('"Ann"', '"Greedy1"'))
    with pytest.raises(IdentityError, match="its seats are not the people's seats"):
        table(5)


def _room_where_a_bot_plays() -> Room:
    """A table of one person and the greedy bot, played until the bot is to play."""
    room = _room(seats=2, bots=("greedy",), seed=8)
    while not room.bot_to_play():
        state = room.game.state
        assert state is not None
        room.act(room.seats[0], str(state.legal_actions()[0]))
    return room


def test_the_table_answers_while_a_bot_thinks() -> None:
    # A strong bot thinking for minutes at a big table held the table's lock: no browser was
    # answered meanwhile. The lock is now taken only to read the turn and to apply the move.
    import asyncio
    import time

    from tonkdsl.tools.serve.app import Table

    room = _room_where_a_bot_plays()
    plan = room.bot_plan

    def slow_plan(quick: bool = False) -> Any:
        decide = plan(quick)

        def thinking() -> str:
            time.sleep(1.0)
            return decide()
        return thinking
    room.bot_plan = slow_plan  # type: ignore[method-assign]
    table = Table(room, bot_delay=0)

    async def answered_while_thinking() -> float:
        bots = asyncio.ensure_future(table.run_bots())
        await asyncio.sleep(0.3)  # the bot is thinking now
        started = time.perf_counter()
        async with table.lock:  # what answering a browser takes
            waited = time.perf_counter() - started
        await bots
        return waited
    assert asyncio.run(answered_while_thinking()) < 0.2
    assert any("Greedy1:" in line for line in room.log)  # and the bot did play


def test_a_fault_the_bots_did_not_expect_is_said_at_the_table() -> None:
    import asyncio

    from tonkdsl.tools.serve.app import Table

    room = _room_where_a_bot_plays()

    def broken(decided: str | None = None, quick: bool = False) -> None:
        raise KeyError("a table of the engine")
    room.bot_step = broken  # type: ignore[method-assign]
    table = Table(room, bot_delay=0)

    async def play() -> None:
        table.play_bots()
        assert table.bots is not None
        await asyncio.wait([table.bots])
        await asyncio.sleep(0.1)  # the table is told
    asyncio.run(play())
    assert room.log[-1] == ("The hand is void: a rule of the ruleset failed at play (a bot could not play ('a table "
                            f"of the engine')). Nothing is paid; {room.seats[0].name} may deal the next hand or end "
                            "the game.")
    assert room.game.state is not None and room.game.state.outcome().end == "void"


def _play_until_over(room: Room) -> None:
    """Play the hand as the app does: a rule that fails at play is the room's failed_rule."""
    from tonkdsl.interpreter.engine import RulesetError

    person = room.seats[0]
    for _ in range(500):
        state = room.game.state
        assert state is not None
        if state.is_terminal():
            return
        try:
            if room.bot_to_play():
                room.bot_step()
            else:
                legal = room.snapshot(person)["legal"]  # (a rule failing here voids the hand too)
                if legal:  # never the drop: the hand must reach its third turn
                    room.act(person, next(a for a in legal if a != "drop"))
        except RulesetError as exc:
            room.failed_rule(exc)
    raise AssertionError("the hand did not end")


def test_a_rule_that_fails_at_play_voids_the_hand_with_nothing_lost(tmp_path: Path) -> None:
    # Issue 80: a rule failing at play froze a browser table ("The ruleset failed", then the same
    # player's turn forever). The hand is now void: nothing paid, the antes back, every page's
    # status says why, the save keeps it, and the host deals the next hand or ends the game.
    from tonkdsl.tools.play import resume_game

    path = tmp_path / "fails.yaml"
    path.write_text("extends: standard\nname: Fails at the third turn\npot: {ante: stake}\n"
                    "turn:\n  drop: {allowed: '10 / (3 - turns) >= 0'}\n", encoding="utf-8")
    save = tmp_path / "game.yaml"
    room = Room(make_game(str(path), seats=2, bots=("greedy",), names=(), stake=1, hands=3, seed=1, save=save,
                          resume=None), lobby=False)
    _play_until_over(room)
    person = room.seats[0]
    snap = room.snapshot(person)
    assert snap["over"]["end"] == "void"
    assert snap["over"]["void"] == ("a rule of the ruleset failed at play (the rule '10 / (3 - turns) >= 0' failed: "
                                    "division by zero)")
    assert snap["over"]["payments"] == [] and set(snap["over"]["payouts"].values()) == {0}
    assert snap["pot"] == 0  # the antes went back
    assert room.log[-1] == (f"The hand is void: {snap['over']['void']}. Nothing is paid; {person.name} may deal the "
                            "next hand or end the game.")
    again = resume_game(save, people=1)  # the save holds the void: resumed, the hand is void as it was
    assert again.state is None and again.session.records[0].outcome.end == "void"
    assert again.session.ledger == [0, 0] and again.session.pot == 0
    room.act(person, "next hand 1")
    assert room.game.session.ledger == [0, 0] and room.game.state is not None
    _play_until_over(room)
    room.act(person, "end game")
    over = room.snapshot(person)
    assert over["game_over"] and len(room.game.session.records) == 2
    assert resume_game(save, people=1).session.is_over()


def test_only_the_host_ends_the_game_and_only_between_hands() -> None:
    room = _room(seats=2)
    host, friend = room.seats
    room.join(room.code, None)
    with pytest.raises(Refused, match="the hand is still being played: end the game once it is over"):
        room.act(host, "end game")
    with pytest.raises(Refused, match=f"only {host.name}, who opened the table, may end the game"):
        room.act(friend, "end game")


def test_a_points_hand_has_its_score_sheet_with_reasons_and_a_player_out_is_shown_and_told() -> None:
    # hoyle-tunk: each player scores their unmatched cards, a knocker who is not lowest double;
    # 100 points and you are out. Ann plays the first legal action each turn (she soon runs up
    # points) until she is out; her page then says so, and she is shown at the table as out.
    room = _room(ruleset="hoyle-tunk", seats=3, bots=("greedy", "greedy"), seed=3)
    ann = room.join(room.code, None)
    sheet_seen = False
    for _ in range(40):
        _play_to_end(room, ann)
        seen = room.snapshot(ann)
        over = seen["over"]
        assert seen["target"] == 100
        for name, points in over["scores"].items():  # every number with its reasons, which add up to it
            assert sum(line["points"] for line in over["score_lines"] if line["player"] == name) == points
        assert {line["rule"] for line in over["score_lines"]} <= {"unmatched", "knocker-double"}
        sheet_seen = sheet_seen or bool(over["score_lines"])
        room.act(ann, f"next hand {seen['hand_number']}")
        if 0 not in room.game.session.seats or room.game.session.is_over():
            break
    assert sheet_seen
    assert 0 not in room.game.session.seats, "Ann was never out in 40 hands"
    assert "Player1 is out of the match." in room.log
    seen = room.snapshot(ann)
    assert not seen["game_over"]  # the two bots play on
    assert seen["you_out"] and seen["legal"] == [] and seen["hand"] == []
    me = next(p for p in seen["players"] if p["name"] == "Player1")
    assert me["out"] and me["score"] >= 100
    with pytest.raises(Refused, match="you are out of the match"):
        room.act(ann, "draw stock")
