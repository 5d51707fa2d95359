"""A table's event log: each event is applied (so the engine checks it), then committed, then counted.

Only a committed event is acknowledged or broadcast. If the store fails after the event was applied
in memory, :class:`NotDurable` is raised and the table rebuilds itself from what the store holds, so
memory never runs ahead of what was committed. If the store refuses it because another node runs the
table now (its fencing token changed), :class:`Moved` is raised: this node must let the table go.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from capicua.service.store import EventStore, LeaseLost, StoredEvent
from capicua.service.tables.follows import Applied

__all__ = ["REFS_KEPT", "Apply", "EventLog", "Made", "Moved", "NotDurable"]

#: The client references of the latest actions kept per table, to answer a resent action with its first ack.
REFS_KEPT = 512

#: Applies one event (kind, data, time, an action already parsed): its public part and what must follow it.
Apply = Callable[[str, dict[str, Any], dt.datetime, Any], Applied]


class NotDurable(Exception):
    """The event was applied in memory but could not be committed."""


class Moved(NotDurable):
    """The event was applied in memory but refused by the store: this node no longer runs the table."""


@dataclass
class Made:
    """An action made with a client's ``ref``: its ack's event number, the action as stored, its hand."""

    n: int
    action: str
    hand: int


class EventLog:
    """The numbered events of one table."""

    def __init__(self, table_id: str, store: EventStore, apply: Apply, lease: int | None = None) -> None:
        self.table_id = table_id
        self.store = store
        self._apply = apply
        #: The number of the last committed event (0 before any).
        self.n = 0
        #: The fencing token this node runs the table under (None: not fenced).
        self.lease = lease
        #: (seat, the client's ``ref``) of the latest actions → the event number their ack gave, the action,
        #: and the hand it was made in (deals so far): the same action sent again in the same hand with its
        #: ref (its first answer was lost: a node died) is answered, not made twice. Rebuilt from the events
        #: (the ref is stored with the action), so it holds across nodes and restarts.
        self.refs: OrderedDict[tuple[int, Any], Made] = OrderedDict()
        #: The ``deal`` events so far: which hand an action was made in.
        self.deals = 0

    async def commit(self, kind: str, data: dict[str, Any], parsed: Any = None, status: str | None = None) -> Applied:
        """Apply event ``n + 1`` (raising, with nothing changed, if it is invalid), then commit it
        (with the table's new ``status``, if any); return its public part and what follows it."""
        applied = self._apply(kind, data, dt.datetime.now(dt.UTC), parsed)
        try:
            await self.store.append(self.table_id, self.n + 1, kind, data, status=status, lease=self.lease)
        except LeaseLost as exc:
            raise Moved(str(exc)) from exc
        except Exception as exc:
            raise NotDurable(f"table {self.table_id}: event {self.n + 1} was not stored") from exc
        self.n += 1
        self._remember(data, applied)
        return applied

    def _remember(self, data: dict[str, Any], applied: Applied) -> None:
        if applied.public["kind"] == "deal":
            self.deals += 1
        ref = data.get("ref")
        seat = applied.public.get("seat")
        if ref is not None and isinstance(seat, int):
            self.refs[(seat, ref)] = Made(self.n, data["action"], self.deals)
            while len(self.refs) > REFS_KEPT:
                self.refs.popitem(last=False)

    def made(self, seat: int, ref: Any, action: str) -> int | None:
        """The ack's event number of ``action`` (as the client wrote it, without its seat) if the seat made it
        with ``ref`` in this hand; else None (a new action, even with a ref used before)."""
        made = self.refs.get((seat, ref))
        if made is None or made.hand != self.deals:
            return None
        stored = made.action.split(": ", 1)[-1]
        return made.n if stored == action or stored.startswith(action + " ") else None

    def reset(self) -> None:
        """Forget every event (the table is about to be rebuilt from the store)."""
        self.n, self.deals = 0, 0
        self.refs.clear()

    async def read(self) -> list[StoredEvent]:
        return await self.store.read(self.table_id)

    def replay(self, events: list[StoredEvent]) -> None:
        """Apply stored events again (after a restart), in order; what they said must follow happened then."""
        for ev in events:
            applied = self._apply(ev.kind, ev.data, ev.at, None)
            self.n = ev.n
            self._remember(ev.data, applied)
