"""A whole Swiss tournament through the real server: 64 teams of bot-played accounts, 6 rounds, every match
played over websockets (check-in, subscribe, moves) under Dominousa's strict rules (to 50 points, to keep
the suite's time), on SQLite and on PostgreSQL. The server is killed with
``kill -9`` once in the middle of a round and started again; the tournament still finishes, and:

- the standings the server publishes equal a recomputation from the match records downloaded afterwards
  (each board's winner and points, replayed by the engine);
- every action the server acknowledged is in its match's record, in order: nothing accepted was lost;
- every round paired each active team once, and no two teams met twice while avoidable (C10).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import secrets
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
from capicua.service.tournaments.swiss import Result, standings
from tests.aio import run_async
from tests.pg import ADMIN_DSN, admin, sqlalchemy_url
from tests.web.server import HOST, Server, free_port

pytestmark = pytest.mark.slow

TEAMS = 64
ROUNDS = 6
#: The kill comes in this round, once this many of its boards have their result.
KILL_ROUND, KILL_AFTER_BOARDS = 3, 8
#: Match rules: Dominousa to 50 (strict mode, on by default in tournaments), no pause between hands. A match of
#: a hand or a few proves what one of many does (results, standings, acknowledged actions); to 100 the rounds took
#: twice as long.
OPTIONS = {"target": 50, "pause_seconds": 0}
TIMEOUT = 900.0


@dataclass
class Player:
    """A bot-played account: checks in at its board's table each round and plays its seat there."""

    id: str
    username: str
    token: str
    rng: random.Random
    tables: list[str] = field(default_factory=list)  # the tables it was sent to, round by round
    acked: dict[str, list[str]] = field(default_factory=dict)  # table -> its actions the server acknowledged
    seat: int | None = None
    seats: dict[str, int] = field(default_factory=dict)  # table -> our seat there
    table: str | None = None
    last: int | None = None
    state: dict[str, Any] | None = None
    pending: tuple[int, str] | None = None
    done: set[str] = field(default_factory=set)  # tables whose match it saw end

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def choose(self) -> str | None:
        """Our move when it is our turn and nothing is in flight: the heaviest tile we can lay, else what the
        rules leave (a pass, a draw…)."""
        state = self.state
        if self.pending is not None or state is None or state["n"] != self.last:
            return None
        hand = state.get("hand")
        if state["table"]["status"] != "playing" or not hand or hand["end"] is not None:
            return None
        if hand["turn"] != self.seat or not hand["legal"]:
            return None
        legal: list[str] = hand["legal"]
        plays = [m for m in legal if m[:1].isdigit()]
        if plays:
            return max(plays, key=lambda m: (int(m[0]) + int(m[2]), self.rng.random()))
        return next((m for m in legal if m != "claim"), legal[0])


class Sim:
    """The server, the organiser, the players; the kill, and what each player was told."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.refs = itertools.count(1)
        self.generation = 0
        self.up = asyncio.Event()
        self.up.set()
        self.players: list[Player] = []
        self.organiser: Player | None = None
        self.tournament = ""
        self.killed = False
        self.http: httpx.AsyncClient | None = None

    async def call(self, method: str, path: str, who: Player | None = None, **kwargs: Any) -> httpx.Response:
        """An HTTP call that waits out the server's restart (one client for the whole run: making an httpx
        client costs about 50 ms of CPU, its TLS context, which a client per call paid a thousand times)."""
        assert self.http is not None, "only within run()"
        for _ in range(600):
            await self.up.wait()
            try:
                return await self.http.request(method, path, headers=who.headers if who else {}, **kwargs)
            except httpx.TransportError:  # the server killed: a pooled connection is dead, the next call opens one
                await asyncio.sleep(0.2)
        raise AssertionError(f"{method} {path}: the server did not come back")

    # -- setting up ---------------------------------------------------------------------------------
    async def accounts(self) -> None:
        """The organiser and the players, a few sign-ups at a time (each hashes its password with argon2, about
        0.2 s of CPU in a thread of the server: one after another they left the server idle between them)."""
        tag = secrets.token_hex(3)
        gate = asyncio.Semaphore(4)

        async def sign_up(k: int) -> Player:
            username = f"sim{tag}{k}"
            async with gate:
                r = await self.call("POST", "/api/accounts", json={"username": username, "password": "password1"})
            assert r.status_code == 201, r.text
            data = r.json()
            return Player(data["id"], username, data["token"], random.Random(k))

        self.organiser, *self.players = await asyncio.gather(*(sign_up(k) for k in range(2 * TEAMS + 1)))

    async def register(self) -> None:
        assert self.organiser is not None
        body = {"name": "Copa Simulada", "starts_at": "2030-06-01T12:00:00Z", "rounds": ROUNDS, "options": OPTIONS}
        r = await self.call("POST", "/api/tournaments", self.organiser, json=body)
        assert r.status_code == 201, r.text
        self.tournament = r.json()["id"]
        for a, b in zip(self.players[::2], self.players[1::2], strict=True):
            r = await self.call("POST", f"/api/tournaments/{self.tournament}/teams", a, json={"partner": b.username})
            assert r.status_code == 201, r.text
            r = await self.call("POST", f"/api/tournaments/{self.tournament}/teams/{r.json()['team']}/accept", b)
            assert r.status_code == 200, r.text

    async def page(self) -> dict[str, Any]:
        r = await self.call("GET", f"/api/tournaments/{self.tournament}", self.organiser)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    # -- playing ------------------------------------------------------------------------------------
    async def run_player(self, p: Player, table: str) -> None:
        """Check in at ``table`` and play our seat until its match ends, reconnecting across the kill."""
        r = await self.call("POST", f"/api/tournaments/{self.tournament}/checkin", p)
        assert r.status_code == 200, r.text
        assert r.json()["table"] == table, r.json()
        p.seat, p.table, p.last, p.state, p.pending = r.json()["seat"], table, None, None, None
        p.seats[table] = r.json()["seat"]
        p.acked.setdefault(table, [])
        while table not in p.done:
            await self.up.wait()
            generation = self.generation
            try:
                await self.play(p, table)
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                p.pending = None  # stored or not: nobody acknowledged it
                for _ in range(1200):
                    if self.generation != generation:
                        break
                    await asyncio.sleep(0.1)
                else:
                    raise

    async def play(self, p: Player, table: str) -> None:
        url = f"ws://{HOST}:{self.server.port}/ws?token={p.token}"
        async with connect(url, open_timeout=30, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "subscribe", "table": table, "last": p.last}))
            while table not in p.done:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
                kind = frame["type"]
                if kind == "event":
                    assert p.last is not None and frame["n"] == p.last + 1, (p.last, frame["n"])
                    p.last = frame["n"]
                    if "state" in frame:  # the events missed while away carry the state on the newest only
                        p.state = frame["state"]
                    if frame["event"]["kind"] == "end":
                        p.done.add(table)
                elif kind == "state":
                    p.last, p.state = frame["n"], frame["state"]
                    if p.state["table"]["status"] == "finished":
                        p.done.add(table)
                elif kind == "ack":
                    assert p.pending is not None and frame["ref"] == p.pending[0], frame
                    p.acked[table].append(p.pending[1])
                    p.pending = None
                elif kind == "error":
                    assert p.pending is not None and frame["ref"] == p.pending[0], frame
                    assert frame["code"] in ("illegal", "stale"), frame
                    p.pending = None
                move = p.choose()
                if move is not None:
                    ref = next(self.refs)
                    p.pending = (ref, move)
                    await ws.send(json.dumps({"type": "action", "table": table, "action": move, "ref": ref}))

    async def kill_when_due(self, page: dict[str, Any]) -> None:
        if self.killed or page["current_round"] != KILL_ROUND:
            return
        boards = page["rounds"][KILL_ROUND - 1]["boards"]
        if sum(b["status"] == "done" for b in boards) < KILL_AFTER_BOARDS:
            return
        self.killed = True
        self.up.clear()
        self.server.kill9()
        self.generation += 1
        await asyncio.to_thread(self.server.start)
        self.up.set()

    async def run(self) -> dict[str, Any]:
        limits = httpx.Limits(max_connections=None)  # every player may check in at once
        async with httpx.AsyncClient(base_url=self.server.base, timeout=60, limits=limits) as self.http:
            return await self._run()

    async def _run(self) -> dict[str, Any]:
        await self.accounts()
        await self.register()
        assert self.organiser is not None
        r = await self.call("POST", f"/api/tournaments/{self.tournament}/start", self.organiser)
        assert r.status_code == 200, r.text
        by_id = {p.id: p for p in self.players}
        started: set[str] = set()
        tasks: list[asyncio.Task[None]] = []
        end = time.monotonic() + TIMEOUT
        while True:
            for task in tasks:
                if task.done():
                    task.result()  # a player's failure fails the test now
            page = await self.page()
            if page["status"] == "finished":
                break
            assert time.monotonic() < end, f"not finished after {TIMEOUT}s: round {page['current_round']}"
            teams = {x["team"]: x for x in page["teams"]}
            for board in page["rounds"][-1]["boards"] if page["rounds"] else []:
                if board["table"] is None or board["table"] in started or board["status"] == "done":
                    continue
                started.add(board["table"])
                for team in (board["team_a"], board["team_b"]):
                    for seat in teams[team]["players"]:
                        player = by_id[seat["id"]]
                        player.tables.append(board["table"])
                        tasks.append(asyncio.create_task(self.run_player(player, board["table"])))
            await self.kill_when_due(page)
            await asyncio.sleep(0.5)
        await asyncio.gather(*tasks)
        assert self.killed, "the tournament ended before the kill"
        return await self.page()


# -- checks ------------------------------------------------------------------------------------------
def records_of(server: Server, tables: list[str]) -> dict[str, Record]:
    """Each table's match record, downloaded as any tool would."""
    out = {}
    with httpx.Client(base_url=server.base, timeout=60) as http:
        for table in tables:
            rows = http.get(f"/api/tables/{table}/records").json()
            assert len(rows) == 1, (table, rows)
            out[table] = Record.loads(http.get(f"/api/records/{rows[0]['id']}").text)
    return out


def recompute(page: dict[str, Any], records: dict[str, Record]) -> list[tuple[int, int, int, int]]:
    """The standings from the records alone: (team, wins, difference, points for), in C10's order."""
    results: dict[int, list[Result]] = {x["team"]: [] for x in page["teams"]}
    for rnd in page["rounds"]:
        for board in rnd["boards"]:
            a, b = board["team_a"], board["team_b"]
            if b is None:
                results[a].append(Result.bye(rnd["round"]))
                continue
            match = replay(records[board["table"]])
            assert match.winner is not None
            pa, pb = match.totals[0], match.totals[1]
            results[a].append(Result(rnd["round"], b, match.winner == 0, pa, pb))
            results[b].append(Result(rnd["round"], a, match.winner == 1, pb, pa))
    return [(s.team, s.wins, s.difference, s.points_for) for s in standings(results, page["id"])]


def is_subsequence(small: list[str], big: list[str]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def check(sim: Sim, page: dict[str, Any]) -> None:
    assert page["status"] == "finished" and page["current_round"] == ROUNDS
    assert len(page["rounds"]) == ROUNDS
    tables = [b["table"] for rnd in page["rounds"] for b in rnd["boards"] if b["table"]]
    records = records_of(sim.server, tables)
    met: set[frozenset[int]] = set()
    for rnd in page["rounds"]:
        boards = rnd["boards"]
        seated = [t for b in boards for t in (b["team_a"], b["team_b"]) if t is not None]
        assert sorted(seated) == list(range(1, TEAMS + 1)), f"round {rnd['round']} does not pair each team once"
        for b in boards:
            assert b["status"] == "done" and b["kind"] == "played", b  # nobody missed a table, even across the kill
            pair = frozenset((b["team_a"], b["team_b"]))
            assert pair not in met, f"round {rnd['round']}: teams {sorted(pair)} met again"
            met.add(pair)
            match = replay(records[b["table"]])
            assert b["points"] == match.totals[:2], (b, match.totals)
            assert b["winner"] == (b["team_a"] if match.winner == 0 else b["team_b"])
    published = [(x["team"], x["wins"], x["difference"], x["points_for"]) for x in page["standings"]]
    assert published == recompute(page, records)
    for p in sim.players:
        for table in p.tables:
            record = records[table]
            prefix = f"{p.seats[table]}: "
            mine = [a.removeprefix(prefix) for hand in record.hands for a in hand.actions if a.startswith(prefix)]
            assert is_subsequence(p.acked[table], mine), (p.username, table, p.acked[table][-5:], mine[-5:])


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    if request.param == "sqlite":
        yield None
        return
    name = f"capicua_sim_{secrets.token_hex(4)}"
    run_async(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield sqlalchemy_url(ADMIN_DSN, name)
    finally:
        run_async(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_C10_a_64_team_tournament_of_bots_finishes_across_a_kill_9_with_nothing_lost(
    tmp_path: Path, database: str | None
) -> None:
    server = Server(tmp_path / "data", free_port(), database)
    server.start()
    try:
        sim = Sim(server)
        page = run_async(sim.run())
        check(sim, page)
    finally:
        server.stop()
        with contextlib.suppress(Exception):
            print(server.output()[-2000:])
