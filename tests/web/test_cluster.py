"""Three ``capicua serve`` nodes behind nginx, sharing PostgreSQL and Redis, with no sticky sessions.

Tables of all three games are created through nginx (each is run by the node the request reached), each
with a scripted person in seat 0 whose websocket also goes through nginx (often to a node that does not run
the table) and bots in the other seats. Mid-hand, the node that runs about a third of the tables is killed
(kill -9). Its clients reconnect through nginx; those on other nodes are told ``moved`` and subscribe again;
the other nodes take its tables over.

Checked: every match finishes; each table's stored events are contiguous and its one record holds exactly
them; every acknowledged action is stored once, where it was broadcast; no frame any client got shows a tile
its seat may not see (against the records, as ``tests/web/test_leaks.py`` checks one server); each table's
next event after the kill comes within the lease and 5 s. The nginx configuration is the one of
docs/operations.md ("Behind nginx"), with this test's ports.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import secrets
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from capicua.rules.record import Record
from capicua.service.store import StoredEvent
from tests.aio import run_async
from tests.web.helpers import leaks, visibility
from tests.web.server import HOST, Server, free_port
from tests.web.test_crash import GAMES, Client
from tests.web.test_nodes_processes import SECRET, check_log, health, next_event, stored

pytestmark = pytest.mark.slow

LEASE = 2.0
ROOT = Path(__file__).resolve().parents[2]
TABLES = 40
ACKS_BEFORE_KILL = 3
TEST_TIMEOUT = 420.0


def nginx_config(tmp: Path, listen: int, ports: list[int]) -> Path:
    """docs/operations.md's configuration, on this test's ports, in a main context of the test's own."""
    doc = (ROOT / "docs" / "operations.md").read_text()
    http = re.search(r"### Behind nginx.*?```nginx\n(.*?)```", doc, re.S)
    assert http is not None, "docs/operations.md has no nginx example"
    body = http.group(1)
    servers = "".join(f"    server {HOST}:{p} max_fails=1 fail_timeout=2s;\n" for p in ports)
    body = re.sub(r"(upstream capicua \{\n)(?:    server .*\n)+", lambda m: m.group(1) + servers, body)
    body = body.replace("listen 127.0.0.1:8080;", f"listen {HOST}:{listen};")
    assert f":{listen};" in body and all(f":{p} " in body for p in ports), body
    conf = tmp / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {tmp}/nginx.pid;\nerror_log {tmp}/nginx-error.log warn;\n"
        "events { worker_connections 4096; }\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {tmp}/body;\nproxy_temp_path {tmp}/proxy;\n"
        f"fastcgi_temp_path {tmp}/fastcgi;\nuwsgi_temp_path {tmp}/uwsgi;\nscgi_temp_path {tmp}/scgi;\n{body}\n}}\n"
    )
    return conf


class Redis:
    """A Redis server of the test's own (it is stopped and started again: other tests share the machine's)."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        args = ["redis-server", "--bind", HOST, "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen([*args, "--dir", str(self.tmp)], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True).stdout != b"PONG\n":
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=10)


@dataclass
class Cluster:
    base: str  # nginx
    nodes: list[Server]
    database: str
    redis: Redis


@pytest.fixture
def cluster(tmp_path: Path, database: str) -> Iterator[Cluster]:
    """Three nodes, their own Redis, and nginx in front."""
    redis = Redis(tmp_path)
    redis.start()
    nodes = [
        Server(
            tmp_path / name / "data",
            free_port(),
            database,
            args=["--node-name", f"{name}-{secrets.token_hex(3)}", "--lease-seconds", str(LEASE)],
            env={"CAPICUA_SECRET": SECRET, "CAPICUA_REDIS_URL": redis.url},
        )
        for name in ("a", "b", "c")
    ]
    for node in nodes:
        node.data_dir.parent.mkdir(parents=True)
        node.start()
    listen = free_port()
    conf = nginx_config(tmp_path, listen, [n.port for n in nodes])
    proxy = subprocess.Popen(["/usr/sbin/nginx", "-c", str(conf), "-p", str(tmp_path)])
    base = f"http://{HOST}:{listen}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline and proxy.poll() is None, (tmp_path / "nginx-error.log").read_text()
            time.sleep(0.05)
        yield Cluster(base, nodes, database, redis)
    finally:
        proxy.terminate()
        proxy.wait(timeout=10)
        for node in nodes:
            node.stop()
        if redis.proc is not None and redis.proc.poll() is None:
            redis.kill()


@dataclass
class Seen:
    """What one client's frames showed, for the leak check: (event position, frame) pairs, its seat."""

    label: str
    seat: int | None
    frames: list[tuple[int, dict[str, Any]]]


async def play(client: Client, base: str, refs: itertools.count[int], seen: Seen, stats: dict[str, int]) -> None:
    """One websocket session through nginx: subscribe from the last event seen, play, until the match ends, the
    connection drops, or the client is told to subscribe again."""
    url = base.replace("http://", "ws://") + f"/ws?token={client.token}"
    async with connect(url, open_timeout=10, max_size=2**22) as ws:
        client.connections += 1
        await ws.send(json.dumps({"type": "subscribe", "table": client.table, "last": client.last, "ref": "sub"}))
        while client.end is None:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if frame["type"] == "moved":
                stats["moved"] += 1
                client.connection_lost()
                return
            if frame["type"] == "error" and frame.get("ref") == "sub":
                # a table moving, or its node's answer lost with Redis (``unknown``: a subscription asked
                # again is harmless)
                assert frame["code"] in ("unavailable", "elsewhere", "not-found", "unknown"), frame
                stats["refused subscriptions"] += 1
                client.connection_lost()
                await asyncio.sleep(0.3)
                return
            if frame["type"] == "error" and frame["code"] in ("unavailable", "unknown", "moved"):
                stats[frame["code"]] += 1  # its node died with our action: made or not, the events will say
                client.connection_lost()
                return
            client.receive(frame)
            if frame["type"] in ("event", "state"):
                seen.frames.append((frame["n"], frame))
            sent = client.send_next(refs)
            if sent is not None:
                ref, action = sent
                client.trace.append(f"sent {ref} {action}")
                await ws.send(json.dumps({"type": "action", "table": client.table, "action": action, "ref": ref}))


async def run_client(client: Client, base: str, refs: itertools.count[int], seen: Seen, stats: dict[str, int]) -> None:
    while client.end is None:
        try:
            await play(client, base, refs, seen, stats)
        except (ConnectionClosed, OSError, InvalidHandshake, InvalidStatus, TimeoutError):
            stats["reconnects"] += 1
            client.connection_lost()
            await asyncio.sleep(0.2)


async def scenario(
    base: str, clients: list[Client], seen: list[Seen], disrupt: Callable[[], None]
) -> tuple[dict[str, int], float]:
    """Play every table; once each client has a few acks, ``disrupt()`` (kill a node, restart Redis…); return
    what the clients went through, and when the disruption came."""
    stats: dict[str, int] = {k: 0 for k in ("moved", "refused subscriptions", "unavailable", "unknown", "reconnects")}
    refs = itertools.count(1)
    tasks = [asyncio.create_task(run_client(c, base, refs, s, stats)) for c, s in zip(clients, seen, strict=True)]
    try:
        while not all(c.acks_since_restart >= ACKS_BEFORE_KILL for c in clients):
            for task in tasks:
                if task.done():
                    task.result()
            await asyncio.sleep(0.01)
        assert all(c.end is None for c in clients), "a match ended before the disruption: raise the targets"
        await asyncio.to_thread(disrupt)
        at = time.time()
        await asyncio.wait_for(asyncio.gather(*tasks), TEST_TIMEOUT)
    finally:
        for task in tasks:
            task.cancel()
    print("clients:", stats)
    return stats, at


def start_tables(base: str) -> list[Client]:
    """``TABLES`` tables through nginx, of the three games in turn, each with a person in seat 0 and bots."""
    clients: list[Client] = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for k in range(TABLES):
            guest = http.post("/api/guests", json={"name": f"Pessoa {k}"}).json()
            headers = {"Authorization": f"Bearer {guest['token']}"}
            game = GAMES[k % len(GAMES)]
            r = http.post("/api/tables", json=game, headers=headers)
            assert r.status_code == 201, r.text
            table = r.json()["id"]
            r = http.post(f"/api/tables/{table}/join", json={"seat": 0}, headers=headers)  # another node, maybe
            assert r.json() == {"seat": 0}, r.text
            assert http.post(f"/api/tables/{table}/bots", json={"level": "greedy"}, headers=headers).status_code == 200
            assert http.post(f"/api/tables/{table}/start", headers=headers).status_code == 200
            clients.append(Client(table, game["variant"], guest["token"], random.Random(k)))
    return clients


def check_tables(url: str, clients: list[Client], seen: list[Seen]) -> dict[str, list[StoredEvent]]:
    """Every table's log, record, acks and frames as the module's docstring says; the events by table."""
    events, records = stored(url, [c.table for c in clients])
    problems: list[str] = []
    for client, watcher in zip(clients, seen, strict=True):
        stored_events = events[client.table]
        check_log(client.table, stored_events, records[client.table])
        by_n = {e.n: e for e in stored_events}
        acked = [n for n, _ in client.acked]
        assert len(acked) == len(set(acked)) and acked, f"{client.table}: acks {acked}"
        for n, action in client.acked:
            assert by_n[n].kind == "action" and by_n[n].data["action"] == action, (client.table, n, action)
        kinds = {e.n: e.kind for e in stored_events}
        vis = visibility(Record.from_json(records[client.table][0]), kinds)
        problems += leaks(watcher, vis, watcher.frames)  # type: ignore[arg-type]
    assert not problems, problems[:5]
    return events


def test_three_nodes_behind_nginx_lose_nothing_when_one_is_killed(cluster: Cluster) -> None:
    clients = start_tables(cluster.base)
    ran = {n.port: set((health(n) or {}).get("tables", [])) for n in cluster.nodes}
    assert sum(bool(t) for t in ran.values()) >= 2, f"the tables were not spread over the nodes: {ran}"
    victim = max(cluster.nodes, key=lambda n: len(ran[n.port]))
    seen = [Seen(f"client {c.table}", 0, []) for c in clients]
    try:
        stats, killed_at = run_async(scenario(cluster.base, clients, seen, victim.kill9))
    except BaseException:
        for node in cluster.nodes:
            print(node.output())
        raise
    events = check_tables(cluster.database, clients, seen)
    assert stats["moved"] + stats["reconnects"] > 0, stats
    killed = ran[victim.port]
    gaps = sorted(next_event(events[t], killed_at) for t in killed)
    shown = ", ".join(f"{g:.2f}" for g in gaps)
    print(f"failover over {len(killed)} tables: from the kill to each one's next event {shown} s")
    assert gaps[-1] <= LEASE + 5, gaps
    for node in cluster.nodes:
        if node is not victim:
            assert "Traceback" not in node.output(), node.output()


#: docs/operations.md's nginx: a request's headers must have come within this many seconds.
HEADER_TIMEOUT = 10.0


def test_redis_restarted_empty_mid_play_loses_nothing(cluster: Cluster) -> None:
    # A slow-loris client meanwhile: a request whose headers never end, held open through nginx.
    host, port = cluster.base.removeprefix("http://").rsplit(":", 1)
    slow = socket.create_connection((host, int(port)))
    slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: capicua\r\n")
    slow_since = time.monotonic()
    slow.settimeout(0.5)
    with pytest.raises(TimeoutError):  # held open, not refused at once: only its timeout may close it
        slow.recv(64)
    clients = start_tables(cluster.base)
    seen = [Seen(f"client {c.table}", 0, []) for c in clients]

    def restart_redis() -> None:
        cluster.redis.kill()
        time.sleep(2)  # Redis away for a while: the test's disruption, not a wait for something to happen
        cluster.redis.start()

    try:
        run_async(scenario(cluster.base, clients, seen, restart_redis))
    except BaseException:
        for node in cluster.nodes:
            print(node.output())
        raise
    check_tables(cluster.database, clients, seen)
    health_now = [health(n) for n in cluster.nodes]
    assert all(h is not None and h["redis"] == "ok" for h in health_now), health_now
    # nginx closed the half-sent request (with a 408, or nothing), once its header timeout had passed.
    slow.settimeout(HEADER_TIMEOUT + 10)
    try:
        answer = slow.recv(64)
    finally:
        slow.close()
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer
    assert time.monotonic() - slow_since >= HEADER_TIMEOUT - 1
