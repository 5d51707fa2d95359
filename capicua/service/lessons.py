"""Guided first hands (issue 22, item 4): a lesson's table, from the lesson's data (:mod:`capicua.bots.lessons`)."""

from __future__ import annotations

from capicua.bots import lessons
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.tables import TableService
from capicua.service.tables.table import Table

__all__ = ["Lessons"]


class Lessons:
    """The lessons' tables, made by the table service like any other."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables

    async def start(self, who: Identity, game: str) -> Table:
        """A guided first hand of ``game`` for ``who``: a private, casual table (not in the lobby, never rated)
        whose options carry ``lesson`` (its first hand is the lesson's deal, ``flow.deal_data``), ``who`` at the
        lesson's seat and its scripted bots at the others, started at once."""
        try:
            lesson = lessons.get(game)
        except ValueError as exc:
            raise ServiceError("not-found", str(exc)) from None
        options = {k: v for k, v in lesson.options.items() if k != "lesson"}
        table = await self.tables.create(who, lesson.game, lesson.players, options, private=True, lesson=game)
        await table.join(who, lesson.seat, table.invite)
        await table.fill_bots(None, f"lesson:{game}")
        await table.start(None)
        return table
