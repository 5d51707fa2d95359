"""The nodes sharing the database: each registers under its name with a lease that it renews, and is alive
while the lease has not run out (a node killed stops renewing; one shut down retires at once).

A node's name may come back after a restart: every registration raises the name's ``epoch``, so a renewal
by an older run of the name (a process that was paused, or a second one started by mistake) fails, and that
run knows it has lost what it ran. Moments are the nodes' own clocks (they must agree within a second or so,
as NTP keeps them): a wrong clock can only make a table change owner early or late; which node may write a
table is decided by its fencing token (:mod:`capicua.service.store.events`), never by a clock.
"""

from __future__ import annotations

import datetime as dt
from typing import Protocol

from sqlalchemy import delete, select, text, update

from capicua.service.store.database import Database
from capicua.service.store.schema import NodeRow, now

__all__ = ["NodeStore", "SqlNodeStore"]


class NodeStore(Protocol):
    async def register(self, name: str, seconds: float) -> int: ...

    async def renew(self, name: str, epoch: int, seconds: float, draining: bool = False) -> bool: ...

    async def retire(self, name: str, epoch: int) -> None: ...

    async def alive(self) -> list[str]: ...

    async def ping(self) -> bool: ...


class SqlNodeStore:
    """:class:`NodeStore` on SQLAlchemy (the ``nodes`` table)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def register(self, name: str, seconds: float) -> int:
        """A run of node ``name`` starts, alive for ``seconds``: its epoch (one more than the last run's)."""
        at = now()
        expires = at + dt.timedelta(seconds=seconds)
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            row = await session.get(NodeRow, name, with_for_update=True)
            if row is None:
                session.add(NodeRow(name=name, epoch=1, expires_at=expires, started_at=at, draining=False))
                return 1
            row.epoch += 1
            row.expires_at, row.started_at, row.draining = expires, at, False
            return row.epoch

    async def renew(self, name: str, epoch: int, seconds: float, draining: bool = False) -> bool:
        """Alive ``seconds`` more, if this run still holds the name and its lease has not run out: False
        when it has lost it (then everything it ran may be another node's now)."""
        at = now()
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(
                update(NodeRow)
                .where(NodeRow.name == name, NodeRow.epoch == epoch, NodeRow.expires_at > at)
                .values(expires_at=at + dt.timedelta(seconds=seconds), draining=draining)
            )
        return result.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    async def retire(self, name: str, epoch: int) -> None:
        """This run of ``name`` stops (a graceful shutdown): it is no longer alive."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(delete(NodeRow).where(NodeRow.name == name, NodeRow.epoch == epoch))

    async def alive(self) -> list[str]:
        """The nodes alive now, by name."""
        async with self.db.sessions() as session:
            result = await session.execute(
                select(NodeRow.name).where(NodeRow.expires_at > now()).order_by(NodeRow.name)
            )
            return list(result.scalars())

    async def ping(self) -> bool:
        """Whether the database answers now."""
        try:
            async with self.db.sessions() as session:
                await session.execute(text("SELECT 1"))
        except Exception:
            return False
        return True
