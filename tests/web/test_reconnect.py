"""Reconnecting: the events missed since ``last``, exactly once and in order; a full state when
``last`` is too old or absent; ``synced`` when nothing was missed."""

from __future__ import annotations

import random

import pytest

from capicua.service.tables import fanout
from tests.web.helpers import (
    Harness,
    Player,
    check_same_result,
    combined,
    create_table,
    drive,
    event_kinds,
    fetch_record,
    join,
    leaks,
    setup_match,
    simple_policy,
    visibility,
)


def test_reconnect_mid_hand_gets_exactly_the_missed_events(h: Harness, seed: int) -> None:
    table_id, players, watchers = setup_match(h, {"variant": "amazonense", "target": 200}, [0, 2])
    ana, bia = players
    # Play until Ana has moved twice and the table waits on Bia, everybody having heard everything. (Not
    # "the table does not wait on Ana": that also holds while it is her turn and a frame is on its way, and
    # then nobody moves once she has gone.)
    drive(h, table_id, players, until=lambda: len(ana.acks) >= 2 and h.waiting_on(table_id, 2))
    old = ana.conn
    assert old is not None
    old.ping()
    seen = old.last_n
    assert old.event_numbers()[-1] == seen
    old.close()
    ana.conn = None

    # The game goes on without her: Bia and the bots move until it is Ana's turn again.
    drive(h, table_id, [bia], until=lambda: h.table(table_id).n > seen and h.waiting_on(table_id, 0))
    current = h.table(table_id).n
    assert current > seen

    new = h.connect(ana.guest, "ana again", 0)
    new.subscribe(table_id, last=seen)
    missed = [new.expect("event") for _ in range(current - seen)]
    new.ping()  # nothing else comes: no duplicates, no extra frame
    assert [f for f in new.frames if f["type"] not in ("welcome", "event", "pong")] == []
    assert [f["n"] for f in missed] == list(range(seen + 1, current + 1))
    assert bia.conn is not None
    bia.conn.ping()
    assert [f["event"] for f in missed] == [f["event"] for f in bia.conn.events() if f["n"] > seen]
    # Old events carry their public part; the newest carries Ana's view now: her turn.
    assert all("state" not in f for f in missed[:-1])
    state = missed[-1]["state"]
    assert state["n"] == current and state["seat"] == 0
    assert state["hand"]["turn"] == 0 and state["hand"]["legal"]
    assert sorted(state["hand"]["tiles"]) == sorted(str(t) for t in h.table(table_id).match.hand.tiles(0))  # type: ignore[union-attr]

    # She plays on from there to the end of the match.
    ana.conn, ana.seen = new, len(new.frames)
    drive(h, table_id, players, timeout=40)
    for conn in h.conns:
        if not conn.closed:
            conn.ping()
    assert ana.errors == [] and bia.errors == []
    assert len(ana.acks) > 2  # she moved again after reconnecting

    end = h.table(table_id).n
    whole = combined("ana", old, new)
    assert whole.event_numbers() == list(range(3, end + 1)), "missing or repeated events across the reconnect"
    record, _ = fetch_record(h.client, table_id)
    vis = visibility(record, event_kinds([whole, *watchers], table_id))
    assert leaks(whole, vis) == []
    check_same_result(whole, table_id, record)
    for conn in watchers:
        check_same_result(conn, table_id, record)


def test_reconnect_full_state_or_synced(h: Harness, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fanout, "REPLAY_WINDOW", 8)
    owner = h.guest("Owner")
    table_id = create_table(h.client, owner, variant="individual", players=3, target=30)["id"]
    ana = h.guest("Ana")
    join(h.client, ana, table_id, 0)
    first = h.connect(ana, "ana", 0)
    first.subscribe(table_id)
    first.expect("state")
    h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=ana.headers)
    h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers)
    player = Player(ana, 0, first, simple_policy, random.Random(5))
    drive(h, table_id, [player], until=lambda: len(player.acks) >= 3 and h.waiting_on(table_id, 0))
    first.ping()
    table = h.table(table_id)
    current = table.n
    assert current > 10
    assert first.last_n == current
    hand = table.match.hand  # type: ignore[union-attr]
    tiles = sorted(str(t) for t in hand.tiles(0))

    conn = h.connect(ana, "ana again", 0)

    def full_state(last: int | None) -> None:
        conn.subscribe(table_id, last=last)
        frame = conn.expect("state")
        assert frame["n"] == frame["state"]["n"] == current
        assert frame["state"]["seat"] == 0
        assert sorted(frame["state"]["hand"]["tiles"]) == tiles
        assert frame["state"]["hand"]["legal"] == first.latest_state()["hand"]["legal"]  # type: ignore[index]

    full_state(None)  # no number: the whole state
    full_state(0)  # from the very beginning: older than the frames kept
    full_state(current - 9)  # one before the window
    conn.subscribe(table_id, last=current - 8)  # the oldest event kept is current - 7
    assert [conn.expect("event")["n"] for _ in range(8)] == list(range(current - 7, current + 1))
    conn.subscribe(table_id, last=current)
    synced = conn.expect("synced")
    assert synced["n"] == current and synced["table"] == table_id
    conn.ping()
    assert h.table(table_id).n == current  # subscribing changed nothing

    spectator = h.connect(None, "anonymous", None)
    spectator.subscribe(table_id, last=None)
    frame = spectator.expect("state")
    assert frame["state"]["seat"] is None
    assert frame["state"]["hand"]["tiles"] == [] and frame["state"]["hand"]["legal"] == []

    # The connection subscribed five times is one subscriber: each event reaches it once.
    first.close()
    player.conn, player.seen = conn, len(conn.frames)
    drive(h, table_id, [player], timeout=20)
    conn.ping()
    spectator.ping()
    numbers = [f["n"] for f in conn.frames[conn.frames.index(synced) :] if f["type"] == "event"]
    assert numbers == list(range(current + 1, h.table(table_id).n + 1))
    assert spectator.event_numbers() == numbers
    record, _ = fetch_record(h.client, table_id)
    vis = visibility(record, event_kinds([first, conn], table_id))
    assert leaks(conn, vis) == []
    assert leaks(spectator, vis) == []
