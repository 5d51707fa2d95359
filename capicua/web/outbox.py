"""A connection's outbox: the frames waiting to be written to one websocket, by its own task.

Tables put their frames here and never wait on a socket, so a slow client slows nobody but itself;
the replies to a client's own messages (ack, error, pong) go through the same outbox, so they keep
their order with the table's events. A client that falls ``limit`` frames behind is closed (code
1013): it may reconnect with the last event number it saw and get what it missed (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson

__all__ = ["Outbox"]

log = logging.getLogger("capicua.web")

#: Close code for a client that fell behind ("try again later").
TOO_SLOW = 1013


class Outbox:
    """Frames (JSON-able dicts) written in order by one task through ``write_text``."""

    def __init__(
        self,
        write_text: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        limit: int = 256,
    ) -> None:
        self._write_text = write_text
        self._close = close
        self._queue: asyncio.Queue[Mapping[str, Any] | None] = asyncio.Queue(maxsize=limit)
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while (frame := await self._queue.get()) is not None:
            # orjson: a frame is encoded once per receiver and event, 5-10 times faster than json.dumps
            try:
                text = orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
            except (TypeError, orjson.JSONEncodeError):
                # A frame the server cannot write is the server's bug: say so, drop it, keep the connection.
                log.exception("a frame could not be encoded: %r", frame.get("type"))
                text = orjson.dumps({"type": "error", "code": "internal", "message": "a frame was lost"}).decode()
            await self._write_text(text)
        await self._close(TOO_SLOW, "too slow: reconnect with the last event number you saw")

    @property
    def closed(self) -> bool:
        return self._task.done()

    async def send(self, frame: Mapping[str, Any]) -> None:
        """Queue ``frame``; raise ConnectionError if the connection is gone or has fallen behind."""
        if self._task.done():
            raise ConnectionError("this connection is closed")
        try:
            self._queue.put_nowait(frame)
        except asyncio.QueueFull:
            while not self._queue.empty():  # what it has not read yet is dropped: it resyncs on reconnect
                self._queue.get_nowait()
            self._queue.put_nowait(None)
            raise ConnectionError("this connection fell too far behind and is closed") from None

    async def aclose(self) -> None:
        """Stop writing (the connection is ending)."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
