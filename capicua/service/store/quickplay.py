"""Rated quick play's tickets (``capicua.service.quickplay``): one a player's wait, kept in the database so that
every node answers for any ticket and the leading node matches the players of every node.

A ticket waits while its ``table_id`` is None; a group is seated by :meth:`SqlQuickPlayStore.claim`, one
conditional write that sets the table on every ticket of the group or on none. A player has at most one
waiting ticket (a partial unique index): a new join replaces the one he had, whichever node each reached.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from sqlalchemy import CursorResult, delete, func, select, update
from sqlalchemy.exc import IntegrityError

from capicua.service.store.database import Database, StoreError
from capicua.service.store.schema import QuickPlayTicketRow

__all__ = ["QuickPlayStore", "SqlQuickPlayStore"]


class QuickPlayStore(Protocol):
    async def join(self, make: Callable[[], QuickPlayTicketRow]) -> QuickPlayTicketRow: ...

    async def ticket(self, ticket_id: str) -> QuickPlayTicketRow | None: ...

    async def touch(self, ticket_id: str, player_id: str, at: dt.datetime) -> QuickPlayTicketRow | None: ...

    async def leave(self, ticket_id: str, player_id: str) -> bool: ...

    async def waiting(self, game: str) -> list[QuickPlayTicketRow]: ...

    async def count_waiting(self, game: str) -> int: ...

    async def games_waiting(self) -> list[str]: ...

    async def claim(self, ticket_ids: Sequence[str], table_id: str) -> bool: ...

    async def forget(self, seen_before: dt.datetime) -> int: ...


class _Lost(Exception):
    """A claim found fewer waiting tickets than its group: rolled back."""


def _rowcount(result: Any) -> int:
    return cast(CursorResult[Any], result).rowcount


class SqlQuickPlayStore:
    """:class:`QuickPlayStore` on SQLAlchemy (the ``quickplay_tickets`` table)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def join(self, make: Callable[[], QuickPlayTicketRow], tries: int = 5) -> QuickPlayTicketRow:
        """Add the ticket ``make()`` (a fresh id each try), in the same transaction dropping the player's
        waiting ticket if he had one. Two joins of one player at once (on two nodes) cannot both leave a
        waiting ticket: the second's insert meets the first's in the unique index and tries again, replacing it."""
        for _ in range(tries):
            row = make()
            try:
                async with self.db.writing(), self.db.sessions() as session, session.begin():
                    await session.execute(
                        delete(QuickPlayTicketRow).where(
                            QuickPlayTicketRow.player_id == row.player_id, QuickPlayTicketRow.table_id.is_(None)
                        )
                    )
                    session.add(row)
                return row
            except IntegrityError:
                continue
        raise StoreError("could not add a quick-play ticket")

    async def ticket(self, ticket_id: str) -> QuickPlayTicketRow | None:
        async with self.db.sessions() as session:
            result = await session.execute(select(QuickPlayTicketRow).where(QuickPlayTicketRow.id == ticket_id))
            return result.scalar_one_or_none()

    async def touch(self, ticket_id: str, player_id: str, at: dt.datetime) -> QuickPlayTicketRow | None:
        """The player asked about his ticket at ``at`` (it is not forgotten); the ticket, None if it is not his
        or is gone."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(
                update(QuickPlayTicketRow)
                .where(QuickPlayTicketRow.id == ticket_id, QuickPlayTicketRow.player_id == player_id)
                .values(seen=at)
            )
            if _rowcount(result) != 1:
                return None
            found = await session.execute(select(QuickPlayTicketRow).where(QuickPlayTicketRow.id == ticket_id))
            return found.scalar_one()

    async def leave(self, ticket_id: str, player_id: str) -> bool:
        """The player stops waiting: his ticket is gone if it still waited (a seated one stays, pointing to his
        table); whether it was there to leave (his, waiting)."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(
                delete(QuickPlayTicketRow).where(
                    QuickPlayTicketRow.id == ticket_id,
                    QuickPlayTicketRow.player_id == player_id,
                    QuickPlayTicketRow.table_id.is_(None),
                )
            )
        return _rowcount(result) == 1

    async def waiting(self, game: str) -> list[QuickPlayTicketRow]:
        """The tickets waiting in ``game``'s queue, the longest waiting first."""
        async with self.db.sessions() as session:
            result = await session.execute(
                select(QuickPlayTicketRow)
                .where(QuickPlayTicketRow.game == game, QuickPlayTicketRow.table_id.is_(None))
                .order_by(QuickPlayTicketRow.since, QuickPlayTicketRow.n)
            )
            return list(result.scalars())

    async def count_waiting(self, game: str) -> int:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(func.count())
                .select_from(QuickPlayTicketRow)
                .where(QuickPlayTicketRow.game == game, QuickPlayTicketRow.table_id.is_(None))
            )
            return int(result.scalar_one())

    async def games_waiting(self) -> list[str]:
        """The games somebody waits in."""
        async with self.db.sessions() as session:
            result = await session.execute(
                select(QuickPlayTicketRow.game)
                .where(QuickPlayTicketRow.table_id.is_(None))
                .distinct()
                .order_by(QuickPlayTicketRow.game)
            )
            return list(result.scalars())

    async def claim(self, ticket_ids: Sequence[str], table_id: str) -> bool:
        """Seat the group ``ticket_ids`` at ``table_id``: one transaction, one conditional write, ``table_id`` set
        on those tickets that still wait. If fewer than all of them changed (another node claimed some first,
        or one was left or forgotten), it is rolled back and nothing changed: False. On PostgreSQL a concurrent
        claim of the same tickets waits for the first to commit and then finds them taken."""
        ids = list(dict.fromkeys(ticket_ids))
        try:
            async with self.db.writing(), self.db.sessions() as session, session.begin():
                # The rows locked one after the other in the order of their ids (PostgreSQL; SQLite has one
                # writer): two claims of overlapping groups then wait for each other, and never deadlock.
                await session.execute(
                    select(QuickPlayTicketRow.id)
                    .where(QuickPlayTicketRow.id.in_(ids))
                    .order_by(QuickPlayTicketRow.id)
                    .with_for_update()
                )
                result = await session.execute(
                    update(QuickPlayTicketRow)
                    .where(QuickPlayTicketRow.id.in_(ids), QuickPlayTicketRow.table_id.is_(None))
                    .values(table_id=table_id)
                )
                if _rowcount(result) != len(ids):
                    raise _Lost
        except _Lost:
            return False
        return True

    async def forget(self, seen_before: dt.datetime) -> int:
        """Drop the tickets nobody asked about since ``seen_before``; how many."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(delete(QuickPlayTicketRow).where(QuickPlayTicketRow.seen < seen_before))
        return _rowcount(result)
