"""The table's state says what happens, the runner does it: random requests played through the state alone,
with a recorder in the runner's place, give the same events, the same follows and the same frames as through
a live table (its runner, event log, fan-out, clocks and bots all running)."""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
from collections.abc import Coroutine
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from capicua.rules import variants
from capicua.rules.moves import MoveError, format_action
from capicua.service.bus import LocalBus
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store import StoredEvent, TableRow
from capicua.service.tables import Subscriber, Table, TableConfig
from capicua.service.tables.bots import BotPool
from capicua.service.tables.flow import deal_data, match_end
from capicua.service.tables.follows import (
    Abandon,
    AfterHand,
    Applied,
    Begin,
    Follow,
    MarkAway,
    Publish,
    Send,
)
from capicua.service.tables.frames import Frames
from capicua.service.tables.ports import Ports
from capicua.service.tables.state import TableState
from tests.aio import run_async

PLAYERS = [Identity(f"a:{k}", name, guest=False) for k, name in enumerate(["Ana", "Bia", "Caio", "Duda"])]
WATCHERS: list[Identity | None] = [*PLAYERS, None]  # the four players (before and after they sit) and a spectator
#: Nothing fires by itself during a test: no bot delay runs out, no move clock, no pause, no forced pass.
CONFIG = TableConfig(bot_delay=3600, bot_workers=0, call_grace=0)
OPTIONS = {"target": 25, "move_seconds": 600, "pause_seconds": 0, "auto_pass": False}
NOW = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
Request = tuple[str, int, str]  # what, the player (seat index in PLAYERS), its text (an action) or ""


class MemoryEvents:
    """The event store port, in memory: what the live table committed, in order."""

    def __init__(self) -> None:
        self.events: list[StoredEvent] = []

    async def append(
        self, table_id: str, n: int, kind: str, data: dict[str, Any], status: str | None = None, lease: Any = None
    ) -> Any:
        assert n == len(self.events) + 1
        self.events.append(StoredEvent(n, kind, copy.deepcopy(data), NOW))
        return NOW

    async def read(self, table_id: str) -> list[StoredEvent]:
        return list(self.events)


def plain(frame: Any) -> Any:
    """A frame as its receiver reads it, with the clock's moments (wall time) left out."""
    data = orjson.loads(orjson.dumps(frame))
    clock = (data.get("state") or {}).get("clock")
    if clock:
        clock.update(deadline=None, match_ends=None, next_deal=None)
    return data


def follow_names(follows: tuple[Follow, ...]) -> list[Any]:
    return [(type(f).__name__, f.event.topic) if isinstance(f, Publish) else f for f in follows]


def row(variant: str, rated: bool) -> TableRow:
    options = variants.get(variant).check_options(dict(OPTIONS))
    return TableRow(
        id="T", variant=variant, players=4, options=options, private=False, invite=None, owner=PLAYERS[0].id,
        status="open", rated=rated, tournament_id=None, reserved=None, bots_rated=False,
    )  # fmt: skip


async def live(
    variant: str, rated: bool, choices: list[tuple[str, int]]
) -> tuple[list[Request], Any, list[Any], Table]:
    """Play ``choices`` at a live table; the requests made, what each answered, the frames each watcher got."""
    store = MemoryEvents()
    tasks: set[asyncio.Task[None]] = set()

    def spawn(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(coro)
        tasks.add(task)
        return task

    async def no_rating(player: str, game: str) -> None:
        return None

    async def no_referee(state: TableState, who: Identity) -> bool:
        return False

    ports = Ports(store, LocalBus(), BotPool(0), lambda: CONFIG, spawn, no_rating, no_referee)  # type: ignore[arg-type]
    table = Table(row(variant, rated), ports)
    follows: list[list[Any]] = []
    carry_out = table.runner.carry_out

    async def recording(applied: Applied) -> None:
        follows.append(follow_names(applied.follows))
        await carry_out(applied)

    table.runner.carry_out = recording  # type: ignore[method-assign]
    received: list[list[Any]] = [[] for _ in WATCHERS]
    for k, who in enumerate(WATCHERS):

        async def send(frame: Any, into: list[Any] = received[k]) -> None:
            into.append(plain(frame))

        await table.subscribe(Subscriber(who, None, send), None)
    requests: list[Request] = [("join", k, "") for k in range(4)] + [("start", 0, "")]
    answers = [await request(table, r) for r in requests]
    for c in choices:
        r = choose(table.state, c)
        if r is None:
            break
        requests.append(r)
        answers.append(await request(table, r))
        await table.runner.after_action_locked()  # the follow-up it spawned, if any, done now
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    events = [(e.kind, e.data) for e in store.events]
    return requests, (answers, events, follows), [[f for f in got if f["type"] == "event"] for got in received], table


#: The kinds of request drawn, as often as they come here: timeouts often enough to come two and three in a
#: row (A10: away at a casual table, an abandonment at a rated one), a resignation now and then.
KINDS = ["act"] * 20 + ["timeout"] * 7 + ["refused"] * 2 + ["resign"]


def choose(state: TableState, choice: tuple[str, int]) -> Request | None:
    """The request that ``choice`` makes of the table as it is (None: the match is over)."""
    match = state.match
    if state.status != "playing" or match is None:
        return None
    hand = match.hand
    kind, c = choice
    if kind == "timeout":
        return ("timeout", hand.turn, "")
    if kind == "resign":
        return ("resign", c % 4, "")
    if kind == "refused":
        return ("act", c % 4, ["9-9", "pass pass", "6-6 X", "draw"][c // 4 % 4])  # refused, or not
    seat = hand.turn if c % 5 else c // 5 % 4
    moves = hand.legal_moves_for(seat) if seat == hand.turn else hand.public_moves_for(seat)
    if not moves:
        seat, moves = hand.turn, hand.legal_moves_for(hand.turn)
    return ("act", seat, str(moves[c // 25 % len(moves)]))


async def request(table: Table, r: Request) -> Any:
    what, k, text = r
    who = PLAYERS[k]
    try:
        if what == "join":
            return await table.join(who, k, None)
        if what == "start":
            return await table.start(who)
        if what == "act":
            return await table.act(who, text)
        if what == "resign":
            return await table.resign(who)
        return await table.runner.timed_out(table.n, k, "timeout")
    except ServiceError as exc:
        return exc.code


class Recorder:
    """The runner replaced: it commits to a list and carries out what must follow with no I/O."""

    def __init__(self, state: TableState, seed: int) -> None:
        self.state = state
        self.seed = seed
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.follows: list[list[Any]] = []
        self.frames: list[list[Any]] = [[] for _ in WATCHERS]
        self.views = Frames(state, lambda: len(self.events), lambda: (None, None, None))
        self.after_hand = False

    def commit(self, kind: str, data: dict[str, Any], parsed: Any = None) -> None:
        applied = self.state.apply(kind, data, NOW, parsed)
        self.events.append((kind, data))
        self.follows.append(follow_names(applied.follows))
        for f in applied.follows:
            if isinstance(f, Send):
                for k, who in enumerate(WATCHERS):
                    self.frames[k].append(plain(self.views.event(applied.public, self.state.seat_of(who))))
            elif isinstance(f, AfterHand):
                self.after_hand = True  # the live runner's follow-up: done once the request is answered
            elif isinstance(f, Begin):
                self.begin()
            elif isinstance(f, MarkAway):
                self.commit("away", {"seat": f.seat, "away": True})
                present = {k for k in map(self.state.seat_of, WATCHERS) if k is not None}
                if self.state.deserted(present):  # the live table's last person away and gone: it ends
                    self.end(f.seat, "deserted")
            elif isinstance(f, Abandon):
                self.end(f.seat, "timeouts")

    def begin(self) -> None:
        self.commit("start", {"seed": self.seed, "match": self.state.match_no + 1})
        self.deal()

    def deal(self) -> None:
        assert self.state.match is not None
        self.commit("deal", deal_data(self.state.match))

    def end(self, abandoned_by: int | None, reason: str | None = None) -> None:
        _, data = match_end(self.state, abandoned_by, NOW, reason)
        self.commit("end", data)

    def act(self, parsed: Any) -> int | str:
        try:
            self.commit("action", {"action": format_action(*parsed), "timeout": False}, parsed)
        except MoveError:
            return "illegal"  # the engine refused it: nothing changed
        seat = parsed[0]
        if seat is not None and self.state.seats[seat].away:
            self.commit("away", {"seat": seat, "away": False})
        return len(self.events)

    def request(self, r: Request) -> Any:
        what, k, text = r
        who, state = PLAYERS[k], self.state
        try:
            if what == "join":
                self.commit("seat", {"seat": state.free_seat(who, k), "player": who.id, "name": who.name})
                return k
            if what == "start":
                state.check_start(who)
                return self.begin()
            if what == "act":
                return self.act(state.action_of(who, text))
            if what == "resign":
                self.end(state.check_resign(who), "resign")
                return len(self.events)
            assert state.match is not None
            move = state.match.hand.timeout_move(k)
            return self.commit("action", {"action": format_action(k, move), "timeout": True}, (k, move))
        except ServiceError as exc:
            return exc.code
        finally:
            if self.after_hand:
                self.after_hand = False
                match = state.match
                if state.status == "playing" and match is not None:
                    if match.is_over():
                        self.end(None)
                    elif match.needs_deal():
                        self.deal()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(["amazonense", "individual", "dominousa"]),
    rated=st.booleans(),
    choices=st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 10**6)), min_size=60, max_size=150),
)
def test_the_state_alone_with_a_recorder_gives_what_the_live_table_gives(
    variant: str, rated: bool, choices: list[tuple[str, int]]
) -> None:
    requests, (answers, events, follows), frames, table = run_async(live(variant, rated, choices))
    seed = next(data["seed"] for kind, data in events if kind == "start")
    recorder = Recorder(TableState(row(variant, rated)), seed)
    replies = [recorder.request(r) for r in requests]
    assert recorder.events == events
    assert recorder.follows == follows
    assert recorder.frames == frames
    # what each request answered: the same refusals; for an action, the number of its last event
    assert [a for a in replies if isinstance(a, str)] == [a for a in answers if isinstance(a, str)]
    assert table.state.status == recorder.state.status and table.n == len(recorder.events)
