"""A table's event log: each event is applied (so the engine checks it), then committed, then counted.

Only a committed event is acknowledged or broadcast. If the store fails after the event was applied
in memory, :class:`NotDurable` is raised and the table rebuilds itself from what the store holds, so
memory never runs ahead of what was committed. If the store refuses it because another node runs the
table now (its fencing token changed), :class:`Moved` is raised: this node must let the table go.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from capicua.service.store import EventStore, LeaseLost, StoredEvent
from capicua.service.tables.follows import Applied

__all__ = ["Apply", "EventLog", "Moved", "NotDurable"]

#: Applies one event (kind, data, time, an action already parsed): its public part and what must follow it.
Apply = Callable[[str, dict[str, Any], dt.datetime, Any], Applied]


class NotDurable(Exception):
    """The event was applied in memory but could not be committed."""


class Moved(NotDurable):
    """The event was applied in memory but refused by the store: this node no longer runs the table."""


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

    async def commit(
        self, kind: str, data: dict[str, Any], parsed: Any = None, status: str | None = None
    ) -> Applied:
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
        return applied

    async def read(self) -> list[StoredEvent]:
        return await self.store.read(self.table_id)

    def replay(self, events: list[StoredEvent]) -> None:
        """Apply stored events again (after a restart), in order; what they said must follow happened then."""
        for ev in events:
            self._apply(ev.kind, ev.data, ev.at, None)
            self.n = ev.n
