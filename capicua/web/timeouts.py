"""Slow clients (slow-loris): how long a connection may take to send a request, on the server itself.

uvicorn waits for a request's headers, and for its body, as long as the client likes: a connection that sends
nothing, or a few bytes every few seconds, is held for good, and a few hundred of them hold the server's
sockets and memory. nginx in front cuts them off (docs/operations.md, "Behind nginx": ``client_header_timeout``
and ``client_body_timeout``); capicua serves on its own too (the README's one command), so its HTTP protocol
does the same: :class:`SlowClientTimeouts` is uvicorn's httptools protocol with two deadlines,

- the **headers**: from the connection's first moment (and from the first byte of each next request on a
  kept-alive connection) to the end of the request's headers, at most ``header_seconds``;
- the **body**: from the end of the headers to the end of the body, at most ``body_seconds`` (a body is at most
  1 MiB here: an upload; 60 s take it at 17 KB/s).

A connection past either gets ``408 Request Timeout`` and is closed. A websocket is past both once upgraded.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["BODY_SECONDS", "HEADER_SECONDS", "SlowClientTimeouts", "with_timeouts"]

#: Longest a client may take to send a request's headers (nginx's default client_header_timeout is 60 s: ours
#: are small, and a person's browser sends them in one packet).
HEADER_SECONDS = 10.0
#: Longest a client may take to send a request's body, once its headers are in.
BODY_SECONDS = 60.0

TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


class SlowClientTimeouts(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools) with a deadline for the headers and one for the body."""

    header_seconds = HEADER_SECONDS
    body_seconds = BODY_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.write(TIMED_OUT)
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # the next request of a kept-alive connection: its headers' deadline
            self._arm(self.header_seconds)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()
        if not self.parser.should_upgrade():  # a websocket is no longer this protocol's
            self._arm(self.body_seconds)

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()


def with_timeouts(
    header_seconds: float = HEADER_SECONDS, body_seconds: float = BODY_SECONDS
) -> type[HttpToolsProtocol]:
    """The protocol class for uvicorn's ``http=``, with these deadlines."""
    return type(
        "SlowClientTimeouts", (SlowClientTimeouts,), {"header_seconds": header_seconds, "body_seconds": body_seconds}
    )
