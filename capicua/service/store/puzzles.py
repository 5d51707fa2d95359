"""Puzzles (capicua.bots.puzzles) with their source and rating, people's puzzle ratings and first tries."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import exists, func, select
from sqlalchemy.exc import IntegrityError

from capicua.service.store.database import Database
from capicua.service.store.schema import PuzzleAttemptRow, PuzzleRatingRow, PuzzleRow, RecordRow, TableRow, now

__all__ = ["Glicko", "NewPuzzle", "PuzzleStore", "SqlPuzzleStore"]


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating: rating, deviation, volatility."""

    rating: float
    rd: float
    vol: float


@dataclass(frozen=True)
class NewPuzzle:
    key: str
    variant: str
    source: str
    record_id: int | None
    seed: int | None
    decision: int
    hand: int
    action: int
    themes: list[str]
    data: dict[str, Any]


class PuzzleStore(Protocol):
    async def add(self, puzzle: NewPuzzle, rating: Glicko) -> int | None: ...

    async def get(self, puzzle_id: int) -> PuzzleRow | None: ...

    async def near(
        self, rating: float, player_id: str | None, exclude: Sequence[int], pool: int = 8
    ) -> list[PuzzleRow]: ...

    async def count(self, before: dt.datetime | None = None) -> int: ...

    async def nth(self, index: int, before: dt.datetime | None = None) -> PuzzleRow | None: ...

    async def rating_of(self, player_id: str) -> PuzzleRatingRow | None: ...

    async def attempt(
        self, player_id: str, puzzle_id: int, move: str, won: bool, player: Glicko, puzzle: Glicko, change: float
    ) -> bool: ...

    async def tried(self, player_id: str, puzzle_id: int) -> PuzzleAttemptRow | None: ...

    async def public_records(self, limit: int) -> list[RecordRow]: ...

    async def has_key(self, key: str) -> bool: ...


class SqlPuzzleStore:
    """:class:`PuzzleStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, puzzle: NewPuzzle, rating: Glicko) -> int | None:
        """Keep a puzzle; its id, or None when one from the same source (``key``) is kept already."""
        row = PuzzleRow(
            key=puzzle.key,
            variant=puzzle.variant,
            source=puzzle.source,
            record_id=puzzle.record_id,
            seed=puzzle.seed,
            decision=puzzle.decision,
            hand=puzzle.hand,
            action=puzzle.action,
            themes=list(puzzle.themes),
            data=puzzle.data,
            rating=rating.rating,
            rd=rating.rd,
            vol=rating.vol,
            plays=0,
            created_at=now(),
        )
        try:
            async with self.db.writing(), self.db.sessions() as session, session.begin():
                session.add(row)
                await session.flush()
                return row.id
        except IntegrityError:
            return None

    async def has_key(self, key: str) -> bool:
        async with self.db.sessions() as session:
            return (await session.scalar(select(PuzzleRow.id).where(PuzzleRow.key == key))) is not None

    async def get(self, puzzle_id: int) -> PuzzleRow | None:
        async with self.db.sessions() as session:
            return await session.get(PuzzleRow, puzzle_id)

    async def near(
        self, rating: float, player_id: str | None, exclude: Sequence[int], pool: int = 8
    ) -> list[PuzzleRow]:
        """The ``pool`` puzzles rated nearest ``rating`` that ``player_id`` never tried, none of ``exclude``."""
        query = select(PuzzleRow)
        if exclude:
            query = query.where(PuzzleRow.id.not_in(list(exclude)))
        if player_id is not None:
            tried = exists().where(PuzzleAttemptRow.player_id == player_id, PuzzleAttemptRow.puzzle_id == PuzzleRow.id)
            query = query.where(~tried)
        query = query.order_by(func.abs(PuzzleRow.rating - rating), PuzzleRow.id).limit(pool)
        async with self.db.sessions() as session:
            return list((await session.scalars(query)).all())

    async def count(self, before: dt.datetime | None = None) -> int:
        """How many puzzles are kept (``before``: kept before that moment)."""
        query = select(func.count()).select_from(PuzzleRow)
        if before is not None:
            query = query.where(PuzzleRow.created_at < before)
        async with self.db.sessions() as session:
            return int(await session.scalar(query) or 0)

    async def nth(self, index: int, before: dt.datetime | None = None) -> PuzzleRow | None:
        """The puzzle at ``index`` in the order they were kept (``before``: among those kept before that moment)."""
        query = select(PuzzleRow)
        if before is not None:
            query = query.where(PuzzleRow.created_at < before)
        async with self.db.sessions() as session:
            return await session.scalar(query.order_by(PuzzleRow.id).offset(index).limit(1))

    async def rating_of(self, player_id: str) -> PuzzleRatingRow | None:
        async with self.db.sessions() as session:
            return await session.get(PuzzleRatingRow, player_id)

    async def tried(self, player_id: str, puzzle_id: int) -> PuzzleAttemptRow | None:
        async with self.db.sessions() as session:
            return await session.get(PuzzleAttemptRow, (player_id, puzzle_id))

    async def attempt(
        self, player_id: str, puzzle_id: int, move: str, won: bool, player: Glicko, puzzle: Glicko, change: float
    ) -> bool:
        """A person's first try at a puzzle, and both new ratings, in one transaction; False (nothing changed)
        when he had tried it already."""
        try:
            async with self.db.writing(), self.db.sessions() as session, session.begin():
                session.add(
                    PuzzleAttemptRow(
                        player_id=player_id, puzzle_id=puzzle_id, move=move, won=won, change=change, at=now()
                    )
                )
                await session.flush()  # a second try stops here (the primary key)
                mine = await session.get(PuzzleRatingRow, player_id)
                if mine is None:
                    mine = PuzzleRatingRow(player_id=player_id, plays=0)
                    session.add(mine)
                mine.rating, mine.rd, mine.vol = player.rating, player.rd, player.vol
                mine.plays = (mine.plays or 0) + 1
                mine.updated_at = now()
                row = await session.get(PuzzleRow, puzzle_id)
                if row is not None:
                    row.rating, row.rd, row.vol = puzzle.rating, puzzle.rd, puzzle.vol
                    row.plays += 1
            return True
        except IntegrityError:
            return False

    async def public_records(self, limit: int) -> list[RecordRow]:
        """The ``limit`` latest finished matches of public tables (none of a private table)."""
        query = (
            select(RecordRow)
            .join(TableRow, TableRow.id == RecordRow.table_id)
            .where(TableRow.private.is_(False))
            .order_by(RecordRow.id.desc())
            .limit(limit)
        )
        async with self.db.sessions() as session:
            return list((await session.scalars(query)).all())


def day_index(day: dt.date, count: int) -> int:
    """Which of ``count`` puzzles is ``day``'s: a fixed walk through them, a different one each day."""
    return (day.toordinal() * 7919) % count if count else 0
