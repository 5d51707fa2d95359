"""Clocks: a human who does not move gets the timeout move (A10), twice in a row makes him away and a
bot plays his seat until he acts again; Dominousa's match clock writes ``-: time`` once (C5)."""

from __future__ import annotations

import random
from typing import Any

from capicua.rules import variants
from capicua.rules.match import Match
from capicua.rules.moves import Move, parse_action
from capicua.rules.record import Record, replay, summary
from tests.web.helpers import (
    PATIENCE,
    Conn,
    Guest,
    Harness,
    Player,
    check_same_result,
    create_table,
    drive,
    event_kinds,
    fetch_record,
    join,
    leaks,
    simple_policy,
    visibility,
)


def start_alone(h: Harness, options: dict[str, Any], move_seconds: float) -> tuple[str, Guest, Conn]:
    """Ana at seat 0, bots elsewhere, her move clock ``move_seconds`` (below what the API allows)."""
    ana = h.guest("Ana")
    table_id = create_table(h.client, ana, **options)["id"]
    join(h.client, ana, table_id, 0)
    conn = h.connect(ana, "ana", 0)
    conn.subscribe(table_id)
    conn.expect("state")
    assert h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=ana.headers).is_success
    h.table(table_id).runner.clocks.move_seconds = move_seconds
    assert h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers).is_success
    return table_id, ana, conn


def is_event(kind: str, **fields: Any) -> Any:
    def pred(frame: dict[str, Any]) -> bool:
        event = frame.get("event") or {}
        return (
            frame["type"] == "event" and event.get("kind") == kind and all(event.get(k) == v for k, v in fields.items())
        )

    return pred


def my_turn(conn: Conn, seat: int, since: int = 0, timeout: float = PATIENCE) -> dict[str, Any]:
    """Wait until the newest state says it is ``seat``'s turn; return that hand view."""

    def mine(frame: dict[str, Any]) -> bool:
        hand = (frame.get("state") or {}).get("hand")
        return hand is not None and hand["end"] is None and hand["turn"] == seat and bool(hand["legal"])

    while True:
        conn.wait_for(mine, since, timeout)
        conn.poll()
        state = conn.latest_state()
        if state is not None and mine({"state": state}) and state["n"] == conn.last_n:
            return dict(state["hand"])
        since = len(conn.frames)


def act(conn: Conn, table_id: str, move: str, ref: str) -> dict[str, Any]:
    since = len(conn.frames)
    conn.act(table_id, move, ref)
    reply = conn.wait_for(lambda f: f["type"] in ("ack", "error") and f.get("ref") == ref, since)
    assert reply["type"] == "ack", reply
    return reply


def timeout_moves_match_the_engine(record: Record, kinds: dict[int, str], events: list[dict[str, Any]]) -> int:
    """Each action the table made for a late player is the engine's timeout move there (A10)."""
    timed = {f["n"] for f in events if f["event"]["kind"] == "action" and f["event"]["timeout"]}
    match = Match(variants.get(record.variant), players=len(record.players), options=record.options)
    hand_no, done, checked = 0, 0, 0
    for n in sorted(kinds):
        if kinds[n] == "deal":
            rh = record.hands[hand_no]
            match.deal(rh.deal, rh.boneyard, rh.extra)
            hand_no, done = hand_no + 1, 0
        elif kinds[n] == "action":
            seat, move = parse_action(record.hands[hand_no - 1].actions[done])
            if isinstance(move, Move):
                move = match.hand.resolve(move, match.hand.turn if seat is None else seat)
            if n in timed:
                assert seat is not None and move is match.hand.timeout_move(seat), (n, move)
                checked += 1
            match.push(move, seat)
            done += 1
    return checked


def test_timeouts_away_and_back(h: Harness, seed: int) -> None:
    table_id, ana, conn = start_alone(h, {"variant": "individual", "players": 2, "target": 20}, 0.2)
    config = h.app.state.platform.tables.config

    # Her clock runs out: the table moves for her.
    first = conn.recv_until(is_event("action", seat=0, timeout=True), timeout=5)
    assert first["event"]["action"].startswith("0: ")
    # She moves herself: her count of timeouts starts again.
    view = my_turn(conn, 0, len(conn.frames) - 1)
    mine = act(conn, table_id, view["legal"][0], "own")
    # Then two timeouts in a row make her away; the bots move slowly from then on, so she can come back.
    conn.recv_until(is_event("action", seat=0, timeout=True), timeout=5)
    my_turn(conn, 0, len(conn.frames) - 1)
    config.bot_delay = 0.6
    away = conn.recv_until(is_event("away", seat=0, away=True), timeout=5)
    # A bot plays her seat (she has sent nothing).
    stand_in = conn.recv_until(is_event("action", seat=0), timeout=5)
    assert stand_in["event"]["timeout"] is False
    assert stand_in["state"]["table"]["seats"][0]["away"] is True
    # She acts again: she is back, and her clock (not a bot) runs for her next move.
    view = my_turn(conn, 0, len(conn.frames) - 1)
    back_ack = act(conn, table_id, view["legal"][0], "back")
    config.bot_delay = 0
    h.table(table_id).runner.clocks.move_seconds = 30  # from here on the driver plays her moves
    back = conn.wait_for(is_event("away", seat=0, away=False))
    player = Player(ana, 0, conn, simple_policy, random.Random(3), seen=len(conn.frames))
    drive(h, table_id, [player])
    conn.ping()
    assert player.errors == []

    events = [f for f in conn.events() if f["table"] == table_id]
    by_n = {f["n"]: f for f in events}
    ana_actions = [f for f in events if f["event"]["kind"] == "action" and f["event"]["seat"] == 0]
    timeouts = [f["n"] for f in ana_actions if f["event"]["timeout"]]
    aways = [(f["n"], f["event"]["away"]) for f in events if f["event"]["kind"] == "away"]
    # Exactly three timeouts; away right after the third (the second in a row), back right after her move.
    assert len(timeouts) == 3 and timeouts[0] == first["n"], timeouts
    assert timeouts[0] < mine["n"] <= timeouts[1]
    assert aways == [(timeouts[2] + 1, True), (back["n"], False)], aways
    assert by_n[back["n"] - 1]["event"] == {
        "kind": "action",
        "seat": 0,
        "action": f"0: {view['legal'][0]}",
        "timeout": False,
    }
    assert back["n"] <= back_ack["n"]
    assert by_n[timeouts[1] + 1]["event"]["kind"] != "away"  # one timeout after her own move: not away
    # While she was away, her seat's moves were a bot's (no clock ran out for her).
    stood_in = [f for f in ana_actions if timeouts[2] < f["n"] < back["n"] - 1]
    assert stood_in and all(not f["event"]["timeout"] for f in stood_in)
    waiting = [f for f in events if away["n"] <= f["n"] < back["n"] and f["state"]["clock"]["seat"] == 0]
    assert all(f["state"]["clock"]["deadline"] is None for f in waiting)
    later = [f for f in events if f["n"] > back["n"] and f.get("state", {}).get("hand", {}).get("turn") == 0]
    assert later and all(f["state"]["table"]["seats"][0]["away"] is False for f in later)
    assert any(f["state"]["clock"]["deadline"] for f in later if f["state"]["clock"]["seat"] == 0)

    record, _ = fetch_record(h.client, table_id)
    kinds = event_kinds([conn], table_id)
    assert timeout_moves_match_the_engine(record, kinds, events) == 3
    assert leaks(conn, visibility(record, kinds)) == []
    check_same_result(conn, table_id, record)


def test_dominousa_match_clock_writes_time_once(h: Harness, seed: int) -> None:
    ana = h.guest("Ana")
    table_id = create_table(h.client, ana, variant="dominousa", target=200)["id"]
    join(h.client, ana, table_id, 0)
    conn = h.connect(ana, "ana", 0)
    conn.subscribe(table_id)
    conn.expect("state")
    watcher = h.connect(None, "anonymous", None)
    watcher.subscribe(table_id)
    watcher.expect("state")
    h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=ana.headers)
    table = h.table(table_id)
    table.runner.clocks.move_seconds = 0.5  # Ana never moves: the hand waits for her clock
    table.runner.clocks.match_minutes = 0.3 / 60  # the match clock runs out first
    h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers)
    deal = conn.recv_until(is_event("deal"))
    assert deal["state"]["clock"]["match_ends"] is not None
    assert deal["state"]["hand"]["public"]["time_up"] is False
    h.wait(lambda: conn.saw_end(table_id) and watcher.saw_end(table_id), timeout=20, what="the match to end")
    conn.ping()
    watcher.ping()

    events = [f for f in conn.events() if f["table"] == table_id]
    times = [f for f in events if f["event"]["kind"] == "action" and f["event"]["action"] == "-: time"]
    assert len(times) == 1, times
    time_frame = times[0]
    assert time_frame["event"]["seat"] is None and time_frame["event"]["timeout"] is False
    assert time_frame["state"]["hand"]["public"]["time_up"] is True
    assert all(f["state"]["hand"]["public"]["time_up"] for f in events if f["n"] > time_frame["n"])

    record, row = fetch_record(h.client, table_id)
    actions = [a for hand in record.hands for a in hand.actions]
    assert actions.count("-: time") == 1
    assert record.options["match_minutes"] == 40  # the table's option: the test only shortened its clock
    result = summary(replay(record))
    # C5: once time is up, the first hand that ends with the teams apart ends the match.
    time_hand = next(i for i, hand in enumerate(record.hands) if "-: time" in hand.actions)
    totals = [0, 0]
    for i, hand in enumerate(result["hands"]):
        totals = [a + b for a, b in zip(totals, hand["points"], strict=True)]
        if i >= time_hand and i < len(result["hands"]) - 1:
            assert totals[0] == totals[1], (i, totals)
    assert totals == result["totals"] and totals[0] != totals[1]
    assert row["winner"] == result["winner"] == (0 if totals[0] > totals[1] else 1)
    kinds = event_kinds([conn, watcher], table_id)
    vis = visibility(record, kinds)
    assert leaks(conn, vis) == [] and leaks(watcher, vis) == []
    check_same_result(conn, table_id, record)
    check_same_result(watcher, table_id, record)
    assert timeout_moves_match_the_engine(record, kinds, events) >= 1
