"""Real ``capicua serve`` nodes on one PostgreSQL database: kill -9, SIGSTOP/SIGCONT (the zombie owner) and
SIGTERM (the handover) of the node that runs tables in play.

Each test starts its nodes on a fresh database with one shared secret (``CAPICUA_SECRET``) and short leases.
The tables are played by bots (``bots_after: 0``), so they move on by themselves; what the tests read is the
nodes' ``GET /api/health``, the tables' summaries and the events in the database.

Checked: a killed node's tables are taken over by the others and every match finishes; the stored events of
each table are contiguous and its one record holds exactly its actions; a table's next event after the kill
comes within the lease and 5 s; a paused node that wakes up writes nothing to the tables taken over (the
database refuses it: the node says so in its log and drops them from its health within 10 s); a node sent
SIGTERM hands its tables over, each table's next event coming within 2 s, and exits within 30 s.
"""

from __future__ import annotations

import contextlib
import secrets
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from capicua.rules.record import Record
from capicua.service.store import Store, StoredEvent
from tests.aio import run_async
from tests.web.helpers import stored_hands
from tests.web.server import Server, free_port
from tests.web.test_crash import GAMES  # matches long enough to be killed in the middle of

pytestmark = pytest.mark.slow

LEASE = 2.0
SECRET = secrets.token_urlsafe(32)


def start_nodes(tmp_path: Path, url: str, names: list[str]) -> list[Server]:
    nodes = [
        Server(
            tmp_path / name / "data",
            free_port(),
            url,
            args=["--node-name", name, "--lease-seconds", str(LEASE)],
            env={"CAPICUA_SECRET": SECRET},
        )
        for name in names
    ]
    for node in nodes:
        node.data_dir.parent.mkdir(parents=True)
        node.start()
    return nodes


@contextlib.contextmanager
def running(tmp_path: Path, url: str, names: list[str]) -> Iterator[list[Server]]:
    """The nodes, started; their logs printed if the test fails; stopped at the end."""
    nodes = start_nodes(tmp_path, url, names)
    try:
        yield nodes
    except BaseException:
        for node in nodes:
            print(node.output())
        raise
    finally:
        for node in nodes:
            node.stop()


def check_logs(url: str, tables: list[str]) -> dict[str, list[StoredEvent]]:
    """Every table's log and record checked (:func:`check_log`); the events by table."""
    events, records = stored(url, tables)
    for table in tables:
        check_log(table, events[table], records[table])
    return events


def health(node: Server) -> dict[str, Any] | None:
    """The node's health, or None if it does not answer."""
    try:
        r = httpx.get(f"{node.base}/api/health", timeout=2)
    except httpx.TransportError:
        return None
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Wait until ``check()`` gives something true (looked at every 50 ms); return it."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        time.sleep(0.05)


def bot_tables(node: Server, count: int) -> list[str]:
    """``count`` tables of bots started on ``node`` (one game after another), by a guest of that node."""
    with httpx.Client(base_url=node.base, timeout=30) as http:
        guest = http.post("/api/guests", json={"name": "Dono"}).json()
        headers = {"Authorization": f"Bearer {guest['token']}"}
        ids = []
        for k in range(count):
            r = http.post("/api/tables", json={**GAMES[k % len(GAMES)], "bots_after": 0}, headers=headers)
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])
    return ids


def summary(node: Server, table_id: str) -> dict[str, Any]:
    r = httpx.get(f"{node.base}/api/tables/{table_id}", timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def stored(url: str, table_ids: list[str]) -> tuple[dict[str, list[StoredEvent]], dict[str, list[Any]]]:
    """The events of each table, and the record JSON of each of its matches, from the database."""

    async def read() -> tuple[dict[str, list[StoredEvent]], dict[str, list[Any]]]:
        store = Store(url)
        try:
            events = {t: await store.events.read(t) for t in table_ids}
            records = {t: [r.record for r in await store.records.of_table(t)] for t in table_ids}
            return events, records
        finally:
            await store.close()

    return run_async(read())


def check_log(table: str, events: list[StoredEvent], records: list[Any]) -> None:
    """Contiguous events, one end, and one record holding exactly the stored actions, hand by hand."""
    assert [e.n for e in events] == list(range(1, len(events) + 1)), f"{table}: events not contiguous"
    assert [e.kind for e in events].count("end") == 1 and events[-1].kind == "end", table
    assert len(records) == 1, f"{table}: {len(records)} records"
    recorded = [h.actions for h in Record.from_json(records[0]).hands]
    assert stored_hands(events) == recorded, f"{table}: the record differs from its log"


def next_event(events: list[StoredEvent], at: float) -> float:
    """Seconds from the moment ``at`` (epoch seconds) to the table's first event after it."""
    return min(e.at.timestamp() for e in events if e.at.timestamp() > at) - at


def finished(nodes: list[Server], table_ids: list[str]) -> bool:
    """Whether every table is finished, as the node that runs it says (the others answer ``elsewhere``)."""
    return all(runner_summary(nodes, t)["status"] == "finished" for t in table_ids)


def runner_summary(nodes: list[Server], table_id: str) -> dict[str, Any]:
    for node in nodes:
        if node.proc is None or node.proc.poll() is not None:
            continue
        r = httpx.get(f"{node.base}/api/tables/{table_id}", timeout=10)
        if r.status_code == 200:
            data: dict[str, Any] = r.json()
            return data
        assert r.json()["error"] == "elsewhere", r.text
    raise AssertionError(f"no node runs {table_id}")


def test_the_tables_of_a_killed_node_finish_on_the_others_with_nothing_lost(tmp_path: Path, database: str) -> None:
    with running(tmp_path, database, ["a", "b", "c"]) as nodes:
        a, b, c = nodes
        # A guest of one node is a guest of every node (one secret).
        guest = httpx.post(f"{a.base}/api/guests", json={"name": "Ana"}).json()
        me = httpx.get(f"{c.base}/api/me", headers={"Authorization": f"Bearer {guest['token']}"})
        assert me.status_code == 200 and me.json()["id"] == guest["id"], me.text
        killed = bot_tables(a, 3)
        others = bot_tables(b, 1) + bot_tables(c, 1)
        wait(lambda: all(summary(a, t)["n"] > 20 for t in killed), 60, "the matches to be under way")
        assert set(health(a)["tables"]) == set(killed)  # type: ignore[index]
        a.kill9()
        at = time.time()
        owners = wait(
            lambda: all(t in health(b)["tables"] + health(c)["tables"] for t in killed),  # type: ignore[index]
            LEASE + 10,
            "b and c to take the tables over",
        )
        assert owners
        wait(lambda: finished([b, c], killed + others), 240, "every match to finish")
    events = check_logs(database, killed + others)
    gaps = sorted(next_event(events[t], at) for t in killed)
    print(f"failover: from the kill to each table's next event: {', '.join(f'{g:.2f} s' for g in gaps)}")
    assert gaps[-1] <= LEASE + 5, gaps


def test_a_paused_node_that_wakes_up_writes_nothing_to_its_old_tables(tmp_path: Path, database: str) -> None:
    with running(tmp_path, database, ["a", "b"]) as nodes:
        a, b = nodes
        tables = bot_tables(a, 3)
        wait(lambda: all(summary(a, t)["n"] > 10 for t in tables), 60, "the matches to be under way")
        a.signal(signal.SIGSTOP)
        # What is tested is what a does on waking; the takeover's own bound is test_cluster's and the failover
        # bench's. A loaded CI (the fuzzers beside it take a core each) may leave b a while without the CPU.
        wait(lambda: set(tables) <= set(health(b)["tables"]), LEASE + 30, "b to take the tables over")  # type: ignore[index]
        moved_on = {t: summary(b, t)["n"] for t in tables}
        wait(lambda: all(summary(b, t)["n"] > moved_on[t] + 3 for t in tables), 60, "b to play on")
        a.signal(signal.SIGCONT)  # its timers fire at once: its bots' moves, its clocks
        wait(lambda: health(a) is not None and not set(tables) & set(health(a)["tables"]), 10, "a to drop them")  # type: ignore[index]
        wait(lambda: finished([b], tables), 240, "every match to finish on b")
    check_logs(database, tables)
    log = a.output()
    assert "another node runs it now" in log or "are run by other nodes now" in log, log


def test_sigterm_hands_the_tables_over_at_once(tmp_path: Path, database: str) -> None:
    with running(tmp_path, database, ["a", "b"]) as nodes:
        a, b = nodes
        tables = bot_tables(a, 3)
        wait(lambda: all(summary(a, t)["n"] > 10 for t in tables), 60, "the matches to be under way")
        assert a.proc is not None
        a.signal(signal.SIGTERM)
        at = time.time()
        a.proc.wait(timeout=30)
        exited = time.time()  # every event from now on is b's
        wait(lambda: set(tables) <= set(health(b)["tables"]), 10, "b to take the tables over")  # type: ignore[index]
        wait(lambda: finished([b], tables), 240, "every match to finish on b")
    events = check_logs(database, tables)
    gaps = sorted(next_event(events[t], exited) + exited - at for t in tables)
    print(f"handover: a exited {exited - at:.2f} s after SIGTERM; from SIGTERM to each table's next event on b: "
          f"{', '.join(f'{g:.2f} s' for g in gaps)}")  # fmt: skip
    assert gaps[-1] <= 2, gaps
