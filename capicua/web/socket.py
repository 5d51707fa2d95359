"""The websocket ``/ws``: subscribe to tables, get their frames, act at them (docs/protocol.md).

The socket only moves messages: each text frame is parsed once into its typed model
(:mod:`capicua.web.protocol`) and handed to the table service; what goes back leaves through
the connection's own outbox, in order.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect

from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform
from capicua.service.relay import Subscription
from capicua.web.deps import socket_identity
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

__all__ = ["OUTBOX_FRAMES", "routes"]

log = logging.getLogger("capicua.web")
#: Frames a connection may have waiting to be written before it is closed as too slow.
OUTBOX_FRAMES = 256

routes = APIRouter()


class Connection:
    """One client's websocket: its identity, its subscriptions and its outbox."""

    def __init__(self, platform: Platform, ws: WebSocket, who: Identity | None) -> None:
        self.platform = platform
        self.who = who
        self.subs: dict[str, Subscription] = {}
        self.outbox = Outbox(ws.send_text, lambda code, reason: ws.close(code=code, reason=reason), OUTBOX_FRAMES)

    async def send(self, frame: ServerFrame) -> None:
        await self.outbox.send(frame)

    async def error(self, code: str, message: str, ref: Any = None) -> None:
        await self.send(Error(type="error", code=code, message=message, ref=ref))

    async def handle(self, msg: ClientMessage) -> None:
        router = self.platform.router  # the table may run on this node or on another
        if isinstance(msg, Ping):
            await self.send(Pong(type="pong", ref=msg.ref))
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
                await self.send(Ack(type="ack", ref=msg.ref, n=answer["n"]))
        elif isinstance(msg, Chat):
            await router.call(msg.table, "say", self.who, preset=msg.preset, text=msg.text)

    async def close(self) -> None:
        for sub in self.subs.values():
            sub.close()
        await self.outbox.aclose()


@routes.websocket("/ws")
async def socket(ws: WebSocket, token: Annotated[str | None, Query()] = None) -> None:
    # Any token is taken: one that is not valid (too long, forged, expired) makes a spectator, as
    # docs/protocol.md says; none is refused at the handshake.
    await ws.accept()
    conn = Connection(ws.app.state.platform, ws, await socket_identity(ws, token))
    who = conn.who
    await conn.send(Welcome(type="welcome", you=None if who is None else You(id=who.id, name=who.name)))
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            ref = None
            try:
                msg = parse(message.get("text"))  # None: a binary frame
                ref = msg.ref
                await conn.handle(msg)
            except ProtocolError as exc:
                await conn.error(exc.code, exc.message, exc.ref)
            except ServiceError as exc:
                await conn.error(exc.code, exc.message, ref)
    except (WebSocketDisconnect, ConnectionError):
        pass
    finally:
        await conn.close()
