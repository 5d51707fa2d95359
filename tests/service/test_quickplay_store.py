"""The quick-play tickets' store on SQLite and on PostgreSQL (``store_url`` runs each test on both).

One waiting ticket a player (a new join replaces it, the database refuses a second), a group claimed all or
nothing, and claims racing from two stores (two nodes) that never give a ticket two tables.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from functools import partial

import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from capicua.service.store import Store
from capicua.service.store.schema import QuickPlayTicketRow
from tests.aio import run_async
from tests.service.conftest import opened

T0 = dt.datetime(2030, 3, 10, 19, 0, tzinfo=dt.UTC)


def ticket(player: str, game: str, seconds: float = 0.0, rating: float = 1500.0) -> QuickPlayTicketRow:
    at = T0 + dt.timedelta(seconds=seconds)
    return QuickPlayTicketRow(
        id=secrets.token_urlsafe(9),
        player_id=player,
        player_name=player.upper(),
        guest=False,
        bot=False,
        game=game,
        rating=rating,
        since=at,
        seen=at,
        table_id=None,
    )


def fresh() -> tuple[str, str]:
    """A game name and a player prefix of this test's own (the PostgreSQL database is the session's)."""
    tag = secrets.token_hex(4)
    return f"g{tag}", f"a:{tag}"


async def new_table(store: Store) -> str:
    return (await store.events.create_table("dominousa", 4, {}, False, "a:owner", rated=True)).id


def test_a_join_replaces_the_players_waiting_ticket_and_the_queue_reads_in_order(store_url: str) -> None:
    async def body() -> None:
        async with opened(store_url) as store:
            qp = store.quickplay
            game, p = fresh()
            first = await qp.join(partial(ticket, f"{p}1", game, 0))
            other = await qp.join(partial(ticket, f"{p}2", game, 1))
            again = await qp.join(partial(ticket, f"{p}1", game, 2))
            assert await qp.ticket(first.id) is None  # replaced
            assert [t.id for t in await qp.waiting(game)] == [other.id, again.id]  # the longest waiting first
            assert await qp.count_waiting(game) == 2 and game in await qp.games_waiting()
            got = await qp.ticket(again.id)
            assert got is not None and got.player_name == f"{p}1".upper()
            assert (got.since, got.table_id) == (again.since, None)
            # Seated, a ticket stays (pointing to its table) and no longer counts as waiting; a join then adds one.
            table = await new_table(store)
            assert await qp.claim([again.id], table)
            newer = await qp.join(partial(ticket, f"{p}1", game, 3))
            assert (await qp.ticket(again.id)).table_id == table  # type: ignore[union-attr]
            assert [t.id for t in await qp.waiting(game)] == [other.id, newer.id]

    run_async(body())


def test_the_database_refuses_a_second_waiting_ticket_for_a_player(store_url: str) -> None:
    async def body() -> None:
        async with opened(store_url) as store:
            game, p = fresh()
            await store.quickplay.join(partial(ticket, f"{p}1", game))
            row = ticket(f"{p}1", game, 5)
            values = {c.name: getattr(row, c.name) for c in QuickPlayTicketRow.__table__.columns if c.name != "n"}
            async with store.engine.begin() as conn:  # another player's is taken: the values are good
                await conn.execute(
                    insert(QuickPlayTicketRow).values({**values, "id": secrets.token_hex(6), "player_id": f"{p}0"})
                )
            with pytest.raises(IntegrityError):
                async with store.engine.begin() as conn:
                    await conn.execute(insert(QuickPlayTicketRow).values(values))
            assert [t.player_id for t in await store.quickplay.waiting(game)] == [f"{p}1", f"{p}0"]
            # Two joins of one player at once (two nodes): one waiting ticket is left, the later one's.
            async with opened(store_url) as a, opened(store_url) as b:
                for k in range(5):
                    await asyncio.gather(
                        a.quickplay.join(partial(ticket, f"{p}2", game, k)),
                        b.quickplay.join(partial(ticket, f"{p}2", game, k + 0.5)),
                    )
                    waiting = [t for t in await store.quickplay.waiting(game) if t.player_id == f"{p}2"]
                    assert len(waiting) == 1, waiting

    run_async(body())


def test_a_group_is_claimed_all_or_nothing(store_url: str) -> None:
    async def body() -> None:
        async with opened(store_url) as store:
            qp = store.quickplay
            game, p = fresh()
            rows = [await qp.join(partial(ticket, f"{p}{k}", game, k)) for k in range(5)]
            one, two = await new_table(store), await new_table(store)
            assert await qp.claim([rows[0].id, rows[1].id], one)
            # rows[1] is taken: the whole claim is refused, rows[2] and rows[3] still wait.
            assert not await qp.claim([rows[1].id, rows[2].id, rows[3].id], two)
            assert [t.id for t in await qp.waiting(game)] == [r.id for r in rows[2:]]
            # A ticket left meanwhile: refused too.
            assert await qp.leave(rows[4].id, f"{p}4")
            assert not await qp.claim([rows[3].id, rows[4].id], two)
            assert await qp.claim([rows[2].id, rows[3].id], two)
            tables = {r.id: (await qp.ticket(r.id)).table_id for r in rows[:4]}  # type: ignore[union-attr]
            assert tables == {rows[0].id: one, rows[1].id: one, rows[2].id: two, rows[3].id: two}
            assert await qp.waiting(game) == []
            # A seated ticket cannot be left, nor claimed again.
            assert not await qp.leave(rows[0].id, f"{p}0")
            assert not await qp.claim([rows[0].id], two)

    run_async(body())


def test_touch_leave_and_forget(store_url: str) -> None:
    async def body() -> None:
        async with opened(store_url) as store:
            qp = store.quickplay
            game, p = fresh()
            ana = await qp.join(partial(ticket, f"{p}ana", game))
            bia = await qp.join(partial(ticket, f"{p}bia", game))
            assert await qp.touch(ana.id, f"{p}bia", T0 + dt.timedelta(seconds=40)) is None  # not hers
            seen = await qp.touch(ana.id, f"{p}ana", T0 + dt.timedelta(seconds=40))
            assert seen is not None and seen.seen == T0 + dt.timedelta(seconds=40)
            assert not await qp.leave(bia.id, f"{p}ana")  # not hers either
            assert await qp.forget(T0 + dt.timedelta(seconds=30)) >= 1
            assert await qp.ticket(bia.id) is None  # not asked about since T0
            assert await qp.ticket(ana.id) is not None
            assert await qp.leave(ana.id, f"{p}ana")
            assert await qp.ticket(ana.id) is None and await qp.count_waiting(game) == 0
            assert game not in await qp.games_waiting()

    run_async(body())


def test_claims_racing_from_two_nodes_give_each_ticket_one_table(store_url: str) -> None:
    """Two stores (two nodes' engines) claim overlapping groups at once, many times: every ticket ends with
    the table of exactly one winning claim, and a claim that lost changed nothing."""

    async def body() -> None:
        async with opened(store_url) as a, opened(store_url) as b:
            game, p = fresh()
            for round_ in range(6):
                rows = [await a.quickplay.join(partial(ticket, f"{p}{round_}-{k}", game, k)) for k in range(6)]
                ids = [r.id for r in rows]
                groups = [ids[0:4], ids[2:6], ids[1:5], ids[4:6] + ids[0:2]]
                tables = [await new_table(a) for _ in groups]
                stores = [a, b, b, a]
                won = await asyncio.gather(
                    *(s.quickplay.claim(g, t) for s, g, t in zip(stores, groups, tables, strict=True))
                )
                winners = [k for k, w in enumerate(won) if w]
                assert winners, won
                claimed: dict[str, str] = {}
                for k in winners:
                    for i in groups[k]:
                        assert i not in claimed, "a ticket claimed by two winning claims"
                        claimed[i] = tables[k]
                for i in ids:
                    got = await a.quickplay.ticket(i)
                    assert got is not None and got.table_id == claimed.get(i)

    run_async(body())
