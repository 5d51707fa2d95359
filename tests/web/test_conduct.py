"""Conduct through the API (issue 21): leaving rated matches earns a playban from the rated queues, shown on
the player's own profile; moderators (role admin) ban, mute and hide names, see the flags, and every action
is in the log with its reason; nobody else may."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import QUICK, Conn, Guest, Harness, create_table, join
from tests.web.test_rated import account, seat_all


def rated_pair(h: Harness, ana: Guest, bia: Guest) -> str:
    r = h.client.post(
        "/api/tables",
        json={"variant": "individual", "players": 2, "rated": True, **QUICK},
        headers=ana.headers,
    )
    assert r.status_code == 201, r.text
    table_id: str = r.json()["id"]
    seat_all(h, table_id, [ana, bia])
    return table_id


def resign(h: Harness, table_id: str, who: Guest) -> None:
    r = h.client.post(f"/api/tables/{table_id}/resign", headers=who.headers)
    assert r.status_code == 200, r.text
    h.wait(lambda: h.client.get(f"/api/tables/{table_id}").json()["status"] == "finished", what="the match's end")


def refused(r: Any, status: int, code: str) -> dict[str, Any]:
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    data: dict[str, Any] = r.json()
    return data


def moderator(h: Harness, name: str) -> Guest:
    mod = account(h, name)
    conduct = h.app.state.platform.conduct
    assert h.client.portal is not None
    h.client.portal.call(conduct.act, None, mod.id, "grant-admin", "named by the operator in this test")
    return mod


def test_leaving_rated_matches_closes_the_rated_queues_with_a_playban(h: Harness) -> None:
    ana, bia = account(h, "Ana"), account(h, "Bia")
    table_id = rated_pair(h, ana, bia)
    assert h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers).is_success
    resign(h, table_id, bia)  # the first time: a warning
    warned = h.client.get(f"/api/players/{bia.id}/profile", headers=bia.headers).json()["conduct"]
    assert warned["playban"]["abandonments"] == 1 and warned["playban"]["until"] is None
    assert h.client.post(f"/api/tables/{table_id}/rematch", headers=ana.headers).is_success
    resign(h, table_id, bia)  # the second: 15 minutes
    profile = h.client.get(f"/api/players/{bia.id}/profile", headers=bia.headers).json()
    ban = profile["conduct"]["playban"]
    assert ban["active"] and ban["minutes"] == 15 and ban["abandonments"] == 2
    assert profile["conduct"]["ladder_minutes"] == [0, 15, 60, 1440]
    # Nobody else sees it (a moderator does: below).
    assert "conduct" not in h.client.get(f"/api/players/{bia.id}/profile", headers=ana.headers).json()
    assert "conduct" not in h.client.get(f"/api/players/{bia.id}/profile").json()
    # Every rated door is closed to her, with when it opens; casual play is not.
    r = h.client.post("/api/quickplay", json={"variant": "individual"}, headers=bia.headers)
    body = refused(r, 403, "playban")
    assert 14 * 60 < body["retry_after"] <= 15 * 60 and r.headers["retry-after"] == str(body["retry_after"])
    refused(h.client.post(f"/api/tables/{table_id}/rematch", headers=ana.headers), 403, "playban")
    other = rated_pair_open(h, ana)
    refused(h.client.post(f"/api/tables/{other}/join", json={}, headers=bia.headers), 403, "playban")
    assert h.client.get(f"/api/tables/{other}").json()["seats"][1]["empty"]  # nothing changed
    casual = create_table(h.client, ana, variant="individual", players=2)["id"]
    assert join(h.client, bia, casual) in (0, 1)
    # Ana, who stayed, is in no trouble.
    assert h.client.post("/api/quickplay", json={"variant": "individual"}, headers=ana.headers).status_code == 200
    mod = moderator(h, "Moderadora")
    seen = h.client.get(f"/api/players/{bia.id}/profile", headers=mod.headers).json()
    assert seen["conduct"]["playban"]["active"]
    flags = h.client.get("/api/admin/flags", headers=mod.headers).json()
    assert [p["player"] for p in flags["playbans"]] == [bia.id] and flags["names"][bia.id] == "Bia"
    lifted = h.client.post(
        f"/api/admin/players/{bia.id}/lift-playban", json={"reason": "her power went out"}, headers=mod.headers
    )
    assert lifted.status_code == 200 and lifted.json()["playban"] is None
    assert h.client.post("/api/quickplay", json={"variant": "individual"}, headers=bia.headers).status_code == 200


def rated_pair_open(h: Harness, owner: Guest) -> str:
    r = h.client.post(
        "/api/tables", json={"variant": "individual", "players": 2, "rated": True, **QUICK}, headers=owner.headers
    )
    assert r.status_code == 201, r.text
    table_id: str = r.json()["id"]
    join(h.client, owner, table_id, 0)
    return table_id


def test_only_moderators_moderate(h: Harness) -> None:
    ana, bia = account(h, "Ana"), account(h, "Bia")
    guest = h.guest("Visitante")
    assert h.client.get("/api/me", headers=ana.headers).json()["admin"] is False
    for who in (ana, guest):
        refused(h.client.get("/api/admin/flags", headers=who.headers), 403, "forbidden")
        refused(h.client.get("/api/admin/log", headers=who.headers), 403, "forbidden")
        r = h.client.post(f"/api/admin/players/{bia.id}/ban", json={"reason": "I do not like her"}, headers=who.headers)
        refused(r, 403, "forbidden")
    refused(h.client.get("/api/admin/flags"), 401, "unauthorized")
    mod = moderator(h, "Moderadora")
    assert h.client.get("/api/me", headers=mod.headers).json()["admin"] is True
    assert h.client.get(f"/api/players/{bia.id}/profile", headers=bia.headers).json()["conduct"]["playban"] is None
    # A reason is needed; without one nothing is done, nor logged.
    r = h.client.post(f"/api/admin/players/{bia.id}/ban", json={}, headers=mod.headers)
    refused(r, 422, "invalid")
    refused(
        h.client.post(f"/api/admin/players/{bia.id}/ban", json={"reason": "x"}, headers=mod.headers), 422, "invalid"
    )
    refused(
        h.client.post(f"/api/admin/players/{bia.id}/smite", json={"reason": "why not"}, headers=mod.headers),
        422,
        "invalid",
    )
    assert h.client.get("/api/admin/log", params={"player": bia.id}, headers=mod.headers).json() == []
    assert h.client.get("/api/me", headers=bia.headers).status_code == 200


def test_a_ban_closes_every_door_of_the_account_and_says_why_to_its_owner(h: Harness) -> None:
    bia = account(h, "Bia")
    token = h.client.post("/api/me/tokens", json={"label": "my bot"}, headers=bia.headers).json()["token"]
    mod = moderator(h, "Moderadora")
    reason = "a second account to farm ranking points"
    r = h.client.post(f"/api/admin/players/{bia.id}/ban", json={"reason": reason, "hours": 48}, headers=mod.headers)
    assert r.status_code == 200 and r.json()["banned_until"] is not None
    refused(h.client.get("/api/me", headers=bia.headers), 401, "unauthorized")  # her session
    refused(h.client.get("/api/me", headers={"Authorization": f"Bearer {token}"}), 401, "unauthorized")  # her bot
    login = {"username": "bia", "password": "s3cret-pass"}
    message = refused(h.client.post("/api/login", json=login), 403, "banned")["message"]
    assert reason in message and "until" in message
    wrong = {"username": "bia", "password": "not her password"}
    refused(h.client.post("/api/login", json=wrong), 401, "unauthorized")  # a ban is told only to the owner
    h.client.post(f"/api/admin/players/{bia.id}/unban", json={"reason": "appeal accepted"}, headers=mod.headers)
    again = h.client.post("/api/login", json=login)
    assert again.status_code == 200
    log = h.client.get("/api/admin/log", params={"player": bia.id}, headers=mod.headers).json()
    assert [(e["action"], e["reason"], e["by"]["name"]) for e in log] == [
        ("unban", "appeal accepted", "Moderadora"),
        ("ban", reason, "Moderadora"),
    ]
    assert log[1]["until"] is not None and log[0]["until"] is None


def seated_at_a_table(h: Harness, who: Guest) -> tuple[str, Conn]:
    """``who`` at seat 0 of a casual 2-player table (Davi at the other), and his socket on it."""
    table_id: str = create_table(h.client, who, variant="individual", players=2)["id"]
    join(h.client, who, table_id, 0)
    join(h.client, account(h, "Davi"), table_id, 1)
    conn = h.connect(who, who.name, 0)
    conn.subscribe(table_id)
    conn.expect("state")
    return table_id, conn


def test_a_mute_silences_the_table_and_a_hidden_name_is_replaced_everywhere(h: Harness) -> None:
    caio = account(h, "Xingador")
    table_id, conn = seated_at_a_table(h, caio)
    mod = moderator(h, "Moderadora")
    r = h.client.post(f"/api/admin/players/{caio.id}/mute", json={"reason": "insults", "hours": 1}, headers=mod.headers)
    assert r.status_code == 200 and r.json()["muted_until"] is not None
    before = h.table(table_id).n
    conn.send({"type": "chat", "table": table_id, "text": "palavrão", "ref": "c1"})
    error = conn.recv_until(lambda f: f["type"] == "error")
    assert (error["code"], error["ref"]) == ("muted", "c1") and h.table(table_id).n == before
    r = h.client.post(
        f"/api/admin/players/{caio.id}/hide-name", json={"reason": "an insult as a name"}, headers=mod.headers
    )
    assert r.status_code == 200 and r.json()["name_hidden"]
    shown = h.client.get(f"/api/players/{caio.id}/profile").json()["name"]
    assert "Xingador" not in shown
    h.wait(lambda: h.client.get(f"/api/tables/{table_id}").json()["seats"][0]["name"] == shown, what="the seat's name")
    refused(h.client.post("/api/me/name", json={"name": "Xingador de Novo"}, headers=caio.headers), 403, "forbidden")
    h.client.post(f"/api/admin/players/{caio.id}/show-name", json={"reason": "he asked nicely"}, headers=mod.headers)
    assert h.client.post("/api/me/name", json={"name": "Caio"}, headers=caio.headers).status_code == 200
    h.client.post(f"/api/admin/players/{caio.id}/unmute", json={"reason": "one hour is enough"}, headers=mod.headers)
    conn.send({"type": "chat", "table": table_id, "text": "desculpa", "ref": "c2"})
    said = conn.recv_until(lambda f: f["type"] in ("chat", "error"))
    assert said["type"] == "chat" and said["text"] == "desculpa"
    standing = h.client.get(f"/api/admin/players/{caio.id}", headers=mod.headers).json()
    assert [e["action"] for e in standing["log"]] == ["unmute", "show-name", "hide-name", "mute"]
    sanctioned = h.client.get("/api/admin/flags", headers=mod.headers).json()["sanctioned"]
    assert sanctioned == []  # all undone


def test_a_socket_opened_before_a_ban_says_nothing_more(h: Harness) -> None:
    bia = account(h, "Bia")
    table_id, conn = seated_at_a_table(h, bia)
    mod = moderator(h, "Moderadora")
    r = h.client.post(f"/api/admin/players/{bia.id}/ban", json={"reason": "spam at every table"}, headers=mod.headers)
    assert r.status_code == 200
    conn.send({"type": "chat", "table": table_id, "preset": "gg", "ref": "c1"})
    error = conn.recv_until(lambda f: f["type"] == "error")
    assert (error["code"], error["ref"]) == ("banned", "c1")
