"""Fan-out: who listens to a table, and the recent events kept for those who reconnect.

Each connection is a :class:`Subscriber` with its own ``send`` (a connection's outbox: a table
never waits on a socket). Every event goes to each subscriber as a frame built for its seat;
the last :data:`REPLAY_WINDOW` events are kept so that a client that reconnects with the last
number it saw gets what it missed, or its whole state when that is older.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import orjson

from capicua.service.identity import Identity
from capicua.service.tables.messages import (
    EventFrame,
    MovedFrame,
    StateFrame,
    SyncedFrame,
    TableEvent,
    TableFrame,
    TableView,
)

__all__ = ["REPLAY_WINDOW", "Fanout", "Send", "Subscriber"]

#: Frames kept per table for clients that reconnect; older gaps get a full state.
REPLAY_WINDOW = 500

#: A connection's send: a frame into its outbox (a dict; orjson writes it).
Send = Callable[[TableFrame], Awaitable[None]]


@dataclass(eq=False)
class Subscriber:
    identity: Identity | None
    seat: int | None  # None: spectator
    send: Send
    closed: bool = False


class Fanout:
    """The subscribers of one table and its replay window."""

    def __init__(self, table_id: str, window: int | None = None) -> None:
        self.table_id = table_id
        self.subscribers: list[Subscriber] = []
        # The public part of the last events, as (n, its JSON): bytes, which Python's cyclic garbage collector
        # does not watch (a (n, dict) pair it would walk at every full collection).
        self.frames: deque[tuple[int, bytes]] = deque(maxlen=window or REPLAY_WINDOW)

    async def broadcast(
        self,
        n: int,
        public: TableEvent,
        seat_of: Callable[[Identity | None], int | None],
        frame: Callable[[TableEvent, int | None], EventFrame],
    ) -> None:
        """Send event ``n`` to everyone, each frame built once per seat (``frame(public, seat)``)."""
        audiences: dict[int | None, EventFrame] = {}
        for sub in list(self.subscribers):
            # The seat of a connection follows its player (join, leave), never the seat it once had.
            sub.seat = seat_of(sub.identity)
            if sub.seat not in audiences:
                audiences[sub.seat] = frame(public, sub.seat)
        self.frames.append((n, orjson.dumps(public)))
        for sub in list(self.subscribers):
            await self.send(sub, audiences[sub.seat])

    async def send(self, sub: Subscriber, frame: TableFrame) -> None:
        if sub.closed:
            return
        try:
            await sub.send(frame)
        except Exception:
            sub.closed = True
            with contextlib.suppress(ValueError):
                self.subscribers.remove(sub)

    async def subscribe(
        self, sub: Subscriber, last: int | None, n: int, state: Callable[[int | None], TableView]
    ) -> str:
        """Add a connection; send what it missed since event ``last`` (or its full state). Returns what
        was sent: ``synced``, ``events`` or ``state``."""
        self.subscribers.append(sub)
        oldest = self.frames[0][0] if self.frames else n + 1
        table = self.table_id
        if last is not None and last >= n:
            await self.send(sub, SyncedFrame(type="synced", table=table, n=n))
            return "synced"
        if last is not None and last + 1 >= oldest:
            # The state attached to an old event is rebuilt for this seat only when sent:
            # missed events carry their public part and the seat's current state.
            for k, public in self.frames:
                if k > last:
                    missed = EventFrame(type="event", table=table, n=k, event=orjson.loads(public))
                    if k == n:
                        missed["state"] = state(sub.seat)
                    await self.send(sub, missed)
            return "events"
        await self.send(sub, StateFrame(type="state", table=table, n=n, state=state(sub.seat)))
        return "state"

    async def moved(self) -> None:
        """This node lets the table go: tell every subscriber (``moved``) and end the subscriptions."""
        subscribers, self.subscribers = self.subscribers, []
        for sub in subscribers:
            await self.send(sub, MovedFrame(type="moved", table=self.table_id))
            sub.closed = True

    def unsubscribe(self, sub: Subscriber) -> None:
        sub.closed = True
        with contextlib.suppress(ValueError):
            self.subscribers.remove(sub)
