"""Uploaded records a hostile client sends (issue 18, item 8): a record that does not replay is 422 naming the
step (it was a 500 for most of them), a body over the limit is 413 before it is read, and reading and
replaying a large upload happens off the event loop, which goes on serving meanwhile."""

from __future__ import annotations

import concurrent.futures
import contextlib
import copy
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from capicua.bots import analysis as bots_analysis
from capicua.service.analysis import MAX_HAND_ACTIONS, MAX_UPLOAD
from capicua.service.platform import Platform
from capicua.service.store import Store, default_url
from capicua.service.tables import TableConfig
from capicua.web.app import create_app
from capicua.web.routing import MAX_BODY
from tests.service.test_analysis_service import a_record
from tests.web.server import HOST, Server, free_port

RECORD = a_record(seed=6)  # an Amazonense match to 50 points


def platform(client: TestClient) -> Platform:
    p: Platform = client.app.state.platform  # type: ignore[attr-defined]
    return p


def nothing_started(client: TestClient) -> bool:
    """No analysis was started (one stays in ``running`` until it is done), and no upload is held."""
    analyses = platform(client).analyses
    return not analyses.running and not analyses._uploads and analyses.computed == 0


def upload(client: TestClient, record: Any) -> httpx2.Response:
    r: httpx2.Response = client.post("/api/analysis", json=record)
    return r


def with_action(action: str, hand: int = 0, at: int = 0) -> dict[str, Any]:
    record = copy.deepcopy(RECORD)
    record["hands"][hand]["actions"][at] = action
    return record


@pytest.fixture
def quick(client: TestClient) -> TestClient:
    platform(client).analyses.worlds = 1  # a record that replays is analysed at once, cheaply
    return client


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("7: pass", "there is no seat 7"),
        ("0: 9-9", "not a move"),
        ("zzz", "not an action"),
        ("0: " + "x" * 100_000, "not a move"),
        ("²: pass", "bad seat"),
        ("2: 6-6 galo galo", "not a move"),
    ],
    ids=["no-seat-7", "9-9", "zzz", "100000-characters", "superscript-seat", "galo-galo"],
)
def test_an_action_that_does_not_replay_is_422_naming_its_step(quick: TestClient, action: str, reason: str) -> None:
    """These were 500s: only some of the walker's errors became 422."""
    r = upload(quick, with_action(action))
    assert r.status_code == 422, r.text
    data = r.json()
    assert data["error"] == "invalid" and reason in data["message"], data
    assert data["message"].startswith("the record does not replay: hand 1, action 1 ("), data
    assert len(data["message"]) < 400  # a 10^5-character action is cut short in the message
    assert nothing_started(quick)


actions = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["7: pass", "0: 9-9", "zzz", "²: pass", "٣: pass", "-: time", "0: galo", "1: claim", "0: draw"]),
    st.builds(lambda s, a, b, e: f"{s}: {a}-{b} {e}", st.integers(0, 9), st.integers(0, 9), st.integers(0, 9),
              st.sampled_from(["", "W", "E", "N", "S", "L", "R", "X", "galo"])),
)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hand=st.integers(0, 20), at=st.integers(0, 60), action=actions, insert=st.booleans())
def test_a_perturbed_upload_is_analysed_or_refused_422_never_500(
    quick: TestClient, hand: int, at: int, action: str, insert: bool
) -> None:
    record = copy.deepcopy(RECORD)
    hand %= len(record["hands"])
    moves = record["hands"][hand]["actions"]
    at %= len(moves)
    if insert:
        moves.insert(at, action)
    else:
        moves[at] = action
    r = upload(quick, record)
    assert r.status_code in (200, 202, 422), (r.status_code, r.text)
    if r.status_code == 422:
        data = r.json()
        assert data["error"] == "invalid" and data["message"].startswith("the record does not replay: hand "), data


def test_a_hand_or_a_record_too_long_to_replay_here_is_422(quick: TestClient) -> None:
    """A hand of referee corrections (+1, -1, …) replays, but its step-by-step replay grows with the square
    of its length: an upload has at most 200 actions a hand (a real hand has about 50)."""
    record = copy.deepcopy(RECORD)
    record["variant"], record["options"] = "dominousa", {}
    long = record["hands"][0]["actions"]
    long[1:1] = ['ref(Ana): score 0 1 "x"', 'ref(Ana): score 0 -1 "x"'] * (MAX_HAND_ACTIONS // 2)
    r = upload(quick, record)
    assert r.status_code == 422 and "at most 200 actions" in r.json()["message"], r.text
    assert nothing_started(quick)


def test_an_upload_over_1_MiB_is_413_in_the_one_error_shape(quick: TestClient) -> None:
    record = dict(RECORD, padding="x" * MAX_UPLOAD)
    r = upload(quick, record)
    assert r.status_code == 413, r.text
    assert r.json() == {"error": "too-large", "message": f"a body here is at most {MAX_UPLOAD} bytes"}

    def streamed() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield json.dumps(record).encode()

    r = quick.post("/api/analysis", content=streamed(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too-large", r.text
    assert upload(quick, dict(RECORD, padding="x" * (MAX_UPLOAD - 100_000))).status_code == 202  # within it


def test_any_other_body_over_64_KiB_is_413(client: TestClient) -> None:
    for path in ("/api/guests", "/api/tables", "/api/login"):
        r = client.post(
            path, content=b'{"name": "' + b"x" * MAX_BODY + b'"}', headers={"content-type": "application/json"}
        )
        assert (r.status_code, r.json()["error"]) == (413, "too-large"), (path, r.text)


def test_the_loop_answers_while_a_large_upload_is_checked(quick: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check of an upload is held in the middle of its replay until a cheap request (the lobby) has been
    answered: on the event loop, the lobby would wait for the check, and the check for the lobby."""
    checking, answered = threading.Event(), threading.Event()
    positions = bots_analysis.positions_of

    def held(*args: Any, **kwargs: Any) -> Any:
        checking.set()
        answered.wait(timeout=30)
        return positions(*args, **kwargs)

    monkeypatch.setattr(bots_analysis, "positions_of", held)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        uploading = pool.submit(upload, quick, RECORD)
        assert checking.wait(timeout=30), "the upload was never checked"
        lobby = pool.submit(quick.get, "/api/tables")
        try:
            assert lobby.result(timeout=10).status_code == 200  # answered while the check is held
        finally:
            answered.set()
        assert uploading.result(timeout=60).status_code == 202


@pytest.mark.slow
def test_an_upload_is_checked_in_a_worker_process(tmp_path: Path) -> None:
    """With analysis workers (as the server runs), the check runs in a process of its own: its RecordError
    comes back whole, as a 422 naming the step, and a record that replays is analysed."""
    config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)
    app: FastAPI = create_app(Platform(Store(default_url(tmp_path)), "s", config))
    with TestClient(app) as client:
        platform(client).analyses.workers = 1
        platform(client).analyses.worlds = 1
        r = upload(client, with_action("0: 9-9", at=2))
        assert r.status_code == 422 and "hand 1, action 3 ('0: 9-9')" in r.json()["message"], r.text
        assert platform(client).analyses._checks is not None  # (a process pool)
        assert upload(client, RECORD).status_code == 202


def _reply(s: socket.socket) -> bytes:
    """The server's whole answer (it closes the connection after a 413 it sent before reading the body)."""
    reply = b""
    while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
        chunk = s.recv(65536)
        if not chunk:
            break
        reply += chunk
    return reply


@pytest.mark.slow
def test_a_real_server_refuses_a_long_body_before_reading_it(tmp_path: Path) -> None:
    """Over a socket to ``capicua serve``: a body announced longer than the limit is answered 413 before a
    byte of it is sent; a chunked one (no length) as soon as the bytes sent pass the limit, the rest unsent."""
    server = Server(tmp_path / "data", free_port())
    server.start()
    try:
        for path, length in (("/api/analysis", MAX_UPLOAD + 1), ("/api/guests", MAX_BODY + 1), ("/api/guests", 10**12)):
            with socket.create_connection((HOST, server.port), timeout=20) as s:
                s.sendall(
                    f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {length}\r\n\r\n".encode()
                )  # and nothing more: a server that waited for the body would time out here
                reply = _reply(s)
            head, _, body = reply.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 413"), reply[:300]
            assert json.loads(body)["error"] == "too-large", reply[:300]
        with socket.create_connection((HOST, server.port), timeout=20) as s:
            s.sendall(
                f"POST /api/analysis HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                "Transfer-Encoding: chunked\r\n\r\n".encode()
            )
            chunk = b"x" * 65536
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # (answered before the last one)
                for _ in range(MAX_UPLOAD // len(chunk) + 1):  # just past the limit; the end is never sent
                    s.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            reply = _reply(s)
        assert reply.startswith(b"HTTP/1.1 413"), reply[:300]
        assert httpx.get(f"{server.base}/api/tables", timeout=10).status_code == 200  # and it goes on serving
    finally:
        server.stop()
