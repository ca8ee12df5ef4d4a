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
from typing import Any, AsyncIterator, Callable, Sequence

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tonkdsl.interpreter.engine import IllegalAction, RulesetError
from tonkdsl.tools.explain import explain
from tonkdsl.tools.serve.room import Refused, Room, Seat
from tonkdsl.tools.serve.thinking import BotTurn, Unthinkable, die_with_parent, think

MAX_MESSAGE = 4_000  # characters: the longest message a browser has reason to send
MAX_WATCHERS = 64  # browsers without a seat at one table; a seat's own link or the join code always gets in
JOIN_GRACE = 10.0  # seconds a browser past MAX_WATCHERS has to take a seat before it is closed
SEND_QUEUE = 32  # messages on their way to one browser; a browser further behind is dropped (it reconnects)
SEND_TIMEOUT = 5.0  # seconds one message may take to leave for a browser before the browser is dropped
CLOSE_TIMEOUT = 2.0  # seconds the close of a dropped browser's connection may take
BOT_DECISION_LIMIT = 30.0  # seconds a bot may think in a worker; then the stand-in decides at once
SWITCH_INTERVAL = 0.0005  # seconds: see create_app
MAX_SECRET = 100  # characters of a join code or a seat token (ours are 8 and 22)


class Thinkers:
    """Where bots think. In worker processes by default: a search there never holds this
    process's interpreter lock, so no table's answer waits for another table's bot (the load
    benchmark measures it). A decision a worker cannot make (:class:`Unthinkable`, or a worker
    gone) is made in a thread here, with the same result; a broken pool is replaced at the next
    decision, and a decision that takes more than BOT_DECISION_LIMIT is given up for the
    stand-in's quick one (the slow worker is stopped)."""

    def __init__(self, processes: int | None, threads: int) -> None:
        self.processes = max(1, (os.cpu_count() or 2) - 1) if processes is None else processes
        self.pool: ProcessPoolExecutor | None = None
        # Not the pool that works out answers (asyncio.to_thread's, a handful of threads), or ten
        # bots searching at ten tables would keep every other table's answers waiting behind them.
        self.threads = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="tonk-bot")
        self.limit = BOT_DECISION_LIMIT

    async def decide(self, turn: BotTurn | None) -> tuple[str | None, bool]:
        """The text of a worker's decision for ``turn`` (None: decide at the table), and whether
        the worker was too slow (then the table's stand-in decides quickly instead)."""
        if turn is None or not self.processes:
            return None, False
        loop = asyncio.get_running_loop()
        try:
            if self.pool is None:  # started at the first bot decision: a table of people needs none
                self.pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=die_with_parent, initargs=(os.getpid(),))
            return await asyncio.wait_for(loop.run_in_executor(self.pool, think, turn), self.limit), False
        except asyncio.TimeoutError:
            self._replace_pool()
            return None, True
        except BrokenProcessPool:  # a worker was killed: a new pool next time, this decision here
            self._replace_pool()
        except (Unthinkable, OSError):
            pass
        except AssertionError:  # no child processes here (a daemon process): threads from now on
            self.processes = 0
        return None, False

    def _replace_pool(self) -> None:
        pool, self.pool = self.pool, None
        if pool is None:
            return
        # A worker still thinking is stopped, not waited for (shutdown alone lets it run on).
        for process in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        # The workers are stopped, not left to wait for work: a pool shut down without waiting
        # left them running for good once the server had gone (orphans, one per worker).
        self._replace_pool()
        self.threads.shutdown(wait=False, cancel_futures=True)


class Outbox:
    """The messages on their way to one browser, sent in order by a task of its own, so that a
    browser that does not read never holds up the table: past SEND_QUEUE waiting messages, or
    a message that takes SEND_TIMEOUT to leave, the browser is dropped (``on_stuck``)."""

    def __init__(self, ws: WebSocket, on_stuck: Callable[[WebSocket], None]) -> None:
        self.ws = ws
        self.on_stuck = on_stuck
        self.queue: asyncio.Queue[str] = asyncio.Queue(SEND_QUEUE)
        self.task = asyncio.get_running_loop().create_task(self._send_all())

    def put(self, text: str) -> bool:
        try:
            self.queue.put_nowait(text)
            return True
        except asyncio.QueueFull:
            return False

    async def _send_all(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                await asyncio.wait_for(self.ws.send_text(text), SEND_TIMEOUT)
        except asyncio.CancelledError:
            raise
        except Exception:  # too slow, or gone mid-send
            self.on_stuck(self.ws)


class Table:
    """A room and the browsers connected to it."""

    def __init__(self, room: Room, bot_delay: float, thinkers: Thinkers | None = None) -> None:
        self.room = room
        self.bot_delay = bot_delay
        self.thinkers = thinkers or Thinkers(0, 1)
        self.clients: dict[WebSocket, Seat | None] = {}
        self.outboxes: dict[WebSocket, Outbox] = {}
        self.lock = asyncio.Lock()
        self.clock: asyncio.Task[None] | None = None
        self.bots: asyncio.Task[None] | None = None

    def watchers(self) -> int:
        return sum(1 for seat in self.clients.values() if seat is None)

    def open_outbox(self, ws: WebSocket) -> None:
        self.outboxes[ws] = Outbox(ws, self.drop)

    def send(self, ws: WebSocket, message: dict[str, Any] | str) -> None:
        """Queue a message for one browser (dropped if it is too far behind)."""
        outbox = self.outboxes.get(ws)
        if outbox is not None and not outbox.put(message if isinstance(message, str) else json.dumps(message)):
            self.drop(ws)

    def drop(self, ws: WebSocket) -> None:
        """A browser that does not keep up, or is gone: no more messages, and its connection is
        closed (its page reconnects and is sent the table anew)."""
        self.clients.pop(ws, None)
        outbox = self.outboxes.pop(ws, None)
        if outbox is None:
            return
        outbox.task.cancel()

        async def close() -> None:
            # A browser that does not read does not read the close frame either: past a moment
            # the close is given up, and the connection is dropped with it.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=1013), CLOSE_TIMEOUT)
        asyncio.get_running_loop().create_task(close())

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
                self.play_bots()

    async def broadcast(self) -> None:
        self.seen()
        self.arm_clock()
        clients = [(ws, seat) for ws, seat in self.clients.items() if ws in self.outboxes]
        # Snapshots list the legal actions: worked out off the event loop, like every call into
        # the game, so that a slow ruleset never stops the server answering.
        texts = await asyncio.to_thread(lambda: [json.dumps(self.room.snapshot(seat)) for _, seat in clients])
        for (ws, _), text in zip(clients, texts):
            self.send(ws, text)

    def play_bots(self) -> None:
        """Let the bots play their turns, in a task of the table's own (once at a time)."""
        if self.bots is None or self.bots.done():
            self.bots = asyncio.get_running_loop().create_task(self.run_bots())
            self.bots.add_done_callback(self._bots_done)

    def _bots_done(self, task: "asyncio.Task[None]") -> None:
        """A fault the bots' task did not expect is said at the table (its log and status), never
        lost in a task nobody awaits; the people can still play, end or rematch."""
        if task.cancelled() or task.exception() is None:
            return
        fault = task.exception()
        # A rule that failed while a bot thought (in a worker) is the ruleset's: said as such.
        self.room.failed_rule(fault if isinstance(fault, RulesetError) else
                              RulesetError(f"a bot could not play ({fault})"))

        async def tell() -> None:
            async with self.lock:
                await self.broadcast()
        asyncio.get_running_loop().create_task(tell())

    async def run_bots(self) -> None:
        """Bots play their turns one at a time, each shown before the next. The table's lock is
        held only to read the turn and to apply the move, never while a bot waits or thinks: the
        people's messages (a person taking their seat back from the stand-in) are answered
        between two bot moves, and a move decided for a turn that has changed meanwhile is
        dropped."""
        loop = asyncio.get_running_loop()
        while True:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            async with self.lock:
                if not self.room.bot_to_play():
                    return
                key = self.room.turn_key()
                turn = self.room.bot_turn() if self.thinkers.processes else None
            decided, quick = await self.thinkers.decide(turn)
            if decided is None:  # no worker: the bot thinks in a thread here, on a clone of the hand
                async with self.lock:
                    if self.room.turn_key() != key or not self.room.bot_to_play():
                        continue
                    plan = self.room.bot_plan(quick)
                try:
                    decided = await loop.run_in_executor(self.thinkers.threads, plan)
                except RulesetError:
                    decided = None  # said by bot_step, which meets the same failure under the lock
            async with self.lock:
                if self.room.turn_key() != key or not self.room.bot_to_play():
                    continue
                try:
                    await loop.run_in_executor(self.thinkers.threads, self.room.bot_step, decided, quick)
                except RulesetError as exc:
                    self.room.failed_rule(exc)
                    await self.broadcast()
                    return
                except (IllegalAction, ValueError) as exc:  # an engine fault must not end the server's loop
                    self.room.failed_rule(RulesetError(f"a bot could not play ({exc})"))
                    await self.broadcast()
                    return
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
        table.open_outbox(ws)
        try:
            if table.watchers() >= MAX_WATCHERS and not await _admitted(table, ws):
                return
            table.clients.setdefault(ws, None)
            async with table.lock:
                table.send(ws, await asyncio.to_thread(room.snapshot, table.clients.get(ws)))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await _receive(table, ws, message.get("text"))
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # an ordinary disconnect (or one mid-send): nothing to log
        finally:
            held = table.clients.get(ws)
            table.drop(ws)
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


async def _receive(table: Table, ws: WebSocket, text: str | None) -> None:
    """One message from a browser: its reply to it alone, and what follows a change."""
    async with table.lock:
        reply: dict[str, Any] | None
        if text is None:  # a binary frame: the table speaks JSON text only
            reply, changed = {"type": "error", "message": "the message is not JSON text"}, False
        else:
            reply, changed = await asyncio.to_thread(_handle, table, ws, text)
        if reply is not None:
            table.send(ws, reply)
        if changed:
            await table.broadcast()
            table.play_bots()


async def _admitted(table: Table, ws: WebSocket) -> bool:
    """A browser past MAX_WATCHERS: taken only if its first message, within JOIN_GRACE, takes a
    seat (a seat's own link, or the join code while a seat is free); else told why and closed."""
    why = (f"this table has {MAX_WATCHERS} watchers, the most it takes (MAX_WATCHERS): a seat's own link, or the "
           "join code while a seat is free, still gets in")
    try:
        message = await asyncio.wait_for(ws.receive(), JOIN_GRACE)
    except asyncio.TimeoutError:
        message = {}
    text = message.get("text")
    if isinstance(text, str) and len(text) <= MAX_MESSAGE and '"join"' in text:
        await _receive(table, ws, text)
        if table.clients.get(ws) is not None:
            return True
    table.send(ws, {"type": "error", "message": why})
    table.clients.pop(ws, None)
    await asyncio.sleep(0.1)  # the error on its way before the close
    table.drop(ws)
    return False


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
    except Refused as exc:  # (a refusal may still change the table: a person back in their seat)
        return {"type": "error", "message": str(exc)}, exc.changed
    except RulesetError as exc:
        room.failed_rule(exc)
    return None, True
