"""Table server load: many tables played at once over real websockets, one server process.

    python bench/server.py [--tables 100 500] [--seconds 20] [--bot greedy] [--variant dominousa] [--bot-delay 0.4]
    python bench/server.py --tables 500 --expert-tables 50     # 50 of them with expert bots (200 ms a move)

For each table count N, a fresh ``capicua serve`` is started as a subprocess (SQLite in a temporary
directory, or with ``--postgres DSN`` a fresh database on that PostgreSQL server, dropped after the row;
listening on 127.0.0.1 only, the bots at the server's own pace: ``--bot-delay``, 0.4 s on
average as in production; ``--bot-delay 0`` makes them move at once, which measures how many actions
the server can take rather than how it answers a table). This one client process creates N tables,
each with a scripted player in seat 0 on its own websocket (it acts as soon as it is its turn) and
bots in the other seats, starts them all, and lets them play (a finished match is followed by a
rematch) for ``--seconds`` after a short warm-up. Measured over that window:

- tables in play: tables whose client saw at least one action in the window;
- actions per second: every committed action, bots' included (``event`` frames of kind ``action``,
  counted on the one client of each table);
- the scripted players' own round trip (``action`` sent → ``ack``, which comes after the commit), p50/p99;
- the server's CPU (``/proc/<pid>/stat``, user + system, in % of one core) and its resident memory,
  and the CPU of its bot workers (the processes the searching bots think in);
- with ``--expert-tables K``, the first K tables seat expert bots (``--expert`` spec, 200 ms a move by
  default) and the others ``--bot``: the ack p99 of the people at each kind of table, and the actions
  per second at the expert tables (their bots think in the workers, never on the event loop);
- this client's own CPU, to show when the load generator, not the server, is the limit.

Every run is bounded in time; the server is stopped at the end of each run.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"  # loopback only
CLK_TCK = os.sysconf("SC_CLK_TCK")
PLAYERS = {"amazonense": 4, "dominousa": 4, "individual": 4}
#: Seconds allowed to create, connect and start the tables of one run, per table, and at least.
SETUP_PER_TABLE = 0.5
SETUP_MIN = 60.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (fields 14 and 15 of stat)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
    return port


def children_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process's children so far (the bot workers)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(OSError):
                total += cpu_seconds(int(child))
    return total


@dataclass
class Player:
    """The scripted player of one table (seat 0)."""

    table: str
    token: str
    rng: random.Random
    bots: str = "greedy"
    state: dict[str, Any] | None = None
    last: int = 0
    pending: tuple[int, float] | None = None  # (ref, sent at)
    actions: int = 0  # action events seen, every seat
    round_trips: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds to ack)
    errors: int = 0
    error_codes: collections.Counter[str] = field(default_factory=collections.Counter)
    rematches: int = 0
    dropped: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Result:
    tables: int
    in_play: int
    actions_per_second: float
    p50_ms: float
    p99_ms: float
    acks: int
    errors: int
    rematches: int
    dropped: int
    server_cpu: float
    client_cpu: float
    server_rss: float
    error_codes: collections.Counter[str]
    workers_cpu: float = 0.0
    expert_tables: int = 0
    expert_p99_ms: float = float("nan")
    others_p99_ms: float = float("nan")
    expert_actions_per_second: float = 0.0


async def play(
    player: Player, ws: ClientConnection, http: httpx.AsyncClient, refs: itertools.count[int], stop: asyncio.Event
) -> None:
    """Receive frames; act on our turn (until ``stop``); ask for a rematch when a match ends."""
    while True:
        frame = json.loads(await ws.recv())
        kind = frame["type"]
        if kind == "event":
            player.last = frame["n"]
            player.state = frame.get("state") or player.state
            event = frame["event"]
            if event["kind"] == "action":
                player.actions += 1
            elif event["kind"] == "end" and not stop.is_set():
                r = await http.post(f"/api/tables/{player.table}/rematch", headers=player.headers)
                if r.status_code == 200:
                    player.rematches += 1
                else:
                    player.errors += 1
        elif kind == "state":
            player.last = frame["n"]
            player.state = frame["state"]
            player.ready.set()
        elif kind == "ack":
            if player.pending is not None and frame["ref"] == player.pending[0]:
                sent = player.pending[1]
                player.round_trips.append((sent, time.perf_counter() - sent))
                player.pending = None
        elif kind == "error":
            player.errors += 1
            player.error_codes[f"{frame.get('code')}: {frame.get('message')}"] += 1
            if player.pending is not None and frame.get("ref") == player.pending[0]:
                player.pending = None
        state = player.state
        if stop.is_set() or player.pending is not None or state is None or state["n"] != player.last:
            continue
        hand = state.get("hand")
        if not hand or hand["end"] is not None or hand["turn"] != 0 or not hand["legal"]:
            continue
        ref = next(refs)
        player.pending = (ref, time.perf_counter())
        action = player.rng.choice(hand["legal"])
        await ws.send(json.dumps({"type": "action", "table": player.table, "action": action, "ref": ref}))


async def client(
    player: Player, port: int, http: httpx.AsyncClient, refs: itertools.count[int], stop: asyncio.Event
) -> None:
    url = f"ws://{HOST}:{port}/ws?token={player.token}"
    try:
        async with connect(url, open_timeout=60, ping_interval=None, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "subscribe", "table": player.table}))
            await play(player, ws, http, refs, stop)
    except (ConnectionClosed, OSError):
        player.dropped = True
        player.ready.set()


async def setup(http: httpx.AsyncClient, variant: str, bot: str, limit: asyncio.Semaphore, k: int) -> Player:
    async with limit:
        r = await http.post("/api/guests", json={"name": f"bench {k}"})
        r.raise_for_status()
        token = r.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        body = {"variant": variant, "target": 1000, "move_seconds": 600, "pause_seconds": 0}
        if variant == "individual":
            body["players"] = PLAYERS[variant]
        r = await http.post("/api/tables", json=body, headers=headers)
        r.raise_for_status()
        table = r.json()["id"]
        (await http.post(f"/api/tables/{table}/join", json={"seat": 0}, headers=headers)).raise_for_status()
        (await http.post(f"/api/tables/{table}/bots", json={"level": bot}, headers=headers)).raise_for_status()
        return Player(table, token, random.Random(k), bot)


def percentile(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


async def measure(port: int, pid: int, n: int, args: argparse.Namespace, console: Console) -> Result:
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
    refs = itertools.count(1)
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60, limits=limits) as http:
        limit = asyncio.Semaphore(50)
        levels = [args.expert if k < args.expert_tables else args.bot for k in range(n)]
        players = list(await asyncio.gather(*(setup(http, args.variant, levels[k], limit, k) for k in range(n))))
        tasks = [asyncio.create_task(client(p, port, http, refs, stop)) for p in players]
        try:
            await asyncio.gather(*(p.ready.wait() for p in players))

            async def start(p: Player) -> None:
                async with limit:
                    (await http.post(f"/api/tables/{p.table}/start", headers=p.headers)).raise_for_status()

            await asyncio.gather(*(start(p) for p in players if not p.dropped))
            console.log(f"{n} tables playing; warming up for {args.warmup:.0f} s, then measuring {args.seconds:.0f} s")
            await asyncio.sleep(args.warmup)

            actions0 = [p.actions for p in players]
            cpu0, client0, t0 = cpu_seconds(pid), time.process_time(), time.perf_counter()
            workers0 = children_cpu_seconds(pid)
            await asyncio.sleep(args.seconds)
            cpu1, client1, t1 = cpu_seconds(pid), time.process_time(), time.perf_counter()
            workers1 = children_cpu_seconds(pid)
            actions1 = [p.actions for p in players]
            rss = rss_mb(pid)
            stop.set()  # no new actions; let the ones in flight be answered before closing
            deadline = time.monotonic() + 10
            while any(p.pending and not p.dropped for p in players) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    wall = t1 - t0
    done = [b - a for a, b in zip(actions0, actions1, strict=True)]
    trips = [rt * 1000 for p in players for sent, rt in p.round_trips if t0 <= sent < t1]

    def p99(expert: bool) -> float:
        chosen = [
            rt * 1000
            for p in players
            if (p.bots == args.expert) == expert
            for sent, rt in p.round_trips
            if t0 <= sent < t1
        ]
        return percentile(chosen, 99)

    return Result(
        tables=n,
        in_play=sum(1 for d in done if d > 0),
        actions_per_second=sum(done) / wall,
        p50_ms=percentile(trips, 50),
        p99_ms=percentile(trips, 99),
        acks=len(trips),
        errors=sum(p.errors for p in players),
        rematches=sum(p.rematches for p in players),
        dropped=sum(p.dropped for p in players),
        server_cpu=100 * (cpu1 - cpu0) / wall,
        client_cpu=100 * (client1 - client0) / wall,
        server_rss=rss,
        error_codes=sum((p.error_codes for p in players), collections.Counter()),
        workers_cpu=100 * (workers1 - workers0) / wall,
        expert_tables=min(n, args.expert_tables),
        expert_p99_ms=p99(True) if args.expert_tables else float("nan"),
        others_p99_ms=p99(False),
        expert_actions_per_second=sum(d for d, p in zip(done, players, strict=True) if p.bots == args.expert) / wall,
    )


async def _admin(dsn: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def run(n: int, args: argparse.Namespace, console: Console) -> Result:
    """One row: a fresh server, N tables, the measurement, the server stopped."""
    with tempfile.TemporaryDirectory(prefix="capicua-bench-") as tmp:
        port = free_port()
        log = Path(tmp) / "server.log"
        command = [sys.executable, "-m", "capicua.cli", "serve", "--host", HOST, "--port", str(port)]
        command += ["--data-dir", str(Path(tmp) / "data"), "--bot-delay", str(args.bot_delay)]
        command += ["--call-grace", str(args.call_grace)]
        env = {k: v for k, v in os.environ.items() if k != "CAPICUA_DATABASE_URL"}  # SQLite
        database = None
        if args.postgres:  # a fresh database of its own on that server, dropped at the end
            database = f"capicua_bench_{secrets.token_hex(4)}"
            asyncio.run(_admin(args.postgres, f'CREATE DATABASE "{database}"'))
            netloc = urlsplit(args.postgres).netloc
            env["CAPICUA_DATABASE_URL"] = f"postgresql+asyncpg://{netloc}/{database}"
        with log.open("wb") as out:
            server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.monotonic() + 60
            while True:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start:\n{log.read_text(errors='replace')[-3000:]}")
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(f"http://{HOST}:{port}/api/tables", timeout=2).status_code == 200:
                        break
                time.sleep(0.1)
            budget = max(SETUP_MIN, SETUP_PER_TABLE * n) + args.warmup + args.seconds + 30
            try:
                return asyncio.run(asyncio.wait_for(measure(port, server.pid, n, args, console), budget))
            except TimeoutError:
                raise SystemExit(f"the run with {n} tables did not finish within {budget:.0f} s") from None
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=30)
            if database is not None:
                asyncio.run(_admin(args.postgres, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
            text = log.read_text(errors="replace")
            if "Traceback" in text:
                first = text[text.index("Traceback") :].split("\nTraceback")[0].split("\nINFO")[0]
                first = "\n".join(first.splitlines()[-12:])
                console.print(
                    f"[yellow]the server logged {text.count('Traceback')} tracebacks with {n} tables; the first:[/]"
                )
                console.print(first, markup=False, highlight=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 500], help="table counts, one row each")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per row")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--bot", choices=["greedy", "random"], default="greedy", help="the bots' level")
    parser.add_argument("--variant", choices=sorted(PLAYERS), default="dominousa")
    parser.add_argument(
        "--call-grace",
        type=float,
        default=0.0,
        help="the server's --call-grace: bots wait this long after a person's play while he may still call "
        "(0 by default here, to measure the action path; the server's own default is 2)",
    )
    parser.add_argument("--expert-tables", type=int, default=0, help="tables (the first K) that seat expert bots")
    parser.add_argument("--expert", default="expert", help="the expert bots' spec (default expert: 200 ms a move)")
    parser.add_argument(
        "--bot-delay", type=float, default=0.4, help="seconds a bot waits before it moves (the server's default, 0.4)"
    )
    parser.add_argument(
        "--postgres",
        metavar="DSN",
        help="run the server on PostgreSQL instead of SQLite, e.g. postgresql://postgres@127.0.0.1/postgres "
        "(a fresh database on that server for each row, dropped after it)",
    )
    args = parser.parse_args()
    if any(n < 1 or n > 5000 for n in args.tables) or not 0 < args.seconds <= 600 or not 0 <= args.warmup <= 60:
        parser.error("tables must be 1..5000, seconds 0..600, warmup 0..60")
    console = Console(width=None if sys.stdout.isatty() else 160)
    results = [run(n, args, console) for n in args.tables]

    bots = f"3 {args.bot} bots" + (f" ({args.expert_tables} tables: 3 {args.expert})" if args.expert_tables else "")
    table = Table(
        title=f"capicua serve: {args.variant}, 1 scripted player + {bots} a table "
        f"(bot delay {args.bot_delay:g} s ±50 %), {'PostgreSQL' if args.postgres else 'SQLite'}, "
        f"{args.seconds:g} s a row ({os.cpu_count()} CPUs)"
    )
    for name in ("tables", "in play", "actions/s", "ack p50 ms", "ack p99 ms", "acks", "errors", "rematches"):
        table.add_column(name, justify="right")
    for name in ("dropped", "server CPU", "workers CPU", "client CPU", "server RSS"):
        table.add_column(name, justify="right")
    if args.expert_tables:
        for name in ("p99 ms: expert tables", "others", "expert tables actions/s"):
            table.add_column(name, justify="right")
    for r in results:
        experts = (
            [f"{r.expert_p99_ms:.1f}", f"{r.others_p99_ms:.1f}", f"{r.expert_actions_per_second:,.1f}"]
            if args.expert_tables
            else []
        )
        table.add_row(
            str(r.tables),
            str(r.in_play),
            f"{r.actions_per_second:,.0f}",
            f"{r.p50_ms:.1f}",
            f"{r.p99_ms:.1f}",
            str(r.acks),
            str(r.errors),
            str(r.rematches),
            str(r.dropped),
            f"{r.server_cpu:.0f} %",
            f"{r.workers_cpu:.0f} %",
            f"{r.client_cpu:.0f} %",
            f"{r.server_rss:.0f} MB",
            *experts,
        )
    console.print(table)
    console.print(
        "actions/s: every committed action (bots' included); ack: a scripted player's action sent → ack; "
        "CPU in % of one core."
    )
    for r in results:
        for text, count in r.error_codes.most_common(5):
            console.print(f"{r.tables} tables: {count} × error {text}", markup=False, highlight=False)


if __name__ == "__main__":
    main()
