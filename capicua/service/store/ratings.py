"""Ratings: each player's rating per game, what every rated match changed, and the weekly medals."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy import and_, func, insert, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from capicua.service.store.database import Database
from capicua.service.store.schema import MedalRow, RatingChangeRow, RatingRow, WeekClosedRow

__all__ = ["RatingStore", "SqlRatingStore"]


class RatingStore(Protocol):
    async def ratings(self, player_ids: Sequence[str], game: str) -> dict[str, RatingRow]: ...

    async def ratings_of(self, player_id: str) -> list[RatingRow]: ...

    async def applied(self, match_id: str) -> list[RatingChangeRow]: ...

    async def apply(self, changes: list[dict[str, Any]], ratings: list[dict[str, Any]]) -> bool: ...

    async def meetings(self, a: str, b: str, game: str, since: dt.datetime, players: int) -> int: ...

    async def changes_between(self, game: str, begin: dt.datetime, end: dt.datetime) -> list[RatingChangeRow]: ...

    async def changes_of(self, player_id: str, game: str | None = None, limit: int = 500) -> list[RatingChangeRow]: ...

    async def leaderboard(
        self, game: str, active_since: dt.datetime, sigma_below: float, games_from: int, limit: int
    ) -> list[RatingRow]: ...

    async def first_change(self, game: str) -> dt.datetime | None: ...

    async def closed_weeks(self, game: str) -> set[dt.date]: ...

    async def close_week(self, game: str, week: dt.date, medals: list[tuple[int, str, float]]) -> bool: ...

    async def medals(self, game: str, week: dt.date) -> list[MedalRow]: ...

    async def medals_of(self, player_id: str) -> list[MedalRow]: ...


class SqlRatingStore:
    """:class:`RatingStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def ratings(self, player_ids: Sequence[str], game: str) -> dict[str, RatingRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(RatingRow).where(RatingRow.game == game, RatingRow.player_id.in_(list(player_ids)))
            )
            return {r.player_id: r for r in result.scalars()}

    async def ratings_of(self, player_id: str) -> list[RatingRow]:
        async with self.db.sessions() as session:
            result = await session.execute(select(RatingRow).where(RatingRow.player_id == player_id))
            return list(result.scalars())

    async def applied(self, match_id: str) -> list[RatingChangeRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(RatingChangeRow).where(RatingChangeRow.match_id == match_id).order_by(RatingChangeRow.seat)
            )
            return list(result.scalars())

    async def apply(self, changes: list[dict[str, Any]], ratings: list[dict[str, Any]]) -> bool:
        """Write one match's changes and the players' new ratings in one transaction; False (and nothing
        written) if that match was applied already: the unique (match, player) index says so."""
        upsert = (pg_insert if self.db.url.startswith("postgresql") else sqlite_insert)(RatingRow)
        upsert = upsert.on_conflict_do_update(
            index_elements=[RatingRow.player_id, RatingRow.game],
            set_={c: upsert.excluded[c] for c in ("rating", "mu", "sigma", "games", "wins", "updated_at")},
        )
        try:
            async with self.db.writing(), self.db.engine.begin() as conn:
                if changes:
                    await conn.execute(insert(RatingChangeRow), changes)
                if ratings:
                    await conn.execute(upsert, ratings)
        except IntegrityError:
            return False
        return True

    async def meetings(self, a: str, b: str, game: str, since: dt.datetime, players: int) -> int:
        """Rated matches of ``game`` with ``players`` players where ``a`` and ``b`` both played, since ``since``."""
        mine, theirs, seated = aliased(RatingChangeRow), aliased(RatingChangeRow), aliased(RatingChangeRow)
        # The size of each of a's matches, counted on its own rows (the match/player index), not by grouping
        # every match of the window: the query reads a's matches of the window and nothing more.
        size = select(func.count()).where(seated.match_id == mine.match_id).scalar_subquery()
        query = (
            select(func.count())
            .select_from(mine)
            .join(theirs, and_(theirs.match_id == mine.match_id, theirs.player_id == b))
            .where(mine.player_id == a, mine.game == game, mine.at >= since, size == players)
        )
        async with self.db.sessions() as session:
            return int((await session.execute(query)).scalar_one())

    async def changes_between(self, game: str, begin: dt.datetime, end: dt.datetime) -> list[RatingChangeRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(RatingChangeRow)
                .where(RatingChangeRow.game == game, RatingChangeRow.at >= begin, RatingChangeRow.at < end)
                .order_by(RatingChangeRow.at, RatingChangeRow.id)
            )
            return list(result.scalars())

    async def changes_of(self, player_id: str, game: str | None = None, limit: int = 500) -> list[RatingChangeRow]:
        """A player's rated matches, oldest first (his rating history)."""
        query = select(RatingChangeRow).where(RatingChangeRow.player_id == player_id)
        if game is not None:
            query = query.where(RatingChangeRow.game == game)
        async with self.db.sessions() as session:
            result = await session.execute(
                query.order_by(RatingChangeRow.at.desc(), RatingChangeRow.id.desc()).limit(limit)
            )
            return list(reversed(list(result.scalars())))

    async def leaderboard(
        self, game: str, active_since: dt.datetime, sigma_below: float, games_from: int, limit: int
    ) -> list[RatingRow]:
        """The best established players of ``game`` who played since ``active_since``."""
        established = or_(
            and_(RatingRow.sigma.is_not(None), RatingRow.sigma <= sigma_below),
            and_(RatingRow.sigma.is_(None), RatingRow.games >= games_from),
        )
        async with self.db.sessions() as session:
            result = await session.execute(
                select(RatingRow)
                .where(RatingRow.game == game, RatingRow.updated_at >= active_since, established)
                .order_by(RatingRow.rating.desc(), RatingRow.player_id)
                .limit(limit)
            )
            return list(result.scalars())

    async def first_change(self, game: str) -> dt.datetime | None:
        async with self.db.sessions() as session:
            query = select(func.min(RatingChangeRow.at)).where(RatingChangeRow.game == game)
            return (await session.execute(query)).scalar()

    async def closed_weeks(self, game: str) -> set[dt.date]:
        async with self.db.sessions() as session:
            result = await session.execute(select(WeekClosedRow.week_start).where(WeekClosedRow.game == game))
            return set(result.scalars())

    async def close_week(self, game: str, week: dt.date, medals: list[tuple[int, str, float]]) -> bool:
        """Mark the week closed and give its medals, in one transaction; False if it was closed already."""
        try:
            async with self.db.writing(), self.db.sessions() as session, session.begin():
                session.add(WeekClosedRow(game=game, week_start=week))
                await session.flush()
                for place, player_id, score in medals:
                    session.add(MedalRow(game=game, week_start=week, place=place, player_id=player_id, score=score))
        except IntegrityError:
            return False
        return True

    async def medals(self, game: str, week: dt.date) -> list[MedalRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(MedalRow).where(MedalRow.game == game, MedalRow.week_start == week).order_by(MedalRow.place)
            )
            return list(result.scalars())

    async def medals_of(self, player_id: str) -> list[MedalRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(MedalRow).where(MedalRow.player_id == player_id).order_by(MedalRow.week_start.desc())
            )
            return list(result.scalars())
