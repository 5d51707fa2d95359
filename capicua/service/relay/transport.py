"""Messages between nodes over Redis pub/sub: requests with their replies, and frames for a node's clients.

Each node listens on one channel, ``capicua:node:<name>``. What goes there:

- ``{"t": "req", "id", "from", "kind", "p"}``: a request (a table's operation, a subscription…), published
  directly, so that the sender learns at once whether anybody listens (a dead node does not: ``Unreachable``,
  and the request was never delivered);
- ``{"t": "rep", "id", "ok", "v" | "code", "msg"}``: its reply;
- ``{"t": "frame", "sub", "f"}``: a frame for a client of that node subscribed to a table this node runs.

Every node also listens on ``capicua:all``, where a node tells all of them (itself included) something that
concerns clients wherever they are connected: ``{"t": "tell", "from", "kind", "p"}`` (an account's event, a
rename); the node that tells does it itself too, and skips its own message.

Replies and frames to one node leave through one queue per node, in order, a pipeline of publishes at a time:
so a client's frames and the ack of its action reach its node in the order they were sent, as they would on
one node. Pub/sub keeps nothing: a message to a node that is not listening is lost, which the senders know
how to survive (a request's timeout, a subscription's keep-alive, ``capicua.service.relay.router``). Why
pub/sub and not Streams: docs/architecture.md, "Several nodes".
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from capicua.service.errors import ServiceError

__all__ = ["ALL", "QUEUE_LIMIT", "RedisTransport", "Unreachable", "channel"]

log = logging.getLogger("capicua.relay")

#: Messages waiting for a node before what comes next for it is refused (that node is gone, or stuck).
QUEUE_LIMIT = 10_000

#: The channel every node listens on, besides its own.
ALL = "capicua:all"

#: A request's handler: (kind, payload, the node that asks) → the reply's value (or a ServiceError).
Handler = Callable[[str, dict[str, Any], str], Awaitable[Any]]
#: What a message told to all nodes goes to: (kind, payload), awaited in order.
Told = Callable[[str, dict[str, Any]], Awaitable[None]]
#: What a frame for one of this node's clients goes to: (subscription id, frame), awaited in order.
FrameSink = Callable[[str, dict[str, Any]], Awaitable[None]]


class Unreachable(Exception):
    """Nobody listens on that node's channel (it is dead, or Redis is down): the message was not delivered."""


def channel(node: str) -> str:
    return f"capicua:node:{node}"


def _stop_if_cancelled() -> None:
    """Stop the task if it was cancelled: redis-py (8.2) may swallow the ``CancelledError`` of a task cancelled in
    the middle of a command (a pipeline's publishes, a read), and a loop that went on would hold up ``close()``
    for ever (a node shut down with frames on their way never retired)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


class _Queue:
    """The messages for one node, published in order, a batch at a time."""

    def __init__(self, transport: RedisTransport, name: str) -> None:
        self.transport = transport
        self.channel = name
        self.messages: deque[bytes] = deque()
        self.writing = False  # a batch is being published
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self._write())

    def put(self, message: bytes) -> None:
        if len(self.messages) >= QUEUE_LIMIT:
            raise ConnectionError(f"{self.channel}: {QUEUE_LIMIT} messages wait already")
        self.messages.append(message)
        self.ready.set()

    async def _write(self) -> None:
        while True:
            await self.ready.wait()
            self.ready.clear()
            batch = list(self.messages)
            self.messages.clear()
            self.writing = True
            try:
                async with self.transport.redis.pipeline(transaction=False) as pipe:
                    for message in batch:
                        pipe.publish(self.channel, message)
                    await pipe.execute()
            except (RedisError, OSError):
                log.warning("%d messages to %s were lost (Redis away)", len(batch), self.channel, exc_info=True)
            finally:
                self.writing = False
            _stop_if_cancelled()


class RedisTransport:
    """This node's end of the messages between nodes (redis-py's asyncio client)."""

    def __init__(self, url: str, node: str, timeout: float = 10.0) -> None:
        self.url = url
        self.node = node
        #: Seconds a request waits for its reply.
        self.timeout = timeout
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        self._queues: dict[str, _Queue] = {}
        self._waiting: dict[str, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._handler: Handler | None = None
        self._frames: FrameSink | None = None
        self._told: Told | None = None
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: Set while this node is subscribed to its channel (cleared while Redis is away).
        self.listening = asyncio.Event()

    async def start(self, handler: Handler, frames: FrameSink, told: Told | None = None) -> None:
        """Listen on this node's channel and on :data:`ALL`; requests go to ``handler``, frames to ``frames``,
        what is told to all nodes to ``told``."""
        self._handler, self._frames, self._told = handler, frames, told
        self._reader = asyncio.create_task(self._read())

    async def ping(self) -> bool:
        try:
            return bool(await self.redis.ping())
        except (RedisError, OSError):
            return False

    # -- sending -----------------------------------------------------------------------------------
    def post(self, node: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``node``, after what was queued for it before (raises ConnectionError when
        too much waits for it)."""
        self._put(channel(node), message)

    def _put(self, name: str, message: dict[str, Any]) -> None:
        queue = self._queues.get(name)
        if queue is None:
            queue = self._queues[name] = _Queue(self, name)
        queue.put(orjson.dumps(message))

    def tell_all(self, kind: str, payload: dict[str, Any]) -> None:
        """Tell every other listening node, in the order told (at most once: a node that is not listening, or
        Redis away, misses it). Raises ConnectionError when too much waits already."""
        self._put(ALL, {"t": "tell", "from": self.node, "kind": kind, "p": payload})

    def send_frame(self, node: str, sub: str, frame: dict[str, Any]) -> None:
        self.post(node, {"t": "frame", "sub": sub, "f": frame})

    async def request(self, node: str, kind: str, payload: dict[str, Any], timeout: float | None = None) -> Any:
        """Ask ``node``; its reply's value. Raises ``Unreachable`` (not delivered: nothing was done), the
        ``ServiceError`` the node answered, or ``TimeoutError`` (delivered, no reply: it may have been done)."""
        rid = f"{self.node}/{next(self._ids)}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        message = orjson.dumps({"t": "req", "id": rid, "from": self.node, "kind": kind, "p": payload})
        try:
            try:
                receivers = await self.redis.publish(channel(node), message)
            except (RedisError, OSError) as exc:
                raise Unreachable(f"Redis is away: {exc}") from exc
            if receivers == 0:
                raise Unreachable(f"the server {node!r} is not listening")
            return await asyncio.wait_for(future, timeout or self.timeout)
        finally:
            self._waiting.pop(rid, None)

    # -- receiving ---------------------------------------------------------------------------------
    async def _read(self) -> None:
        """Listen on this node's channel, subscribing again whenever Redis comes back."""
        delay = 0.1
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node), ALL)
                self.listening.set()
                delay = 0.1
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    _stop_if_cancelled()
                    if message is not None:
                        await self._receive(orjson.loads(message["data"]))
            except (RedisError, OSError):
                if self.listening.is_set():
                    log.warning("node %s: Redis is away; listening again as soon as it is back", self.node)
                self.listening.clear()
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8 on
            await asyncio.sleep(delay)
            delay = min(2 * delay, 2.0)

    async def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        if kind == "frame" and self._frames is not None:
            await self._frames(message["sub"], message["f"])
        elif kind == "rep":
            future = self._waiting.get(message["id"])
            if future is not None and not future.done():
                if message["ok"]:
                    future.set_result(message.get("v"))
                else:
                    future.set_exception(ServiceError(message["code"], message["msg"]))
        elif kind == "tell" and self._told is not None and message.get("from") != self.node:
            try:
                await self._told(message["kind"], message["p"])
            except Exception:
                log.exception("node %s: what was told (%s) could not be done", self.node, message.get("kind"))
        elif kind == "req":
            task = asyncio.create_task(self._answer(message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _answer(self, message: dict[str, Any]) -> None:
        assert self._handler is not None
        reply: dict[str, Any] = {"t": "rep", "id": message["id"]}
        try:
            reply.update(ok=True, v=await self._handler(message["kind"], message["p"], message["from"]))
        except ServiceError as exc:
            reply.update(ok=False, code=exc.code, msg=exc.message)
        except Exception:
            log.exception("node %s: a request of %s failed", self.node, message["from"])
            reply.update(ok=False, code="unavailable", msg="the server running the table failed to answer")
        with contextlib.suppress(ConnectionError):
            self.post(message["from"], reply)

    async def close(self) -> None:
        tasks = [t for t in (self._reader, *self._tasks, *(q.task for q in self._queues.values())) if t is not None]
        for queue in self._queues.values():  # what waits to be sent goes first
            if queue.messages or queue.writing:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._flush(queue), 2)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.redis.aclose()

    async def _flush(self, queue: _Queue) -> None:
        while queue.messages or queue.writing:
            await asyncio.sleep(0.01)
