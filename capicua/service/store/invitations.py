"""The bot API's invitations: a person asks a bot account to sit at his table; the bot answers once.

Kept in the database, so that a restart (or another node) still knows them until they are answered or old.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol, cast

from sqlalchemy import CursorResult, delete, select

from capicua.service.store.database import Database
from capicua.service.store.schema import BotInvitationRow

__all__ = ["InvitationStore", "SqlInvitationStore"]


class InvitationStore(Protocol):
    async def add(self, row: BotInvitationRow, older_than: dt.datetime) -> None: ...

    async def pending(self, bot_id: str, since: dt.datetime) -> list[BotInvitationRow]: ...

    async def take(self, invitation_id: str, bot_id: str, since: dt.datetime) -> BotInvitationRow | None: ...


class SqlInvitationStore:
    """:class:`InvitationStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, row: BotInvitationRow, older_than: dt.datetime) -> None:
        """Keep an invitation, and forget every one made before ``older_than`` (answered by nobody)."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(delete(BotInvitationRow).where(BotInvitationRow.created_at < older_than))
            session.add(row)

    async def pending(self, bot_id: str, since: dt.datetime) -> list[BotInvitationRow]:
        """The bot's unanswered invitations made since ``since``, oldest first."""
        async with self.db.sessions() as session:
            result = await session.execute(
                select(BotInvitationRow)
                .where(BotInvitationRow.bot_id == bot_id, BotInvitationRow.created_at >= since)
                .order_by(BotInvitationRow.created_at, BotInvitationRow.id)
            )
            return list(result.scalars())

    async def take(self, invitation_id: str, bot_id: str, since: dt.datetime) -> BotInvitationRow | None:
        """The bot's answer: the invitation, made since ``since``, is gone from the store once this returns it;
        None if there is none (or another answer took it first: only one delete removes the row)."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            row = (
                await session.execute(
                    select(BotInvitationRow).where(
                        BotInvitationRow.id == invitation_id,
                        BotInvitationRow.bot_id == bot_id,
                        BotInvitationRow.created_at >= since,
                    )
                )
            ).scalar_one_or_none()
            if row is None:
                return None
            gone = await session.execute(delete(BotInvitationRow).where(BotInvitationRow.id == invitation_id))
            return row if cast(CursorResult[Any], gone).rowcount == 1 else None
