"""Whole matches over the websocket: scripted humans, bots, spectators; no frame leaks a hidden
tile, and every client saw the match that the stored record replays to."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from capicua.rules.record import replay, summary
from capicua.service.tables.state import BOT_NAMES
from tests.web.helpers import (
    Harness,
    Player,
    check_same_result,
    clock_problems,
    create_table,
    drive,
    event_kinds,
    fetch_record,
    join,
    leaks,
    setup_match,
    simple_policy,
    tiles_in,
    visibility,
)

GAMES = [
    pytest.param({"variant": "amazonense", "target": 60}, [0, 1], id="amazonense"),
    pytest.param({"variant": "individual", "players": 2, "target": 40}, [0, 1], id="individual-2"),
    pytest.param({"variant": "individual", "players": 3, "target": 40}, [0, 2], id="individual-3"),
    pytest.param({"variant": "individual", "players": 4, "target": 40, "lead": "winner"}, [1, 3], id="individual-4"),
    pytest.param({"variant": "dominousa", "target": 40}, [0, 3], id="dominousa"),
    pytest.param({"variant": "dominousa", "target": 60, "strict": True}, [1, 2], id="dominousa-strict"),
]


@pytest.mark.parametrize(("options", "seats"), GAMES)
def test_match_over_websocket(h: Harness, seed: int, options: dict[str, Any], seats: list[int]) -> None:
    table_id, players, watchers = setup_match(h, options, seats)
    drive(h, table_id, players, timeout=40)
    conns = [p.conn for p in players if p.conn] + watchers
    for conn in conns:
        conn.ping()  # everything the server sent has been read

    # Nobody was refused anything, and every human action was acknowledged with its event number.
    for p in players:
        assert p.errors == [], p.errors
        assert len(p.acks) == len(p.sent) > 0
    for conn in conns:
        assert [f for f in conn.frames if f["type"] == "error"] == []

    # The move clock shown is the one of the seat to act.
    problems = [p for conn in conns for p in clock_problems(conn)]
    assert problems == [], "\n".join(problems[:5])

    # Every connection heard every event after its subscription, in order, once.
    n_end = h.table(table_id).n
    for conn in conns:
        assert conn.event_numbers() == list(range(len(seats) + 1, n_end + 1)), conn.label

    record, row = fetch_record(h.client, table_id)
    humans = [name for s, name in enumerate(record.players) if s in seats]
    bots = [name for s, name in enumerate(record.players) if s not in seats]
    assert humans == [f"Human{s}" for s in seats]
    assert len(set(bots)) == len(bots) and set(bots) <= set(BOT_NAMES)  # bots with names of their own
    assert record.variant == options["variant"]
    assert record.options["target"] == options["target"]

    # The humans' moves are in the record, under their seats, in the order they were sent.
    for p in players:
        mine = [a.split(": ", 1)[1] for hand in record.hands for a in hand.actions if a.startswith(f"{p.seat}: ")]
        assert [m.split()[0] for m in mine] == [m.split()[0] for m in p.sent]
    galos = [a for hand in record.hands for a in hand.actions if a.endswith(" galo")]
    if options["variant"] == "amazonense":
        assert any(a[0] in "".join(map(str, seats)) for a in galos), "no human called galo with a play"
    if options.get("strict"):
        # Each human once passed holding a fitting tile, and maybe played a tile fitting no end: fined (C9).
        fined = {
            (s["seat"], s["points"])
            for hand in summary(replay(record))["hands"]
            for s in hand["scoring"]
            if s["kind"] == "fine"
        }
        assert {(s, 50) for s in seats} <= fined, fined

    # No leak: each frame judged against the record replayed to that frame's event.
    kinds = event_kinds(conns, table_id)
    vis = visibility(record, kinds)
    problems = [p for conn in conns for p in leaks(conn, vis)]
    assert problems == [], "\n".join(problems[:5])

    # The scan would have caught a leak: plant a hidden tile (written low half first) in a frame.
    for who in (players[0].conn, watchers[1]):
        assert who is not None
        conn = who
        pos, frame = next(
            (pos, f)
            for pos, f in zip(conn.positions, conn.frames, strict=True)
            if f["type"] == "event" and pos in vis and vis[pos].hand_no and vis[pos].hidden(conn.seat)
        )
        hidden = sorted(vis[pos].hidden(conn.seat))[0]
        planted = copy.deepcopy(frame)
        planted["state"]["hand"]["layout"]["note"] = f"{hidden[2]}-{hidden[0]}"
        assert leaks(conn, vis, [(pos, frame)]) == []
        assert leaks(conn, vis, [(pos, planted)]), f"the scan missed {hidden} planted in {planted}"

    # Same result: each client's final view is the record's replay.
    results = [check_same_result(conn, table_id, record) for conn in conns]
    assert row["winner"] == results[0]["winner"]
    table = h.table(table_id)
    assert table.status == "finished"
    assert table.match is not None and table.match.totals == results[0]["totals"]


def test_spectator_sees_only_public_tiles(h: Harness, seed: int) -> None:
    """A spectator's frames show no tile while the hand is young (nothing is public yet) and the
    revealed hands when a hand is counted."""
    table_id, players, watchers = setup_match(h, {"variant": "individual", "players": 2, "target": 20}, [0, 1])
    drive(h, table_id, players)
    anonymous = watchers[1]
    deal = next(f for f in anonymous.events() if f["event"]["kind"] == "deal")
    assert tiles_in(deal) == set()
    assert deal["state"]["hand"]["tiles"] == [] and deal["state"]["hand"]["legal"] == []
    record, _ = fetch_record(h.client, table_id)
    vis = visibility(record, event_kinds([anonymous], table_id))
    assert leaks(anonymous, vis) == []


def test_seat_changes_do_not_leak(h: Harness, seed: int) -> None:
    """A connection that subscribed as seat 0's player, who then left the seat to somebody else,
    must not be sent the new player's tiles."""
    owner = h.guest("Owner")
    table_id = create_table(h.client, owner, variant="individual", players=2, target=20)["id"]
    ana, bia = h.guest("Ana"), h.guest("Bia")
    join(h.client, ana, table_id, 0)
    ana_conn = h.connect(ana, "ana", None)  # judged as a spectator: she will have left
    ana_conn.subscribe(table_id)
    assert ana_conn.expect("state")["state"]["seat"] == 0
    assert h.client.post(f"/api/tables/{table_id}/leave", headers=ana.headers).status_code == 200
    join(h.client, bia, table_id, 0)
    bia_conn = h.connect(bia, "bia", 0)
    bia_conn.subscribe(table_id)
    bia_conn.expect("state")
    h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=bia.headers)
    h.client.post(f"/api/tables/{table_id}/start", headers=bia.headers)
    player = Player(bia, 0, bia_conn, simple_policy)
    drive(h, table_id, [player])
    record, _ = fetch_record(h.client, table_id)
    vis = visibility(record, event_kinds([ana_conn, bia_conn], table_id))
    seats = {f["state"]["seat"] for f in ana_conn.frames[2:] if "state" in f}
    assert seats == {None}, f"Ana, no longer seated, was sent the views of seats {seats}"
    assert leaks(ana_conn, vis) == []
    assert leaks(bia_conn, vis) == []


def test_subscribing_before_joining_gives_the_seat_view(h: Harness, seed: int) -> None:
    """Watch a table, then sit down: from then on the frames are the seat's view (tiles, legal
    moves), without subscribing again -- else the player could never move."""
    owner = h.guest("Owner")
    table_id = create_table(h.client, owner, variant="individual", players=2, target=20)["id"]
    bia = h.guest("Bia")
    bia_conn = h.connect(bia, "bia", None)
    bia_conn.subscribe(table_id)
    assert bia_conn.expect("state")["state"]["seat"] is None
    join(h.client, bia, table_id, 1)
    seat_frame = bia_conn.expect("event")
    assert seat_frame["event"]["kind"] == "seat"
    bia_conn.seat = 1
    h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=bia.headers)
    h.client.post(f"/api/tables/{table_id}/start", headers=bia.headers)
    deal = bia_conn.recv_until(lambda f: f["type"] == "event" and f["event"]["kind"] == "deal")
    assert deal["state"]["seat"] == 1 and len(deal["state"]["hand"]["tiles"]) == 7, deal
    player = Player(bia, 1, bia_conn, simple_policy)
    drive(h, table_id, [player], timeout=10)
    record, _ = fetch_record(h.client, table_id)
    vis = visibility(record, event_kinds([bia_conn], table_id))
    frames = [(pos, f) for pos, f in zip(bia_conn.positions, bia_conn.frames, strict=True) if pos >= deal["n"]]
    assert leaks(bia_conn, vis, frames) == []
    check_same_result(bia_conn, table_id, record)
