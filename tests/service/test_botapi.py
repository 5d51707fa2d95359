"""The bot API's service side: bot accounts at rated tables (D1: not rated among people unless the table says
so), the hub's invitations and events, and the table stream's seat views."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest

from capicua.rules.hand import SeatView
from capicua.service.botapi.hub import INVITATION_TTL
from capicua.service.bus import MatchEnded
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform
from capicua.service.store import Store
from capicua.service.tables import Table, TableConfig
from tests.aio import run_async


async def with_platform(url: str, body: Any) -> Any:
    platform = Platform(Store(url), "s", TableConfig(bot_delay=0, bot_workers=0, call_grace=0))
    await platform.open()
    try:
        return await body(platform)
    finally:
        await platform.close()


async def play_out(table: Table, people: dict[str, Identity]) -> None:
    for _ in range(3000):
        match = table.match
        if table.status != "playing" or match is None:
            return
        if match.is_over() or match.needs_deal():
            await table.runner.after_action_locked()
            continue
        hand = match.hand
        await table.act(people[table.state.seats[hand.turn].player or ""], str(hand.legal_moves[0]))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("bots_rated", [False, True])
def test_D1_a_bot_account_among_people_is_rated_only_where_the_table_says_so(
    empty_store_url: str, bots_rated: bool
) -> None:
    async def body(platform: Platform) -> None:
        ended: list[MatchEnded] = []

        async def seen(event: MatchEnded) -> None:
            ended.append(event)

        platform.bus.subscribe(MatchEnded.topic, seen)
        ana, _ = await platform.accounts.sign_up("ana", "password1")
        robo, _ = await platform.accounts.sign_up("robo", "password1", bot=True)
        assert robo.bot and not ana.bot
        table = await platform.tables.create(
            ana, "individual", 2, {"target": 10, "pause_seconds": 0}, False, rated=True, bots_rated=bots_rated
        )
        await table.join(ana, 0, None)
        await table.join(robo, 1, None)
        await table.start(ana)
        await play_out(table, {ana.id: ana, robo.id: robo})
        assert ended and ended[-1].rated is bots_rated
        changes = await platform.store.ratings.applied(ended[-1].match_id)
        assert bool(changes) is bots_rated

    run_async(with_platform(empty_store_url, body))


def test_invitations_events_and_a_table_stream_with_the_seats_view(empty_store_url: str) -> None:
    async def body(platform: Platform) -> None:
        hub = platform.bot_hub
        ana, _ = await platform.accounts.sign_up("ana", "password1")
        robo, _ = await platform.accounts.sign_up("robo", "password1", bot=True)
        with pytest.raises(ServiceError) as err:
            hub.events(ana)
        assert err.value.code == "forbidden"
        events = hub.events(robo)
        first = asyncio.ensure_future(anext(events))
        await asyncio.sleep(0)
        assert await hub.online(robo.id)
        table = await platform.tables.create(ana, "individual", 2, {"target": 10, "pause_seconds": 0}, True)
        await table.join(ana, 0, table.state.invite)
        invitation = await hub.invite(ana, table.id, "ROBO", None)
        got = await asyncio.wait_for(first, 5)
        assert got is not None and got["type"] == "invitation" and got["id"] == invitation.id
        assert got["from"] == {"id": ana.id, "name": "ana"} and got["variant"] == "individual"
        with pytest.raises(ServiceError):
            await hub.accept(ana, invitation.id)  # not his invitation
        assert await hub.accept(robo, invitation.id) == {"table": table.id, "seat": 1}  # a private table too
        with pytest.raises(ServiceError):
            await hub.accept(robo, invitation.id)  # once
        await table.start(ana)
        started = await asyncio.wait_for(anext(events), 5)
        assert started == {"type": "tableStart", "table": table.id, "match": 1, "variant": "individual", "seat": 1}
        frames = await hub.table_stream(robo, table.id)
        full = await asyncio.wait_for(anext(frames), 5)
        assert full is not None and full["type"] == "state"
        view = SeatView.from_json(full["view"])
        match = table.match
        assert match is not None and view == match.hand.view(1)  # exactly the engine's view of his seat
        assert full["state"]["hand"]["tiles"] == full["view"]["tiles"]
        await play_out(table, {ana.id: ana, robo.id: robo})
        seen = [f async for f in frames if f is not None]
        assert seen[-1]["type"] == "event" and seen[-1]["event"]["kind"] == "end"  # the stream ends with the match
        finished = await asyncio.wait_for(anext(events), 5)
        assert finished is not None and finished["type"] == "tableFinish" and finished["table"] == table.id
        await events.aclose()
        assert not await hub.online(robo.id)

    run_async(with_platform(empty_store_url, body))


def test_an_invitation_outlives_a_restart_is_answered_once_and_goes_stale(empty_store_url: str) -> None:
    """Invitations are kept in the database: the bot that connects after a restart still gets one (and can sit
    down); one answer only; one older than INVITATION_TTL is neither sent nor accepted."""

    async def invite(platform: Platform) -> tuple[str, str, str]:
        ana, _ = await platform.accounts.sign_up("ana", "password1")
        await platform.accounts.sign_up("robo", "password1", bot=True)
        table = await platform.tables.create(ana, "individual", 3, {"target": 10}, False)
        await table.join(ana, 0, None)
        first = await platform.bot_hub.invite(ana, table.id, "robo", 2)
        second = await platform.bot_hub.invite(ana, table.id, "robo", None)
        return table.id, first.id, second.id

    table_id, first, second = run_async(with_platform(empty_store_url, invite))

    async def after_restart(platform: Platform) -> None:
        hub = platform.bot_hub
        robo, _ = await platform.accounts.log_in("robo", "password1")
        events = hub.events(robo)
        got: list[Any] = [await asyncio.wait_for(anext(events), 5) for _ in range(2)]
        await events.aclose()
        assert [g["id"] for g in got if g] == [first, second]
        assert got[0] is not None and got[0]["seat"] == 2 and got[0]["from"]["name"] == "ana"
        assert await hub.accept(robo, first) == {"table": table_id, "seat": 2}
        with pytest.raises(ServiceError) as again:
            await hub.decline(robo, first)
        assert again.value.code == "not-found"
        # Five minutes later the other one is stale: not pending, not to be accepted.
        later = hub.clock() + INVITATION_TTL + dt.timedelta(seconds=1)
        hub.clock = lambda: later
        assert await hub.pending(robo.id) == []
        with pytest.raises(ServiceError) as stale:
            await hub.accept(robo, second)
        assert stale.value.code == "not-found"

    run_async(with_platform(empty_store_url, after_restart))
