"""Accounts: usernames and password hashes."""

from __future__ import annotations

from typing import Any, Protocol, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.exc import IntegrityError

from capicua.service.store.database import Database
from capicua.service.store.schema import AccountRow

__all__ = ["AccountStore", "SqlAccountStore"]


class AccountStore(Protocol):
    async def add(self, account_id: str, username: str, name: str, password_hash: str, bot: bool = False) -> bool: ...

    async def by_username(self, username: str) -> AccountRow | None: ...

    async def set_password_hash(self, account_id: str, password_hash: str) -> None: ...

    async def set_name(self, account_id: str, name: str) -> bool: ...

    async def names(self, account_ids: list[str]) -> dict[str, str]: ...

    async def bots(self) -> list[AccountRow]: ...


class SqlAccountStore:
    """:class:`AccountStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, account_id: str, username: str, name: str, password_hash: str, bot: bool = False) -> bool:
        """Store a new account (``bot``: a bot account); False if the username or id is taken."""
        try:
            async with self.db.writing(), self.db.sessions() as session, session.begin():
                row = AccountRow(id=account_id, username=username, name=name, password_hash=password_hash, bot=bot)
                session.add(row)
            return True
        except IntegrityError:
            return False

    async def by_username(self, username: str) -> AccountRow | None:
        async with self.db.sessions() as session:
            result = await session.execute(select(AccountRow).where(AccountRow.username == username))
            return result.scalar_one_or_none()

    async def set_password_hash(self, account_id: str, password_hash: str) -> None:
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash)
            )

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
                select(AccountRow).where(AccountRow.bot.is_(True)).order_by(AccountRow.username)
            )
            return list(result.scalars())
