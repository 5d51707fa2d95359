"""The tournament director: runs Swiss tournaments of pairs (C10) on the platform's tables, refereed (C8).

:class:`Tournaments` is what the rest of the platform calls (like lila's ``SwissApi``); each of its jobs
is a part of its own, in its own module:

- :mod:`.registration` — creating a tournament, its settings, the pairs kept apart, and the teams'
  entries (register, accept, withdraw, late entry);
- :mod:`.rounds` — the start, pairing a round and opening its tables, check-in, no-shows, the next round
  or the end, pairing by hand, and the sweep that finishes whatever is due;
- :mod:`.match_end` — the listener of ``MatchEnded``: a tournament table's match end is its board's result;
- :mod:`.board` — over the board: a referee's entries and a board's result;
- :mod:`.referees` — who referees a board or a table (:class:`~.referees.RefereePolicy`, which the table
  service is given when it is built) and the organiser naming them.

They share a :class:`~.context.Context` (the stores, the tables, the clock, a lock a tournament); each
step reads a :class:`~.snapshot.Snapshot` once and writes through the store's guarded writes
(``store/tournaments.py``), so a step repeated after a crash, by the sweep, or by another node, does
nothing twice. The standings and the pairing are pure functions (:mod:`.swiss`, :mod:`.results`); what
people see is :mod:`.view`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from capicua.service.bus import Bus, MatchEnded
from capicua.service.identity import Identity
from capicua.service.relay import Router
from capicua.service.store import Store
from capicua.service.store.schema import PairingRow, TournamentRow, TournamentTeamRow
from capicua.service.tables import TableService
from capicua.service.tournaments.board import OverTheBoard
from capicua.service.tournaments.context import HELPER, MAX_ROUNDS, MODES, REFEREE, Context, role_of, utc_now
from capicua.service.tournaments.match_end import MatchEndListener
from capicua.service.tournaments.referees import RefereePolicy, Referees
from capicua.service.tournaments.registration import Registration
from capicua.service.tournaments.rounds import Rounds
from capicua.service.tournaments.snapshot import Snapshot
from capicua.service.tournaments.swiss import Standing

__all__ = ["HELPER", "MAX_ROUNDS", "MODES", "REFEREE", "Tournaments", "role_of"]


class Tournaments:
    """Every tournament of the platform; ``referees`` is the policy the table service asks too; ``clock``
    gives the time (tests set it)."""

    def __init__(
        self,
        store: Store,
        tables: TableService,
        referees: RefereePolicy,
        clock: Callable[[], dt.datetime] | None = None,
        router: Router | None = None,
    ) -> None:
        self.ctx = Context(store.tournaments, store.accounts, tables, clock or utc_now, router=router)
        self.policy = referees
        self.rounds = Rounds(self.ctx)
        self.registration = Registration(self.ctx, self.rounds.advance)
        self.results = MatchEndListener(self.ctx, self.rounds.advance)
        self.board = OverTheBoard(self.ctx, self.rounds.advance)
        self.referees = Referees(self.ctx)

    def attach(self, bus: Bus) -> Tournaments:
        """Listen to the ends of matches: a tournament table's match end is its board's result."""
        self.results.attach(bus)
        return self

    # -- reading ---------------------------------------------------------------------------
    async def get(self, tournament_id: str) -> TournamentRow:
        return await self.ctx.get(tournament_id)

    async def read(self, tournament_id: str) -> Snapshot:
        """The tournament and all its rows, read at once."""
        return await self.ctx.read(tournament_id)

    async def team(self, tournament_id: str, team: int) -> TournamentTeamRow:
        return (await self.ctx.read(tournament_id, every_round=False)).team(team)

    async def forbidden(self, tournament_id: str) -> list[tuple[int, int]]:
        """The pairs of teams the organiser keeps apart."""
        return await self.ctx.store.forbidden(tournament_id)

    async def ranking(self, t: TournamentRow) -> tuple[list[Standing], list[TournamentTeamRow], list[PairingRow]]:
        """The standings now (C10), with the teams and every board they come from."""
        snap = await self.ctx.read(t.id)
        return snap.ranking(), list(snap.teams), list(snap.boards)

    # -- registration (registration.py) ------------------------------------------------------
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
        """A new tournament in registration (:meth:`.Registration.create` says its settings)."""
        return await self.registration.create(
            who,
            name,
            game,
            starts_at,
            rounds=rounds,
            options=options,
            mode=mode,
            registration_opens=registration_opens,
            registration_closes=registration_closes,
            no_show_grace=no_show_grace,
            auto_pair=auto_pair,
        )

    async def change(self, who: Identity, tournament_id: str, **changes: Any) -> TournamentRow:
        return await self.registration.change(who, tournament_id, **changes)

    async def forbid(self, who: Identity, tournament_id: str, a: int, b: int, forbidden: bool = True) -> None:
        await self.registration.forbid(who, tournament_id, a, b, forbidden)

    async def register(
        self, who: Identity, tournament_id: str, partner: str, name: str | None = None
    ) -> TournamentTeamRow:
        return await self.registration.register(who, tournament_id, partner, name)

    async def accept(self, who: Identity, tournament_id: str, team: int) -> TournamentTeamRow:
        return await self.registration.accept(who, tournament_id, team)

    async def withdraw(self, who: Identity, tournament_id: str, team: int) -> TournamentTeamRow:
        return await self.registration.withdraw(who, tournament_id, team)

    # -- rounds (rounds.py) --------------------------------------------------------------------
    async def start(self, who: Identity, tournament_id: str) -> TournamentRow:
        return await self.rounds.start(who, tournament_id)

    async def pair_next(
        self, who: Identity, tournament_id: str, pairs: list[tuple[int, int]] | None = None, bye: int | None = None
    ) -> list[PairingRow]:
        return await self.rounds.pair_next(who, tournament_id, pairs, bye)

    async def repair(
        self,
        who: Identity,
        tournament_id: str,
        pairs: list[tuple[int, int]],
        bye: int | None = None,
        round_no: int | None = None,
    ) -> list[PairingRow]:
        return await self.rounds.repair(who, tournament_id, pairs, bye, round_no)

    async def check_in(self, who: Identity, tournament_id: str) -> dict[str, Any]:
        return await self.rounds.check_in(who, tournament_id)

    async def sweep(self) -> None:
        await self.rounds.sweep()

    async def advance(self, tournament_id: str) -> None:
        await self.rounds.advance(tournament_id)

    # -- results (match_end.py, board.py) ------------------------------------------------------
    async def match_ended(self, event: MatchEnded) -> None:
        await self.results.match_ended(event)

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
        return await self.board.entry(who, tournament_id, round_no, board_no, points_a, points_b, kind, note)

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
        return await self.board.result(who, tournament_id, round_no, board_no, winner, absent, reason)

    # -- referees (referees.py) ----------------------------------------------------------------
    async def set_referee(
        self, who: Identity, tournament_id: str, username: str, boards: list[int] | None, role: str = REFEREE
    ) -> None:
        await self.referees.set_referee(who, tournament_id, username, boards, role)
