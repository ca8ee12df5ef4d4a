"""What keeps one rude client from taking `tonk serve` down: an HTTP connection whose request does
not arrive whole within REQUEST_TIMEOUT seconds is closed, and connections past a cap kept below
the process's open-file limit are closed as they come (docs/security.md, "Limits").

uvicorn takes the HTTP protocol as a class (``uvicorn.run(..., http=...)``): :func:`guarded_h11`
makes a subclass of its h11 protocol with both limits. Without them, 1,100 connections that each
send half a request stayed open for ever and used up the open-file limit: nobody else got in.
"""
from __future__ import annotations

import asyncio
import resource
from typing import Any

REQUEST_TIMEOUT = 5.0  # seconds for a request's head to arrive whole, from its first byte or the connection
FILES_KEPT = 100  # open files kept for the rest of the server (saves, worker pools, logs) below the limit
MAX_OPEN = 512  # connections at once, unless the open-file limit allows fewer
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
         b"Content-Length: 48\r\n\r\ntonk serve: too many connections, try again soon")


def connection_cap(asked: int | None = None) -> int:
    """The most connections served at once: ``asked`` (or MAX_OPEN), and at most the open-file
    limit less FILES_KEPT (at least 8)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    cap = asked if asked is not None else MAX_OPEN
    if soft != resource.RLIM_INFINITY:
        cap = min(cap, max(8, soft - FILES_KEPT))
    return cap


def guarded_h11(cap: int, request_timeout: float = REQUEST_TIMEOUT) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, with the two limits of this module."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            # server_state.connections holds every open connection, WebSockets included.
            if len(self.server_state.connections) >= cap:
                transport.write(_BUSY)
                transport.close()
                return
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
                self._arm()  # the first bytes of another request on a kept-alive connection
            super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.transport is not None:  # (None: closed in connection_made, never counted)
                super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            transport = self.transport
            if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                return  # closed already, or handed to the WebSocket protocol
            if self.cycle is not None and not self.cycle.response_complete:
                return  # its head arrived: the request is being answered
            transport.close()

    return GuardedH11


__all__ = ["MAX_OPEN", "REQUEST_TIMEOUT", "connection_cap", "guarded_h11"]
