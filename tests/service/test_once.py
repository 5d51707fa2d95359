"""What is done once for all the nodes, with the node doing it killed in the middle: the weekly close (D4) and a
tournament's round. Two nodes share one database; the first stops dead half-way (an exception that nothing
catches, as a kill -9 would leave it), the second, leading now, finishes the work; then both do it at once.
Each week is closed once with its medals, each round paired once with one table a board."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from sqlalchemy import func, select

from capicua.rules import variants
from capicua.service.ratings.service import Ratings
from capicua.service.ratings.weekly import week_start
from capicua.service.store import Store
from capicua.service.store.schema import MedalRow, WeekClosedRow
from tests.aio import run_async
from tests.service.test_ratings import SP, Clock, ended, fresh


class Killed(BaseException):
    """The node died here: nothing after this line of its work happens."""


def test_D4_each_week_is_closed_once_when_the_closing_node_dies_half_way(empty_store_url: str) -> None:
    games = ["amazonense", "dominousa", "individual"]
    first_monday = dt.datetime(2026, 11, 2, 12, 0, tzinfo=SP)
    weeks = 4
    after = first_monday + dt.timedelta(days=7 * weeks, hours=1)  # every one of those weeks has ended

    async def body() -> None:
        store_a, store_b = Store(empty_store_url), Store(empty_store_url)
        await store_a.open()
        await store_b.open()
        clock = Clock(first_monday)
        a = Ratings(store_a.ratings, store_a.accounts.names, clock=clock)
        b = Ratings(store_b.ratings, store_b.accounts.names, clock=clock)
        for game in games:
            size = 4 if variants.get(game).partnerships else 3
            players = fresh(f"once-{game[:3]}-", size)
            for week in range(weeks):
                at = first_monday + dt.timedelta(days=7 * week + 1)
                for k in range(2):
                    await a.on_match_ended(
                        ended(game, players, (week + k) % size if size == 3 else k % 2, 10 * week + k, at)
                    )
        clock.now = after
        expected = {
            (game, week_start(first_monday + dt.timedelta(days=7 * w), SP)) for game in games for w in range(weeks)
        }

        closing = store_a.ratings.close_week
        done_by_a: list[tuple[str, dt.date]] = []

        async def dies_after_one(game: str, week: dt.date, medals: list[tuple[int, str, float]]) -> bool:
            if done_by_a:
                raise Killed
            closed = await closing(game, week, medals)
            done_by_a.append((game, week))
            return closed

        store_a.ratings.close_week = dies_after_one  # type: ignore[method-assign]
        try:
            await a.close_weeks()
            raise AssertionError("the node was to die half-way")
        except Killed:
            pass
        assert len(done_by_a) == 1
        medals_of_a = await store_b.ratings.medals(*done_by_a[0])
        assert medals_of_a, "the week closed first has its medals"
        assert await b.close_weeks() == len(expected) - 1  # the next leader closes the rest, not the first again
        store_a.ratings.close_week = closing  # type: ignore[method-assign]
        assert await asyncio.gather(a.close_weeks(), b.close_weeks()) == [0, 0]  # both at once: nothing more
        assert await weeks_closed(store_b) == {key: 1 for key in expected}
        medals = await medal_rows(store_b)
        for key in expected:
            places = [place for (game, week, place) in medals if (game, week) == key]
            assert sorted(places) == list(range(1, len(places) + 1)) and places, (key, places)
        assert [(m.place, m.player_id) for m in await store_b.ratings.medals(*done_by_a[0])] == [
            (m.place, m.player_id) for m in medals_of_a
        ], "the week the dead node closed was closed again"
        await store_a.close()
        await store_b.close()

    run_async(body())


async def weeks_closed(store: Store) -> dict[tuple[str, dt.date], int]:
    async with store.db.sessions() as session:
        rows = await session.execute(
            select(WeekClosedRow.game, WeekClosedRow.week_start, func.count()).group_by(
                WeekClosedRow.game, WeekClosedRow.week_start
            )
        )
        return {(game, week): n for game, week, n in rows}


async def medal_rows(store: Store) -> list[tuple[str, dt.date, int]]:
    async with store.db.sessions() as session:
        rows: Any = await session.execute(select(MedalRow.game, MedalRow.week_start, MedalRow.place))
        return [(game, week, place) for game, week, place in rows]
