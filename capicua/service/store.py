"""Persistence: one store interface over SQLAlchemy 2 (SQLite by default, PostgreSQL by URL).

Everything that changes a table is an *event*, appended and committed before it
is acknowledged or broadcast; a table is rebuilt after a restart by replaying
its events. Finished matches are kept as game records. The schema is created
and upgraded by Alembic migrations (``capicua/service/migrations``), applied
when the store opens.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import secrets
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AccountRow",
    "Base",
    "EventRow",
    "RecordRow",
    "RecordSeatRow",
    "Store",
    "StoreError",
    "TableRow",
    "default_url",
]


class StoreError(RuntimeError):
    """The database cannot be reached or used; the message says which and how to fix it."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    private: Mapped[bool] = mapped_column(default=False)
    invite: Mapped[str | None] = mapped_column(String(32), default=None)
    owner: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)  # open, playing, finished
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class EventRow(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RecordRow(Base):
    __tablename__ = "records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    match_no: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[list[Any]] = mapped_column(JSON)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RecordSeatRow(Base):
    """Who sat at each seat of a finished match (people only: bots and empty seats have no row)."""

    __tablename__ = "record_seats"

    record_id: Mapped[int] = mapped_column(ForeignKey("records.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), index=True)


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # a guest who signs up keeps his id
    username: Mapped[str] = mapped_column(String(32), unique=True)  # lower case
    name: Mapped[str] = mapped_column(String(32))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


def default_url(data_dir: Path) -> str:
    return f"sqlite+aiosqlite:///{(data_dir / 'capicua.db').resolve()}"


@dataclass
class _Pending:
    """An event waiting for the group commit."""

    row: dict[str, Any]
    status: str | None
    done: asyncio.Future[None]


@dataclass
class StoredEvent:
    n: int
    kind: str
    data: dict[str, Any]
    at: dt.datetime


class Store:
    """The one way to the database."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs.update(pool_size=10, max_overflow=20)
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite: table events are written by a plain (sync) engine on one thread of our own, a whole
        # batch per hop. Through aiosqlite each statement, cursor, commit and pool reset is a hop to its
        # thread and back, which cost more than the writing itself.
        self._sync_engine: Engine | None = None
        self._executor: ThreadPoolExecutor | None = None
        sync_url = make_url(url)
        if sync_url.get_backend_name() == "sqlite" and sync_url.database not in (None, "", ":memory:"):
            self._sync_engine = create_engine(sync_url.set(drivername="sqlite"), connect_args={"timeout": 30})
            event.listen(self._sync_engine, "connect", _sqlite_pragmas)
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="capicua-store")
        # SQLite has one writer at a time: writers from several pooled connections would wait on its
        # busy-retry sleeps (hundreds of ms). Taking turns in-process keeps commits back to back.
        self._write_turn: asyncio.Lock | None = asyncio.Lock() if url.startswith("sqlite") else None
        # Group commit: events appended while a batch is being written wait and go in the next one.
        self._queue: list[_Pending] = []
        self._writer: asyncio.Task[None] | None = None

    def _writing(self) -> contextlib.AbstractAsyncContextManager[object]:
        return self._write_turn if self._write_turn is not None else contextlib.nullcontext()

    async def open(self) -> None:
        """Check the database is reachable and bring its schema up to date (Alembic)."""
        try:
            async with self.engine.begin() as conn:
                await conn.run_sync(_upgrade)
        except (OSError, ConnectionError) as exc:
            raise StoreError(f"cannot reach the database at {_safe(self.url)}: {exc}") from exc
        except Exception as exc:  # drivers raise their own types for refused/unknown databases
            raise StoreError(f"cannot open the database at {_safe(self.url)}: {exc}") from exc

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)  # what was appended gets written
        if self._executor is not None and self._sync_engine is not None:
            await asyncio.get_running_loop().run_in_executor(self._executor, self._sync_engine.dispose)
            self._executor.shutdown()
        await self.engine.dispose()

    # -- tables ----------------------------------------------------------------------
    async def create_table(
        self, variant: str, players: int, options: dict[str, Any], private: bool, owner: str
    ) -> TableRow:
        for _ in range(5):
            row = TableRow(
                id=secrets.token_urlsafe(6),
                variant=variant,
                players=players,
                options=options,
                private=private,
                invite=secrets.token_urlsafe(12) if private else None,
                owner=owner,
                status="open",
            )
            try:
                async with self._writing(), self.sessions() as session, session.begin():
                    session.add(row)
                return row
            except IntegrityError:
                continue
        raise StoreError("could not pick a table id")

    async def set_status(self, table_id: str, status: str) -> None:
        async with self._writing(), self.sessions() as session, session.begin():
            await session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    async def tables(self, statuses: Sequence[str]) -> list[TableRow]:
        async with self.sessions() as session:
            result = await session.execute(
                select(TableRow).where(TableRow.status.in_(statuses)).order_by(TableRow.created_at)
            )
            return list(result.scalars())

    async def table(self, table_id: str) -> TableRow | None:
        async with self.sessions() as session:
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
        at = _now()
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
                await self._write(batch)
            except Exception:
                for pending in batch:  # isolate the failure: each event in its own transaction
                    try:
                        await self._write([pending])
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

    async def _write(self, batch: list[_Pending]) -> None:
        if self._executor is not None:
            async with self._writing():
                await asyncio.get_running_loop().run_in_executor(self._executor, self._write_sync, batch)
            return
        async with self.engine.begin() as conn:
            await conn.run_sync(_write_events, batch)

    def _write_sync(self, batch: list[_Pending]) -> None:
        assert self._sync_engine is not None
        with self._sync_engine.begin() as conn:
            _write_events(conn, batch)

    async def events(self, table_id: str) -> list[StoredEvent]:
        async with self.sessions() as session:
            result = await session.execute(select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.n))
            return [StoredEvent(r.n, r.kind, r.data, _aware(r.at)) for r in result.scalars()]

    # -- accounts ------------------------------------------------------------------------
    async def add_account(self, account_id: str, username: str, name: str, password_hash: str) -> bool:
        """Store a new account; False if the username or id is taken."""
        try:
            async with self._writing(), self.sessions() as session, session.begin():
                session.add(AccountRow(id=account_id, username=username, name=name, password_hash=password_hash))
            return True
        except IntegrityError:
            return False

    async def account_by_username(self, username: str) -> AccountRow | None:
        async with self.sessions() as session:
            result = await session.execute(select(AccountRow).where(AccountRow.username == username))
            return result.scalar_one_or_none()

    async def set_password_hash(self, account_id: str, password_hash: str) -> None:
        async with self._writing(), self.sessions() as session, session.begin():
            await session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash)
            )

    async def records_of(self, player_id: str, limit: int = 50) -> list[tuple[RecordRow, int]]:
        """The finished matches a player sat in, newest first, with his seat in each."""
        async with self.sessions() as session:
            result = await session.execute(
                select(RecordRow, RecordSeatRow.seat)
                .join(RecordSeatRow, RecordSeatRow.record_id == RecordRow.id)
                .where(RecordSeatRow.player_id == player_id)
                .order_by(RecordRow.finished_at.desc(), RecordRow.id.desc())
                .limit(limit)
            )
            return [(row, seat) for row, seat in result.all()]

    # -- records -----------------------------------------------------------------------
    async def save_record(
        self, table_id: str, match_no: int, variant: str, players: list[str], winner: int | None, record: dict[str, Any]
    ) -> int:
        """Store a finished match; the people who played it (``record["player_ids"]``, one per seat,
        None for a bot) find it in their match history (:meth:`records_of`)."""
        row = RecordRow(
            table_id=table_id, match_no=match_no, variant=variant, players=players, winner=winner, record=record
        )
        async with self._writing(), self.sessions() as session, session.begin():
            session.add(row)
            await session.flush()  # the record's id
            for seat, player_id in enumerate(record.get("player_ids") or []):
                if player_id:
                    session.add(RecordSeatRow(record_id=row.id, seat=seat, player_id=player_id))
        return row.id

    async def records(self, table_id: str) -> list[RecordRow]:
        async with self.sessions() as session:
            result = await session.execute(
                select(RecordRow).where(RecordRow.table_id == table_id).order_by(RecordRow.match_no)
            )
            return list(result.scalars())

    async def record(self, record_id: int) -> RecordRow | None:
        async with self.sessions() as session:
            return await session.get(RecordRow, record_id)


def _write_events(conn: Connection, batch: list[_Pending]) -> None:
    """One transaction's statements: the events (one executemany) and the table statuses they change."""
    conn.execute(insert(EventRow), [p.row for p in batch])
    for p in batch:
        if p.status is not None:
            conn.execute(update(TableRow).where(TableRow.id == p.row["table_id"]).values(status=p.status))


def _aware(at: dt.datetime) -> dt.datetime:
    return at if at.tzinfo else at.replace(tzinfo=dt.UTC)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers don't block the writer
    cursor.execute("PRAGMA synchronous=NORMAL")  # durable against a killed process (not a power cut)
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _safe(url: str) -> str:
    """The URL without its password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url


def _upgrade(connection: Any) -> None:
    """Run the Alembic migrations to head on this connection."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
