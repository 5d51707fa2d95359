"""Rated quick play over HTTP on two nodes of one PostgreSQL database: no sticky sessions, a player's polls may
reach either node, and the leader seats the players of both."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from capicua.service.platform import Platform
from capicua.service.store import Store
from capicua.service.tables import TableConfig
from capicua.web.app import create_app
from tests.web.helpers import Guest


@pytest.fixture
def nodes(database: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps (``qa-…`` leads) on one database, one secret."""
    tag = secrets.token_hex(3)
    config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)
    apps = [create_app(Platform(Store(database), "s" * 40, config, node=f"q{n}-{tag}")) for n in "ab"]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        yield a, b


def account(client: TestClient, name: str) -> Guest:
    username = f"{name.lower()}{secrets.token_hex(3)}"
    r = client.post("/api/accounts", json={"username": username, "password": "s3cret-pass", "name": name})
    assert r.status_code == 201, r.text
    data = r.json()
    return Guest(data["id"], data["name"], data["token"])


def test_quick_play_answers_on_either_node_and_the_leader_seats_both_nodes_players(
    nodes: tuple[TestClient, TestClient],
) -> None:
    a, b = nodes
    ana, bia, caio = account(a, "Ana"), account(b, "Bia"), account(a, "Caio")
    first = b.post("/api/quickplay", json={"variant": "individual"}, headers=ana.headers)
    assert first.status_code == 200, first.text
    assert first.json()["state"] == "waiting"  # b does not lead: nobody is matched there
    assert a.get(f"/api/quickplay/{first.json()['ticket']}", headers=ana.headers).json()["waiting"] == 1
    second = a.post("/api/quickplay", json={"variant": "individual"}, headers=bia.headers).json()
    assert second["state"] == "seated" and second["table"]
    for client in (a, b):
        for who, ticket in ((ana, first.json()["ticket"]), (bia, second["ticket"])):
            got = client.get(f"/api/quickplay/{ticket}", headers=who.headers)
            assert got.status_code == 200, got.text
            assert (got.json()["state"], got.json()["table"]) == ("seated", second["table"])
    # Joined on a, left on b: gone on both.
    mine = a.post("/api/quickplay", json={"variant": "dominousa"}, headers=caio.headers).json()
    assert b.get(f"/api/quickplay/{mine['ticket']}", headers=ana.headers).status_code == 404  # not hers
    assert b.delete(f"/api/quickplay/{mine['ticket']}", headers=caio.headers).json() == {"ok": True}
    for client in (a, b):
        assert client.get(f"/api/quickplay/{mine['ticket']}", headers=caio.headers).status_code == 404
