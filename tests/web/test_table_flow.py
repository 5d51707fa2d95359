"""How a table feels (issue 11, the server's part): the end of a hand stays on the table before the next
deal, forced passes, time to call galo after one's own play, renaming without losing the seat, chat,
and what the lobby shows of a table."""

from __future__ import annotations

import datetime as dt
import random
import time
from typing import Any

from capicua.service.tables.state import BOT_NAMES
from tests.web.helpers import (
    PLAY_RE,
    Conn,
    Harness,
    Player,
    create_table,
    drive,
    join,
    setup_match,
    simple_policy,
)


def config(h: Harness) -> Any:
    return h.app.state.platform.tables.config


def ended(conn: Conn, table_id: str, since: int = 0) -> dict[str, Any] | None:
    """The first frame from ``since`` on that shows a hand over while the match goes on."""
    for frame in conn.frames[since:]:
        state = frame.get("state") or {}
        hand = state.get("hand") or {}
        if frame.get("table") == table_id and hand.get("end") and state.get("winner") is None:
            return frame
    return None


def later_than(n: int) -> Any:
    """A frame predicate: an event after event ``n``."""
    return lambda f: f["type"] == "event" and f["n"] > n


def when(iso: str) -> dt.datetime:
    return dt.datetime.fromisoformat(iso)


# -- between hands ------------------------------------------------------------------------------------------
def test_the_end_of_a_hand_stays_on_the_table_then_the_next_deal_comes(h: Harness, seed: int) -> None:
    table_id, players, (_owner, anonymous) = setup_match(h, {"variant": "dominousa", "pause_seconds": 1}, [0])
    drive(h, table_id, players, until=lambda: ended(anonymous, table_id) is not None)
    frame = ended(anonymous, table_id)
    assert frame is not None
    hand, clock = frame["state"]["hand"], frame["state"]["clock"]
    outcome = hand["outcome"]
    assert outcome["termination"] == hand["end"] and outcome["termination"] in ("batida", "tranca", "annulled")
    if hand["end"] in ("batida", "tranca"):
        assert hand["revealed"] is not None and len(hand["revealed"]) == 4  # every hand, now public
    assert hand["scores"] == frame["state"]["hands"][-1]["scores"]
    next_deal = when(clock["next_deal"])
    assert 0.5 < (next_deal - dt.datetime.now(dt.UTC)).total_seconds() <= 1.05
    deal = anonymous.wait_for(lambda f: f.get("event", {}).get("kind") == "deal" and f["n"] > frame["n"], timeout=5)
    assert dt.datetime.now(dt.UTC) >= next_deal - dt.timedelta(milliseconds=50)  # not before the pause ended
    assert deal["state"]["clock"]["next_deal"] is None and deal["state"]["hand"]["outcome"] is None
    assert players[0].errors == []


def test_a_player_may_skip_the_pause_and_nobody_else(h: Harness, seed: int) -> None:
    table_id, players, (owner, anonymous) = setup_match(h, {"variant": "dominousa", "pause_seconds": 30}, [0])
    me = players[0].conn
    assert me is not None
    me.send({"type": "next", "table": table_id, "ref": "early"})
    error = me.recv_until(lambda f: f["type"] == "error")
    assert (error["code"], error["ref"]) == ("not-paused", "early")
    drive(h, table_id, players, until=lambda: ended(anonymous, table_id) is not None)
    frame = ended(anonymous, table_id)
    assert frame is not None and frame["state"]["clock"]["next_deal"] is not None
    n = h.table(table_id).n
    owner.send({"type": "next", "table": table_id, "ref": "watcher"})
    assert owner.recv_until(lambda f: f["type"] == "error")["code"] == "not-seated"
    anonymous.send({"type": "next", "table": table_id})
    assert anonymous.recv_until(lambda f: f["type"] == "error")["code"] == "forbidden"
    assert h.table(table_id).n == n
    me.send({"type": "next", "table": table_id, "ref": "go"})
    ack = me.recv_until(lambda f: f["type"] == "ack")
    assert ack["ref"] == "go" and ack["n"] == n + 1
    deal = anonymous.wait_for(lambda f: f.get("n") == n + 1 and f["type"] == "event", timeout=2)
    assert deal["event"]["kind"] == "deal"


def test_a_table_of_bots_only_does_not_pause(h: Harness) -> None:
    owner = h.guest("Owner")
    table_id = create_table(h.client, owner, variant="dominousa", target=100, pause_seconds=30, bots_after=0)["id"]
    watcher = h.connect(None)
    watcher.subscribe(table_id)
    end = time.monotonic() + 20
    while time.monotonic() < end and not watcher.saw_end(table_id):
        watcher.poll()
        time.sleep(0.01)
    assert watcher.saw_end(table_id), "the match did not end: it waited for nobody"
    match = h.table(table_id).match
    assert match is not None and len(match.hands) >= 2


# -- forced passes ------------------------------------------------------------------------------------------
class Waiting(Player):
    """A player who never passes himself: he waits while his only move is a pass."""

    def step(self, table_id: str) -> bool:
        self.take_replies()
        hand = self.my_turn()
        if hand is not None and hand["legal"] == ["pass"]:
            return False
        return super().step(table_id)


def test_a_forced_pass_is_the_tables_when_the_option_is_on(h: Harness, seed: int) -> None:
    config(h).auto_pass_delay = 0.05
    table_id, players, (_owner, anonymous) = setup_match(
        h, {"variant": "dominousa", "target": 200, "auto_pass": True}, [0]
    )
    me = players[0]
    waiting = Waiting(me.guest, 0, me.conn, simple_policy, random.Random(5))

    def forced() -> list[dict[str, Any]]:
        return [f for f in anonymous.events() if f["event"].get("auto")]

    drive(h, table_id, [waiting], until=lambda: bool(forced()) or anonymous.saw_end(table_id), timeout=60)
    passes = forced()
    assert passes, "no forced pass in a whole match"
    first = passes[0]
    assert first["event"] == {"kind": "action", "seat": 0, "action": "0: pass", "timeout": False, "auto": True}
    before = next(f for f in reversed(anonymous.frames) if f.get("n") == first["n"] - 1 and f.get("state"))
    assert before["state"]["clock"] == {**before["state"]["clock"], "seat": 0, "deadline": None}  # no clock runs
    assert not first["state"]["table"]["seats"][0]["away"] and waiting.errors == []


def test_C6_in_strict_mode_the_player_passes_himself(h: Harness, seed: int) -> None:
    config(h).auto_pass_delay = 0.05
    options = {"variant": "dominousa", "target": 200, "strict": True, "auto_pass": True}
    table_id, players, (_owner, anonymous) = setup_match(h, options, [0])
    assert h.table(table_id).state.options["auto_pass"] is False
    me = players[0]
    waiting = Waiting(me.guest, 0, me.conn, lambda p, hand: hand["legal"][0], random.Random(5))

    def only_pass() -> bool:
        hand = waiting.my_turn()
        return hand is not None and hand["legal"] == ["pass"]

    drive(h, table_id, [waiting], until=lambda: only_pass() or anonymous.saw_end(table_id), timeout=60)
    assert only_pass(), "seat 0 never had to pass"
    state = waiting.conn.latest_state() if waiting.conn else None
    assert state is not None and state["clock"]["deadline"] is not None  # his own clock runs
    n = h.table(table_id).n
    time.sleep(0.3)
    assert h.table(table_id).n == n  # nobody passed for him
    assert not [f for f in anonymous.events() if f["event"].get("auto")]


# -- time to call galo --------------------------------------------------------------------------------------
def test_A5_after_a_persons_play_the_bots_wait_so_he_can_call_galo(h: Harness, seed: int) -> None:
    """The bots answer at once (bot delay 0), but not while the person who just played may still call
    galo: the first time he calls it right after his play (it is taken), the second time he does not,
    and the next seat waits the grace (0.5 s here) before it acts."""
    config(h).call_grace = 0.5
    table_id, players, _ = setup_match(h, {"variant": "amazonense"}, [0])
    me = players[0]
    conn = me.conn
    assert conn is not None
    done = {"galo": False, "waited": False}
    end = time.monotonic() + 30
    while not all(done.values()) and time.monotonic() < end:
        h.poll_all()
        hand = me.my_turn()
        plays = [m for m in (hand or {}).get("legal", []) if PLAY_RE.match(m)]
        if not plays:
            time.sleep(0.002)
            continue
        me.acted_n = conn.last_n
        conn.act(table_id, plays[0], "play")
        ack = conn.recv_until(lambda f: f["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        played = time.monotonic()
        match = h.table(table_id).match
        if match is None or match.hand.end is not None:
            continue  # the play ended the hand: nothing to call
        if not done["galo"]:
            conn.act(table_id, "galo", "galo")  # right after his own play
            reply = conn.recv_until(lambda f: f["type"] in ("ack", "error"))
            assert reply["type"] == "ack", reply  # taken: nobody had acted in between
            done["galo"] = True
            continue
        after = conn.recv_until(later_than(ack["n"]), timeout=5)
        assert after["event"]["seat"] != 0 and time.monotonic() - played >= 0.45, "the next seat did not wait"
        done["waited"] = True
    assert all(done.values()), done


# -- renaming -----------------------------------------------------------------------------------------------
def test_renaming_mid_match_keeps_the_identity_and_the_seat(h: Harness, seed: int) -> None:
    table_id, players, (_owner, anonymous) = setup_match(h, {"variant": "individual", "players": 2, "target": 30}, [0])
    me = players[0]
    drive(h, table_id, [me], until=lambda: h.table(table_id).n > 6)
    r = h.client.post("/api/me/name", json={"name": "  Ana   Paula "}, headers=me.guest.headers)
    assert r.status_code == 200, r.text
    renamed = r.json()
    assert renamed["id"] == me.guest.id and renamed["name"] == "Ana Paula" and renamed["guest"] is True
    assert renamed["token"] != me.guest.token
    event = anonymous.wait_for(lambda f: f.get("event", {}).get("kind") == "name", timeout=2)
    assert event["event"] == {"kind": "name", "seat": 0, "name": "Ana Paula"}
    assert event["state"]["table"]["seats"][0]["name"] == "Ana Paula"
    headers = {"Authorization": f"Bearer {renamed['token']}"}
    assert h.client.get("/api/me", headers=headers).json()["name"] == "Ana Paula"
    # Reconnected with the new token, he still plays his seat to the end of the match.
    conn = h.connect(type(me.guest)(renamed["id"], renamed["name"], renamed["token"]), "ana paula", 0)
    conn.subscribe(table_id)
    assert conn.expect("state")["state"]["seat"] == 0
    me.conn = conn
    me.acted_n = -1
    me.seen = len(conn.frames)
    drive(h, table_id, [me])
    assert me.errors == []
    record = h.client.get(f"/api/tables/{table_id}/records").json()[0]
    assert record["players"][0] == "Ana Paula"
    history = h.client.get(f"/api/players/{me.guest.id}/matches").json()
    assert [m["table"] for m in history] == [table_id]


def test_renaming_an_account_is_kept(h: Harness) -> None:
    r = h.client.post("/api/accounts", json={"username": "bia_1", "password": "s3cret-pass"})
    assert r.status_code == 201, r.text
    account = r.json()
    headers = {"Authorization": f"Bearer {account['token']}"}
    r = h.client.post("/api/me/name", json={"name": "Bia Lima"}, headers=headers)
    assert r.status_code == 200 and r.json()["id"] == account["id"] and r.json()["guest"] is False
    again = h.client.post("/api/login", json={"username": "bia_1", "password": "s3cret-pass"}).json()
    assert again["name"] == "Bia Lima" and again["id"] == account["id"]
    for bad in ({"name": ""}, {"name": "   "}, {"name": "x\x00"}, {"name": 3}, {}):
        assert h.client.post("/api/me/name", json=bad, headers=headers).status_code == 422, bad
    assert h.client.post("/api/me/name", json={"name": "Zé"}).status_code == 401


# -- chat ---------------------------------------------------------------------------------------------------
def chats(conn: Conn) -> list[dict[str, Any]]:
    return [f for f in conn.frames if f["type"] == "chat"]


def test_quick_messages_and_free_text_at_a_casual_table(h: Harness, seed: int) -> None:
    table_id, players, (owner, anonymous) = setup_match(h, {"variant": "dominousa"}, [0, 2])
    ana, caio = (p.conn for p in players)
    assert ana is not None and caio is not None
    ana.send({"type": "chat", "table": table_id, "preset": "hello", "ref": 1})
    said = anonymous.recv_until(lambda f: f["type"] == "chat")
    assert said == {**said, "table": table_id, "seat": 0, "name": "Human0", "preset": "hello", "text": None}
    caio.send({"type": "chat", "table": table_id, "text": "  boa   sorte <b>a todos</b> "})
    said = ana.recv_until(lambda f: f["type"] == "chat" and f["seat"] == 2)
    assert said["text"] == "boa sorte <b>a todos</b>"  # kept as typed; the client shows it as text
    caio.send({"type": "chat", "table": table_id, "preset": "gg", "ref": "fast"})
    assert caio.recv_until(lambda f: f["type"] == "error")["code"] == "too-fast"
    for bad, code in (
        ({"preset": "insult"}, "malformed"),
        ({"text": "x" * 201}, "malformed"),
        ({"text": "a\x00b"}, "malformed"),
        ({}, "malformed"),
        ({"preset": "gg", "text": "and this"}, "malformed"),
    ):
        time.sleep(1.0)
        ana.send({"type": "chat", "table": table_id, **bad})
        assert ana.recv_until(lambda f: f["type"] == "error")["code"] == code, bad
    owner.send({"type": "chat", "table": table_id, "preset": "good"})
    assert owner.recv_until(lambda f: f["type"] == "error")["code"] == "not-seated"
    # Somebody who comes to the table sees what was said lately, after the table's state.
    late = h.connect(None, "late")
    late.subscribe(table_id)
    assert late.expect("state")
    caught = [late.expect("chat") for _ in range(2)]
    assert [(c["seat"], c["preset"]) for c in caught] == [(0, "hello"), (2, None)]


def test_free_text_waits_for_the_end_of_a_strict_hand(h: Harness, seed: int) -> None:
    """Dominousa rule 4: no comments during a hand of a competition match (C6 fines them): the table
    takes only the quick messages then, and free text between hands."""
    options = {"variant": "dominousa", "strict": True, "pause_seconds": 30}
    table_id, players, (_owner, anonymous) = setup_match(h, options, [0])
    me = players[0]
    conn = me.conn
    assert conn is not None
    conn.send({"type": "chat", "table": table_id, "text": "tenho a carroça de seis"})
    error = conn.recv_until(lambda f: f["type"] == "error")
    assert error["code"] == "chat-closed"
    time.sleep(1.0)
    conn.send({"type": "chat", "table": table_id, "preset": "good"})
    assert conn.recv_until(lambda f: f["type"] == "chat")["preset"] == "good"
    me.policy = lambda p, hand: hand["legal"][0]  # plays by the rules: no fines
    drive(h, table_id, [me], until=lambda: ended(anonymous, table_id) is not None, timeout=60)
    time.sleep(1.0)
    conn.send({"type": "chat", "table": table_id, "text": "boa mão!"})
    assert conn.recv_until(lambda f: f["type"] == "chat")["text"] == "boa mão!"


# -- the lobby ----------------------------------------------------------------------------------------------
def test_the_lobby_shows_who_waits_who_watches_and_the_score(h: Harness) -> None:
    ana, bia = h.guest("Ana"), h.guest("Bia")
    table_id = create_table(h.client, ana, variant="individual", players=2, sit=True)["id"]
    listed = next(t for t in h.client.get("/api/tables").json() if t["id"] == table_id)
    assert listed["waiting"] is True and listed["watchers"] == 0 and listed["totals"] is None
    assert listed["seats"][0]["kind"] == "person" and listed["seats"][1]["kind"] == "empty"
    watcher = h.connect(bia)
    watcher.subscribe(table_id)
    watcher.expect("state")
    listed = next(t for t in h.client.get("/api/tables").json() if t["id"] == table_id)
    assert listed["watchers"] == 1
    assert h.client.post(f"/api/tables/{table_id}/bots", json={"level": "expert"}, headers=ana.headers).is_success
    assert h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers).is_success
    listed = next(t for t in h.client.get("/api/tables").json() if t["id"] == table_id)
    assert listed["waiting"] is False and listed["totals"] == [0, 0] and listed["hand"] == 1
    bot = listed["seats"][1]
    assert bot["kind"] == "bot" and bot["bot"] == "expert" and bot["name"] in BOT_NAMES
    join_later = h.client.post(f"/api/tables/{table_id}/join", json={}, headers=bia.headers)
    assert join_later.status_code == 409


def test_bots_at_one_table_have_names_of_their_own(h: Harness) -> None:
    ana = h.guest("Ana")
    table_id = create_table(h.client, ana, variant="individual", players=4, sit=True)["id"]
    h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=ana.headers)
    seats = h.client.get(f"/api/tables/{table_id}").json()["seats"]
    names = [s["name"] for s in seats[1:]]
    assert len(set(names)) == 3 and set(names) <= set(BOT_NAMES)
    assert [s["bot"] for s in seats] == [None, "greedy", "greedy", "greedy"]
    join(h.client, h.guest("Tambaqui"), create_table(h.client, ana, variant="dominousa")["id"], 0)
    # nor one a player's could be mistaken for: a guest "Sabiá 914" never sits with a bot "Sabiá"
    for name in BOT_NAMES:
        guest = h.guest(f"{name} 914")
        table_id = create_table(h.client, guest, variant="individual", players=4, sit=True)["id"]
        h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=guest.headers)
        assert name not in [s["name"] for s in h.client.get(f"/api/tables/{table_id}").json()["seats"]]


# -- strict mode (C9) ---------------------------------------------------------------------------------------
def test_C9_at_a_strict_table_a_play_out_of_turn_is_fined_though_it_omits_an_end_it_could_take(
    h: Harness, seed: int
) -> None:
    """C9 clarification, live: four people at a strict Dominousa table play their first legal move, until a
    player who is not to act holds a tile that fits both ends while the seat to act can play (so his play can
    be no jugada corrida). He plays it out of turn with no end: the table takes it (ack), fines 20 to the
    other team and gives the tile back; it never asks which end."""
    owner = h.guest("Owner")
    table_id = create_table(h.client, owner, variant="dominousa", strict=True)["id"]
    players = []
    for seat in range(4):
        who = h.guest(f"Strict{seat}")
        join(h.client, who, table_id, seat)
        conn = h.connect(who, f"strict{seat}", seat)
        conn.subscribe(table_id)
        conn.expect("state")
        players.append(Player(who, seat, conn, lambda p, hand: hand["legal"][0]))
    r = h.client.post(f"/api/tables/{table_id}/start", headers=players[0].guest.headers)
    assert r.status_code == 200, r.text

    def out_of_turn() -> tuple[Player, str] | None:
        """A player not to act with a tile that fits both ends, while the seat to act holds a play."""
        hands = {}
        for p in players:
            assert p.conn is not None
            state = p.conn.latest_state()
            if state is None or state["n"] != h.table(table_id).n or state.get("hand") is None:
                return None
            hands[p.seat] = state["hand"]
        turn = hands[0]["turn"]
        ends = list(hands[0]["layout"]["ends"].values())
        if hands[0]["end"] is not None or turn is None or len(ends) != 2:
            return None
        if not any(PLAY_RE.match(m) for m in hands[turn]["legal"]):
            return None
        for p in players:
            both = [t for t in hands[p.seat]["tiles"] if all(pip in (int(t[0]), int(t[2])) for pip in ends)]
            if p.seat != turn and both:
                return p, both[0]
        return None

    def current() -> bool:
        """Every player's answer came and every player has seen the table's last event: a position to judge."""
        n = h.table(table_id).n
        return all(p.waiting is None and (s := p.conn.latest_state()) is not None and s["n"] == n for p in players)  # type: ignore[union-attr]

    found = None
    deadline = time.monotonic() + 60
    while found is None and not players[0].conn.saw_end(table_id):  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "no such position in a whole match"
        h.poll_all()
        for p in players:
            p.take_replies()
        if not current():  # (on a loaded machine the frames come late: no position is stepped past unjudged)
            time.sleep(0.002)
            continue
        found = out_of_turn()
        if found is None:
            for p in players:
                p.step(table_id)
    assert found is not None, "no such position in a whole match"
    player, tile = found
    assert player.conn is not None
    conn = player.conn
    before = list(h.table(table_id).match.hand.points)  # type: ignore[union-attr]
    conn.act(table_id, tile, "out-of-turn")
    reply = conn.recv_until(lambda f: f["type"] in ("ack", "error") and f.get("ref") == "out-of-turn")
    assert reply["type"] == "ack", reply
    event = conn.wait_for(lambda f: f["type"] == "event" and f["n"] == reply["n"])
    hand = event["state"]["hand"]
    team = 1 - player.seat % 2
    assert hand["scores"][-1] == {
        "action": len(hand["history"]),
        "seat": player.seat,
        "kind": "fine",
        "points": 20,
        "to": team,
    }
    assert tile in hand["tiles"] and hand["points"][team] == before[team] + 20
