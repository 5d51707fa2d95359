"""The tournament director: runs Swiss tournaments of pairs (C10) on the platform's tables, refereed (C8).

An organiser (any account) creates a tournament; teams of two accounts register (one invites, the other
accepts), withdraw, or enter late until half the rounds are paired. At its start time (or when the
organiser says) round 1 is drawn; each round then runs itself:

- every board gets a table, its seats kept for the two teams (team A at seats 0 and 2, team B at 1 and 3,
  partners opposite), with the tournament's match rules (strict mode on in Dominousa), rated;
- checking in is sitting down at one's table; the match starts once all four have sat;
- a team not seated when the round's tables started plus the grace loses 0-200 by no-show, its table
  closes unplayed; a second no-show withdraws the team;
- a match's end (``MatchEnded`` on the bus) is the board's result: the winner, and both teams' points;
- once every board has its result, the next round is paired (or the tournament ends).

Over the board (``mode="board"``) there are no platform tables: each board's referee enters its hands,
fines and result; pairing and standings are the same.

Only a game with a table referee (``Variant.referee``: Dominousa) has referees (C8). In a tournament of
another game nobody makes a C8 decision: the people the organiser names for some boards are **result
helpers** (:data:`HELPER`), who enter the hands' points and the results over the board, no fine and no
award; the organiser may do the same on every board. Both are kept alike (the store's referees), the game
says which they are.

Every step is written before it is acknowledged, and guarded by what it expects to find (see
``store/tournaments.py``), so a step repeated after a crash, or by :meth:`Tournaments.sweep`, which
finishes whatever is due every few seconds, does nothing twice.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import secrets
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from capicua.rules import variants
from capicua.rules.variant import MatchTermination, OptionError
from capicua.service.bus import Bus, MatchEnded
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store import Store
from capicua.service.store.schema import PairingRow, TournamentRow, TournamentTeamRow
from capicua.service.tables import TableService
from capicua.service.tables.state import TableState
from capicua.service.tournaments.results import results_by_team
from capicua.service.tournaments.swiss import (
    BYE_POINTS,
    FORFEIT_POINTS,
    NO_SHOW_LIMIT,
    Pairing,
    Standing,
    check_pairing,
    default_rounds,
    late_entry_open,
    pair_round,
    standings,
)

__all__ = ["HELPER", "MAX_ROUNDS", "MODES", "REFEREE", "Tournaments", "role_of"]

log = logging.getLogger("capicua.tournaments")

MODES = ("online", "board")
MAX_ROUNDS = 30
#: Who the organiser names for some boards: a table referee (C8), in a game that has one; else a result
#: helper, who only enters over-the-board results.
REFEREE, HELPER = "referee", "helper"


def role_of(game: str) -> str:
    """What the people named for a tournament of ``game`` are: :data:`REFEREE` where the game has a table
    referee (``Variant.referee``, C8), else :data:`HELPER`."""
    return REFEREE if variants.get(game).referee else HELPER


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


def _side(board: PairingRow, team: int | None) -> int | None:
    """The side (0: seats 0 and 2, 1: seats 1 and 3) of ``team`` at its board's table."""
    return None if team is None else 0 if team == board.team_a else 1


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Tournaments:
    """Every tournament of the platform; ``clock`` gives the time (tests set it)."""

    def __init__(self, store: Store, tables: TableService, clock: Callable[[], dt.datetime] | None = None) -> None:
        self.store = store.tournaments
        self.accounts = store.accounts
        self.tables = tables
        self.clock = clock or _now
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        tables.tournament_referee = self.referees_table

    def attach(self, bus: Bus) -> Tournaments:
        """Listen to the ends of matches: a tournament table's match end is its board's result."""
        bus.subscribe(MatchEnded.topic, self.match_ended)
        return self

    # -- reading ---------------------------------------------------------------------------
    async def get(self, tournament_id: str) -> TournamentRow:
        row = await self.store.get(tournament_id)
        if row is None:
            raise ServiceError("not-found", f"no tournament {tournament_id!r}")
        return row

    async def team(self, tournament_id: str, team: int) -> TournamentTeamRow:
        for row in await self.store.teams(tournament_id):
            if row.team == team:
                return row
        raise ServiceError("not-found", f"no team {team} in this tournament")

    async def forbidden(self, tournament_id: str) -> list[tuple[int, int]]:
        """The pairs of teams the organiser keeps apart."""
        return await self.store.forbidden(tournament_id)

    async def ranking(self, t: TournamentRow) -> tuple[list[Standing], list[TournamentTeamRow], list[PairingRow]]:
        """The standings now (C10), with the teams and every board they come from."""
        teams = await self.store.teams(t.id)
        boards = await self.store.pairings(t.id)
        return standings(results_by_team(teams, boards), t.id), teams, boards

    # -- the organiser ------------------------------------------------------------------------
    async def create(
        self,
        who: Identity,
        name: str,
        game: str,
        starts_at: dt.datetime,
        rounds: int | None = None,
        options: dict[str, Any] | None = None,
        mode: str = "online",
        registration_opens: dt.datetime | None = None,
        registration_closes: dt.datetime | None = None,
        no_show_grace: int = 300,
        auto_pair: bool = True,
    ) -> TournamentRow:
        """A new tournament in registration. Its tables play ``game`` with ``options`` (the game's own, strict
        mode on by default where the game has it); ``rounds`` None: ceil(log2(teams)) at the start."""
        self._account(who, "organise a tournament")
        try:
            variant = variants.get(game)
        except ValueError as exc:
            raise ServiceError("bad-variant", str(exc)) from None
        if not (variant.partnerships and 4 in variant.player_counts):
            raise ServiceError("bad-options", f"tournaments are of pairs: {variant.title} is not a partnership game")
        given = dict(options or {})
        if variant.option("strict") is not None:
            given.setdefault("strict", True)  # C9: on in competitions
        try:
            checked = variant.check_options(given)
        except (OptionError, ValueError) as exc:
            raise ServiceError("bad-options", str(exc)) from None
        if mode not in MODES:
            raise ServiceError("bad-options", f"a tournament is played {' or '.join(MODES)}, not {mode!r}")
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise ServiceError("bad-options", f"rounds are 1 to {MAX_ROUNDS}")
        if not 0 <= no_show_grace <= 3600:
            raise ServiceError("bad-options", "the no-show grace is 0 to 3600 seconds")
        opens = registration_opens or self.clock()
        if starts_at < opens:
            raise ServiceError("bad-options", "the tournament cannot start before its registration opens")
        if registration_closes is not None and registration_closes < opens:
            raise ServiceError("bad-options", "the registration cannot close before it opens")
        return await self.store.create(
            {
                "name": name,
                "game": variant.name,
                "organiser": who.id,
                "mode": mode,
                "rounds": rounds,
                "options": checked,
                "starts_at": starts_at,
                "registration_opens": opens,
                "registration_closes": registration_closes,
                "no_show_grace": no_show_grace,
                "auto_pair": auto_pair,
                "status": "registration",
                "current_round": 0,
            }
        )

    async def change(self, who: Identity, tournament_id: str, **changes: Any) -> TournamentRow:
        """The organiser changes a setting: ``name``, ``rounds`` (more, or fewer but not fewer than are
        paired), ``starts_at`` (before the start), ``no_show_grace``, ``auto_pair``."""
        async with self._locks[tournament_id]:
            t = await self._organised(who, tournament_id)
            if t.status == "finished":
                raise ServiceError("closed", "the tournament is over")
            fields = {k: v for k, v in changes.items() if v is not None}
            if "rounds" in fields and not max(1, t.current_round) <= fields["rounds"] <= MAX_ROUNDS:
                raise ServiceError("bad-options", f"rounds are {max(1, t.current_round)} to {MAX_ROUNDS} now")
            if "starts_at" in fields and t.status != "registration":
                raise ServiceError("started", "the tournament has started")
            if "no_show_grace" in fields and not 0 <= fields["no_show_grace"] <= 3600:
                raise ServiceError("bad-options", "the no-show grace is 0 to 3600 seconds")
            if fields:
                await self.store.update(t.id, {}, **fields)
        if "rounds" in fields or "auto_pair" in fields:
            await self.advance(tournament_id)
        return await self.get(tournament_id)

    async def forbid(self, who: Identity, tournament_id: str, a: int, b: int, forbidden: bool = True) -> None:
        """Keep teams ``a`` and ``b`` apart (teammates from one club), or no longer."""
        await self._organised(who, tournament_id)
        if a == b:
            raise ServiceError("invalid", "a team is never paired with itself")
        await self.team(tournament_id, a)
        await self.team(tournament_id, b)
        await self.store.forbid(tournament_id, a, b, forbidden)

    async def set_referee(
        self, who: Identity, tournament_id: str, username: str, boards: list[int] | None, role: str = REFEREE
    ) -> None:
        """Name the account ``username`` a referee (``role`` :data:`REFEREE`) or a result helper
        (:data:`HELPER`) of ``boards`` (empty: of every board), or (None) no longer. The role must be the
        game's (:func:`role_of`): a game without a table referee has none (``no-referee``, C8); its helpers
        enter over-the-board results, so only a tournament played over the board names them. A board's number
        is at most the tournament's number of boards (half its teams, rounded up)."""
        t = await self._organised(who, tournament_id)
        title = variants.get(t.game).title
        if role != role_of(t.game):
            if role == REFEREE:
                raise ServiceError(
                    "no-referee",
                    f"{title} has no table referee (C8): name a result helper, who enters over-the-board results",
                )
            raise ServiceError("invalid", f"{title} has table referees (C8): name a referee, who also enters results")
        if role == HELPER and boards is not None and t.mode != "board":
            raise ServiceError(
                "invalid",
                "result helpers enter over-the-board results: this tournament plays on the platform's tables, "
                "whose matches give the results",
            )
        account = await self.accounts.by_username(username)
        if account is None:
            raise ServiceError("not-found", f"no account {username!r}")
        if boards:
            # A round has a board for every two teams (and one for a bye): half the teams still in, or the
            # boards of a round paired before some withdrew.
            teams = [x for x in await self.store.teams(tournament_id) if x.status != "withdrawn"]
            paired = [b.board for b in await self.store.pairings(tournament_id)]
            most = max(1, (len(teams) + 1) // 2, *paired)
            wrong = [b for b in boards if not 1 <= b <= most]
            if wrong:
                raise ServiceError(
                    "invalid", f"boards are numbered 1 to {most} ({len(teams)} teams): there is no board {wrong[0]}"
                )
        await self.store.set_referee(tournament_id, account.id, None if boards is None else sorted(set(boards)))

    async def start(self, who: Identity | None, tournament_id: str) -> TournamentRow:
        """Start now (the organiser), or at the start time (``who`` None): the rounds are fixed, round 1 drawn."""
        async with self._locks[tournament_id]:
            t = await self.get(tournament_id) if who is None else await self._organised(who, tournament_id)
            if t.status != "registration":
                raise ServiceError("started", "the tournament has started")
            registered = [x for x in await self.store.teams(t.id) if x.status == "registered"]
            if len(registered) < 2:
                raise ServiceError("too-few", "a tournament needs at least two registered teams")
            rounds = t.rounds or default_rounds(len(registered))
            await self.store.update(t.id, {"status": "registration"}, status="running", rounds=rounds)
            await self._pair(await self.get(t.id), 1)
        return await self.get(tournament_id)

    async def pair_next(
        self, who: Identity, tournament_id: str, pairs: list[tuple[int, int]] | None = None, bye: int | None = None
    ) -> list[PairingRow]:
        """The organiser pairs the next round now: by the Swiss system, or (``pairs``, ``bye``) by hand."""
        async with self._locks[tournament_id]:
            t = await self._organised(who, tournament_id)
            if t.status != "running":
                raise ServiceError("round-open", "the tournament is not running")
            if any(b.status != "done" for b in await self.store.pairings(t.id, t.current_round)):
                raise ServiceError("round-open", f"round {t.current_round} still has boards without a result")
            if t.current_round >= (t.rounds or 0):
                raise ServiceError("round-open", "every round has been paired: add a round first")
            manual = None if pairs is None else Pairing(t.current_round + 1, tuple(pairs), bye)
            await self._pair(t, t.current_round + 1, manual)
            return await self.store.pairings(t.id, t.current_round + 1)

    async def repair(
        self,
        who: Identity,
        tournament_id: str,
        pairs: list[tuple[int, int]],
        bye: int | None = None,
        round_no: int | None = None,
    ) -> list[PairingRow]:
        """Override the current round's pairing by hand, while none of its matches has started."""
        async with self._locks[tournament_id]:
            t = await self._organised(who, tournament_id)
            r = t.current_round
            if t.status != "running" or r < 1:
                raise ServiceError("round-open", "no round is paired")
            if round_no is not None and round_no != r:
                raise ServiceError("round-open", f"only the current round ({r}) can be paired again")
            boards = await self.store.pairings(t.id, r)
            tables = [await self.tables.fetch(b.table_id) for b in boards if b.table_id is not None]
            if any(table.status != "open" for table in tables) or any(
                b.status == "done" and b.kind != "bye" for b in boards
            ):
                raise ServiceError("round-open", f"a match of round {r} has started: its pairing stands")
            manual = Pairing(r, tuple(pairs), bye)
            self._check_manual(manual, await self._active(t, r), await self._forbidden(t.id))
            if not await self.store.unpair_round(t.id, r):
                raise ServiceError("round-open", f"round {r} has results: its pairing stands")
            for table in tables:
                await table.forfeit(None, "the organiser paired the round again")
            await self._pair(await self.get(t.id), r, manual)
            return await self.store.pairings(t.id, r)

    # -- teams ----------------------------------------------------------------------------------
    async def register(
        self, who: Identity, tournament_id: str, partner: str, name: str | None = None
    ) -> TournamentTeamRow:
        """``who`` registers a team with the account ``partner`` (a username), who is invited to accept."""
        self._account(who, "play a tournament")
        other = await self.accounts.by_username(partner)
        if other is None:
            raise ServiceError("not-found", f"no account {partner!r}")
        if other.id == who.id:
            raise ServiceError("invalid", "a team is two players: invite your partner")
        async with self._locks[tournament_id]:
            t = await self.get(tournament_id)
            self._check_entry(t)
            teams = await self.store.teams(t.id)
            busy = {p for x in teams if x.status in ("invited", "registered") for p in (x.player_a, x.player_b)}
            if who.id in busy or other.id in busy:
                raise ServiceError("registered", "one of you is in a team of this tournament already")
            names = await self.accounts.names([who.id, other.id])
            label = (name or "").strip() or f"{names.get(who.id, who.name)} & {names.get(other.id, partner)}"
            return await self.store.add_team(
                t.id,
                {
                    "name": label[:64],
                    "player_a": who.id,
                    "player_b": other.id,
                    "status": "invited",
                    "entered_round": 1,
                    "no_shows": 0,
                },
            )

    async def accept(self, who: Identity, tournament_id: str, team: int) -> TournamentTeamRow:
        """The invited partner accepts: the team is registered (after the start: a late entry, C10)."""
        async with self._locks[tournament_id]:
            t = await self.get(tournament_id)
            row = await self.team(t.id, team)
            if row.player_b != who.id:
                raise ServiceError("forbidden", "only the invited partner accepts")
            if row.status != "invited":
                raise ServiceError("registered", f"this team is {row.status}")
            self._check_entry(t)
            entered = t.current_round + 1 if t.status == "running" else 1
            await self.store.update_team(t.id, team, {"status": "invited"}, status="registered", entered_round=entered)
            return await self.team(t.id, team)

    async def withdraw(self, who: Identity, tournament_id: str, team: int) -> TournamentTeamRow:
        """A player of the team, or the organiser, withdraws it: it is not paired again; its results stand."""
        async with self._locks[tournament_id]:
            t = await self.get(tournament_id)
            row = await self.team(t.id, team)
            if who.id not in (row.player_a, row.player_b, t.organiser):
                raise ServiceError("forbidden", "only the team's players or the organiser withdraw it")
            if row.status == "withdrawn":
                return row
            await self.store.update_team(t.id, team, {"status": row.status}, status="withdrawn")
        await self.advance(tournament_id)  # the last team but one gone: the tournament may be over
        return await self.team(tournament_id, team)

    async def check_in(self, who: Identity, tournament_id: str) -> dict[str, Any]:
        """Check in for the round in play: take one's kept seat at one's table (the match starts when all four
        have). Returns the table and the seat."""
        t = await self.get(tournament_id)
        if t.mode != "online" or t.status != "running":
            raise ServiceError("round-open", "there is no online round to check in to")
        teams = {x.team: x for x in await self.store.teams(t.id)}
        for board in await self.store.pairings(t.id, t.current_round):
            mine = [
                x
                for x in (teams.get(board.team_a), teams.get(board.team_b) if board.team_b else None)
                if x is not None and who.id in (x.player_a, x.player_b)
            ]
            if mine and board.table_id is not None:
                if board.status == "done":
                    raise ServiceError("started", "your board of this round has its result")
                table = await self.tables.fetch(board.table_id)
                return {"table": table.id, "seat": await table.join(who, None, None), "board": board.board}
        raise ServiceError("not-seated", "you have no board in this round")

    # -- results --------------------------------------------------------------------------------
    async def match_ended(self, event: MatchEnded) -> None:
        """A tournament table's match ended: its board's result (idempotent: a board has one result)."""
        board = await self.store.pairing_at(event.table_id)
        if board is None or board.status == "done" or board.team_b is None:
            return
        outcome = event.outcome
        kind = {MatchTermination.AWARD: "award", MatchTermination.ABANDON: "abandon"}.get(outcome.termination, "played")
        winner = board.team_a if outcome.winner == 0 else board.team_b
        a, b = (max(0, p) for p in outcome.totals[:2])
        if await self.store.update_pairing(
            board.tournament_id,
            board.round,
            board.board,
            {"status": "playing"},
            status="done",
            kind=kind,
            winner=winner,
            points_a=a,
            points_b=b,
        ):
            self.tables.spawn(self._advance_soon(board.tournament_id))

    async def _advance_soon(self, tournament_id: str) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:  # the sweep tries again
            log.exception("tournament %s could not move on", tournament_id)

    async def sweep(self) -> None:
        """Whatever is due: tournaments to start, no-shows, rounds to pair, tournaments to finish."""
        for t in await self.store.tournaments(["registration", "running"], limit=1000):
            try:
                if t.status == "registration":
                    if self.clock() >= t.starts_at:
                        registered = [x for x in await self.store.teams(t.id) if x.status == "registered"]
                        if len(registered) >= 2:
                            await self.start(None, t.id)
                else:
                    await self.advance(t.id)
            except ServiceError as exc:
                log.warning("tournament %s: %s", t.id, exc.message)
            except Exception:
                log.exception("tournament %s could not move on", t.id)

    async def advance(self, tournament_id: str) -> None:
        """Move a running tournament on: no-shows past the grace, tables left open on decided boards, the
        next round once every board has its result (if the tournament pairs itself), or its end."""
        async with self._locks[tournament_id]:
            t = await self.get(tournament_id)
            if t.status != "running":
                return
            r = t.current_round
            if r == 0:  # started, and the first draw did not get written
                await self._pair(t, 1)
                return
            boards = await self.store.pairings(t.id, r)
            if t.mode == "online":
                await self._no_shows(t, boards)
                boards = await self.store.pairings(t.id, r)
            if any(b.status != "done" for b in boards):
                return
            active = await self._active(t, r + 1)
            if r >= (t.rounds or 0) or len(active) < 2:
                await self.store.update(t.id, {"status": "running"}, status="finished")
            elif t.auto_pair:
                await self._pair(t, r + 1)

    async def _no_shows(self, t: TournamentRow, boards: list[PairingRow]) -> None:
        """C10: past the round's start plus the grace, a team not seated at its table loses 0-200."""
        started = t.round_started_at
        due = started is not None and (self.clock() - started).total_seconds() >= t.no_show_grace
        teams = {x.team: x for x in await self.store.teams(t.id)}
        for board in boards:
            if board.table_id is None or board.team_b is None:
                continue
            if board.status == "done":
                if board.kind == "forfeit":  # a no-show: its table may still wait (a crash between the two steps)
                    table = await self.tables.fetch(board.table_id)
                    if table.status == "open":
                        await table.forfeit(_side(board, board.winner), "no-show")
                continue
            table = await self.tables.fetch(board.table_id)
            if not due or table.status != "open":
                continue
            seated = {s.player for s in table.state.seats if s.player is not None}
            present = [
                team for team in (board.team_a, board.team_b) if {teams[team].player_a, teams[team].player_b} <= seated
            ]
            winner = present[0] if present else None
            await self.store.update_pairing(
                t.id,
                board.round,
                board.board,
                {"status": "playing"},
                status="done",
                kind="forfeit",
                winner=winner,
                points_a=FORFEIT_POINTS if winner == board.team_a else 0,
                points_b=FORFEIT_POINTS if winner == board.team_b else 0,
            )
            for team in (board.team_a, board.team_b):
                if team not in present:
                    row = teams[team]
                    status = "withdrawn" if row.no_shows + 1 >= NO_SHOW_LIMIT else row.status
                    await self.store.update_team(t.id, team, {}, no_shows=row.no_shows + 1, status=status)
            await table.forfeit(_side(board, winner), "no-show")

    # -- over the board ------------------------------------------------------------------------
    async def board_entry(
        self,
        who: Identity,
        tournament_id: str,
        round_no: int,
        board_no: int,
        points_a: int,
        points_b: int,
        kind: str = "hand",
        note: str = "",
    ) -> PairingRow:
        """A board's referee enters a hand's points for each team (``kind="hand"``), or a fine (``kind="fine"``:
        the points go to the fined team's opponents, C6), over the board."""
        if kind not in ("hand", "fine"):
            raise ServiceError("invalid", "an entry is a hand or a fine")
        if points_a < 0 or points_b < 0 or points_a + points_b == 0:
            raise ServiceError("invalid", "an entry gives some points to one team or both, none negative")
        async with self._locks[tournament_id]:
            t, board = await self._refereed_board(who, tournament_id, round_no, board_no)
            if kind == "fine" and role_of(t.game) != REFEREE:
                title = variants.get(t.game).title
                raise ServiceError("no-referee", f"{title} has no table referee (C8) and no fines: enter the hands")
            hands = [*board.hands, {"a": points_a, "b": points_b, "kind": kind, "note": note, "by": who.name}]
            await self.store.update_pairing(
                t.id,
                round_no,
                board_no,
                {"status": "playing"},
                hands=hands,
                points_a=board.points_a + points_a,
                points_b=board.points_b + points_b,
            )
            return await self._board(t.id, round_no, board_no)

    async def board_result(
        self,
        who: Identity,
        tournament_id: str,
        round_no: int,
        board_no: int,
        winner: int | None = None,
        absent: list[int] | None = None,
        reason: str = "",
    ) -> PairingRow:
        """A board's referee ends it over the board: the team with more points wins (``winner`` names it when
        the referee decides otherwise: an award, C8); ``absent`` teams lose by no-show (C10). Final. In a game
        without a table referee the points alone decide (no award: ``no-referee``)."""
        async with self._locks[tournament_id]:
            t, board = await self._refereed_board(who, tournament_id, round_no, board_no)
            refereed = role_of(t.game) == REFEREE
            title = variants.get(t.game).title
            pair = (board.team_a, board.team_b)
            if absent:
                if not set(absent) <= set(pair):
                    raise ServiceError("invalid", "the absent teams are this board's")
                present = [x for x in pair if x not in absent]
                won = present[0] if present else None
                fields: dict[str, Any] = {
                    "kind": "forfeit",
                    "winner": won,
                    "points_a": FORFEIT_POINTS if won == board.team_a else 0,
                    "points_b": FORFEIT_POINTS if won == board.team_b else 0,
                }
                teams = {x.team: x for x in await self.store.teams(t.id)}
                for team in absent:
                    row = teams[team]
                    status = "withdrawn" if row.no_shows + 1 >= NO_SHOW_LIMIT else row.status
                    await self.store.update_team(t.id, team, {}, no_shows=row.no_shows + 1, status=status)
            else:
                by_points = (
                    None
                    if board.points_a == board.points_b
                    else board.team_a
                    if board.points_a > board.points_b
                    else board.team_b
                )
                if winner is not None and winner not in pair:
                    raise ServiceError("invalid", "the winner is one of this board's teams")
                if not refereed and winner is not None and winner != by_points:
                    raise ServiceError(
                        "no-referee", f"{title} has no table referee (C8): the points decide the board, no award"
                    )
                if winner is None and by_points is None:
                    if not refereed:
                        raise ServiceError("invalid", "the points are equal: enter the next hands until one team leads")
                    raise ServiceError("invalid", "the points are equal: name the winner (the referee's decision)")
                won = winner if winner is not None else by_points
                fields = {"kind": "board" if won == by_points else "award", "winner": won}
            end = {"result": fields["kind"], "winner": fields["winner"], "note": reason, "by": who.name}
            hands = [*board.hands, end]
            await self.store.update_pairing(
                t.id, round_no, board_no, {"status": "playing"}, status="done", hands=hands, **fields
            )
        await self.advance(tournament_id)
        return await self._board(tournament_id, round_no, board_no)

    # -- referees ------------------------------------------------------------------------------
    async def referees_table(self, table: TableState, who: Identity) -> bool:
        """C8: who referees a tournament's table: the organiser, and the referees named for its board;
        nobody in a game without a table referee."""
        if table.tournament_id is None or not table.game.referee:
            return False
        board = await self.store.pairing_at(table.id)
        return board is not None and await self.referees_board(who, table.tournament_id, board.board)

    async def referees_board(self, who: Identity, tournament_id: str, board: int) -> bool:
        """Whether ``who`` is the organiser or one named for ``board`` (a referee, or a result helper)."""
        t = await self.store.get(tournament_id)
        if t is None or who.guest:
            return False
        if who.id == t.organiser:
            return True
        referees = await self.store.referees(t.id)
        return any(r.player_id == who.id and (not r.boards or board in r.boards) for r in referees)

    # -- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def _account(who: Identity, what: str) -> None:
        if who.guest:
            raise ServiceError("accounts-only", f"sign up to {what}")

    async def _organised(self, who: Identity, tournament_id: str) -> TournamentRow:
        t = await self.get(tournament_id)
        if who.id != t.organiser:
            raise ServiceError("forbidden", "only the organiser may do this")
        return t

    def _check_entry(self, t: TournamentRow) -> None:
        """Registration: from its opening to its closing time, if any, and (C10) until half the rounds are paired."""
        now = self.clock()
        if t.status == "finished" or now < t.registration_opens:
            raise ServiceError("closed", "registration is not open")
        closes = t.registration_closes
        if closes is not None and now >= closes:
            raise ServiceError("closed", "registration has closed")
        if t.status == "running" and not late_entry_open(t.current_round, t.rounds or 0):
            raise ServiceError("closed", "late entry ends once half the rounds are paired (C10)")

    async def _active(self, t: TournamentRow, round_no: int) -> list[int]:
        return [
            x.team for x in await self.store.teams(t.id) if x.status == "registered" and x.entered_round <= round_no
        ]

    async def _forbidden(self, tournament_id: str) -> list[frozenset[int]]:
        return [frozenset(p) for p in await self.store.forbidden(tournament_id)]

    @staticmethod
    def _check_manual(pairing: Pairing, active: list[int], forbidden: list[frozenset[int]]) -> None:
        problems = check_pairing(pairing, active, forbidden)
        if problems:
            raise ServiceError("bad-pairing", "; ".join(problems))

    async def _board(self, tournament_id: str, round_no: int, board_no: int) -> PairingRow:
        for board in await self.store.pairings(tournament_id, round_no):
            if board.board == board_no:
                return board
        raise ServiceError("not-found", f"no board {board_no} in round {round_no}")

    async def _refereed_board(
        self, who: Identity, tournament_id: str, round_no: int, board_no: int
    ) -> tuple[TournamentRow, PairingRow]:
        t = await self.get(tournament_id)
        if t.mode != "board":
            there = "referee them there" if role_of(t.game) == REFEREE else "their matches give the results"
            raise ServiceError("invalid", f"this tournament plays on the platform's tables: {there}")
        board = await self._board(t.id, round_no, board_no)
        if not await self.referees_board(who, t.id, board_no):
            if role_of(t.game) == REFEREE:
                raise ServiceError("forbidden", "you are not a referee of this board (C8)")
            raise ServiceError("forbidden", "you do not enter this board's results: the organiser names who does")
        if board.status == "done" or board.team_b is None:
            raise ServiceError("closed", "this board has its result: it is final (C8)")
        return t, board

    async def _pair(self, t: TournamentRow, round_no: int, manual: Pairing | None = None) -> None:
        """Pair round ``round_no`` (the Swiss system, or ``manual``) and, online, open its tables."""
        teams = await self.store.teams(t.id)
        boards = await self.store.pairings(t.id)
        active = [x.team for x in teams if x.status == "registered" and x.entered_round <= round_no]
        forbidden = await self._forbidden(t.id)
        ranked = standings(results_by_team(teams, boards), t.id)
        if manual is not None:
            self._check_manual(manual, active, forbidden)
            pairing = manual
        else:
            try:
                pairing = pair_round(round_no, ranked, active, forbidden, random.Random(secrets.randbits(64)))
            except ValueError as exc:
                raise ServiceError("bad-pairing", str(exc)) from None
        by_team = {x.team: x for x in teams}
        rows: list[dict[str, Any]] = []
        opened = []
        for k, (a, b) in enumerate(pairing.pairs, start=1):
            row: dict[str, Any] = {**_BOARD, "board": k, "team_a": a, "team_b": b}
            if t.mode == "online":
                ta, tb = by_team[a], by_team[b]
                table = await self.tables.create(
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
            rows.append(row)
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
        if not await self.store.pair_round(t.id, round_no, rows, round_started_at=self.clock()):
            for table in opened:  # paired meanwhile (another node): these tables are not needed
                await table.forfeit(None, "paired twice")
            return
        log.info("tournament %s: round %d paired (%d boards)", t.id, round_no, len(rows))
