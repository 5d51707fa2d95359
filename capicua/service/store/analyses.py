"""Hand reviews of records (capicua.bots.analysis), kept once computed: an analysis is never redone."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError

from capicua.service.store.database import Database
from capicua.service.store.schema import AnalysisRow, now

__all__ = ["AnalysisStore", "SqlAnalysisStore"]


class AnalysisStore(Protocol):
    async def get(self, key: str) -> AnalysisRow | None: ...

    async def save(
        self, key: str, record_id: int | None, worlds: int, result: dict[str, Any], record: dict[str, Any] | None = None
    ) -> None: ...


class SqlAnalysisStore:
    """:class:`AnalysisStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, key: str) -> AnalysisRow | None:
        async with self.db.sessions() as session:
            return await session.get(AnalysisRow, key)

    async def save(
        self, key: str, record_id: int | None, worlds: int, result: dict[str, Any], record: dict[str, Any] | None = None
    ) -> None:
        """Keep an analysis (and an uploaded ``record`` beside it); one already kept under ``key`` stays (saving
        twice changes nothing)."""
        row = AnalysisRow(key=key, record_id=record_id, worlds=worlds, result=result, record=record, created_at=now())
        try:
            async with self.db.writing(), self.db.sessions() as session, session.begin():
                session.add(row)
        except IntegrityError:  # saved meanwhile by another node
            pass
