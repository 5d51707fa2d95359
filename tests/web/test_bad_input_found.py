"""The holes an outside check found (issue 10), one test each: a documented error, nothing changed.

Over the websocket: unpaired surrogates in ids and actions, ``ref`` values the server could not echo,
invalid UTF-8 in a text frame. Over HTTP: NaN, Infinity and 1e400 in a body, unpaired surrogates,
record ids beyond 64 bits, bodies that are not UTF-8 or nested 5,000 deep, coerced types, NUL in a
name, and the API page loading from the server alone.
"""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import struct
import time
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest

from tests.web.helpers import Harness, create_table
from tests.web.server import HOST, Server, free_port
from tests.web.test_bad_input import Game, ready, snapshot
from tests.web.test_rated import account
from tests.web.test_tournaments import page, register, tournament


def refused(h: Harness, game: Game, text: str, code: str, ref: Any = None) -> dict[str, Any]:
    """The mover sends ``text``: one error frame (``code``, ``ref`` echoed), nothing else anywhere,
    nothing changed, and the connection still answers."""
    conn = game.turn.conn
    assert conn is not None
    for c in game.conns:
        c.ping()
    before = snapshot(h, game.table_id)
    seen = {id(c): len(c.frames) for c in game.conns}
    conn.send_text(text)
    error = conn.expect("error")
    assert error["code"] == code and error["message"], error
    assert error["ref"] == ref, error
    for c in game.conns:
        c.ping()
        assert [f["type"] for f in c.frames[seen[id(c)] :]] == (["error", "pong"] if c is conn else ["pong"])
    assert snapshot(h, game.table_id) == before
    return error


# -- websocket --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "template",
    [
        '{"type": "subscribe", "table": "\\ud800"}',
        '{"type": "action", "table": "\\ud800", "action": "pass"}',
        '{"type": "action", "table": "TABLE", "action": "\\ud800"}',
        '{"type": "action", "table": "TABLE", "action": "MOVE", "ref": "\\udfff"}',
        '{"type": "ping", "ref": "\\ud83d"}',
    ],
    ids=["subscribe-table", "action-table", "action-text", "action-ref", "ping-ref"],
)
def test_ws_unpaired_surrogates_are_refused(h: Harness, seed: int, template: str) -> None:
    """A lone surrogate used to reach the store (UnicodeEncodeError) and abort the connection."""
    game = ready(h)
    text = template.replace("TABLE", game.table_id).replace("MOVE", game.view["legal"][0])
    error = refused(h, game, text, "malformed-json")
    assert "JSON" in error["message"]


@pytest.mark.parametrize(
    "ref",
    [2**64, -(2**63) - 1, 10**40, 2**53, "nested", "x" * 65],
    ids=["2^64", "-2^63-1", "10^40", "2^53", "nested-300", "65-characters"],
)
@pytest.mark.parametrize("kind", ["ping", "action"])
def test_ws_refs_the_server_cannot_echo_are_refused(h: Harness, seed: int, ref: Any, kind: str) -> None:
    """Such a ref killed the connection's writer (the socket went silent for good), and an action
    carrying one was committed without its ack. Now the message is refused before anything happens:
    the action is not played."""
    game = ready(h)
    value = "[" * 300 + "]" * 300 if ref == "nested" else json.dumps(ref)
    body = f'"type": "action", "table": "{game.table_id}", "action": "{game.view["legal"][0]}"'
    text = f'{{"type": "ping", "ref": {value}}}' if kind == "ping" else f'{{{body}, "ref": {value}}}'
    error = refused(h, game, text, "malformed")
    assert "ref must be" in error["message"]


def test_ws_good_refs_are_echoed(h: Harness, seed: int) -> None:
    game = ready(h)
    conn = game.turn.conn
    assert conn is not None
    for ref in (2**53 - 1, -(2**53 - 1), 0, "é" * 64, None):
        conn.send({"type": "ping", "ref": ref})
        assert conn.expect("pong")["ref"] == ref


def _handshake(port: int) -> socket.socket:
    s = socket.create_connection((HOST, port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET /ws HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += s.recv(4096)
    assert reply.startswith(b"HTTP/1.1 101"), reply
    return s


def _text_frame(payload: bytes) -> bytes:
    """A masked text frame holding ``payload`` as it is (a client library would refuse invalid UTF-8)."""
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


@pytest.mark.slow
def test_ws_invalid_utf8_closes_with_1007_and_logs_no_traceback(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", free_port())
    server.start()
    try:
        s = _handshake(server.port)
        s.sendall(_text_frame(b'{"type": "ping", "ref": "\xff\xfe"}'))
        received = b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and b"\x88" not in received:
            chunk = s.recv(4096)
            if not chunk:
                break
            received += chunk
        close = received[received.index(b"\x88") :]
        assert struct.unpack("!H", close[2:4])[0] == 1007, received  # invalid frame payload data
        s.close()
        # The server goes on serving, and said one line about it, not a traceback.
        assert httpx.get(f"{server.base}/api/tables", timeout=10).status_code == 200
        time.sleep(0.5)
        log = server.output()
        assert "Traceback" not in log, log
        assert "invalid UTF-8" in log, log
    finally:
        server.stop()


# -- HTTP -------------------------------------------------------------------------------------------------------
def post(h: Harness, path: str, content: bytes, token: str | None = None) -> httpx2.Response:
    headers = {"content-type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    r: httpx2.Response = h.client.post(path, content=content, headers=headers)  # TestClient runs on httpx2
    return r


def assert_invalid(r: httpx2.Response) -> dict[str, Any]:
    assert r.status_code == 422, (r.status_code, r.text)
    data: dict[str, Any] = r.json()  # the error body is JSON itself
    assert data["error"] == "invalid" and data["message"], data
    return data


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_http_non_finite_numbers_are_invalid(h: Harness, number: str) -> None:
    """The 422 handler echoed the input, which JSON cannot hold: a 500."""
    ana = h.guest("Ana")
    before = h.client.get("/api/tables").json()
    for body in (
        f'{{"variant": "dominousa", "target": {number}}}',
        f'{{"variant": "dominousa", "bots_after": {number}}}',
    ):
        assert_invalid(post(h, "/api/tables", body.encode(), ana.token))
    assert_invalid(post(h, "/api/guests", f'{{"name": {number}}}'.encode()))
    assert h.client.get("/api/tables").json() == before


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/guests", '{"name": "Ana \\ud800"}'),
        ("/api/tables", '{"variant": "dominousa\\udfff"}'),
        ("/api/accounts", '{"username": "ana_1", "password": "12345678\\ud800"}'),
        ("/api/login", '{"username": "\\ud800\\ud800\\ud800", "password": "12345678"}'),
    ],
)
def test_http_unpaired_surrogates_are_invalid(h: Harness, path: str, body: str) -> None:
    ana = h.guest("Ana")
    assert_invalid(post(h, path, body.encode(), ana.token))


@pytest.mark.parametrize("record_id", ["9223372036854775808", "99999999999999999999999", "-1", "0"])
def test_http_record_ids_outside_64_bits_are_invalid(h: Harness, record_id: str) -> None:
    """An id beyond 64 bits reached the database driver (OverflowError: a 500)."""
    for suffix in ("", "/steps"):
        assert_invalid(h.client.get(f"/api/records/{record_id}{suffix}"))


@pytest.mark.parametrize(
    "content",
    [b'{"name": "Ana \xff"}', b"\xfe\xff\x00{\x00}", b"[" * 5000 + b"]" * 5000, b'{"name": "' + b"[" * 5000 + b'"}'],
    ids=["latin-1", "utf-16", "nested-5000", "long-string"],
)
def test_http_bodies_that_are_not_utf8_json_are_422_invalid(h: Harness, content: bytes) -> None:
    """These were ``400 {"error": "error"}``, where the docs promise ``422 invalid``."""
    r = post(h, "/api/guests", content)
    if content.startswith(b'{"name": "['):
        assert r.status_code == 422  # valid JSON, a name too long
        return
    assert_invalid(r)


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "individual", "players": "2"},
        {"variant": "dominousa", "strict": "yes"},
        {"variant": "amazonense", "private": "no"},
        {"variant": "amazonense", "target": "200"},
        {"variant": "amazonense", "target": 200.0},
        {"variant": "amazonense", "sit": 1},
        {"variant": "individual", "lead": 1},
        {"variant": "amazonense", "bot": ["greedy"]},
        {"variant": "amazonense", "speed": "fast"},
    ],
)
def test_http_wrong_types_are_not_coerced(h: Harness, body: dict[str, Any]) -> None:
    ana = h.guest("Ana")
    before = h.client.get("/api/tables").json()
    assert_invalid(h.client.post("/api/tables", json=body, headers=ana.headers))
    assert h.client.get("/api/tables").json() == before


@pytest.mark.parametrize("name", ["Ana\x00", "\x00", "Ana\nBia", "Ana\x1b[31m", "\u202eAna"])
def test_http_names_with_control_characters_are_invalid(h: Harness, name: str) -> None:
    data = assert_invalid(h.client.post("/api/guests", json={"name": name}))
    assert "control" in data["message"]
    r = h.client.post("/api/accounts", json={"username": "ana_2", "password": "12345678", "name": name})
    assert_invalid(r)


def test_http_names_are_trimmed(h: Harness) -> None:
    assert h.client.post("/api/guests", json={"name": "  Ana   Paula "}).json()["name"] == "Ana Paula"
    assert h.client.post("/api/guests", json={"name": "   "}).json()["name"].strip()  # a generated one


def test_http_players_count_and_options_of_another_game(h: Harness) -> None:
    """What a game does not have is said in its words; the valid table is created with the game's defaults."""
    ana = h.guest("Ana")
    r = h.client.post("/api/tables", json={"variant": "amazonense", "strict": True}, headers=ana.headers)
    assert (r.status_code, r.json()["error"]) == (422, "bad-options")
    assert "strict is not an option of Dominó Amazonense" in r.json()["message"]
    r = h.client.post("/api/tables", json={"variant": "dominousa", "strict": True}, headers=ana.headers)
    assert r.status_code == 201, r.text
    assert r.json()["options"] == {
        "target": 200,
        "strict": True,
        "match_minutes": 40,
        "move_seconds": 40,
        "pause_seconds": 6,
        "auto_pass": False,  # C6: in strict mode a pass is the player's own act
    }


def test_http_api_page_loads_from_the_server_alone(h: Harness) -> None:
    """/docs: Swagger UI from the server's own files (no CDN)."""
    page = h.client.get("/docs").text
    urls = re.findall(r"""(?:src|href)=['"]([^'"]+)['"]""", page)
    assert urls and all(u.startswith("/") or u.startswith("data:") for u in urls), urls
    for url in urls:
        if url.startswith("/"):
            assert h.client.get(url).status_code == 200, url
    assert h.client.get("/openapi.json").json()["info"]["title"] == "capicua"


# -- issue 18, item 8 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("option", ["move_seconds", "target", "strict", "match_minutes", "pause_seconds", "auto_pass"])
def test_http_a_game_option_may_not_be_null(h: Harness, option: str) -> None:
    """``move_seconds: null`` was taken as the default: null is not a value of an option."""
    ana = h.guest("Ana")
    before = h.client.get("/api/tables").json()
    data = assert_invalid(
        h.client.post("/api/tables", json={"variant": "dominousa", option: None}, headers=ana.headers)
    )
    assert data["message"].startswith(f"{option}: "), data
    assert h.client.get("/api/tables").json() == before
    assert h.client.post(
        "/api/tables", json={"variant": "dominousa", "bots_after": None}, headers=ana.headers
    ).is_success


def test_http_referee_boards_are_bounded_by_the_tournaments_size(h: Harness) -> None:
    """``{"boards": [2^63]}`` was 200, and 100,000 boards were taken: a board is at most the tournament's
    number of boards (half its teams, rounded up), and a referee is named for at most 1,000 of them."""
    organiser = account(h, "Org")
    account(h, "Juiz")
    people = [account(h, f"Jogador{k}") for k in range(6)]
    tid = tournament(h, organiser)["id"]
    register(h, tid, people[0], people[1])
    register(h, tid, people[2], people[3])  # two teams: one board
    url = f"/api/tournaments/{tid}/referees/juiz"
    for boards in ([2**63], [0], [2], [1, 3], list(range(1, 1002)), [1] * 1001):
        r = h.client.put(url, json={"boards": boards}, headers=organiser.headers)
        assert r.status_code == 422 and r.json()["error"] == "invalid", (boards[:3], r.text)
        assert page(h, tid)["referees"] == []
    r = h.client.put(url, json={"boards": [2]}, headers=organiser.headers)
    assert "boards are numbered 1 to 1 (2 teams): there is no board 2" in r.json()["message"], r.text
    assert h.client.put(url, json={"boards": [1, 1]}, headers=organiser.headers).status_code == 200
    assert page(h, tid)["referees"][0]["boards"] == [1]
    register(h, tid, people[4], people[5])  # three teams: two boards (one of them the bye's)
    assert h.client.put(url, json={"boards": [2]}, headers=organiser.headers).status_code == 200
    assert page(h, tid)["referees"][0]["boards"] == [2]


@pytest.mark.parametrize("length", [513, 5000])
def test_ws_a_token_too_long_makes_a_spectator_not_a_refused_handshake(h: Harness, length: int) -> None:
    """A 5,000-character token got HTTP 403 at the handshake; docs/protocol.md says an invalid token makes
    you a spectator, which is safe (a spectator sees what anybody sees): so it does now."""
    token = (h.guest("Ana").token + "x" * length)[:length]
    with h.client.websocket_connect(f"/ws?token={token}") as ws:
        assert ws.receive_json() == {"type": "welcome", "you": None}
        ws.send_json({"type": "action", "table": "abc", "action": "pass", "ref": 1})
        assert ws.receive_json()["code"] == "forbidden"


@pytest.mark.parametrize("last", [2**53, 2**63, 2**64, 10**40])
def test_ws_subscribe_from_beyond_2_53_is_synced(h: Harness, last: int) -> None:
    """``last`` above 2^53−1 was malformed; the docs say a ``last`` at or beyond the table's ``n`` is synced."""
    ana = h.guest("Ana")
    table_id = create_table(h.client, ana, variant="dominousa", sit=True)["id"]
    conn = h.connect(ana)
    conn.send_text(json.dumps({"type": "subscribe", "table": table_id, "last": last}))
    assert conn.expect("synced") == {"type": "synced", "table": table_id, "n": h.table(table_id).n}
    for bad in ("5.0", "-1", "true", "1.5"):
        conn.send_text(f'{{"type": "subscribe", "table": "{table_id}", "last": {bad}}}')
        assert conn.expect("error")["code"] == "malformed"


# -- issue 21, item 6: what schemathesis found (tests/web/test_openapi_fuzz.py) ------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("OPTIONS", "/api/tables", "GET, POST"),  # found: Allow said GET, the methods of the first route only
        ("PUT", "/api/tables", "GET, POST"),
        ("TRACE", "/api/me/tokens", "GET, POST"),
        ("OPTIONS", "/api/tournaments/t1", "GET, PATCH"),
        ("GET", "/api/tournaments/t1/referees/ana", "DELETE, PUT"),
        ("POST", "/api/quickplay/ticket1", "DELETE, GET"),
        ("TRACE", "/api/me/sessions", "DELETE"),
    ],
)
def test_http_405_allows_every_method_of_the_path(h: Harness, method: str, path: str, allow: str) -> None:
    """A path called with a method it does not take: 405, its Allow header listing the methods of every route of
    the path (RFC 9110), not only those of the first."""
    r = h.client.request(method, path)
    assert r.status_code == 405, r.text
    assert r.headers["allow"] == allow
    assert r.json() == {"error": "method-not-allowed", "message": "Method Not Allowed"}


@pytest.mark.parametrize("week", ["0", "1700000000", "20261130", "2026-1-30", " 2026-11-30"])
def test_http_a_week_is_a_date_written_yyyy_mm_dd(h: Harness, week: str) -> None:
    """Found: ``/weeks/0`` answered the week of 1970-01-01 (pydantic reads a number as seconds since 1970)."""
    data = assert_invalid(h.client.get(f"/api/ratings/dominousa/weeks/{week}"))
    assert data["message"].startswith("path.week: "), data
    assert h.client.get("/api/ratings/dominousa/weeks/2026-12-02").json()["week"] == "2026-11-30"


@pytest.mark.parametrize("moment", [0.0, 0, 1893456000, True])
def test_http_a_moment_is_written_as_text(h: Harness, moment: Any) -> None:
    """Found by schemathesis (POST /api/tournaments, ``"registration_opens": 0.0``): a number was taken as
    seconds since 1970, against the description (a string). Now a 422, and no tournament is made."""
    organiser = account(h, "Organizadora")
    before = h.client.get("/api/tournaments").json()
    body = {"name": "Copa", "starts_at": "2030-01-01T14:00:00-04:00", "registration_opens": moment}
    data = assert_invalid(h.client.post("/api/tournaments", json=body, headers=organiser.headers))
    assert "registration_opens" in data["message"] and "ISO 8601" in data["message"], data
    assert h.client.get("/api/tournaments").json() == before


def test_http_every_operation_documents_its_errors(h: Harness) -> None:
    """Found: the description documented no error but FastAPI's 422 (a shape we do not send). Now every error
    status an operation may answer is listed, in the one shape (``ErrorOut``): a 404 where an id is looked up,
    401 where a signed-in caller is needed, 422 where anything is taken, 413 where a body is read."""
    doc = h.client.get("/openapi.json").json()
    error = {"$ref": "#/components/schemas/ErrorOut"}
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            errors = {s: r for s, r in op["responses"].items() if int(s) >= 400}
            for status, response in errors.items():
                assert response["content"]["application/json"]["schema"] == error, (method, path, status)
            if op.get("parameters") or op.get("requestBody"):
                assert "422" in errors, (method, path)
            if op.get("requestBody"):
                assert "413" in errors, (method, path)
    ops = doc["paths"]
    assert {"401", "403", "404", "409", "503", "504"} <= set(ops["/api/tables/{table_id}/join"]["post"]["responses"])
    assert {"401", "429"} <= set(ops["/api/tables"]["post"]["responses"])
    assert "404" in ops["/api/records/{record_id}"]["get"]["responses"]
    codes = doc["components"]["schemas"]["ErrorOut"]["properties"]["error"]["enum"]
    assert {"invalid", "not-found", "method-not-allowed", "too-large", "too-fast", "taken"} <= set(codes)


@pytest.mark.parametrize("space", ["\u00a0", "\u2007", "\u202f", "\u3000"])
def test_a_no_break_space_is_a_space_in_names_and_chat(h: Harness, space: str) -> None:
    """Found by tests/web/test_protocol_stateful.py (its chat rule, text ``'6…r7Ċ5hÏ²\\xa0'``): a no-break space
    (any of Unicode's space separators) was refused as a control character, in a chat text and in every name.
    It is a space: runs of spaces made one, as docs/protocol.md says."""
    r = h.client.post("/api/guests", json={"name": f"Ana{space}{space}Paula{space}"})
    assert r.status_code == 200 and r.json()["name"] == "Ana Paula", r.text
    ana = h.guest("Ana")
    table_id = create_table(h.client, ana, variant="dominousa", sit=True)["id"]
    conn = h.connect(ana, "ana", 0)
    conn.subscribe(table_id)
    conn.expect("state")
    conn.send({"type": "chat", "table": table_id, "text": f"boa{space}sorte", "ref": 1})
    assert conn.expect("chat")["text"] == "boa sorte"
    conn.send({"type": "chat", "table": table_id, "text": "linha\u2028nova", "ref": 2})  # a line separator is not
    error = conn.expect("error")
    assert (error["code"], error["ref"]) == ("malformed", 2), error
