"""Conduct (``capicua.service.conduct``): the abandonments behind playbans (read from the rating changes marked
``abandoned``), the moderators' marks on accounts, and the moderation log."""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol

from sqlalchemy import func, or_, select, update

from capicua.service.store.database import Database
from capicua.service.store.schema import AccountRow, ModerationRow, RatingChangeRow

__all__ = ["ConductStore", "SqlConductStore"]

#: A rated match of two players: its id, when it ended, and each player with whether he won.
TwoPlayerMatch = tuple[str, dt.datetime, list[tuple[str, bool]]]


class ConductStore(Protocol):
    async def account(self, player_id: str) -> AccountRow | None: ...

    async def abandonments(self, player_id: str, since: dt.datetime) -> list[dt.datetime]: ...

    async def abandoners(self, since: dt.datetime) -> list[str]: ...

    async def two_player_matches(self, games: list[str], since: dt.datetime) -> list[TwoPlayerMatch]: ...

    async def moderate(
        self, player_id: str, changes: dict[str, Any], entry: ModerationRow, end_sessions: bool = False
    ) -> None: ...

    async def log(self, player_id: str | None, limit: int) -> list[ModerationRow]: ...

    async def sanctioned(self, now: dt.datetime) -> list[AccountRow]: ...

    async def names(self, ids: list[str]) -> dict[str, str]: ...


class SqlConductStore:
    """:class:`ConductStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def account(self, player_id: str) -> AccountRow | None:
        async with self.db.sessions() as session:
            return await session.get(AccountRow, player_id)

    async def abandonments(self, player_id: str, since: dt.datetime) -> list[dt.datetime]:
        """When the player abandoned rated matches after ``since``, oldest first."""
        query = (
            select(RatingChangeRow.at)
            .where(RatingChangeRow.player_id == player_id, RatingChangeRow.at > since, RatingChangeRow.abandoned)
            .order_by(RatingChangeRow.at)
        )
        async with self.db.sessions() as session:
            return list((await session.execute(query)).scalars())

    async def abandoners(self, since: dt.datetime) -> list[str]:
        """Who abandoned a rated match after ``since``."""
        query = (
            select(RatingChangeRow.player_id)
            .where(RatingChangeRow.at > since, RatingChangeRow.abandoned)
            .group_by(RatingChangeRow.player_id)
        )
        async with self.db.sessions() as session:
            return list((await session.execute(query)).scalars())

    async def two_player_matches(self, games: list[str], since: dt.datetime) -> list[TwoPlayerMatch]:
        """Every rated match of ``games`` since ``since`` that two players played (their changes, grouped)."""
        two = (
            select(RatingChangeRow.match_id)
            .where(RatingChangeRow.game.in_(games), RatingChangeRow.at >= since)
            .group_by(RatingChangeRow.match_id)
            .having(func.count() == 2)
        )
        query = (
            select(RatingChangeRow.match_id, RatingChangeRow.at, RatingChangeRow.player_id, RatingChangeRow.won)
            .where(RatingChangeRow.match_id.in_(two))
            .order_by(RatingChangeRow.at, RatingChangeRow.match_id)
        )
        grouped: dict[str, tuple[dt.datetime, list[tuple[str, bool]]]] = {}
        async with self.db.sessions() as session:
            for match_id, at, player_id, won in await session.execute(query):
                grouped.setdefault(match_id, (at, []))[1].append((player_id, bool(won)))
        return [(match_id, at, players) for match_id, (at, players) in grouped.items()]

    async def moderate(
        self, player_id: str, changes: dict[str, Any], entry: ModerationRow, end_sessions: bool = False
    ) -> None:
        """Change the account and log why, in one transaction (no change without its entry, nor the reverse);
        ``end_sessions``: its session tokens open nothing any more."""
        values = dict(changes)
        if end_sessions:
            values["session_generation"] = AccountRow.session_generation + 1
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(update(AccountRow).where(AccountRow.id == player_id).values(**values))
            session.add(entry)

    async def log(self, player_id: str | None, limit: int) -> list[ModerationRow]:
        """The moderation log, newest first: one account's, or everybody's (None)."""
        query = select(ModerationRow).order_by(ModerationRow.at.desc(), ModerationRow.id.desc()).limit(limit)
        if player_id is not None:
            query = query.where(ModerationRow.player_id == player_id)
        async with self.db.sessions() as session:
            return list((await session.execute(query)).scalars())

    async def sanctioned(self, now: dt.datetime) -> list[AccountRow]:
        """The accounts banned or muted at ``now``, or whose name is hidden."""
        query = (
            select(AccountRow)
            .where(or_(AccountRow.banned_until > now, AccountRow.muted_until > now, AccountRow.name_hidden))
            .order_by(AccountRow.username_key)
        )
        async with self.db.sessions() as session:
            return list((await session.execute(query)).scalars())

    async def names(self, ids: list[str]) -> dict[str, str]:
        """The display names of these accounts (those that exist)."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        async with self.db.sessions() as session:
            result = await session.execute(select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(wanted)))
            return {account_id: name for account_id, name in result}
