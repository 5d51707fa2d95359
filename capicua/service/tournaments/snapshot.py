"""A tournament as one step of the director sees it: read once at the step's start, then kept up to date
with the step's own writes, so that no step reads the same rows twice.

A step (start a round, move a round on, enter a result) takes its tournament's lock, reads a
:class:`Snapshot` (one read transaction: the tournament, its teams, every board, the pairs kept apart, the
referees), decides from it, and writes through the store's guarded writes. Each write that succeeds gives
the step a new snapshot (:meth:`Snapshot.with_board` and the like), equal to what a read would return.
A guarded write that finds the rows changed (another node got there first) ends the step: the next sweep
reads again.

A step that pairs nothing (a check-in, a registration, moving a round on until it is over) reads only the
current round's boards (``every_round`` False); the rounds before are final, so a step that comes to
pair a round adds them with one more read (:meth:`~.context.Context.every_round`), never reading a row
twice. The standings need every round: asked of a snapshot without them, it raises.

Nothing here does I/O.

>>> from capicua.service.store.schema import TournamentRow, TournamentTeamRow
>>> t = TournamentRow(id="t1", current_round=0, status="running")
>>> teams = [TournamentTeamRow(team=k, status="registered", entered_round=1, no_shows=0) for k in (1, 2, 3)]
>>> s = Snapshot(t, teams, [], [], [])
>>> s.active(1)
[1, 2, 3]
>>> s.with_team(2, status="withdrawn").active(1), s.active(1)
([1, 3], [1, 2, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from capicua.service.errors import ServiceError
from capicua.service.store.schema import (
    Base,
    PairingRow,
    TournamentRefereeRow,
    TournamentRow,
    TournamentTeamRow,
)
from capicua.service.store.tournaments import TournamentRows
from capicua.service.tournaments.results import results_by_team
from capicua.service.tournaments.swiss import Result, Standing, standings

__all__ = ["Snapshot"]

Row = TypeVar("Row", bound=Base)


def _copy(row: Row, **fields: Any) -> Row:
    """A detached copy of a stored row with ``fields`` changed (the stored row is left as it was read)."""
    values = {column.key: getattr(row, column.key) for column in row.__table__.columns}
    return type(row)(**{**values, **fields})


@dataclass(frozen=True)
class Snapshot:
    """One tournament's rows: ``t``, ``teams`` by number, ``boards`` by round then board (of every round,
    or only of the current one unless ``every_round``), ``forbidden`` (pairs of teams), ``referees``."""

    t: TournamentRow
    teams: Sequence[TournamentTeamRow]
    boards: Sequence[PairingRow]
    forbidden: Sequence[tuple[int, int]]
    referees: Sequence[TournamentRefereeRow]
    every_round: bool = True

    @classmethod
    def of(cls, rows: TournamentRows) -> Snapshot:
        return cls(rows.tournament, rows.teams, rows.boards, rows.forbidden, rows.referees, rows.every_round)

    # -- reading -------------------------------------------------------------------------------
    @property
    def by_team(self) -> dict[int, TournamentTeamRow]:
        return {x.team: x for x in self.teams}

    def team(self, team: int) -> TournamentTeamRow:
        for row in self.teams:
            if row.team == team:
                return row
        raise ServiceError("not-found", f"no team {team} in this tournament")

    def round(self, round_no: int) -> list[PairingRow]:
        """Round ``round_no``'s boards, board 1 first."""
        self._has(round_no)
        return [b for b in self.boards if b.round == round_no]

    def board(self, round_no: int, board_no: int) -> PairingRow:
        self._has(round_no)
        for board in self.boards:
            if board.round == round_no and board.board == board_no:
                return board
        raise ServiceError("not-found", f"no board {board_no} in round {round_no}")

    def registered(self) -> list[TournamentTeamRow]:
        return [x for x in self.teams if x.status == "registered"]

    def active(self, round_no: int) -> list[int]:
        """The teams that round ``round_no`` pairs: registered, and entered by then."""
        return [x.team for x in self.teams if x.status == "registered" and x.entered_round <= round_no]

    def forbidden_pairs(self) -> list[frozenset[int]]:
        return [frozenset(p) for p in self.forbidden]

    def results(self) -> dict[int, list[Result]]:
        self._has(None)
        return results_by_team(self.teams, self.boards)

    def ranking(self) -> list[Standing]:
        """The standings now (C10)."""
        return standings(self.results(), self.t.id)

    def _has(self, round_no: int | None) -> None:
        """Refuse to answer from boards this snapshot was not read with (a step's mistake, not a player's)."""
        if not self.every_round and round_no != self.t.current_round:
            raise RuntimeError("this snapshot holds the current round's boards only: read every round")

    # -- what the step read later, and what it wrote -------------------------------------------------
    def with_earlier(self, boards: Sequence[PairingRow]) -> Snapshot:
        """The snapshot of the current round with the ``boards`` of the rounds before it: every round."""
        return replace(self, boards=[*boards, *self.boards], every_round=True)

    def with_tournament(self, **fields: Any) -> Snapshot:
        return replace(self, t=_copy(self.t, **fields))

    def with_team(self, team: int, **fields: Any) -> Snapshot:
        return replace(self, teams=[_copy(x, **fields) if x.team == team else x for x in self.teams])

    def with_board(self, round_no: int, board_no: int, **fields: Any) -> Snapshot:
        boards = [_copy(b, **fields) if (b.round, b.board) == (round_no, board_no) else b for b in self.boards]
        return replace(self, boards=boards)

    def with_round(self, round_no: int, boards: Sequence[dict[str, Any]], **fields: Any) -> Snapshot:
        """Round ``round_no`` paired (its ``boards`` as the store inserts them), the tournament's current
        round moved to it with ``fields``."""
        rows = [PairingRow(tournament_id=self.t.id, round=round_no, hands=[], **b) for b in boards]
        before = [b for b in self.boards if b.round < round_no]
        return replace(self, boards=[*before, *rows]).with_tournament(current_round=round_no, **fields)

    def without_round(self, round_no: int) -> Snapshot:
        """Round ``round_no`` taken back: the round before it is the current one again."""
        self._has(None)
        kept = [b for b in self.boards if b.round < round_no]
        return replace(self, boards=kept).with_tournament(current_round=round_no - 1)
