"""The web side of `tonk serve`: a Starlette app with one page per table and a WebSocket per
browser. Every message a browser sends is checked here (JSON, size, type) before the room sees
it; a bad or forged one gets {"type": "error", "message": ...} and changes nothing. Each
browser then gets its own snapshot: nothing it may not see is ever sent to it.

Messages from a browser:
    {"type": "join", "code": "...", "token": "..."}   take a seat (the token keeps it across reloads;
                                                      a seat link carries it to another device)
    {"type": "act", "action": "discard 5S"}           an action, as in scenario files, "next hand N",
                                                      "start" (the host, in the lobby) or "rematch"
    {"type": "name", "name": "Ann"}                   one's own name, chosen in the lobby
Messages to a browser:
    {"type": "seat", "name": "...", "token": "..."}   the seat taken
    {"type": "state", ...}                            what this seat sees (Room.snapshot)
    {"type": "error", "message": "..."}               why a message was refused
"""
from __future__ import annotations

import asyncio
import json
import secrets
import time
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tonkdsl.interpreter.engine import IllegalAction, RulesetError
from tonkdsl.tools.explain import explain
from tonkdsl.tools.serve.room import Refused, Room, Seat

MAX_MESSAGE = 4_000  # characters: the longest message a browser has reason to send
MAX_CONNECTIONS = 64  # browsers at one table, seated or watching (each costs memory and broadcasts)
MAX_SECRET = 100  # characters of a join code or a seat token (ours are 8 and 22)


class Table:
    """A room and the browsers connected to it."""

    def __init__(self, room: Room, bot_delay: float) -> None:
        self.room = room
        self.bot_delay = bot_delay
        self.clients: dict[WebSocket, Seat | None] = {}
        self.lock = asyncio.Lock()
        self.clock: asyncio.Task[None] | None = None

    def seen(self) -> None:
        """Which seats some browser holds now (shown by each name; a person away is waited for
        only so long)."""
        self.room.connected = {seat.index for seat in self.clients.values() if seat is not None}

    def arm_clock(self) -> None:
        """Start the clock of the turn now awaited, if one runs (--turn-time, or a person whose
        browser is gone); when it runs out, a stand-in bot plays the seat until the person is back."""
        if self.clock is not None:
            self.clock.cancel()
            self.clock = None
        waiting = self.room.waiting_for()
        if waiting is None:
            return
        key = self.room.turn_key()
        left = max(0.0, waiting[1] - (time.monotonic() - self.room.turn_started))
        self.clock = asyncio.get_running_loop().create_task(self._ring(key, left))

    async def _ring(self, key: Any, after: float) -> None:
        await asyncio.sleep(after)
        async with self.lock:
            if self.room.time_out(key):
                self.clock = None
                await self.broadcast()
                await self.run_bots()

    async def broadcast(self) -> None:
        self.seen()
        self.arm_clock()
        clients = list(self.clients.items())
        # Snapshots list the legal actions: worked out off the event loop, like every call into
        # the game, so that a slow ruleset never stops the server answering.
        texts = await asyncio.to_thread(lambda: [json.dumps(self.room.snapshot(seat)) for _, seat in clients])
        for (ws, _), text in zip(clients, texts):
            try:
                await ws.send_text(text)
            except Exception:  # a browser gone mid-send: its own handler cleans up
                self.clients.pop(ws, None)

    async def run_bots(self) -> None:
        """Bots play their turns one at a time, each shown before the next. A bot thinks in a
        worker thread: the server goes on answering (pages, other tables' messages) meanwhile."""
        while self.room.bot_to_play():
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            try:
                await asyncio.to_thread(self.room.bot_step)
            except RulesetError as exc:
                self.room.failed_rule(exc)
                break
            except (IllegalAction, ValueError) as exc:  # an engine fault must not end the server's loop
                self.room.failed_rule(RulesetError(f"a bot could not play ({exc})"))
                break
            await self.broadcast()


def _page() -> str:
    return (resources.files("tonkdsl.tools.serve") / "table.html").read_text(encoding="utf-8")


def create_app(room: Room, *, bot_delay: float = 0.6) -> Starlette:
    table = Table(room, bot_delay)

    async def page(request: Request) -> Response:
        if request.path_params["table"] != room.table_id:
            return PlainTextResponse("no such table", status_code=404)
        return HTMLResponse(_page())

    async def rules(request: Request) -> Response:
        if request.path_params["table"] != room.table_id:
            return PlainTextResponse("no such table", status_code=404)
        return HTMLResponse(explain(room.game.ruleset, "html", room.game.stake))

    async def home(request: Request) -> Response:
        return PlainTextResponse("tonk serve: open the table's link (it carries the join code)")

    async def socket(ws: WebSocket) -> None:
        if ws.path_params["table"] != room.table_id:
            await ws.close(code=4404)
            return
        await ws.accept()
        if len(table.clients) >= MAX_CONNECTIONS:
            await ws.send_text(json.dumps({"type": "error", "message": f"this table has {MAX_CONNECTIONS} browsers "
                                           "connected, the most it takes (MAX_CONNECTIONS): try again later"}))
            await ws.close(code=1013)
            return
        table.clients[ws] = None
        try:
            async with table.lock:
                await ws.send_text(json.dumps(await asyncio.to_thread(room.snapshot, None)))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                reply: dict[str, Any] | None
                async with table.lock:
                    if text is None:  # a binary frame: the table speaks JSON text only
                        reply, changed = {"type": "error", "message": "the message is not JSON text"}, False
                    else:
                        reply, changed = await asyncio.to_thread(_handle, table, ws, text)
                    if reply is not None:
                        await ws.send_text(json.dumps(reply))
                    if changed:
                        await table.broadcast()
                        await table.run_bots()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # an ordinary disconnect (or one mid-send): nothing to log
        finally:
            held = table.clients.pop(ws, None)
            if held is not None and held.index not in {s.index for s in table.clients.values() if s is not None}:
                # The others see that this person left (and their clock starts when it is their turn).
                try:
                    async with table.lock:
                        await table.broadcast()
                except (RuntimeError, OSError):
                    pass

    app = Starlette(routes=[
        Route("/", home),
        Route("/t/{table}", page),
        Route("/t/{table}/rules", rules),
        WebSocketRoute("/t/{table}/ws", socket),
    ])
    app.state.table = table
    return app


def _handle(table: Table, ws: WebSocket, text: str) -> tuple[dict[str, Any] | None, bool]:
    """Apply one message: a reply for this browser alone (or None), and whether the table
    changed (then every browser is sent its new snapshot and the bots play)."""
    room = table.room
    if len(text) > MAX_MESSAGE:
        return {"type": "error", "message": "the message is too long"}, False
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        return {"type": "error", "message": "the message is not JSON"}, False
    if not isinstance(msg, dict) or msg.get("type") not in ("join", "act", "name"):
        return {"type": "error", "message": "a message is {\"type\": \"join\", \"act\" or \"name\", ...}"}, False
    try:
        if msg["type"] == "join":
            code, token = msg.get("code"), msg.get("token")
            for what, value in (("code", code), ("token", token)):
                if value is not None and not (isinstance(value, str) and value.isascii() and len(value) <= MAX_SECRET):
                    raise Refused(f"a join message's {what} is the text of the table's link (or null)")
            held = table.clients.get(ws)
            if held is not None and not (isinstance(token, str) and held.token is not None
                                         and secrets.compare_digest(held.token, token)):
                raise Refused(f"this browser already holds the seat of {held.name}: one seat per browser")
            seat = room.join(code, token)
            table.clients[ws] = seat
            table.seen()
            return {"type": "seat", "name": seat.name, "token": seat.token}, True
        held = table.clients.get(ws)
        if held is None:
            raise Refused("take a seat first (join with the table's code)")
        if msg["type"] == "name":  # a name chosen in the lobby
            room.rename(held, msg.get("name"))
            return {"type": "seat", "name": held.name, "token": held.token}, True
        room.act(held, msg.get("action"))
    except Refused as exc:
        return {"type": "error", "message": str(exc)}, False
    except RulesetError as exc:
        room.failed_rule(exc)
    return None, True
