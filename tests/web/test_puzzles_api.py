"""The puzzles' HTTP API (docs/protocol.md, docs/puzzles.md): puzzles made from stored public matches are posed
with no hidden tile (checked against the record: no tile of another seat's hand that was not played yet appears
anywhere in the payload), and no hint of the answer; solving says right or wrong, every move's points and a
reason, and moves the ratings of an account once; a guest's rating goes and comes back; bad input is refused in
the one error shape and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from capicua.bots.puzzles import Criteria
from capicua.cli.puzzles import _make
from capicua.rules.record import Record
from capicua.rules.tiles import Tile
from capicua.service.platform import Platform
from capicua.service.store import Store
from capicua.service.tables import TableConfig
from capicua.web.app import create_app
from tests.bots.test_analysis import _galo_thrown_away
from tests.bots.test_puzzles import greedy_record
from tests.web.helpers import new_guest, tiles_in

CRITERIA = Criteria(worlds=24, screen=12)


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    from capicua.service.store import default_url

    config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)
    app = create_app(Platform(Store(default_url(tmp_path)), "test-secret", config, limits=False))
    with TestClient(app) as client:
        yield client


def made(client: TestClient, records: list[Record]) -> tuple[Platform, dict[int, Record]]:
    """The records saved as public matches and ``capicua puzzles make``'s work done on them: the platform and
    each record by its id."""
    platform: Platform = client.app.state.platform  # type: ignore[attr-defined]
    ids: dict[int, Record] = {}

    async def body() -> None:
        for i, record in enumerate(records):
            data = record.to_json()
            table = await platform.store.events.create_table(record.variant, 4, {"target": 100}, False, "ana")
            ids[await platform.store.records.save(table.id, i + 1, record.variant, data["players"], None, data)] = (
                record
            )
        await _make(platform.store, CRITERIA, True, 10, 0, "amazonense", 0)

    assert client.portal is not None
    client.portal.call(body)
    return platform, ids


def hidden_at(record: Record, hand: int, action: int, seat: int) -> tuple[set[str], set[str]]:
    """At the decision (before action ``action`` of hand ``hand``): the tiles other seats hold that were not played
    yet, and the seat's own."""
    played: set[str] = set()
    for text in record.hands[hand - 1].actions[: action - 1]:
        for word in text.split(":", 1)[1].split():
            if "-" in word:
                played.add(str(Tile.parse(word)))
    deal = record.hands[hand - 1].deal
    others = {str(t) for s, tiles in enumerate(deal) if s != seat for t in tiles} - played
    mine = {str(t) for t in deal[seat]} - played
    return others, mine


def test_a_puzzle_shows_no_hidden_tile_and_is_solved(client: TestClient) -> None:
    planted, hand, action = _galo_thrown_away()
    records = [planted, greedy_record("amazonense", 4, 1, target=100)]
    platform, by_id = made(client, records)

    async def rows() -> list[Any]:
        count = await platform.store.puzzles.count()
        return [await platform.store.puzzles.nth(i) for i in range(count)]

    assert client.portal is not None
    kept = client.portal.call(rows)
    assert kept, "the planted blunder at least"
    for row in kept:
        r = client.get(f"/api/puzzles/{row.id}")
        assert r.status_code == 200, r.text
        data = r.json()
        record = by_id[row.record_id]
        others, mine = hidden_at(record, row.hand, row.action, data["seat"])
        shown = tiles_in(r.text)
        assert not shown & others, (row.key, shown & others)
        assert mine <= shown  # the seat's own tiles are there: the check is not vacuous
        # No hint: neither the answer, nor the moves' points, nor the source (the record's id opens every hand).
        assert set(data) == {"id", "variant", "seat", "position", "moves", "rating", "plays", "you"}
        assert "answers" not in r.text and "record_id" not in r.text and "margin" not in r.text
        assert data["moves"] == sorted(data["moves"]) and len(data["moves"]) >= 2

    # The planted blunder: the galo call solves it, with its reason.
    planted_id = next(i for i, r in by_id.items() if r is planted)
    row = next(r for r in kept if (r.record_id, r.hand, r.action) == (planted_id, hand, action))
    played = planted.hands[hand - 1].actions[action - 1].split(": ", 1)[1]
    ana = new_guest(client, "Ana")
    wrong = client.post(f"/api/puzzles/{row.id}/solve", json={"move": played}, headers=ana.headers)
    assert wrong.status_code == 200, wrong.text
    w = wrong.json()
    assert not w["right"] and w["answer"] == f"{played} galo" and w["why"]["code"] == "galo"
    assert w["moves"][0]["move"] == w["answer"] and w["moves"][0]["loss"] == 0
    assert w["source"] == {"kind": "record", "record_id": row.record_id, "seed": None, "hand": hand, "action": action}
    assert w["you"]["guest"] and w["rated"] and w["you"]["rating"] < 1500
    g = w["you"]
    right = client.post(
        f"/api/puzzles/{row.id}/solve",
        json={"move": f"{played} galo", "rating": {"rating": g["rating"], "rd": g["rd"], "vol": g["vol"]}},
        headers=ana.headers,
    )
    assert right.json()["right"] and right.json()["you"]["rating"] > g["rating"]
    # Next, near the rating, not one seen; daily.
    nxt = client.get("/api/puzzles/next", params={"exclude": str(row.id), "rating": 1500})
    assert nxt.status_code in (200, 404)
    if nxt.status_code == 200:
        assert nxt.json()["id"] != row.id
    assert client.get("/api/puzzles/daily").json()["id"] in {r.id for r in kept}


def test_bad_input_is_refused_in_the_one_shape(client: TestClient) -> None:
    r = client.get("/api/puzzles/daily")
    assert r.status_code == 404 and r.json()["error"] == "not-found"
    assert client.get("/api/puzzles/next").json()["error"] == "not-found"
    assert client.get("/api/puzzles/7").status_code == 404
    assert client.post("/api/puzzles/7/solve", json={"move": "6-6"}).json()["error"] == "not-found"
    for body in ({}, {"move": ""}, {"move": "6-6", "extra": 1}, {"move": "6-6", "rating": {"rating": 1500}}):
        assert client.post("/api/puzzles/7/solve", json=body).status_code == 422
    assert client.get("/api/puzzles/next", params={"exclude": "1,x"}).status_code == 422
    assert client.get("/api/puzzles/0").status_code == 422
