"""The bus and what listens on it: a match's end is published, the record saver keeps one record a
match however often it hears of it, and the searching bots think in a worker process."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from capicua.bots.registry import make_bot
from capicua.rules import Match, variants
from capicua.rules.randomgame import random_match
from capicua.rules.record import Record
from capicua.service.bus import LocalBus, MatchEnded
from capicua.service.identity import Identity
from capicua.service.results import RecordSaver
from capicua.service.store import Store
from capicua.service.tables import BotPool, Table, TableConfig, TableService
from tests.aio import run_async


def ended(table_id: str, match: Match, match_no: int = 1) -> MatchEnded:
    assert match.outcome is not None
    names = [f"P{k}" for k in range(match.players)]
    ids: list[str | None] = [f"g:{k}" for k in range(match.players)]
    record = Record.from_match(match, names).to_json()
    record["player_ids"] = ids
    return MatchEnded(table_id, match_no, match.variant.name, match.outcome, names, ids, record)


def test_local_bus_delivers_in_order_and_a_failing_handler_reaches_the_publisher() -> None:
    async def body() -> list[str]:
        bus = LocalBus()
        heard: list[str] = []

        async def first(event: Any) -> None:
            heard.append(f"first {event.match_id}")

        async def second(event: Any) -> None:
            heard.append(f"second {event.match_id}")
            if event.match_no == 2:
                raise RuntimeError("the database is down")

        bus.subscribe(MatchEnded.topic, first)
        bus.subscribe(MatchEnded.topic, second)
        match = random_match("individual", seed=1, players=2)
        await bus.publish(ended("t1", match))
        with pytest.raises(RuntimeError):
            await bus.publish(ended("t1", match, 2))
        return heard

    assert run_async(body()) == ["first t1/1", "second t1/1", "first t1/2", "second t1/2"]


def test_record_saver_keeps_one_record_a_match(store_url: str) -> None:
    """At least once delivery: the end of a match published again (a crash between publishing and the
    ``end`` event) saves nothing more."""

    async def body() -> None:
        store = Store(store_url)
        await store.open()
        try:
            bus = LocalBus()
            RecordSaver(store.records).attach(bus)
            table = await store.events.create_table("dominousa", 4, {}, False, "g:0")
            match = random_match("dominousa", seed=2)
            for _ in range(3):
                await bus.publish(ended(table.id, match))
            await bus.publish(ended(table.id, match, 2))
            rows = await store.records.of_table(table.id)
            assert [r.match_no for r in rows] == [1, 2]
            assert rows[0].winner == match.winner and rows[0].record["variant"] == "dominousa"
            history = await store.records.of_player("g:1")
            assert sorted(r.match_no for r, seat in history if seat == 1) == [1, 2]
        finally:
            await store.close()

    run_async(body())


def test_a_searching_bot_thinks_in_a_worker_process() -> None:
    async def body() -> tuple[Any, ...]:
        pool = BotPool(1)
        try:
            m = Match(variants.get("dominousa"), seed=4)
            hand = m.deal()
            view = hand.view(hand.turn)
            move = await pool.decide("expert:20", 7, view)
            again = await pool.decide("expert:20", 7, view)
            assert pool._pool is not None  # started by the first search
            pid = await asyncio.get_running_loop().run_in_executor(pool._pool, os.getpid)
            return move, again, view.legal_moves, pid
        finally:
            pool.close()

    move, again, legal, pid = run_async(body())
    assert move in legal and again in legal
    assert pid != os.getpid()
    assert make_bot("expert:20").searches and not BotPool(0).workers


async def bots_match(service: TableService) -> Table:
    """A table of two greedy bots playing a short individual match (they move at once)."""
    owner = Identity("g:owner", "Owner", True, False)
    table = await service.create(owner, "individual", 2, {"target": 10, "pause_seconds": 0}, False)
    await table.fill_bots(owner, "greedy")
    await table.start(owner)
    return table


def test_a_match_end_a_listener_could_not_take_is_tried_again_until_it_is(store_url: str) -> None:
    """A listener of the match's end that fails (its database away for a moment) holds the end back:
    the table tries again (1, 2, 4… × ``retry_after``) and finishes its match without a restart."""

    async def body() -> tuple[list[int], str, int]:
        store = Store(store_url)
        await store.open()
        bus = LocalBus()
        tries: list[int] = []

        async def flaky(event: MatchEnded) -> None:
            tries.append(event.match_no)
            if len(tries) <= 2:
                raise RuntimeError("the ratings' database is away")

        bus.subscribe(MatchEnded.topic, flaky)
        config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0, retry_after=0.05)
        service = TableService(store.events, bus, config)
        try:
            table = await bots_match(service)
            ends = 0
            for _ in range(500):  # until the end is stored (the table's status changes a moment before)
                ends = sum(e.kind == "end" for e in await store.events.read(table.id))
                if ends:
                    break
                await asyncio.sleep(0.02)
            return tries, table.status, ends
        finally:
            await service.aclose()
            await store.close()

    tries, status, ends = run_async(body())
    assert tries == [1, 1, 1]  # failed twice, taken the third time
    assert status == "finished" and ends == 1


def test_a_table_left_at_its_match_end_is_rebuilt_once_when_two_ask_for_it_together(store_url: str) -> None:
    """After a crash between a match's end and its ``end`` event, the restart's loading publishes the end
    again; a listener fetching the same table meanwhile gets that same Table, and ``end`` is written once."""

    async def body() -> tuple[bool, int, list[str]]:
        store = Store(store_url)
        await store.open()
        down = TableService(store.events, LocalBus(), TableConfig(bot_delay=0, bot_workers=0, retry_after=3600))

        async def away(event: MatchEnded) -> None:
            raise RuntimeError("the database is away")

        down.bus.subscribe(MatchEnded.topic, away)
        table = await bots_match(down)
        for _ in range(500):  # the match is over and its end could not be written
            if table.match is not None and table.match.is_over():
                break
            await asyncio.sleep(0.02)
        await down.aclose()
        bus = LocalBus()
        up = TableService(store.events, bus, TableConfig(bot_delay=0, bot_workers=0))
        heard: list[str] = []
        fetches: list[asyncio.Task[Any]] = []

        async def fetch_it(event: MatchEnded) -> None:
            heard.append(event.match_id)
            # as the tournaments' listener does: it moves the tournament on in a task of its own, which
            # fetches the round's tables
            fetches.append(asyncio.ensure_future(up.fetch(event.table_id)))

        bus.subscribe(MatchEnded.topic, fetch_it)
        try:
            _, other = await asyncio.wait_for(asyncio.gather(up.load(), up.fetch(table.id)), 30)
            fetched = await asyncio.wait_for(asyncio.gather(*fetches), 30)
            same = up.tables[table.id] is other and all(t is other for t in fetched)
            ends = sum(e.kind == "end" for e in await store.events.read(table.id))
            return same, ends, heard
        finally:
            await up.aclose()
            await store.close()

    same, ends, heard = run_async(body())
    assert same and ends == 1 and len(heard) == 1
