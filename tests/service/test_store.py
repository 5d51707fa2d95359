"""The store on SQLite and on PostgreSQL (``store_url`` runs each test on both; see conftest.py).

Migrations, tables, events (in order, no duplicates), records, clear errors for an unreachable database,
and whole bot matches through :class:`TableService`, including a restart in the middle of a match and the
moments a killed server can leave behind (an ended hand without its next deal, a finished match without
its ``end`` event).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import json
import secrets
import socket
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Column, DateTime, TypeDecorator, event, func, insert, inspect, select, text, update
from sqlalchemy.exc import IntegrityError, StatementError

from capicua.rules.record import Record, replay
from capicua.service import store as store_module
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform
from capicua.service.store import Base, Store, StoreError
from capicua.service.store.schema import UTCDateTime
from capicua.service.tables import Subscriber, Table, TableConfig, TableService
from tests.aio import run_async
from tests.web.helpers import QUICK, stored_hands

T = TypeVar("T")
ANA = Identity("g:ana-test", "Ana")
#: Small targets keep the matches short; every variant still plays several hands.
TARGETS = {"amazonense": 100, "individual": 30, "dominousa": 60}


def run(coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
    return run_async(asyncio.wait_for(coro, timeout))


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port  # nothing listens there now


def head_revision() -> str:
    config = Config()
    config.set_main_option("script_location", str(Path(store_module.__file__).parent.parent / "migrations"))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


# -- schema ------------------------------------------------------------------------------------------------------
def test_migrations_run_and_are_idempotent(store_url: str) -> None:
    async def body() -> tuple[list[str], set[str]]:
        store = Store(store_url)
        await store.open()
        await store.open()  # the same store again
        table = await store.events.create_table("dominousa", 4, {"target": 200}, False, "owner")
        await store.close()
        again = Store(store_url)  # a second server start on the same database
        await again.open()
        assert (await again.events.table(table.id)) is not None, "opening again must keep the data"
        async with again.engine.connect() as conn:
            versions = [r[0] for r in await conn.execute(text("SELECT version_num FROM alembic_version"))]
            names = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        await again.close()
        return versions, names

    versions, names = run(body())
    assert versions == [head_revision()]
    assert {"tables", "events", "records", "alembic_version"} <= names


#: Offsets far from UTC on both sides, Manaus' among them (19:00 there is 23:00 UTC).
OFFSETS = [dt.timedelta(hours=h, minutes=m) for h, m in ((-4, 0), (5, 30), (-12, 0), (14, 0), (-9, -30))]


def is_moment(column: Column[Any]) -> bool:
    kind = column.type
    return isinstance(kind.impl_instance if isinstance(kind, TypeDecorator) else kind, DateTime)


def datetime_columns() -> list[Column[Any]]:
    """Every DateTime column of the schema, found in its metadata (a new one cannot be left out)."""
    return [c for t in Base.metadata.sorted_tables for c in t.columns if is_moment(c)]


def a_value(column: Column[Any], parents: dict[str, dict[str, Any]]) -> Any:
    """Some value for a column that is not a moment: its parent's key for a foreign key, else one of its type
    (random where a key or a unique index could meet another test's row in the session's database)."""
    for fk in column.foreign_keys:
        return parents[fk.column.table.name][fk.column.name]
    kind = column.type.python_type
    if kind is str:
        return secrets.token_hex(16)[: getattr(column.type, "length", None) or 16]
    if kind is bool:
        return False  # not a bot account, not rated: nothing another test of the session's database looks for
    if kind is int:
        return secrets.randbelow(2**31 - 1) + 1
    if kind is float:
        return 1.5
    if kind is dt.date:
        return dt.date(2030, 3, 11)
    return {"any": "json"}  # the JSON columns


def test_every_datetime_column_keeps_the_moment_in_any_zone_and_gives_it_back_in_utc(store_url: str) -> None:
    """Aware UTC in, aware UTC out, on both databases, for every DateTime column (issue 18, item 4): each column
    is written with a moment at an offset far from UTC, read back as the same moment in UTC, and found by a
    comparison whose bound is in yet another zone; a moment without its zone is refused, nothing written."""
    columns = datetime_columns()
    known = {"tournaments.starts_at", "tournaments.registration_closes", "events.at", "rating_changes.at"}
    assert known <= {str(c) for c in columns} and len(columns) >= 18, [str(c) for c in columns]
    assert [str(c) for c in columns if not isinstance(c.type, UTCDateTime)] == []  # one rule: UTCDateTime

    async def body() -> None:
        store = Store(store_url)
        await store.open()
        rows: dict[str, dict[str, Any]] = {}
        written: dict[Column[Any], dt.datetime] = {}
        try:
            async with store.engine.begin() as conn:  # parents first: the foreign keys find their rows
                for k, table in enumerate(Base.metadata.sorted_tables):
                    row = {}
                    for j, column in enumerate(table.columns):
                        if is_moment(column):
                            zone = dt.timezone(OFFSETS[(k + j) % len(OFFSETS)])
                            written[column] = row[column.name] = dt.datetime(2030, 3, 10, 19, j, 7, 123456, zone)
                        else:
                            row[column.name] = a_value(column, rows)
                    await conn.execute(insert(table).values(row))
                    rows[table.name] = row
            assert set(written) == set(columns)
            tokyo = dt.timezone(dt.timedelta(hours=9))
            async with store.engine.connect() as conn:
                for column, moment in written.items():
                    table = column.table
                    key = [c == rows[table.name][c.name] for c in table.primary_key.columns]
                    got = (await conn.execute(select(column).where(*key))).scalar_one()
                    assert got == moment and got.tzinfo is dt.UTC, (str(column), moment, got)
                    assert got.isoformat() == moment.astimezone(dt.UTC).isoformat(), str(column)
                    found = await conn.execute(select(func.count()).where(*key, column == moment.astimezone(tokyo)))
                    assert found.scalar_one() == 1, f"{column} == the same moment in Tokyo"
                    later = await conn.execute(
                        select(func.count()).where(*key, column >= (moment + dt.timedelta(minutes=1)).astimezone(tokyo))
                    )
                    assert later.scalar_one() == 0, f"{column} >= a minute later, in Tokyo"
            naive = dt.datetime(2030, 3, 10, 19, 0)
            for column in columns:
                table = column.table
                key = [c == rows[table.name][c.name] for c in table.primary_key.columns]
                with pytest.raises(StatementError, match="without its time zone"):
                    async with store.engine.begin() as conn:
                        await conn.execute(update(table).where(*key).values({column.name: naive}))
                async with store.engine.connect() as conn:
                    assert (await conn.execute(select(column).where(*key))).scalar_one() == written[column]
        finally:
            await store.close()

    run(body())


# -- tables ------------------------------------------------------------------------------------------------------
def test_tables_created_and_listed_by_status(store_url: str) -> None:
    async def body() -> None:
        store = Store(store_url)
        await store.open()
        try:
            a = await store.events.create_table("amazonense", 4, {"target": 200}, False, "ana")
            b = await store.events.create_table("individual", 3, {"target": 100, "lead": "highest"}, True, "bia")
            c = await store.events.create_table("dominousa", 4, {"target": 200, "strict": True}, False, "caio")
            mine = {a.id, b.id, c.id}
            assert len(mine) == 3
            await store.events.set_status(b.id, "playing")
            await store.events.set_status(c.id, "finished")

            def ids(rows: list[Any]) -> list[str]:  # the database may hold other tests' tables
                return [r.id for r in rows if r.id in mine]

            assert ids(await store.events.tables(["open"])) == [a.id]
            assert ids(await store.events.tables(["playing"])) == [b.id]
            assert ids(await store.events.tables(["open", "playing"])) == [a.id, b.id]  # in order of creation
            assert ids(await store.events.tables(["finished"])) == [c.id]
            assert ids(await store.events.tables([])) == []

            got = await store.events.table(b.id)
            assert got is not None
            assert (got.variant, got.players, got.options, got.private, got.owner, got.status) == (
                "individual",
                3,
                {"target": 100, "lead": "highest"},
                True,
                "bia",
                "playing",
            )
            assert got.invite and got.invite == b.invite
            assert got.created_at.tzinfo is dt.UTC
            assert (await store.events.table(a.id)) is not None and a.invite is None
            assert await store.events.table("no-such-table") is None
        finally:
            await store.close()

    run(body())


# -- events ------------------------------------------------------------------------------------------------------
def test_events_are_appended_in_order_and_read_back(store_url: str) -> None:
    async def body() -> None:
        store = Store(store_url)
        await store.open()
        try:
            t1 = await store.events.create_table("dominousa", 4, {}, False, "ana")
            t2 = await store.events.create_table("dominousa", 4, {}, False, "ana")
            written = []
            for n in range(1, 41):
                kind = ["seat", "start", "deal", "action"][min(n - 1, 3)]
                data = {"n": n, "action": f"{n % 4}: 6-{n % 7}", "nested": {"ok": [1, "two", None]}, "é": "ção"}
                at = await store.events.append(t1.id, n, kind, data)
                written.append((n, kind, data, at))
                if n % 3 == 0:
                    await store.events.append(t2.id, n // 3, "action", {"other": True})
            got = await store.events.read(t1.id)
            assert [(e.n, e.kind, e.data) for e in got] == [(n, k, d) for n, k, d, _ in written]
            for e, (_, _, _, at) in zip(got, written, strict=True):
                assert e.at.tzinfo is not None
                assert abs((e.at - at).total_seconds()) < 1e-3
            assert [e.n for e in await store.events.read(t2.id)] == list(range(1, 14))
            assert await store.events.read("no-such-table") == []
        finally:
            await store.close()

    run(body())


def test_appending_an_event_number_twice_fails_and_changes_nothing(store_url: str) -> None:
    async def body() -> None:
        store = Store(store_url)
        await store.open()
        try:
            t = await store.events.create_table("amazonense", 4, {}, False, "ana")
            await store.events.append(t.id, 1, "seat", {"seat": 0, "name": "Ana"})
            await store.events.append(t.id, 2, "start", {"seed": 1, "match": 1}, status="playing")
            before = await store.events.read(t.id)
            with pytest.raises(IntegrityError):
                await store.events.append(t.id, 2, "seat", {"seat": 1, "name": "Intruso"})
            with pytest.raises(IntegrityError):  # the status goes with the event, in one transaction
                await store.events.append(t.id, 1, "end", {"winner": 0}, status="finished")
            after = await store.events.read(t.id)
            assert [(e.n, e.kind, e.data) for e in after] == [(e.n, e.kind, e.data) for e in before]
            row = await store.events.table(t.id)
            assert row is not None and row.status == "playing"
            await store.events.append(t.id, 3, "seat", {"seat": 2, "name": "Caio"})  # the store is still usable
            assert [e.n for e in await store.events.read(t.id)] == [1, 2, 3]
        finally:
            await store.close()

    run(body())


def test_events_appended_together_commit_together_and_a_bad_one_fails_alone(store_url: str) -> None:
    """Group commit: appends made at the same moment by several tables share one transaction; if one
    of them cannot be written (its number is taken), it alone fails and the others are committed."""

    async def body() -> None:
        store = Store(store_url)
        await store.open()
        commits = 0

        def count(_conn: object) -> None:
            nonlocal commits
            commits += 1

        for engine in (store.engine.sync_engine, store.db._sync_engine):  # SQLite writes events on its own engine
            if engine is not None:
                event.listen(engine, "commit", count)
        try:
            tables = [await store.events.create_table("dominousa", 4, {}, False, "ana") for _ in range(10)]
            commits = 0
            await asyncio.gather(*(store.events.append(t.id, 1, "seat", {"seat": 0}) for t in tables))
            assert commits == 1  # ten events, one transaction
            results = await asyncio.gather(
                *(store.events.append(t.id, 2, "action", {"k": k}) for k, t in enumerate(tables)),
                store.events.append(tables[3].id, 1, "seat", {"seat": 9}),  # number 1 is taken
                return_exceptions=True,
            )
            assert [r for r in results if isinstance(r, BaseException)] == [results[-1]]
            assert isinstance(results[-1], IntegrityError)
            for k, t in enumerate(tables):
                got = await store.events.read(t.id)
                assert [(e.n, e.data) for e in got] == [(1, {"seat": 0}), (2, {"k": k})]
        finally:
            await store.close()

    run(body())


# -- records -----------------------------------------------------------------------------------------------------
def test_records_are_saved_and_read_back(store_url: str) -> None:
    async def body() -> None:
        store = Store(store_url)
        await store.open()
        try:
            t = await store.events.create_table("individual", 3, {}, False, "ana")
            other = await store.events.create_table("individual", 3, {}, False, "ana")
            rec2 = {"format": "capicua-record/1", "variant": "individual", "hands": [], "note": "ação"}
            rec1 = {"format": "capicua-record/1", "variant": "individual", "hands": [{"actions": ["0: 6-6"]}]}
            id2 = await store.records.save(t.id, 2, "individual", ["Ana", "Bia", "Caio"], None, rec2)
            id1 = await store.records.save(t.id, 1, "individual", ["Ana", "Bia", "Caio"], 2, rec1)
            await store.records.save(other.id, 1, "individual", ["X", "Y", "Z"], 0, rec1)
            assert isinstance(id1, int) and isinstance(id2, int) and id1 != id2
            rows = await store.records.of_table(t.id)
            assert [(r.id, r.match_no, r.winner) for r in rows] == [(id1, 1, 2), (id2, 2, None)]
            row = await store.records.get(id2)
            assert row is not None
            assert (row.table_id, row.variant, row.players, row.record) == (
                t.id,
                "individual",
                ["Ana", "Bia", "Caio"],
                rec2,
            )
            assert row.finished_at is not None
            assert await store.records.get(10**9) is None
            assert await store.records.of_table("no-such-table") == []
        finally:
            await store.close()

    run(body())


def test_a_players_matches_come_newest_first_with_his_seat(store_url: str) -> None:
    """records_of: the matches a person sat in (by the record's player_ids; bots have None), newest first."""

    async def body() -> None:
        store = Store(store_url)
        await store.open()
        try:
            ana, bia = f"g:ana-{secrets.token_hex(4)}", f"g:bia-{secrets.token_hex(4)}"
            t = await store.events.create_table("dominousa", 4, {}, False, ana)
            ids = []
            for k, seats in enumerate([[ana, None, bia, None], [None, ana, None, None], [bia, None, None, None]]):
                record = {"format": "capicua-record/1", "variant": "dominousa", "hands": [], "player_ids": seats}
                ids.append(await store.records.save(t.id, k + 1, "dominousa", ["a", "b", "c", "d"], 0, record))
            assert [(r.id, seat) for r, seat in await store.records.of_player(ana)] == [(ids[1], 1), (ids[0], 0)]
            assert [(r.id, seat) for r, seat in await store.records.of_player(bia)] == [(ids[2], 0), (ids[0], 2)]
            assert [r.id for r, _ in await store.records.of_player(bia, limit=1)] == [ids[2]]
            assert await store.records.of_player(f"g:nobody-{secrets.token_hex(4)}") == []
        finally:
            await store.close()

    run(body())


def test_migration_0003_indexes_the_players_of_records_saved_before_it(empty_store_url: str) -> None:
    """A database at 0002 with records in it: after the upgrade, their players find them."""

    def upgrade(connection: Any, target: str) -> None:
        config = Config()
        config.set_main_option("script_location", str(Path(store_module.__file__).parent.parent / "migrations"))
        config.attributes["connection"] = connection
        command.upgrade(config, target)

    async def body() -> None:
        store = Store(empty_store_url)
        async with store.engine.begin() as conn:
            await conn.run_sync(upgrade, "0002")
            await conn.execute(
                text(
                    "INSERT INTO tables (id, variant, players, options, private, owner, status, created_at) "
                    "VALUES ('t1', 'dominousa', 4, '{}', false, 'x', 'finished', CURRENT_TIMESTAMP)"
                )
            )
            record = json.dumps({"hands": [], "player_ids": [None, "g:old", None, "g:old2"]})
            await conn.execute(
                text(
                    "INSERT INTO records (table_id, match_no, variant, players, winner, record, finished_at) "
                    "VALUES ('t1', 1, 'dominousa', '[]', 0, :record, CURRENT_TIMESTAMP)"
                ),
                {"record": record},
            )
        await store.open()  # upgrades to head
        try:
            assert [seat for _, seat in await store.records.of_player("g:old")] == [1]
            assert [seat for _, seat in await store.records.of_player("g:old2")] == [3]
        finally:
            await store.close()

    run(body())


# -- errors ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["postgresql-closed-port", "sqlite-missing-directory"])
def test_unreachable_database_raises_store_error(kind: str, tmp_path: Path) -> None:
    if kind == "postgresql-closed-port":
        port = closed_port()
        url = f"postgresql+asyncpg://postgres:hunter2@127.0.0.1:{port}/capicua"
        expected = ["cannot reach the database", f"127.0.0.1:{port}"]
    else:
        url = f"sqlite+aiosqlite:///{tmp_path / 'missing' / 'dir' / 'capicua.db'}"
        expected = ["cannot open the database", "missing/dir"]

    async def body() -> str:
        store = Store(url)
        try:
            with pytest.raises(StoreError) as info:
                await store.open()
        finally:
            await store.close()
            gc.collect()  # aiosqlite's worker thread of the failed connection ends while this loop still runs
            await asyncio.sleep(0.1)
        return str(info.value)

    message = run(body(), timeout=60)
    for part in expected:
        assert part in message, message
    assert "hunter2" not in message  # never print a password


# -- whole matches through the table service ---------------------------------------------------------------------
async def play(table: Table, frames: asyncio.Queue[dict[str, Any]], seen: list[dict[str, Any]], stop: int) -> bool:
    """Play seat 0 from the frames until the match ends (True) or ``stop`` events are reached (False)."""
    state = next((f["state"] for f in reversed(seen) if f.get("state")), None)  # what the client knows
    while True:
        frame = await frames.get()
        seen.append(frame)
        state = frame.get("state") or state
        if frame["type"] == "event" and frame["event"]["kind"] == "end":
            return True
        if frame["n"] >= stop:
            return False
        hand = state and state["hand"]
        if state and state["n"] == table.n and hand and hand["turn"] == 0 and hand["end"] is None and hand["legal"]:
            try:
                await table.act(ANA, hand["legal"][0])
            except ServiceError as exc:  # a bot's optional call got in first: wait for the next frame
                assert exc.code == "illegal", exc


async def start_service(url: str, config: TableConfig | None = None) -> tuple[Store, TableService]:
    store = Store(url)
    platform = Platform(store, "test-secret", config or TableConfig(bot_delay=0, bot_workers=0, call_grace=0))
    await platform.open()
    return store, platform.tables


async def stop_service(store: Store, service: TableService) -> None:
    await service.aclose()  # cancelled tasks finish their database calls before the store closes
    await store.close()


def subscribe(table: Table) -> tuple[asyncio.Queue[dict[str, Any]], Subscriber]:
    frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send(frame: Any) -> None:
        frames.put_nowait(frame)

    return frames, Subscriber(ANA, table.seat_of(ANA), send)


async def check_finished(store: Store, table_id: str, seen: list[dict[str, Any]]) -> None:
    """The stored events are 1..N; the one record replays to what the client saw last."""
    events = await store.events.read(table_id)
    assert [e.n for e in events] == list(range(1, len(events) + 1))
    assert [e.kind for e in events].count("end") == 1 and events[-1].kind == "end"
    rows = await store.records.of_table(table_id)
    assert len(rows) == 1 and rows[0].match_no == 1 and events[-1].data["how"] in ("target", "time", "award")
    match = replay(Record.from_json(rows[0].record))
    last_state = next(f["state"] for f in reversed(seen) if f.get("state"))
    assert match.is_over()
    assert match.winner == last_state["winner"] == rows[0].winner == events[-1].data["winner"]
    assert match.totals == last_state["totals"]
    # every action event is in the record, in order, exactly once
    assert stored_hands(events) == [h.actions for h in Record.from_json(rows[0].record).hands]
    row = await store.events.table(table_id)
    assert row is not None and row.status == "finished"


@pytest.mark.parametrize("variant", ["amazonense", "individual", "dominousa"])
def test_full_bot_match_with_a_restart_in_the_middle(empty_store_url: str, variant: str) -> None:
    """Seat 0 plays from its frames, three greedy bots play the others; the server restarts mid-match."""

    async def body() -> None:
        store, service = await start_service(empty_store_url)
        players = 3 if variant == "individual" else None
        table = await service.create(ANA, variant, players, {"target": TARGETS[variant], **QUICK}, False)
        table_id = table.id
        assert await table.join(ANA, 0, None) == 0
        await table.fill_bots(ANA, "greedy")
        frames, sub = subscribe(table)
        await table.subscribe(sub, None)
        await table.start(ANA)
        seen: list[dict[str, Any]] = []
        finished = await play(table, frames, seen, stop=15)
        assert not finished
        last = seen[-1]["n"]
        await stop_service(store, service)

        store, service = await start_service(empty_store_url)  # a new server on the same database
        table = service.get(table_id)
        assert table.status == "playing" and table.n >= last
        frames, sub = subscribe(table)
        await table.subscribe(sub, last)
        assert await play(table, frames, seen, stop=10**9)
        await check_finished(store, table_id, seen)
        await stop_service(store, service)

    run(body(), timeout=300)


async def finished_dominousa_match(service: TableService, target: int) -> tuple[Table, Subscriber]:
    """Ana in seat 0 (playing from her frames) and three greedy bots play a Dominousa match to its end."""
    table = await service.create(ANA, "dominousa", None, {"target": target, **QUICK}, False)
    await table.join(ANA, 0, None)
    await table.fill_bots(ANA, "greedy")
    frames, sub = subscribe(table)
    await table.subscribe(sub, None)
    await table.start(ANA)
    assert await play(table, frames, [], stop=10**9)
    return table, sub


async def _copy_table(store: Store, source: Table, events: list[Any]) -> str:
    """A new table holding ``events``: what a server killed at that moment leaves behind."""
    row = await store.events.create_table(
        source.state.variant, source.state.players, source.state.options, False, source.state.owner
    )
    for e in events:
        await store.events.append(row.id, e.n, e.kind, e.data)
    await store.events.set_status(row.id, "playing")
    return row.id


@pytest.mark.parametrize("window", ["after-a-hand-before-its-deal", "after-the-last-action", "after-the-record"])
def test_restart_resumes_what_a_killed_server_left_half_done(empty_store_url: str, window: str) -> None:
    """A kill between two commits of one step (action → deal, action → record → end) must not stall the table."""

    async def body() -> None:
        store, service = await start_service(empty_store_url)
        table, _ = await finished_dominousa_match(service, target=150)
        events = await store.events.read(table.id)
        deals = [i for i, e in enumerate(events) if e.kind == "deal"]
        assert len(deals) >= 2, "the match should have more than one hand"
        if window == "after-a-hand-before-its-deal":
            cut = events[: deals[1]]
        else:
            cut = events[:-1]  # everything but ``end``
        copy = await _copy_table(store, table, cut)
        if window == "after-the-record":
            record = (await store.records.of_table(table.id))[0]
            await store.records.save(copy, 1, record.variant, record.players, record.winner, record.record)
        await stop_service(store, service)

        store, service = await start_service(empty_store_url)
        table = service.get(copy)
        frames, sub = subscribe(table)
        seen: list[dict[str, Any]] = []
        await table.subscribe(sub, cut[-1].n)
        assert await play(table, frames, seen, stop=10**9), "the table must play on to the end"
        await check_finished(store, copy, seen)
        await stop_service(store, service)

    run(body(), timeout=300)


def test_finished_tables_are_let_go_when_idle_and_loaded_again_when_asked_for(empty_store_url: str) -> None:
    """A finished table nobody watches leaves memory after a while; after that, or after a restart,
    fetching it loads it from the store: same summary, same state, and a rematch still works."""

    async def body() -> None:
        store, service = await start_service(empty_store_url)
        table, sub = await finished_dominousa_match(service, target=60)
        summary, state = table.summary(), table.state_for(0)
        assert len(service.forget_idle(seconds=0)) == 0  # watched: kept
        table.unsubscribe(sub)
        assert len(service.forget_idle(seconds=3600)) == 0  # not idle long enough
        assert len(service.forget_idle(seconds=0)) == 1
        with pytest.raises(ServiceError):
            service.get(table.id)
        again = await service.fetch(table.id)
        assert again is not table and again.summary() == summary
        assert again.state_for(0)["hands"] == state["hands"] and again.state_for(0)["winner"] == state["winner"]
        assert await service.fetch(table.id) is again
        await stop_service(store, service)

        store, service = await start_service(empty_store_url)  # a restart does not load finished tables...
        assert table.id not in service.tables
        again = await service.fetch(table.id)  # ...but they are there when asked for
        assert again.summary() == summary
        await again.rematch(ANA)
        assert again.status == "playing" and again.state.match_no == 2
        with pytest.raises(ServiceError) as exc:
            await service.fetch("no-such-table")
        assert exc.value.code == "not-found"
        await stop_service(store, service)

    run(body(), timeout=300)


def test_open_tables_nobody_touched_for_long_leave_memory_and_the_lobby(empty_store_url: str) -> None:
    """An open table nobody started, joined or watched for ``stale_open_after`` is let go (and a restart
    does not load it); its link still works: fetching loads it, and it can be joined and started."""

    async def body() -> None:
        store, service = await start_service(empty_store_url)
        fresh = await service.create(ANA, "dominousa", None, {}, False)
        stale = await service.create(ANA, "dominousa", None, {}, False)
        await stale.join(ANA, 0, None)
        stale.runner.touched -= 7200  # as if nobody had come by for two hours
        service.config.stale_open_after = 3600
        assert len(service.forget_idle()) == 1
        assert [t.id for t in service.open_tables()] == [fresh.id]
        await stop_service(store, service)

        async with store.engine.begin() as conn:  # a restart two hours after the last event of ``stale``
            await conn.execute(
                text("UPDATE events SET at = :at WHERE table_id = :t"),
                {"at": dt.datetime.now(dt.UTC) - dt.timedelta(hours=2), "t": stale.id},
            )
        store, service = await start_service(
            empty_store_url, TableConfig(bot_delay=0, bot_workers=0, call_grace=0, stale_open_after=3600)
        )
        assert fresh.id in service.tables and stale.id not in service.tables
        again = await service.fetch(stale.id)
        assert again.status == "open" and again.seat_of(ANA) == 0
        await again.fill_bots(ANA, "greedy")
        await again.start(ANA)
        assert again.status == "playing"
        await stop_service(store, service)

    run(body(), timeout=120)
