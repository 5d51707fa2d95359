"""A tournament table's match end is its board's result: the listener of ``MatchEnded`` on the bus (after
the record saver and the ratings).

The winner, and both teams' points at the end (``played``); a referee's award (C8) is a win for the
awarded team with the points both had then (``award``); a player's abandonment (he resigned, or let his
clock run out three times in a row at this rated table) loses the match for his pair (``abandon``,
counted as played). Delivery is at least once: a board has one result, written by a guarded write, so a
second delivery changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from capicua.rules.variant import MatchTermination
from capicua.service.bus import Bus, MatchEnded
from capicua.service.tournaments.context import Context

__all__ = ["MatchEndListener"]

log = logging.getLogger("capicua.tournaments")


class MatchEndListener:
    """Writes a board's result when its table's match ends, then moves the tournament on (``advance``)."""

    def __init__(self, ctx: Context, advance: Callable[[str], Awaitable[None]]) -> None:
        self.ctx = ctx
        self.advance = advance

    def attach(self, bus: Bus) -> MatchEndListener:
        bus.subscribe(MatchEnded.topic, self.match_ended)
        return self

    async def match_ended(self, event: MatchEnded) -> None:
        """A tournament table's match ended: its board's result (idempotent: a board has one result)."""
        store = self.ctx.store
        board = await store.pairing_at(event.table_id)
        if board is None or board.status == "done" or board.team_b is None:
            return
        outcome = event.outcome
        kind = {MatchTermination.AWARD: "award", MatchTermination.ABANDON: "abandon"}.get(outcome.termination, "played")
        winner = board.team_a if outcome.winner == 0 else board.team_b
        a, b = (max(0, p) for p in outcome.totals[:2])
        if await store.update_pairing(
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
            self.ctx.tables.spawn(self._advance_soon(board.tournament_id))

    async def _advance_soon(self, tournament_id: str) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:  # the sweep tries again
            log.exception("tournament %s could not move on", tournament_id)
