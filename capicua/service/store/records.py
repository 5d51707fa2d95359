"""Finished matches, kept as game records (``capicua-record/1``), and who played each."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from capicua.service.store.database import Database
from capicua.service.store.schema import RecordRow, RecordSeatRow

__all__ = ["RecordStore", "SqlRecordStore"]


class RecordStore(Protocol):
    async def save(
        self, table_id: str, match_no: int, variant: str, players: list[str], winner: int | None, record: dict[str, Any]
    ) -> int: ...

    async def find(self, table_id: str, match_no: int) -> RecordRow | None: ...

    async def of_table(self, table_id: str) -> list[RecordRow]: ...

    async def get(self, record_id: int) -> RecordRow | None: ...

    async def of_player(self, player_id: str, limit: int = 50) -> list[tuple[RecordRow, int]]: ...


class SqlRecordStore:
    """:class:`RecordStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def save(
        self, table_id: str, match_no: int, variant: str, players: list[str], winner: int | None, record: dict[str, Any]
    ) -> int:
        """Store a finished match and return its record's id; a match already stored keeps the
        record it has (saving is idempotent by table and match number). The people who played it
        (``record["player_ids"]``, one per seat, None for a bot) find it in their match history
        (:meth:`of_player`)."""
        found = await self.find(table_id, match_no)
        if found is not None:
            return found.id
        row = RecordRow(
            table_id=table_id, match_no=match_no, variant=variant, players=players, winner=winner, record=record
        )
        try:
            async with self.db.writing(), self.db.sessions() as session, session.begin():
                session.add(row)
                await session.flush()  # the record's id
                for seat, player_id in enumerate(record.get("player_ids") or []):
                    if player_id:
                        session.add(RecordSeatRow(record_id=row.id, seat=seat, player_id=player_id))
        except IntegrityError:  # saved meanwhile by another node
            again = await self.find(table_id, match_no)
            if again is None:
                raise
            return again.id
        return row.id

    async def find(self, table_id: str, match_no: int) -> RecordRow | None:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(RecordRow).where(RecordRow.table_id == table_id, RecordRow.match_no == match_no)
            )
            return result.scalar_one_or_none()

    async def of_table(self, table_id: str) -> list[RecordRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(RecordRow).where(RecordRow.table_id == table_id).order_by(RecordRow.match_no)
            )
            return list(result.scalars())

    async def get(self, record_id: int) -> RecordRow | None:
        async with self.db.sessions() as session:
            return await session.get(RecordRow, record_id)

    async def of_player(self, player_id: str, limit: int = 50) -> list[tuple[RecordRow, int]]:
        """The finished matches a player sat in, newest first, with his seat in each."""
        async with self.db.sessions() as session:
            result = await session.execute(
                select(RecordRow, RecordSeatRow.seat)
                .join(RecordSeatRow, RecordSeatRow.record_id == RecordRow.id)
                .where(RecordSeatRow.player_id == player_id)
                .order_by(RecordRow.finished_at.desc(), RecordRow.id.desc())
                .limit(limit)
            )
            return [(row, seat) for row, seat in result.all()]
