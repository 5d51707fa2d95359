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


def test_a_reply_waits_for_room_instead_of_closing_the_connection() -> None:
    """A burst of the client's own messages (800 pings) is answered at the pace it reads: the replies wait for room
    in the outbox, the connection stays, and nothing is lost or reordered."""

    async def body() -> None:
        sock = Socket()
        box = Outbox(sock.write, sock.close, limit=3)
        replies = asyncio.ensure_future(asyncio.gather(*(box.reply({"n": n}) for n in range(10))))
        await asyncio.sleep(0.05)
        assert not replies.done() and sock.closed is None and not box.closed  # waiting, not dropped
        sock.release.set()
        await asyncio.wait_for(replies, 5)
        for _ in range(100):
            if len(sock.written) == 10:
                break
            await asyncio.sleep(0.01)
        assert sock.written == [{"n": n} for n in range(10)] and sock.closed is None
        await box.aclose()

    run_async(body())


def test_a_reply_waiting_on_a_connection_that_closes_is_refused_and_the_close_is_said() -> None:
    async def body() -> None:
        sock = Socket()
        box = Outbox(sock.write, sock.close, limit=2)
        await box.send({"n": 0})
        await box.send({"n": 1})
        waiting = asyncio.ensure_future(box.reply({"n": "reply"}))
        await asyncio.sleep(0.01)
        with pytest.raises(ConnectionError, match="behind"):
            await box.send({"n": 2})  # a table's frame with no room: the client fell behind
        sock.release.set()
        await box.aclose()  # the close frame (1013) gets out before the outbox stops
        assert sock.closed is not None and sock.closed[0] == TOO_SLOW
        assert {"n": "reply"} not in sock.written
        if waiting.done() and waiting.exception() is None:
            return  # queued behind the close: never written, as the connection ended
        with pytest.raises(ConnectionError):
            await waiting

    run_async(body())
