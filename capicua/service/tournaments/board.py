"""Over the board (``mode="board"``): there are no platform tables; each board's referee (or, in a game
without a table referee, its result helper) enters its hands, fines and result. Pairing and standings are
the same as online."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from capicua.rules import variants
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store.schema import PairingRow
from capicua.service.tournaments.context import REFEREE, Context, role_of
from capicua.service.tournaments.referees import names_for
from capicua.service.tournaments.snapshot import Snapshot
from capicua.service.tournaments.swiss import FORFEIT_POINTS, NO_SHOW_LIMIT

__all__ = ["OverTheBoard"]


class OverTheBoard:
    """A board's entries and its result, entered by its referee; ``advance`` moves the tournament on."""

    def __init__(self, ctx: Context, advance: Callable[[str], Awaitable[None]]) -> None:
        self.ctx = ctx
        self.advance = advance

    async def entry(
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
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id)
            board = _refereed_board(who, snap, round_no, board_no)
            t = snap.t
            if kind == "fine" and role_of(t.game) != REFEREE:
                title = variants.get(t.game).title
                raise ServiceError("no-referee", f"{title} has no table referee (C8) and no fines: enter the hands")
            fields: dict[str, Any] = {
                "hands": [*board.hands, {"a": points_a, "b": points_b, "kind": kind, "note": note, "by": who.name}],
                "points_a": board.points_a + points_a,
                "points_b": board.points_b + points_b,
            }
            if await self.ctx.store.update_pairing(t.id, round_no, board_no, {"status": "playing"}, **fields):
                return snap.with_board(round_no, board_no, **fields).board(round_no, board_no)
        return await self._board(tournament_id, round_no, board_no)

    async def result(
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
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id)
            board = _refereed_board(who, snap, round_no, board_no)
            t = snap.t
            if absent:
                fields = _forfeit(board, absent)
            else:
                fields = _decided(board, winner, refereed=role_of(t.game) == REFEREE, title=variants.get(t.game).title)
            end = {"result": fields["kind"], "winner": fields["winner"], "note": reason, "by": who.name}
            fields.update(status="done", hands=[*board.hands, end])
            store = self.ctx.store
            if absent:
                await store.forfeit(t.id, round_no, board_no, {"status": "playing"}, fields, absent, NO_SHOW_LIMIT)
            else:
                await store.update_pairing(t.id, round_no, board_no, {"status": "playing"}, **fields)
        await self.advance(tournament_id)
        return await self._board(tournament_id, round_no, board_no)

    async def _board(self, tournament_id: str, round_no: int, board_no: int) -> PairingRow:
        for board in await self.ctx.store.pairings(tournament_id, round_no):
            if board.board == board_no:
                return board
        raise ServiceError("not-found", f"no board {board_no} in round {round_no}")


def _refereed_board(who: Identity, snap: Snapshot, round_no: int, board_no: int) -> PairingRow:
    """The board ``who`` enters over the board: one of his, still without its result."""
    t = snap.t
    if t.mode != "board":
        there = "referee them there" if role_of(t.game) == REFEREE else "their matches give the results"
        raise ServiceError("invalid", f"this tournament plays on the platform's tables: {there}")
    board = snap.board(round_no, board_no)
    if not names_for(t, snap.referees, who, board_no):
        if role_of(t.game) == REFEREE:
            raise ServiceError("forbidden", "you are not a referee of this board (C8)")
        raise ServiceError("forbidden", "you do not enter this board's results: the organiser names who does")
    if board.status == "done" or board.team_b is None:
        raise ServiceError("closed", "this board has its result: it is final (C8)")
    return board


def _forfeit(board: PairingRow, absent: list[int]) -> dict[str, Any]:
    """C10: the ``absent`` teams lose 0-200 (both absent: nobody wins)."""
    pair = (board.team_a, board.team_b)
    if not set(absent) <= set(pair):
        raise ServiceError("invalid", "the absent teams are this board's")
    present = [x for x in pair if x not in absent]
    won = present[0] if present else None
    return {
        "kind": "forfeit",
        "winner": won,
        "points_a": FORFEIT_POINTS if won == board.team_a else 0,
        "points_b": FORFEIT_POINTS if won == board.team_b else 0,
    }


def _decided(board: PairingRow, winner: int | None, refereed: bool, title: str) -> dict[str, Any]:
    """The team with more points wins, or the one the referee names (an award, C8: only a table referee
    makes one)."""
    pair = (board.team_a, board.team_b)
    by_points = (
        None if board.points_a == board.points_b else board.team_a if board.points_a > board.points_b else board.team_b
    )
    if winner is not None and winner not in pair:
        raise ServiceError("invalid", "the winner is one of this board's teams")
    if not refereed and winner is not None and winner != by_points:
        raise ServiceError("no-referee", f"{title} has no table referee (C8): the points decide the board, no award")
    if winner is None and by_points is None:
        if not refereed:
            raise ServiceError("invalid", "the points are equal: enter the next hands until one team leads")
        raise ServiceError("invalid", "the points are equal: name the winner (the referee's decision)")
    won = winner if winner is not None else by_points
    return {"kind": "board" if won == by_points else "award", "winner": won}
