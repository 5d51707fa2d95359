"""Every name-like field refuses control characters with 422 and changes nothing (issue 18, item 8), on SQLite
and on PostgreSQL: a NUL in a token's label, a tournament's name (new or renamed) or a team's name was a
500 on PostgreSQL (its text refuses NUL), and on both for the token's label. One field type checks them all
(``capicua.web.routes.common``); chat (not a name) refuses NUL too (tests/web/test_table_flow.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from capicua.service.platform import Platform
from capicua.service.store import Store
from capicua.service.tables import TableConfig
from capicua.web.app import create_app
from tests.service.conftest import empty_store_url, pg_url  # noqa: F401 (fixtures)
from tests.web.helpers import Guest, Harness
from tests.web.test_rated import account

#: NUL, the other C0 controls, DEL, a C1 control (NEL), a line separator, a bidirectional override.
CONTROLS = ["\x00", "\x01", "\t", "\n", "\x1b", "\x1f", "\x7f", "\x85", "\u2028", "\u202e"]


@pytest.fixture
def h(empty_store_url: str) -> Iterator[Harness]:  # noqa: F811
    config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)
    app = create_app(Platform(Store(empty_store_url), "test-secret", config, limits=False))  # scripted: no limits
    with TestClient(app) as client:
        yield Harness(app, client)


def refused(h: Harness, method: str, path: str, body: dict[str, Any], who: Guest) -> None:
    r = h.client.request(method, path, json=body, headers=who.headers)
    assert r.status_code == 422, (path, body, r.status_code, r.text)
    data = r.json()
    assert data["error"] == "invalid" and "control characters" in data["message"], data


def test_control_characters_in_any_name_are_422_and_change_nothing(h: Harness) -> None:
    org, ana = account(h, "Org"), account(h, "Anab")
    account(h, "Biab")
    t = h.client.post(
        "/api/tournaments", json={"name": "Copa", "starts_at": "2030-01-01T14:00:00-04:00"}, headers=org.headers
    ).json()
    tid = t["id"]
    before = h.client.get(f"/api/tournaments/{tid}").json()
    for c in CONTROLS:
        name = f"Copa{c}Manaus"
        refused(h, "POST", "/api/me/tokens", {"label": name}, org)
        refused(h, "POST", "/api/tournaments", {"name": name, "starts_at": "2030-01-01T14:00:00-04:00"}, org)
        refused(h, "PATCH", f"/api/tournaments/{tid}", {"name": name}, org)
        refused(h, "POST", f"/api/tournaments/{tid}/teams", {"partner": "biab", "name": name}, ana)
        refused(h, "POST", "/api/me/name", {"name": name}, ana)
    assert h.client.get("/api/me/tokens", headers=org.headers).json() == []
    assert [x["id"] for x in h.client.get("/api/tournaments").json()] == [tid]
    assert h.client.get(f"/api/tournaments/{tid}").json() == before  # its name, and no team
    assert h.client.get("/api/me", headers=ana.headers).json()["name"] == "Anab"


def test_names_are_trimmed_and_a_blank_one_is_the_default_or_refused(h: Harness) -> None:
    org, ana = account(h, "Org"), account(h, "Anab")
    account(h, "Biab")
    r = h.client.post(
        "/api/tournaments", json={"name": "  Copa   Manaus ", "starts_at": "2030-01-01T14:00:00-04:00"},
        headers=org.headers,
    )  # fmt: skip
    assert r.status_code == 201 and r.json()["name"] == "Copa Manaus", r.text
    tid = r.json()["id"]
    r = h.client.patch(f"/api/tournaments/{tid}", json={"name": "   "}, headers=org.headers)
    assert r.status_code == 422 and "blank" in r.json()["message"], r.text
    r = h.client.post(f"/api/tournaments/{tid}/teams", json={"partner": "biab", "name": "  "}, headers=ana.headers)
    assert r.status_code == 201 and r.json()["name"] == "Anab & Biab", r.text  # the players' names
    r = h.client.post("/api/me/tokens", json={"label": "  meu   robô "}, headers=org.headers)
    assert r.status_code == 201 and r.json()["label"] == "meu robô", r.text


def test_a_username_with_a_control_character_is_422_wherever_one_is_looked_up(h: Harness) -> None:
    """A username is matched as typed (any case, folded): a NUL in one reached PostgreSQL's text (a 500) when
    a partner, a referee, a login or a bot to invite was looked up. No username has a control character."""
    org, ana = account(h, "Org"), account(h, "Anab")
    account(h, "Biab")
    tid = h.client.post(
        "/api/tournaments", json={"name": "Copa", "starts_at": "2030-01-01T14:00:00-04:00"}, headers=org.headers
    ).json()["id"]
    table = h.client.post("/api/tables", json={"variant": "dominousa"}, headers=ana.headers).json()["id"]
    before = h.client.get(f"/api/tournaments/{tid}").json()
    for c in ("\x00", "\x1f", "\u202e"):
        user = f"bi{c}ab"
        refused(h, "POST", f"/api/tournaments/{tid}/teams", {"partner": user}, ana)
        refused(h, "POST", f"/api/tables/{table}/invite", {"username": user}, ana)
        refused(h, "POST", "/api/accounts", {"username": user, "password": "s3cret-pass"}, ana)
        r = h.client.post("/api/login", json={"username": user, "password": "s3cret-pass"})
        assert r.status_code == 422 and "control characters" in r.json()["message"], r.text
        r = h.client.put(f"/api/tournaments/{tid}/referees/{quote(user)}", json={"boards": []}, headers=org.headers)
        assert r.status_code == 422 and "control characters" in r.json()["message"], r.text
    assert h.client.get(f"/api/tournaments/{tid}").json() == before
