"""The connection outbox (capicua/web/outbox.py): frames in order, a slow client closed, a table never waits."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from capicua.web.outbox import TOO_SLOW, Outbox
from tests.aio import run_async


class Socket:
    """A websocket whose writes block until ``release`` is set."""

    def __init__(self) -> None:
        self.written: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None
        self.release = asyncio.Event()

    async def write(self, text: str) -> None:
        await self.release.wait()
        self.written.append(json.loads(text))

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_frames_are_written_in_order_and_sending_never_waits_on_the_socket() -> None:
    async def body() -> None:
        sock = Socket()
        box = Outbox(sock.write, sock.close, limit=10)
        for n in range(10):  # the socket is stuck: queuing still returns at once
            await asyncio.wait_for(box.send({"n": n, "é": "ção"}), 0.1)
        sock.release.set()
        for _ in range(100):
            if len(sock.written) == 10:
                break
            await asyncio.sleep(0.01)
        assert sock.written == [{"n": n, "é": "ção"} for n in range(10)]
        assert sock.closed is None and not box.closed
        await box.aclose()

    run_async(body())


def test_a_client_that_falls_behind_is_closed_and_later_frames_are_refused() -> None:
    async def body() -> None:
        sock = Socket()
        box = Outbox(sock.write, sock.close, limit=3)
        for n in range(3):
            await box.send({"n": n})
        with pytest.raises(ConnectionError, match="behind"):
            await box.send({"n": 3})
        sock.release.set()
        for _ in range(100):
            if box.closed:
                break
            await asyncio.sleep(0.01)
        assert sock.closed is not None and sock.closed[0] == TOO_SLOW
        assert len(sock.written) <= 1  # the frame being written when it fell behind, at most
        with pytest.raises(ConnectionError, match="closed"):
            await box.send({"n": 4})

    run_async(body())
