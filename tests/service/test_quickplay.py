"""Rated quick play: near ratings are seated together first; the range widens with the wait."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import secrets

import pytest

from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform
from capicua.service.quickplay import ANYONE_AFTER, FORGOTTEN_AFTER, Ticket, acceptable
from capicua.service.store import Store
from capicua.service.tables import TableConfig
from tests.aio import run_async
from tests.service.test_nodes import until
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


# -- several nodes on one database ----------------------------------------------------------------------------
CONFIG = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)


async def two_nodes(url: str, clock: Clock) -> tuple[Platform, Platform]:
    """Two platforms on one database, as two ``capicua serve`` (``qa-…`` sorts first: it leads)."""
    tag = secrets.token_hex(3)
    nodes = []
    for name in (f"qa-{tag}", f"qb-{tag}"):
        platform = Platform(Store(url), "s" * 40, CONFIG, clock=clock, node=name, sweeps=False, lease_seconds=60)
        await platform.open()
        nodes.append(platform)
    assert await nodes[0].node.leads() and not await nodes[1].node.leads()
    return nodes[0], nodes[1]


async def never() -> bool:
    return False


def people(n: int) -> list[Identity]:
    tag = secrets.token_hex(3)
    return [Identity(f"a:qn{tag}{k}", f"N{k}", guest=False) for k in range(n)]


def test_two_nodes_match_their_players_into_one_table_and_answer_for_each_others_tickets(
    empty_store_url: str,
) -> None:
    async def body() -> None:
        clock = Clock()
        a, b = await two_nodes(empty_store_url, clock)
        try:
            four = people(4)
            for who, rating in zip(four, (1500, 1520, 1540, 1560), strict=True):
                await rate(a, who, "dominousa", rating)
            # Three join through b, which does not lead: they wait, and b counts every node's players.
            tickets = [await b.quickplay.join(who, "dominousa") for who in four[:3]]
            assert [t["state"] for t in tickets] == ["waiting"] * 3 and tickets[2]["waiting"] == 3
            assert (await b.quickplay.status(four[0], tickets[0]["ticket"]))["state"] == "waiting"
            # The fourth joins through a, the leader: it matches them all, b's three included.
            tickets.append(await a.quickplay.join(four[3], "dominousa"))
            assert tickets[3]["state"] == "seated"
            table_id = tickets[3]["table"]
            for node in (a, b):
                for who, t in zip(four, tickets, strict=True):
                    status = await node.quickplay.status(who, t["ticket"])
                    assert (status["state"], status["table"]) == ("seated", table_id)
            table = a.tables.get(table_id)  # run by the leader, which made it
            assert table.state.rated and table.status == "playing"
            assert sorted(seat.player or "" for seat in table.state.seats) == sorted(who.id for who in four)
            assert table_id not in b.tables.tables
            assert (await b.store.events.table(table_id)).node == a.node.name  # type: ignore[union-attr]

            # A ticket joined on a is polled and left on b; a join on b replaces the one he had on a.
            eve, ivo = people(2)
            mine = await a.quickplay.join(eve, "amazonense")
            assert (await b.quickplay.status(eve, mine["ticket"]))["state"] == "waiting"
            with pytest.raises(ServiceError):
                await b.quickplay.status(ivo, mine["ticket"])  # not his
            await b.quickplay.leave(eve, mine["ticket"])
            for node in (a, b):
                with pytest.raises(ServiceError) as exc:
                    await node.quickplay.status(eve, mine["ticket"])
                assert exc.value.code == "not-found"
            first = await a.quickplay.join(ivo, "amazonense")
            second = await b.quickplay.join(ivo, "individual")
            with pytest.raises(ServiceError):
                await b.quickplay.status(ivo, first["ticket"])
            assert (await a.quickplay.status(ivo, second["ticket"]))["game"] == "individual"
            assert await a.store.quickplay.count_waiting("amazonense") == 0
        finally:
            await a.close()
            await b.close()

    run_async(body())


def test_the_leaders_sweep_seats_players_who_joined_elsewhere_and_forgets_the_silent(empty_store_url: str) -> None:
    """With the background loops on and nobody matching at the join: b's players are seated by the sweep of
    a, which leads (the table is a's), and a ticket nobody asks about is forgotten."""

    async def body() -> None:
        clock = Clock()
        tag = secrets.token_hex(3)
        nodes = []
        for name in (f"qa-{tag}", f"qb-{tag}"):
            platform = Platform(Store(empty_store_url), "s" * 40, CONFIG, clock=clock, node=name, lease_seconds=60)
            await platform.open()
            platform.quickplay.leads = never  # no matching at the join: only the sweeps
            nodes.append(platform)
        a, b = nodes
        try:
            pair, silent = people(2), people(1)[0]
            joined = [await b.quickplay.join(who, "individual") for who in pair]
            assert [t["state"] for t in joined] == ["waiting"] * 2
            lone = await b.quickplay.join(silent, "amazonense")

            async def seated() -> bool:
                states = [await b.quickplay.status(who, t["ticket"]) for who, t in zip(pair, joined, strict=True)]
                return all(s["state"] == "seated" for s in states)

            await until(seated)
            table_id = (await b.quickplay.status(pair[0], joined[0]["ticket"]))["table"]
            assert table_id in a.tables.tables and table_id not in b.tables.tables
            assert await a.store.quickplay.count_waiting("amazonense") == 1  # alone in his queue: he waits on
            clock.now += dt.timedelta(seconds=FORGOTTEN_AFTER + 1)

            async def forgotten() -> bool:
                return await a.store.quickplay.ticket(lone["ticket"]) is None

            await until(forgotten)
        finally:
            await a.close()
            await b.close()

    run_async(body())


def test_a_node_whose_claim_lost_discards_its_table_and_seats_nobody(empty_store_url: str) -> None:
    """b read the queue before a seated it (both believed they led): b's table is made, its claim refused, the
    table discarded (out of memory, finished in the store) and nobody seated there."""

    async def body() -> None:
        clock = Clock()
        a, b = await two_nodes(empty_store_url, clock)
        try:
            a.quickplay.leads = b.quickplay.leads = never
            pair = people(2)
            for who in pair:
                await a.quickplay.join(who, "individual")
            stale = [Ticket.of(row) for row in await b.store.quickplay.waiting("individual")]
            group = b.quickplay._best_group(stale, 2)
            assert group is not None and len(a.tables.tables) == len(b.tables.tables) == 0
            made = await a.quickplay.match("individual")
            assert len(made) == 1
            assert await b.quickplay._seat("individual", group) is None
            assert list(b.tables.tables) == []  # nothing of b's is left in memory or its lobby
            lost = [row for row in await b.store.events.tables(["open", "playing", "finished"]) if row.id != made[0]]
            assert [(row.node, row.status) for row in lost] == [(b.node.name, "finished")]
            assert {t.table for t in stale} == {None}
            for t in stale:
                assert (await b.store.quickplay.ticket(t.id)).table_id == made[0]  # type: ignore[union-attr]
            assert [seat.player for seat in a.tables.get(made[0]).state.seats] != [None, None]
        finally:
            await a.close()
            await b.close()

    run_async(body())


@pytest.mark.parametrize("game", ["dominousa", "individual"])
def test_concurrent_matching_on_two_nodes_never_seats_a_ticket_twice(empty_store_url: str, game: str) -> None:
    """Both nodes believe they lead and match the same queue at once, round after round (players of random
    ratings joining through either node): every ticket is seated at most once, every table made seats exactly
    the players whose tickets point to it, a table whose claim lost is discarded, and once anybody will do
    (ANYONE_AFTER) everyone is seated."""

    async def body() -> None:
        clock = Clock()
        a, b = await two_nodes(empty_store_url, clock)
        rng = random.Random(f"{game}-20")
        size = 4 if game == "dominousa" else 2
        try:
            a.quickplay.leads = b.quickplay.leads = never  # the joins match nothing: the test matches
            tickets: dict[str, Identity] = {}
            made: dict[str, Platform] = {}
            for round_ in range(4):
                for who in people(size * 3 + rng.randrange(size)):
                    await rate(a, who, game, rng.uniform(1200, 1800))
                    node = rng.choice((a, b))
                    tickets[(await node.quickplay.join(who, game))["ticket"]] = who
                    clock.now += dt.timedelta(seconds=rng.uniform(0, 3))
                if round_ == 3:
                    clock.now += dt.timedelta(seconds=ANYONE_AFTER)
                results = await asyncio.gather(
                    a.quickplay.match(game), b.quickplay.match(game), b.quickplay.match(game), a.quickplay.match(game)
                )
                for node, tables in zip((a, b, b, a), results, strict=True):
                    for table_id in tables:
                        assert table_id not in made, "one table reported twice"
                        made[table_id] = node
            rows = {t: await a.store.quickplay.ticket(t) for t in tickets}
            at: dict[str, set[str]] = {}
            for ticket_id, row in rows.items():
                assert row is not None
                if row.table_id is not None:
                    at.setdefault(row.table_id, set()).add(tickets[ticket_id].id)
            assert set(at) == set(made), "a ticket points to a table no winning claim made, or the reverse"
            seated_players: list[str] = []
            for table_id, node in made.items():
                table = node.tables.get(table_id)
                players = [seat.player for seat in table.state.seats]
                assert set(players) == at[table_id] and len(players) == size  # its own claimed players, all
                assert table.status == "playing"
                other = b if node is a else a
                assert table_id not in other.tables.tables
                seated_players += [p for p in players if p is not None]
            assert len(seated_players) == len(set(seated_players)), "a player seated twice"
            # Every table either node holds is one it made and claimed: the lost claims' were discarded.
            assert set(a.tables.tables) | set(b.tables.tables) == set(made)
            discarded = [row for row in await a.store.events.tables(["finished"]) if row.id not in made]
            assert discarded, "the nodes never raced for a group: the test proved nothing"
            assert await a.store.quickplay.count_waiting(game) < size  # anybody will do: all but a remainder
        finally:
            await a.close()
            await b.close()

    run_async(body())
