"""What is done once for all the nodes, with the node doing it killed in the middle: the weekly close (D4) and a
tournament's round. Two nodes share one database; the first stops dead half-way (an exception that nothing
catches, as a kill -9 would leave it), the second, leading now, finishes the work; then both do it at once.
Each week is closed once with its medals, each round paired once with one table a board."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest
from sqlalchemy import func, select

from capicua.rules import variants
from capicua.service.ratings.service import Ratings
from capicua.service.ratings.weekly import week_start
from capicua.service.store import Store
from capicua.service.store.schema import MedalRow, WeekClosedRow
from tests.aio import run_async
from tests.service.test_ratings import SP, Clock, ended, fresh
from tests.service.test_relay import names, node
from tests.service.test_tournaments import START, field
from tests.service.test_tournaments import Clock as TournamentClock


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
            (game, week_start(first_monday + dt.timedelta(days=7 * w), a.tz)) for game in games for w in range(weeks)
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
        assert list(await asyncio.gather(a.close_weeks(), b.close_weeks())) == [0, 0]  # both at once: nothing more
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


def test_C10_a_round_is_paired_once_when_the_directors_node_dies_between_its_tables_and_its_pairing(
    empty_store_url: str,
) -> None:
    """The director opens a round's tables, then writes the pairing. Its node dies in between: the next leader
    pairs the round once, and closes the tables that the dead node opened for a pairing never written."""

    async def body() -> None:
        a_name, b_name = names()
        clock = TournamentClock()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        for platform in (a, b):
            platform.tournaments.ctx.clock = clock
        f = await field(a, 5, rounds=3)  # five teams: two boards and a bye
        clock.now = START

        pairing = a.store.tournaments.pair_round

        async def dies(*args: Any, **kwargs: Any) -> bool:
            raise Killed

        a.store.tournaments.pair_round = dies  # type: ignore[method-assign]
        with pytest.raises(Killed):
            await a.tournaments.sweep()  # the tournament is due: a starts it, opens round 1's tables, dies
        strays = await b.tables.open_round_tables(f.t.id)
        assert len(strays) == 2, "the dead node had opened the round's two tables"
        assert await f.boards(1) == []
        a.store.tournaments.pair_round = pairing  # type: ignore[method-assign]
        await asyncio.gather(b.tournaments.sweep(), b.tournaments.sweep())  # the next leader (twice at once)
        boards = await f.boards(1)
        assert sorted(x.board for x in boards) == [1, 2, 3] and sum(x.kind == "bye" for x in boards) == 1
        played = {x.table_id for x in boards if x.table_id}
        assert len(played) == 2 and not played & set(strays)
        assert set(await b.tables.open_round_tables(f.t.id)) == played, "a stray table was left open"
        for table_id in strays:
            summary = await b.router.call(table_id, "summary", None)
            assert summary["status"] == "finished"
        row = await f.row()
        assert row.current_round == 1
        await a.tournaments.sweep()  # a, alive again and leading for a moment: nothing more
        assert [board_key(x) for x in await f.boards(1)] == [board_key(x) for x in boards]
        assert (await f.row()).current_round == 1
        await a.close()
        await b.close()

    run_async(body())


def board_key(board: Any) -> tuple[Any, ...]:
    return (board.board, board.team_a, board.team_b, board.table_id, board.status, board.kind)
