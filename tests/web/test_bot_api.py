"""The bot API: personal API tokens (hashed at rest, revocable), bot accounts, invitations, the event and table
streams, actions, rate limits and clear errors; and an outside process, the reference client ``capicua bot
run``, playing a whole match against people over HTTP."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from capicua.rules.moves import parse_action
from capicua.rules.record import Record
from tests.web.helpers import QUICK, Guest, Harness
from tests.web.server import CAPICUA, HOST, Server, free_port


def account(h: Harness, username: str, bot: bool = False) -> Guest:
    r = h.client.post("/api/accounts", json={"username": username, "password": "password1", "bot": bot})
    assert r.status_code == 201, r.text
    data = r.json()
    assert data["bot"] is bot
    return Guest(data["id"], data["name"], data["token"])


def api_token(h: Harness, who: Guest, label: str = "my bot") -> dict[str, Any]:
    r = h.client.post("/api/me/tokens", json={"label": label}, headers=who.headers)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_api_tokens_are_shown_once_kept_as_digests_and_revocable(h: Harness, tmp_path: Path) -> None:
    ana = account(h, "ana")
    made = api_token(h, ana)
    token = made["token"]
    assert token.startswith("cap_") and made["label"] == "my bot" and made["revoked"] is False
    me = h.client.get("/api/me", headers=bearer(token)).json()
    assert me == {"id": ana.id, "name": "ana", "guest": False, "bot": False, "admin": False}
    listed = h.client.get("/api/me/tokens", headers=ana.headers).json()
    assert [t["id"] for t in listed] == [made["id"]] and "token" not in listed[0]
    assert listed[0]["last_used_at"] is not None
    # the database holds the token's digest, never the token
    (db,) = tmp_path.rglob("*.db")
    dump = "\n".join(sqlite3.connect(db).iterdump())
    secret = token.removeprefix(f"cap_{made['id']}_")  # cap_<id>_<secret>: the secret may hold "_" itself
    assert secret != token and len(secret) >= 20
    assert token not in dump and secret not in dump
    for bad in ("cap_nope_nope", token + "x", "cap_", "garbage"):
        r = h.client.get("/api/me", headers=bearer(bad))
        assert (r.status_code, r.json()["error"]) == (401, "unauthorized"), bad
    r = h.client.delete(f"/api/me/tokens/{made['id']}", headers=ana.headers)
    assert r.status_code == 200 and r.json()["revoked"] is True
    assert h.client.get("/api/me", headers=bearer(token)).status_code == 401
    assert h.client.delete(f"/api/me/tokens/{made['id']}", headers=ana.headers).status_code == 404
    guest = h.guest("Visitante")
    r = h.client.post("/api/me/tokens", json={}, headers=guest.headers)
    assert (r.status_code, r.json()["error"]) == (403, "accounts-only")


@pytest.mark.limits
def test_bot_api_refusals_are_clear_and_change_nothing(h: Harness) -> None:
    person = account(h, "bia")
    bot = account(h, "robo", bot=True)
    token = api_token(h, bot)["token"]
    r = h.client.get("/api/bot/stream/event", headers=person.headers)
    assert (r.status_code, r.json()["error"]) == (403, "forbidden")  # streams are for bot accounts
    table = h.client.post("/api/tables", json={"variant": "individual", "players": 2, **QUICK}, headers=person.headers)
    table_id = table.json()["id"]
    r = h.client.get(f"/api/bot/tables/{table_id}/stream", headers=bearer(token))
    assert (r.status_code, r.json()["error"]) == (409, "not-seated")
    r = h.client.post(f"/api/bot/tables/{table_id}/action", json={"action": "pass"}, headers=bearer(token))
    assert (r.status_code, r.json()["error"]) == (409, "not-playing")
    r = h.client.post(f"/api/tables/{table_id}/invite", json={"username": "bia"}, headers=person.headers)
    assert (r.status_code, r.json()["error"]) == (404, "not-found")  # bia is no bot account
    r = h.client.post(f"/api/tables/{table_id}/invite", json={"username": "robo"}, headers=bot.headers)
    assert (r.status_code, r.json()["error"]) == (403, "forbidden")  # only the table's players invite
    r = h.client.post(f"/api/tables/{table_id}/invite", json={"username": "robo"}, headers=bearer(token))
    assert (r.status_code, r.json()["error"]) == (403, "api-token")  # and an API token only plays
    r = h.client.post("/api/bot/invitations/nothing/accept", headers=bearer(token))
    assert (r.status_code, r.json()["error"]) == (404, "not-found")
    bots = h.client.get("/api/bot/accounts").json()
    assert bots == [{"username": "robo", "name": "robo", "online": False}]
    # the bot sits, the match starts: it may act only for its own seat, in its own words
    h.client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=person.headers)
    r = h.client.post(f"/api/tables/{table_id}/invite", json={"username": "robo", "seat": 1}, headers=person.headers)
    assert r.status_code == 201 and r.json()["seat"] == 1 and r.json()["online"] is False, r.text
    r = h.client.post(f"/api/bot/invitations/{r.json()['id']}/accept", headers=bearer(token))
    assert r.status_code == 200 and r.json() == {"table": table_id, "seat": 1}, r.text
    seat = h.table(table_id).state.seats[1]
    assert seat.bot_account and seat.kind == "person" and seat.name == "robo"
    h.client.post(f"/api/tables/{table_id}/start", headers=person.headers)
    n = h.table(table_id).n
    for action, code in (("0: pass", "malformed"), ('ref(robo): annul "x"', "malformed"), ("9-9", "malformed")):
        r = h.client.post(f"/api/bot/tables/{table_id}/action", json={"action": action}, headers=bearer(token))
        assert (r.status_code, r.json()["error"]) == (422, code), (action, r.text)
    assert h.table(table_id).n == n
    # The clock stands still (a loaded machine would refill the bucket between requests): 20 at once.
    still = time.monotonic() + 60  # a minute on: the bucket is full
    h.app.state.platform.limits.store.clock = lambda: still
    codes = [
        h.client.post("/api/bot/tables/nosuch/action", json={"action": "pass"}, headers=bearer(token)).status_code
        for _ in range(21)
    ]
    assert codes[:20] == [404] * 20 and codes[20] == 429  # 20 at once, then refused
    h.app.state.platform.limits.store.clock = lambda: still + 0.5  # half a second later: 5 more (10 a second)
    codes = [
        h.client.post("/api/bot/tables/nosuch/action", json={"action": "pass"}, headers=bearer(token)).status_code
        for _ in range(6)
    ]
    assert codes == [404] * 5 + [429]


def test_A10_a_bot_account_that_does_not_answer_gets_the_timeout_move_like_anybody(h: Harness) -> None:
    ana = account(h, "ana")
    robo = account(h, "robo", bot=True)
    table_id = h.client.post(
        "/api/tables", json={"variant": "individual", "players": 2, **QUICK}, headers=ana.headers
    ).json()["id"]
    h.client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=ana.headers)
    invitation = h.client.post(f"/api/tables/{table_id}/invite", json={"username": "robo"}, headers=ana.headers)
    r = h.client.post(f"/api/bot/invitations/{invitation.json()['id']}/accept", headers=robo.headers)
    assert r.status_code == 200, r.text
    table = h.table(table_id)
    table.runner.clocks.move_seconds = 0.2  # below what the API allows: the test's own clock
    assert h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers).is_success

    conn = h.connect(ana, "ana", 0)
    conn.subscribe(table_id)
    h.wait(lambda: any(
        f["type"] == "event" and f["event"].get("seat") == 1 and f["event"].get("timeout") for f in conn.frames
    ), timeout=20, what="the timeout move of the bot's seat")  # fmt: skip


# -- an outside program plays a whole match -------------------------------------------------------------
async def human(base: str, port: int, token: str, table: str) -> list[str]:
    """A person's client over the websocket: plays the heaviest legal tile (or what is left) until the end."""
    acted: list[str] = []
    async with connect(f"ws://{HOST}:{port}/ws?token={token}", open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "subscribe", "table": table}))
        done_n = -1
        ref = 0
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if frame["type"] == "event" and frame["event"]["kind"] == "end":
                return acted
            state = frame.get("state")
            if not state or state["table"]["status"] != "playing" or not state.get("hand"):
                continue
            hand = state["hand"]
            if hand["end"] is not None or hand["turn"] != hand["seat"] or not hand["legal"] or state["n"] == done_n:
                continue
            plays = [m for m in hand["legal"] if m[:1].isdigit()]
            move = max(plays, key=lambda m: int(m[0]) + int(m[2])) if plays else hand["legal"][0]
            done_n, ref = state["n"], ref + 1
            acted.append(move)
            await ws.send(json.dumps({"type": "action", "table": table, "action": move, "ref": ref}))


def test_the_reference_client_plays_a_whole_match_against_people_over_http(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", free_port())
    server.start()
    bot_proc = None
    try:
        with httpx.Client(base_url=server.base, timeout=30) as http:

            def sign_up(name: str, bot: bool = False) -> dict[str, Any]:
                body = {"username": name, "password": "password1", "bot": bot}
                r = http.post("/api/accounts", json=body)
                assert r.status_code == 201, r.text
                data: dict[str, Any] = r.json()
                return data

            people = [sign_up(n) for n in ("ana", "caio", "davi")]
            sign_up("tucunare", bot=True)
            r = http.post("/api/login", json={"username": "tucunare", "password": "password1"})
            token = http.post("/api/me/tokens", json={"label": "ci"}, headers=bearer(r.json()["token"])).json()["token"]
            bot_proc = subprocess.Popen(
                [*CAPICUA, "bot", "run", "--server", server.base, "--token", token, "--level", "greedy",
                 "--matches", "1"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            )  # fmt: skip
            deadline = time.monotonic() + 30
            while not http.get("/api/bot/accounts").json()[0]["online"]:
                assert time.monotonic() < deadline, "the bot client did not connect"
                assert bot_proc.poll() is None, bot_proc.stdout.read() if bot_proc.stdout else ""
                time.sleep(0.1)
            owner = people[0]
            body = {"variant": "dominousa", "target": 60, "pause_seconds": 0, "auto_pass": False}
            table = http.post("/api/tables", json=body, headers=bearer(owner["token"])).json()["id"]
            for seat, who in zip((0, 2, 3), people, strict=True):
                r = http.post(f"/api/tables/{table}/join", json={"seat": seat}, headers=bearer(who["token"]))
                assert r.status_code == 200, r.text
            r = http.post(f"/api/tables/{table}/invite", json={"username": "tucunare"}, headers=bearer(owner["token"]))
            assert r.status_code == 201 and r.json()["online"] is True, r.text
            deadline = time.monotonic() + 30
            while http.get(f"/api/tables/{table}").json()["seats"][1]["empty"]:
                assert time.monotonic() < deadline, "the bot did not accept"
                time.sleep(0.1)
            seat = http.get(f"/api/tables/{table}").json()["seats"][1]
            assert seat["name"] == "tucunare" and seat["bot_account"] is True

            async def play() -> list[list[str]]:
                tasks = [asyncio.create_task(human(server.base, server.port, p["token"], table)) for p in people]
                await asyncio.sleep(0.3)
                async with httpx.AsyncClient(base_url=server.base) as client:
                    r = await client.post(f"/api/tables/{table}/start", headers=bearer(owner["token"]))
                    assert r.status_code == 200, r.text
                return await asyncio.gather(*tasks)

            # Its own thread: a session-wide sync Playwright (tests/e2e) keeps an event loop running in this one.
            with ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, play()).result()
            assert bot_proc.wait(timeout=60) == 0, bot_proc.stdout.read() if bot_proc.stdout else ""
            rows = http.get(f"/api/tables/{table}/records").json()
            record = Record.loads(http.get(f"/api/records/{rows[0]['id']}").text)
            assert record.players[1] == "tucunare"
            mine = [parse_action(a) for hand in record.hands for a in hand.actions if a.startswith("1: ")]
            assert len(mine) >= 3  # the bot played its seat, through the public API
    finally:
        if bot_proc is not None and bot_proc.poll() is None:
            bot_proc.kill()
        server.stop()
