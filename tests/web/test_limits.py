"""Issue 21's doors, over HTTP and the websocket: past its rule each answers 429 ``too-fast`` with
``Retry-After`` (``too-fast`` on the websocket, or close code 1008 for a connection too many), changes nothing,
and a player at a human pace never meets one."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from capicua.service.limits import RULES, SOCKETS_PER_IDENTITY
from capicua.web.socket import TOO_MANY
from tests.web.helpers import Conn, Harness, new_guest

pytestmark = pytest.mark.limits  # the app of these tests has its limits on (tests/web/conftest.py)


def refused(r: Any) -> bool:
    if r.status_code != 429:
        return False
    body = r.json()
    assert body["error"] == "too-fast" and int(r.headers["retry-after"]) == body["retry_after"] >= 1, r.text
    return True


def test_guests_from_one_address_are_refused_past_the_burst(client: TestClient) -> None:
    answers = [client.post("/api/guests", json={}) for _ in range(60)]
    ok = [r for r in answers if r.status_code == 200]
    assert len(ok) == RULES["guest"].burst and all(refused(r) for r in answers[len(ok) :])


def test_tables_from_one_guest_are_refused_past_the_burst_and_none_is_made(h: Harness) -> None:
    ana = h.guest("Ana")
    answers = [h.client.post("/api/tables", json={"variant": "individual"}, headers=ana.headers) for _ in range(60)]
    made = [r.json()["id"] for r in answers if r.status_code == 201]
    assert len(made) == RULES["table"].burst and all(refused(r) for r in answers[len(made) :])
    listed = {t["id"] for t in h.client.get("/api/tables").json()}
    assert listed == set(made)  # the refused ones made nothing
    bia = h.guest("Bia")  # another identity has its own allowance
    assert h.client.post("/api/tables", json={"variant": "individual"}, headers=bia.headers).status_code == 201


def test_wrong_passwords_back_off_and_the_right_one_still_gets_in_soon(client: TestClient) -> None:
    r = client.post("/api/accounts", json={"username": "ana", "password": "right-password"})
    assert r.status_code == 201, r.text
    answers = [client.post("/api/login", json={"username": "ana", "password": f"wrong{k}"}) for k in range(40)]
    assert answers[0].status_code == 401
    later = [r for r in answers if r.status_code == 429]
    assert later and all(refused(r) for r in later)  # 40 in a burst: most are not even tried
    assert any(r.status_code == 401 for r in answers[1:])
    # The right password while held back is refused too (not tried: nobody learns it was right)…
    r = client.post("/api/login", json={"username": "ana", "password": "right-password"})
    assert refused(r)
    assert int(r.headers["retry-after"]) <= 900


def test_too_many_websockets_of_one_identity_are_closed_with_1008(h: Harness) -> None:
    ana = h.guest("Ana")
    conns = [h.connect(ana, f"ana{k}") for k in range(SOCKETS_PER_IDENTITY)]
    with h.client.websocket_connect(f"/ws?token={ana.token}") as ws:
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] == "too-fast"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == TOO_MANY
    conns[0].close()
    h.wait(lambda: h.app.state.sockets.counts[f"identity:{ana.id}"] < SOCKETS_PER_IDENTITY, what="a socket freed")
    again = h.connect(ana, "ana again")  # one closed: one may open
    again.ping()


def test_a_burst_of_pings_is_answered_too_fast_past_the_burst_and_the_connection_lives(h: Harness) -> None:
    conn = h.connect(h.guest("Ana"), "ana")
    for k in range(200):
        conn.send({"type": "ping", "ref": k})
    conn.recv_until(lambda f: f.get("ref") == 199)  # each one answered, in order
    pongs = [f["ref"] for f in conn.frames if f["type"] == "pong"]
    errors = [f for f in conn.frames if f["type"] == "error"]
    assert errors and all(e["code"] == "too-fast" for e in errors)
    assert len(pongs) + len(errors) == 200 and len(pongs) >= RULES["ws-message"].burst
    assert sorted(pongs + [e["ref"] for e in errors]) == list(range(200))
    deadline = time.monotonic() + 5  # and the connection lives: once the rate allows, a ping is answered again
    k = 0
    while answer(conn, f"after{k}")["type"] != "pong":
        assert time.monotonic() < deadline, "no pong any more"
        k += 1
        time.sleep(0.02)  # the rate refills with time (10 a second): asking without pause would only spend it


def answer(conn: Conn, ref: str) -> dict[str, Any]:
    """Ping with ``ref``: its answer, a pong or an error."""
    conn.send({"type": "ping", "ref": ref})
    return conn.recv_until(lambda f: f.get("ref") == ref)


def test_a_player_at_a_human_pace_never_meets_a_limit(h: Harness) -> None:
    """A guest's evening: a name, a few tables, quick games, a chat, a hundred moves' worth of pings."""
    ana = new_guest(h.client, "Ana")
    for _ in range(3):
        r = h.client.post(
            "/api/tables", json={"variant": "individual", "bots_after": 0, "sit": True}, headers=ana.headers
        )
        assert r.status_code == 201, r.text
    conn = h.connect(ana, "ana")
    for k in range(25):  # a move every few seconds is far below 10 a second
        conn.ping(f"p{k}")
    assert not [f for f in conn.frames if f["type"] == "error"]
