"""What the parts of the tournament director share: the stores and the tables they work on, the clock, one
lock a tournament (a step holds it from its read to its last write), and the checks every part makes."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from capicua.rules import variants
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.relay import Router
from capicua.service.store import AccountStore
from capicua.service.store.schema import PairingRow, TournamentRow
from capicua.service.store.tournaments import TournamentStore
from capicua.service.tables import TableService
from capicua.service.tournaments.snapshot import Snapshot

__all__ = [
    "HELPER",
    "MAX_ROUNDS",
    "MODES",
    "REFEREE",
    "Context",
    "account_only",
    "organised",
    "role_of",
    "side",
    "utc_now",
]

MODES = ("online", "board")
MAX_ROUNDS = 30
#: Who the organiser names for some boards: a table referee (C8), in a game that has one; else a result
#: helper, who only enters over-the-board results.
REFEREE, HELPER = "referee", "helper"


def role_of(game: str) -> str:
    """What the people named for a tournament of ``game`` are: :data:`REFEREE` where the game has a table
    referee (``Variant.referee``, C8), else :data:`HELPER`."""
    return REFEREE if variants.get(game).referee else HELPER


def account_only(who: Identity, what: str) -> None:
    if who.guest:
        raise ServiceError("accounts-only", f"sign up to {what}")


def organised(who: Identity, t: TournamentRow) -> TournamentRow:
    """``t``, if ``who`` organises it (else ``forbidden``)."""
    if who.id != t.organiser:
        raise ServiceError("forbidden", "only the organiser may do this")
    return t


def side(board: PairingRow, team: int | None) -> int | None:
    """The side (0: seats 0 and 2, 1: seats 1 and 3) of ``team`` at its board's table."""
    return None if team is None else 0 if team == board.team_a else 1


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class Context:
    """The tournaments' store, the accounts, the tables (created here; reached wherever they run through the
    ``router``), the clock (tests set it) and the locks."""

    store: TournamentStore
    accounts: AccountStore
    tables: TableService
    clock: Callable[[], dt.datetime] = utc_now
    locks: defaultdict[str, asyncio.Lock] = field(default_factory=lambda: defaultdict(asyncio.Lock))
    router: Router | None = None

    def __post_init__(self) -> None:
        if self.router is None:
            self.router = Router(self.tables)  # this node's tables only

    async def seats(self, table_id: str) -> tuple[str, list[str | None]]:
        """A round's table, wherever it runs: its status and the player at each seat."""
        assert self.router is not None
        answer = await self.router.call(table_id, "seats", None)
        return answer["status"], answer["players"]

    async def forfeit(self, table_id: str, winner: int | None, reason: str) -> None:
        """Close a round's table unplayed (C10), wherever it runs."""
        assert self.router is not None
        await self.router.call(table_id, "forfeit", None, winner=winner, reason=reason)

    async def join(self, table_id: str, who: Identity) -> int:
        """``who`` takes his kept seat at a round's table, wherever it runs: the seat."""
        assert self.router is not None
        seat: int = (await self.router.call(table_id, "join", who, seat=None, invite=None))["seat"]
        return seat

    def lock(self, tournament_id: str) -> asyncio.Lock:
        """The lock of a tournament's steps on this node (the store's guarded writes keep nodes apart)."""
        return self.locks[tournament_id]

    async def get(self, tournament_id: str) -> TournamentRow:
        """The tournament's row alone, for a step that needs nothing else (``not-found`` if none)."""
        row = await self.store.get(tournament_id)
        if row is None:
            raise ServiceError("not-found", f"no tournament {tournament_id!r}")
        return row

    async def read(self, tournament_id: str, every_round: bool = True) -> Snapshot:
        """The tournament and all its rows, in one read (``not-found`` if none); not ``every_round``: of the
        boards, only the current round's."""
        rows = await self.store.read(tournament_id, every_round)
        if rows is None:
            raise ServiceError("not-found", f"no tournament {tournament_id!r}")
        return Snapshot.of(rows)

    async def every_round(self, snap: Snapshot) -> Snapshot:
        """``snap`` with the boards of the rounds before its current one, if it was read without them (one
        read: those rounds are final, so they are as they were when ``snap`` was read)."""
        if snap.every_round:
            return snap
        return snap.with_earlier(await self.store.pairings(snap.t.id, before=snap.t.current_round))
