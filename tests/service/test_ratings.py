"""Ratings and rankings, D1–D5, with worked numbers: on SQLite and on PostgreSQL, through the ratings
service (the listener of MatchEnded) and its store."""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capicua.rules import Match, variants
from capicua.rules.randomgame import random_match
from capicua.rules.record import Record
from capicua.rules.variant import MatchOutcome, MatchTermination
from capicua.service.bus import MatchEnded
from capicua.service.errors import ServiceError
from capicua.service.ratings.model import BONUS_CAP, SCALE, Skill, amazonense_bonus, display, rate_teams
from capicua.service.ratings.points import STAKE, ranking_flows
from capicua.service.ratings.service import Ratings, seat_stats
from capicua.service.ratings.weekly import WeekChange, medalists, standings, week_bounds, week_start
from capicua.service.store import Store
from tests.aio import run_async

SP = dt.timezone(dt.timedelta(hours=-3))  # São Paulo has no summer time since 2019
MONDAY = dt.datetime(2026, 11, 30, 12, 0, tzinfo=SP)  # a Monday noon
TAG = secrets.token_hex(3)  # table ids of this run (the PostgreSQL database is shared by the session)


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def ended(
    game: str,
    players: list[str],
    winner: int,
    match_no: int,
    at: dt.datetime,
    table: str | None = None,
    record: dict[str, Any] | None = None,
    rated: bool = True,
    abandoned_by: int | None = None,
) -> MatchEnded:
    outcome = MatchOutcome(MatchTermination.TARGET, winner, (0,) * (2 if len(players) == 4 else len(players)))
    if record is None:
        m = Match(variants.get(game), players=len(players))
        record = Record.from_match(m, players).to_json()
    table = table or f"t-{secrets.token_hex(4)}"  # the PostgreSQL database is shared by the session's tests
    return MatchEnded(
        table, match_no, game, outcome, list(players), list(players), record, rated, abandoned_by, at.astimezone(dt.UTC)
    )


async def with_ratings(url: str, body: Callable[[Ratings, Clock], Awaitable[Any]], now: dt.datetime = MONDAY) -> Any:
    store = Store(url)
    await store.open()
    clock = Clock(now)
    try:
        return await body(Ratings(store.ratings, store.accounts.names, clock=clock), clock)
    finally:
        await store.close()


def fresh(prefix: str, n: int) -> list[str]:
    """Player ids of their own for one test (the PostgreSQL database is shared by the session)."""
    tag = secrets.token_hex(3)
    return [f"a:{prefix}{k}-{tag}" for k in range(n)]


# -- D1 --------------------------------------------------------------------------------------------------
def test_D1_a_rated_match_changes_each_players_rating_once(store_url: str) -> None:
    async def body(r: Ratings, clock: Clock) -> None:
        ana, bia, caio, davi = fresh("d1-", 4)
        event = ended("dominousa", [ana, bia, caio, davi], 0, 1, MONDAY)
        await r.on_match_ended(event)
        await r.on_match_ended(event)  # published again after a crash: nothing more
        changes = await r.changes_of_match(event.match_id)
        assert [(c["seat"], c["won"]) for c in changes] == [(0, True), (1, False), (2, True), (3, False)]
        assert all(c["before"] == 1500 for c in changes)
        found = {p: await r.rating_of(p, "dominousa") for p in (ana, bia, caio, davi)}
        ratings = {p: x for p, x in found.items() if x is not None}
        assert len(ratings) == 4
        assert ratings[ana]["rating"] == ratings[caio]["rating"] == 1559  # +59: a new player moves fast
        assert ratings[bia]["rating"] == ratings[davi]["rating"] == 1441
        assert all(x["games"] == 1 and x["provisional"] for x in ratings.values())
        assert await r.rating_of(ana, "amazonense") is None  # one rating per game type

    run_async(with_ratings(store_url, body))


def test_D1_unrated_matches_change_nothing(store_url: str) -> None:
    async def body(r: Ratings, clock: Clock) -> None:
        players = fresh("d1u-", 4)
        await r.on_match_ended(ended("dominousa", players, 0, 1, MONDAY, rated=False))
        bot_seat = ended("dominousa", players, 0, 2, MONDAY)
        bot_seat.player_ids[3] = None  # a bot sat there
        await r.on_match_ended(bot_seat)
        assert [await r.rating_of(p, "dominousa") for p in players] == [None] * 4

    run_async(with_ratings(store_url, body))


# -- D2 --------------------------------------------------------------------------------------------------
def test_D2_beating_a_stronger_team_earns_more_than_beating_a_weaker_one() -> None:
    """Settled players (sigma 4): a 1500 team beating a 1650 team gains more than beating a 1350 team,
    and losing to the stronger one costs less."""
    mine = [Skill(25.0, 4.0), Skill(25.0, 4.0)]
    strong = [Skill(25 + 150 / SCALE, 4.0)] * 2
    weak = [Skill(25 - 150 / SCALE, 4.0)] * 2
    gain_strong = display(rate_teams([mine, strong], 0)[0][0].mu) - 1500
    gain_weak = display(rate_teams([mine, weak], 0)[0][0].mu) - 1500
    loss_strong = display(rate_teams([mine, strong], 1)[0][0].mu) - 1500
    loss_weak = display(rate_teams([mine, weak], 1)[0][0].mu) - 1500
    assert round(gain_strong) == 35 and round(gain_weak) == 13
    assert round(loss_strong) == -13 and round(loss_weak) == -35
    assert gain_strong > gain_weak and loss_strong > loss_weak


def test_D2_individual_a_stronger_loser_pays_more() -> None:
    assert ranking_flows({"ana": 1500, "bia": 1700}, winner="ana") == {"bia": -24, "ana": 24}
    assert ranking_flows({"ana": 1500, "bia": 1300}, winner="ana") == {"bia": -8, "ana": 8}


# -- D3 --------------------------------------------------------------------------------------------------
def test_D3_the_amazonense_bonus_and_its_cap() -> None:
    """2 a right galo, 2 a batida, 1 every 25 table points of one's own, at most 8 a match."""
    assert amazonense_bonus(0, 0, 0) == 0
    assert amazonense_bonus(galos=1, batidas=0, table_points=24) == 2
    assert amazonense_bonus(galos=0, batidas=1, table_points=25) == 3
    assert amazonense_bonus(galos=1, batidas=1, table_points=80) == 7
    assert amazonense_bonus(galos=2, batidas=2, table_points=100) == BONUS_CAP == 8


def test_D3_the_bonus_is_its_own_line_of_the_change_in_amazonense_only(store_url: str) -> None:
    match = random_match("amazonense", seed=3)
    players = fresh("d3-", 4)
    record = Record.from_match(match, players).to_json()
    stats = seat_stats(record)
    expected = [amazonense_bonus(s.galos, s.batidas, s.table_points) for s in stats]
    assert any(expected), "the match should score some table points"
    assert match.winner is not None

    async def body(r: Ratings, clock: Clock) -> None:
        event = ended("amazonense", players, match.winner or 0, 1, MONDAY, record=record)
        await r.on_match_ended(event)
        changes = await r.changes_of_match(event.match_id)
        assert [c["bonus"] for c in changes] == [round(b, 1) for b in expected]
        for c in changes:
            assert c["after"] == pytest.approx(c["before"] + c["delta"] + c["bonus"], abs=0.2)
        dominousa = random_match("dominousa", seed=3)
        others = fresh("d3d-", 4)
        rec = Record.from_match(dominousa, others).to_json()
        event = ended("dominousa", others, dominousa.winner or 0, 2, MONDAY, record=rec)
        await r.on_match_ended(event)
        assert all(c["bonus"] == 0 for c in await r.changes_of_match(event.match_id))

    run_async(with_ratings(store_url, body))


def _two_batidas_of_seat_3() -> Match:
    """Seat 3 goes out twice: first while his opponents hold 0-0 and 1-1 (the hand count is 0, so there is no
    batida entry, A7), then with the double 5-5 (a batida entry, the double's 20 and the table's 20)."""
    from tests.rules.test_amazonense_rules import (
        BATIDA_DOUBLE_DEAL,
        BATIDA_DOUBLE_LAST,
        BATIDA_DOUBLE_PLAY,
        BATIDA_ZERO_DEAL,
        BATIDA_ZERO_LAST,
        BATIDA_ZERO_PLAY,
        play_in_match,
    )

    match = Match(variants.get("amazonense"))
    play_in_match(match, BATIDA_ZERO_DEAL, BATIDA_ZERO_PLAY + BATIDA_ZERO_LAST)
    play_in_match(match, BATIDA_DOUBLE_DEAL, BATIDA_DOUBLE_PLAY + BATIDA_DOUBLE_LAST)  # A3: he leads a double
    assert [h.end for h in match.hands] == ["batida", "batida"] and match.went_out() == [0, 0, 0, 2]
    assert [s.kind for h in match.hands for s in h.scores if s.kind.startswith("batida")] == ["batida", "batida-double"]
    return match


def test_D3_a_batida_earns_its_bonus_whether_or_not_it_scored(store_url: str) -> None:
    """D3 clarified: going out counts one batida even when the opponents hold fewer than 5 pips, and once (not
    twice, not never) when it is made with a double. Both ways of rating agree: the table's tally sent with
    the match's end, and the record replayed."""
    match = _two_batidas_of_seat_3()
    table_points = match.tally()[3]["table"][1]
    expected = amazonense_bonus(galos=0, batidas=2, table_points=table_points)
    assert expected == min(BONUS_CAP, 4 + table_points // 25)
    players = fresh("d3b-", 4)
    record = Record.from_match(match, players).to_json()
    assert seat_stats(record)[3].batidas == 2

    async def body(r: Ratings, clock: Clock) -> None:
        for n, tally in enumerate([(match.tally(), match.went_out()), (None, None)], start=1):
            event = ended("amazonense", players, 1, n, MONDAY, record=record)
            event = dataclasses.replace(event, tally=tally[0], went_out=tally[1])
            await r.on_match_ended(event)
            changes = await r.changes_of_match(event.match_id)
            assert changes[3]["bonus"] == expected, f"match {n}"

    run_async(with_ratings(store_url, body))


# -- D4 --------------------------------------------------------------------------------------------------
def test_D4_the_week_runs_from_monday_to_sunday_in_the_platform_time_zone() -> None:
    from zoneinfo import ZoneInfo

    tz = ZoneInfo("America/Sao_Paulo")
    sunday_late = dt.datetime(2026, 12, 6, 23, 59, 59, tzinfo=SP)
    monday_early = dt.datetime(2026, 12, 7, 0, 0, 0, tzinfo=SP)
    assert week_start(sunday_late, tz) == dt.date(2026, 11, 30)
    assert week_start(monday_early, tz) == dt.date(2026, 12, 7)
    begin, end = week_bounds(dt.date(2026, 11, 30), tz)
    assert begin == dt.datetime(2026, 11, 30, 3, 0, tzinfo=dt.UTC) and end == monday_early.astimezone(dt.UTC)
    assert week_start(dt.datetime(2026, 12, 7, 2, 0, tzinfo=dt.UTC), tz) == dt.date(2026, 11, 30)  # 23:00 local


class NoMatches:
    """A ratings store without a rated match: what a week is answered with does not depend on the database."""

    async def changes_between(self, game: str, begin: dt.datetime, end: dt.datetime) -> list[Any]:
        assert begin.tzinfo is dt.UTC and end.tzinfo is dt.UTC
        return []

    async def medals(self, game: str, week: dt.date) -> list[Any]:
        return []

    async def closed_weeks(self, game: str) -> set[dt.date]:
        return set()


async def no_names(ids: list[str]) -> dict[str, str]:
    return {}


EDGES = st.one_of(st.dates(max_value=dt.date(1, 1, 14)), st.dates(min_value=dt.date(9999, 12, 14)), st.dates())
ZONES = st.sampled_from(
    ["America/Sao_Paulo", "America/Manaus", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"]
)


@given(EDGES, ZONES)
def test_D4_any_date_gets_its_weeks_ranking_or_invalid_when_the_week_does_not_fit_the_calendar(
    date: dt.date, zone: str
) -> None:
    """Issue 18 (8): the week of 9999-12-27 ends in the year 10000 (and in Tokyo, east of UTC, the week of
    0001-01-01 begins in the year 0 in UTC): a ServiceError ``invalid`` (422), never an OverflowError (500)."""
    r = Ratings(NoMatches(), no_names, timezone=zone)  # type: ignore[arg-type]
    monday = date - dt.timedelta(days=date.weekday())
    fits = dt.date(1, 1, 2) <= monday <= dt.date.max - dt.timedelta(days=8)
    try:
        week = run_async(r.week("dominousa", monday))
    except ServiceError as exc:
        assert exc.code == "invalid" and monday.isoformat() in exc.message
        assert not fits
        return
    begins, ends = dt.datetime.fromisoformat(week["begins"]), dt.datetime.fromisoformat(week["ends"])
    assert week["week"] == monday.isoformat() and dt.timedelta(days=6) < ends - begins < dt.timedelta(days=8)


def test_D4_the_weeks_at_the_ends_of_the_calendar() -> None:
    def answer(monday: dt.date, zone: str) -> str:
        r = Ratings(NoMatches(), no_names, timezone=zone)  # type: ignore[arg-type]
        try:
            return str(run_async(r.week("dominousa", monday))["ends"])
        except ServiceError as exc:
            return exc.code

    assert answer(dt.date(9999, 12, 27), "America/Sao_Paulo") == "invalid"
    assert answer(dt.date(9999, 12, 20), "America/Sao_Paulo") == "9999-12-27T03:00:00+00:00"
    assert answer(dt.date(1, 1, 1), "UTC") == "0001-01-08T00:00:00+00:00"
    assert answer(dt.date(1, 1, 1), "Asia/Tokyo") == "invalid"  # 0001-01-01 00:00 in Tokyo is in the year 0 in UTC


def test_D4_net_score_ties_by_wins_then_who_reached_it_first() -> None:
    t = [MONDAY + dt.timedelta(hours=k) for k in range(10)]
    week = [
        WeekChange("ana", t[0], +30, True),
        WeekChange("ana", t[1], -10, False),  # net +20, 1 win
        WeekChange("bia", t[2], +10, True),
        WeekChange("bia", t[3], +10, True),  # net +20, 2 wins: ahead of Ana
        WeekChange("caio", t[4], +20, True),  # net +20, 1 win, reached +20 at t4: after Ana (t0)
        WeekChange("davi", t[5], -5, False),  # ranks (he played), no medal: not positive
        WeekChange("eva", t[6], +50, True),
        WeekChange("eva", t[7], -50, False),  # net 0: no medal
    ]
    ranked = standings(week)
    assert [(s.player_id, s.score, s.wins) for s in ranked] == [
        ("bia", 20, 2),
        ("ana", 20, 1),
        ("caio", 20, 1),
        ("eva", 0, 1),
        ("davi", -5, 0),
    ]
    assert ranked[1].reached_at == t[0] and ranked[2].reached_at == t[4]
    assert [(medal, s.player_id) for medal, s in medalists(ranked)] == [
        ("gold", "bia"),
        ("silver", "ana"),
        ("bronze", "caio"),
    ]
    assert medalists([s for s in ranked if s.player_id in ("eva", "davi")]) == []


def test_D4_medals_are_awarded_once_also_across_a_restart_over_the_weeks_end(store_url: str) -> None:
    """A fake clock: matches on Monday and Sunday evening; the platform is down over the week's end and
    starts again on Tuesday: closing runs at start-up, once, and again changes nothing."""
    players = fresh("d4-", 4)
    sunday = dt.datetime(2026, 12, 6, 23, 30, tzinfo=SP)
    after = dt.datetime(2026, 12, 8, 9, 0, tzinfo=SP)  # Tuesday: the week of Nov 30 has ended

    async def play(r: Ratings, clock: Clock) -> None:
        await r.on_match_ended(ended("dominousa", players, 0, 11, MONDAY, table=f"w1{TAG}"))
        await r.on_match_ended(ended("dominousa", players, 0, 12, sunday, table=f"w1{TAG}"))
        assert await r.close_weeks() == 0  # the week is not over

    async def restart(r: Ratings, clock: Clock) -> tuple[int, int]:
        first = await r.close_weeks()
        again = await r.close_weeks()
        return first, again

    run_async(with_ratings(store_url, play, MONDAY))
    first, again = run_async(with_ratings(store_url, restart, after))
    assert again == 0 and first >= 1

    async def look(r: Ratings, clock: Clock) -> dict[str, Any]:
        week = await r.week("dominousa", dt.date(2026, 11, 30))
        profiles = [await r.profile(p) for p in players]
        return {"week": week, "profiles": profiles}

    seen = run_async(with_ratings(store_url, look, after))
    assert seen["week"]["closed"] is True
    mine = [s for s in seen["week"]["standings"] if s["player"] in players]
    assert [s["player"] for s in mine[:2]] == sorted(players[0::2], key=lambda p: [s["player"] for s in mine].index(p))
    medals = [[m for m in prof["medals"] if m["week"] == "2026-11-30"] for prof in seen["profiles"]]
    winners = [m for m in medals[0] + medals[2]]
    assert winners and all(m["score"] > 0 for m in winners)  # the team that won both matches
    assert medals[1] == [] and medals[3] == []  # the losers' scores are negative: no medal


def test_D4_the_weekly_score_is_the_sum_of_the_weeks_changes(store_url: str) -> None:
    players = fresh("d4s-", 4)

    async def body(r: Ratings, clock: Clock) -> tuple[list[Any], list[Any]]:
        for k in range(6):
            await r.on_match_ended(
                ended("dominousa", players, k % 3 == 0, 20 + k, MONDAY + dt.timedelta(hours=k), f"s1{TAG}")
            )
        week = await r.week("dominousa", dt.date(2026, 11, 30))
        profiles = [await r.profile(p) for p in players]
        return week["standings"], profiles

    standings_, profiles = run_async(with_ratings(store_url, body))
    for p, prof in zip(players, profiles, strict=True):
        total = sum(h["delta"] + h["bonus"] for h in prof["history"]["dominousa"])
        assert next(s["score"] for s in standings_ if s["player"] == p) == pytest.approx(total, abs=0.5)


# -- D5 --------------------------------------------------------------------------------------------------
def test_D5_individual_points_flow_to_the_winner_and_farming_one_opponent_decays(store_url: str) -> None:
    """Two players, five matches in a day, the same one always winning: 16, then 75 %, 50 %, 25 % of the
    stake against a weaker and weaker loser, then nothing; a day later, full pay again."""
    ana, bia = fresh("d5-", 2)

    async def body(r: Ratings, clock: Clock) -> list[float]:
        gains = []
        for k in range(5):
            await r.on_match_ended(
                ended("individual", [ana, bia], 0, 30 + k, MONDAY + dt.timedelta(hours=k), f"f1{TAG}")
            )
            changes = await r.changes_of_match(f"f1{TAG}/{30 + k}")
            assert sum(c["delta"] for c in changes) == 0  # zero-sum
            gains.append(changes[0]["delta"])
        later = MONDAY + dt.timedelta(hours=4 + 25)
        await r.on_match_ended(ended("individual", [ana, bia], 0, 40, later, f"f1{TAG}"))
        gains.append((await r.changes_of_match(f"f1{TAG}/40"))[0]["delta"])
        return gains

    gains = run_async(with_ratings(store_url, body))
    assert gains[0] == STAKE / 2 == 16
    assert gains[1:5] == [11, 7, 3, 0]  # 75 % of 14.5, 50 % of 13.5, 25 % of 12.9, then nothing (B8)
    assert gains[5] > 0  # a day after: the window has moved on


def test_B8_the_meetings_counted_are_the_pairs_own_two_player_matches_of_the_window(store_url: str) -> None:
    """What B8's limit reads: the matches of this game where both played, with exactly that many players, since
    the window's start; not a 3-player match of the two, not another game's, not one with someone else."""
    ana, bia, caio = fresh("b8-", 3)
    since = MONDAY - dt.timedelta(hours=24)

    async def body(r: Ratings, clock: Clock) -> tuple[int, int, int, int]:
        at = MONDAY - dt.timedelta(hours=1)
        for k, (game, players, when) in enumerate(
            [
                ("individual", [ana, bia], at),
                ("individual", [bia, ana], at),
                ("individual", [ana, bia], since - dt.timedelta(minutes=1)),  # before the window
                ("individual", [ana, bia, caio], at),  # three players
                ("individual", [ana, caio], at),  # someone else
                ("amazonense", [ana, caio, bia, fresh("b8x-", 1)[0]], at),  # another game
            ]
        ):
            await r.on_match_ended(ended(game, players, 0, 50 + k, when, f"m8{ana[-6:]}"))
        store = r.store
        return (
            await store.meetings(ana, bia, "individual", since, 2),
            await store.meetings(bia, ana, "individual", since, 2),
            await store.meetings(ana, bia, "individual", since, 3),
            await store.meetings(ana, caio, "individual", since - dt.timedelta(hours=1), 2),
        )

    assert run_async(with_ratings(store_url, body)) == (2, 2, 1, 1)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(800, 2400), min_size=2, max_size=4),
    st.integers(0, 3),
    st.integers(0, 6),
)
def test_D5_individual_flows_sum_to_zero(ratings: list[int], winner: int, repeats: int) -> None:
    players = {f"p{k}": float(r) for k, r in enumerate(ratings)}
    w = f"p{winner % len(ratings)}"
    rep = {p: repeats for p in players if p != w} if len(players) == 2 else {}
    flows = ranking_flows(players, w, rep)
    assert sum(flows.values()) == 0 and flows[w] >= 0 and all(v <= 0 for p, v in flows.items() if p != w)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 23), min_size=1, max_size=12))
def test_D5_what_one_player_wins_from_one_opponent_in_24_hours_is_bounded(hours: list[int]) -> None:
    """Whatever the number of matches within 24 hours, the same winner takes at most 100 + 75 + 50 + 25 %
    of the stake (each at most the stake) from the same loser."""
    from capicua.service.ratings.points import farming_factor

    total = sum(STAKE * farming_factor(k) for k in range(len(hours)))
    assert total <= STAKE * 2.5


# -- abandonment ---------------------------------------------------------------------------------------
def test_an_abandoned_match_is_lost_for_the_side_that_left(store_url: str) -> None:
    players = fresh("ab-", 4)

    async def body(r: Ratings, clock: Clock) -> list[dict[str, Any]]:
        await r.on_match_ended(ended("dominousa", players, 1, 50, MONDAY, f"ab{TAG}", abandoned_by=2))
        return await r.changes_of_match(f"ab{TAG}/50")

    changes = run_async(with_ratings(store_url, body))
    assert [(c["seat"], c["won"], c["abandoned"]) for c in changes] == [
        (0, False, False),  # his partner loses the match, and nothing more
        (1, True, False),
        (2, False, True),
        (3, True, False),  # the opponents gain as for a win
    ]
    assert changes[0]["delta"] == changes[2]["delta"] and changes[1]["delta"] == changes[3]["delta"] > 0


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_D3_the_tally_a_table_sends_agrees_with_its_record(seed: int) -> None:
    """The table sends each seat's own scores with the match's end; replaying the record gives the same."""
    from capicua.service.ratings.service import tally_stats

    match = random_match("amazonense", seed=seed)
    record = Record.from_match(match, ["a", "b", "c", "d"]).to_json()
    stats = tally_stats(match.tally(), match.went_out())
    assert stats == seat_stats(record)
    # D3 clarified: a batida is the player going out, scored or not: the seat left with no tile
    for seat in range(4):
        assert stats[seat].batidas == sum(1 for h in match.hands if h.end == "batida" and not h.hands[seat])
