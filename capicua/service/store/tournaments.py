"""Swiss tournaments (C10): the tournament, its teams, each round's pairings and results, the pairings
the organiser forbids, and its referees (C8).

Every write that moves a tournament on is one transaction guarded by what it expects to find
(``expect``): pairing round ``r`` inserts its boards only if round ``r - 1`` is the current one; a
result is written only on a board still in play. A director that crashed half way and tries
again, or two nodes that both try, cannot pair a round twice or count a result twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import case, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from capicua.service.store.database import Database, StoreError
from capicua.service.store.schema import (
    PairingRow,
    TournamentForbiddenRow,
    TournamentRefereeRow,
    TournamentRow,
    TournamentTeamRow,
)

__all__ = ["SqlTournamentStore", "TournamentRows", "TournamentStore"]


@dataclass(frozen=True)
class TournamentRows:
    """Everything stored of one tournament, read at once: its row, its teams (by number), the boards (by
    round, then board: of every round, or only of the current one unless ``every_round``), the pairs kept
    apart, and its referees."""

    tournament: TournamentRow
    teams: list[TournamentTeamRow]
    boards: list[PairingRow]
    forbidden: list[tuple[int, int]]
    referees: list[TournamentRefereeRow]
    every_round: bool = True


class TournamentStore(Protocol):
    async def create(self, fields: dict[str, Any]) -> TournamentRow: ...

    async def get(self, tournament_id: str) -> TournamentRow | None: ...

    async def read(self, tournament_id: str, every_round: bool = True) -> TournamentRows | None: ...

    async def tournaments(self, statuses: Sequence[str] | None = None, limit: int = 100) -> list[TournamentRow]: ...

    async def update(self, tournament_id: str, expect: dict[str, Any], **fields: Any) -> bool: ...

    async def teams(self, tournament_id: str) -> list[TournamentTeamRow]: ...

    async def registered_counts(self, tournament_ids: Sequence[str]) -> dict[str, int]: ...

    async def add_team(self, tournament_id: str, fields: dict[str, Any]) -> TournamentTeamRow: ...

    async def update_team(self, tournament_id: str, team: int, expect: dict[str, Any], **fields: Any) -> bool: ...

    async def pairings(
        self, tournament_id: str, round_no: int | None = None, before: int | None = None
    ) -> list[PairingRow]: ...

    async def pairing_at(self, table_id: str) -> PairingRow | None: ...

    async def pair_round(
        self, tournament_id: str, round_no: int, boards: list[dict[str, Any]], **fields: Any
    ) -> bool: ...

    async def unpair_round(self, tournament_id: str, round_no: int) -> bool: ...

    async def update_pairing(
        self, tournament_id: str, round_no: int, board: int, expect: dict[str, Any], **fields: Any
    ) -> bool: ...

    async def forfeit(
        self,
        tournament_id: str,
        round_no: int,
        board: int,
        expect: dict[str, Any],
        fields: dict[str, Any],
        absent: Sequence[int],
        withdraw_at: int,
    ) -> bool: ...

    async def forbidden(self, tournament_id: str) -> list[tuple[int, int]]: ...

    async def forbid(self, tournament_id: str, a: int, b: int, forbidden: bool) -> None: ...

    async def referees(self, tournament_id: str) -> list[TournamentRefereeRow]: ...

    async def set_referee(self, tournament_id: str, player_id: str, boards: list[int] | None) -> None: ...


class SqlTournamentStore:
    """:class:`TournamentStore` on SQLAlchemy."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- tournaments ---------------------------------------------------------------------
    async def create(self, fields: dict[str, Any]) -> TournamentRow:
        return await self.db.add_new(lambda id: TournamentRow(id=id, **fields), "tournament")

    async def get(self, tournament_id: str) -> TournamentRow | None:
        async with self.db.sessions() as session:
            return await session.get(TournamentRow, tournament_id)

    async def read(self, tournament_id: str, every_round: bool = True) -> TournamentRows | None:
        """The tournament and all that is stored of it, in one read transaction (None: no such tournament);
        not ``every_round``: of the boards, only the current round's (a step that pairs nothing needs no
        more, and the rounds before are final)."""
        async with self.db.sessions() as session, session.begin():
            t = await session.get(TournamentRow, tournament_id)
            if t is None:
                return None
            teams = await session.execute(
                select(TournamentTeamRow)
                .where(TournamentTeamRow.tournament_id == tournament_id)
                .order_by(TournamentTeamRow.team)
            )
            boards_query = select(PairingRow).where(PairingRow.tournament_id == tournament_id)
            if not every_round:
                boards_query = boards_query.where(PairingRow.round == t.current_round)
            boards = await session.execute(boards_query.order_by(PairingRow.round, PairingRow.board))
            forbidden = await session.execute(
                select(TournamentForbiddenRow).where(TournamentForbiddenRow.tournament_id == tournament_id)
            )
            referees = await session.execute(
                select(TournamentRefereeRow).where(TournamentRefereeRow.tournament_id == tournament_id)
            )
            return TournamentRows(
                t,
                list(teams.scalars()),
                list(boards.scalars()),
                [(r.team_a, r.team_b) for r in forbidden.scalars()],
                list(referees.scalars()),
                every_round or t.current_round <= 1,
            )

    async def tournaments(self, statuses: Sequence[str] | None = None, limit: int = 100) -> list[TournamentRow]:
        query = select(TournamentRow).order_by(TournamentRow.starts_at.desc()).limit(limit)
        if statuses is not None:
            query = query.where(TournamentRow.status.in_(list(statuses)))
        async with self.db.sessions() as session:
            return list((await session.execute(query)).scalars())

    async def update(self, tournament_id: str, expect: dict[str, Any], **fields: Any) -> bool:
        """Set ``fields`` if the tournament's columns hold what ``expect`` says; whether it did."""
        where = [TournamentRow.id == tournament_id, *(getattr(TournamentRow, k) == v for k, v in expect.items())]
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(update(TournamentRow).where(*where).values(**fields))
            return bool(result.rowcount)  # type: ignore[attr-defined]

    # -- teams -----------------------------------------------------------------------------
    async def teams(self, tournament_id: str) -> list[TournamentTeamRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(TournamentTeamRow)
                .where(TournamentTeamRow.tournament_id == tournament_id)
                .order_by(TournamentTeamRow.team)
            )
            return list(result.scalars())

    async def registered_counts(self, tournament_ids: Sequence[str]) -> dict[str, int]:
        """How many registered teams each of these tournaments has (one without any is left out)."""
        if not tournament_ids:
            return {}
        async with self.db.sessions() as session:
            result = await session.execute(
                select(TournamentTeamRow.tournament_id, func.count())
                .where(
                    TournamentTeamRow.tournament_id.in_(list(tournament_ids)),
                    TournamentTeamRow.status == "registered",
                )
                .group_by(TournamentTeamRow.tournament_id)
            )
            return {tournament_id: count for tournament_id, count in result}

    async def add_team(self, tournament_id: str, fields: dict[str, Any]) -> TournamentTeamRow:
        """A new team, numbered after the last one (1, 2, …)."""
        for _ in range(5):
            try:
                async with self.db.writing(), self.db.sessions() as session, session.begin():
                    last = await session.execute(
                        select(func.max(TournamentTeamRow.team)).where(TournamentTeamRow.tournament_id == tournament_id)
                    )
                    row = TournamentTeamRow(tournament_id=tournament_id, team=(last.scalar() or 0) + 1, **fields)
                    session.add(row)
                return row
            except IntegrityError:  # another registration took that number: the next one
                continue
        raise StoreError("could not number the team")

    async def update_team(self, tournament_id: str, team: int, expect: dict[str, Any], **fields: Any) -> bool:
        where = [
            TournamentTeamRow.tournament_id == tournament_id,
            TournamentTeamRow.team == team,
            *(getattr(TournamentTeamRow, k) == v for k, v in expect.items()),
        ]
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(update(TournamentTeamRow).where(*where).values(**fields))
            return bool(result.rowcount)  # type: ignore[attr-defined]

    # -- pairings -------------------------------------------------------------------------
    async def pairings(
        self, tournament_id: str, round_no: int | None = None, before: int | None = None
    ) -> list[PairingRow]:
        """The boards of round ``round_no`` (None: of every round), or of the rounds ``before`` one."""
        query = select(PairingRow).where(PairingRow.tournament_id == tournament_id)
        if round_no is not None:
            query = query.where(PairingRow.round == round_no)
        if before is not None:
            query = query.where(PairingRow.round < before)
        async with self.db.sessions() as session:
            result = await session.execute(query.order_by(PairingRow.round, PairingRow.board))
            return list(result.scalars())

    async def pairing_at(self, table_id: str) -> PairingRow | None:
        async with self.db.sessions() as session:
            result = await session.execute(select(PairingRow).where(PairingRow.table_id == table_id))
            return result.scalars().first()

    async def pair_round(self, tournament_id: str, round_no: int, boards: list[dict[str, Any]], **fields: Any) -> bool:
        """Round ``round_no``'s boards, and the tournament's ``current_round`` (with ``fields``) moved to
        it, in one transaction; False, and nothing written, unless round ``round_no - 1`` was current."""
        rows = [{"tournament_id": tournament_id, "round": round_no, "hands": [], **b} for b in boards]
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            moved = await session.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id, TournamentRow.current_round == round_no - 1)
                .values(current_round=round_no, **fields)
            )
            if not moved.rowcount:  # type: ignore[attr-defined]
                return False
            if rows:
                await session.execute(insert(PairingRow), rows)
        return True

    async def unpair_round(self, tournament_id: str, round_no: int) -> bool:
        """Take back round ``round_no`` (the organiser pairs it again by hand): only while it is the current
        round and none of its boards has a result but a bye."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            played = await session.execute(
                select(func.count()).where(
                    PairingRow.tournament_id == tournament_id,
                    PairingRow.round == round_no,
                    PairingRow.status == "done",
                    PairingRow.kind != "bye",
                )
            )
            if played.scalar_one():
                return False
            moved = await session.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id, TournamentRow.current_round == round_no)
                .values(current_round=round_no - 1)
            )
            if not moved.rowcount:  # type: ignore[attr-defined]
                return False
            await session.execute(
                delete(PairingRow).where(PairingRow.tournament_id == tournament_id, PairingRow.round == round_no)
            )
        return True

    async def update_pairing(
        self, tournament_id: str, round_no: int, board: int, expect: dict[str, Any], **fields: Any
    ) -> bool:
        where = [
            PairingRow.tournament_id == tournament_id,
            PairingRow.round == round_no,
            PairingRow.board == board,
            *(getattr(PairingRow, k) == v for k, v in expect.items()),
        ]
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(update(PairingRow).where(*where).values(**fields))
            return bool(result.rowcount)  # type: ignore[attr-defined]

    async def forfeit(
        self,
        tournament_id: str,
        round_no: int,
        board: int,
        expect: dict[str, Any],
        fields: dict[str, Any],
        absent: Sequence[int],
        withdraw_at: int,
    ) -> bool:
        """A board's result by no-show (C10), and each ``absent`` team's no-show counted (its
        ``withdraw_at``-th withdraws it), in one transaction: False, and nothing written, unless the board
        holds what ``expect`` says. A no-show is therefore counted once, however often the step is tried."""
        where = [
            PairingRow.tournament_id == tournament_id,
            PairingRow.round == round_no,
            PairingRow.board == board,
            *(getattr(PairingRow, k) == v for k, v in expect.items()),
        ]
        team = TournamentTeamRow
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            result = await session.execute(update(PairingRow).where(*where).values(**fields))
            if not result.rowcount:  # type: ignore[attr-defined]
                return False
            if absent:
                await session.execute(
                    update(team)
                    .where(team.tournament_id == tournament_id, team.team.in_(list(absent)))
                    .values(
                        no_shows=team.no_shows + 1,
                        status=case((team.no_shows + 1 >= withdraw_at, "withdrawn"), else_=team.status),
                    )
                )
        return True

    # -- forbidden pairings, referees -------------------------------------------------------
    async def forbidden(self, tournament_id: str) -> list[tuple[int, int]]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(TournamentForbiddenRow).where(TournamentForbiddenRow.tournament_id == tournament_id)
            )
            return [(r.team_a, r.team_b) for r in result.scalars()]

    async def forbid(self, tournament_id: str, a: int, b: int, forbidden: bool) -> None:
        a, b = min(a, b), max(a, b)
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(
                delete(TournamentForbiddenRow).where(
                    TournamentForbiddenRow.tournament_id == tournament_id,
                    TournamentForbiddenRow.team_a == a,
                    TournamentForbiddenRow.team_b == b,
                )
            )
            if forbidden:
                session.add(TournamentForbiddenRow(tournament_id=tournament_id, team_a=a, team_b=b))

    async def referees(self, tournament_id: str) -> list[TournamentRefereeRow]:
        async with self.db.sessions() as session:
            result = await session.execute(
                select(TournamentRefereeRow).where(TournamentRefereeRow.tournament_id == tournament_id)
            )
            return list(result.scalars())

    async def set_referee(self, tournament_id: str, player_id: str, boards: list[int] | None) -> None:
        """Name a referee for ``boards`` (empty: every board), or (None) no longer a referee."""
        async with self.db.writing(), self.db.sessions() as session, session.begin():
            await session.execute(
                delete(TournamentRefereeRow).where(
                    TournamentRefereeRow.tournament_id == tournament_id, TournamentRefereeRow.player_id == player_id
                )
            )
            if boards is not None:
                session.add(TournamentRefereeRow(tournament_id=tournament_id, player_id=player_id, boards=boards))
