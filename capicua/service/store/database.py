"""The connection to the database that every store shares: engines, sessions, migrations.

SQLite (the default, a file in the data directory, WAL) or PostgreSQL by URL, through SQLAlchemy 2's
async engine. The schema is brought up to date by Alembic when the database opens.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

__all__ = ["IDLE_IN_TRANSACTION_S", "Database", "StoreError", "default_url"]

T = TypeVar("T")


class StoreError(RuntimeError):
    """The database cannot be reached or used; the message says which and how to fix it."""


def default_url(data_dir: Path) -> str:
    return f"sqlite+aiosqlite:///{(data_dir / 'capicua.db').resolve()}"


#: PostgreSQL ends a session left idle inside a transaction this long (``idle_in_transaction_session_timeout``),
#: and with it the locks it holds. A node frozen mid-commit (SIGSTOP, a stalled VM) holds its tables' rows locked
#: (an append locks them ``FOR UPDATE``); the node that takes its tables over would wait on them until it woke.
#: Every transaction of ours runs its statements back to back: none is idle for seconds.
IDLE_IN_TRANSACTION_S = 10.0


class Database:
    """One database: the async engine and sessions, the writers' turn, and the sync writer of SQLite."""

    def __init__(self, url: str, idle_in_transaction: float = IDLE_IN_TRANSACTION_S) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        self.sqlite = url.startswith("sqlite")
        if self.sqlite:
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs.update(pool_size=10, max_overflow=20)
            if make_url(url).get_driver_name() == "asyncpg":
                ms = str(max(1, round(idle_in_transaction * 1000)))
                kwargs["connect_args"] = {"server_settings": {"idle_in_transaction_session_timeout": ms}}
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        if self.sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite: batches of writes go through a plain (sync) engine on one thread of our own, a whole
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
        self._write_turn: asyncio.Lock | None = asyncio.Lock() if self.sqlite else None

    def writing(self) -> contextlib.AbstractAsyncContextManager[object]:
        """Held while writing (SQLite: one writer at a time in this process)."""
        return self._write_turn if self._write_turn is not None else contextlib.nullcontext()

    async def add_new(self, make: Callable[[str], T], what: str, tries: int = 5) -> T:
        """Insert the row ``make(id)`` under a fresh random id (another try when the id is taken); the row."""
        for _ in range(tries):
            row = make(secrets.token_urlsafe(6))
            try:
                async with self.writing(), self.sessions() as session, session.begin():
                    session.add(row)
                return row
            except IntegrityError:
                continue
        raise StoreError(f"could not pick a {what} id")

    async def run_in_transaction(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` on a connection in one transaction, committed when it returns: on SQLite's
        own thread through the sync engine, elsewhere through the async engine."""
        if self._executor is not None and self._sync_engine is not None:
            engine = self._sync_engine

            def run() -> T:
                with engine.begin() as conn:
                    return work(conn)

            async with self.writing():
                return await asyncio.get_running_loop().run_in_executor(self._executor, run)
        async with self.engine.begin() as conn:
            return await conn.run_sync(work)

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
        if self._executor is not None and self._sync_engine is not None:
            await asyncio.get_running_loop().run_in_executor(self._executor, self._sync_engine.dispose)
            self._executor.shutdown()
        await self.engine.dispose()


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


#: The PostgreSQL advisory lock the migrations run under: nodes started together on a fresh database take
#: turns (the first creates the schema, the others find it up to date), instead of racing to create it.
MIGRATION_LOCK = 0x6361_7069_6375_61  # "capicua"


def _upgrade(connection: Any) -> None:
    """Run the Alembic migrations to head on this connection (on PostgreSQL, one process at a time)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent.parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
