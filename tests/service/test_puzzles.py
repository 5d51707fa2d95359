"""Puzzles kept and rated (capicua.service.puzzles, store/puzzles.py), on SQLite and PostgreSQL: ratings move as
Glicko-2 says (the glicko2 package's own computation), an account's first try counts once, a guest's rating is
his page's and leaves the puzzle's alone, the next puzzle is near the person's rating, the daily one is fixed for
the day, only public matches are drawn from."""

from __future__ import annotations

import datetime as dt
import functools
import random

import glicko2
import pytest

from capicua.bots.puzzles import Found, puzzles_of_record
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.puzzles import PUZZLE_START, START, Puzzles, rate
from capicua.service.store import Store
from capicua.service.store.puzzles import Glicko, NewPuzzle
from tests.aio import run_async
from tests.bots.test_puzzles import SMALL, greedy_record
from tests.service.conftest import opened

ANA = Identity("a:ana", "Ana", guest=False)
GUEST = Identity("g:xyz", "Guest", guest=True)


@functools.cache
def found_puzzles() -> list[Found]:
    out: list[Found] = []
    for seed in range(8):
        out += puzzles_of_record(greedy_record("individual", 2, seed), SMALL)
        if len(out) >= 3:
            return out
    raise AssertionError("too few puzzles")


def new_puzzle(i: int, f: Found) -> NewPuzzle:
    return NewPuzzle(
        f"s{i}:individual:{f.decision}",
        "individual",
        "self-play",
        None,
        i,
        f.decision,
        f.hand,
        f.action,
        f.puzzle.themes,
        f.puzzle.to_json(),
    )


def test_glicko2_as_the_library_computes_it() -> None:
    """The library against Glickman's worked example (1500/200 against 1400/30 won, 1550/100 and 1700/300 lost:
    1464.06, 151.52), then each side of a solve exactly as the library rates one game of each."""
    p = glicko2.Player(1500, 200, 0.06)
    p.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert p.rating == pytest.approx(1464.06, abs=0.01) and p.rd == pytest.approx(151.52, abs=0.01)
    person, puzzle = Glicko(1500, 200, 0.06), Glicko(1400, 30, 0.06)
    mine, its = rate(person, puzzle, won=True)
    q = glicko2.Player(1500, 200, 0.06)
    q.update_player([1400], [30], [1])
    r = glicko2.Player(1400, 30, 0.06)
    r.update_player([1500], [200], [0])
    assert (mine.rating, mine.rd, mine.vol) == (q.rating, q.rd, q.vol)
    assert (its.rating, its.rd, its.vol) == (r.rating, r.rd, r.vol)


def test_ratings_move_the_way_they_should() -> None:
    """Solving a harder puzzle gains more than an easier one, failing an easy one loses more than a hard one, the
    puzzle moves the other way, and a new person (wide deviation) moves more than a settled one."""
    me = Glicko(1500, 80, 0.06)
    hard, easy = Glicko(1800, 80, 0.06), Glicko(1200, 80, 0.06)
    gain_hard = rate(me, hard, True)[0].rating - me.rating
    gain_easy = rate(me, easy, True)[0].rating - me.rating
    assert gain_hard > gain_easy > 0
    loss_easy = rate(me, easy, False)[0].rating - me.rating
    loss_hard = rate(me, hard, False)[0].rating - me.rating
    assert loss_easy < loss_hard < 0
    assert rate(me, hard, True)[1].rating < hard.rating < rate(me, hard, False)[1].rating
    assert rate(START, hard, True)[0].rating - START.rating > gain_hard


def test_puzzles_are_kept_once_served_near_the_rating_and_rated_on_the_first_try(empty_store_url: str) -> None:
    found = found_puzzles()

    async def body() -> None:
        async with opened(empty_store_url) as store:
            service = Puzzles(store.puzzles, random.Random(1))  # an empty database: these are all its puzzles
            ids = []
            for i, (f, r) in enumerate(zip(found, (1200.0, 1500.0, 1900.0), strict=False)):
                pid = await store.puzzles.add(new_puzzle(i, f), Glicko(r, 300, 0.06))
                assert pid is not None
                ids.append(pid)
            assert await store.puzzles.add(new_puzzle(0, found[0]), PUZZLE_START) is None  # the same source
            assert await store.puzzles.count() == 3
            # Near the rating: a guest at 1850 gets the 1900 one first of the three nearest's first.
            near = await store.puzzles.near(1850, None, [])
            assert [p.id for p in near] == [ids[2], ids[1], ids[0]]
            assert [p.id for p in await store.puzzles.near(1850, None, [ids[2]])] == [ids[1], ids[0]]
            # An account's first try counts, for both, as Glicko-2 says; the second changes nothing.
            row = await service.get(ids[1])
            p = found[1].puzzle
            wrong = next(m.move for m in p.moves if m.move not in p.answers)
            solved = await service.solve(ids[1], wrong, ANA)
            assert not solved.right and solved.rated and solved.answer == p.answers[0]
            mine, its = rate(START, Glicko(row.rating, row.rd, row.vol), False)
            kept = await store.puzzles.rating_of(ANA.id)
            assert kept is not None and (kept.rating, kept.rd, kept.plays) == (mine.rating, mine.rd, 1)
            after = await service.get(ids[1])
            assert (after.rating, after.plays) == (its.rating, 1) and after.rating > row.rating
            again = await service.solve(ids[1], p.answers[0], ANA)
            assert again.right and not again.rated and again.change == 0
            assert (await store.puzzles.rating_of(ANA.id)).rating == mine.rating  # type: ignore[union-attr]
            # Tried: not served to him again.
            for _ in range(5):
                assert (await service.next(ANA, None, [])).id != ids[1]
            # A guest: his page's rating in, the new one out; the puzzle's stays.
            before = await service.get(ids[0])
            g = Glicko(1450, 120, 0.06)
            guest = await service.solve(ids[0], found[0].puzzle.answers[0], GUEST, g)
            assert guest.right and guest.rating == rate(g, Glicko(before.rating, before.rd, before.vol), True)[0]
            assert (await service.get(ids[0])).rating == before.rating
            assert await store.puzzles.rating_of(GUEST.id) is None
            # A move that is not one of the puzzle's: refused, nothing changed.
            with pytest.raises(ServiceError) as err:
                await service.solve(ids[2], "0-0 L", ANA)
            assert err.value.code == "invalid"
            with pytest.raises(ServiceError):
                await service.solve(ids[2], found[2].puzzle.answers[0], GUEST, Glicko(1500, 900, 0.06))
            assert await store.puzzles.tried(ANA.id, ids[2]) is None
            # The daily puzzle: the same all day, there every day.
            day = dt.date(2026, 12, 6)
            assert (await service.daily(day)).id == (await service.daily(day)).id
            assert {(await service.daily(day + dt.timedelta(days=n))).id for n in range(10)} <= set(ids)

    run_async(body())


def test_only_public_finished_matches_are_drawn_from(store_url: str) -> None:
    record = greedy_record("amazonense", 4, 1).to_json()

    async def body() -> None:
        async with opened(store_url) as store:
            assert isinstance(store, Store)
            public = await store.events.create_table("amazonense", 4, {"target": 50}, False, "ana")
            private = await store.events.create_table("amazonense", 4, {"target": 50}, True, "ana")
            a = await store.records.save(public.id, 1, "amazonense", record["players"], 0, record)
            b = await store.records.save(private.id, 1, "amazonense", record["players"], 0, record)
            drawn = [r.id for r in await store.puzzles.public_records(1000)]
            assert a in drawn and b not in drawn  # (this session's database may hold other tests' records)

    run_async(body())


def test_no_puzzle_yet_is_not_found(empty_store_url: str) -> None:
    async def body() -> None:
        async with opened(empty_store_url) as store:
            service = Puzzles(store.puzzles)
            for ask in (service.next(None, None, []), service.daily(dt.date(2026, 1, 1)), service.get(9)):
                with pytest.raises(ServiceError) as err:
                    await ask
                assert err.value.code == "not-found"

    run_async(body())
