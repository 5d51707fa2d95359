"""Tables and their event logs: the store of live play.

Everything that changes a table is an *event*, appended and committed before it is acknowledged
or broadcast; a table is rebuilt after a restart by replaying its events.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from sqlalchemy import Connection, insert, select, update

from capicua.service.store.database import Database
from capicua.service.store.schema import EventRow, TableRow, now

__all__ = ["EventStore", "SqlEventStore", "StoredEvent"]


@dataclass
class StoredEvent:
    n: int
    kind: str
    data: dict[str, Any]
    at: dt.datetime


class EventStore(Protocol):
    """Tables (their settings and status) and the numbered events of each."""

    async def create_table(
        self,
        variant: str,
        players: int,
        options: dict[str, Any],
        private: bool,
        owner: str,
        rated: bool = False,
        tournament_id: str | None = None,
        reserved: list[str] | None = None,
        bots_rated: bool = False,
    ) -> TableRow: ...

    async def set_status(self, table_id: str, status: str) -> None: ...

    async def tables(self, statuses: Sequence[str]) -> list[TableRow]: ...

    async def table(self, table_id: str) -> TableRow | None: ...

    async def append(
        self, table_id: str, n: int, kind: str, data: dict[str, Any], status: str | None = None
    ) -> dt.datetime: ...

    async def read(self, table_id: str) -> list[StoredEvent]: ...

    async def close(self) -> None: ...


@dataclass
class _Pending:
    """An event waiting for the group commit."""

    row: dict[str, Any]
    status: str | None
    done: asyncio.Future[None]


class SqlEventStore:
    """:class:`EventStore` on SQLAlchemy, with group commit of the events appended together."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # Group commit: events appended while a batch is being written wait and go in the next one.
        self._queue: list[_Pending] = []
        self._writer: asyncio.Task[None] | None = None

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)  # what was appended gets written

    # -- tables ----------------------------------------------------------------------
    async def create_table(
        self,
        variant: str,
        players: int,
        options: dict[str, Any],
        private: bool,
        owner: str,
        rated: bool = False,
        tournament_id: str | None = None,
        reserved: list[str] | None = None,
        bots_rated: bool = False,
    ) -> TableRow:
        """A new open table; ``reserved``: the player each seat is kept for (a tournament's table); ``bots_rated``:
        rated with bot accounts among people too."""

        def make(id: str) -> TableRow:
            return TableRow(
                id=id,
                variant=variant,
                players=players,
                options=options,
                private=private,
                invite=secrets.token_urlsafe(12) if private else None,
                owner=owner,
                status="open",
                rated=rated,
                tournament_id=tournament_id,
                reserved=reserved,
                bots_rated=bots_rated,
            )

        return await self.db.add_new(make, "table")

    async def set_status(self, table_id: str, status: str) -> None:
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    async def tables(self, statuses: Sequence[str]) -> list[TableRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(TableRow).where(TableRow.status.in_(statuses)).order_by(TableRow.created_at)
            )
            return list(result.scalars())

    async def table(self, table_id: str) -> TableRow | None:
        async with self.db.sessions() as session:
            return await session.get(TableRow, table_id)

    # -- events ----------------------------------------------------------------------
    async def append(
        self, table_id: str, n: int, kind: str, data: dict[str, Any], status: str | None = None
    ) -> dt.datetime:
        """Commit event ``n`` of a table; only then may it be acknowledged or broadcast.

        ``status``, if given, becomes the table's status in the same transaction.

        Events appended at about the same time, by any tables, are committed together, in one
        transaction (group commit): each caller resumes once the transaction holding its event
        has committed. If that transaction fails, its events are written again one by one, so a
        bad event (a number already used) fails alone and the others still commit.
        """
        at = now()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        row = {"table_id": table_id, "n": n, "kind": kind, "data": data, "at": at}
        self._queue.append(_Pending(row, status, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        await done
        return at

    async def _write_queued(self) -> None:
        """Commit the queued events, batch after batch, until none is left."""
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                await self.db.run_in_transaction(partial(_write_events, batch=batch))
            except Exception:
                for pending in batch:  # isolate the failure: each event in its own transaction
                    try:
                        await self.db.run_in_transaction(partial(_write_events, batch=[pending]))
                    except Exception as exc:
                        if not pending.done.done():
                            pending.done.set_exception(exc)
                    else:
                        if not pending.done.done():
                            pending.done.set_result(None)
            else:
                for pending in batch:
                    if not pending.done.done():  # a caller that was cancelled no longer waits
                        pending.done.set_result(None)

    async def read(self, table_id: str) -> list[StoredEvent]:
        async with self.db.sessions() as session:
            result = await session.execute(select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.n))
            return [StoredEvent(r.n, r.kind, r.data, r.at) for r in result.scalars()]


def _write_events(conn: Connection, batch: list[_Pending]) -> None:
    """One transaction's statements: the events (one executemany) and the table statuses they change."""
    conn.execute(insert(EventRow), [p.row for p in batch])
    for p in batch:
        if p.status is not None:
            conn.execute(update(TableRow).where(TableRow.id == p.row["table_id"]).values(status=p.status))
