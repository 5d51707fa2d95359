"""What happens when a match ends, as listeners of the bus: each one idempotent by match.

:class:`RecordSaver` keeps every finished match as a game record (its players find it in their
history). Ratings and tournaments subscribe the same way.
"""

from __future__ import annotations

from capicua.service.bus import Bus, MatchEnded
from capicua.service.store import RecordStore

__all__ = ["RecordSaver"]


class RecordSaver:
    """Saves the record of every match that ends; a match saved already keeps its record."""

    def __init__(self, records: RecordStore) -> None:
        self.records = records

    def attach(self, bus: Bus) -> RecordSaver:
        bus.subscribe(MatchEnded.topic, self.on_match_ended)
        return self

    async def on_match_ended(self, event: MatchEnded) -> None:
        await self.records.save(
            event.table_id, event.match_no, event.variant, event.names, event.outcome.winner, event.record
        )
