"""Rated tables through the platform (D1): account holders only, no bots; a match rated once when it
ends, also when a player abandons it; casual tables never touch ratings; what the API shows of it."""

from __future__ import annotations

import time
from typing import Any

from tests.web.helpers import PATIENCE, QUICK, Guest, Harness


def account(h: Harness, name: str) -> Guest:
    r = h.client.post("/api/accounts", json={"username": name.lower(), "password": "s3cret-pass", "name": name})
    assert r.status_code == 201, r.text
    data = r.json()
    return Guest(data["id"], data["name"], data["token"])


def rated_table(h: Harness, owner: Guest, **body: Any) -> dict[str, Any]:
    r = h.client.post(
        "/api/tables", json={"variant": "dominousa", "rated": True, **QUICK, **body}, headers=owner.headers
    )
    assert r.status_code == 201, r.text
    table: dict[str, Any] = r.json()
    return table


def seat_all(h: Harness, table_id: str, people: list[Guest]) -> None:
    for k, who in enumerate(people):
        r = h.client.post(f"/api/tables/{table_id}/join", json={"seat": k}, headers=who.headers)
        assert r.status_code == 200, r.text


def wait_finished(h: Harness, table_id: str, timeout: float = PATIENCE) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        table: dict[str, Any] = h.client.get(f"/api/tables/{table_id}").json()
        if table["status"] == "finished":
            return table
        time.sleep(0.02)
    raise AssertionError("the match did not end")


def test_D1_rated_tables_are_for_account_holders_only(h: Harness) -> None:
    guest = h.guest("Visitante")
    r = h.client.post("/api/tables", json={"variant": "dominousa", "rated": True}, headers=guest.headers)
    assert (r.status_code, r.json()["error"]) == (403, "accounts-only")
    ana = account(h, "Ana")
    table = rated_table(h, ana)
    assert table["rated"] is True
    r = h.client.post(f"/api/tables/{table['id']}/join", json={}, headers=guest.headers)
    assert (r.status_code, r.json()["error"]) == (403, "accounts-only")
    r = h.client.post(f"/api/tables/{table['id']}/bots", json={"level": "greedy"}, headers=ana.headers)
    assert (r.status_code, r.json()["error"]) == (403, "accounts-only")
    r = h.client.post("/api/tables", json={"variant": "dominousa", "rated": True, "bots_after": 2}, headers=ana.headers)
    assert (r.status_code, r.json()["error"]) == (422, "bad-options")


def test_D1_a_resigned_rated_match_is_rated_once_and_lost_for_the_side_that_left(h: Harness) -> None:
    people = [account(h, name) for name in ("Ana", "Bia", "Caio", "Davi")]
    table_id = rated_table(h, people[0])["id"]
    seat_all(h, table_id, people)
    assert h.client.post(f"/api/tables/{table_id}/start", headers=people[0].headers).is_success
    watcher = h.connect(None)
    watcher.subscribe(table_id)
    watcher.expect("state")
    r = h.client.post(f"/api/tables/{table_id}/resign", headers=people[1].headers)  # Bia leaves
    assert r.status_code == 200, r.text
    end = watcher.recv_until(lambda f: f["type"] == "event" and f["event"]["kind"] == "end")
    outcome = {"termination": "abandon", "winner": 0, "totals": end["state"]["totals"]}
    assert end["event"] == {
        "kind": "end",
        "match": 1,
        "winner": 0,
        "how": "abandon",
        "seat": 1,
        "reason": "resign",
        "outcome": outcome,
    }
    assert end["state"]["winner"] == 0
    record = h.client.get(f"/api/tables/{table_id}/records").json()[0]
    changes = {c["seat"]: c for c in record["ratings"]}
    assert [changes[s]["won"] for s in range(4)] == [True, False, True, False]
    assert changes[1]["abandoned"] and not changes[3]["abandoned"]
    assert changes[0]["delta"] > 0 > changes[3]["delta"] == changes[1]["delta"]  # her partner: the result only
    file = h.client.get(f"/api/records/{record['id']}").json()
    assert file["result"] == {"how": "abandon", "seat": 1, "winner": 0, "reason": "resign"}
    # What the players see of it.
    profile = h.client.get(f"/api/players/{people[0].id}/profile").json()
    assert profile["name"] == "Ana" and profile["ratings"][0]["game"] == "dominousa"
    assert profile["ratings"][0]["rating"] == round(changes[0]["after"]) and profile["ratings"][0]["provisional"]
    assert [p["delta"] for p in profile["history"]["dominousa"]] == [changes[0]["delta"]]
    history = h.client.get(f"/api/players/{people[0].id}/matches").json()
    assert history[0]["rating"]["delta"] == changes[0]["delta"]
    board = h.client.get("/api/ratings/dominousa").json()
    week = {s["player"]: s for s in board["this_week"]["standings"]}
    assert week[people[0].id]["score"] > 0 > week[people[1].id]["score"] and week[people[0].id]["name"] == "Ana"
    assert all(p["player"] not in {x.id for x in people} for p in board["all_time"])  # provisional: not listed
    # At their next table each seat shows its player's rating (and the lobby too); so does a rematch.
    now = [{"rating": round(changes[k]["after"]), "provisional": True} for k in range(4)]
    again = rated_table(h, people[0])["id"]
    seat_all(h, again, people)
    seats = h.client.get(f"/api/tables/{again}").json()["seats"]
    assert [s["rating"] for s in seats] == now
    assert [s["rating"] for s in h.client.get(f"/api/tables/{table_id}").json()["seats"]] == [None] * 4  # unrated then
    assert h.client.post(f"/api/tables/{table_id}/rematch", headers=people[2].headers).is_success
    assert [s["rating"] for s in h.client.get(f"/api/tables/{table_id}").json()["seats"]] == now


def test_D1_three_timeouts_in_a_row_at_a_rated_table_are_an_abandonment(h: Harness) -> None:
    people = [account(h, name) for name in ("Eva", "Fabio", "Gil", "Hugo")]
    table_id = rated_table(h, people[0])["id"]
    seat_all(h, table_id, people)
    h.table(table_id).runner.clocks.move_seconds = 0.05  # nobody moves
    assert h.client.post(f"/api/tables/{table_id}/start", headers=people[0].headers).is_success
    wait_finished(h, table_id)
    record = h.client.get(f"/api/tables/{table_id}/records").json()[0]
    file = h.client.get(f"/api/records/{record['id']}").json()
    seat = file["result"]["seat"]
    timeouts = [a for hand in file["hands"] for a in hand["actions"] if a.startswith(f"{seat}: ")]
    assert len(timeouts) == 3  # no bot stood in for him: his own clock ran out three times
    assert file["result"]["winner"] == (seat % 2) ^ 1
    assert {c["seat"] for c in record["ratings"] if c["abandoned"]} == {seat}


def test_D1_casual_tables_never_touch_ratings(h: Harness) -> None:
    people = [account(h, name) for name in ("Ivo", "Joana", "Kiko", "Lia")]
    r = h.client.post("/api/tables", json={"variant": "dominousa", **QUICK}, headers=people[0].headers)
    table_id = r.json()["id"]
    seat_all(h, table_id, people)
    assert h.client.post(f"/api/tables/{table_id}/start", headers=people[0].headers).is_success
    assert h.client.post(f"/api/tables/{table_id}/resign", headers=people[2].headers).is_success
    record = h.client.get(f"/api/tables/{table_id}/records").json()[0]
    assert record["ratings"] == []
    assert h.client.get(f"/api/players/{people[0].id}/profile").json()["ratings"] == []


def test_the_published_numbers(h: Harness) -> None:
    rules = h.client.get("/api/ratings").json()
    assert rules == {
        "start": 1500.0,
        "points_per_mu": 30.0,
        "provisional_sigma": 6.0,
        "individual_provisional_games": 10,
        "inactive_days": 30,
        "d3_bonus_cap": 8.0,
    }
    assert h.client.get("/api/ratings/chess").status_code == 422
    assert h.client.get("/api/ratings/dominousa/weeks/2026-12-02").json()["week"] == "2026-11-30"
