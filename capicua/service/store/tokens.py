"""Personal API tokens of the bot API: only a digest of each token is stored, never the token itself."""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol, cast

from sqlalchemy import CursorResult, select, update

from capicua.service.store.database import Database
from capicua.service.store.schema import AccountRow, ApiTokenRow, now

__all__ = ["SqlTokenStore", "TokenStore"]


class TokenStore(Protocol):
    async def add(self, token_id: str, account_id: str, digest: str, label: str) -> ApiTokenRow: ...

    async def by_digest(self, digest: str) -> tuple[ApiTokenRow, AccountRow] | None: ...

    async def of_account(self, account_id: str) -> list[ApiTokenRow]: ...

    async def revoke(self, account_id: str, token_id: str) -> bool: ...

    async def touch(self, token_id: str, at: dt.datetime) -> None: ...


class SqlTokenStore:
    """:class:`TokenStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, token_id: str, account_id: str, digest: str, label: str) -> ApiTokenRow:
        row = ApiTokenRow(id=token_id, account_id=account_id, digest=digest, label=label, created_at=now())
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            session.add(row)
        return row

    async def by_digest(self, digest: str) -> tuple[ApiTokenRow, AccountRow] | None:
        """The live (not revoked) token with this digest, and its account."""
        async with self.db.sessions() as session:
            result = await session.execute(
                select(ApiTokenRow, AccountRow)
                .join(AccountRow, AccountRow.id == ApiTokenRow.account_id)
                .where(ApiTokenRow.digest == digest, ApiTokenRow.revoked_at.is_(None))
            )
            row = result.first()
            return None if row is None else (row[0], row[1])

    async def of_account(self, account_id: str) -> list[ApiTokenRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(ApiTokenRow).where(ApiTokenRow.account_id == account_id).order_by(ApiTokenRow.created_at)
            )
            return list(result.scalars())

    async def revoke(self, account_id: str, token_id: str) -> bool:
        """Revoke one of the account's tokens; False if it has no such live token."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(
                update(ApiTokenRow)
                .where(
                    ApiTokenRow.id == token_id,
                    ApiTokenRow.account_id == account_id,
                    ApiTokenRow.revoked_at.is_(None),
                )
                .values(revoked_at=now())
            )
            return cast(CursorResult[Any], result).rowcount > 0

    async def touch(self, token_id: str, at: dt.datetime) -> None:
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(update(ApiTokenRow).where(ApiTokenRow.id == token_id).values(last_used_at=at))
