"""Rated quick play: near ratings are seated together first; the range widens with the wait."""

from __future__ import annotations

import datetime as dt

import pytest

from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform
from capicua.service.quickplay import acceptable
from tests.aio import run_async
from tests.service.test_tournaments import Clock, with_platform


async def rate(platform: Platform, who: Identity, game: str, rating: float) -> None:
    """Give ``who`` a rating (as if he had played)."""
    await platform.store.ratings.apply(
        [],
        [
            {
                "player_id": who.id,
                "game": game,
                "rating": rating,
                "mu": 25 + (rating - 1500) / 30,
                "sigma": 4.0,
                "games": 30,
                "wins": 15,
                "updated_at": dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
            }
        ],
    )


def test_acceptable_widens_with_the_wait() -> None:
    assert acceptable(1500, 1600, 0) and not acceptable(1500, 1601, 0)
    assert acceptable(1500, 1700, 10) and not acceptable(1500, 1701, 10)
    assert acceptable(1500, 2500, 60)


def test_near_ratings_are_seated_first_and_a_far_player_after_waiting(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        people = [Identity(f"a:qp{k}", f"P{k}", guest=False) for k in range(6)]
        for who, rating in zip(people, (1500, 1540, 1900, 1560, 1520, 1950), strict=True):
            await rate(platform, who, "dominousa", rating)
        tickets = [await platform.quickplay.join(who, "dominousa") for who in people]
        # The four near 1500 form a group as soon as the fourth arrives; 1900 and 1950 wait.
        states = [await platform.quickplay.status(who, t["ticket"]) for who, t in zip(people, tickets, strict=True)]
        seated = [s for s in states if s["state"] == "seated"]
        assert sorted(s["rating"] for s in seated) == [1500, 1520, 1540, 1560]
        assert len({s["table"] for s in seated}) == 1
        table = platform.tables.get(seated[0]["table"])
        assert table.state.rated and table.status == "playing"
        ratings = [seat.rating["rating"] for seat in table.state.seats if seat.rating]
        assert ratings[0] + ratings[2] == ratings[1] + ratings[3] == 3060  # balanced: 1560+1500 v 1540+1520
        waiting = [s for s in states if s["state"] == "waiting"]
        assert [s["rating"] for s in waiting] == [1900, 1950] and waiting[0]["range"] == 100

    run_async(with_platform(empty_store_url, body))


def test_individual_pairs_two_and_the_range_grows(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        ana, bia = Identity("a:qa", "Ana", guest=False), Identity("a:qb", "Bia", guest=False)
        await rate(platform, ana, "individual", 1500)
        await rate(platform, bia, "individual", 1800)
        first = await platform.quickplay.join(ana, "individual")
        second = await platform.quickplay.join(bia, "individual")
        assert first["state"] == second["state"] == "waiting"  # 300 apart
        clock.now += dt.timedelta(seconds=21)  # now each accepts 100 + 210 = 310
        status = await platform.quickplay.status(ana, first["ticket"])
        assert status["state"] == "seated" and status["table"]
        assert (await platform.quickplay.status(bia, second["ticket"]))["table"] == status["table"]

    run_async(with_platform(empty_store_url, body))


def test_guests_and_strangers(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        with pytest.raises(ServiceError) as exc:
            await platform.quickplay.join(Identity("g:x", "Guest"), "dominousa")
        assert exc.value.code == "accounts-only"
        ana = Identity("a:qz", "Ana", guest=False)
        ticket = await platform.quickplay.join(ana, "amazonense")
        with pytest.raises(ServiceError) as exc:
            await platform.quickplay.status(Identity("a:other", "Eve", guest=False), ticket["ticket"])
        assert exc.value.code == "not-found"
        await platform.quickplay.leave(ana, ticket["ticket"])
        with pytest.raises(ServiceError):
            await platform.quickplay.status(ana, ticket["ticket"])

    run_async(with_platform(empty_store_url, body))
