"""Any node answers for any table: two platforms on one database and the machine's Redis, a table run by one of
them, its players and spectators on the other.

Checked: an operation asked of the node that does not run the table is made by the one that does, and its
answer (or its error) comes back; the subscribers on the other node get their seat's frames, in order, with
no tile their seat may not see; an action sent again with its ref is answered with its first ack, not made
twice; when the owner stops answering, its subscribers elsewhere are told ``moved`` and requests get
``unavailable``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import random
import secrets
from collections.abc import Callable
from typing import Any

import pytest

from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform
from capicua.service.relay import RedisTransport, Router, ops
from capicua.service.relay import router as router_module
from capicua.service.store import Store
from capicua.service.tables import Table, TableConfig, TableService
from tests.aio import run_async
from tests.service.test_botapi import play_out
from tests.service.test_nodes import OPTIONS, SEATS, play_one, until
from tests.web.helpers import tiles_in
from tests.web.test_crash import Client

REDIS = "redis://127.0.0.1:6379/0"
CONFIG = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)


async def node(url: str, name: str) -> Platform:
    platform = Platform(Store(url), "s" * 40, CONFIG, node=name, lease_seconds=5, sweeps=False, redis_url=REDIS)
    await platform.open()
    assert platform.router.transport is not None
    await asyncio.wait_for(platform.router.transport.listening.wait(), 10)
    return platform


def names() -> tuple[str, str]:
    """Node names of this test alone (tests running at once share the machine's Redis)."""
    tag = secrets.token_hex(3)
    return f"a-{tag}", f"b-{tag}"


async def started_on_two_nodes(url: str) -> tuple[Platform, Platform, Table]:
    """Two nodes, and a Dominousa table of ``SEATS`` started on the first."""
    a_name, b_name = names()
    a, b = await node(url, a_name), await node(url, b_name)
    table = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False)
    for seat, who in enumerate(SEATS):
        await table.join(who, seat, None)
    await table.start(SEATS[0])
    return a, b, table


class Watcher:
    """A client on some node: the frames it got, in order."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    async def send(self, frame: Any) -> None:
        self.frames.append(frame)

    def last_state(self) -> dict[str, Any]:
        return next(f["state"] for f in reversed(self.frames) if f.get("state"))

    def events(self) -> list[int]:
        return [f["n"] for f in self.frames if f["type"] == "event"]


def seen_tiles(frames: list[dict[str, Any]]) -> set[str]:
    return set().union(*(tiles_in(f) for f in frames)) if frames else set()


def test_a_table_run_by_one_node_is_played_and_watched_through_another(empty_store_url: str) -> None:
    async def body() -> None:
        a_name, b_name = names()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        # Created through b's router? No: a table is created on the node asked; this one on a.
        table = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False)
        for seat, who in enumerate(SEATS):
            assert await b.router.call(table.id, "join", who, seat=seat, invite=None) == {"seat": seat}
        player, spectator = Watcher(), Watcher()
        sub_player = await b.router.subscribe(table.id, SEATS[1], None, None, player.send)
        sub_spectator = await b.router.subscribe(table.id, None, None, None, spectator.send)
        await until(lambda: len(player.frames) >= 1 and len(spectator.frames) >= 1)
        summary = await b.router.call(table.id, "start", SEATS[0])
        assert summary["status"] == "playing" and table.id in a.tables.tables and table.id not in b.tables.tables
        with pytest.raises(ServiceError) as refused:
            await b.router.call(table.id, "act", SEATS[0], action="9-9")  # the table's own error comes back
        assert refused.value.code == "malformed"
        # Play a dozen moves, every one asked through b.
        for _ in range(12):
            match = table.match
            assert match is not None
            seat = match.hand.turn
            move = table.state_for(seat)["hand"]["legal"][0]  # type: ignore[index]
            ref = f"r{table.n}"
            answer = await b.router.call(table.id, "act", SEATS[seat], action=move, ref=ref)
            assert answer["n"] == table.n
            again = await b.router.call(table.id, "act", SEATS[seat], action=move, ref=ref)  # its answer was lost
            assert again == answer, "an action sent again with its ref was made twice"
        await until(lambda: bool(player.events()) and player.events()[-1] == table.n)
        await until(lambda: bool(spectator.events()) and spectator.events()[-1] == table.n)
        for watcher in (player, spectator):
            ns = [f["n"] for f in watcher.frames if f["type"] in ("event", "state")]
            assert ns == list(range(ns[0], table.n + 1)), "frames out of order, or missing"
        # Each gets its seat's view, exactly as on the table's own node.
        assert player.last_state() == table.state_for(1) | {"clock": player.last_state()["clock"]}
        assert spectator.last_state()["hand"]["tiles"] == []
        match = table.match
        assert match is not None
        hidden = {str(t) for k in (0, 2, 3) for t in match.hand.tiles(k)}
        assert not seen_tiles(player.frames) & hidden, "a player on another node saw another seat's tile"
        in_hands = hidden | {str(t) for t in match.hand.tiles(1)}  # never shown to anybody but its holder
        assert seen_tiles(player.frames) & in_hands  # (the check sees tiles: the player's own are there)
        assert not seen_tiles(spectator.frames) & in_hands, "a spectator on another node saw a tile in a hand"
        sub_player.close()
        sub_spectator.close()
        await until(lambda: not b.router.remote and not a.router.served)
        await a.close()
        await b.close()

    run_async(body())


class Connection:
    """A websocket of tests/web/test_crash.py's scripted client, as ``capicua/web/socket.py`` serves it: its
    subscription's frames and the answers to its actions, in the order they come, read by the client."""

    def __init__(self) -> None:
        self.frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send(self, frame: Any) -> None:
        await self.frames.put(frame)

    async def act(self, router: Router, table_id: str, who: Identity, ref: int, action: str) -> None:
        try:
            answer = await router.call(table_id, "act", who, action=action, ref=ref)
        except ServiceError as exc:
            await self.send({"type": "error", "code": exc.code, "message": exc.message, "ref": ref})
        else:
            await self.send({"type": "ack", "ref": ref, "n": answer["n"]})

    async def read(self, client: Client, done: Callable[[], bool]) -> None:
        """Hand the frames to ``client`` until ``done()``."""
        while not done():
            client.receive(await asyncio.wait_for(self.frames.get(), 10))


def test_an_action_made_late_after_its_connection_dropped_is_sent_again_with_its_ref(
    empty_store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/web/test_cluster.py's client on a loaded machine: its action, unanswered when its connection dropped
    (a ``moved``), is held up on its way and made only once the client has subscribed again and been told
    ``synced``. The client sends it again with its ref (docs/protocol.md, "Several servers"): the table makes it
    once, and the late event is the resend's, acknowledged. (A new action with a new ref was refused as out of
    turn, and the client took the late event for the new one's.)"""

    async def body() -> None:
        a, b, table = await started_on_two_nodes(empty_store_url)
        while True:  # until seat 0 is to play a tile (after which seat 1 is to play)
            match = table.match
            assert match is not None
            legal = table.state_for(0)["hand"]["legal"]  # type: ignore[index]
            if match.hand.turn == 0 and not {"draw", "pass"} & set(legal):
                break
            await play_one(table)
        held, go = asyncio.Event(), asyncio.Event()
        act = ops.OPS["act"]

        async def slow_once(tables: TableService, at: Table, who: Identity | None, args: dict[str, Any]) -> Any:
            """The first action is held up on its way to the table (a node paused, a slow database)."""
            if not held.is_set():
                held.set()
                await go.wait()
            return await act(tables, at, who, args)

        monkeypatch.setitem(ops.OPS, "act", slow_once)
        client, refs = Client(table.id, "dominousa", "", random.Random(0)), itertools.count(77)
        first = Connection()
        subscription = await b.router.subscribe(table.id, SEATS[0], None, None, first.send)
        await first.read(client, lambda: client.subscribed)
        sent = client.send_next(refs)
        assert sent is not None
        late = asyncio.create_task(b.router.call(table.id, "act", SEATS[0], action=sent[1], ref=sent[0]))
        await held.wait()
        subscription.close()  # the connection drops, the action unanswered and on its way
        client.connection_lost()
        second = Connection()
        await b.router.subscribe(table.id, SEATS[0], None, client.last, second.send)
        await second.read(client, lambda: client.subscribed)  # synced: the table is where it was
        again = client.send_next(refs)
        assert again is not None
        go.set()
        n = (await late)["n"]  # the late action is made now, its event sent to the new connection
        await second.read(client, lambda: client.last == n)
        await second.act(b.router, table.id, SEATS[0], *again)
        await second.read(client, lambda: client.pending is None)
        assert again == sent, "the action unanswered when its connection dropped was not sent again with its ref"
        stored = [e for e in await a.store.events.read(table.id) if e.kind == "action" and e.data.get("ref") == sent[0]]
        assert [e.n for e in stored] == [n] and client.acked == [(n, stored[0].data["action"])], client.trace
        await a.close()
        await b.close()

    run_async(body())


def test_a_transport_closes_when_a_publish_swallows_its_cancel(monkeypatch: pytest.MonkeyPatch) -> None:
    """redis-py 8.2's pipeline may swallow the cancellation of a task cancelled while it publishes: the
    transport's writer stops anyway, and ``close()`` returns (a node shutting down with frames on their way
    hung there, and never retired)."""

    async def body() -> None:
        transport = RedisTransport(REDIS, names()[0])
        publishing = asyncio.Event()

        class Swallowing:
            async def __aenter__(self) -> Swallowing:
                return self

            async def __aexit__(self, *exc: object) -> None:
                return None

            def publish(self, name: str, message: bytes) -> None:
                pass

            async def execute(self) -> None:
                publishing.set()
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.Event().wait()

        monkeypatch.setattr(transport.redis, "pipeline", lambda transaction=False: Swallowing())
        transport.send_frame("nobody", "sub", {"type": "moved"})
        await publishing.wait()
        await asyncio.wait_for(transport.close(), 10)

    run_async(body())


def test_when_the_owner_stops_answering_its_subscribers_elsewhere_are_told_moved(
    empty_store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(router_module, "KEEP_EVERY", 0.2)

    async def body() -> None:
        a_name, b_name = names()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        table = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False)
        watcher = Watcher()
        await b.router.subscribe(table.id, None, None, None, watcher.send)
        await until(lambda: bool(watcher.frames))
        assert a.router.transport is not None
        await a.router.transport.close()  # a no longer listens (as if killed; its lease still runs)
        await until(lambda: watcher.frames[-1] == {"type": "moved", "table": table.id}, timeout=10)
        with pytest.raises(ServiceError) as unavailable:
            await b.router.call(table.id, "join", Identity("g:eve", "Eve"), seat=0, invite=None)
        assert unavailable.value.code == "unavailable"  # it reached nobody: nothing changed
        assert table.state.seats[0].player is None
        await b.close()
        a.router.transport = None
        await a.close()

    run_async(body())


def test_the_lobby_of_any_node_lists_the_public_tables_of_every_living_node(
    empty_store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(router_module, "KEEP_EVERY", 0.2)

    async def body() -> None:
        a_name, b_name = names()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        on_a = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False)
        await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, True)  # private: in no lobby
        on_b = await b.tables.create(SEATS[1], "amazonense", None, {}, False)
        await on_a.join(SEATS[2], 1, None)

        async def listed(platform: Platform) -> list[str]:
            return sorted(t["id"] for t in await platform.router.lobby())

        want = sorted([on_a.id, on_b.id])
        await until(lambda: _eq(listed(a), want), timeout=10)
        await until(lambda: _eq(listed(b), want), timeout=10)
        seen_on_b = next(t for t in await b.router.lobby() if t["id"] == on_a.id)
        assert seen_on_b["seats"][1]["name"] == SEATS[2].name  # a's summary, as a keeps it
        await a.close()  # a retires: its tables leave b's lobby at once (b asks only the living nodes)
        assert [t["id"] for t in await b.router.lobby()] == [on_b.id]
        await b.close()

    run_async(body())


async def _eq(got: Any, want: list[str]) -> bool:
    return bool(await got == want)


def test_a_tournament_round_run_on_one_node_is_checked_in_to_and_forfeited_from_another(empty_store_url: str) -> None:
    """C10 across nodes: the round's tables are opened by the node that paired it; players check in through
    another node, and that node's director closes a no-show's table it does not run."""
    from capicua.service.tournaments.view import _seated
    from tests.service.test_tournaments import START, Clock, field

    async def body() -> None:
        a_name, b_name = names()
        clock = Clock()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        for platform in (a, b):
            platform.tournaments.ctx.clock = clock
        f = await field(a, 4, rounds=3, no_show_grace=300)
        clock.now = START
        await a.tournaments.start(f.organiser, f.t.id)  # round 1 paired on a: its tables run there
        boards = await f.boards(1)
        assert all(b_.table_id in a.tables.tables for b_ in boards)
        present = boards[0].team_a  # the other team of board 1 never comes
        for who in f.players[present - 1]:  # through b, which does not run the table
            answer = await b.tournaments.check_in(who, f.t.id)
            assert answer["table"] == boards[0].table_id and answer["seat"] in (0, 2)
        table = a.tables.get(boards[0].table_id or "")
        assert [s.player for s in table.state.seats][0::2] == [w.id for w in f.players[present - 1]]
        seated = await _seated(b.tournaments, await f.row(), boards)  # who sat down, as b's page shows it
        assert seated[boards[0].table_id or ""] == [True, False, True, False], seated
        clock.now = START + dt.timedelta(seconds=300)
        await b.tournaments.sweep()  # b's director: the absent team loses, the table on a closes unplayed
        board = (await f.boards(1))[0]
        assert (board.status, board.kind, board.winner) == ("done", "forfeit", present)
        assert table.status == "finished" and table.match is None
        await a.close()
        await b.close()

    run_async(body())


def test_a_bots_seat_stream_comes_through_another_node_with_its_seats_view(empty_store_url: str) -> None:
    """docs/bots.md's seat stream, asked of a node that does not run the table: the frames of its seat, each
    with the engine's view of that seat, built where the table runs."""

    async def body() -> None:
        a, b, table = await started_on_two_nodes(empty_store_url)
        with pytest.raises(ServiceError) as refused:
            await b.bot_hub.table_stream(Identity("g:nobody", "Nobody"), table.id)
        assert refused.value.code == "not-seated"
        stream = await b.bot_hub.table_stream(SEATS[1], table.id)
        first = await anext(stream)
        assert first is not None and first["type"] == "state" and first["state"]["seat"] == 1
        match = table.match
        assert match is not None
        assert sorted(first["view"]["tiles"]) == sorted(str(t) for t in match.hand.tiles(1)), first["view"]
        seat = match.hand.turn
        await b.router.call(table.id, "act", SEATS[seat], action=table.state_for(seat)["hand"]["legal"][0])  # type: ignore[index]
        frame = await anext(stream)
        while frame is None:  # a keep-alive
            frame = await anext(stream)
        assert frame["type"] == "event" and frame["n"] == table.n and "view" in frame
        assert frame["view"] == match.hand.view(1).to_json()
        await stream.aclose()
        await until(lambda: not b.router.remote and not a.router.served)
        await a.close()
        await b.close()

    run_async(body())


def test_a_bot_connected_to_one_node_is_invited_to_and_plays_at_a_table_run_by_another(
    empty_store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/bots.md's event stream across nodes: the bot's stream is open on b, the table runs on a. The invitation
    made through a reaches it; its match's start and end too; a and b both see it online; a stream opened on b
    later announces the match in play on a."""
    monkeypatch.setattr(router_module, "KEEP_EVERY", 0.2)

    async def body() -> None:
        a_name, b_name = names()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        ana, _ = await a.accounts.sign_up("ana", "password1")
        robo, _ = await a.accounts.sign_up("robo", "password1", bot=True)
        table = await a.tables.create(ana, "individual", 2, {"target": 10, "pause_seconds": 0}, False)
        await table.join(ana, 0, None)
        assert not await a.bot_hub.online(robo.id)
        events = b.bot_hub.events(robo)
        first = asyncio.ensure_future(anext(events))
        await until(lambda: a.bot_hub.online(robo.id), timeout=10)  # shown by b, seen by a
        assert await b.bot_hub.online(robo.id)
        invitation = await a.bot_hub.invite(ana, table.id, "robo", 1)  # made on a, where the table runs
        got = await asyncio.wait_for(first, 5)
        assert got is not None and got["type"] == "invitation" and got["id"] == invitation.id
        assert got["table"] == table.id and got["seat"] == 1
        assert await b.bot_hub.accept(robo, invitation.id) == {"table": table.id, "seat": 1}  # through b
        assert table.state.seats[1].player == robo.id
        await table.start(ana)
        started = await asyncio.wait_for(anext(events), 5)
        assert started == {"type": "tableStart", "table": table.id, "match": 1, "variant": "individual", "seat": 1}
        # A second stream, opened on b while the match runs on a: it hears of it first thing.
        again = b.bot_hub.events(robo)
        announced = await asyncio.wait_for(anext(again), 5)
        assert announced == started
        await again.aclose()
        await play_out(table, {ana.id: ana, robo.id: robo})
        finished = await asyncio.wait_for(anext(events), 5)
        while finished is None:  # a keep-alive
            finished = await asyncio.wait_for(anext(events), 5)
        assert finished["type"] == "tableFinish" and finished["table"] == table.id
        await events.aclose()
        await until(lambda: _not(a.bot_hub.online(robo.id)), timeout=10)
        await a.close()
        await b.close()

    run_async(body())


async def _not(got: Any) -> bool:
    return not await got


def test_an_invitation_asked_of_another_node_is_checked_where_the_table_runs(empty_store_url: str) -> None:
    async def body() -> None:
        a_name, b_name = names()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        ana, _ = await a.accounts.sign_up("ana", "password1")
        await a.accounts.sign_up("robo", "password1", bot=True)
        table = await a.tables.create(ana, "dominousa", None, OPTIONS, False)
        await table.join(ana, 0, None)
        with pytest.raises(ServiceError) as refused:
            await b.bot_hub.invite(SEATS[1], table.id, "robo", None)  # not at the table
        assert refused.value.code == "forbidden"
        with pytest.raises(ServiceError) as taken:
            await b.bot_hub.invite(ana, table.id, "robo", 0)
        assert taken.value.code == "taken"
        invitation = await b.bot_hub.invite(ana, table.id, "robo", 2)
        assert (invitation.table, invitation.seat, invitation.variant) == (table.id, 2, "dominousa")
        assert invitation.options == table.state.options and not invitation.rated
        assert table.state.seats[2].empty  # an invitation sits nobody down
        await a.close()
        await b.close()

    run_async(body())


def test_a_rename_asked_of_one_node_reaches_the_tables_of_every_node(empty_store_url: str) -> None:
    async def body() -> None:
        a_name, b_name = names()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        on_a = await a.tables.create(SEATS[0], "dominousa", None, OPTIONS, False)
        on_b = await b.tables.create(SEATS[0], "amazonense", None, {}, False)
        await on_a.join(SEATS[0], 0, None)
        await on_b.join(SEATS[0], 1, None)
        renamed, _ = await b.rename(SEATS[0], "Ana Maria")
        assert renamed.name == "Ana Maria" and on_b.state.seats[1].name == "Ana Maria"
        await until(lambda: on_a.state.seats[0].name == "Ana Maria", timeout=10)  # told over Redis
        await a.close()
        await b.close()

    run_async(body())


def test_the_people_online_are_counted_on_every_node_each_once(
    empty_store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22, item 9: who is online is shown per node in Redis, as the lobby is; a person seen by two nodes
    counts once, a bot account not at all, and a node that retires takes its people with it."""
    monkeypatch.setattr(router_module, "KEEP_EVERY", 0.2)

    async def body() -> None:
        a_name, b_name = names()
        a, b = await node(empty_store_url, a_name), await node(empty_store_url, b_name)
        a.presence.connected(SEATS[0])  # a websocket open on a
        a.presence.seen(SEATS[1])  # the lobby asked a
        b.presence.seen(SEATS[1])  # … and b
        b.presence.connected(Identity("bot-1", "Boto", guest=False, bot=True))
        assert await a.online(None) >= 2
        await until(lambda: _is(b.online(SEATS[2]), 3), timeout=10)  # Caio asks b: he is seen there
        await until(lambda: _is(a.online(None), 3), timeout=10)
        a.presence.disconnected(SEATS[0])  # still online a while (a page reloading reconnects)
        assert SEATS[0].id in a.presence.here()
        await a.close()  # a retires: Ana was only there
        assert await b.online(None) == 2
        await b.close()

    run_async(body())


async def _is(got: Any, want: int) -> bool:
    return bool(await got == want)
