"""Tournaments through the web layer: the HTTP API (OpenAPI), check-in, rounds played over websockets,
the standings exported as JSON and CSV; a referee's decisions over the websocket, seen at once by players
and spectators, written in the record with his name, and no hidden tile in any frame (C8, C10)."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

from tests.web.helpers import (
    Conn,
    Guest,
    Harness,
    Player,
    drive,
    event_kinds,
    fetch_record,
    leaks,
    simple_policy,
    visibility,
)
from tests.web.test_rated import account

QUICK = {"target": 30, "pause_seconds": 0, "auto_pass": False}


def tournament(h: Harness, organiser: Guest, **body: Any) -> dict[str, Any]:
    body = {"name": "Copa Manaus", "starts_at": "2030-01-01T14:00:00-04:00", "options": QUICK, **body}
    r = h.client.post("/api/tournaments", json=body, headers=organiser.headers)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def register(h: Harness, tid: str, a: Guest, b: Guest) -> int:
    r = h.client.post(f"/api/tournaments/{tid}/teams", json={"partner": b.name.lower()}, headers=a.headers)
    assert r.status_code == 201, r.text
    team: int = r.json()["team"]
    r = h.client.post(f"/api/tournaments/{tid}/teams/{team}/accept", headers=b.headers)
    assert r.status_code == 200 and r.json()["status"] == "registered", r.text
    return team


def page(h: Harness, tid: str, who: Guest | None = None) -> dict[str, Any]:
    r = h.client.get(f"/api/tournaments/{tid}", headers=who.headers if who else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def seat_and_connect(h: Harness, tid: str, people: list[Guest]) -> tuple[str, list[Player]]:
    """Everybody checks in (sits at his kept seat) and connects: the match starts at the fourth check-in,
    and the three already seated see its first deal."""
    players = []
    table = None
    for who in people:
        r = h.client.post(f"/api/tournaments/{tid}/checkin", headers=who.headers)
        assert r.status_code == 200, r.text
        table, seat = r.json()["table"], r.json()["seat"]
        conn = h.connect(who, who.name, seat)
        conn.subscribe(table)
        conn.expect("state")
        players.append(Player(who, seat, conn, simple_policy, random.Random(seat)))
    assert table is not None
    return table, players


def test_the_api_creates_a_tournament_teams_register_a_round_is_played_and_standings_export(h: Harness) -> None:
    organiser = account(h, "Org")
    people = [account(h, f"Player{k}") for k in range(8)]
    t = tournament(h, organiser, rounds=2)
    tid = t["id"]
    assert t["status"] == "registration" and t["options"]["strict"] is True and t["me"]["organiser"] is True
    assert t["round_count"] == 2 and t["rounds"] == []  # the number of rounds; the rounds paired so far
    teams = [register(h, tid, people[2 * k], people[2 * k + 1]) for k in range(4)]
    assert teams == [1, 2, 3, 4]
    r = h.client.post(f"/api/tournaments/{tid}/start", headers=people[0].headers)
    assert (r.status_code, r.json()["error"]) == (403, "forbidden")
    r = h.client.post(f"/api/tournaments/{tid}/start", headers=organiser.headers)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["status"] == "running" and data["current_round"] == 1
    # started by hand before its time (2030): its start is now, the page says when it really began
    assert data["starts_at"] <= data["round_started_at"] and data["starts_at"] < "2030", data["starts_at"]
    boards = data["rounds"][0]["boards"]
    assert len(boards) == 2 and all(b["table"] and b["seated"] == [False] * 4 for b in boards)
    by_team = {x["team"]: x for x in data["teams"]}
    for board in boards:
        a, b = by_team[board["team_a"]], by_team[board["team_b"]]
        ids = [a["players"][0]["id"], b["players"][0]["id"], a["players"][1]["id"], b["players"][1]["id"]]
        four = [next(p for p in people if p.id == i) for i in ids]
        table, players = seat_and_connect(h, tid, four)
        assert table == board["table"]
        assert [p.seat for p in players] == [0, 1, 2, 3]  # team A at 0 and 2, partners opposite
        drive(h, table, players, timeout=60)
        for p in players:  # the next board's players are driven alone
            assert p.conn is not None
            p.conn.close()
    h.wait(lambda: page(h, tid)["current_round"] == 2, timeout=10, what="round 2")
    first = page(h, tid)["rounds"][0]["boards"]
    assert all(b["status"] == "done" and b["kind"] == "played" for b in first)
    for board in first:
        _, row = fetch_record(h.client, board["table"])
        winner_side = row["winner"]
        assert board["winner"] == (board["team_a"] if winner_side == 0 else board["team_b"])
    standings = h.client.get(f"/api/tournaments/{tid}/standings.json").json()
    assert [line["place"] for line in standings] == [1, 2, 3, 4]
    assert sum(line["wins"] for line in standings) == 2 and all(line["played"] == 1 for line in standings)
    r = h.client.get(f"/api/tournaments/{tid}/standings.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [int(x["team"]) for x in rows] == [line["team"] for line in standings]
    assert [int(x["difference"]) for x in rows] == [line["difference"] for line in standings]
    assert {"head_to_head", "draw", "points_for", "points_against", "wins"} <= set(rows[0])
    mine = page(h, tid, people[0])["me"]
    assert mine["team"] == 1 and mine["table"] is not None and mine["board"] in (1, 2)
    listing = h.client.get("/api/tournaments", params={"status": "running"}).json()
    assert any(x["id"] == tid and x["teams"] == 4 for x in listing)
    paths = h.client.get("/openapi.json").json()["paths"]
    assert {
        "/api/tournaments",
        "/api/tournaments/{tournament_id}",
        "/api/tournaments/{tournament_id}/teams",
        "/api/tournaments/{tournament_id}/checkin",
        "/api/tournaments/{tournament_id}/rounds/{round_no}",
        "/api/tournaments/{tournament_id}/standings.csv",
        "/api/tournaments/{tournament_id}/rounds/{round_no}/boards/{board}/result",
        "/api/tables/{table_id}/referee",
    } <= set(paths)


def test_standings_csv_makes_team_and_player_names_that_look_like_formulas_text(h: Harness) -> None:
    """Issue 21: a team named =HYPERLINK(…) was written as is into standings.csv, where a spreadsheet runs it.
    Every name cell that begins with = + - @ gets a quote in front; other names and the numbers stay."""
    hostile = ['=HYPERLINK("http://x","y")', "+1", "-2+3", "@SUM(A1)"]
    people = []
    for k, name in enumerate([*hostile, "Ana Paula", "Bia", "Caio", "Duda"]):
        r = h.client.post("/api/accounts", json={"username": f"player{k}", "password": "s3cret-pass", "name": name})
        assert r.status_code == 201, r.text
        people.append(Guest(r.json()["id"], name, r.json()["token"]))
    tid = tournament(h, account(h, "Org"))["id"]
    for k, team_name in enumerate(["Os Botos", "@SUM(A1)", "-2+3", "+1"]):
        a, b = people[k], people[k + 4]
        body = {"partner": f"player{k + 4}", "name": team_name}
        r = h.client.post(f"/api/tournaments/{tid}/teams", json=body, headers=a.headers)
        assert r.status_code == 201, r.text
        assert h.client.post(f"/api/tournaments/{tid}/teams/{r.json()['team']}/accept", headers=b.headers).is_success
    r = h.client.get(f"/api/tournaments/{tid}/standings.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv"), r.text
    rows = {int(x["team"]): x for x in csv.DictReader(io.StringIO(r.text))}
    json_lines = {x["team"]: x for x in h.client.get(f"/api/tournaments/{tid}/standings.json").json()}
    assert [rows[k]["name"] for k in (1, 2, 3, 4)] == ["Os Botos", "'@SUM(A1)", "'-2+3", "'+1"]
    assert [rows[k]["players"] for k in (1, 2, 3, 4)] == [
        '\'=HYPERLINK("http://x","y") & Ana Paula',
        "'+1 & Bia",
        "'-2+3 & Caio",
        "'@SUM(A1) & Duda",
    ]
    assert json_lines[2]["name"] == "@SUM(A1)"  # the JSON export is data, not a sheet: as typed
    assert all(rows[k]["difference"] == str(json_lines[k]["difference"]) for k in rows)


def test_bad_tournament_requests_get_a_clear_error_and_change_nothing(h: Harness) -> None:
    organiser = account(h, "Org")
    guest = h.guest("Visitante")
    url = "/api/tournaments"
    good = {"name": "Copa", "starts_at": "2030-01-01T14:00:00Z"}
    for body, status, code in (
        ({**good, "starts_at": "2030-01-01T14:00:00"}, 422, "invalid"),  # no time zone
        ({**good, "starts_at": "amanhã"}, 422, "invalid"),
        ({**good, "game": "individual"}, 422, "invalid"),  # not a game of pairs
        ({**good, "rounds": 0}, 422, "invalid"),
        ({**good, "rounds": "3"}, 422, "invalid"),
        ({**good, "options": {"strict": "yes"}}, 422, "bad-options"),
        ({**good, "options": {"lead": "highest"}}, 422, "bad-options"),
        ({**good, "mode": "mail"}, 422, "invalid"),
        ({**good, "surprise": 1}, 422, "invalid"),
        ({"name": "Copa"}, 422, "invalid"),
    ):
        r = h.client.post(url, json=body, headers=organiser.headers)
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
    r = h.client.post(url, json=good, headers=guest.headers)
    assert (r.status_code, r.json()["error"]) == (403, "accounts-only")
    assert h.client.get(url).json() == []
    t = tournament(h, organiser)
    tid = t["id"]
    requests: list[tuple[str, dict[str, Any] | None, int, str]] = [
        (f"{url}/{tid}/teams", {"partner": "nobody-here"}, 404, "not-found"),
        (f"{url}/{tid}/teams", {"partner": "org"}, 422, "invalid"),
        (f"{url}/{tid}/teams/9/accept", None, 404, "not-found"),
        (f"{url}/{tid}/start", None, 409, "too-few"),
        (f"{url}/{tid}/rounds", {}, 409, "round-open"),
        (f"{url}/{tid}/forbidden", {"a": 1, "b": 1}, 422, "invalid"),
        (f"{url}/nope/start", None, 404, "not-found"),
    ]
    for path, payload, status, code in requests:
        r = h.client.post(path, json=payload, headers=organiser.headers)
        assert (r.status_code, r.json()["error"]) == (status, code), (path, r.text)
    after = page(h, tid)
    assert after["teams"] == [] and after["status"] == "registration" and after["rounds"] == []


def _referee(conn: Conn, table: str, ref: str, **decision: Any) -> dict[str, Any]:
    conn.send({"type": "referee", "table": table, "ref": ref, **decision})
    return conn.recv_until(lambda f: f.get("ref") == ref and f["type"] in ("ack", "error"))


def test_C8_a_referees_decisions_reach_players_and_spectators_at_once_and_the_record_names_him(h: Harness) -> None:
    organiser, referee, stranger = account(h, "Org"), account(h, "Juiz"), account(h, "Curioso")
    people = [account(h, f"Player{k}") for k in range(4)]
    tid = tournament(h, organiser, options={**QUICK, "target": 60})["id"]
    register(h, tid, people[0], people[1])
    register(h, tid, people[2], people[3])
    r = h.client.put(f"/api/tournaments/{tid}/referees/juiz", json={"boards": [1]}, headers=organiser.headers)
    assert r.status_code == 200 and r.json()["referees"][0]["name"] == "Juiz", r.text
    h.client.post(f"/api/tournaments/{tid}/start", headers=organiser.headers)
    board = page(h, tid)["rounds"][0]["boards"][0]
    by_team = {x["team"]: x for x in page(h, tid)["teams"]}
    a, b = by_team[board["team_a"]], by_team[board["team_b"]]
    ids = [a["players"][0]["id"], b["players"][0]["id"], a["players"][1]["id"], b["players"][1]["id"]]
    table, players = seat_and_connect(h, tid, [next(p for p in people if p.id == i) for i in ids])
    ref_conn = h.connect(referee, "referee", None)
    watcher = h.connect(None, "anonymous", None)
    for conn in (ref_conn, watcher):
        conn.subscribe(table)
        conn.expect("state")
    service = h.table(table)
    match = service.match
    assert match is not None
    totals = list(match.totals)
    ack = _referee(ref_conn, table, "f1", decision="fine", seat=1, points=20, reason="sinal ao parceiro")
    assert ack["type"] == "ack" and ack["n"] == service.n
    text = 'ref(Juiz): fine 1 20 "sinal ao parceiro"'
    for conn in [*(p.conn for p in players if p.conn), watcher]:
        frame = conn.recv_until(lambda f: f["type"] == "event" and f["n"] == ack["n"])
        assert frame["event"]["action"] == text and frame["state"]["totals"][0] == totals[0] + 20
    turn = match.hand.turn
    tile = str(match.hand.view(turn).tiles[0])
    ack = _referee(ref_conn, table, "t1", decision="touch", seat=turn, tile=tile, reason="deixou cair a pedra")
    assert ack["type"] == "ack"
    frame = watcher.recv_until(lambda f: f["type"] == "event" and f["n"] == ack["n"])
    assert frame["state"]["hand"]["public"]["touched"][turn] == [tile]  # face up for everyone (C7)
    n = service.n
    for who, body, code in (
        (stranger, {"decision": "fine", "seat": 0, "points": 20, "reason": "x"}, "forbidden"),
        (people[0], {"decision": "annul", "reason": "x"}, "forbidden"),
        (referee, {"decision": "fine", "seat": 0, "reason": "sem pontos"}, "malformed"),
        (referee, {"decision": "fine", "seat": 0, "points": 20}, "malformed"),  # no written reason
        (referee, {"decision": "expel", "seat": 0, "reason": "x"}, "malformed"),
    ):
        conn = h.connect(who, who.name, None)
        reply = _referee(conn, table, "bad", **body)
        assert (reply["type"], reply["code"]) == ("error", code), (body, reply)
        conn.close()
    r = h.client.post(
        f"/api/tables/{table}/referee", json={"decision": "touch", "seat": 0, "tile": "9-9", "reason": "x"},
        headers=referee.headers,
    )  # fmt: skip
    assert (r.status_code, r.json()["error"]) == (422, "invalid")
    assert service.n == n  # nothing changed
    r = h.client.post(
        f"/api/tables/{table}/referee", json={"decision": "score", "seat": 0, "points": -5, "reason": "contagem"},
        headers=organiser.headers,
    )  # fmt: skip
    assert r.status_code == 200 and r.json()["n"] == n + 1, r.text
    drive(h, table, players, timeout=60)
    record, _ = fetch_record(h.client, table)
    refs = [x for hand in record.hands for x in hand.actions if x.startswith("ref(")]
    assert refs[:3] == [
        text,
        f'ref(Juiz): touch {turn} {tile} "deixou cair a pedra"',
        'ref(Org): score 0 -5 "contagem"',
    ]
    conns = [*(p.conn for p in players if p.conn), watcher, ref_conn]
    vis = visibility(record, event_kinds(conns, table))
    problems = [p for conn in conns for p in leaks(conn, vis)]
    assert not problems, problems[:3]


def test_C8_a_tables_summary_tells_the_caller_whether_he_may_referee_it(h: Harness) -> None:
    creator, stranger = account(h, "Dono"), account(h, "Curioso")
    players = [account(h, f"Player{k}") for k in range(4)]
    tables = {}
    for strict in (True, False):
        r = h.client.post(
            "/api/tables", json={"variant": "dominousa", "strict": strict, **QUICK}, headers=creator.headers
        )
        assert r.status_code == 201, r.text
        tables[strict] = r.json()["id"]
        for who in players:
            assert h.client.post(f"/api/tables/{tables[strict]}/join", json={}, headers=who.headers).status_code == 200

    def may(table: str, who: Guest | None) -> bool:
        r = h.client.get(f"/api/tables/{table}", headers=who.headers if who else {})
        assert r.status_code == 200, r.text
        flag: bool = r.json()["referee"]
        return flag

    assert may(tables[True], creator) is True  # the creator of a strict table who does not sit there
    assert may(tables[False], creator) is False  # casual tables have no referee
    assert not any(may(tables[True], who) for who in (stranger, players[0], None))
    organiser, juiz = account(h, "Org"), account(h, "Juiz")
    people = [account(h, f"Jogador{k}") for k in range(6)]
    tid = tournament(h, organiser)["id"]
    for k in range(0, 6, 2):  # three teams: a board and a bye's (a board is at most half the teams)
        register(h, tid, people[k], people[k + 1])
    r = h.client.put(f"/api/tournaments/{tid}/referees/juiz", json={"boards": [2]}, headers=organiser.headers)
    assert r.status_code == 200, r.text
    h.client.post(f"/api/tournaments/{tid}/start", headers=organiser.headers)
    table = page(h, tid)["rounds"][0]["boards"][0]["table"]
    assert may(table, organiser) is True and may(table, juiz) is False  # juiz referees board 2 only
    h.client.put(f"/api/tournaments/{tid}/referees/juiz", json={"boards": []}, headers=organiser.headers)
    assert may(table, juiz) is True and may(table, people[0]) is False


def test_C8_the_referee_console_opens_for_the_tables_referees_only(h: Harness) -> None:
    """Issue 18: the console's data (``GET /api/tables/{id}/referee``, what ``#/referee/{id}`` loads) is
    refused (403) to anyone who does not referee that table: a guest, a stranger, a player at it."""
    organiser, juiz, stranger = account(h, "Org"), account(h, "Juiz"), account(h, "Curioso")
    guest = h.guest("Visitante")
    people = [account(h, f"Jogador{k}") for k in range(4)]
    tid = tournament(h, organiser)["id"]
    register(h, tid, people[0], people[1])
    register(h, tid, people[2], people[3])
    r = h.client.put(f"/api/tournaments/{tid}/referees/juiz", json={"boards": [1]}, headers=organiser.headers)
    assert r.status_code == 200, r.text
    h.client.post(f"/api/tournaments/{tid}/start", headers=organiser.headers)
    table = page(h, tid)["rounds"][0]["boards"][0]["table"]
    r = h.client.post(f"/api/tournaments/{tid}/checkin", headers=people[0].headers)
    assert r.status_code == 200, r.text
    url = f"/api/tables/{table}/referee"
    for who in (juiz, organiser):
        r = h.client.get(url, headers=who.headers)
        assert r.status_code == 200, r.text
        assert r.json() == {
            "table": table,
            "variant": "dominousa",
            "tournament": tid,
            "referee": {"id": who.id, "name": who.name},
            "decisions": ["fine", "score", "annul", "award", "touch"],
        }
    n = h.table(table).n
    decision = {"decision": "fine", "seat": 0, "points": 20, "reason": "x"}
    for who in (guest, stranger, people[0]):  # people[0] sits at it
        r = h.client.get(url, headers=who.headers)
        assert (r.status_code, r.json()["error"]) == (403, "forbidden"), (who.name, r.text)
        r = h.client.post(url, json=decision, headers=who.headers)  # nor may they decide (issue 22)
        assert (r.status_code, r.json()["error"]) == (403, "forbidden"), (who.name, r.text)
    assert h.client.get(url).status_code == 401
    assert h.client.post(url, json=decision).status_code == 401
    assert h.table(table).n == n  # nothing changed
    # C10: the empty seats are kept for the paired players, and say for whom; nobody else sits there.
    seats = h.client.get(f"/api/tables/{table}").json()["seats"]
    paired = {p.id for p in people}
    kept = [s.get("kept_for") for s in seats]
    assert sum(s["empty"] for s in seats) == 3
    assert all((k in paired) == s["empty"] for k, s in zip(kept, seats, strict=True))
    r = h.client.post(f"/api/tables/{table}/join", json={}, headers=stranger.headers)
    assert (r.status_code, r.json()["error"]) == (403, "reserved"), r.text
    assert h.client.get("/api/tables/nothere/referee", headers=juiz.headers).status_code == 404


def test_C8_a_game_without_a_table_referee_has_no_referee_and_names_result_helpers(h: Harness) -> None:
    """C8 (clarified), issue 18: an Amazonense tournament takes no referee (``no-referee``); nobody, its
    organiser neither, referees its tables or opens their console; over the board its organiser names result
    helpers, who enter results and no fine."""
    organiser, helper = account(h, "Org"), account(h, "Ajuda")
    people = [account(h, f"Jogador{k}") for k in range(4)]
    amazonense = {"target": 30, "pause_seconds": 0}
    tid = tournament(h, organiser, game="amazonense", options=amazonense)["id"]
    register(h, tid, people[0], people[1])
    register(h, tid, people[2], people[3])
    r = h.client.put(f"/api/tournaments/{tid}/referees/ajuda", json={"boards": []}, headers=organiser.headers)
    assert (r.status_code, r.json()["error"]) == (409, "no-referee"), r.text
    r = h.client.put(f"/api/tournaments/{tid}/helpers/ajuda", json={"boards": []}, headers=organiser.headers)
    assert (r.status_code, r.json()["error"]) == (422, "invalid"), r.text  # online: the matches give results
    assert page(h, tid)["referees"] == page(h, tid)["helpers"] == []
    h.client.post(f"/api/tournaments/{tid}/start", headers=organiser.headers)
    table = page(h, tid)["rounds"][0]["boards"][0]["table"]
    r = h.client.get(f"/api/tables/{table}", headers=organiser.headers)
    assert r.status_code == 200 and r.json()["referee"] is False, r.text
    r = h.client.get(f"/api/tables/{table}/referee", headers=organiser.headers)
    assert (r.status_code, r.json()["error"]) == (403, "forbidden"), r.text
    assert "no table referee" in r.json()["message"]
    assert page(h, tid, organiser)["me"]["referee"] is None

    board_tid = tournament(h, organiser, game="amazonense", options=amazonense, mode="board")["id"]
    others = [account(h, f"Outro{k}") for k in range(4)]
    register(h, board_tid, others[0], others[1])
    register(h, board_tid, others[2], others[3])
    r = h.client.put(f"/api/tournaments/{board_tid}/helpers/ajuda", json={"boards": [1]}, headers=organiser.headers)
    assert r.status_code == 200, r.text
    assert r.json() == {"helpers": [{"id": helper.id, "name": "Ajuda", "boards": [1]}]}
    data = page(h, board_tid, helper)
    assert data["referees"] == [] and data["helpers"] == r.json()["helpers"]
    assert (data["me"]["referee"], data["me"]["helper"]) == (None, [1])
    h.client.post(f"/api/tournaments/{board_tid}/start", headers=organiser.headers)
    url = f"/api/tournaments/{board_tid}/rounds/1/boards/1"
    r = h.client.post(f"{url}/entries", json={"a": 0, "b": 20, "kind": "fine"}, headers=helper.headers)
    assert (r.status_code, r.json()["error"]) == (409, "no-referee"), r.text
    r = h.client.post(f"{url}/entries", json={"a": 45, "b": 0, "note": "batida"}, headers=helper.headers)
    assert r.status_code == 200 and r.json()["points"] == [45, 0], r.text
    r = h.client.delete(f"/api/tournaments/{board_tid}/helpers/ajuda", headers=organiser.headers)
    assert r.status_code == 200 and r.json() == {"helpers": []}, r.text
    # Dominousa has table referees: it names referees, not helpers.
    dominousa = tournament(h, organiser, mode="board")["id"]
    r = h.client.put(f"/api/tournaments/{dominousa}/helpers/ajuda", json={"boards": []}, headers=organiser.headers)
    assert (r.status_code, r.json()["error"]) == (422, "invalid"), r.text


def test_the_organiser_pairs_by_hand_over_http_with_json_arrays(h: Harness) -> None:
    organiser = account(h, "Org")
    people = [account(h, f"Player{k}") for k in range(6)]
    tid = tournament(h, organiser, rounds=2)["id"]
    for k in range(3):
        register(h, tid, people[2 * k], people[2 * k + 1])
    h.client.post(f"/api/tournaments/{tid}/start", headers=organiser.headers)
    url = f"/api/tournaments/{tid}/rounds/1"
    for bad in ({"pairs": [[1]]}, {"pairs": [[1, 2, 3]]}, {"pairs": [["1", 2]]}, {"pairs": [[0, 2]]}):
        r = h.client.put(url, json={**bad, "bye": 3}, headers=organiser.headers)
        assert (r.status_code, r.json()["error"]) == (422, "invalid"), (bad, r.text)
    r = h.client.put(url, json={"pairs": [[3, 1]], "bye": 2}, headers=organiser.headers)
    assert r.status_code == 200, r.text
    boards = r.json()["rounds"][0]["boards"]
    assert [(b["team_a"], b["team_b"]) for b in boards] == [(3, 1), (2, None)]
    r = h.client.post(f"/api/tournaments/{tid}/rounds", json={"pairs": [[1, 2]], "bye": 3}, headers=organiser.headers)
    assert (r.status_code, r.json()["error"]) == (409, "round-open"), r.text  # round 1 is still in play
