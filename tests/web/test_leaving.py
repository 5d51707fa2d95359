"""Leaving a table (issue 22, item 8): before the match a player frees his seat (``leave``); during it he
resigns, and the state, the ``end`` event and the record say who and why; a casual table whose people are
all away (A10) and gone ends instead of playing on with bots for ghosts, while one whose away player still
has the table open plays on (he may come back); rated tables never end that way (D1, issue 12)."""

from __future__ import annotations

import time
from typing import Any

from tests.web.helpers import Harness, create_table, fetch_record, join
from tests.web.test_clocks import is_event, start_alone


def test_leave_before_the_match_frees_the_seat_and_resign_during_it_says_who(h: Harness) -> None:
    ana, bia = h.guest("Ana"), h.guest("Bia")
    table_id = create_table(h.client, ana, variant="individual", players=2, target=500)["id"]
    join(h.client, ana, table_id, 0)
    join(h.client, bia, table_id, 1)
    r = h.client.post(f"/api/tables/{table_id}/leave", headers=bia.headers)
    assert r.status_code == 200, r.text
    seats = h.client.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[1]["empty"] and seats[0]["name"] == "Ana"
    # Leaving twice, or a table one is not at: refused, nothing changed.
    r = h.client.post(f"/api/tables/{table_id}/leave", headers=bia.headers)
    assert (r.status_code, r.json()["error"]) == (409, "not-seated"), r.text
    join(h.client, bia, table_id, 1)
    conn = h.connect(ana, "ana", 0)
    conn.subscribe(table_id)
    conn.expect("state")
    assert h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers).is_success
    # Once the match is on, leave is refused: resign is the way out.
    r = h.client.post(f"/api/tables/{table_id}/leave", headers=bia.headers)
    assert (r.status_code, r.json()["error"]) == (409, "started"), r.text
    assert h.client.post(f"/api/tables/{table_id}/resign", headers=bia.headers).status_code == 200
    end = conn.recv_until(is_event("end"), timeout=5)
    assert end["event"]["how"] == "abandon" and end["event"]["seat"] == 1 and end["event"]["reason"] == "resign"
    assert end["event"]["winner"] == 0
    assert end["state"]["abandoned"] == {"seat": 1, "reason": "resign"}
    record, _ = fetch_record(h.client, table_id)
    assert record.extra["result"] == {"how": "abandon", "seat": 1, "winner": 0, "reason": "resign"}
    # A rematch plays a new match: the last one's abandonment is no longer the table's.
    assert h.client.post(f"/api/tables/{table_id}/rematch", headers=ana.headers).is_success
    fresh = conn.recv_until(lambda f: bool((f.get("state") or {}).get("hand")) and f["state"]["table"]["match"] == 2)
    assert "abandoned" not in fresh["state"]


def finished(h: Harness, table_id: str) -> dict[str, Any]:
    h.wait(lambda: h.client.get(f"/api/tables/{table_id}").json()["status"] == "finished", 10, "the table's end")
    table: dict[str, Any] = h.client.get(f"/api/tables/{table_id}").json()
    return table


def test_a_casual_table_whose_last_person_is_away_and_gone_ends(h: Harness) -> None:
    # Ana plays alone against bots, then closes the table's page: her clock runs out twice, she is away (A10),
    # and nobody is left but bots: the match ends, abandoned by her (her side loses), no ghost plays on.
    table_id, _, conn = start_alone(h, {"variant": "individual", "players": 2, "target": 500}, 0.2)
    watcher = h.connect(h.guest("Caio"), "caio")  # a spectator is nobody at the table
    watcher.subscribe(table_id)
    watcher.expect("state")
    conn.close()
    h.wait(lambda: h.settled(table_id, lambda t: t.status == "finished"), 10, "the deserted table's end")
    end = watcher.wait_for(is_event("end"), timeout=5)  # h.wait read it already, maybe
    assert end["event"]["seat"] == 0 and end["event"]["reason"] == "deserted" and end["event"]["winner"] == 1
    assert end["state"]["abandoned"] == {"seat": 0, "reason": "deserted"}
    away = [f for f in watcher.events() if f["event"]["kind"] == "away"]
    assert [f["event"]["away"] for f in away] == [True]  # away first (A10), then the end at once
    assert away[0]["n"] + 1 == end["n"]
    record, row = fetch_record(h.client, table_id)
    assert record.extra["result"]["reason"] == "deserted"
    # the replay knows the bot's seat (its icon)
    assert h.client.get(f"/api/records/{row['id']}/steps").json()["bots"] == [False, True]


def test_an_away_player_with_the_table_open_keeps_it_until_he_closes_it(h: Harness) -> None:
    # A10 holds while she is there: away, a bot stands in and the match goes on; when she closes the page
    # the table is deserted and ends.
    table_id, ana, conn = start_alone(h, {"variant": "individual", "players": 2, "target": 500}, 0.2)
    config = h.app.state.platform.tables.config
    config.bot_delay = 0.3
    away = conn.recv_until(is_event("away", seat=0, away=True), timeout=10)
    stand_in = conn.recv_until(lambda f: is_event("action", seat=0)(f) and f["n"] > away["n"], timeout=10)
    assert stand_in["state"]["winner"] is None and not conn.saw_end(table_id)
    assert h.client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
    # She reloads the page: closed, then open again within the grace: the table plays on.
    config.desert_grace = 0.5
    conn.close()
    again = h.connect(ana, "ana again", 0)
    again.subscribe(table_id)
    again.expect("state")
    back = time.monotonic()
    h.wait(lambda: time.monotonic() > back + 3 * config.desert_grace, what="well past the grace")
    assert not again.saw_end(table_id)
    assert h.client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
    # She closes it for good: after the grace, the table ends.
    again.close()
    assert finished(h, table_id)["status"] == "finished"
    record, _ = fetch_record(h.client, table_id)
    assert record.extra["result"] == {"how": "abandon", "seat": 0, "winner": 1, "reason": "deserted"}


def test_only_casual_tables_outside_tournaments_end_deserted(h: Harness) -> None:
    table_id, _, _ = start_alone(h, {"variant": "individual", "players": 2, "target": 500}, 600)
    state = h.table(table_id).runner.state
    assert not state.deserted({0})  # she is here, not away
    state.seats[0].away = True
    try:
        assert not state.deserted({0})  # away, with the table open: a bot stands in (A10)
        assert state.deserted(set())  # away and gone
        state.rated = True
        assert not state.deserted(set())  # rated: abandonment counts timeouts (D1, issue 12)
        state.rated = False
        state.tournament_id = "t1"
        assert not state.deserted(set())  # a tournament's board
    finally:
        state.seats[0].away, state.rated, state.tournament_id = False, False, None
