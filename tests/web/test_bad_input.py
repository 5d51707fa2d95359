"""Bad input: an ``error`` frame naming the problem, nothing changes, the connection lives on;
and the HTTP API's errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import (
    ALL_TILES,
    Conn,
    Guest,
    Harness,
    Player,
    create_table,
    drive,
    join,
    setup_match,
    tiles_in,
)


@dataclass
class Game:
    """A casual Dominousa match waiting for a human to move after the lead."""

    table_id: str
    turn: Player  # the human to move
    other: Player  # the other human
    owner: Conn  # a spectator with a token
    anonymous: Conn
    view: dict[str, Any]  # the hand as ``turn`` sees it

    @property
    def conns(self) -> list[Conn]:
        return [c for c in (self.turn.conn, self.other.conn, self.owner, self.anonymous) if c is not None]


def wrong_end(view: dict[str, Any]) -> tuple[str, str] | None:
    """A tile of this hand and an end it does not fit."""
    for tile in view["tiles"]:
        for end, pip in sorted(view["layout"]["ends"].items()):
            if pip not in (int(tile[0]), int(tile[2])):
                return tile, end
    return None


def ready(h: Harness) -> Game:
    table_id, players, (owner, anonymous) = setup_match(h, {"variant": "dominousa", "target": 200}, [0, 2])

    def at_turn() -> Player | None:
        for p in players:
            if h.waiting_on(table_id, p.seat) and p.conn is not None:
                view = p.conn.latest_state()["hand"]  # type: ignore[index]
                if view["layout"]["line"] and "pass" not in view["legal"] and wrong_end(view):
                    return p
        return None

    drive(h, table_id, players, until=lambda: at_turn() is not None)
    turn = at_turn()
    assert turn is not None and turn.conn is not None
    other = next(p for p in players if p is not turn)
    return Game(table_id, turn, other, owner, anonymous, turn.conn.latest_state()["hand"])  # type: ignore[index]


def snapshot(h: Harness, table_id: str) -> tuple[int, dict[int | None, Any]]:
    """The table's event number and every seat's (and a spectator's) view, read in the event loop."""
    table = h.table(table_id)

    def read() -> tuple[int, dict[int | None, Any]]:
        views: dict[int | None, Any] = {s: table.state_for(s)["hand"] for s in [*range(table.state.players), None]}
        return table.n, views

    assert h.client.portal is not None
    return h.client.portal.call(read)


def action(game: Game, text: str, ref: Any = "bad") -> str:
    return json.dumps({"type": "action", "table": game.table_id, "action": text, "ref": ref})


def not_held(game: Game) -> str:
    """A tile that is neither in the mover's hand nor on the table."""
    free = ALL_TILES - set(game.view["tiles"]) - tiles_in(game.view["layout"])
    return sorted(free)[0]


def other_tile(game: Game) -> str:
    assert game.other.conn is not None
    return str(game.other.conn.latest_state()["hand"]["tiles"][0])  # type: ignore[index]


CASES: list[pytest.ParameterSet] = [
    # what the mover sends: (sender, payload, error code, words the message holds)
    pytest.param("turn", lambda g: '{"type": "ping"', "malformed-json", ["JSON"], id="broken-json"),
    pytest.param("turn", lambda g: '[{"type": "ping"}]', "malformed-json", ["object"], id="json-list"),
    pytest.param("turn", lambda g: '"ping"', "malformed-json", ["object"], id="json-string"),
    pytest.param("turn", lambda g: "null", "malformed-json", ["object"], id="json-null"),
    pytest.param("turn", lambda g: "[" * 2000 + "]" * 2000, "malformed-json", ["JSON"], id="json-deeply-nested"),
    pytest.param("turn", lambda g: b'{"type": "ping"}', "malformed-json", ["text"], id="binary-frame"),
    pytest.param("turn", lambda g: '{"type": "hello", "ref": 7}', "unknown-type", ["hello"], id="unknown-type"),
    pytest.param("turn", lambda g: json.dumps({"table": g.table_id}), "unknown-type", ["None"], id="no-type"),
    pytest.param(
        "turn", lambda g: json.dumps({"type": "ping", "pad": "x" * 5000}), "too-large", ["4096"], id="too-large"
    ),
    pytest.param(  # 2100 characters, 4200 bytes
        "turn",
        lambda g: json.dumps({"type": "ping", "ref": "é" * 2100}, ensure_ascii=False),
        "too-large",
        ["4096"],
        id="too-large-utf8",
    ),
    pytest.param("turn", lambda g: action(g, f"{not_held(g)} L"), "illegal", ["does not hold"], id="tile-not-held"),
    pytest.param("turn", lambda g: action(g, " ".join(wrong_end(g.view) or ())), "illegal", ["fit"], id="wrong-end"),
    pytest.param("turn", lambda g: action(g, f"{g.view['tiles'][0]} N"), "illegal", ["L", "R"], id="no-such-end"),
    pytest.param("turn", lambda g: action(g, "pass"), "illegal", ["may not pass"], id="pass-holding-a-tile"),
    pytest.param("turn", lambda g: action(g, "draw"), "illegal", ["boneyard"], id="draw-no-boneyard"),
    pytest.param("turn", lambda g: action(g, "claim"), "illegal", ["claim"], id="claim-on-own-turn"),
    pytest.param("turn", lambda g: action(g, "time"), "illegal", ["table"], id="time-is-the-tables"),
    pytest.param("turn", lambda g: action(g, f"{g.view['tiles'][0]} L galo"), "illegal", ["galo"], id="galo"),
    pytest.param("other", lambda g: action(g, f"{other_tile(g)} L"), "illegal", ["turn"], id="not-your-turn"),
    pytest.param("other", lambda g: action(g, "pass"), "illegal", ["turn"], id="pass-not-your-turn"),
    pytest.param(
        "turn", lambda g: action(g, f"{g.other.seat}: {other_tile(g)} L"), "malformed", ["not a move"], id="other-seat"
    ),
    pytest.param(
        "turn", lambda g: action(g, f"{g.turn.seat}: {g.view['legal'][0]}"), "malformed", ["not a move"], id="own-seat"
    ),
    pytest.param("turn", lambda g: action(g, "-: time"), "malformed", ["not a move"], id="table-seat"),
    pytest.param(
        "turn", lambda g: action(g, 'ref(Ana): award 0 "we won"'), "malformed", ["not a move"], id="referee-decision"
    ),
    pytest.param("turn", lambda g: action(g, ""), "malformed", ["empty"], id="empty-action"),
    pytest.param("turn", lambda g: action(g, "6-7 L"), "malformed", ["not a move"], id="no-such-tile"),
    pytest.param(
        "turn",
        lambda g: json.dumps({"type": "action", "table": g.table_id, "action": ["6-6"]}),
        "malformed",
        ["record notation"],
        id="action-not-text",
    ),
    pytest.param(
        "turn",
        lambda g: json.dumps({"type": "action", "table": "nosuch", "action": g.view["legal"][0]}),
        "not-found",
        ["nosuch"],
        id="action-no-table",
    ),
    pytest.param("owner", lambda g: action(g, g.view["legal"][0]), "not-seated", ["spectator"], id="spectator-acts"),
    pytest.param("anonymous", lambda g: action(g, g.view["legal"][0]), "forbidden", ["token"], id="anonymous-acts"),
    pytest.param(
        "owner", lambda g: json.dumps({"type": "subscribe", "table": "nosuch"}), "not-found", ["nosuch"], id="no-table"
    ),
    pytest.param(
        "turn",
        lambda g: json.dumps({"type": "subscribe", "table": g.table_id, "last": "3"}),
        "malformed",
        ["last"],
        id="last-not-a-number",
    ),
]


@pytest.mark.parametrize(("sender", "payload", "code", "words"), CASES)
def test_bad_input_is_refused_and_changes_nothing(
    h: Harness,
    seed: int,
    sender: str,
    payload: Callable[[Game], str | bytes],
    code: str,
    words: list[str],
) -> None:
    game = ready(h)
    conn = {"turn": game.turn.conn, "other": game.other.conn, "owner": game.owner, "anonymous": game.anonymous}[sender]
    assert conn is not None
    for c in game.conns:
        c.ping()
    before = snapshot(h, game.table_id)
    seen = {id(c): len(c.frames) for c in game.conns}
    data = payload(game)
    if isinstance(data, bytes):
        conn.session.send_bytes(data)
    else:
        conn.send_text(data)
    error = conn.expect("error")
    assert error["code"] == code, error
    for word in words:
        assert word in error["message"], error
    sent = json.loads(data) if isinstance(data, str) and code not in ("malformed-json", "too-large") else None
    assert error["ref"] == (sent.get("ref") if isinstance(sent, dict) else None), error
    # The connection lives on; nobody heard of anything; the table and every view are as they were.
    for c in game.conns:
        c.ping()
        new = c.frames[seen[id(c)] :]
        assert [f["type"] for f in new] == (["error", "pong"] if c is conn else ["pong"]), new
    assert snapshot(h, game.table_id) == before

    # And the game goes on: the mover's legal move is taken and heard by everybody, this connection too.
    n = before[0]
    mover = game.turn.conn
    assert mover is not None
    mover.act(game.table_id, game.view["legal"][0], "good")
    ack = mover.recv_until(lambda f: f["type"] in ("ack", "error"))
    assert ack["type"] == "ack" and ack["ref"] == "good" and ack["n"] > n, ack
    for c in game.conns:
        frame = c.wait_for(lambda f: f["type"] == "event" and f["n"] == n + 1, since=seen[id(c)], timeout=2)
        assert frame["event"]["action"] == f"{game.turn.seat}: {game.view['legal'][0]}"


def test_private_table_needs_the_invite(h: Harness) -> None:
    owner, ana, bia = h.guest("Owner"), h.guest("Ana"), h.guest("Bia")
    table = create_table(h.client, owner, variant="individual", players=2, private=True)
    table_id, invite = table["id"], table["invite"]
    join(h.client, ana, table_id, 0, invite)
    stranger = h.connect(bia, "bia", None)
    for bad in (None, "wrong"):
        stranger.subscribe(table_id, invite=bad)
        error = stranger.expect("error")
        assert error["code"] == "forbidden" and "invite" in error["message"]
        stranger.ping()
    stranger.subscribe(table_id, invite=invite)
    assert stranger.expect("state")["state"]["seat"] is None
    seated = h.connect(ana, "ana", 0)
    seated.subscribe(table_id)  # a player of the table needs no invite
    assert seated.expect("state")["state"]["seat"] == 0
    anonymous = h.connect(None)
    anonymous.subscribe(table_id)
    assert anonymous.expect("error")["code"] == "forbidden"
    # The private table is not listed, and its page needs the invite too.
    assert table_id not in [t["id"] for t in h.client.get("/api/tables").json()]
    assert h.client.get(f"/api/tables/{table_id}").status_code == 403
    assert h.client.get(f"/api/tables/{table_id}", params={"invite": invite}).status_code == 200


def test_acting_before_the_start(h: Harness) -> None:
    owner = h.guest("Owner")
    table_id = create_table(h.client, owner, variant="individual", players=2)["id"]
    join(h.client, owner, table_id, 0)
    conn = h.connect(owner)
    conn.act(table_id, "6-6", "early")
    error = conn.expect("error")
    assert error["code"] == "not-playing" and error["ref"] == "early"
    conn.ping()
    assert h.table(table_id).n == 1


# -- HTTP -----------------------------------------------------------------------------------------
def status(client: TestClient, method: str, url: str, who: Guest | None = None, **body: Any) -> tuple[int, Any]:
    headers = who.headers if who else {}
    r = client.request(method, url, json=body if method == "POST" else None, headers=headers)
    return r.status_code, r.json()


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"variant": "chess"}, None),
        ({"variant": "individual", "players": 5}, None),
        ({"variant": "individual", "players": 1}, None),
        ({"variant": "amazonense", "players": 2}, "bad-options"),
        ({"variant": "dominousa", "players": 3}, "bad-options"),
        ({"variant": "amazonense", "strict": True}, "bad-options"),
        ({"variant": "dominousa", "lead": "winner"}, "bad-options"),
        ({"variant": "individual", "lead": "lowest"}, None),
        ({"variant": "individual", "target": 0}, None),
        ({"variant": "individual", "target": "many"}, None),
        ({"variant": "dominousa", "move_seconds": 1}, None),
        ({"variant": "dominousa", "match_minutes": 0}, None),
        ({"variant": "individual", "bots_after": -1}, None),
        ({"variant": "individual", "bots_after": 5, "bot": "grandmaster"}, None),  # refused by the schema
        ({}, None),
    ],
)
def test_create_with_bad_options_is_422(h: Harness, body: dict[str, Any], error: str | None) -> None:
    who = h.guest("Ana")
    before = h.client.get("/api/tables").json()
    code, data = status(h.client, "POST", "/api/tables", who, **body)
    assert code == 422, data
    assert data["error"] == (error or "invalid") and data["message"], data  # one error shape for every error
    assert h.client.get("/api/tables").json() == before  # no table was made


def test_http_errors(h: Harness) -> None:
    c = h.client
    owner, ana, bia, carl = h.guest("Owner"), h.guest("Ana"), h.guest("Bia"), h.guest("Carl")
    table_id = create_table(c, owner, variant="individual", players=2)["id"]
    base = f"/api/tables/{table_id}"

    # No token, or a forged one: 401 everywhere a player is needed.
    forged = Guest(ana.id, ana.name, ana.token[:-2] + "xx")
    for who in (None, forged):
        code, data = status(c, "POST", "/api/tables", who, variant="individual")
        assert (code, data["error"]) == (401, "unauthorized") and "guest token" in data["message"]
        for action in ("join", "leave", "bots", "start", "rematch"):
            assert status(c, "POST", f"{base}/{action}", who)[0] == 401, action

    assert status(c, "POST", f"{base}/join", ana, seat=2) == (422, {"error": "bad-seat", "message": "seats are 0..1"})
    assert status(c, "POST", f"{base}/join", ana, seat=0) == (200, {"seat": 0})
    assert status(c, "POST", f"{base}/join", bia, seat=0)[1]["error"] == "taken"
    assert status(c, "POST", f"{base}/start", ana)[1]["error"] == "seats-empty"
    assert status(c, "POST", f"{base}/bots", ana, level="grandmaster")[0] == 422
    assert status(c, "POST", f"{base}/join", bia) == (200, {"seat": 1})
    code, data = status(c, "POST", f"{base}/join", carl)
    assert (code, data["error"]) == (409, "full")
    assert status(c, "POST", f"{base}/start", carl)[0] == 403  # not a player, not the owner
    assert status(c, "POST", f"{base}/leave", carl)[0] == 409  # not seated
    assert status(c, "POST", f"{base}/rematch", ana)[0] == 409  # nothing finished
    n = h.table(table_id).n
    assert status(c, "POST", f"{base}/start", ana)[0] == 200
    assert status(c, "POST", f"{base}/start", ana)[0] == 409
    assert status(c, "POST", f"{base}/leave", ana)[0] == 409  # the match is on
    assert status(c, "POST", f"{base}/join", carl)[0] == 409
    assert h.table(table_id).n == n + 2  # start and deal, nothing else

    private = create_table(c, owner, variant="amazonense", private=True)
    url = f"/api/tables/{private['id']}/join"
    assert status(c, "POST", url, ana)[0] == 403
    assert status(c, "POST", url, ana, invite="nope")[0] == 403
    assert status(c, "POST", url, ana, invite=private["invite"]) == (200, {"seat": 0})
    assert status(c, "POST", url, owner)[0] == 200  # the owner needs no invite

    assert c.get("/api/tables/nosuch").status_code == 404
    r = c.get("/api/no/such/path")  # not a route: the same shape
    assert (r.status_code, r.json()["error"]) == (404, "not-found") and r.json()["message"]
    r = c.post("/api/tables", content=b"{not json", headers={**ana.headers, "content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (422, "invalid") and r.json()["detail"]
    assert status(c, "POST", "/api/tables/nosuch/join", ana)[0] == 404
    assert c.get("/api/records/999").status_code == 404
    assert c.get(f"{base}/records").json() == []
    assert c.get("/api/tables/nosuch/records").status_code == 404
    records = f"/api/tables/{private['id']}/records"
    assert c.get(records).status_code == 403  # a private table's matches name its players
    assert c.get(records, params={"invite": private["invite"]}).json() == []


def test_ws_token_is_checked(h: Harness) -> None:
    """A forged token connects as nobody: it may watch, not play."""
    ana = h.guest("Ana")
    forged = Guest(ana.id, ana.name, ana.token + "x")
    session = h.client.websocket_connect(f"/ws?token={forged.token}")
    session.__enter__()
    conn = Conn(session, "forged", None)
    h.conns.append(conn)
    assert conn.expect("welcome")["you"] is None
