"""Who referees a tournament's boards (C8), and the organiser naming them.

:class:`RefereePolicy` answers "may this person referee this board, this table?" from the tournament
store alone. The platform builds it first and gives it to both the table service (which asks it about a
tournament's tables: the referee console, a referee's decision) and the tournaments (which ask it about
over-the-board entries): the tournaments need the table service, so the table service cannot need the
tournaments; both need only this small object.

Only a game with a table referee (``Variant.referee``: Dominousa) has referees. In a tournament of another
game the people the organiser names are **result helpers** (:data:`~.context.HELPER`), who enter the
hands' points and the results over the board, no fine and no award; the organiser may do the same on every
board. Both are kept alike (the store's referees); the game says which they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from capicua.rules import variants
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store.schema import TournamentRefereeRow, TournamentRow
from capicua.service.store.tournaments import TournamentStore
from capicua.service.tables.state import TableState
from capicua.service.tournaments.context import HELPER, REFEREE, Context, organised, role_of

__all__ = ["RefereePolicy", "Referees", "names_for"]


def names_for(t: TournamentRow, referees: Sequence[TournamentRefereeRow], who: Identity, board: int) -> bool:
    """Whether ``who`` is ``t``'s organiser or one named for ``board`` (a referee, or a result helper)."""
    if who.guest:
        return False
    if who.id == t.organiser:
        return True
    return any(r.player_id == who.id and (not r.boards or board in r.boards) for r in referees)


class RefereePolicy:
    """C8: who referees a tournament's tables and boards, read from the tournament store."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store

    async def referees_table(self, table: TableState, who: Identity) -> bool:
        """The organiser, and the referees named for the table's board; nobody in a game without a table
        referee, nor at a table of no tournament."""
        if table.tournament_id is None or not table.game.referee:
            return False
        board = await self.store.pairing_at(table.id)
        return board is not None and await self.referees_board(who, table.tournament_id, board.board)

    async def referees_board(self, who: Identity, tournament_id: str, board: int) -> bool:
        """Whether ``who`` is the organiser or one named for ``board`` (:func:`names_for`)."""
        t = await self.store.get(tournament_id)
        if t is None or who.guest:
            return False
        return names_for(t, await self.store.referees(t.id), who, board)


class Referees:
    """The organiser names the referees (or result helpers) of some boards."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def set_referee(
        self, who: Identity, tournament_id: str, username: str, boards: list[int] | None, role: str = REFEREE
    ) -> None:
        """Name the account ``username`` a referee (``role`` :data:`REFEREE`) or a result helper
        (:data:`HELPER`) of ``boards`` (empty: of every board), or (None) no longer. The role must be the
        game's (:func:`role_of`): a game without a table referee has none (``no-referee``, C8); its helpers
        enter over-the-board results, so only a tournament played over the board names them. A board's number
        is at most the tournament's number of boards (half its teams, rounded up)."""
        snap = await self.ctx.read(tournament_id)
        t = organised(who, snap.t)
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
        account = await self.ctx.accounts.by_username(username)
        if account is None:
            raise ServiceError("not-found", f"no account {username!r}")
        if boards:
            # A round has a board for every two teams (and one for a bye): half the teams still in, or the
            # boards of a round paired before some withdrew.
            teams = [x for x in snap.teams if x.status != "withdrawn"]
            most = max(1, (len(teams) + 1) // 2, *(b.board for b in snap.boards))
            wrong = [b for b in boards if not 1 <= b <= most]
            if wrong:
                raise ServiceError(
                    "invalid", f"boards are numbered 1 to {most} ({len(teams)} teams): there is no board {wrong[0]}"
                )
        await self.ctx.store.set_referee(tournament_id, account.id, None if boards is None else sorted(set(boards)))
