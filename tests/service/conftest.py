"""Store fixtures: every store test runs on SQLite and on PostgreSQL.

PostgreSQL is expected at ``postgresql://postgres@127.0.0.1:5432`` (trust auth; CI starts it), or wherever
``CAPICUA_TEST_POSTGRES`` points (an asyncpg DSN of a server's ``postgres`` database). One fresh database,
``capicua_test_<random>``, is created per test session (per xdist worker) and dropped at its end; tests that
start a table service (it loads every table it finds) get an empty one each. If the server
cannot be reached the tests FAIL: a skipped PostgreSQL suite would hide exactly what it is here to check.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from capicua.service.store import Store, default_url
from tests.aio import run_async
from tests.pg import ADMIN_DSN, admin, sqlalchemy_url


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, as a SQLAlchemy URL; dropped at the end."""
    name = f"capicua_test_{secrets.token_hex(6)}"
    try:
        run_async(admin(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        pytest.fail(
            f"PostgreSQL is needed for these tests and could not be used at {ADMIN_DSN} "
            f"({type(exc).__name__}: {exc}). Start it (CI does), or point CAPICUA_TEST_POSTGRES at one.",
            pytrace=False,
        )
    try:
        yield sqlalchemy_url(ADMIN_DSN, name)
    finally:
        run_async(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a database to test against: a new SQLite file, or this session's PostgreSQL database."""
    if request.param == "sqlite":
        return default_url(tmp_path)
    url = request.getfixturevalue("pg_url")
    assert isinstance(url, str)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own, for a server that loads every table it finds (PostgreSQL: created next to
    this session's database, dropped after the test)."""
    if request.param == "sqlite":
        yield default_url(tmp_path)
        return
    session_url = request.getfixturevalue("pg_url")
    assert isinstance(session_url, str)
    name = f"{session_url.rsplit('/', 1)[1]}_{secrets.token_hex(3)}"
    run_async(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield sqlalchemy_url(ADMIN_DSN, name)
    finally:
        run_async(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@contextlib.asynccontextmanager
async def opened(url: str) -> AsyncIterator[Store]:
    """The store at ``url``, open (migrations run) for the block, closed after it whatever happens."""
    store = Store(url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()
