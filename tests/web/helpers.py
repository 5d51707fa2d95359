"""Scripted websocket clients, a match driver and the leak / same-result checks of the web tests.

Everything runs in-process through Starlette's ``TestClient``: the app, its table tasks and every
websocket session share the client's event loop, and the test thread talks to them through the
client's portal. Receiving is done with a timeout (a missing frame fails the test instead of hanging
it) or without waiting (``poll``), so one thread can drive several connections at once.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from capicua.rules import variants
from capicua.rules.match import Match
from capicua.rules.moves import Move, parse_action
from capicua.rules.record import Record, replay, summary
from capicua.rules.tiles import TILES, Tile
from capicua.service.tables import Table
from capicua.web.protocol import SERVER_FRAMES

#: Seconds a frame, or a condition a test waits on, may take before the test fails: long, since waiting is on
#: events (it ends as soon as the frame comes) and CI's machine is loaded; a check that nothing comes is
#: ``Conn.quiet``'s own short wait.
PATIENCE = 30.0
ALL_TILES: frozenset[str] = frozenset(str(t) for t in TILES)
#: A tile written ``a-b`` in either order. Neighbouring word characters or dashes rule out dates
#: (``2025-01-02``), table ids (``token_urlsafe``) and the like.
TILE_RE = re.compile(r"(?<![\w-])([0-6])-([0-6])(?![\w-])")
#: A move that lays a tile (``6-4``, ``6-4 W``, ``6-4 W galo``).
PLAY_RE = re.compile(r"^[0-6]-[0-6]( [WENSLR])?( galo)?$")


def tiles_in(data: Any) -> set[str]:
    """Every tile written anywhere in ``data`` (a frame, or its JSON text), normalised to ``high-low``."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return {str(Tile(int(a), int(b))) for a, b in TILE_RE.findall(text)}


# -- identities and tables -------------------------------------------------------------------
@dataclass(frozen=True)
class Guest:
    id: str
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def new_guest(client: TestClient, name: str) -> Guest:
    r = client.post("/api/guests", json={"name": name})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["name"] == name
    return Guest(data["id"], data["name"], data["token"])


#: What the web tests' tables are created with unless a test says otherwise: no pause between hands
#: and no forced passes (the scripted players pass themselves), so that matches play at the tests' pace.
QUICK = {"pause_seconds": 0, "auto_pass": False}


def create_table(client: TestClient, owner: Guest, **body: Any) -> dict[str, Any]:
    body = {**QUICK, **body}
    r = client.post("/api/tables", json=body, headers=owner.headers)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(client: TestClient, who: Guest, table_id: str, seat: int | None = None, invite: str | None = None) -> int:
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "invite": invite}, headers=who.headers)
    assert r.status_code == 200, r.text
    got: int = r.json()["seat"]
    if seat is not None:
        assert got == seat
    return got


def service_table(app: FastAPI, table_id: str) -> Table:
    table = app.state.platform.tables.get(table_id)
    assert isinstance(table, Table)
    return table


# -- websocket connections -------------------------------------------------------------------
class ConnectionClosed(Exception):
    pass


class Conn:
    """One websocket connection that records every frame it receives.

    ``positions[i]`` is the newest event number this connection knew when ``frames[i]`` arrived
    (the frame's own ``n`` when it has one): what the receiver may see is judged at that point.
    """

    def __init__(self, session: WebSocketTestSession, label: str, seat: int | None) -> None:
        self.session = session
        self.label = label
        self.seat = seat
        self.frames: list[dict[str, Any]] = []
        self.positions: list[int] = []
        self.last_n = 0
        self.closed = False

    # receiving
    def _take(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message["type"] == "websocket.close":
            self.closed = True
            raise ConnectionClosed(f"{self.label}: closed by the server ({message.get('code')})")
        assert message["type"] == "websocket.send", message
        frame: dict[str, Any] = json.loads(message["text"])
        SERVER_FRAMES.validate_python(frame)  # every frame is one of the documented kinds (docs/protocol.md)
        if isinstance(frame.get("n"), int) and frame.get("type") in ("event", "state", "synced"):
            self.last_n = max(self.last_n, frame["n"])
        self.frames.append(frame)
        self.positions.append(frame["n"] if frame.get("type") in ("event", "state", "synced") else self.last_n)
        return frame

    def recv(self, timeout: float = PATIENCE) -> dict[str, Any]:
        """The next frame; fails after ``timeout`` seconds without one."""
        stream = self.session._send_rx

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await stream.receive()

        try:
            message = self.session.portal.call(get)
        except TimeoutError:
            raise AssertionError(f"{self.label}: no frame within {timeout}s; last frames {self.frames[-3:]}") from None
        return self._take(message)

    def poll(self) -> list[dict[str, Any]]:
        """The frames that have arrived, without waiting (read in one call to the event loop)."""
        stream = self.session._send_rx

        def drain() -> list[Any]:
            messages: list[Any] = []
            while True:
                try:
                    messages.append(stream.receive_nowait())
                except anyio.WouldBlock:
                    return messages

        return [self._take(message) for message in self.session.portal.call(drain)]

    def recv_until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = PATIENCE) -> dict[str, Any]:
        """The first frame to come that satisfies ``pred`` (those before it are received too), waited for in
        one call to the event loop; fails after ``timeout`` seconds without it."""
        stream = self.session._send_rx

        async def until() -> dict[str, Any]:
            with anyio.fail_after(timeout):
                while True:
                    frame = self._take(await stream.receive())
                    if pred(frame):
                        return frame

        try:
            frame: dict[str, Any] = self.session.portal.call(until)
        except TimeoutError:
            raise AssertionError(
                f"{self.label}: no such frame within {timeout}s; last frames {self.frames[-3:]}"
            ) from None
        return frame

    def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], since: int = 0, timeout: float = PATIENCE
    ) -> dict[str, Any]:
        """The first frame from index ``since`` on that satisfies ``pred``, received already or to come."""
        for frame in self.frames[since:]:
            if pred(frame):
                return frame
        return self.recv_until(pred, timeout)

    def expect(self, kind: str, timeout: float = PATIENCE) -> dict[str, Any]:
        """The next frame, which must be of type ``kind``."""
        frame = self.recv(timeout)
        assert frame["type"] == kind, f"{self.label}: expected a {kind!r} frame, got {frame}"
        return frame

    def quiet(self, wait: float = 0.05) -> None:
        """Assert that nothing arrives for ``wait`` seconds."""
        time.sleep(wait)
        got = self.poll()
        assert not got, f"{self.label}: unexpected frames {got}"

    # sending
    def send(self, data: dict[str, Any]) -> None:
        self.session.send_json(data)

    def send_text(self, text: str) -> None:
        self.session.send_text(text)

    def subscribe(self, table_id: str, last: int | None = None, invite: str | None = None) -> None:
        msg: dict[str, Any] = {"type": "subscribe", "table": table_id, "last": last}
        if invite is not None:
            msg["invite"] = invite
        self.send(msg)

    def act(self, table_id: str, action: str, ref: Any = None) -> None:
        self.send({"type": "action", "table": table_id, "action": action, "ref": ref})

    def ping(self, ref: Any = "ping") -> None:
        """Ping and wait for the pong: the connection is alive and has read everything sent before."""
        self.send({"type": "ping", "ref": ref})
        self.recv_until(lambda f: f["type"] == "pong" and f.get("ref") == ref)

    # what it saw
    def latest_state(self) -> dict[str, Any] | None:
        for frame in reversed(self.frames):
            if "state" in frame:
                state: dict[str, Any] = frame["state"]
                return state
        return None

    def events(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "event"]

    def event_numbers(self) -> list[int]:
        return [f["n"] for f in self.events()]

    def saw_end(self, table_id: str) -> bool:
        return any(f["type"] == "event" and f["table"] == table_id and f["event"]["kind"] == "end" for f in self.frames)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                self.session.__exit__(None, None, None)


def combined(label: str, *conns: Conn) -> Conn:
    """One player's frames over several connections, one after another (the last one's socket)."""
    last = conns[-1]
    out = Conn(last.session, label, last.seat)
    out.closed = True  # a record of frames, not a connection to read from
    for conn in conns:
        out.frames += conn.frames
        out.positions += conn.positions
        out.last_n = max(out.last_n, conn.last_n)
    return out


class Harness:
    """The app, its test client and the connections a test opens (closed at teardown)."""

    def __init__(self, app: FastAPI, client: TestClient) -> None:
        self.app = app
        self.client = client
        self.conns: list[Conn] = []

    def guest(self, name: str) -> Guest:
        return new_guest(self.client, name)

    def connect(self, who: Guest | None, label: str = "", seat: int | None = None) -> Conn:
        url = "/ws" if who is None else f"/ws?token={who.token}"
        session = self.client.websocket_connect(url)
        session.__enter__()
        conn = Conn(session, label or (who.name if who else "anonymous"), seat)
        self.conns.append(conn)
        welcome = conn.expect("welcome")
        assert welcome["you"] == (None if who is None else {"id": who.id, "name": who.name})
        return conn

    def table(self, table_id: str) -> Table:
        return service_table(self.app, table_id)

    def settled(self, table_id: str, pred: Callable[[Table], bool]) -> bool:
        """``pred(table)``, judged in the event loop while no change is half made (the lock is free)."""
        table = self.table(table_id)

        def check() -> bool:
            return not table.runner.lock.locked() and pred(table)

        return bool(self.client.portal.call(check))  # type: ignore[union-attr]

    def waiting_on(self, table_id: str, seat: int) -> bool:
        """The hand in play waits for ``seat``, and every open connection has heard everything."""

        def waits(table: Table) -> bool:
            match = table.match
            return (
                table.status == "playing"
                and match is not None
                and match.hand.end is None
                and match.hand.turn == seat
                and all(c.last_n == table.n for c in self.conns if not c.closed)
            )

        return self.settled(table_id, waits)

    def wait(self, pred: Callable[[], bool], timeout: float = PATIENCE, what: str = "condition") -> None:
        """Wait until ``pred()`` holds, reading every open connection meanwhile."""
        end = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            self.poll_all()
            time.sleep(0.002)

    def poll_all(self) -> bool:
        got = False
        for conn in self.conns:
            if not conn.closed:
                got = bool(conn.poll()) or got
        return got

    def close_all(self) -> None:
        for conn in reversed(self.conns):
            conn.close()


# -- scripted players ---------------------------------------------------------------------------
Policy = Callable[["Player", dict[str, Any]], str]


@dataclass(eq=False)
class Player:
    """A human seat played by the test: it moves when its latest state says it is its turn."""

    guest: Guest
    seat: int
    conn: Conn | None
    policy: Policy
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    acted_n: int = -1
    waiting: Any = None
    sent: list[str] = field(default_factory=list)
    acks: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    seen: int = 0

    def my_turn(self) -> dict[str, Any] | None:
        """The hand view when this seat is to act now (judged on the newest frame only)."""
        conn = self.conn
        if conn is None or conn.closed or self.waiting is not None:
            return None
        state = conn.latest_state()
        if state is None or state["n"] != conn.last_n or state["n"] == self.acted_n:
            return None
        hand = state.get("hand")
        if state["table"]["status"] != "playing" or hand is None or hand["end"] is not None:
            return None
        if hand["turn"] != self.seat or not hand["legal"]:
            return None
        return dict(hand)

    def take_replies(self) -> None:
        """Match acks and errors to the action waiting for an answer."""
        conn = self.conn
        if conn is None:
            return
        for frame in conn.frames[self.seen :]:
            if frame["type"] == "ack" and frame.get("ref") == self.waiting:
                self.acks.append(frame)
                self.waiting = None
            elif frame["type"] == "error":
                self.errors.append(frame)
                if frame.get("ref") == self.waiting:
                    self.waiting = None
        self.seen = len(conn.frames)

    def step(self, table_id: str) -> bool:
        self.take_replies()
        hand = self.my_turn()
        if hand is None:
            return False
        assert self.conn is not None
        move = self.policy(self, hand)
        self.acted_n = self.conn.last_n
        self.waiting = f"{self.seat}:{self.acted_n}"
        self.sent.append(move)
        self.conn.act(table_id, move, self.waiting)
        return True


def simple_policy(player: Player, hand: dict[str, Any]) -> str:
    """A random legal move; in Amazonense some plays carry a galo call (the first one always);
    in strict Dominousa each player once passes holding a fitting tile and once plays a tile that
    fits no end (both fined, C9)."""
    legal: list[str] = hand["legal"]
    rng = player.rng
    variant = hand["variant"]
    plays = [m for m in legal if PLAY_RE.match(m)]
    if variant == "dominousa" and hand["public"].get("strict") and hand["layout"]["line"] and plays:
        if "fined-pass" not in player.flags:
            player.flags.add("fined-pass")
            return "pass"
        ends = set(hand["layout"]["ends"].values())
        misfits = [t for t in hand["tiles"] if not ends & {int(t[0]), int(t[2])}]
        if misfits and "fined-play" not in player.flags:
            player.flags.add("fined-play")
            return f"{misfits[0]} L"
    move = rng.choice(legal)
    if variant == "amazonense" and PLAY_RE.match(move) and len(move.split()) == 2:
        if "galo" not in player.flags or rng.random() < 0.15:
            player.flags.add("galo")
            move += " galo"
    return move


def drive(
    h: Harness,
    table_id: str,
    players: Iterable[Player],
    until: Callable[[], bool] | None = None,
    timeout: float = 30.0,
) -> None:
    """Read every connection and let the players move until ``until()`` (default: every open
    connection has seen the match end)."""
    players = list(players)
    if until is None:

        def until() -> bool:
            return all(c.saw_end(table_id) for c in h.conns if not c.closed)

    end = time.monotonic() + timeout
    while True:
        got = h.poll_all()
        for p in players:
            p.take_replies()
        if until():
            for p in players:  # read the replies to the last actions too
                if p.conn is not None and not p.conn.closed:
                    p.conn.ping("drive")
                    p.take_replies()
            return
        for p in players:
            got = p.step(table_id) or got
        if time.monotonic() > end:
            table = h.table(table_id)
            detail = [(p.seat, p.waiting, p.acted_n, p.conn and p.conn.last_n, p.errors[-1:]) for p in players]
            hand = table.match.hand if table.match is not None and table.match.hands else None
            turn = None if hand is None else (hand.turn, hand.end)
            lagging = [(c.label, c.last_n) for c in h.conns if not c.closed and c.last_n != table.n]
            raise AssertionError(
                f"match not over after {timeout}s: n={table.n} {table.match!r} turn, end={turn} "
                f"locked={table.runner.lock.locked()} players={detail} lagging={lagging}"
            )
        if not got:
            time.sleep(0.001)


def setup_match(h: Harness, options: dict[str, Any], seats: list[int]) -> tuple[str, list[Player], list[Conn]]:
    """A table with humans in ``seats``, bots elsewhere and two spectators (the owner, who does not
    play, and an anonymous connection), everybody subscribed before the start."""
    owner = h.guest("Owner")
    table = create_table(h.client, owner, **options)
    table_id = table["id"]
    players = []
    for k, seat in enumerate(seats):
        who = h.guest(f"Human{seat}")
        join(h.client, who, table_id, seat)
        conn = h.connect(who, f"human{seat}", seat)
        players.append(Player(who, seat, conn, simple_policy, random.Random(100 + k)))
    watchers = [h.connect(owner, "owner", None), h.connect(None, "anonymous", None)]
    for conn in [*(p.conn for p in players if p.conn), *watchers]:
        conn.subscribe(table_id)
        first = conn.expect("state")
        assert first["n"] == h.table(table_id).n == len(seats)
        assert first["state"]["seat"] == conn.seat
        assert first["state"]["hand"] is None
    r = h.client.post(f"/api/tables/{table_id}/bots", json={"level": "greedy"}, headers=players[0].guest.headers)
    assert r.status_code == 200, r.text
    r = h.client.post(f"/api/tables/{table_id}/start", headers=players[0].guest.headers)
    assert r.status_code == 200, r.text
    return table_id, players, watchers


# -- what each receiver may see -----------------------------------------------------------------
@dataclass(frozen=True)
class Visible:
    """At one event: each seat's tiles, the tiles that are public, where the match stands."""

    hands: tuple[frozenset[str], ...]
    public: frozenset[str]
    hand_no: int  # 0 before the first deal
    actions: int  # actions of that hand so far

    def hidden(self, seat: int | None) -> frozenset[str]:
        """What ``seat`` (None: a spectator) may not see."""
        own = self.hands[seat] if seat is not None and self.hand_no else frozenset()
        return ALL_TILES - own - self.public


def _counted(hand: Any) -> bool:
    """Whether the hand ended with every hand shown and counted (domino, blocked; Dominousa's
    tied tranque too, though annulled) -- written out here, not taken from the views."""
    if hand.end in ("batida", "tranca"):
        return True
    if hand.variant == "dominousa" and hand.end == "annulled":
        last = hand.history[-1][1] if hand.history else None
        return isinstance(last, Move)
    return False


def visibility(record: Record, kinds: dict[int, str], first: int = 1) -> dict[int, Visible]:
    """Replay ``record`` alongside the table's event numbers ``first..`` (``kinds[n]`` is event n's
    kind): ``deal`` starts the next hand of the record, ``action`` is its next action. Fails
    unless the events and the record agree exactly."""
    match = Match(variants.get(record.variant), players=len(record.players), options=record.options)
    seats = len(record.players)
    out: dict[int, Visible] = {}
    hand_no, done = 0, 0
    public: set[str] = set()
    start, last = min(kinds), max(kinds)
    assert sorted(kinds) == list(range(start, last + 1)), "the events seen have gaps"
    for n in range(1, last + 1):
        kind = kinds.get(n, "before")  # events before anybody subscribed (seats)
        if n >= first and kind == "deal":
            rh = record.hands[hand_no]
            match.deal(rh.deal, rh.boneyard, rh.extra)
            hand_no, done, public = hand_no + 1, 0, set()
        elif n >= first and kind == "action":
            text = record.hands[hand_no - 1].actions[done]
            seat, move = parse_action(text)
            if isinstance(move, Move):
                move = match.hand.resolve(move, match.hand.turn if seat is None else seat)
            match.push(move, seat)
            done += 1
            public |= tiles_in(text)
        if hand_no:
            hand = match.hand
            hands = tuple(frozenset(str(t) for t in hand.tiles(s)) for s in range(seats))
            shown = set(public)
            if _counted(hand):
                shown |= set().union(*hands)
            for s, mask in enumerate(getattr(hand, "touched", ())):
                shown |= {str(TILES[t]) for t in range(28) if mask >> t & 1} & hands[s]
            out[n] = Visible(hands, frozenset(shown), hand_no, done)
        else:
            out[n] = Visible(tuple(frozenset() for _ in range(seats)), frozenset(), 0, 0)
    assert hand_no == len(record.hands), f"{hand_no} deals seen, the record has {len(record.hands)} hands"
    assert done == len(record.hands[-1].actions), "the record holds actions nobody was sent"
    return out


def event_kinds(conns: Iterable[Conn], table_id: str) -> dict[int, str]:
    """Event number -> kind, from every event frame seen (they must all agree)."""
    kinds: dict[int, str] = {}
    for conn in conns:
        for frame in conn.events():
            if frame["table"] != table_id:
                continue
            kind = frame["event"]["kind"]
            assert kinds.setdefault(frame["n"], kind) == kind, f"event {frame['n']} is {kind} and {kinds[frame['n']]}"
    return kinds


def leaks(conn: Conn, vis: dict[int, Visible], frames: Iterable[tuple[int, dict[str, Any]]] | None = None) -> list[str]:
    """Tiles that ``conn``'s frames show although its seat may not see them, and own tiles that
    its frames fail to show (a scan that finds nothing proves nothing)."""
    problems = []
    seat = conn.seat
    for position, frame in frames if frames is not None else zip(conn.positions, conn.frames, strict=True):
        if position not in vis:
            continue  # before anything was dealt
        v = vis[position]
        found = tiles_in(frame)
        leaked = found & v.hidden(seat)
        if leaked:
            problems.append(f"{conn.label} (seat {seat}) at event {position}: {sorted(leaked)} in {frame}")
        state = frame.get("state")
        if state is not None and state.get("hand") is not None:
            assert state["seat"] == seat, f"{conn.label}: a frame for seat {state['seat']}"
            expect = set(v.public)
            if seat is not None:
                expect |= v.hands[seat]
            if not expect <= found:
                problems.append(f"{conn.label} at event {position}: {sorted(expect - found)} missing from {frame}")
            if seat is not None and sorted(state["hand"]["tiles"]) != sorted(v.hands[seat]):
                problems.append(f"{conn.label} at event {position}: hand {state['hand']['tiles']} != {v.hands[seat]}")
    return problems


def clock_problems(conn: Conn) -> list[str]:
    """Frames whose move clock is not the one of the seat to act: a person (not away) has a
    deadline, a bot or a seat a bot plays for has none."""
    problems = []
    for frame in conn.frames:
        state = frame.get("state")
        if frame["type"] != "event" or not state or not state.get("hand") or state["clock"]["seat"] is None:
            continue
        seat = state["table"]["seats"][state["clock"]["seat"]]
        person = seat["bot"] is None and not seat["away"]
        if person != (state["clock"]["deadline"] is not None):
            clock = state["clock"]
            problems.append(f"{conn.label} at event {frame['n']}: seat {clock['seat']} {seat} {clock}")
    return problems


# -- the stored record against what the clients saw ----------------------------------------------
def fetch_record(client: TestClient, table_id: str, match_no: int = 1) -> tuple[Record, dict[str, Any]]:
    r = client.get(f"/api/tables/{table_id}/records")
    assert r.status_code == 200, r.text
    rows = [row for row in r.json() if row["match"] == match_no]
    assert len(rows) == 1, r.json()
    r = client.get(f"/api/records/{rows[0]['id']}")
    assert r.status_code == 200, r.text
    record = Record.from_json(r.json())
    assert record.extra.get("table") == table_id
    for seat, player_id in enumerate(record.extra.get("player_ids") or []):  # each person's match history
        if player_id:
            r = client.get(f"/api/players/{player_id}/matches")
            assert r.status_code == 200, r.text
            assert {"id": rows[0]["id"], "seat": seat} in [{"id": m["id"], "seat": m["seat"]} for m in r.json()]
    return record, rows[0]


def hands_seen(conn: Conn, table_id: str) -> dict[int, dict[str, Any]]:
    """Hand number -> the last view of that hand this connection received."""
    out: dict[int, dict[str, Any]] = {}
    for frame in conn.frames:
        state = frame.get("state")
        if frame.get("table") == table_id and state and state.get("hand"):
            out[state["hand"]["hand"]] = state["hand"]
    return out


def stored_hands(events: Iterable[Any]) -> list[list[str]]:
    """The actions of each hand, as a table's stored events hold them (a ``deal`` starts the next hand)."""
    hands: list[list[str]] = []
    for e in events:
        if e.kind == "deal":
            hands.append([])
        elif e.kind == "action":
            hands[-1].append(e.data["action"])
    return hands


def actions_seen(conn: Conn, table_id: str) -> list[list[str]]:
    """The actions of each hand, as this connection's event frames told them."""
    hands: list[list[str]] = []
    for frame in conn.events():
        if frame["table"] != table_id:
            continue
        event = frame["event"]
        if event["kind"] == "deal":
            assert event["hand"] == len(hands) + 1, event
            hands.append([])
        elif event["kind"] == "action":
            hands[-1].append(event["action"])
    return hands


def check_same_result(conn: Conn, table_id: str, record: Record) -> dict[str, Any]:
    """``conn`` saw the match that the stored record replays to."""
    result = summary(replay(record))
    assert result["finished"], result
    ends = [f for f in conn.events() if f["table"] == table_id and f["event"]["kind"] == "end"]
    assert len(ends) == 1, f"{conn.label}: {len(ends)} end events"
    final = ends[0]["state"]
    assert ends[0]["event"]["winner"] == result["winner"]
    assert final["winner"] == result["winner"], (conn.label, final["winner"], result)
    assert final["totals"] == result["totals"], (conn.label, final["totals"], result)
    assert final["table"]["status"] == "finished"
    assert actions_seen(conn, table_id) == [h.actions for h in record.hands], conn.label
    views = hands_seen(conn, table_id)
    assert sorted(views) == list(range(1, len(record.hands) + 1)), conn.label
    for number, (rh, rs) in enumerate(zip(record.hands, result["hands"], strict=True), start=1):
        view = views[number]
        assert view["history"] == rh.actions, (conn.label, number)
        assert (view["end"] or "open") == rs["end"], (conn.label, number)
        assert view["points"] == rs["points"], (conn.label, number)
        scoring = [{k: v for k, v in s.items() if k != "hand"} for s in rs["scoring"]]
        assert view["scores"] == scoring, (conn.label, number)
        assert view["turn"] is None and rs["end"] != "open"
    return result


def seeded_secrets(seed: int) -> Any:
    """A stand-in for the ``secrets`` module of the table service: the same deals every run."""
    rng = random.Random(seed)

    class Secrets:
        @staticmethod
        def randbits(k: int) -> int:
            return rng.getrandbits(k)

    return Secrets


@contextlib.contextmanager
def opened(h: Harness) -> Iterator[Harness]:
    try:
        yield h
    finally:
        h.close_all()
