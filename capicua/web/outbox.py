"""A connection's outbox: the frames waiting to be written to one websocket, by its own task.

Tables put their frames here (:meth:`Outbox.send`) and never wait on a socket, so a slow client slows
nobody but itself; a client that falls ``limit`` frames behind is closed (code 1013): it may reconnect
with the last event number it saw and get what it missed (docs/protocol.md). The replies to a client's
own messages (ack, error, pong) go through the same outbox, so they keep their order with the table's
events, but by :meth:`Outbox.reply`, which waits for room instead: a client that sends a burst of
messages faster than it reads the answers is read no faster than it reads (its messages wait in its own
socket), rather than being dropped for the burst.
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
        #: It fell behind: the close is queued, nothing more is taken.
        self._closing = False

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
        if self._task.done() or self._closing:
            raise ConnectionError("this connection is closed")
        try:
            self._queue.put_nowait(frame)
        except asyncio.QueueFull:
            self._closing = True
            while not self._queue.empty():  # what it has not read yet is dropped: it resyncs on reconnect
                self._queue.get_nowait()
            self._queue.put_nowait(None)
            raise ConnectionError("this connection fell too far behind and is closed") from None

    async def reply(self, frame: Mapping[str, Any]) -> None:
        """Queue ``frame``, an answer to the client's own message, waiting for room if the outbox is full (the
        client reads slower than it sends); ConnectionError if the connection is gone meanwhile."""
        if self._task.done() or self._closing:
            raise ConnectionError("this connection is closed")
        try:
            self._queue.put_nowait(frame)
            return
        except asyncio.QueueFull:
            pass
        put = asyncio.ensure_future(self._queue.put(frame))
        await asyncio.wait({put, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if not put.done():
            put.cancel()
            raise ConnectionError("this connection is closed")

    async def aclose(self, grace: float = 1.0) -> None:
        """Stop writing (the connection is ending); one that fell behind gets ``grace`` seconds to say so (its
        close frame, code 1013)."""
        if self._closing and not self._task.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._task), grace)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
