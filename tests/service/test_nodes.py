"""Several nodes on one database: each table is run by one node under a fencing token, a node that lost a
table can no longer write it, and the tables of a node that died or shut down are taken over by another.

Every test runs on SQLite and on PostgreSQL (two platforms in this process share the database, as two
``capicua serve`` would). The processes themselves (kill -9, SIGSTOP) are in ``tests/web/test_nodes_processes.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from capicua.service.errors import ServiceError
from capicua.service.identity import SECRET_LENGTH, Identity, SecretError, load_secret
from capicua.service.platform import Platform
from capicua.service.store import LeaseLost, Store
from capicua.service.tables import Subscriber, Table, TableConfig
from tests.aio import run_async
from tests.pg import ADMIN_DSN, admin, sqlalchemy_url

SEATS = [Identity(f"g:{name.lower()}-nodes", name) for name in ("Ana", "Bia", "Caio", "Duda")]
CONFIG = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)
#: Short leases: a paused node loses its tables within a second or two.
LEASE = 1.0
OPTIONS = {"target": 60, "pause_seconds": 0, "auto_pass": False}


async def until(check: Callable[[], Awaitable[bool] | bool], timeout: float = 20.0) -> None:
    """Wait until ``check()`` holds (it is looked at every 50 ms), or fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = check()
        if result if isinstance(result, bool) else await result:
            return
        assert loop.time() < deadline, "timed out waiting"
        await asyncio.sleep(0.05)


async def node(url: str, name: str, lease: float = LEASE) -> Platform:
    platform = Platform(Store(url), "s" * 40, CONFIG, node=name, lease_seconds=lease, sweeps=False)
    platform.node.scan_every = 0.1
    await platform.open()
    return platform


async def four_people(platform: Platform) -> Table:
    """A Dominousa table with four people seated and its match started: it waits for them to play."""
    table = await platform.tables.create(SEATS[0], "dominousa", None, OPTIONS, False)
    for seat, who in enumerate(SEATS):
        await table.join(who, seat, None)
    await table.start(SEATS[0])
    return table


async def play_one(table: Table) -> int:
    """The seat to play makes its first legal move; the event number."""
    match = table.match
    assert match is not None
    seat = match.hand.turn
    legal = table.state_for(seat)["hand"]["legal"]  # type: ignore[index]
    return await table.act(SEATS[seat], legal[0])


def without_clock(view: Any) -> dict[str, Any]:
    """A table's view but its move clock (a node taking a table over gives the seat to play a grace)."""
    return {k: v for k, v in view.items() if k != "clock"}


def watcher() -> tuple[list[dict[str, Any]], Subscriber]:
    frames: list[dict[str, Any]] = []

    async def send(frame: Any) -> None:
        frames.append(frame)

    return frames, Subscriber(None, None, send)


def stop_renewing(platform: Platform) -> Callable[[], None]:
    """The node stops renewing its lease and looking for tables, as a paused process would; returns what
    starts it again."""
    loop = next(t for t in platform.tables.tasks if "NodeLease.keep" in repr(t.get_coro()))
    loop.cancel()

    def resume() -> None:
        platform.tables.spawn(platform.node.keep())

    return resume


def test_an_event_under_an_old_token_is_refused_and_changes_nothing(empty_store_url: str) -> None:
    async def body() -> None:
        store = Store(empty_store_url)
        await store.open()
        events = store.events
        row = await events.create_table("dominousa", 4, {}, False, "g:x", node="a")
        other = await events.create_table("dominousa", 4, {}, False, "g:x", node="a")
        assert (row.node, row.lease) == ("a", 1)
        await events.append(row.id, 1, "seat", {"seat": 0}, lease=1)
        assert await events.claim(row.id, "b", 1) == 2
        assert await events.claim(row.id, "c", 1) is None  # b changed the owner first
        with pytest.raises(LeaseLost):
            await events.append(row.id, 2, "seat", {"seat": 1}, lease=1)
        # Appended together (one group commit): the fenced event fails alone, the other table's is written.
        results = await asyncio.gather(
            events.append(row.id, 2, "seat", {"seat": 1}, lease=1),
            events.append(other.id, 1, "seat", {"seat": 0}, lease=1),
            return_exceptions=True,
        )
        assert isinstance(results[0], LeaseLost) and isinstance(results[1], dt.datetime)
        assert [e.n for e in await events.read(row.id)] == [1]
        await events.append(row.id, 2, "seat", {"seat": 2}, lease=2)  # its new owner writes
        assert [(e.n, e.data) for e in await events.read(row.id)] == [(1, {"seat": 0}), (2, {"seat": 2})]
        assert await events.owned("b") == {row.id: 2}
        # Many at once: only those whose token is still the one seen (other's is 1, not 7).
        assert await events.claim_many({row.id: 2, other.id: 7}, "c") == {row.id: 3}
        assert await events.claim(row.id, "b", 3) == 4  # (b again, for what follows)
        assert (await events.read_many([row.id, other.id]))[other.id][0].data == {"seat": 0}
        assert await events.release(row.id, 1) is False  # not b's token: nothing changes
        assert await events.release(row.id, 4) is True
        assert (await events.table(row.id)).node is None  # type: ignore[union-attr]
        await store.close()

    run_async(body())


def test_a_dead_nodes_table_is_taken_over_and_its_old_owner_cannot_write(empty_store_url: str) -> None:
    async def body() -> None:
        a, b = await node(empty_store_url, "a"), await node(empty_store_url, "b")
        table = await four_people(a)
        for _ in range(3):
            await play_one(table)
        frames, sub = watcher()
        await table.subscribe(sub, None)
        assert (await a.health())["tables"] == [table.id] and (await b.health())["tables"] == []
        with pytest.raises(ServiceError) as refused:
            await b.tables.fetch(table.id)  # a is alive and runs it
        assert refused.value.code == "elsewhere"
        n = table.n
        stop_renewing(a)  # a is paused: its lease runs out, b takes the table over
        await until(lambda: table.id in b.tables.tables)
        taken = b.tables.get(table.id)
        assert taken.n == n and without_clock(taken.state_for(None)) == without_clock(table.state_for(None))
        # a wakes up and plays on, not knowing: the store refuses, nothing changes, a lets the table go.
        with pytest.raises(ServiceError) as moved:
            await play_one(table)
        assert moved.value.code == "moved"
        assert table.id not in a.tables.tables
        await until(lambda: any(f["type"] == "moved" for f in frames))
        assert frames[-1] == {"type": "moved", "table": table.id}
        # b plays on from where a left it: every event once, in order.
        assert await play_one(taken) == n + 1
        stored = await b.store.events.read(table.id)
        assert [e.n for e in stored] == list(range(1, n + 2))
        await a.close()
        await b.close()

    run_async(body())


def test_a_node_that_wakes_after_losing_its_lease_drops_what_was_taken_over(empty_store_url: str) -> None:
    async def body() -> None:
        a, b = await node(empty_store_url, "a"), await node(empty_store_url, "b")
        table, kept = await four_people(a), await four_people(a)
        frames, sub = watcher()
        await table.subscribe(sub, None)
        resume = stop_renewing(a)
        await until(lambda: {table.id, kept.id} <= set(b.tables.tables))
        # a wakes: it registers again, keeps nothing b took, and tells the watchers of what it lost to subscribe
        # again (through any node: b runs the table now).
        resume()
        await until(lambda: not a.tables.tables)
        await until(lambda: frames[-1:] == [{"type": "moved", "table": table.id}])
        with pytest.raises(ServiceError) as elsewhere:
            await a.tables.fetch(kept.id)
        assert elsewhere.value.code == "elsewhere"
        assert await play_one(b.tables.get(kept.id)) == kept.n + 1
        await a.close()
        await b.close()

    run_async(body())


def test_a_node_that_shuts_down_hands_its_tables_over_at_once(empty_store_url: str) -> None:
    async def body() -> None:
        # A lease of a minute: b takes the tables over because a retired, not because its lease ran out.
        a, b = await node(empty_store_url, "a", lease=60), await node(empty_store_url, "b", lease=60)
        table = await four_people(a)
        await play_one(table)
        frames, sub = watcher()
        await table.subscribe(sub, None)
        loop = asyncio.get_running_loop()
        started = loop.time()
        await a.close()
        assert frames[-1] == {"type": "moved", "table": table.id}
        await until(lambda: table.id in b.tables.tables, timeout=10)
        assert loop.time() - started < 5
        assert await play_one(b.tables.get(table.id)) == table.n + 1
        with pytest.raises(ServiceError) as refused:
            await a.tables.create(SEATS[0], "dominousa", None, {}, False)  # draining: no new tables
        assert refused.value.code == "unavailable"
        await b.close()

    run_async(body())


def test_a_quick_game_keeps_its_bots_appointment_on_the_node_that_takes_it_over(empty_store_url: str) -> None:
    """``bots_after`` is kept with the table: its node shuts down before the bots come, and the node that takes
    the table over seats them and starts the match when the time comes (it was an in-memory timer: the table
    stayed open forever)."""

    async def body() -> None:
        a, b = await node(empty_store_url, "a", lease=60), await node(empty_store_url, "b", lease=60)
        table = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False, bots_after=(1.5, "greedy"))
        await table.join(SEATS[0], 0, None)
        table.arm_fill()
        loop = asyncio.get_running_loop()
        created = loop.time()
        await a.close()  # before the bots' time
        assert table.status == "open" and loop.time() - created < 1.5
        await until(lambda: table.id in b.tables.tables, timeout=10)
        taken = b.tables.get(table.id)
        await until(lambda: taken.status == "playing", timeout=10)
        assert loop.time() - created >= 1.4, "the bots came before their time"
        assert [s.player for s in taken.state.seats] == [SEATS[0].id, None, None, None]
        assert [s.bot for s in taken.state.seats] == [None, "greedy", "greedy", "greedy"]
        await b.close()

    run_async(body())


def test_a_restarted_node_takes_its_tables_back_under_its_name(empty_store_url: str) -> None:
    async def body() -> None:
        a = await node(empty_store_url, "a", lease=60)
        table = await four_people(a)
        await play_one(table)
        stop_renewing(a)  # killed: it never retired, and its lease has a minute to go
        again = await node(empty_store_url, "a", lease=60)
        assert again.tables.get(table.id).n == table.n  # the same name: its tables are its own at once
        with pytest.raises(ServiceError) as moved:
            await play_one(table)  # the old run of "a" is fenced off
        assert moved.value.code == "moved"
        await again.close()
        await a.store.close()

    run_async(body())


def test_health_says_what_the_node_runs(empty_store_url: str) -> None:
    async def body() -> None:
        a = await node(empty_store_url, "a", lease=7)
        table = await four_people(a)
        assert await a.health() == {
            "node": "a",
            "database": "ok",
            "redis": None,
            "tables": [table.id],
            "lease_seconds": 7,
            "draining": False,
        }
        await a.close()
        assert (await a.health())["draining"] is True

    run_async(body())


def test_every_node_signs_with_the_secret_it_is_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CAPICUA_SECRET", raising=False)
    for name in "abc":
        (tmp_path / name).mkdir()
    made = load_secret(tmp_path / "a")  # none given: made once in the data directory, and kept
    assert len(made) >= SECRET_LENGTH and load_secret(tmp_path / "a") == made
    shared = tmp_path / "secret"
    shared.write_text("k" * 40 + "\n")
    assert load_secret(tmp_path / "b", shared) == load_secret(tmp_path / "c", shared) == "k" * 40
    monkeypatch.setenv("CAPICUA_SECRET", "e" * 32)  # the environment comes first
    assert load_secret(tmp_path / "b", shared) == load_secret(tmp_path / "a") == "e" * 32
    monkeypatch.setenv("CAPICUA_SECRET", "short")
    with pytest.raises(SecretError, match="at least 32"):
        load_secret(tmp_path / "a")
    monkeypatch.delenv("CAPICUA_SECRET")
    shared.write_text("\n")
    with pytest.raises(SecretError, match="is empty"):
        load_secret(tmp_path / "a", shared)
    with pytest.raises(SecretError, match="cannot read"):
        load_secret(tmp_path / "a", tmp_path / "missing")


def test_one_node_leads_and_the_next_one_when_it_dies(empty_store_url: str) -> None:
    async def body() -> None:
        # Leases of 4 s: a loaded machine may leave a 1 s lease unrenewed for a moment, and b would lead too.
        a, b = await node(empty_store_url, "a", lease=4), await node(empty_store_url, "b", lease=4)
        assert [await a.node.leads(), await b.node.leads()] == [True, False]  # the tournaments, the weekly close
        stop_renewing(a)
        await until(b.node.leads)  # once a's lease has run out
        assert await a.node.leads() is False  # a, paused, would find it leads no more (and its steps are guarded)
        await b.close()
        await a.store.close()

    run_async(body())


def test_nodes_started_together_on_a_fresh_postgresql_database_take_turns_to_migrate(pg_url: str) -> None:
    async def body() -> None:
        name = f"{pg_url.rsplit('/', 1)[1]}_{secrets.token_hex(3)}"
        await admin(f'CREATE DATABASE "{name}"')
        url = sqlalchemy_url(ADMIN_DSN, name)
        stores = [Store(url) for _ in range(4)]
        try:
            await asyncio.wait_for(asyncio.gather(*(store.open() for store in stores)), 60)  # four first starts at once
            for store in stores:
                await store.open()  # and each finds the schema up to date
        finally:
            for store in stores:
                await store.close()
            await admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    run_async(body())


def test_a_node_frozen_mid_commit_holds_no_lock_for_long_on_postgresql(pg_url: str) -> None:
    """A node frozen inside a transaction (an append locks its tables' rows ``FOR UPDATE``, then writes, then
    commits) would hold those rows until it woke, and the node taking its tables over would wait on them: CI saw
    test_nodes_processes's paused node do it. PostgreSQL ends a session idle in a transaction after
    ``idle_in_transaction`` seconds (``IDLE_IN_TRANSACTION_S`` by default), and the lock with it."""
    from sqlalchemy import text

    from capicua.service.store.database import IDLE_IN_TRANSACTION_S, Database

    async def body() -> None:
        probe = f"frozen_{secrets.token_hex(4)}"
        taker = Database(pg_url)
        async with taker.engine.begin() as conn:
            await conn.execute(text(f"CREATE TABLE {probe} (id int PRIMARY KEY, node text)"))
            await conn.execute(text(f"INSERT INTO {probe} VALUES (1, 'a')"))

        async def frozen(db: Database) -> Any:
            """A connection that locked the row and then stopped (it sends nothing more)."""
            conn = await db.engine.connect()
            await conn.begin()
            await conn.execute(text(f"SELECT * FROM {probe} WHERE id = 1 FOR UPDATE"))
            return conn

        async def take_over() -> None:
            async with taker.engine.begin() as conn:
                await conn.execute(text(f"UPDATE {probe} SET node = 'b' WHERE id = 1"))

        lenient, strict = Database(pg_url, idle_in_transaction=600), Database(pg_url, idle_in_transaction=1)
        killed = None
        try:
            held = await frozen(lenient)  # the check can fail: a frozen session's lock holds the takeover up
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(take_over(), 2)
            await held.close()
            killed = await frozen(strict)
            start = asyncio.get_running_loop().time()
            await asyncio.wait_for(take_over(), 15)  # waits about the timeout, then goes through
            assert asyncio.get_running_loop().time() - start < 10
            async with taker.engine.connect() as conn:
                assert (await conn.execute(text(f"SELECT node FROM {probe}"))).scalar_one() == "b"
                shown = (await conn.execute(text("SHOW idle_in_transaction_session_timeout"))).scalar_one()
            assert shown == f"{IDLE_IN_TRANSACTION_S:g}s"  # every store's sessions have it
        finally:
            if killed is not None:
                with contextlib.suppress(Exception):  # PostgreSQL ended its session
                    await killed.close()
            async with taker.engine.begin() as conn:
                await conn.execute(text(f"DROP TABLE IF EXISTS {probe}"))
            for db in (lenient, strict, taker):
                await db.engine.dispose()

    run_async(body())
