"""The websocket ``/ws``: subscribe to tables, get their frames, act at them (docs/protocol.md).

The socket only moves messages: each text frame is parsed once into its typed model
(:mod:`capicua.web.protocol`) and handed to the table service; what goes back leaves through
the connection's own outbox, in order.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections import Counter
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect

from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.limits import SOCKETS_PER_ADDRESS, SOCKETS_PER_IDENTITY, Limited
from capicua.service.platform import Platform
from capicua.service.relay import Subscription
from capicua.web.deps import address_of, socket_identity
from capicua.web.outbox import Outbox
from capicua.web.protocol import (
    Ack,
    Action,
    Chat,
    ClientMessage,
    Error,
    Next,
    Ping,
    Pong,
    ProtocolError,
    Referee,
    ServerFrame,
    Subscribe,
    Unsubscribe,
    Welcome,
    You,
    parse,
)

__all__ = ["OUTBOX_FRAMES", "TOO_MANY", "Open", "routes"]

log = logging.getLogger("capicua.web")
#: Frames a connection may have waiting to be written before it is closed as too slow.
OUTBOX_FRAMES = 256

routes = APIRouter()
_numbers = itertools.count(1)


class Connection:
    """One client's websocket: its identity, its subscriptions and its outbox."""

    def __init__(self, platform: Platform, ws: WebSocket, who: Identity | None) -> None:
        self.platform = platform
        self.who = who
        self.subs: dict[str, Subscription] = {}
        self.key = f"{platform.node.name}/{next(_numbers)}"  # this connection's key in its own limits
        self.outbox = Outbox(ws.send_text, lambda code, reason: ws.close(code=code, reason=reason), OUTBOX_FRAMES)

    async def send(self, frame: ServerFrame) -> None:
        """A table's frame: never waits (a client too far behind is closed, ``Outbox.send``)."""
        await self.outbox.send(frame)

    async def reply(self, frame: ServerFrame) -> None:
        """An answer to this client's own message: waits for room (``Outbox.reply``), so a burst of messages is
        read at the pace its answers are."""
        await self.outbox.reply(frame)

    async def limit(self) -> None:
        """One more message of this connection (and of its identity on this node), or ``too-fast``."""
        limits = self.platform.limits
        await limits.take("ws-message", self.key)
        if self.who is not None:
            await limits.take("ws-identity", self.who.id)

    async def error(self, code: str, message: str, ref: Any = None) -> None:
        await self.reply(Error(type="error", code=code, message=message, ref=ref))

    async def handle(self, msg: ClientMessage) -> None:
        router = self.platform.router  # the table may run on this node or on another
        if isinstance(msg, Ping):
            await self.reply(Pong(type="pong", ref=msg.ref))
        elif isinstance(msg, Subscribe):
            old = self.subs.pop(msg.table, None)
            if old is not None:
                old.close()
            self.subs[msg.table] = await router.subscribe(msg.table, self.who, msg.invite, msg.last, self.send)
        elif isinstance(msg, Unsubscribe):
            old = self.subs.pop(msg.table, None)
            if old is not None:
                old.close()
        elif isinstance(msg, Action | Next | Referee):
            if self.who is None:
                raise ServiceError("forbidden", "connect with a token to play")
            if isinstance(msg, Action):
                answer = await router.call(msg.table, "act", self.who, action=msg.action, ref=msg.ref)
            elif isinstance(msg, Next):
                answer = await router.call(msg.table, "next", self.who)
            else:
                decision = {"seat": msg.seat, "points": msg.points, "tile": msg.tile, "reason": msg.reason}
                answer = await router.call(msg.table, "referee", self.who, decision=msg.decision, **decision)
            with contextlib.suppress(Exception):  # the client may have gone: the action stands
                await self.reply(Ack(type="ack", ref=msg.ref, n=answer["n"]))
        elif isinstance(msg, Chat):
            await router.call(msg.table, "say", self.who, preset=msg.preset, text=msg.text)

    async def close(self) -> None:
        for sub in self.subs.values():
            sub.close()
        await self.outbox.aclose()


#: The close code of a connection refused by the limits (too many at once, or opened too fast): 1008, policy.
TOO_MANY = 1008


class Open:
    """The websockets open on this node, counted per identity and per address (``SOCKETS_PER_…``)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def enter(self, keys: list[tuple[str, int]]) -> bool:
        """Count one more connection under each key, unless one of them is at its most (nothing counted)."""
        if any(self.counts[key] >= most for key, most in keys):
            return False
        for key, _ in keys:
            self.counts[key] += 1
        return True

    def leave(self, keys: list[tuple[str, int]]) -> None:
        for key, _ in keys:
            self.counts[key] -= 1
            if self.counts[key] <= 0:
                del self.counts[key]


async def _refuse(ws: WebSocket, message: str) -> None:
    """Refuse a connection past the limits: one ``too-fast`` error frame, then close code 1008."""
    with contextlib.suppress(Exception):
        await ws.send_text(
            orjson.dumps({"type": "error", "code": "too-fast", "message": message, "ref": None}).decode()
        )
        await ws.close(code=TOO_MANY, reason="too-fast")


@routes.websocket("/ws")
async def socket(ws: WebSocket, token: Annotated[str | None, Query()] = None) -> None:
    # Any token is taken: one that is not valid (too long, forged, expired) makes a spectator, as
    # docs/protocol.md says; none is refused at the handshake.
    platform: Platform = ws.app.state.platform
    await ws.accept()
    address = address_of(ws)
    try:
        await platform.limits.take("ws-connect", address)
    except Limited as exc:
        await _refuse(ws, exc.message)
        return
    who = await socket_identity(ws, token)
    keys = [(f"address:{address}", SOCKETS_PER_ADDRESS)]
    if who is not None:
        keys.append((f"identity:{who.id}", SOCKETS_PER_IDENTITY))
    opened: Open = ws.app.state.sockets
    if platform.limits.enabled and not opened.enter(keys):
        await _refuse(ws, f"too many connections at once (at most {SOCKETS_PER_IDENTITY} an identity, "
                          f"{SOCKETS_PER_ADDRESS} an address)")  # fmt: skip
        return
    conn = Connection(platform, ws, who)
    platform.presence.connected(who)  # online while connected (issue 22, item 9)
    await conn.reply(Welcome(type="welcome", you=None if who is None else You(id=who.id, name=who.name)))
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            ref = None
            try:
                msg = parse(message.get("text"))  # None: a binary frame
                ref = msg.ref
                await conn.limit()
                await conn.handle(msg)
            except ProtocolError as exc:
                await conn.error(exc.code, exc.message, exc.ref)
            except ServiceError as exc:
                await conn.error(exc.code, exc.message, ref)
    except (WebSocketDisconnect, ConnectionError):
        pass
    finally:
        platform.presence.disconnected(who)
        if platform.limits.enabled:
            opened.leave(keys)
        await conn.close()
