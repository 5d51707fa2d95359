"""The tournament director (C10, C8): registration, late entry, withdrawal, rounds on the platform's tables,
no-shows, byes, pairing by hand, results from the match's end, referees, over the board, a restart.

Each test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Awaitable, Callable
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from capicua.service.bus import LocalBus
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform
from capicua.service.store import Store
from capicua.service.store.schema import PairingRow, TournamentRow
from capicua.service.tables import Table, TableConfig, TableService
from capicua.service.tables.fanout import Subscriber
from capicua.service.tables.state import TableState
from capicua.service.tournaments.director import HELPER, Tournaments
from tests.aio import run_async

START = dt.datetime(2026, 12, 5, 14, 0, tzinfo=dt.UTC)
#: Quick matches: 20 points, no pause between hands, no forced passes.
QUICK = {"target": 20, "pause_seconds": 0, "auto_pass": False}


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now


Body = Callable[[Platform, Clock], Awaitable[Any]]


async def with_platform(url: str, body: Body, clock: Clock | None = None) -> Any:
    clock = clock or Clock()
    platform = Platform(
        Store(url), "s", TableConfig(bot_delay=0, bot_workers=0, call_grace=0), clock=clock, sweeps=False
    )
    await platform.open()
    try:
        return await body(platform, clock)
    finally:
        await platform.close()


async def accounts(platform: Platform, n: int) -> list[Identity]:
    tag = secrets.token_hex(3)
    out = []
    for k in range(n):
        who, _ = await platform.accounts.sign_up(f"p{tag}{k}", "password1", f"Player {k}")
        out.append(who)
    return out


class Field:
    """A tournament with ``teams`` registered teams of two new accounts each, and its organiser."""

    def __init__(
        self, platform: Platform, organiser: Identity, t: TournamentRow, players: list[list[Identity]]
    ) -> None:
        self.platform = platform
        self.organiser = organiser
        self.t = t
        self.players = players  # players[team - 1] = [a, b]

    @property
    def director(self) -> Tournaments:
        return self.platform.tournaments

    def team_of(self, who: Identity) -> int:
        return next(k + 1 for k, pair in enumerate(self.players) if who in pair)

    async def boards(self, round_no: int | None = None) -> list[PairingRow]:
        return await self.platform.store.tournaments.pairings(self.t.id, round_no)

    async def row(self) -> TournamentRow:
        return await self.director.get(self.t.id)

    async def check_in(self, *teams: int) -> None:
        for team in teams:
            for who in self.players[team - 1]:
                await self.director.check_in(who, self.t.id)

    def identity(self, player_id: str) -> Identity:
        return next(w for pair in self.players for w in pair if w.id == player_id)


async def field(platform: Platform, teams: int, **settings: Any) -> Field:
    people = await accounts(platform, 2 * teams + 1)
    organiser, players = people[0], [people[1 + 2 * k : 3 + 2 * k] for k in range(teams)]
    options = settings.pop("options", QUICK)
    t = await platform.tournaments.create(
        organiser, "Copa", settings.pop("game", "dominousa"), START, options=options, **settings
    )
    names = await platform.store.accounts.names([w.id for pair in players for w in pair])
    assert len(names) == 2 * teams
    for a, b in players:
        row = await platform.store.accounts.by_username(await _username(platform, b))
        assert row is not None
        team = await platform.tournaments.register(a, t.id, row.username)
        await platform.tournaments.accept(b, t.id, team.team)
    return Field(platform, organiser, t, players)


async def _username(platform: Platform, who: Identity) -> str:
    from sqlalchemy import select

    from capicua.service.store.schema import AccountRow

    async with platform.store.db.sessions() as session:
        return str((await session.execute(select(AccountRow.username).where(AccountRow.id == who.id))).scalar_one())


async def play_out(platform: Platform, table: Table, field: Field) -> None:
    """Play the table's match to its end: each seat to act makes its first legal move."""
    for _ in range(5000):
        if table.status != "playing":
            return
        match = table.match
        assert match is not None
        if match.is_over() or match.needs_deal():
            await table.runner.after_action_locked()
            continue
        hand = match.hand
        seat = hand.turn
        who = field.identity(table.state.seats[seat].player or "")
        await table.act(who, str(hand.legal_moves[0]))
    raise AssertionError("the match did not end")


def run(url: str, body: Body) -> Any:
    return run_async(with_platform(url, body))


# -- creating and registering -------------------------------------------------------------------
def test_a_tournament_is_created_by_an_account_with_strict_mode_on_by_default(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        (who,) = await accounts(platform, 1)
        t = await platform.tournaments.create(who, "Copa", "dominousa", START)
        assert t.status == "registration" and t.options["strict"] is True and t.options["target"] == 200
        assert t.options["match_minutes"] == 40 and t.options["move_seconds"] == 40 and t.rounds is None
        casual = await platform.tournaments.create(who, "Amistoso", "dominousa", START, options={"strict": False})
        assert casual.options["strict"] is False
        amazonense = await platform.tournaments.create(who, "Copa AM", "amazonense", START)
        assert "strict" not in amazonense.options and amazonense.options["target"] == 200
        guest = Identity("g:x", "Guest", guest=True)
        for call, code in (
            (platform.tournaments.create(guest, "x", "dominousa", START), "accounts-only"),
            (platform.tournaments.create(who, "x", "individual", START), "bad-options"),
            (platform.tournaments.create(who, "x", "chess", START), "bad-variant"),
            (platform.tournaments.create(who, "x", "dominousa", START, options={"lead": "highest"}), "bad-options"),
            (platform.tournaments.create(who, "x", "dominousa", START, rounds=0), "bad-options"),
            (platform.tournaments.create(who, "x", "dominousa", clock.now - dt.timedelta(days=1)), "bad-options"),
        ):
            with pytest.raises(ServiceError) as err:
                await call
            assert err.value.code == code

    run(empty_store_url, body)


def test_teams_register_by_invitation_and_a_player_is_in_one_team(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        organiser, a, b, c = await accounts(platform, 4)
        t = await platform.tournaments.create(organiser, "Copa", "dominousa", START)
        team = await platform.tournaments.register(a, t.id, await _username(platform, b))
        assert team.status == "invited" and team.name == "Player 1 & Player 2"
        with pytest.raises(ServiceError, match="invited partner") as err:
            await platform.tournaments.accept(a, t.id, team.team)
        assert err.value.code == "forbidden"
        with pytest.raises(ServiceError) as err:
            await platform.tournaments.register(c, t.id, await _username(platform, b))
        assert err.value.code == "registered"
        with pytest.raises(ServiceError) as err:
            await platform.tournaments.register(c, t.id, await _username(platform, c))
        assert err.value.code == "invalid"
        accepted = await platform.tournaments.accept(b, t.id, team.team)
        assert accepted.status == "registered" and accepted.entered_round == 1
        withdrawn = await platform.tournaments.withdraw(b, t.id, team.team)
        assert withdrawn.status == "withdrawn"
        again = await platform.tournaments.register(b, t.id, await _username(platform, c), name="Os Botos")
        assert again.team == 2 and again.name == "Os Botos"

    run(empty_store_url, body)


def test_registration_is_open_only_in_its_window(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        organiser, a, b = await accounts(platform, 3)
        later = clock.now + dt.timedelta(days=1)
        t = await platform.tournaments.create(
            organiser,
            "Copa",
            "dominousa",
            START,
            registration_opens=later,
            registration_closes=later + dt.timedelta(hours=1),
        )
        partner = await _username(platform, b)
        with pytest.raises(ServiceError, match="not open"):
            await platform.tournaments.register(a, t.id, partner)
        clock.now = later + dt.timedelta(minutes=30)
        team = await platform.tournaments.register(a, t.id, partner)
        clock.now = later + dt.timedelta(hours=2)
        with pytest.raises(ServiceError, match="closed") as err:
            await platform.tournaments.accept(b, t.id, team.team)
        assert err.value.code == "closed"

    run(empty_store_url, body)


def test_times_keep_their_zone_a_start_at_19h_in_manaus_draws_round_one_at_23h_utc_not_hours_early(
    empty_store_url: str,
) -> None:
    """Issue 18 (4): 19:00 in Manaus (UTC-4) is 23:00 UTC. SQLite used to keep it as 19:00 UTC, so round 1 was
    drawn (and the no-show clock ran) four hours before the players came; registration closing at 13:00 in
    Kolkata (+05:30) closed at 13:00 UTC. Every time is written and read back as the same moment."""

    async def body(platform: Platform, clock: Clock) -> None:
        organiser, *people = await accounts(platform, 7)
        starts = dt.datetime(2026, 12, 5, 19, 0, tzinfo=ZoneInfo("America/Manaus"))
        closes = dt.datetime(2026, 12, 5, 13, 0, tzinfo=dt.timezone(dt.timedelta(hours=5, minutes=30)))
        t = await platform.tournaments.create(
            organiser, "Copa Manaus", "dominousa", starts, options=QUICK, registration_closes=closes
        )
        row = await platform.tournaments.get(t.id)
        assert row.starts_at == starts and row.starts_at.isoformat() == "2026-12-05T23:00:00+00:00"
        assert row.registration_closes == closes and row.registration_closes.tzinfo is dt.UTC
        for a, b in (people[0:2], people[2:4]):
            team = await platform.tournaments.register(a, t.id, await _username(platform, b))
            await platform.tournaments.accept(b, t.id, team.team)
        clock.now = dt.datetime(2026, 12, 5, 7, 29, tzinfo=dt.UTC)  # 12:59 in Kolkata: still open
        late = await platform.tournaments.register(people[4], t.id, await _username(platform, people[5]))
        clock.now = dt.datetime(2026, 12, 5, 7, 30, tzinfo=dt.UTC)  # 13:00 in Kolkata
        with pytest.raises(ServiceError) as err:
            await platform.tournaments.accept(people[5], t.id, late.team)
        assert err.value.code == "closed"
        clock.now = dt.datetime(2026, 12, 5, 22, 59, tzinfo=dt.UTC)  # 18:59 in Manaus
        await platform.tournaments.sweep()
        assert (await platform.tournaments.get(t.id)).status == "registration"
        clock.now = dt.datetime(2026, 12, 5, 23, 0, tzinfo=dt.UTC)  # 19:00 in Manaus
        await platform.tournaments.sweep()
        row = await platform.tournaments.get(t.id)
        assert (row.status, row.current_round, row.round_started_at) == ("running", 1, clock.now)

    run(empty_store_url, body)


# -- rounds on the platform's tables ---------------------------------------------------------------
def test_round_one_opens_a_table_a_board_with_partners_opposite_and_starts_when_all_four_sit(
    empty_store_url: str,
) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 4)
        await platform.tournaments.sweep()
        assert (await f.row()).status == "registration"  # not yet its time
        clock.now = START
        await platform.tournaments.sweep()
        t = await f.row()
        assert t.status == "running" and t.current_round == 1 and t.rounds == 2  # ceil(log2 4)
        boards = await f.boards(1)
        assert [b.board for b in boards] == [1, 2] and all(b.table_id and b.status == "playing" for b in boards)
        teams = sorted(x for b in boards for x in (b.team_a, b.team_b) if x is not None)
        assert teams == [1, 2, 3, 4]
        table = platform.tables.get(boards[0].table_id or "")
        a, b = f.players[boards[0].team_a - 1], f.players[(boards[0].team_b or 0) - 1]
        assert table.state.reserved == [a[0].id, b[0].id, a[1].id, b[1].id]
        assert table.state.rated and table.state.options["strict"] is True and table.state.tournament_id == f.t.id
        assert table.id not in {x.id for x in platform.tables.open_tables()}  # listed on the tournament's page
        stranger = f.players[boards[1].team_a - 1][0]
        with pytest.raises(ServiceError) as err:
            await table.join(stranger, None, None)
        assert err.value.code == "reserved"
        await f.check_in(boards[0].team_a)
        assert table.status == "open"
        await f.check_in(boards[0].team_b or 0)
        assert table.status == "playing"
        assert [s.player for s in table.state.seats] == table.state.reserved

    run(empty_store_url, body)


def test_results_flow_back_from_the_match_end_and_the_next_round_pairs_itself(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 4)
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        for board in await f.boards(1):
            await f.check_in(board.team_a, board.team_b or 0)
        first = await f.boards(1)
        for board in first:
            await play_out(platform, platform.tables.get(board.table_id or ""), f)
        await drain(platform)
        done = await f.boards(1)
        for board in done:
            table = platform.tables.get(board.table_id or "")
            match = table.match
            assert match is not None and board.status == "done" and board.kind == "played"
            assert (board.points_a, board.points_b) == tuple(match.totals)
            assert board.winner == (board.team_a if match.winner == 0 else board.team_b)
        t = await f.row()
        assert t.current_round == 2
        second = await f.boards(2)
        winners = {b.winner for b in done}
        # round 2: the two winners meet, the two losers meet (score groups), no rematch
        assert {frozenset((b.team_a, b.team_b)) for b in second} & {
            frozenset((b.team_a, b.team_b)) for b in done
        } == set()
        assert {b.team_a for b in second} | {b.team_b for b in second} == {1, 2, 3, 4}
        assert any({b.team_a, b.team_b} == winners for b in second)
        # a repeated delivery of a match's end changes nothing (at least once: idempotent)
        ranked, _, _ = await platform.tournaments.ranking(t)
        table = platform.tables.get(done[0].table_id or "")
        await platform.tournaments.match_ended(_ended(table))
        assert (await platform.tournaments.ranking(t))[0] == ranked
        assert await f.boards(1) == done or [b.winner for b in await f.boards(1)] == [b.winner for b in done]
        for board in second:
            await f.check_in(board.team_a, board.team_b or 0)
            await play_out(platform, platform.tables.get(board.table_id or ""), f)
        await drain(platform)
        t = await f.row()
        assert t.status == "finished" and t.current_round == 2
        ranked, _, _ = await platform.tournaments.ranking(t)
        assert ranked[0].wins == 2 and ranked[-1].wins == 0

    run(empty_store_url, body)


def _ended(table: Table) -> Any:
    from capicua.rules.record import Record
    from capicua.service.bus import MatchEnded

    match = table.match
    assert match is not None and match.outcome is not None
    names = [s.name or "" for s in table.state.seats]
    return MatchEnded(
        table.id, table.state.match_no, "dominousa", match.outcome, names, [s.player for s in table.state.seats],
        Record.from_match(match, names).to_json(),
    )  # fmt: skip


#: The tasks that follow an event: a match's end or the next deal, and a tournament moving on.
FOLLOW_UPS = ("follow_up", "_advance_soon")


async def drain(platform: Platform) -> None:
    """Let the tasks the last events started (a match's end, the next round) finish; not the clocks."""
    import asyncio

    for _ in range(100):
        pending = [
            t
            for t in platform.tables.tasks
            if not t.done() and getattr(t.get_coro(), "__qualname__", "").split(".")[-1] in FOLLOW_UPS
        ]
        if not pending:
            return
        await asyncio.wait(pending, timeout=1)
    raise AssertionError("the table's follow-ups did not finish")


def test_an_odd_team_out_gets_the_bye_a_win_200_to_0(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 3)
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        boards = await f.boards(1)
        assert len(boards) == 2
        bye = boards[-1]
        assert bye.team_b is None and bye.kind == "bye" and bye.status == "done" and bye.winner == bye.team_a
        assert (bye.points_a, bye.points_b) == (200, 0) and bye.table_id is None
        ranked, _, _ = await platform.tournaments.ranking(await f.row())
        line = next(s for s in ranked if s.team == bye.team_a)
        assert (line.wins, line.points_for, line.byes) == (1, 200, 1)

    run(empty_store_url, body)


def test_a_team_absent_past_the_grace_loses_0_200_and_a_second_no_show_withdraws_it(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 4, rounds=3, no_show_grace=300)
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        boards = await f.boards(1)
        present, absent = boards[0].team_a, boards[0].team_b or 0
        await f.check_in(present)
        await f.director.check_in(f.players[absent - 1][0], f.t.id)  # one of two: the team is not seated
        clock.now = START + dt.timedelta(seconds=299)
        await platform.tournaments.sweep()
        assert (await f.boards(1))[0].status == "playing"
        clock.now = START + dt.timedelta(seconds=300)
        await platform.tournaments.sweep()
        board = (await f.boards(1))[0]
        assert (board.status, board.kind, board.winner, board.points_a, board.points_b) == (
            "done", "forfeit", present, 200, 0,
        )  # fmt: skip
        table = platform.tables.get(board.table_id or "")
        assert table.status == "finished" and table.match is None  # closed unplayed
        # board 2: nobody came: both teams lose 0-200
        both = (await f.boards(1))[1]
        assert both.status == "done" and both.winner is None
        ranked, teams, _ = await platform.tournaments.ranking(await f.row())
        line = {s.team: s for s in ranked}
        assert (line[absent].wins, line[absent].points_against) == (0, 200)
        assert (line[present].wins, line[present].points_for) == (1, 200)
        assert {x.team: x.no_shows for x in teams} == {present: 0, absent: 1, both.team_a: 1, both.team_b: 1}
        # round 2 is paired at once (every board decided); those who do not come again are withdrawn
        assert (await f.row()).current_round == 2
        clock.now += dt.timedelta(seconds=301)
        await platform.tournaments.sweep()
        teams = await platform.store.tournaments.teams(f.t.id)
        assert {x.team for x in teams if x.status == "withdrawn"} == {absent, both.team_a, both.team_b}
        t = await f.row()
        assert t.status == "finished"  # one team left: nobody to pair

    run(empty_store_url, body)


def test_late_entry_until_half_the_rounds_are_paired_missed_rounds_lost_0_0(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 4, rounds=4, mode="board")
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        late_a, late_b, later_a, later_b = await accounts(platform, 4)
        team = await platform.tournaments.register(late_a, f.t.id, await _username(platform, late_b))
        accepted = await platform.tournaments.accept(late_b, f.t.id, team.team)
        assert accepted.entered_round == 2
        for board in await f.boards(1):
            await finish_board(platform, f, board)
        assert (await f.row()).current_round == 2
        second = await f.boards(2)
        assert team.team in {x for b in second for x in (b.team_a, b.team_b)}  # paired from round 2
        ranked, _, _ = await platform.tournaments.ranking(await f.row())
        line = next(s for s in ranked if s.team == team.team)
        assert (line.wins, line.losses, line.difference) == (0, 1, 0)  # round 1 missed: a loss 0-0
        with pytest.raises(ServiceError, match="half the rounds") as err:  # 2 of 4 rounds paired
            await platform.tournaments.register(later_a, f.t.id, await _username(platform, later_b))
        assert err.value.code == "closed"

    run(empty_store_url, body)


async def finish_board(platform: Platform, f: Field, board: PairingRow, a: int = 120, b: int = 80) -> None:
    if board.team_b is None:
        return
    await platform.tournaments.board_entry(f.organiser, f.t.id, board.round, board.board, a, b, note="mão 1")
    await platform.tournaments.board_result(f.organiser, f.t.id, board.round, board.board)


def test_withdrawn_teams_are_not_paired_again_and_their_results_stand(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 5, rounds=3, mode="board")
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        first = await f.boards(1)
        for board in first:
            await finish_board(platform, f, board)
        gone = first[0].team_a
        await platform.tournaments.withdraw(f.players[gone - 1][0], f.t.id, gone)
        # round 2 was paired when round 1 ended; round 3 is the one without the withdrawn team
        for board in await f.boards(2):
            await finish_board(platform, f, board)
        third = await f.boards(3)
        assert gone not in {x for b in third for x in (b.team_a, b.team_b)}
        ranked, _, _ = await platform.tournaments.ranking(await f.row())
        assert next(s for s in ranked if s.team == gone).wins >= 1  # its round-1 win stands

    run(empty_store_url, body)


def test_the_organiser_forbids_pairings_and_pairs_a_round_by_hand(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 4, auto_pair=False)
        clock.now = START
        await platform.tournaments.forbid(f.organiser, f.t.id, 1, 2)
        await platform.tournaments.forbid(f.organiser, f.t.id, 3, 4)
        await platform.tournaments.start(f.organiser, f.t.id)
        first = await f.boards(1)
        assert {frozenset((b.team_a, b.team_b)) for b in first} & {frozenset((1, 2)), frozenset((3, 4))} == set()
        with pytest.raises(ServiceError) as err:
            await platform.tournaments.repair(f.organiser, f.t.id, [(1, 2), (3, 4)])
        assert err.value.code == "bad-pairing" and "forbidden" in err.value.message
        with pytest.raises(ServiceError) as err:
            await platform.tournaments.repair(f.organiser, f.t.id, [(1, 3)])
        assert err.value.code == "bad-pairing" and "missing" in err.value.message
        with pytest.raises(ServiceError) as err:
            await platform.tournaments.repair(f.players[0][0], f.t.id, [(1, 3), (2, 4)])
        assert err.value.code == "forbidden"
        old = {b.table_id for b in first}
        wanted = (
            [(1, 4), (2, 3)]
            if {frozenset((1, 4)), frozenset((2, 3))} != {frozenset((b.team_a, b.team_b)) for b in first}
            else [(1, 3), (2, 4)]
        )
        repaired = await platform.tournaments.repair(f.organiser, f.t.id, wanted)
        assert [(b.team_a, b.team_b) for b in repaired] == wanted
        assert all(platform.tables.get(x or "").status == "finished" for x in old)  # the old tables closed
        # once a match of the round has started, its pairing stands
        await f.check_in(wanted[0][0], wanted[0][1])
        with pytest.raises(ServiceError) as err:
            await platform.tournaments.repair(f.organiser, f.t.id, wanted[::-1])
        assert err.value.code == "round-open"
        # without auto_pair the organiser pairs the next round
        for board in await f.boards(1):
            table = platform.tables.get(board.table_id or "")
            if table.status == "open":
                await f.check_in(board.team_a, board.team_b or 0)
            await play_out(platform, table, f)
        await drain(platform)
        assert (await f.row()).current_round == 1
        with pytest.raises(ServiceError) as err:
            await platform.tournaments.pair_next(f.organiser, f.t.id, [(1, 2), (3, 4)])
        assert err.value.code == "bad-pairing"
        second = await platform.tournaments.pair_next(f.organiser, f.t.id)
        assert len(second) == 2 and (await f.row()).current_round == 2

    run(empty_store_url, body)


# -- referees ------------------------------------------------------------------------------------
def test_a_named_referee_fines_and_records_a_touched_tile_on_a_live_table(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 2, options={**QUICK, "target": 200})
        (referee, other) = await accounts(platform, 2)
        await platform.tournaments.set_referee(f.organiser, f.t.id, await _username(platform, referee), [1])
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        await f.check_in(1, 2)
        board = (await f.boards(1))[0]
        table = platform.tables.get(board.table_id or "")
        match = table.match
        assert match is not None
        seen: list[dict[str, Any]] = []

        async def send(frame: Any) -> None:
            seen.append(frame)

        await table.subscribe(Subscriber(None, None, send), None)
        before = list(match.totals)
        n = await table.referee(referee, "fine", seat=1, points=20, reason="sinal ao parceiro")
        assert table.n == n and match.totals[0] == before[0] + 20
        seat_tiles = match.hand.view(2).tiles
        await table.referee(referee, "touch", seat=2, tile=str(seat_tiles[0]), reason="mostrou a pedra")
        frame = seen[-1]
        assert frame["event"]["action"].startswith(f"ref({referee.name}): touch 2 {seat_tiles[0]}")
        assert frame["state"]["hand"]["public"]["touched"][2] == [str(seat_tiles[0])]  # face up for everyone
        assert frame["state"]["hand"]["tiles"] == []  # a spectator's frame holds no hand
        for who, code in ((other, "forbidden"), (f.players[0][0], "forbidden")):
            with pytest.raises(ServiceError) as err:
                await table.referee(who, "fine", seat=0, points=20, reason="x")
            assert err.value.code == code
        with pytest.raises(ServiceError) as err:
            await table.referee(referee, "fine", seat=0, reason="no points")
        assert err.value.code == "malformed"
        with pytest.raises(ServiceError) as err:
            await table.referee(referee, "touch", seat=0, tile=str(seat_tiles[0]), reason="not his")
        assert err.value.code == "illegal"
        # the organiser referees every board
        await table.referee(f.organiser, "score", seat=1, points=5, reason="contagem corrigida")
        await play_out(platform, table, f)
        await drain(platform)
        record = (await platform.store.records.of_table(table.id))[0].record
        refs = [a for h in record["hands"] for a in h["actions"] if a.startswith("ref(")]
        assert refs[0] == f'ref({referee.name}): fine 1 20 "sinal ao parceiro"'
        assert refs[2] == f'ref({f.organiser.name}): score 1 5 "contagem corrigida"'

    run(empty_store_url, body)


def test_an_award_is_a_win_with_the_points_both_teams_had(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 2, options={**QUICK, "target": 200})
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        await f.check_in(1, 2)
        board = (await f.boards(1))[0]
        table = platform.tables.get(board.table_id or "")
        await table.referee(f.organiser, "fine", seat=0, points=30, reason="jogada fora de vez")
        match = table.match
        assert match is not None
        totals = list(match.totals)
        await table.referee(f.organiser, "award", seat=0, reason="a dupla adversária abandonou a mesa")
        await drain(platform)
        done = (await f.boards(1))[0]
        assert (done.kind, done.winner) == ("award", board.team_a)
        assert (done.points_a, done.points_b) == (totals[0], totals[1]) == (0, 30)

    run(empty_store_url, body)


def test_outside_tournaments_the_creator_of_a_strict_table_who_does_not_sit_referees(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        creator, *players = await accounts(platform, 5)
        strict = await platform.tables.create(creator, "dominousa", 4, {"strict": True, "pause_seconds": 0}, False)
        casual = await platform.tables.create(creator, "dominousa", 4, {"pause_seconds": 0}, False)
        for table in (strict, casual):
            for who in players:
                await table.join(who, None, None)
            await table.start(players[0])
        await strict.referee(creator, "fine", seat=3, points=20, reason="comentário durante a mão")
        with pytest.raises(ServiceError) as err:
            await casual.referee(creator, "fine", seat=3, points=20, reason="x")
        assert err.value.code == "forbidden"
        with pytest.raises(ServiceError) as err:
            await strict.referee(players[0], "fine", seat=3, points=20, reason="x")
        assert err.value.code == "forbidden"
        amazonense = await platform.tables.create(creator, "amazonense", 4, {"pause_seconds": 0}, False)
        for who in players:
            await amazonense.join(who, None, None)
        await amazonense.start(players[0])
        with pytest.raises(ServiceError) as err:
            await amazonense.referee(creator, "annul", reason="x")
        assert err.value.code == "no-referee"

    run(empty_store_url, body)


# -- over the board ---------------------------------------------------------------------------------
def test_over_the_board_the_referee_enters_hands_and_fines_and_the_result(empty_store_url: str) -> None:
    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 4, mode="board")
        (referee,) = await accounts(platform, 1)
        await platform.tournaments.set_referee(f.organiser, f.t.id, await _username(platform, referee), [])
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        board = (await f.boards(1))[0]
        assert board.table_id is None and board.status == "playing"
        d = platform.tournaments
        await d.board_entry(referee, f.t.id, 1, 1, 35, 0, note="dominó")
        await d.board_entry(referee, f.t.id, 1, 1, 0, 20, kind="fine", note="pase en falso")
        row = await d.board_entry(referee, f.t.id, 1, 1, 0, 35)
        assert (row.points_a, row.points_b) == (35, 55) and len(row.hands) == 3
        with pytest.raises(ServiceError) as err:
            await d.board_entry(f.players[0][0], f.t.id, 1, 1, 5, 0)
        assert err.value.code == "forbidden"
        with pytest.raises(ServiceError) as err:
            await d.board_entry(referee, f.t.id, 1, 1, -5, 0)
        assert err.value.code == "invalid"
        done = await d.board_result(referee, f.t.id, 1, 1)
        assert (done.status, done.kind, done.winner) == ("done", "board", board.team_b)
        with pytest.raises(ServiceError) as err:
            await d.board_entry(referee, f.t.id, 1, 1, 5, 0)
        assert err.value.code == "closed"  # final
        other = (await f.boards(1))[1]
        await d.board_entry(referee, f.t.id, 1, 2, 50, 50)
        with pytest.raises(ServiceError, match="equal"):
            await d.board_result(referee, f.t.id, 1, 2)
        awarded = await d.board_result(referee, f.t.id, 1, 2, winner=other.team_b, reason="decisão do árbitro")
        assert (awarded.kind, awarded.winner) == ("award", other.team_b)
        assert (await f.row()).current_round == 2

    run(empty_store_url, body)


def test_C8_a_game_without_a_table_referee_names_result_helpers_who_enter_only_results(empty_store_url: str) -> None:
    """C8 (clarified): only Dominousa has a table referee. At an Amazonense tournament nobody makes a C8
    decision: nobody referees its tables, those the organiser names are result helpers, who (like him) enter
    the hands' points and the results over the board, and no fine nor award."""

    async def body(platform: Platform, clock: Clock) -> None:
        d = platform.tournaments
        online = await field(platform, 2, game="amazonense", options={"target": 20, "pause_seconds": 0})
        (helper, stranger) = await accounts(platform, 2)
        name = await _username(platform, helper)
        with pytest.raises(ServiceError) as err:
            await d.set_referee(online.organiser, online.t.id, name, [])
        assert err.value.code == "no-referee"
        with pytest.raises(ServiceError, match="over-the-board") as err:  # online: the matches give the results
            await d.set_referee(online.organiser, online.t.id, name, [], role=HELPER)
        assert err.value.code == "invalid"
        assert await platform.store.tournaments.referees(online.t.id) == []
        clock.now = START
        await d.start(online.organiser, online.t.id)
        table = platform.tables.get((await online.boards(1))[0].table_id or "")
        for who in (online.organiser, helper):  # nobody referees an Amazonense table, its organiser neither
            assert await platform.tables.may_referee(table.state, who) is False
            with pytest.raises(ServiceError, match="no table referee") as err:
                await platform.tables.check_referee(table, who)
            assert err.value.code == "forbidden"

        f = await field(platform, 4, game="amazonense", mode="board", options={"target": 200})
        with pytest.raises(ServiceError) as err:
            await d.set_referee(f.organiser, f.t.id, name, [1])
        assert err.value.code == "no-referee"
        await d.set_referee(f.organiser, f.t.id, name, [1], role=HELPER)
        await d.start(f.organiser, f.t.id)
        first, second = await f.boards(1)
        await d.board_entry(helper, f.t.id, 1, 1, 45, 0, note="batida")
        row = await d.board_entry(helper, f.t.id, 1, 1, 0, 45)
        assert (row.points_a, row.points_b) == (45, 45)
        refused: list[tuple[Awaitable[PairingRow], str]] = [
            (d.board_entry(helper, f.t.id, 1, 1, 0, 20, kind="fine"), "no-referee"),  # no fines
            (d.board_result(helper, f.t.id, 1, 1, winner=first.team_a), "no-referee"),  # no award
            (d.board_result(helper, f.t.id, 1, 1), "invalid"),  # equal: the next hands decide
            (d.board_entry(helper, f.t.id, 1, 2, 5, 0), "forbidden"),  # board 1 only
            (d.board_entry(stranger, f.t.id, 1, 1, 5, 0), "forbidden"),
        ]
        for entry, code in refused:
            with pytest.raises(ServiceError) as err:
                await entry
            assert err.value.code == code
        assert (await f.boards(1))[0].hands == row.hands  # the refusals changed nothing
        await d.board_entry(helper, f.t.id, 1, 1, 0, 20)
        done = await d.board_result(helper, f.t.id, 1, 1, winner=first.team_b)  # the points' winner: no award
        assert (done.status, done.kind, done.winner) == ("done", "board", first.team_b)
        # The organiser enters results on every board; a no-show is C10's, not a referee's decision.
        assert second.team_b is not None
        gone = await d.board_result(f.organiser, f.t.id, 1, 2, absent=[second.team_b])
        assert (gone.kind, gone.winner) == ("forfeit", second.team_a)
        # A game with a table referee names referees, not helpers.
        dominousa = await field(platform, 2, mode="board")
        with pytest.raises(ServiceError) as err:
            await d.set_referee(dominousa.organiser, dominousa.t.id, name, [], role=HELPER)
        assert err.value.code == "invalid"

    run(empty_store_url, body)


# -- durability ---------------------------------------------------------------------------------------
def test_a_restart_mid_round_loses_nothing_and_the_round_goes_on(empty_store_url: str) -> None:
    clock = Clock()
    saved: dict[str, Any] = {}

    async def before(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 4)
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        for board in await f.boards(1):
            await f.check_in(board.team_a, board.team_b or 0)
        first = (await f.boards(1))[0]
        await play_out(platform, platform.tables.get(first.table_id or ""), f)
        await drain(platform)
        saved["field"] = f

    async def after(platform: Platform, clock: Clock) -> None:
        f: Field = saved["field"]
        f.platform = platform
        boards = await f.boards(1)
        assert boards[0].status == "done" and boards[1].status == "playing"
        table = await platform.tables.fetch(boards[1].table_id or "")
        assert table.status == "playing"
        await play_out(platform, table, f)
        await drain(platform)
        assert (await f.row()).current_round == 2

    run_async(with_platform(empty_store_url, before, clock))
    run_async(with_platform(empty_store_url, after, clock))


# -- the director's parts (issue 19) ------------------------------------------------------------------
#: The tournament store's reads.
READS = ("get", "read", "tournaments", "teams", "registered_counts", "pairings", "pairing_at", "forbidden", "referees")


def count_reads(platform: Platform) -> dict[str, int]:
    """Count each read of the tournament store from now on (its writes go through untouched)."""
    store = platform.store.tournaments
    counts: dict[str, int] = {}
    for name in READS:
        real = getattr(store, name, None)
        if real is None:
            continue

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            counts[_name] = counts.get(_name, 0) + 1
            return _real(*args, **kwargs)

        setattr(store, name, counted)
    return counts


def test_a_step_reads_its_tournament_once_however_much_it_does(empty_store_url: str) -> None:
    """The start reads the tournament once and draws round 1; one move on (both boards lost by no-show, four
    no-shows counted, the second of one team withdrawing it, round 2 paired without it) reads it once too:
    the step's own writes keep what it read up to date."""

    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 4, rounds=3, no_show_grace=300)
        await platform.store.tournaments.update_team(f.t.id, 1, {}, no_shows=1)  # one no-show before
        clock.now = START
        reads = count_reads(platform)
        await platform.tournaments.start(f.organiser, f.t.id)
        assert reads == {"read": 1}
        clock.now = START + dt.timedelta(seconds=300)
        reads.clear()
        await platform.tournaments.advance(f.t.id)
        assert reads == {"read": 1}
        first = await f.boards(1)
        assert [(b.status, b.kind, b.winner) for b in first] == [("done", "forfeit", None)] * 2
        teams = await platform.store.tournaments.teams(f.t.id)
        assert [(x.no_shows, x.status) for x in teams] == [(2, "withdrawn")] + [(1, "registered")] * 3
        assert (await f.row()).current_round == 2
        second = await f.boards(2)  # three teams left: one board and a bye, team 1 in neither
        assert sorted(x for b in second for x in (b.team_a, b.team_b) if x is not None) == [2, 3, 4]
        assert [b.kind for b in second] == [None, "bye"] and second[0].table_id is not None

    run(empty_store_url, body)


def test_a_round_paired_late_in_a_tournament_reads_the_rounds_before_once_and_meets_nobody_again(
    empty_store_url: str,
) -> None:
    """Moving round 2 on reads only its own boards until it is over; pairing round 3 then reads the rounds
    before it once, and the standings it pairs on count them: four teams, three rounds, nobody meets twice."""

    async def body(platform: Platform, clock: Clock) -> None:
        d = platform.tournaments
        f = await field(platform, 4, rounds=3, mode="board")
        await d.start(f.organiser, f.t.id)
        for board in await f.boards(1):
            await finish_board(platform, f, board, 30, 10)
        assert (await f.row()).current_round == 2
        first, last = await f.boards(2)
        await finish_board(platform, f, first, 25, 5)
        reads = count_reads(platform)
        await d.board_entry(f.organiser, f.t.id, 2, last.board, 40, 0)
        assert reads == {"read": 1}  # the entry: the tournament, once
        reads.clear()
        await d.board_result(f.organiser, f.t.id, 2, last.board)
        # the result (every round: a board of any round), the move on (round 2), the rounds before it
        # (only to pair round 3), and the board as it ends up, for the answer
        assert reads == {"read": 2, "pairings": 2}
        rounds = [{frozenset((b.team_a, b.team_b)) for b in await f.boards(r)} for r in (1, 2, 3)]
        assert all(len(pairs) == 2 for pairs in rounds)
        assert not (rounds[0] & rounds[1] or rounds[0] & rounds[2] or rounds[1] & rounds[2])

    run(empty_store_url, body)


def test_C10_a_no_show_is_counted_once_with_its_board_in_one_write(empty_store_url: str) -> None:
    """The board's forfeit and the absent teams' no-shows are one guarded write: tried again (a crash, a
    second node), it finds the board decided and counts nothing twice; a team's second no-show withdraws it."""

    async def body(platform: Platform, clock: Clock) -> None:
        f = await field(platform, 2, mode="board")
        await platform.tournaments.start(f.organiser, f.t.id)
        store = platform.store.tournaments
        await store.update_team(f.t.id, 1, {}, no_shows=1)
        fields = {"status": "done", "kind": "forfeit", "winner": None, "points_a": 0, "points_b": 0}
        assert await store.forfeit(f.t.id, 1, 1, {"status": "playing"}, fields, [1, 2], 2)
        assert not await store.forfeit(f.t.id, 1, 1, {"status": "playing"}, fields, [1, 2], 2)
        teams = await store.teams(f.t.id)
        assert [(x.no_shows, x.status) for x in teams] == [(2, "withdrawn"), (1, "registered")]
        board = (await f.boards(1))[0]
        assert (board.status, board.kind, board.winner) == ("done", "forfeit", None)

    run(empty_store_url, body)


def test_C8_the_table_service_asks_the_referee_policy_it_was_built_with(empty_store_url: str) -> None:
    """The tables know nothing of tournaments: who referees a tournament's table is the policy the service
    is given when it is built (the platform builds it over the tournament store, before both)."""

    async def body(platform: Platform, clock: Clock) -> None:
        asked: list[tuple[str | None, str]] = []

        async def policy(table: TableState, who: Identity) -> bool:
            asked.append((table.tournament_id, who.id))
            return who.id == "referee"

        tables = TableService(platform.store.events, LocalBus(), TableConfig(bot_workers=0), tournament_referees=policy)
        organiser, referee = Identity("organiser", "O", guest=False), Identity("referee", "R", guest=False)
        try:
            table = await tables.create(
                organiser, "dominousa", 4, {"strict": True}, False, rated=True, tournament_id="t", reserved=list("abcd")
            )
            assert await tables.may_referee(table.state, referee)
            assert not await tables.may_referee(table.state, organiser)
            assert asked == [("t", "referee"), ("t", "organiser")]
            strict = await tables.create(organiser, "dominousa", 4, {"strict": True}, False)
            assert await tables.may_referee(strict.state, organiser)  # its creator: the policy is not asked
            assert len(asked) == 2
        finally:
            await tables.aclose()
        # the platform's tables ask the platform's policy: the organiser referees his tournament's tables
        f = await field(platform, 2)
        clock.now = START
        await platform.tournaments.start(f.organiser, f.t.id)
        live = platform.tables.get((await f.boards(1))[0].table_id or "")
        assert await platform.tables.may_referee(live.state, f.organiser)
        assert not await platform.tables.may_referee(live.state, f.players[0][0])

    run(empty_store_url, body)
