"""Finished matches as people look them up: a table's records, one record, a player's history.

The records are written by :class:`~capicua.service.results.RecordSaver` when a match ends; this is the
reading side, so that the web layer asks a service and never the store.
"""

from __future__ import annotations

from capicua.service.errors import ServiceError
from capicua.service.store import RecordStore
from capicua.service.store.schema import RecordRow

__all__ = ["Records"]


class Records:
    """Reads the stored records of finished matches."""

    def __init__(self, store: RecordStore) -> None:
        self.store = store

    async def of_table(self, table_id: str) -> list[RecordRow]:
        """A table's finished matches, in the order they were played."""
        return await self.store.of_table(table_id)

    async def get(self, record_id: int) -> RecordRow:
        """One record; ``not-found`` if there is none of that id."""
        row = await self.store.get(record_id)
        if row is None:
            raise ServiceError("not-found", f"no record {record_id}")
        return row

    async def of_player(self, player_id: str) -> list[tuple[RecordRow, int]]:
        """A player's finished matches, newest first, each with the seat he had."""
        return await self.store.of_player(player_id)
