"""Table server load: many tables played at once over real websockets, on one server process or several.

    python bench/server.py [--tables 100 500] [--seconds 20] [--bot greedy] [--variant dominousa] [--bot-delay 0.4]
    python bench/server.py --tables 500 --expert-tables 50     # 50 of them with expert bots (200 ms a move)
    python bench/server.py --tables 2000 --nodes 1 3 --postgres postgresql://postgres@127.0.0.1/postgres --failover

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

With ``--nodes K`` (several: one row each, e.g. ``--nodes 1 3``; PostgreSQL needed), a row runs K nodes on one
fresh database and the machine's Redis (``--redis``). Table k is created on node k mod K (which runs it); its
player's websocket goes to that node for the even k, to the next node for the odd k (its actions and frames
then cross Redis). Also measured: each node's ack p50/p99 (over the tables it runs), the acks of players on
the table's own node against those forwarded through another, Redis commands per action (``INFO stats``),
and, with ``--failover``, once the window is over, node 0 killed (SIGKILL): for each of its tables, the
seconds from the kill to the first event its player sees afterwards (the players reconnect, to another node,
and subscribe again from their last event).

Each scripted player comes from an address of its own (``X-Forwarded-For``, which the server takes from this
client on 127.0.0.1 as from a trusted proxy), so that ``--limits`` can keep the servers' rate limits on, as in
production (without it they run with ``--no-limits``). ``--against REV --repeat R`` measures the cost of a
change: each table count runs R times with the servers of commit REV (a temporary git worktree, its code
imported first) and R times with this checkout's, alternately, and a last table gives the medians and their
ratio (docs/benchmarks.md: the rate limits' cost at 500 tables).

Every run is bounded in time; the servers are stopped at the end of each run.
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
    owner: int = 0  # the node the table was created on, which runs it
    via: int = 0  # the node its websocket goes to
    event_times: list[float] = field(default_factory=list)  # when each event frame came (perf_counter)
    reconnects: int = 0
    address: str = "10.0.0.1"  # where this player comes from (X-Forwarded-For)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **forwarded(self.address)}


def address_of(k: int) -> str:
    """The address of table k's player: one of its own (10.0.0.0/8), as people each come from theirs."""
    k += 1
    return f"10.{(k >> 16) & 255}.{(k >> 8) & 255}.{k & 255}"


def forwarded(address: str) -> dict[str, str]:
    """The header a proxy in front of the server would add for a client at ``address``."""
    return {"X-Forwarded-For": address}


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
    nodes: int = 1
    #: node → (tables it runs, ack p50 ms, ack p99 ms) over its tables
    per_node: list[tuple[int, float, float]] = field(default_factory=list)
    local_ms: tuple[float, float] = (float("nan"), float("nan"))  # p50, p99 of players on the table's node
    forwarded_ms: tuple[float, float] = (float("nan"), float("nan"))  # p50, p99 of players on another node
    redis_per_action: float = float("nan")
    code: str = "this"  # which servers ran the row (Servers.label)
    failover_s: list[float] = field(default_factory=list)  # kill → the next event, per killed table


class Moved(Exception):
    """The node this player is on can no longer serve the table: connect again (to another node)."""


async def play(
    player: Player, ws: ClientConnection, http: httpx.AsyncClient, refs: itertools.count[int], stop: asyncio.Event
) -> None:
    """Receive frames; act on our turn (until ``stop``); ask for a rematch when a match ends."""
    while True:
        frame = json.loads(await ws.recv())
        kind = frame["type"]
        if kind == "moved" or (kind == "error" and frame.get("ref") == "sub"):
            raise Moved(kind)
        if kind == "event":
            player.event_times.append(time.perf_counter())
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
    player: Player,
    ports: list[int],
    alive: list[int],
    http: httpx.AsyncClient,
    refs: itertools.count[int],
    stop: asyncio.Event,
) -> None:
    """The player's websocket; with several nodes, connected again (to a living node) whenever it drops or the
    node says the table moved."""
    while True:
        url = f"ws://{HOST}:{ports[player.via]}/ws?token={player.token}"
        try:
            async with connect(
                url, open_timeout=60, ping_interval=None, max_size=2**22, additional_headers=forwarded(player.address)
            ) as ws:
                last = player.last if player.state is not None else None
                await ws.send(json.dumps({"type": "subscribe", "table": player.table, "last": last, "ref": "sub"}))
                await play(player, ws, http, refs, stop)
        except (ConnectionClosed, OSError, Moved):
            if len(ports) == 1 or not alive:
                player.dropped = True
                player.ready.set()
                return
            player.reconnects += 1
            player.pending = None  # made or not, the events say: it is not waited for
            if player.via not in alive:
                player.via = alive[player.reconnects % len(alive)]
            await asyncio.sleep(0.1)


async def setup(nodes: list[httpx.AsyncClient], variant: str, bot: str, limit: asyncio.Semaphore, k: int) -> Player:
    """Table k, created on node k mod K, its player's websocket on that node or (odd k) the next one."""
    owner = k % len(nodes)
    http = nodes[owner]
    address = address_of(k)
    async with limit:
        r = await _post(http, "/api/guests", json={"name": f"bench {k}"}, headers=forwarded(address))
        token = r.json()["token"]
        headers = {"Authorization": f"Bearer {token}", **forwarded(address)}
        body = {"variant": variant, "target": 1000, "move_seconds": 600, "pause_seconds": 0}
        if variant == "individual":
            body["players"] = PLAYERS[variant]
        table = (await _post(http, "/api/tables", json=body, headers=headers)).json()["id"]
        await _post(http, f"/api/tables/{table}/join", json={"seat": 0}, headers=headers)
        await _post(http, f"/api/tables/{table}/bots", json={"level": bot}, headers=headers)
        via = (owner + k % 2) % len(nodes)
        return Player(table, token, random.Random(k), bot, owner=owner, via=via, address=address)


async def _post(http: httpx.AsyncClient, url: str, **kwargs: Any) -> httpx.Response:
    """A set-up request, sent again when its connection broke (a loaded server may drop one): a second try that
    finds it done (409: the seat is taken, by us) counts as done."""
    for attempt in range(4):
        try:
            r = await http.post(url, **kwargs)
        except httpx.TransportError:
            if attempt == 3:
                raise
            await asyncio.sleep(0.5 * (attempt + 1))
            continue
        if not (attempt and r.status_code == 409):
            r.raise_for_status()
        return r
    raise AssertionError("unreachable")


def percentile(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


async def measure(
    servers: list[subprocess.Popen[bytes]], ports: list[int], n: int, args: argparse.Namespace, console: Console
) -> Result:
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
    refs = itertools.count(1)
    stop = asyncio.Event()
    pids = [s.pid for s in servers]
    alive = list(range(len(ports)))
    bases = [f"http://{HOST}:{port}" for port in ports]
    nodes = [httpx.AsyncClient(base_url=base, timeout=60, limits=limits) for base in bases]
    redis = None
    if len(ports) > 1:
        import redis.asyncio as aioredis

        redis = aioredis.Redis.from_url(args.redis)
    failover: list[float] = []
    try:
        limit = asyncio.Semaphore(50)
        levels = [args.expert if k < args.expert_tables else args.bot for k in range(n)]
        players = list(await asyncio.gather(*(setup(nodes, args.variant, levels[k], limit, k) for k in range(n))))
        tasks = [asyncio.create_task(client(p, ports, alive, nodes[p.owner], refs, stop)) for p in players]
        try:
            await asyncio.gather(*(p.ready.wait() for p in players))

            async def start(p: Player) -> None:
                async with limit:
                    await _post(nodes[p.owner], f"/api/tables/{p.table}/start", headers=p.headers)

            await asyncio.gather(*(start(p) for p in players if not p.dropped))
            console.log(f"{n} tables playing; warming up for {args.warmup:.0f} s, then measuring {args.seconds:.0f} s")
            await asyncio.sleep(args.warmup)

            actions0 = [p.actions for p in players]
            commands0 = (await redis.info("stats"))["total_commands_processed"] if redis is not None else 0
            cpu0, client0, t0 = sum(map(cpu_seconds, pids)), time.process_time(), time.perf_counter()
            workers0 = sum(map(children_cpu_seconds, pids))
            await asyncio.sleep(args.seconds)
            cpu1, client1, t1 = sum(map(cpu_seconds, pids)), time.process_time(), time.perf_counter()
            workers1 = sum(map(children_cpu_seconds, pids))
            commands1 = (await redis.info("stats"))["total_commands_processed"] if redis is not None else 0
            actions1 = [p.actions for p in players]
            rss = sum(map(rss_mb, pids))
            if args.failover and len(servers) > 1:
                failover = await kill_node_0(servers[0], players, alive, console)
            stop.set()  # no new actions; let the ones in flight be answered before closing
            deadline = time.monotonic() + 10
            while any(p.pending and not p.dropped for p in players) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        finally:
            alive.clear()  # the players stop reconnecting
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for http in nodes:
            await http.aclose()
        if redis is not None:
            await redis.aclose()
    wall = t1 - t0
    done = [b - a for a, b in zip(actions0, actions1, strict=True)]

    def trips(chosen: list[Player]) -> list[float]:
        return [rt * 1000 for p in chosen for sent, rt in p.round_trips if t0 <= sent < t1]

    def p99(expert: bool) -> float:
        return percentile(trips([p for p in players if (p.bots == args.expert) == expert]), 99)

    every = trips(players)
    local = trips([p for p in players if p.via == p.owner])
    forwarded = trips([p for p in players if p.via != p.owner])
    per_node = []
    for k in range(len(ports)):
        mine = trips([p for p in players if p.owner == k])
        per_node.append((sum(p.owner == k for p in players), percentile(mine, 50), percentile(mine, 99)))
    return Result(
        tables=n,
        in_play=sum(1 for d in done if d > 0),
        actions_per_second=sum(done) / wall,
        p50_ms=percentile(every, 50),
        p99_ms=percentile(every, 99),
        acks=len(every),
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
        nodes=len(ports),
        per_node=per_node,
        local_ms=(percentile(local, 50), percentile(local, 99)),
        forwarded_ms=(percentile(forwarded, 50), percentile(forwarded, 99)),
        redis_per_action=(commands1 - commands0) / max(1, sum(done)) if redis is not None else float("nan"),
        failover_s=failover,
    )


async def kill_node_0(
    server: subprocess.Popen[bytes], players: list[Player], alive: list[int], console: Console
) -> list[float]:
    """SIGKILL node 0; for each table it ran, the seconds from then to the next event its player sees."""
    killed = [p for p in players if p.owner == 0 and not p.dropped]
    server.kill()
    at = time.perf_counter()
    alive.remove(0)
    console.log(f"node 0 killed: waiting for its {len(killed)} tables to play on elsewhere")
    deadline = at + 60
    while time.perf_counter() < deadline and not all(p.event_times and p.event_times[-1] > at for p in killed):
        await asyncio.sleep(0.05)
    return sorted(next((t - at for t in p.event_times if t > at), float("inf")) for p in killed)


async def _admin(dsn: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@dataclass(frozen=True)
class Servers:
    """Which code the servers of a row run: ``label`` in the tables; ``tree``: a checkout whose ``capicua`` is
    imported first (None: this one); ``flags``: added to ``capicua serve``."""

    label: str
    tree: Path | None = None
    flags: tuple[str, ...] = ()


def run(n: int, k: int, args: argparse.Namespace, console: Console, code: Servers | None = None) -> Result:
    """One row: ``k`` fresh servers (nodes of one database), N tables, the measurement, the servers stopped."""
    code = code or Servers("this", flags=() if args.limits else ("--no-limits",))
    with tempfile.TemporaryDirectory(prefix="capicua-bench-") as tmp:
        ports = [free_port() for _ in range(k)]
        logs = [Path(tmp) / f"server-{i}.log" for i in range(k)]
        env = {key: v for key, v in os.environ.items() if not key.startswith("CAPICUA_")}  # SQLite
        env["CAPICUA_SECRET"] = secrets.token_urlsafe(32)  # one secret: each node takes the others' tokens
        database = None
        if args.postgres:  # a fresh database of its own on that server, dropped at the end
            database = f"capicua_bench_{secrets.token_hex(4)}"
            asyncio.run(_admin(args.postgres, f'CREATE DATABASE "{database}"'))
            netloc = urlsplit(args.postgres).netloc
            env["CAPICUA_DATABASE_URL"] = f"postgresql+asyncpg://{netloc}/{database}"
        if k > 1:
            env["CAPICUA_REDIS_URL"] = args.redis
        if code.tree is not None:
            env["PYTHONPATH"] = str(code.tree)
        servers = []
        for i, port in enumerate(ports):
            command = [sys.executable, "-m", "capicua.cli", "serve", "--host", HOST, "--port", str(port)]
            command += ["--data-dir", str(Path(tmp) / f"data-{i}"), "--bot-delay", str(args.bot_delay)]
            command += list(code.flags)
            command += ["--call-grace", str(args.call_grace), "--node-name", f"bench-{i}-{secrets.token_hex(2)}"]
            command += ["--lease-seconds", str(args.lease_seconds)]
            with logs[i].open("wb") as out:
                servers.append(
                    subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=code.tree or None)
                )
        try:
            for server, port, log in zip(servers, ports, logs, strict=True):
                deadline = time.monotonic() + 60
                while True:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"the server did not start:\n{log.read_text(errors='replace')[-3000:]}")
                    with contextlib.suppress(httpx.TransportError):
                        if httpx.get(f"http://{HOST}:{port}/api/tables", timeout=2).status_code == 200:
                            break
                    time.sleep(0.1)
            budget = max(SETUP_MIN, SETUP_PER_TABLE * n) + args.warmup + args.seconds + 90
            try:
                result = asyncio.run(asyncio.wait_for(measure(servers, ports, n, args, console), budget))
                result.code = code.label
                return result
            except TimeoutError:
                raise SystemExit(f"the run with {n} tables did not finish within {budget:.0f} s") from None
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(timeout=30)
            if database is not None:
                asyncio.run(_admin(args.postgres, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
            for log in logs:
                _report_tracebacks(log.read_text(errors="replace"), n, console)


def _report_tracebacks(text: str, n: int, console: Console) -> None:
    if "Traceback" in text:
        first = text[text.index("Traceback") :].split("\nTraceback")[0].split("\nINFO")[0]
        first = "\n".join(first.splitlines()[-12:])
        console.print(f"[yellow]the server logged {text.count('Traceback')} tracebacks with {n} tables; the first:[/]")
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
    parser.add_argument("--nodes", type=int, nargs="+", default=[1], help="node counts, one row each (with --tables)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="the Redis of several nodes")
    parser.add_argument("--lease-seconds", type=float, default=5.0, help="the nodes' --lease-seconds")
    parser.add_argument("--failover", action="store_true", help="with several nodes: kill node 0 after the window")
    parser.add_argument(
        "--limits", action="store_true", help="keep the servers' rate limits on (each player from its own address)"
    )
    parser.add_argument("--against", metavar="REV", help="alternate each row with the servers of this git commit")
    parser.add_argument("--repeat", type=int, default=1, help="with --against: rows of each kind per table count")
    args = parser.parse_args()
    if any(n < 1 or n > 5000 for n in args.tables) or not 0 < args.seconds <= 600 or not 0 <= args.warmup <= 60:
        parser.error("tables must be 1..5000, seconds 0..600, warmup 0..60")
    if any(k < 1 or k > 8 for k in args.nodes) or (max(args.nodes) > 1 and not args.postgres):
        parser.error("nodes must be 1..8, and several nodes need --postgres (they share one database)")
    if not 1 <= args.repeat <= 20:
        parser.error("repeat must be 1..20")
    console = Console(width=None if sys.stdout.isatty() else 160)
    if args.against:
        results = compare(args, console)
    else:
        results = [run(n, k, args, console) for n in args.tables for k in args.nodes]

    bots = f"3 {args.bot} bots" + (f" ({args.expert_tables} tables: 3 {args.expert})" if args.expert_tables else "")
    table = Table(
        title=f"capicua serve: {args.variant}, 1 scripted player + {bots} a table "
        f"(bot delay {args.bot_delay:g} s ±50 %), {'PostgreSQL' if args.postgres else 'SQLite'}, "
        f"{args.seconds:g} s a row ({os.cpu_count()} CPUs)"
    )
    if args.against:
        table.add_column("servers")
    for name in ("tables", "nodes", "in play", "actions/s", "ack p50 ms", "ack p99 ms", "acks", "errors", "rematches"):
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
            *([r.code] if args.against else []),
            str(r.tables),
            str(r.nodes),
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
    if any(r.nodes > 1 for r in results):
        console.print(nodes_table(results))
    if args.against:
        console.print(ratio_table(results, args))
    for r in results:
        for text, count in r.error_codes.most_common(5):
            console.print(f"{r.tables} tables: {count} × error {text}", markup=False, highlight=False)


def compare(args: argparse.Namespace, console: Console) -> list[Result]:
    """The rows of ``--against REV``: for each table count (and node count), the servers of REV and this
    checkout's in turn, ``--repeat`` times each, so that what else the machine does falls on both alike."""
    root = Path(__file__).resolve().parents[1]
    label = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", args.against], capture_output=True, text=True, check=True
    ).stdout.strip()
    results = []
    with tempfile.TemporaryDirectory(prefix="capicua-against-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", str(tree), args.against], check=True,
                       capture_output=True)  # fmt: skip
        try:
            serve = subprocess.run(
                [sys.executable, "-m", "capicua.cli", "serve", "--help"],
                capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree,
            ).stdout  # fmt: skip
            before = Servers(label, tree, ("--no-limits",) if "--no-limits" in serve and not args.limits else ())
            this = Servers("this", None, () if args.limits else ("--no-limits",))
            for n in args.tables:
                for k in args.nodes:
                    for _ in range(args.repeat):
                        for code in (before, this):
                            console.print(f"{n} tables, {k} node(s): the servers of {code.label}", highlight=False)
                            results.append(run(n, k, args, console, code))
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], capture_output=True)
    return results


def ratio_table(results: list[Result], args: argparse.Namespace) -> Table:
    """The medians of each kind of servers per table count, and this checkout's over the other's."""
    limits = "rate limits on" if args.limits else "--no-limits"
    table = Table(title=f"this checkout ({limits}) against {results[0].code}: medians of {args.repeat} rows each")
    for name in ("tables", "nodes", "actions/s before", "actions/s this", "ratio", "ack p99 before", "ack p99 this",
                 "ratio", "server CPU before", "server CPU this"):  # fmt: skip
        table.add_column(name, justify="right")
    keys = sorted({(r.tables, r.nodes) for r in results})
    for n, k in keys:
        before = [r for r in results if (r.tables, r.nodes) == (n, k) and r.code != "this"]
        this = [r for r in results if (r.tables, r.nodes) == (n, k) and r.code == "this"]

        def median(rows: list[Result], key: str) -> float:
            return statistics.median(float(getattr(r, key)) for r in rows)

        a0, a1 = median(before, "actions_per_second"), median(this, "actions_per_second")
        p0, p1 = median(before, "p99_ms"), median(this, "p99_ms")
        cpu0, cpu1 = median(before, "server_cpu"), median(this, "server_cpu")
        table.add_row(str(n), str(k), f"{a0:,.0f}", f"{a1:,.0f}", f"{a1 / a0:.3f}", f"{p0:.1f}", f"{p1:.1f}",
                      f"{p1 / p0:.3f}", f"{cpu0:.0f} %", f"{cpu1:.0f} %")  # fmt: skip
    return table


def nodes_table(results: list[Result]) -> Table:
    """Per node, local against forwarded acks, Redis per action, failover: the rows of several nodes."""
    table = Table(title="several nodes: acks by the node that runs the table, and through another node")
    for name in ("tables", "nodes", "per node: tables, ack p50/p99 ms", "on its node p50/p99", "forwarded p50/p99"):
        table.add_column(name, justify="right")
    for name in ("Redis cmds/action", "server CPU/table", "failover p50/p90/max s"):
        table.add_column(name, justify="right")
    for r in results:
        if r.nodes == 1:
            continue
        nodes = "; ".join(f"{t}: {a:.0f}/{b:.0f}" for t, a, b in r.per_node)
        gaps = r.failover_s
        failover = (
            f"{percentile(gaps, 50):.2f}/{percentile(gaps, 90):.2f}/{max(gaps):.2f} ({len(gaps)})" if gaps else "-"
        )
        table.add_row(
            str(r.tables),
            str(r.nodes),
            nodes,
            f"{r.local_ms[0]:.1f}/{r.local_ms[1]:.1f}",
            f"{r.forwarded_ms[0]:.1f}/{r.forwarded_ms[1]:.1f}",
            f"{r.redis_per_action:.1f}",
            f"{r.server_cpu / max(1, r.in_play):.2f} %",
            failover,
        )
    return table


if __name__ == "__main__":
    main()
