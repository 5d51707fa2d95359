"""Conduct (issue 21): playbans from abandoned rated matches, moderators' actions with their log, and the flags
of repeated 2-player pairings beyond the D5 decay; on SQLite and on PostgreSQL, through the ratings' listener
of MatchEnded (which marks an abandonment) and the conduct service over the same store."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from capicua.service.conduct import FOREVER, LADDER, MEMORY, Conduct, Playban, playban
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.ratings.points import FARM_LIMIT
from capicua.service.ratings.service import Ratings
from capicua.service.store import Store
from tests.aio import run_async
from tests.service.conftest import opened
from tests.service.test_ratings import MONDAY, Clock, ended, fresh

MINUTE = dt.timedelta(minutes=1)


async def with_conduct(url: str, body: Callable[[Ratings, Conduct, Store, Clock], Awaitable[Any]]) -> Any:
    clock = Clock(MONDAY)
    async with opened(url) as store:
        ratings = Ratings(store.ratings, store.accounts.names, clock=clock)
        return await body(ratings, Conduct(store.conduct, clock), store, clock)


async def accounts(store: Store, ids: list[str]) -> None:
    for player_id in ids:
        assert await store.accounts.add(player_id, player_id.replace(":", "-"), player_id[-8:], "x")


async def abandon(ratings: Ratings, players: list[str], seat: int, clock: Clock, rated: bool = True) -> None:
    """A rated 2-player individual match that ``players[seat]`` abandoned, now."""
    await ratings.on_match_ended(ended("individual", players, 1 - seat, 1, clock.now, rated=rated, abandoned_by=seat))


# -- the ladder ----------------------------------------------------------------------------------------------
def length(ban: Playban) -> dt.timedelta:
    return dt.timedelta(0) if ban.until is None else ban.until - ban.at


@given(st.lists(st.integers(min_value=0, max_value=7 * 24 * 60 - 1), min_size=1, max_size=8))
def test_the_latest_abandonment_of_the_week_sets_the_playban_by_the_ladder(minutes_ago: list[int]) -> None:
    now = MONDAY
    times = [now - dt.timedelta(minutes=m) for m in minutes_ago]
    ban = playban(times, now)
    assert ban is not None and ban.count == len(times) and ban.at == max(times)
    wait = LADDER[min(len(times), len(LADDER)) - 1]
    assert ban.until == (None if not wait else ban.at + wait)
    # One more now is never a shorter playban, and closes play from now on from the second one on.
    more = playban([*times, now], now)
    assert more is not None and more.count == ban.count + 1
    assert length(more) >= length(ban)
    assert more.active(now) == (more.count >= 2)


def test_abandonments_older_than_a_week_are_forgotten() -> None:
    assert playban([MONDAY - MEMORY], MONDAY) is None
    ban = playban([MONDAY - MEMORY, MONDAY - MEMORY + MINUTE, MONDAY], MONDAY)
    assert ban is not None and ban.count == 2  # the oldest is out: the second offence, 15 minutes


# -- playbans through the store ---------------------------------------------------------------------------------
def test_abandoning_rated_matches_escalates_warning_15_min_1_hour_1_day(store_url: str) -> None:
    async def body(ratings: Ratings, conduct: Conduct, store: Store, clock: Clock) -> list[Any]:
        eva, ivo = fresh("eva", 1)[0], fresh("ivo", 1)[0]
        await accounts(store, [eva, ivo])
        seen: list[int | None] = []
        for _ in range(4):
            await abandon(ratings, [eva, ivo], 0, clock)
            try:
                await conduct.check_rated(eva)
                seen.append(None)
            except ServiceError as exc:
                assert exc.code == "playban" and "casual tables are open" in exc.message
                seen.append(round(exc.retry_after or 0))
            await conduct.check_rated(ivo)  # the one who stayed is never touched
            ban = await conduct.playban_of(eva)
            assert ban is not None
            clock.now = (ban.until or clock.now) + MINUTE  # the next one comes once this one is over
        standing = await conduct.standing(eva)
        return [seen, standing["playban"], standing["ladder_minutes"]]

    seen, last, ladder = run_async(with_conduct(store_url, body))
    assert seen == [None, 15 * 60, 60 * 60, 24 * 60 * 60]
    assert last["abandonments"] == 4 and last["minutes"] == 24 * 60 and not last["active"]
    assert ladder == [0, 15, 60, 1440]


def test_only_rated_abandonments_count_and_a_moderator_may_lift_a_playban(store_url: str) -> None:
    async def body(ratings: Ratings, conduct: Conduct, store: Store, clock: Clock) -> None:
        eva, ivo, mod = fresh("eva", 1)[0], fresh("ivo", 1)[0], fresh("mod", 1)[0]
        await accounts(store, [eva, ivo, mod])
        for _ in range(3):
            await abandon(ratings, [eva, ivo], 0, clock, rated=False)  # casual: no offence
        await conduct.check_rated(eva)
        await abandon(ratings, [eva, ivo], 0, clock)
        clock.now += MINUTE
        await abandon(ratings, [eva, ivo], 0, clock)
        with pytest.raises(ServiceError, match="rated play opens again"):
            await conduct.check_rated(eva)
        moderator = Identity(mod, "Mod", guest=False)
        with pytest.raises(ServiceError) as refused:
            await conduct.act(moderator, eva, "lift-playban", "first week here")
        assert refused.value.code == "forbidden"  # not a moderator yet
        await conduct.act(None, mod, "grant-admin", "the operator names her")
        clock.now += MINUTE
        standing = await conduct.act(moderator, eva, "lift-playban", "her connection dropped, she wrote to us")
        assert standing["playban"] is None
        await conduct.check_rated(eva)
        await abandon(ratings, [eva, ivo], 0, clock)  # the count starts again: a warning
        await conduct.check_rated(eva)
        log = await conduct.log(eva)
        assert [(e["action"], e["by"]["id"], e["reason"]) for e in log] == [
            ("lift-playban", mod, "her connection dropped, she wrote to us")
        ]
        assert (await conduct.log(mod))[0]["by"] is None  # the operator

    run_async(with_conduct(store_url, body))


# -- moderation ---------------------------------------------------------------------------------------------------
def test_every_moderators_action_needs_a_reason_and_is_logged(store_url: str) -> None:
    async def body(ratings: Ratings, conduct: Conduct, store: Store, clock: Clock) -> None:
        eva, mod = fresh("eva", 1)[0], fresh("mod", 1)[0]
        await accounts(store, [eva, mod])
        await conduct.act(None, mod, "grant-admin", "the operator names her")
        moderator = Identity(mod, "Mod", guest=False)
        for action, reason, hours, code in [
            ("ban", "  ", None, "invalid"),
            ("ban", "spam", -1.0, "invalid"),
            ("promote", "no such action", None, "invalid"),
            ("ban", "myself", None, "forbidden"),
        ]:
            target = mod if reason == "myself" else eva
            with pytest.raises(ServiceError) as refused:
                await conduct.act(moderator, target, action, reason, hours)
            assert refused.value.code == code
        with pytest.raises(ServiceError) as unknown:
            await conduct.act(moderator, "g:a-guest", "mute", "guests keep nothing")
        assert unknown.value.code == "not-found"
        assert await conduct.log(eva) == []  # nothing refused was done, nor logged
        muted = await conduct.act(moderator, eva, "mute", "insults at the table", 2)
        assert muted["muted_until"] == (clock.now + dt.timedelta(hours=2)).astimezone(dt.UTC).isoformat()
        with pytest.raises(ServiceError) as silenced:
            await conduct.check_chat(eva)
        assert silenced.value.code == "muted"
        clock.now += dt.timedelta(hours=2, minutes=1)
        await conduct.check_chat(eva)  # the mute ran out
        banned = await conduct.act(moderator, eva, "ban", "a second account to farm points")
        assert banned["banned_until"] == FOREVER.isoformat()
        hidden = await conduct.act(moderator, eva, "hide-name", "an insult as a name")
        row = await store.accounts.by_id(eva)
        assert row is not None and row.name_hidden and hidden["name_hidden"] and row.name != eva[-8:]
        with pytest.raises(ServiceError, match="hid this account's name"):
            await conduct.check_rename(Identity(eva, row.name, guest=False))
        await conduct.act(moderator, eva, "show-name", "she wrote to us")
        await conduct.check_rename(Identity(eva, row.name, guest=False))
        log = await conduct.log(eva)
        assert [e["action"] for e in log] == ["show-name", "hide-name", "ban", "mute"]
        assert all(e["by"] == {"id": mod, "name": mod[-8:]} and e["reason"] for e in log)
        assert log[2]["until"] == FOREVER.isoformat() and log[0]["until"] is None
        everybody = await conduct.log(None)
        assert {e["action"] for e in everybody} >= {"grant-admin", "ban", "mute"}

    run_async(with_conduct(store_url, body))


# -- flags ---------------------------------------------------------------------------------------------------------
def test_B8_D5_repeated_two_player_pairings_beyond_the_decay_are_flagged(store_url: str) -> None:
    async def body(ratings: Ratings, conduct: Conduct, store: Store, clock: Clock) -> dict[str, Any]:
        ana, bia, caio, davi = fresh("p", 4)
        await accounts(store, [ana, bia, caio, davi])
        start = clock.now
        for k in range(FARM_LIMIT + 2):  # Ana beats Bia 6 times in 3 hours: the last 2 paid nothing (B8)
            clock.now = start + k * 30 * MINUTE
            await ratings.on_match_ended(ended("individual", [ana, bia], 0, k + 1, clock.now))
        for k in range(FARM_LIMIT):  # Caio and Davi meet 4 times: within the decay, not flagged
            clock.now = start + k * 30 * MINUTE
            await ratings.on_match_ended(ended("individual", [caio, davi], k % 2, k + 1, clock.now))
        for k in range(FARM_LIMIT + 2):  # Caio and Ana once a day: each paid in full
            clock.now = start + k * dt.timedelta(hours=25)
            await ratings.on_match_ended(ended("individual", [caio, ana], 0, k + 1, clock.now))
        flags: dict[str, Any] = await conduct.flags()
        return {"flags": flags, "players": [ana, bia]}

    result = run_async(with_conduct(store_url, body))
    flags, (ana, bia) = result["flags"], result["players"]
    mine = [f for f in flags["repeated_pairings"] if set(f["players"]) & {ana, bia}]
    assert len(mine) == 1 and sorted(mine[0]["players"]) == sorted([ana, bia])
    assert mine[0]["beyond_decay"] == 2 and mine[0]["matches"] == FARM_LIMIT + 2
    assert mine[0]["wins"] == {ana: FARM_LIMIT + 2, bia: 0}
    assert flags["names"][ana] == ana[-8:]
