"""Tables and their event logs: the store of live play.

Everything that changes a table is an *event*, appended and committed before it is acknowledged
or broadcast; a table is rebuilt after a restart by replaying its events.

Each table is run by one node at a time (``tables.node``). Its fencing token (``tables.lease``) is raised
whenever its owner changes (:meth:`SqlEventStore.claim`, :meth:`SqlEventStore.release`), and an event
appended under an older token is refused (:class:`LeaseLost`) in the transaction that would write it: the
row of its table is locked there first (``FOR UPDATE`` on PostgreSQL; SQLite has one writer at a time), so
a claim either commits before the check, which then fails, or waits until the events are in, which its
new owner then reads. A node that slept through the loss of its lease cannot write.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from sqlalchemy import Connection, and_, insert, or_, select, tuple_, update

from capicua.service.store.database import Database
from capicua.service.store.schema import EventRow, NodeRow, TableRow, now

__all__ = ["EventStore", "LeaseLost", "SqlEventStore", "StoredEvent"]

#: The statuses of a table that a node runs (a finished one is only kept for its page and a rematch).
LIVE = ("open", "playing")


class LeaseLost(Exception):
    """An event appended under a fencing token the table no longer has: another node runs the table now."""


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
        node: str | None = None,
        fill: dict[str, Any] | None = None,
        autostart: int | None = None,
    ) -> TableRow: ...

    async def set_status(self, table_id: str, status: str) -> None: ...

    async def tables(self, statuses: Sequence[str], tournament_id: str | None = None) -> list[TableRow]: ...

    async def table(self, table_id: str) -> TableRow | None: ...

    async def append(
        self,
        table_id: str,
        n: int,
        kind: str,
        data: dict[str, Any],
        status: str | None = None,
        lease: int | None = None,
    ) -> dt.datetime: ...

    async def read(self, table_id: str) -> list[StoredEvent]: ...

    async def claim(self, table_id: str, node: str, seen: int) -> int | None: ...

    async def claim_many(self, seen: dict[str, int], node: str) -> dict[str, int]: ...

    async def read_many(self, table_ids: Sequence[str]) -> dict[str, list[StoredEvent]]: ...

    async def release(self, table_id: str, lease: int) -> bool: ...

    async def orphans(self, node: str) -> list[TableRow]: ...

    async def owned(self, node: str) -> dict[str, int]: ...

    async def close(self) -> None: ...


@dataclass
class _Pending:
    """An event waiting for the group commit."""

    row: dict[str, Any]
    status: str | None
    lease: int | None  # the fencing token it must be written under (None: not fenced)
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
        node: str | None = None,
        fill: dict[str, Any] | None = None,
        autostart: int | None = None,
    ) -> TableRow:
        """A new open table; ``reserved``: the player each seat is kept for (a tournament's table); ``bots_rated``:
        rated with bot accounts among people too; ``node``: the node that runs it (its first lease, 1); ``fill``:
        when its empty seats get bots (``TableRow.fill``); ``autostart``: the seconds from its last seat taken to
        its match starting by itself (``TableRow.autostart``)."""

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
                node=node,
                lease=1 if node is not None else 0,
                fill=fill,
                autostart=autostart,
            )

        return await self.db.add_new(make, "table")

    async def set_status(self, table_id: str, status: str) -> None:
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    async def tables(self, statuses: Sequence[str], tournament_id: str | None = None) -> list[TableRow]:
        """The tables in one of ``statuses`` (of one tournament's rounds, with ``tournament_id``), oldest first."""
        query = select(TableRow).where(TableRow.status.in_(statuses))
        if tournament_id is not None:
            query = query.where(TableRow.tournament_id == tournament_id)
        async with self.db.sessions() as session:
            result = await session.execute(query.order_by(TableRow.created_at))
            return list(result.scalars())

    async def table(self, table_id: str) -> TableRow | None:
        async with self.db.sessions() as session:
            return await session.get(TableRow, table_id)

    # -- events ----------------------------------------------------------------------
    async def append(
        self,
        table_id: str,
        n: int,
        kind: str,
        data: dict[str, Any],
        status: str | None = None,
        lease: int | None = None,
    ) -> dt.datetime:
        """Commit event ``n`` of a table; only then may it be acknowledged or broadcast.

        ``status``, if given, becomes the table's status in the same transaction. ``lease``, if given, is the
        fencing token of the node that appends it: if the table has another one now, nothing is written and
        :class:`LeaseLost` is raised.

        Events appended at about the same time, by any tables, are committed together, in one
        transaction (group commit): each caller resumes once the transaction holding its event
        has committed. If that transaction fails, its events are written again one by one, so a
        bad event (a number already used) fails alone and the others still commit.
        """
        at = now()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        row = {"table_id": table_id, "n": n, "kind": kind, "data": data, "at": at}
        self._queue.append(_Pending(row, status, lease, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        await done
        return at

    async def _write_queued(self) -> None:
        """Commit the queued events, batch after batch, until none is left."""
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                fenced = await self.db.run_in_transaction(partial(_write_events, batch=batch))
            except Exception:
                for pending in batch:  # isolate the failure: each event in its own transaction
                    try:
                        fenced = await self.db.run_in_transaction(partial(_write_events, batch=[pending]))
                    except Exception as exc:
                        _finish(pending, exc)
                    else:
                        _finish(pending, _lost(pending) if fenced else None)
            else:
                for pending in batch:
                    _finish(pending, _lost(pending) if id(pending) in fenced else None)

    async def read(self, table_id: str) -> list[StoredEvent]:
        async with self.db.sessions() as session:
            result = await session.execute(select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.n))
            return [StoredEvent(r.n, r.kind, r.data, r.at) for r in result.scalars()]

    # -- owners ----------------------------------------------------------------------
    async def claim(self, table_id: str, node: str, seen: int) -> int | None:
        """``node`` runs the table from now on, if its token is still ``seen``: its new token, or None when
        someone else changed the owner first."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.lease == seen)
                .values(node=node, lease=seen + 1)
            )
        return seen + 1 if result.rowcount == 1 else None  # type: ignore[attr-defined]

    async def claim_many(self, seen: dict[str, int], node: str) -> dict[str, int]:
        """:meth:`claim` of many tables in one statement (``seen``: each one's token as read): the new tokens of
        those whose token was still the one seen (the others another node claimed first)."""
        if not seen:
            return {}
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(
                update(TableRow)
                .where(tuple_(TableRow.id, TableRow.lease).in_(list(seen.items())))
                .values(node=node, lease=TableRow.lease + 1)
                .returning(TableRow.id, TableRow.lease)
            )
            return {table_id: lease for table_id, lease in result.all()}

    async def read_many(self, table_ids: Sequence[str]) -> dict[str, list[StoredEvent]]:
        """The events of each table, in one query."""
        events: dict[str, list[StoredEvent]] = {t: [] for t in table_ids}
        async with self.db.sessions() as session:
            result = await session.execute(
                select(EventRow).where(EventRow.table_id.in_(list(table_ids))).order_by(EventRow.table_id, EventRow.n)
            )
            for r in result.scalars():
                events[r.table_id].append(StoredEvent(r.n, r.kind, r.data, r.at))
        return events

    async def release(self, table_id: str, lease: int) -> bool:
        """Nobody runs the table now, if its token is still ``lease`` (raised: whatever the old owner appends
        later is refused): it is loaded again when asked for (:meth:`orphans` leaves it out)."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.lease == lease)
                .values(node=None, lease=lease + 1)
            )
        return result.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    async def orphans(self, node: str) -> list[TableRow]:
        """The open tables and those in play whose node is not alive (its lease ran out, it shut down), and
        the tables in play that nobody runs (written before there were nodes): someone must take them over.
        ``node``'s own are not among them (it knows which it runs), nor those let go (:meth:`release`), which
        wait to be asked for."""
        alive = select(NodeRow.name).where(NodeRow.expires_at > now())
        async with self.db.sessions() as session:
            result = await session.execute(
                select(TableRow)
                .where(
                    TableRow.status.in_(LIVE),
                    or_(
                        and_(TableRow.node.is_(None), TableRow.status == "playing"),
                        and_(TableRow.node != node, TableRow.node.not_in(alive)),
                    ),
                )
                .order_by(TableRow.created_at)
            )
            return list(result.scalars())

    async def owned(self, node: str) -> dict[str, int]:
        """The tables the store says ``node`` runs, with their tokens."""
        async with self.db.sessions() as session:
            result = await session.execute(select(TableRow.id, TableRow.lease).where(TableRow.node == node))
            return {table_id: lease for table_id, lease in result.all()}


def _lost(pending: _Pending) -> LeaseLost:
    return LeaseLost(f"table {pending.row['table_id']}: event {pending.row['n']} is not this node's to write")


def _finish(pending: _Pending, exc: BaseException | None) -> None:
    if pending.done.done():  # a caller that was cancelled no longer waits
        return
    if exc is None:
        pending.done.set_result(None)
    else:
        pending.done.set_exception(exc)


def _write_events(conn: Connection, batch: list[_Pending]) -> set[int]:
    """One transaction's statements: the events (one executemany) and the table statuses they change, but for
    the events appended under a token their table no longer has, which are returned (by ``id``) unwritten.

    The tables' rows are locked first, in one order (no two writers wait on each other in a circle), so no
    change of owner commits between the check and the events."""
    tokens: dict[str, int] = {}
    fenced_tables = sorted({p.row["table_id"] for p in batch if p.lease is not None})
    if fenced_tables:
        rows = conn.execute(
            select(TableRow.id, TableRow.lease)
            .where(TableRow.id.in_(fenced_tables))
            .order_by(TableRow.id)
            .with_for_update()
        )
        tokens = {table_id: lease for table_id, lease in rows.all()}
    fenced = {id(p) for p in batch if p.lease is not None and tokens.get(p.row["table_id"]) != p.lease}
    written = [p for p in batch if id(p) not in fenced]
    if written:
        conn.execute(insert(EventRow), [p.row for p in written])
    for p in written:
        if p.status is not None:
            conn.execute(update(TableRow).where(TableRow.id == p.row["table_id"]).values(status=p.status))
    return fenced
