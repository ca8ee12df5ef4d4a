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
import contextlib
import json
import multiprocessing
import os
import secrets
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from importlib import resources
from typing import Any, AsyncIterator, Sequence

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tonkdsl.interpreter.engine import IllegalAction, RulesetError
from tonkdsl.tools.explain import explain
from tonkdsl.tools.serve.room import Refused, Room, Seat
from tonkdsl.tools.serve.thinking import Unthinkable, think

MAX_MESSAGE = 4_000  # characters: the longest message a browser has reason to send
MAX_CONNECTIONS = 64  # browsers at one table, seated or watching (each costs memory and broadcasts)
SWITCH_INTERVAL = 0.0005  # seconds: see create_app
MAX_SECRET = 100  # characters of a join code or a seat token (ours are 8 and 22)


class Thinkers:
    """Where bots think. In worker processes by default: a search there never holds this
    process's interpreter lock, so no table's answer waits for another table's bot (the load
    benchmark measures it). A decision a worker cannot make (:class:`Unthinkable`, or a worker
    gone) is made in a thread here, with the same result."""

    def __init__(self, processes: int | None, threads: int) -> None:
        self.processes = max(1, (os.cpu_count() or 2) - 1) if processes is None else processes
        self.pool: ProcessPoolExecutor | None = None
        # Not the pool that works out answers (asyncio.to_thread's, a handful of threads), or ten
        # bots searching at ten tables would keep every other table's answers waiting behind them.
        self.threads = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="tonk-bot")

    async def step(self, room: Room) -> None:
        """One bot action at ``room``'s table."""
        loop = asyncio.get_running_loop()
        decided = None
        if self.processes:
            try:
                if self.pool is None:  # started at the first bot decision: a table of people needs none
                    self.pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"))
                decided = await loop.run_in_executor(self.pool, think, room.bot_turn())
            except (Unthinkable, BrokenProcessPool, OSError):
                decided = None
            except AssertionError:  # no child processes here (a daemon process): threads from now on
                self.processes = 0
        await loop.run_in_executor(self.threads, room.bot_step, decided)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.threads.shutdown(wait=False, cancel_futures=True)


class Table:
    """A room and the browsers connected to it."""

    def __init__(self, room: Room, bot_delay: float, thinkers: Thinkers | None = None) -> None:
        self.room = room
        self.bot_delay = bot_delay
        self.thinkers = thinkers or Thinkers(0, 1)
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
                await self.thinkers.step(self.room)
            except RulesetError as exc:
                self.room.failed_rule(exc)
                break
            except (IllegalAction, ValueError) as exc:  # an engine fault must not end the server's loop
                self.room.failed_rule(RulesetError(f"a bot could not play ({exc})"))
                break
            await self.broadcast()


def _page() -> str:
    return (resources.files("tonkdsl.tools.serve") / "table.html").read_text(encoding="utf-8")


def create_app(rooms: Room | Sequence[Room], *, bot_delay: float = 0.6, bot_processes: int | None = None) -> Starlette:
    """The app of one table (`tonk serve`) or of several at once, each at its own link (the load
    benchmark hosts fifty in one process): a table's messages never wait for another table's.
    ``bot_processes``: the worker processes bots think in (None: one less than the cores; 0: none,
    bots think in threads of this process)."""
    # A bot's search holds the interpreter lock in its worker thread; by default a thread waiting
    # for the lock (the event loop, with another table's answer to send) waits up to 5 ms each
    # time. At 0.5 ms a bot thinking at one table adds a few milliseconds to other tables'
    # answers instead of tens (benchmarks/bench_serve.py measures both).
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
    rooms = [rooms] if isinstance(rooms, Room) else list(rooms)
    # A thread for each table's bots (at most one bot thinks at a table at a time).
    thinkers = Thinkers(bot_processes, threads=len(rooms))
    tables = {room.table_id: Table(room, bot_delay, thinkers) for room in rooms}

    def table_of(params: Any) -> Table | None:
        return tables.get(params["table"])

    async def page(request: Request) -> Response:
        if table_of(request.path_params) is None:
            return PlainTextResponse("no such table", status_code=404)
        return HTMLResponse(_page())

    async def rules(request: Request) -> Response:
        table = table_of(request.path_params)
        if table is None:
            return PlainTextResponse("no such table", status_code=404)
        return HTMLResponse(explain(table.room.game.ruleset, "html", table.room.game.stake))

    async def home(request: Request) -> Response:
        return PlainTextResponse("tonk serve: open the table's link (it carries the join code)")

    async def socket(ws: WebSocket) -> None:
        table = table_of(ws.path_params)
        if table is None:
            await ws.close(code=4404)
            return
        room = table.room
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

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        thinkers.close()

    app = Starlette(lifespan=lifespan, routes=[
        Route("/", home),
        Route("/t/{table}", page),
        Route("/t/{table}/rules", rules),
        WebSocketRoute("/t/{table}/ws", socket),
    ])
    app.state.tables = tables
    app.state.table = next(iter(tables.values()))  # the table of a one-table app
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
