"""Every kind of frame the server sends, through a real websocket, checked against the JSON Schema that the frame
models export (``capicua.web.protocol.frame_schema``); and that schema is the one docs/protocol.md shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema

from capicua.web.protocol import frame_schema, schema_block
from tests.web.helpers import Harness, create_table, drive, join, setup_match
from tests.web.test_clocks import act, is_event, my_turn

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
EVENT_KINDS = {"seat", "start", "deal", "action", "name", "away", "end"}
FRAME_TYPES = {"welcome", "pong", "error", "state", "event", "ack", "chat", "synced"}


def test_the_documented_schema_is_the_one_the_models_export() -> None:
    assert schema_block() in DOC.read_text(encoding="utf-8"), (
        "docs/protocol.md is behind the frame models: run python -m capicua.web.protocol docs/protocol.md"
    )


def test_the_schema_refuses_what_no_model_sends() -> None:
    validator = jsonschema.Draft202012Validator(frame_schema())
    assert validator.is_valid({"type": "synced", "table": "T", "n": 3})
    for wrong in (
        {"type": "synced", "table": "T"},  # a field left out
        {"type": "synced", "table": "T", "n": 3, "extra": 1},  # a field no model has
        {"type": "synced", "table": "T", "n": "3"},  # of the wrong type
        {"type": "sinked", "table": "T", "n": 3},  # no such frame
        {"type": "event", "table": "T", "n": 3, "event": {"kind": "end", "match": 1, "winner": 0, "how": "target"}},
    ):
        assert not validator.is_valid(wrong), wrong


def test_every_kind_of_frame_through_the_socket_fits_the_schema(h: Harness, seed: int) -> None:
    validator = jsonschema.Draft202012Validator(frame_schema())
    ana = h.guest("Ana")
    table_id = create_table(h.client, ana, variant="individual", players=2, target=20, pause_seconds=0)["id"]
    conn = h.connect(ana, "ana", None)  # welcome
    conn.subscribe(table_id)
    conn.expect("state")
    conn.ping()  # pong
    conn.send_text('{"type": "subscribe"}')  # error: malformed
    conn.expect("error")
    join(h.client, ana, table_id, 0)  # seat
    assert h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=ana.headers).is_success
    assert h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers).is_success  # start, deal
    view = my_turn(conn, 0, len(conn.frames) - 1)
    conn.send({"type": "chat", "table": table_id, "preset": "gg"})  # chat
    conn.recv_until(lambda f: f["type"] == "chat")
    h.table(table_id).runner.clocks.move_seconds = 0.05  # her next clocks: two timeouts in a row, away (A10)
    act(conn, table_id, view["legal"][0], "mine")  # action, ack
    conn.recv_until(is_event("away", seat=0, away=True), timeout=10)
    assert h.client.post(f"/api/tables/{table_id}/resign", headers=ana.headers).is_success  # end
    end = conn.recv_until(is_event("end"))
    assert end["event"]["outcome"] == {"termination": "abandon", "winner": 1, "totals": end["state"]["totals"]}
    assert end["event"]["how"] == "abandon" and end["event"]["seat"] == 0
    assert h.client.post("/api/me/name", json={"name": "Ana Paula"}, headers=ana.headers).is_success  # name
    conn.recv_until(is_event("name", seat=0))
    n = h.table(table_id).n
    again = h.connect(ana, "again", 0)
    again.subscribe(table_id, last=n - 3)  # three missed events, the state on the last one only
    missed = [again.expect("event") for _ in range(3)]
    assert ["state" in f for f in missed] == [False, False, True]
    again.subscribe(table_id, last=n)  # synced
    again.expect("synced")

    frames = [*conn.frames, *again.frames]
    for frame in frames:
        validator.validate(frame)
    assert {f["type"] for f in frames} == FRAME_TYPES
    assert {f["event"]["kind"] for f in frames if f["type"] == "event"} == EVENT_KINDS


def test_a_match_the_rules_end_carries_its_outcome(h: Harness, seed: int) -> None:
    """The ``end`` event says how the match was decided, as the engine's ``MatchOutcome`` does."""
    options = {"variant": "individual", "players": 2, "target": 10, "pause_seconds": 0}
    table_id, players, (_owner, anonymous) = setup_match(h, options, [0])
    drive(h, table_id, players)
    end = anonymous.wait_for(is_event("end"))
    match = h.table(table_id).match
    assert match is not None and match.outcome is not None
    outcome: dict[str, Any] = end["event"]["outcome"]
    assert outcome == {"termination": "target", "winner": match.winner, "totals": list(match.totals)}
    assert end["event"]["how"] == "target" and end["event"]["winner"] == match.winner
    jsonschema.Draft202012Validator(frame_schema()).validate(end)
