"""A real `tonk serve` on 127.0.0.1 for the hostile tests (tests/test_serve_hostile.py): started as
the command a person types, on a free port, stopped at the end; and the browsers' side of it
(WebSocket clients that join and play, raw sockets that misbehave). Every wait is bounded."""
from __future__ import annotations

import base64
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServe:
    """``tonk serve ARGS --port P`` in a process of its own, until the block ends."""

    def __init__(self, *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.args = [sys.executable, "-m", "tonkdsl", "serve", *args, "--port", str(self.port)]
        self.cwd = cwd
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        self.lines: list[str] = []

    def __enter__(self) -> "LiveServe":
        # Its own session, and no standard input: under pytest-xdist a worker talks to the run over
        # its standard streams, and nothing the server (or its bot workers) does may touch them nor
        # reach the worker's process group (a worker "crashed" now and then while a table ran).
        self.proc = subprocess.Popen(self.args, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"tonk serve stopped: {''.join(self.lines)}")
            self.lines.append(line)
            found = re.search(r"open: http://127\.0\.0\.1:\d+/t/([\w-]+)\?code=([\w-]+)", line)
            if found:
                self.table, self.code = found.groups()
                break
        else:
            raise AssertionError("tonk serve printed no link in 60 s")
        for _ in range(200):  # the link is printed just before uvicorn listens
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/t/{self.table}/ws"

    def person(self, token: str | None = None) -> "Person":
        """A browser that takes a seat with the join code (or its seat's token)."""
        return Person(connect(self.ws_url, open_timeout=10, max_size=2**22), self.code, token)

    def watcher_that_never_reads(self) -> socket.socket:
        """A browser that opens the table's WebSocket and never reads: its receive buffer is as
        small as the system allows, so the server's sends to it soon block."""
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.connect(("127.0.0.1", self.port))
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /t/{self.table}/ws HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        return s


class Person:
    """A seated browser: joins, then answers each state that offers it moves."""

    def __init__(self, ws: ClientConnection, code: str, token: str | None) -> None:
        self.ws = ws.__enter__()  # (websockets asks for its connection to be entered as a context)
        ws.send(json.dumps({"type": "join", "code": None if token else code, "token": token}))
        self.seat = self.next_of("seat", timeout=10)
        self.name = self.seat["name"]
        self.latest: dict[str, Any] = {}

    def messages(self, timeout: float) -> Iterator[dict[str, Any]]:
        """The messages that arrive within ``timeout`` seconds of each other."""
        while True:
            try:
                text = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return
            msg = json.loads(text)
            if msg.get("type") == "state":
                self.latest = msg
            yield msg

    def next_of(self, kind: str, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if msg.get("type") == "state":
                self.latest = msg
            if msg.get("type") == kind:
                return msg
        raise TimeoutError(f"no {kind} message in {timeout} s")

    def act(self, action: str) -> None:
        self.ws.send(json.dumps({"type": "act", "action": action}))

    def close(self) -> None:
        self.ws.__exit__(None, None, None)
