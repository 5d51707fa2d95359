"""Accounts: usernames and password hashes, and each account's session generation.

Usernames are matched here, by :func:`capicua.service.usernames.username_key`, and nowhere else: callers pass
what people typed."""

from __future__ import annotations

from typing import Any, Protocol, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.exc import IntegrityError

from capicua.service.store.database import Database
from capicua.service.store.schema import AccountRow
from capicua.service.usernames import username_key, username_skeleton

__all__ = ["AccountStore", "SqlAccountStore"]


class AccountStore(Protocol):
    async def add(self, account_id: str, username: str, name: str, password_hash: str, bot: bool = False) -> bool: ...

    async def by_username(self, username: str) -> AccountRow | None: ...

    async def by_id(self, account_id: str) -> AccountRow | None: ...

    async def set_password_hash(self, account_id: str, password_hash: str) -> None: ...

    async def end_sessions(self, account_id: str, password_hash: str | None = None) -> int | None: ...

    async def set_name(self, account_id: str, name: str) -> bool: ...

    async def names(self, account_ids: list[str]) -> dict[str, str]: ...

    async def bots(self) -> list[AccountRow]: ...


class SqlAccountStore:
    """:class:`AccountStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, account_id: str, username: str, name: str, password_hash: str, bot: bool = False) -> bool:
        """Store a new account (``bot``: a bot account); False if the id is taken, or the username folds (or
        looks) like one that is: the database's unique keys decide, so two servers cannot both take it."""
        try:
            async with self.db.writing(), self.db.sessions() as session, session.begin():
                row = AccountRow(
                    id=account_id,
                    username=username,
                    username_key=username_key(username),
                    username_skeleton=username_skeleton(username),
                    name=name,
                    password_hash=password_hash,
                    bot=bot,
                )
                session.add(row)
            return True
        except IntegrityError:
            return False

    async def by_username(self, username: str) -> AccountRow | None:
        """The account of ``username`` as somebody typed it (any case, fullwidth or not…), or None."""
        async with self.db.sessions() as session:
            result = await session.execute(select(AccountRow).where(AccountRow.username_key == username_key(username)))
            return result.scalar_one_or_none()

    async def by_id(self, account_id: str) -> AccountRow | None:
        async with self.db.sessions() as session:
            return await session.get(AccountRow, account_id)

    async def set_password_hash(self, account_id: str, password_hash: str) -> None:
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash)
            )

    async def end_sessions(self, account_id: str, password_hash: str | None = None) -> int | None:
        """End every session of the account (raise its session generation), and set its password hash too if
        given, in one statement; the new generation, or None if there is no such account."""
        values: dict[str, Any] = {"session_generation": AccountRow.session_generation + 1}
        if password_hash is not None:
            values["password_hash"] = password_hash
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(update(AccountRow).where(AccountRow.id == account_id).values(**values))
            result = await session.execute(select(AccountRow.session_generation).where(AccountRow.id == account_id))
            return result.scalar_one_or_none()

    async def set_name(self, account_id: str, name: str) -> bool:
        """The account's display name; False if there is no such account."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(update(AccountRow).where(AccountRow.id == account_id).values(name=name))
            return cast(CursorResult[Any], result).rowcount > 0

    async def names(self, account_ids: list[str]) -> dict[str, str]:
        """The display names of these accounts (those that exist)."""
        if not account_ids:
            return {}
        async with self.db.sessions() as session:
            result = await session.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(list(set(account_ids))))
            )
            return {row.id: row.name for row in result}

    async def bots(self) -> list[AccountRow]:
        """Every bot account, by username."""
        async with self.db.sessions() as session:
            result = await session.execute(
                select(AccountRow).where(AccountRow.bot.is_(True)).order_by(AccountRow.username_key)
            )
            return list(result.scalars())
