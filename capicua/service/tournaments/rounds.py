"""A tournament's rounds: the start, pairing a round and opening its tables, moving a round on (no-shows,
the next round, the end), and pairing by hand. In lila's swiss this is the director.

Each round runs itself once paired: every board gets a table, its seats kept for the two teams (team A
at seats 0 and 2, team B at 1 and 3, partners opposite), with the tournament's match rules (strict mode on
in Dominousa), rated; checking in is sitting down there, the match starts once all four have sat; a team
not seated when the round's tables opened plus the grace loses 0-200 by no-show; once every board has its
result the next round is paired (or the tournament ends).

Every step holds the tournament's lock, reads a :class:`~.snapshot.Snapshot` once, and writes through the
store's guarded writes (``store/tournaments.py``), so a step repeated after a crash, by
:meth:`Rounds.sweep` (which finishes whatever is due every few seconds), or by another node, does
nothing twice.
"""

from __future__ import annotations

import logging
import random
import secrets
from typing import Any

from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store.schema import PairingRow, TournamentRow
from capicua.service.tables import Table
from capicua.service.tournaments.context import Context, organised, side
from capicua.service.tournaments.snapshot import Snapshot
from capicua.service.tournaments.swiss import (
    BYE_POINTS,
    FORFEIT_POINTS,
    NO_SHOW_LIMIT,
    Pairing,
    check_pairing,
    default_rounds,
    pair_round,
)

__all__ = ["Rounds"]

log = logging.getLogger("capicua.tournaments")

#: A board as it is paired: in play, no result yet.
_BOARD: dict[str, Any] = {
    "team_b": None,
    "table_id": None,
    "status": "playing",
    "kind": None,
    "winner": None,
    "points_a": 0,
    "points_b": 0,
}


class Rounds:
    """Starts tournaments and runs their rounds."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # -- the organiser --------------------------------------------------------------------------
    async def start(self, who: Identity, tournament_id: str) -> TournamentRow:
        """The organiser starts now: the rounds are fixed, round 1 drawn."""
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id, every_round=False)  # before round 1: there are none
            organised(who, snap.t)
            if snap.t.status != "registration":
                raise ServiceError("started", "the tournament has started")
            if len(snap.registered()) < 2:
                raise ServiceError("too-few", "a tournament needs at least two registered teams")
            started = await self._start(snap, manual=True)
        return started.t if started is not None else await self.ctx.get(tournament_id)

    async def pair_next(
        self, who: Identity, tournament_id: str, pairs: list[tuple[int, int]] | None = None, bye: int | None = None
    ) -> list[PairingRow]:
        """The organiser pairs the next round now: by the Swiss system, or (``pairs``, ``bye``) by hand."""
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id)
            t = organised(who, snap.t)
            if t.status != "running":
                raise ServiceError("round-open", "the tournament is not running")
            if any(b.status != "done" for b in snap.round(t.current_round)):
                raise ServiceError("round-open", f"round {t.current_round} still has boards without a result")
            if t.current_round >= (t.rounds or 0):
                raise ServiceError("round-open", "every round has been paired: add a round first")
            r = t.current_round + 1
            paired = await self._pair(snap, r, None if pairs is None else Pairing(r, tuple(pairs), bye))
            return paired.round(r) if paired is not None else await self.ctx.store.pairings(t.id, r)

    async def repair(
        self,
        who: Identity,
        tournament_id: str,
        pairs: list[tuple[int, int]],
        bye: int | None = None,
        round_no: int | None = None,
    ) -> list[PairingRow]:
        """Override the current round's pairing by hand, while none of its matches has started."""
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id)
            t = organised(who, snap.t)
            r = t.current_round
            if t.status != "running" or r < 1:
                raise ServiceError("round-open", "no round is paired")
            if round_no is not None and round_no != r:
                raise ServiceError("round-open", f"only the current round ({r}) can be paired again")
            boards = snap.round(r)
            tables = [b.table_id for b in boards if b.table_id is not None]
            statuses = [(await self.ctx.seats(table_id))[0] for table_id in tables]
            if any(status != "open" for status in statuses) or any(
                b.status == "done" and b.kind != "bye" for b in boards
            ):
                raise ServiceError("round-open", f"a match of round {r} has started: its pairing stands")
            manual = Pairing(r, tuple(pairs), bye)
            _check_manual(manual, snap, r)
            if not await self.ctx.store.unpair_round(t.id, r):
                raise ServiceError("round-open", f"round {r} has results: its pairing stands")
            for table_id in tables:
                await self.ctx.forfeit(table_id, None, "the organiser paired the round again")
            paired = await self._pair(snap.without_round(r), r, manual)
            return paired.round(r) if paired is not None else await self.ctx.store.pairings(t.id, r)

    # -- the players -----------------------------------------------------------------------------
    async def check_in(self, who: Identity, tournament_id: str) -> dict[str, Any]:
        """Check in for the round in play: take one's kept seat at one's table (the match starts when all four
        have). Returns the table and the seat."""
        snap = await self.ctx.read(tournament_id, every_round=False)
        t = snap.t
        if t.mode != "online" or t.status != "running":
            raise ServiceError("round-open", "there is no online round to check in to")
        teams = snap.by_team
        for board in snap.round(t.current_round):
            mine = [
                x
                for x in (teams.get(board.team_a), teams.get(board.team_b) if board.team_b else None)
                if x is not None and who.id in (x.player_a, x.player_b)
            ]
            if mine and board.table_id is not None:
                if board.status == "done":
                    raise ServiceError("started", "your board of this round has its result")
                seat = await self.ctx.join(board.table_id, who)
                return {"table": board.table_id, "seat": seat, "board": board.board}
        raise ServiceError("not-seated", "you have no board in this round")

    # -- what is due -----------------------------------------------------------------------------
    async def sweep(self) -> None:
        """Whatever is due: tournaments to start, no-shows, rounds to pair, tournaments to finish."""
        for t in await self.ctx.store.tournaments(["registration", "running"], limit=1000):
            try:
                if t.status == "registration":
                    if self.ctx.clock() >= t.starts_at:
                        await self.start_due(t.id)
                else:
                    await self.advance(t.id)
            except ServiceError as exc:
                log.warning("tournament %s: %s", t.id, exc.message)
            except Exception:
                log.exception("tournament %s could not move on", t.id)

    async def start_due(self, tournament_id: str) -> None:
        """Start a tournament whose start time has come, if two teams or more are registered."""
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id, every_round=False)
            due = snap.t.status == "registration" and self.ctx.clock() >= snap.t.starts_at
            if due and len(snap.registered()) >= 2:
                await self._start(snap)

    async def advance(self, tournament_id: str) -> None:
        """Move a running tournament on: no-shows past the grace, tables left open on decided boards, the
        next round once every board has its result (if the tournament pairs itself), or its end."""
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id, every_round=False)  # the rounds before: only to pair
            t = snap.t
            if t.status != "running":
                return
            r = t.current_round
            if r == 0:  # started, and the first draw did not get written
                await self._pair(snap, 1)
                return
            if t.mode == "online":
                moved = await self._no_shows(snap)
                if moved is None:
                    return
                snap = moved
            if any(b.status != "done" for b in snap.round(r)):
                return
            if r >= (t.rounds or 0) or len(snap.active(r + 1)) < 2:
                await self.ctx.store.update(t.id, {"status": "running"}, status="finished")
            elif t.auto_pair:
                await self._pair(await self.ctx.every_round(snap), r + 1)

    # -- the steps -------------------------------------------------------------------------------
    async def _start(self, snap: Snapshot, manual: bool = False) -> Snapshot | None:
        """Fix the number of rounds, then draw round 1; None if another node started it meanwhile. Started by
        the organiser (``manual``), its ``starts_at`` becomes the real start: the time it was announced for
        is past history, and the page says when it began."""
        t = snap.t
        rounds = t.rounds or default_rounds(len(snap.registered()))
        fields: dict[str, Any] = {"status": "running", "rounds": rounds}
        if manual:
            fields["starts_at"] = self.ctx.clock()
        if not await self.ctx.store.update(t.id, {"status": "registration"}, **fields):
            return None
        return await self._pair(snap.with_tournament(**fields), 1)

    async def _no_shows(self, snap: Snapshot) -> Snapshot | None:
        """C10: past the round's start plus the grace, a team not seated at its table loses 0-200; the
        snapshot with those results, or None if a board had its result meanwhile (the sweep reads again)."""
        t = snap.t
        started = t.round_started_at
        due = started is not None and (self.ctx.clock() - started).total_seconds() >= t.no_show_grace
        for board in snap.round(t.current_round):
            if board.table_id is None or board.team_b is None:
                continue
            if board.status == "done":
                if board.kind == "forfeit":  # a no-show: its table may still wait (a crash between the two steps)
                    if (await self.ctx.seats(board.table_id))[0] == "open":
                        await self.ctx.forfeit(board.table_id, side(board, board.winner), "no-show")
                continue
            if not due:
                continue
            status, players = await self.ctx.seats(board.table_id)
            if status != "open":
                continue
            moved = await self._no_show(snap, board, players)
            if moved is None:
                return None
            snap = moved
        return snap

    async def _no_show(self, snap: Snapshot, board: PairingRow, players: list[str | None]) -> Snapshot | None:
        """The board lost by the teams not seated at its table (``players``: who sits at each seat; both teams
        absent: nobody wins), their no-shows counted, then its table closed unplayed."""
        assert board.table_id is not None
        by_team = snap.by_team
        seated = {player for player in players if player is not None}
        pair = (board.team_a, board.team_b)
        present = [x for x in pair if x is not None and {by_team[x].player_a, by_team[x].player_b} <= seated]
        absent = [x for x in pair if x is not None and x not in present]
        winner = present[0] if present else None
        fields: dict[str, Any] = {
            "status": "done",
            "kind": "forfeit",
            "winner": winner,
            "points_a": FORFEIT_POINTS if winner == board.team_a else 0,
            "points_b": FORFEIT_POINTS if winner == board.team_b else 0,
        }
        t = snap.t
        if not await self.ctx.store.forfeit(
            t.id, board.round, board.board, {"status": "playing"}, fields, absent, NO_SHOW_LIMIT
        ):
            return None
        snap = with_no_shows(snap.with_board(board.round, board.board, **fields), absent)
        await self.ctx.forfeit(board.table_id, side(board, winner), "no-show")
        return snap

    async def _pair(self, snap: Snapshot, round_no: int, manual: Pairing | None = None) -> Snapshot | None:
        """Pair round ``round_no`` (the Swiss system, or ``manual``) and, online, open its tables; the
        snapshot with the round paired, or None if it was paired meanwhile (another node)."""
        t = snap.t
        if manual is not None:
            _check_manual(manual, snap, round_no)
            pairing = manual
        else:
            try:
                pairing = pair_round(
                    round_no,
                    snap.ranking(),
                    snap.active(round_no),
                    snap.forbidden_pairs(),
                    random.Random(secrets.randbits(64)),
                )
            except ValueError as exc:
                raise ServiceError("bad-pairing", str(exc)) from None
        rows: list[dict[str, Any]] = [
            {**_BOARD, "board": k, "team_a": a, "team_b": b} for k, (a, b) in enumerate(pairing.pairs, start=1)
        ]
        opened = await self._open_tables(snap, rows) if t.mode == "online" else []
        if pairing.bye is not None:
            rows.append(
                {
                    **_BOARD,
                    "board": len(rows) + 1,
                    "team_a": pairing.bye,
                    "status": "done",
                    "kind": "bye",
                    "winner": pairing.bye,
                    "points_a": BYE_POINTS,
                }
            )
        started_at = self.ctx.clock()
        if not await self.ctx.store.pair_round(t.id, round_no, rows, round_started_at=started_at):
            for table in opened:  # paired meanwhile (another node): these tables are not needed
                await table.forfeit(None, "paired twice")
            return None
        log.info("tournament %s: round %d paired (%d boards)", t.id, round_no, len(rows))
        if t.mode == "online":
            await self._close_strays(t.id, {row["table_id"] for row in rows if row.get("table_id")})
        return snap.with_round(round_no, rows, round_started_at=started_at)

    async def _close_strays(self, tournament_id: str, boards: set[str]) -> None:
        """Close the open tables of the tournament that no board plays: those a director opened for a pairing
        it never wrote (its node died between the two, and the next leader paired the round)."""
        for table_id in await self.ctx.tables.open_round_tables(tournament_id):
            if table_id not in boards:
                try:
                    await self.ctx.forfeit(table_id, None, "not paired")
                except ServiceError as exc:  # played meanwhile, or its node away: the next round looks again
                    log.warning("tournament %s: stray table %s stays open: %s", tournament_id, table_id, exc.message)

    async def _open_tables(self, snap: Snapshot, rows: list[dict[str, Any]]) -> list[Table]:
        """A table for each board of ``rows`` (their ``table_id`` set), its seats kept for the two teams."""
        t, by_team = snap.t, snap.by_team
        opened = []
        for row in rows:
            ta, tb = by_team[row["team_a"]], by_team[row["team_b"]]
            table = await self.ctx.tables.create(
                Identity(t.organiser, "organiser", guest=False),
                t.game,
                4,
                dict(t.options),
                private=False,
                rated=True,
                tournament_id=t.id,
                reserved=[ta.player_a, tb.player_a, ta.player_b, tb.player_b],
            )
            opened.append(table)
            row["table_id"] = table.id
        return opened


def with_no_shows(snap: Snapshot, absent: list[int]) -> Snapshot:
    """``snap`` with a no-show counted for each ``absent`` team (the ``NO_SHOW_LIMIT``-th withdraws it), as
    the store's ``forfeit`` counts them."""
    for team in absent:
        row = snap.team(team)
        status = "withdrawn" if row.no_shows + 1 >= NO_SHOW_LIMIT else row.status
        snap = snap.with_team(team, no_shows=row.no_shows + 1, status=status)
    return snap


def _check_manual(pairing: Pairing, snap: Snapshot, round_no: int) -> None:
    problems = check_pairing(pairing, snap.active(round_no), snap.forbidden_pairs())
    if problems:
        raise ServiceError("bad-pairing", "; ".join(problems))
