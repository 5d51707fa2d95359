"""Slow clients against `capicua serve` on its own, no proxy in front (issue 21, capicua/web/timeouts.py): a
connection that sends nothing, half a request's headers, or a body a byte at a time, gets 408 and is closed
once its deadline passes, 500 of them at once too; a client at a normal pace, and a websocket, are untouched."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import connect

from tests.web.server import HOST, Server, free_port

HEADERS, BODY = 1.0, 2.0  # the deadlines of this test's server, seconds


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("slow") / "data"
    srv = Server(data, free_port(), args=["--header-timeout", str(HEADERS), "--body-timeout", str(BODY)])
    srv.start()
    yield srv
    srv.stop()


def opened(server: Server) -> socket.socket:
    s = socket.create_connection((HOST, server.port), timeout=10)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 16)
    return s


def answer_and_close(s: socket.socket) -> tuple[bytes, float]:
    """What the server sends until it closes the connection, and how long that took (a timeout is a failure)."""
    start, data = time.monotonic(), b""
    while chunk := s.recv(4096):
        data += chunk
    return data, time.monotonic() - start


def test_half_sent_headers_get_408_and_the_connection_is_closed(server: Server) -> None:
    s = opened(server)
    s.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")  # and no end of the headers
    data, took = answer_and_close(s)
    assert data.startswith(b"HTTP/1.1 408") and took < HEADERS + 4


def test_a_connection_that_sends_nothing_is_closed(server: Server) -> None:
    data, took = answer_and_close(opened(server))
    assert data.startswith(b"HTTP/1.1 408") and took < HEADERS + 4


def test_a_body_sent_too_slowly_is_cut_off(server: Server) -> None:
    s = opened(server)
    s.sendall(b"POST /api/guests HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n{")
    start = time.monotonic()
    with pytest.raises((BrokenPipeError, ConnectionResetError)):
        while time.monotonic() - start < BODY + 8:
            s.sendall(b" ")
            time.sleep(0.2)  # a byte every 0.2 s: the whole 40 would take 8 s, past the body's 2
    assert time.monotonic() - start < BODY + 4


def test_500_half_sent_requests_are_all_closed_and_the_server_serves_on(server: Server) -> None:
    held = [opened(server) for _ in range(500)]
    for s in held:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    start = time.monotonic()
    for s in held:
        data, _ = answer_and_close(s)
        assert data.startswith(b"HTTP/1.1 408")
        s.close()
    assert time.monotonic() - start < HEADERS + 10
    assert httpx.get(f"{server.base}/api/tables", timeout=5).status_code == 200


def test_a_kept_alive_connection_gets_the_deadline_again_for_its_next_request(server: Server) -> None:
    s = opened(server)
    s.sendall(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n")
    first = b""
    while b"\r\n\r\n" not in first:
        first += s.recv(65536)
    assert first.startswith(b"HTTP/1.1 200")
    s.sendall(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n")  # the second one, half sent
    data, took = answer_and_close(s)
    assert b"HTTP/1.1 408" in data and took < HEADERS + 4


def test_normal_clients_and_websockets_outlive_the_deadlines(server: Server) -> None:
    with httpx.Client(base_url=server.base, timeout=10) as http:
        guest = http.post("/api/guests", json={"name": "Ana"}).json()
        time.sleep(HEADERS + 0.5)  # idle between two requests on one kept-alive connection: no 408
        assert http.get("/api/tables").status_code == 200
    with connect(f"ws://{HOST}:{server.port}/ws?token={guest['token']}", open_timeout=10) as ws:
        assert '"welcome"' in str(ws.recv(timeout=10))
        ws.send('{"type": "ping", "ref": "p1"}')
        assert '"pong"' in str(ws.recv(timeout=10))
        time.sleep(BODY + 0.5)  # a quiet socket past both deadlines: still open
        ws.send('{"type": "ping", "ref": "p2"}')
        assert '"p2"' in str(ws.recv(timeout=10))
