"""The hostile requests of issue 21's table, sent again to a real `capicua serve` with its limits on, each row
from an address of its own (X-Forwarded-For, which the server takes from 127.0.0.1 as from a proxy): every
door is closed now, with a documented answer, no 5xx, no traceback in the server's log, nothing made past the
limit, and the server serving on.

| door | what is tried |
|---|---|
| login | 40 wrong passwords in 10 s |
| guests, tables | 60 guest identities, then 60 public tables from one guest |
| analysis uploads | 12 uploads with no login |
| request bodies | a 40 MB body |
| websocket | 1,500 connections from one client; 800 pings in a burst |
| slow clients | 500 half-sent requests (tests/web/test_slow_clients.py, on the server's own deadlines) |
| headers | `/`, `/api/…`, `/docs` |
| logout | `POST /api/logout` without the CSRF header |
| exports | a team named `=HYPERLINK(…)` (tests/web/test_tournaments.py: standings.csv neutralised) |
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from capicua.service.limits import SOCKETS_PER_ADDRESS
from tests.service.test_analysis_service import a_record
from tests.web.server import HOST, Server, free_port

pytestmark = pytest.mark.slow

_addresses = itertools.count(1)


def address() -> dict[str, str]:
    """A new client address for one row (the limits count per address)."""
    k = next(_addresses)
    return {"X-Forwarded-For": f"203.0.113.{k}"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("hostile") / "data", free_port(), limits=True)
    srv.start()
    yield srv
    srv.stop()
    log = "\n".join(path.read_text(errors="replace") for path in srv.logs)
    assert "Traceback" not in log, log[-4000:]


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as client:
        yield client


def statuses(responses: list[httpx.Response]) -> Counter[int]:
    found = Counter(r.status_code for r in responses)
    assert all(code < 500 for code in found), found
    for r in responses:
        if r.status_code == 429:
            assert r.json()["error"] == "too-fast" and int(r.headers["retry-after"]) >= 1
    return found


def test_login_40_wrong_passwords_in_10_seconds(http: httpx.Client) -> None:
    where = address()
    owner = {"username": "vitima", "password": "the right one"}
    assert http.post("/api/accounts", json=owner, headers=where).is_success
    tries = [
        http.post("/api/login", json={"username": "vitima", "password": f"guess {k}"}, headers=where) for k in range(40)
    ]
    found = statuses(tries)
    assert found[401] <= 10 and found[429] >= 30, found  # a few wrong answers, then waits
    # The owner, from his own address, is held back 30 s at most: the account's back-off says so.
    mine = http.post("/api/login", json=owner, headers=address())
    assert mine.status_code in (200, 429)
    if mine.status_code == 429:
        assert int(mine.headers["retry-after"]) <= 30


def test_60_guests_then_60_tables_from_one_guest(http: httpx.Client, server: Server) -> None:
    where = address()
    guests = [http.post("/api/guests", json={}, headers=where) for _ in range(60)]
    found = statuses(guests)
    assert found[200] <= 12 and found[429] >= 48, found
    token = next(r.json()["token"] for r in guests if r.status_code == 200)
    before = len(http.get("/api/tables").json())
    body = {"variant": "dominousa"}
    tables = [
        http.post("/api/tables", json=body, headers={"Authorization": f"Bearer {token}", **where}) for _ in range(60)
    ]
    found = statuses(tables)
    assert found[201] <= 12 and found[429] >= 48, found
    assert len(http.get("/api/tables").json()) - before == found[201]  # nothing made past the limit


def test_12_uploads_with_no_login(http: httpx.Client) -> None:
    where = address()
    record = a_record(seed=6)
    found = statuses([http.post("/api/analysis", json=record, headers=where) for _ in range(12)])
    assert found[429] >= 8 and sum(n for code, n in found.items() if code < 300) <= 4, found


def test_a_40_mb_body_is_refused_before_it_is_read(server: Server) -> None:
    with socket.create_connection((HOST, server.port), timeout=10) as s:
        s.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            b"content-length: 41943040\r\nX-Forwarded-For: 203.0.113.250\r\n\r\n" + b"[" * 65536
        )
        start, answer = time.monotonic(), b""
        while b"\r\n\r\n" not in answer:
            answer += s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413") and time.monotonic() - start < 5


def test_1500_websockets_and_800_pings(server: Server) -> None:
    url = f"ws://{HOST}:{server.port}/ws"

    async def one(headers: dict[str, str]) -> str:
        try:
            ws = await connect(url, additional_headers=headers, open_timeout=30)
        except (InvalidStatus, OSError) as exc:
            return f"refused: {exc}"
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if first["type"] == "error":
                assert first["code"] == "too-fast"
                await asyncio.wait_for(ws.wait_closed(), 30)
                assert ws.close_code == 1008
                return "closed 1008"
            assert first["type"] == "welcome"
            held.append(ws)
            return "open"
        except ConnectionClosed:
            return "closed"

    held: list[ClientConnection] = []

    async def flood() -> tuple[Counter[str], list[str]]:
        where = address()
        outcomes = Counter(await asyncio.gather(*(one(where) for _ in range(1500))))
        # 800 pings in a burst on one connection that got in (from a fresh address)
        async with connect(url, additional_headers=address(), open_timeout=30) as ws:
            assert json.loads(await ws.recv())["type"] == "welcome"
            for k in range(800):
                await ws.send(json.dumps({"type": "ping", "ref": k}))
            answers = [json.loads(await asyncio.wait_for(ws.recv(), 30)) for _ in range(800)]
            await ws.send(json.dumps({"type": "ping", "ref": "still there"}))
        for sock in held:
            await sock.close()
        return outcomes, [a["type"] if a["type"] == "pong" else a["code"] for a in answers]

    outcomes, answers = asyncio.run(flood())
    assert outcomes["open"] <= SOCKETS_PER_ADDRESS and outcomes["closed 1008"] >= 1500 - SOCKETS_PER_ADDRESS, outcomes
    assert set(answers) <= {"pong", "too-fast"} and answers.count("too-fast") >= 700, Counter(answers)
    assert httpx.get(f"{server.base}/api/tables", timeout=10).status_code == 200


def test_security_headers_and_logout_csrf(http: httpx.Client) -> None:
    for path in ("/", "/api/tables", "/docs"):
        headers = http.get(path).headers
        assert "default-src 'self'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"] or headers["x-frame-options"]
    r = http.post("/api/logout", headers=address())
    assert (r.status_code, r.json()["error"]) == (403, "forbidden")


def test_the_server_logged_no_traceback_and_serves_on(server: Server, tmp_path: Path) -> None:
    assert httpx.get(f"{server.base}/api/health", timeout=10).json()["database"] == "ok"
    log = "\n".join(path.read_text(errors="replace") for path in server.logs)
    assert "Traceback" not in log, log[-4000:]
