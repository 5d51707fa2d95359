"""Accounts over HTTP: sign up (a guest keeps his id), log in, the session cookie, and every refusal in the
one error shape ``{"error", "message"}``."""

from __future__ import annotations

from tests.web.helpers import Harness


def test_sign_up_log_in_and_every_refusal(h: Harness) -> None:
    c = h.client
    ana = h.guest("Ana")
    r = c.post("/api/accounts", json={"username": "Ana.Silva", "password": "segredo-forte"}, headers=ana.headers)
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["id"] == ana.id and body["guest"] is False  # the guest keeps his id (and his matches)
    token = body["token"]
    me = c.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert me == {"id": ana.id, "name": "Ana", "guest": False, "bot": False, "admin": False}

    r = c.post("/api/accounts", json={"username": "ana.silva", "password": "outra-senha-1"})  # case-insensitive
    assert (r.status_code, r.json()["error"]) == (409, "taken") and "ana.silva" in r.json()["message"]
    r = c.post("/api/accounts", json={"username": "bia", "password": "curta"})  # the schema's limits
    assert (r.status_code, r.json()["error"]) == (422, "invalid") and "password" in r.json()["message"]

    r = c.post("/api/login", json={"username": "ana.silva", "password": "errada-errada"})
    assert (r.status_code, r.json()["error"]) == (401, "unauthorized") and r.json()["message"]
    r = c.post("/api/login", json={"username": "ANA.SILVA", "password": "segredo-forte"})
    assert r.status_code == 200 and r.json()["id"] == ana.id

    r = c.get("/api/me")  # no token, no cookie sent with the CSRF header
    assert (r.status_code, r.json()["error"]) == (401, "unauthorized")
