"""``kill -9`` in the middle of hands: no acknowledged action is lost or duplicated, and play goes on.

A real ``capicua serve`` process (SQLite in a temporary data directory) runs three tables, one of each
game, each with a scripted client over a real websocket in seat 0 and greedy bots in the others. The
server is killed with SIGKILL twice while hands are in play (once with an action of ours in flight) and
started again on the same data directory; the clients reconnect with the last event number they saw.

Checked: event numbers come contiguously and never go back; every acknowledged action is stored exactly
once, at the event number it was broadcast with, and in the match record at the same place; every match
plays on to its end; the stored records replay with the engine to the totals and winner the client saw.
Also: ``capicua serve`` on a busy port, or with an unreachable database, exits non-zero with a clear message.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from capicua.rules.record import Record, replay
from capicua.service.store import Store, StoredEvent, default_url
from tests.aio import run_async
from tests.web.helpers import QUICK
from tests.web.server import CAPICUA, HOST, Server, free_port

pytestmark = pytest.mark.slow

#: One table of each game; targets high enough that no match ends before the first kill.
GAMES: list[dict[str, Any]] = [
    {"variant": "amazonense", "target": 200, **QUICK},
    {"variant": "individual", "players": 3, "target": 100, **QUICK},
    {"variant": "dominousa", "target": 100, **QUICK},
]
KILLS = 2
#: Acknowledged actions each unfinished table needs between two kills.
ACKS_BEFORE_KILL = 3
FRAME_TIMEOUT = 60.0
TEST_TIMEOUT = 600.0


@dataclass
class Client:
    """The scripted player of one table: seat 0, over its own websocket."""

    table: str
    variant: str
    token: str
    rng: random.Random
    seat: int = 0
    last: int | None = None  # the newest event number this client knows
    state: dict[str, Any] | None = None
    seen: dict[int, dict[str, Any]] = field(default_factory=dict)  # n -> public event, as broadcast
    acked: list[tuple[int, str]] = field(default_factory=list)  # (event n, action) of acknowledged actions
    pending: tuple[int, str] | None = None  # (ref, action) sent, not answered
    pending_event: int | None = None  # the event our pending action was broadcast as
    lost: list[str] = field(default_factory=list)  # sent, then the server died before it answered
    # (ref, action, our last event when it was sent) of the action whose connection dropped before any answer and
    # whose event we have not seen: it may still be made, late (see send_next)
    uncertain: tuple[int, str, int | None] | None = None
    refused: list[str] = field(default_factory=list)  # our action refused as illegal: why
    trace: list[str] = field(default_factory=list)  # the newest frames, to explain a failure
    subscribed: bool = False  # the server answered this connection's subscribe
    end: dict[str, Any] | None = None
    started: bool = False
    acks_since_restart: int = 0
    connections: int = 0

    # -- frames ----------------------------------------------------------------------------------
    def receive(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        event = frame.get("event") or {}
        said = f"{event.get('action', '')}{' (timeout)' if event.get('timeout') else ''}"
        self.trace = [*self.trace[-20:], f"{kind} {frame.get('n', frame.get('ref'))} {said}"]
        if kind in ("event", "state", "synced"):
            self.subscribed = True
        if kind == "event":
            n = frame["n"]
            assert self.last is not None, frame
            assert n == self.last + 1, f"{self.table}: event {n} after {self.last}: not contiguous"
            self.last = n
            self.seen[n] = frame["event"]
            if frame.get("state"):
                self.state = frame["state"]
            # (a move the table made for us when our clock ran out, A10, is not our pending action: that one
            # is then refused as out of turn)
            ours = event["kind"] == "action" and event["seat"] == self.seat and not event.get("timeout")
            if ours and self.pending is not None:
                assert self.pending_event is None, f"{self.table}: one action of ours broadcast twice"
                self.pending_event = n
            if event["kind"] == "end":
                self.end = event
        elif kind == "state":
            # a full state: after a restart (the server keeps no frames) or on the first subscribe
            assert self.last is None or frame["n"] >= self.last, (
                f"{self.table}: the server is at event {frame['n']}, but the client saw event {self.last}"
            )
            self.last = frame["n"]
            self.state = frame["state"]
        elif kind == "synced":
            assert frame["n"] == self.last, f"{self.table}: synced at {frame['n']}, the client saw {self.last}"
        elif kind == "ack":
            assert self.pending is not None and frame["ref"] == self.pending[0], frame
            assert self.pending_event is not None, f"{self.table}: ack {frame} before the event was broadcast"
            assert self.pending_event <= frame["n"], frame
            self.acked.append((self.pending_event, self.seen[self.pending_event]["action"]))
            self.acks_since_restart += 1
            self.pending, self.pending_event = None, None
        elif kind == "error":
            # a bot's optional call (galo, a claim) may get in between our view and our action
            assert self.pending is not None and frame["ref"] == self.pending[0], frame
            assert frame["code"] == "illegal", frame
            assert self.pending_event is None, frame
            self.refused.append(f"{self.pending[1]!r} at event {self.last}: {frame['message']} ({self.trace[-6:]})")
            self.pending = None
        elif kind not in ("welcome", "pong"):
            raise AssertionError(f"unexpected frame {frame}")

    def next_action(self) -> str | None:
        """A legal action if it is our turn, we know the newest state and nothing is in flight."""
        if self.pending is not None or self.end is not None or self.state is None or not self.subscribed:
            return None
        hand = self.state.get("hand")
        if self.state["n"] != self.last or not hand or hand["end"] is not None or hand["turn"] != self.seat:
            return None
        legal: list[str] = hand["legal"]
        return self.rng.choice(legal) if legal else None

    def send_next(self, refs: Iterator[int]) -> tuple[int, str] | None:
        """The action to send now, with its ref (it becomes the pending one), if it is our turn.

        An action whose connection dropped before its answer may still be on its way to the table's server (that
        server, or the node that forwards it, slow: it is made after we subscribed again, docs/protocol.md,
        "Several servers"). So while the table is where it was when that action was sent, it is sent again with
        its ref: the table makes it once and answers the resend with its event number. A new action with a new
        ref would be refused as out of turn once the late one is made, and its event taken for the new one's."""
        action = self.next_action()
        if action is None:
            return None
        uncertain, self.uncertain = self.uncertain, None
        hand = self.state["hand"] if self.state is not None else None
        if uncertain is not None and uncertain[2] == self.last and hand and uncertain[1] in hand["legal"]:
            self.pending = (uncertain[0], uncertain[1])
        else:
            self.pending = (next(refs), action)
        return self.pending

    def connection_lost(self) -> None:
        if self.pending is not None:
            self.lost.append(self.pending[1])  # stored or not: nobody acknowledged it
            if self.pending_event is None:  # not made as far as we know: it may still be made
                self.uncertain = (*self.pending, self.last)
        self.pending, self.pending_event = None, None
        self.subscribed = False  # the old state may be stale: wait for the new connection's answer


async def play(client: Client, server: Server, refs: itertools.count[int]) -> None:
    """One websocket session: subscribe, play, until the match ends or the connection drops."""
    url = f"ws://{HOST}:{server.port}/ws?token={client.token}"
    async with connect(url, open_timeout=30, max_size=2**22) as ws:
        client.connections += 1
        await ws.send(json.dumps({"type": "subscribe", "table": client.table, "last": client.last}))
        while client.end is None:
            frame = json.loads(await asyncio.wait_for(ws.recv(), FRAME_TIMEOUT))
            client.receive(frame)
            if not client.started and frame["type"] == "state":
                client.started = True
                async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
                    r = await http.post(
                        f"/api/tables/{client.table}/start", headers={"Authorization": f"Bearer {client.token}"}
                    )
                    assert r.status_code == 200, r.text
            sent = client.send_next(refs)
            if sent is not None:
                ref, action = sent
                client.trace.append(f"sent {ref} {action}")
                await ws.send(json.dumps({"type": "action", "table": client.table, "action": action, "ref": ref}))


async def run_client(client: Client, server: Server, up: list[asyncio.Event], refs: itertools.count[int]) -> None:
    """Play the whole match, reconnecting after each kill once the server is up again."""
    generation = 0
    while client.end is None:
        await up[generation].wait()
        try:
            await play(client, server, refs)
        except (ConnectionClosed, OSError, InvalidHandshake) as exc:
            if generation + 1 >= len(up):
                raise
            client.connection_lost()
            try:  # a connection may drop only because the server was killed, and then it comes back
                await asyncio.wait_for(up[generation + 1].wait(), 120)
            except TimeoutError:
                raise AssertionError(f"{client.table}: the connection dropped, not by a kill: {exc!r}") from exc
            generation += 1


async def scenario(server: Server, clients: list[Client]) -> int:
    """Play all tables, killing the server up to ``KILLS`` times mid-hand; return how many kills there were."""
    up = [asyncio.Event() for _ in range(KILLS + 1)]
    up[0].set()
    refs = itertools.count(1)
    tasks = [asyncio.create_task(run_client(c, server, up, refs)) for c in clients]
    kills = 0
    try:
        for generation in range(KILLS):
            ready_since: float | None = None
            while True:
                for task in tasks:
                    if task.done():
                        task.result()  # a client's failure fails the test now
                live = [c for c in clients if c.end is None]
                if not live:
                    break
                if ready_since is None and all(c.acks_since_restart >= ACKS_BEFORE_KILL for c in live):
                    ready_since = time.monotonic()
                # kill while an action of ours is in flight, if one comes soon
                if ready_since is not None and (any(c.pending for c in live) or time.monotonic() > ready_since + 2):
                    break
                await asyncio.sleep(0.002)
            if not any(c.end is None for c in clients):
                break
            if generation == 0:
                assert all(c.end is None for c in clients), "a match ended before the first kill: raise the targets"
            server.kill9()
            kills += 1
            for c in clients:
                c.acks_since_restart = 0
            await asyncio.to_thread(server.start)
            up[generation + 1].set()
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
    return kills


def stored_events(data_dir: Path, table_ids: list[str]) -> dict[str, list[StoredEvent]]:
    async def read() -> dict[str, list[StoredEvent]]:
        store = Store(default_url(data_dir))
        try:
            return {t: await store.events.read(t) for t in table_ids}
        finally:
            await store.close()

    return run_async(read())


def test_kill_9_mid_hand_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    server = Server(data_dir, free_port())
    server.start()
    clients: list[Client] = []
    try:
        with httpx.Client(base_url=server.base, timeout=30) as http:
            for k, game in enumerate(GAMES):
                guest = http.post("/api/guests", json={"name": f"Cliente {k}"}).json()
                headers = {"Authorization": f"Bearer {guest['token']}"}
                r = http.post("/api/tables", json=game, headers=headers)
                assert r.status_code == 201, r.text
                table = r.json()["id"]
                assert http.post(f"/api/tables/{table}/join", json={"seat": 0}, headers=headers).json() == {"seat": 0}
                r = http.post(f"/api/tables/{table}/bots", json={"level": "greedy"}, headers=headers)
                assert r.status_code == 200, r.text
                clients.append(Client(table, game["variant"], guest["token"], random.Random(k)))

        kills = run_async(asyncio.wait_for(scenario(server, clients), TEST_TIMEOUT))
        assert kills >= 1, "the server was never killed"

        with httpx.Client(base_url=server.base, timeout=30) as http:
            records = {}
            for c in clients:
                rows = http.get(f"/api/tables/{c.table}/records").json()
                assert len(rows) == 1 and rows[0]["match"] == 1, rows
                assert c.end is not None and c.end["match"] == rows[0]["match"] and c.end["winner"] == rows[0]["winner"]
                r = http.get(f"/api/records/{rows[0]['id']}")
                assert r.status_code == 200, r.text
                records[c.table] = Record.loads(r.text)
    except BaseException:
        print(server.output())
        raise
    finally:
        server.stop()

    events = stored_events(data_dir, [c.table for c in clients])
    for c in clients:
        stored = events[c.table]
        label = f"{c.variant} table {c.table}"
        assert [e.n for e in stored] == list(range(1, len(stored) + 1)), f"{label}: stored events not contiguous"
        by_n = {e.n: e for e in stored}
        # every event the client saw is stored as it was broadcast
        for n, public in c.seen.items():
            assert by_n[n].kind == public["kind"], (label, n, public, by_n[n])
            if public["kind"] == "action":
                assert by_n[n].data["action"] == public["action"], (label, n)
        # every acknowledged action is stored once, at its event number
        acked_ns = [n for n, _ in c.acked]
        assert len(acked_ns) == len(set(acked_ns)), f"{label}: two acks for one event"
        assert c.acked, f"{label}: no action of ours was acknowledged"
        for n, action in c.acked:
            assert by_n[n].kind == "action" and by_n[n].data["action"] == action, (label, n, action)
        # the record holds exactly the stored actions, hand by hand, in order (nothing lost, nothing twice)
        hands: list[list[str]] = []
        where: dict[int, tuple[int, int]] = {}
        for e in stored:
            if e.kind == "deal":
                hands.append([])
            elif e.kind == "action":
                where[e.n] = (len(hands) - 1, len(hands[-1]))
                hands[-1].append(e.data["action"])
        record = records[c.table]
        assert hands == [h.actions for h in record.hands], f"{label}: the record differs from the stored events"
        for n, action in c.acked:
            hand_no, pos = where[n]
            assert record.hands[hand_no].actions[pos] == action
        # the match ended, and replays to what the client saw
        assert stored[-1].kind == "end" and [e.kind for e in stored].count("end") == 1, label
        match = replay(record)
        assert c.state is not None and c.end is not None
        assert match.is_over(), label
        assert match.winner == c.end["winner"] == c.state["winner"], label
        assert match.totals == c.state["totals"], label
        assert c.connections >= 2, f"{label}: the client never reconnected"
        print(
            f"{label}: {len(stored)} events, {len(c.acked)} acked, {len(c.lost)} unanswered at a kill, "
            f"{len(c.refused)} refused, {c.connections} connections, {len(record.hands)} hands, totals {match.totals}"
        )
    logs = server.output()
    assert "Traceback" not in logs, logs


def test_serve_on_a_busy_port_exits_with_a_clear_message(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind((HOST, 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run(
            [*CAPICUA, "serve", "--host", HOST, "--port", str(port), "--data-dir", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert out.returncode != 0
    assert f"cannot listen on {HOST}:{port}" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr, out.stderr


def test_serve_with_an_unreachable_database_exits_with_a_clear_message(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    env = {**os.environ, "CAPICUA_DATABASE_URL": f"postgresql+asyncpg://postgres:s3cret@127.0.0.1:{port}/capicua"}
    out = subprocess.run(
        [*CAPICUA, "serve", "--host", HOST, "--port", str(free_port()), "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert out.returncode != 0
    message = " ".join(out.stderr.split())  # rich may wrap it
    assert "cannot reach the database" in message and f"127.0.0.1:{port}" in message, out.stderr
    assert "s3cret" not in out.stderr and "Traceback" not in out.stderr, out.stderr
