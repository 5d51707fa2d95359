"""Issue 22, item 9: a table whose seats are all taken starts by itself after its countdown (``autostart``, kept
with the table), the summary says when (``starts_at``), a seat left stops the count, a player may start
sooner, and the node that takes the table over (or the same node restarted) keeps the appointment.

On SQLite and on PostgreSQL (the column is new: migration 0016).
"""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from capicua.service.errors import ServiceError
from tests.aio import run_async
from tests.service.test_nodes import OPTIONS, SEATS, node, until


def test_a_full_table_counts_down_and_starts_by_itself(empty_store_url: str) -> None:
    async def body() -> None:
        a = await node(empty_store_url, "a", lease=60)
        table = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False, autostart=2)
        assert table.summary()["autostart"] == 2
        for seat, who in enumerate(SEATS[:3]):
            await table.join(who, seat, None)
        assert table.summary()["starts_at"] is None  # a seat is free: nothing to count
        before = dt.datetime.now(dt.UTC)
        await table.join(SEATS[3], 3, None)
        starts_at = table.summary()["starts_at"]
        assert starts_at is not None
        at = dt.datetime.fromisoformat(starts_at)
        assert before + dt.timedelta(seconds=2) <= at + dt.timedelta(milliseconds=5)
        assert at <= dt.datetime.now(dt.UTC) + dt.timedelta(seconds=2)
        # A seat left stops the count; taken again, the count begins again.
        await table.leave(SEATS[3])
        assert table.summary()["starts_at"] is None and table.status == "open"
        await asyncio.sleep(2.2)
        assert table.status == "open", "a table with a free seat started"
        await table.join(SEATS[3], 3, None)
        again = dt.datetime.fromisoformat(table.summary()["starts_at"])
        assert again > at + dt.timedelta(seconds=2)
        await until(lambda: table.status == "playing", timeout=10)
        assert dt.datetime.now(dt.UTC) >= again - dt.timedelta(milliseconds=50), "it started before its time"
        assert table.summary()["starts_at"] is None
        await a.close()

    run_async(body())


def test_without_autostart_a_full_table_waits_and_a_player_may_start_before_the_count(empty_store_url: str) -> None:
    async def body() -> None:
        a = await node(empty_store_url, "a", lease=60)
        waits = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False)  # autostart None
        counts = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False, autostart=30)
        for table in (waits, counts):
            for seat, who in enumerate(SEATS):
                await table.join(who, seat, None)
        assert waits.summary()["starts_at"] is None and waits.summary()["autostart"] is None
        assert counts.summary()["starts_at"] is not None
        await counts.start(SEATS[0])  # "Começar", kept for the players
        assert counts.status == "playing" and counts.summary()["starts_at"] is None
        with pytest.raises(ServiceError) as started:
            await counts.start(SEATS[1])
        assert started.value.code == "started"
        await asyncio.sleep(0.3)
        assert waits.status == "open"
        await a.close()

    run_async(body())


def test_the_countdown_outlives_its_node(empty_store_url: str) -> None:
    """The node that runs a counting table shuts down; the node that takes it over starts it at the same moment,
    counted from the event of the last seat taken (not from the takeover)."""

    async def body() -> None:
        a, b = await node(empty_store_url, "a", lease=60), await node(empty_store_url, "b", lease=60)
        table = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False, autostart=3)
        for seat, who in enumerate(SEATS):
            await table.join(who, seat, None)
        at = dt.datetime.fromisoformat(table.summary()["starts_at"])
        await a.close()
        assert table.status == "open"
        await until(lambda: table.id in b.tables.tables, timeout=10)
        taken = b.tables.get(table.id)
        assert taken.state.autostart == 3  # kept with the table
        assert abs((dt.datetime.fromisoformat(taken.summary()["starts_at"]) - at).total_seconds()) < 0.5
        await until(lambda: taken.status == "playing", timeout=15)
        assert dt.datetime.now(dt.UTC) >= at - dt.timedelta(milliseconds=500), "it started before its time"
        await b.close()

    run_async(body())
