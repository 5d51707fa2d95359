"""Identity over HTTP and the websocket (issue 18, items 3 and 9): usernames matched the way people type them
wherever one is looked up, a name refused when it folds or looks like a taken one; an API token that only
plays (docs/bots.md), and sessions that end (log out everywhere, a new password), on every node."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from capicua.service.platform import Platform
from capicua.service.store import Store, default_url
from capicua.service.tables import TableConfig
from capicua.web.app import create_app
from tests.web.helpers import QUICK, Guest, Harness

PASSWORD = "password1"


def account(h: Harness, username: str, bot: bool = False, **extra: Any) -> Guest:
    r = h.client.post("/api/accounts", json={"username": username, "password": PASSWORD, "bot": bot, **extra})
    assert r.status_code == 201, r.text
    data = r.json()
    return Guest(data["id"], data["name"], data["token"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def api_token(h: Harness, who: Guest) -> str:
    r = h.client.post("/api/me/tokens", json={"label": "bot"}, headers=who.headers)
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


def log_in(client: TestClient, username: str, password: str = PASSWORD) -> str:
    r = client.post("/api/login", json={"username": username, "password": password})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def me(client: TestClient, token: str) -> int:
    return client.get("/api/me", headers=bearer(token)).status_code


def error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json().get("error")


# -- 3. usernames -----------------------------------------------------------------------------------------------
def test_usernames_are_matched_as_typed_for_partners_referees_bots_and_login(h: Harness) -> None:
    c = h.client
    organiser, one, two = account(h, "Organiser"), account(h, "PlayerOne"), account(h, "PartnerTwo")
    body = {"name": "Copa", "starts_at": "2030-01-01T14:00:00-04:00", "options": {**QUICK, "target": 30}}
    tid = c.post("/api/tournaments", json=body, headers=organiser.headers).json()["id"]
    # a partner: as registered, in another case, fullwidth (a phone's keyboard), with spaces around it
    r = c.post(f"/api/tournaments/{tid}/teams", json={"partner": "PartnerTwo"}, headers=one.headers)
    assert r.status_code == 201, r.text
    three, four, referee = account(h, "joão.três"), account(h, "quatro"), account(h, "Juíza")
    account(h, "RoboBot", bot=True)
    assert c.post(f"/api/tournaments/{tid}/teams/{r.json()['team']}/accept", headers=two.headers).status_code == 200
    r = c.post(f"/api/tournaments/{tid}/teams", json={"partner": "ＱＵＡＴＲＯ "}, headers=three.headers)
    assert r.status_code == 201, r.text
    players = {p["id"] for team in c.get(f"/api/tournaments/{tid}").json()["teams"] for p in team["players"]}
    assert {one.id, two.id, three.id, four.id} == players
    # a referee, by his username in any case
    r = c.put(f"/api/tournaments/{tid}/referees/JUÍZA", json={"boards": []}, headers=organiser.headers)
    assert r.status_code == 200 and [x["id"] for x in r.json()["referees"]] == [referee.id], r.text
    r = c.delete(f"/api/tournaments/{tid}/referees/juíza", headers=organiser.headers)
    assert r.status_code == 200 and r.json()["referees"] == [], r.text
    # a bot invited to a table
    table = c.post("/api/tables", json={"variant": "individual", "players": 2, **QUICK}, headers=one.headers).json()
    r = c.post(f"/api/tables/{table['id']}/invite", json={"username": "ｒｏｂｏｂｏｔ"}, headers=one.headers)
    assert r.status_code == 201, r.text
    assert c.get("/api/bot/accounts").json()[0]["username"] == "RoboBot"  # shown as its owner typed it
    # logging in
    for typed in ("partnertwo", "PARTNERTWO", "ＰａｒｔｎｅｒＴｗｏ", "JOÃO.TRÊS"):
        r = c.post("/api/login", json={"username": typed, "password": PASSWORD})
        assert r.status_code == 200 and r.json()["id"] in (two.id, three.id), (typed, r.text)
    r = c.post(f"/api/tournaments/{tid}/teams", json={"partner": "nobody-here"}, headers=organiser.headers)
    assert error(r) == (404, "not-found")


def test_a_username_that_folds_or_looks_like_a_taken_one_is_refused(h: Harness) -> None:
    c = h.client
    account(h, "alice")
    account(h, "ace")
    account(h, "joão")
    for taken in ("ALICE", "Alice", "ａｌｉｃｅ", "JOÃO", "асе"):  # the last all Cyrillic, a look-alike of "ace"
        r = c.post("/api/accounts", json={"username": taken, "password": PASSWORD})
        assert error(r) == (409, "taken"), (taken, r.text)
    r = c.post("/api/accounts", json={"username": "Аlice", "password": PASSWORD})  # a Cyrillic А, then Latin
    assert error(r) == (422, "bad-username") and "alphabets" in r.json()["message"], r.text
    r = c.post("/api/accounts", json={"username": "ana silva", "password": PASSWORD})
    assert error(r) == (422, "bad-username"), r.text
    assert c.post("/api/login", json={"username": "ＡＬＩＣＥ", "password": PASSWORD}).status_code == 200


# -- 9. API tokens only play --------------------------------------------------------------------------------------
def test_an_api_token_cannot_make_tokens_nor_open_a_session(h: Harness) -> None:
    c = h.client
    ana = account(h, "ana", bot=True)
    token = api_token(h, ana)
    assert me(c, token) == 200  # it plays: GET /api/me and the bot API
    r = c.post("/api/me/tokens", json={"label": "another"}, headers=bearer(token))
    assert error(r) == (403, "api-token") and "docs/bots.md" in r.json()["message"], r.text
    r = c.post("/api/me/name", json={"name": "Ana"}, headers=bearer(token))
    assert error(r) == (403, "api-token") and "set-cookie" not in r.headers, r.text
    for method, path, body in (
        ("GET", "/api/me/tokens", None),
        ("DELETE", "/api/me/tokens/abc", None),
        ("POST", "/api/me/password", {"password": PASSWORD, "new_password": "password2"}),
        ("DELETE", "/api/me/sessions", None),
    ):
        r = c.request(method, path, json=body, headers=bearer(token))
        assert error(r) == (403, "api-token"), (method, path, r.text)
    assert [t["revoked"] for t in c.get("/api/me/tokens", headers=ana.headers).json()] == [False]  # one token only
    assert c.get("/api/bot/accounts").json()[0]["name"] == "ana"  # the name stands
    assert c.post("/api/login", json={"username": "ana", "password": PASSWORD}).status_code == 200
    r = c.delete(f"/api/me/tokens/{token.split('_')[1]}", headers=ana.headers)
    assert r.status_code == 200 and me(c, token) == 401  # revoked, it opens nothing, and it left nothing behind


#: What docs/bots.md lets an API token do (besides reading what anybody may read).
BOT_ROUTES = {
    ("GET", "/api/me"),
    ("GET", "/api/bot/stream/event"),
    ("GET", "/api/bot/tables/{table_id}/stream"),
    ("POST", "/api/bot/tables/{table_id}/action"),
    ("POST", "/api/bot/invitations/{invitation_id}/accept"),
    ("POST", "/api/bot/invitations/{invitation_id}/decline"),
}


def test_every_route_but_the_bot_apis_refuses_an_api_token_or_answers_it_as_anybody(h: Harness) -> None:
    """Every route of the app, present and future: with an API token the answer is the bot API's own, or a
    refusal (403 ``api-token``) where an identity is needed, or what an anonymous caller gets."""
    c = h.client
    token = api_token(h, account(h, "ana"))
    paths = h.app.openapi()["paths"]  # every HTTP route of the app (the websocket aside)
    routes = [(m.upper(), path) for path, methods in paths.items() for m in methods]
    assert set(routes) >= BOT_ROUTES
    checked = 0
    for method, path in routes:
        if (method, path) in BOT_ROUTES:
            continue
        url = re.sub(r"\{(\w+)\}", lambda m: "1" if m[1] in ("record_id", "team", "round_no", "board") else "xyz", path)
        body: dict[str, Any] | None = None if method == "GET" else {}
        anonymous = c.request(method, url, json=body)
        with_token = c.request(method, url, json=body, headers=bearer(token))
        if anonymous.status_code == 401:  # it needs an identity: not this one
            assert error(with_token) == (403, "api-token"), (method, path, with_token.text)
            checked += 1
        else:
            assert with_token.status_code == anonymous.status_code, (method, path, with_token.text, anonymous.text)
    assert checked >= 30


# -- 9. sessions end --------------------------------------------------------------------------------------------
def test_log_out_everywhere_ends_every_session_the_cookie_and_the_sockets_handshake(h: Harness) -> None:
    c = h.client
    ana = account(h, "ana")
    laptop = log_in(c, "ana")  # the test client keeps this one's cookie
    phone = log_in(TestClient(h.app), "ANA")
    robot = api_token(h, ana)
    cookie = {"X-Requested-With": "capicua"}
    assert me(c, phone) == me(c, laptop) == c.get("/api/me", headers=cookie).status_code == 200
    assert h.connect(Guest(ana.id, "ana", phone), "phone").frames[0]["you"]["id"] == ana.id
    r = c.delete("/api/me/sessions", headers=bearer(laptop))
    assert r.status_code == 200 and 'capicua_session=""' in r.headers["set-cookie"], r.text
    for token in (ana.token, laptop, phone):
        assert me(c, token) == 401
    c.cookies.set("capicua_session", laptop)  # a cookie somebody kept
    assert c.get("/api/me", headers=cookie).status_code == 401
    assert h.connect(None, "phone again").frames[0]["you"] is None  # the cookie's socket: a spectator
    with c.websocket_connect(f"/ws?token={phone}") as ws:
        assert ws.receive_json() == {"type": "welcome", "you": None}
    assert me(c, robot) == 200  # the bot plays on: its token is revoked on its own (docs/bots.md)
    assert me(c, log_in(c, "ana")) == 200  # and a new session starts as usual
    guest = h.guest("Visitante")
    assert error(c.delete("/api/me/sessions", headers=guest.headers)) == (403, "accounts-only")


def test_log_out_needs_the_csrf_header_as_every_cookie_post_does(h: Harness) -> None:
    """Issue 21: a cross-site form posted to /api/logout (no header of ours can come with it) and its answer's
    Set-Cookie ended the visitor's session. Now it is refused and the cookie stays; with the header it goes."""
    c = h.client
    account(h, "ana")
    session = log_in(c, "ana")  # the test client keeps the cookie
    assert c.cookies.get("capicua_session") == session
    for headers in ({}, {"X-Requested-With": "XMLHttpRequest"}, {"Content-Type": "application/x-www-form-urlencoded"}):
        r = c.post("/api/logout", headers=headers)
        assert error(r) == (403, "forbidden") and "x-requested-with" in r.json()["message"], r.text
        assert "set-cookie" not in r.headers
    assert c.get("/api/me", headers={"X-Requested-With": "capicua"}).status_code == 200  # still signed in
    r = c.post("/api/logout", headers={"X-Requested-With": "capicua"})
    assert r.status_code == 200 and r.json() == {"ok": True} and 'capicua_session=""' in r.headers["set-cookie"]
    assert c.get("/api/me", headers={"X-Requested-With": "capicua"}).status_code == 401


def test_a_new_password_ends_the_other_sessions_and_this_one_goes_on(h: Harness) -> None:
    c = h.client
    ana = account(h, "ana")
    other = log_in(c, "ana")
    r = c.post("/api/me/password", json={"password": "wrong-one", "new_password": "password2"}, headers=ana.headers)
    assert error(r) == (403, "wrong-password"), r.text
    r = c.post("/api/me/password", json={"password": PASSWORD, "new_password": "short"}, headers=ana.headers)
    assert error(r) == (422, "invalid"), r.text
    assert me(c, other) == me(c, ana.token) == 200  # refused, they changed nothing
    r = c.post("/api/me/password", json={"password": PASSWORD, "new_password": "password2"}, headers=ana.headers)
    assert r.status_code == 200 and r.json()["id"] == ana.id and "capicua_session=" in r.headers["set-cookie"]
    assert me(c, r.json()["token"]) == 200
    assert me(c, other) == me(c, ana.token) == 401
    assert error(c.post("/api/login", json={"username": "ana", "password": PASSWORD})) == (401, "unauthorized")
    assert me(c, log_in(c, "ana", "password2")) == 200


@pytest.fixture
def two_nodes(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers on one database (one secret): what one ends, the other refuses."""
    config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)
    apps: list[FastAPI] = [create_app(Platform(Store(default_url(tmp_path)), "test-secret", config)) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        yield one, two


def test_sessions_ended_on_one_node_are_ended_on_the_other(two_nodes: tuple[TestClient, TestClient]) -> None:
    one, two = two_nodes
    r = one.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
    token = r.json()["token"]
    assert me(two, token) == 200
    assert two.delete("/api/me/sessions", headers=bearer(token)).status_code == 200
    assert me(one, token) == 401 and me(two, token) == 401
    with one.websocket_connect(f"/ws?token={token}") as ws:
        assert ws.receive_json() == {"type": "welcome", "you": None}
