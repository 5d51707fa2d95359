"""The PostgreSQL server the tests use: where it is, and running a statement on its ``postgres`` database.

PostgreSQL is expected at ``postgresql://postgres@127.0.0.1:5432`` (trust auth; CI starts it), or wherever
``CAPICUA_TEST_POSTGRES`` points (an asyncpg DSN of a server's ``postgres`` database).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

__all__ = ["ADMIN_DSN", "admin", "sqlalchemy_url"]

ADMIN_DSN = os.environ.get("CAPICUA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def sqlalchemy_url(dsn: str, database: str) -> str:
    """The SQLAlchemy (asyncpg) URL of ``database`` on the server of ``dsn``."""
    parts = urlsplit(dsn)
    return f"postgresql+asyncpg://{parts.netloc}/{database}"


async def admin(sql: str) -> None:
    """Run ``sql`` (CREATE/DROP DATABASE…) on the server's ``postgres`` database."""
    import asyncpg

    conn = await asyncpg.connect(ADMIN_DSN, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()
