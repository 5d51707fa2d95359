"""When a table acts by itself: how long its bots wait, the beat before a forced pass, the pause
between two hands; and the grace a person gets to call out of his turn.

A5 lets the player who just played call galo before the next player acts; C6 lets the one who made the
last play claim. While a person may still make such a call, bots and forced passes wait at least
``call_grace`` (2 s by default), so "Galo!" right after one's own play is possible at any bot pace.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from capicua.rules.moves import PASS
from capicua.service.tables.state import TableState

if TYPE_CHECKING:
    from capicua.service.tables.ports import TableConfig

__all__ = ["Pace"]


class Pace:
    """The timing of one table's automatic steps, from its options and the server's config."""

    def __init__(self, state: TableState, config: Callable[[], TableConfig], rng: random.Random) -> None:
        self.table = state
        self._config = config
        self.rng = rng

    def pause(self) -> float:
        """Seconds the next deal waits after a hand: the table's option; none at a table of bots only."""
        if all(seat.player is None for seat in self.table.seats):
            return 0.0
        return float(self.table.options.get("pause_seconds", 0))

    def calls_waiting(self) -> bool:
        """Whether a person may make a call now out of his turn (galo right after his play, a claim)."""
        match = self.table.match
        if match is None or not match.hands:
            return False
        hand = match.hand
        return any(
            s != hand.turn and not seat.played_by_bot and hand.public_moves_for(s)
            for s, seat in enumerate(self.table.seats)
        )

    def bot_delay(self) -> float:
        """A bot's wait: 0.5 to 1.5 times the server's bot delay (a person does not always take the same
        time, and tables started together do not move in step); at least the call grace while a person
        may still call."""
        config = self._config()
        delay = config.bot_delay * (0.5 + self.rng.random())
        return max(delay, config.call_grace) if self.calls_waiting() else delay

    def forced_pass(self, seat: int) -> float | None:
        """The beat before the table passes for ``seat``, a person whose only move is a pass at a table
        with ``auto_pass``; None when he is to decide himself."""
        match = self.table.match
        if not self.table.options.get("auto_pass") or match is None or not match.hands:
            return None
        if match.hand.legal_moves_for(seat) != [PASS]:
            return None
        config = self._config()
        return max(config.auto_pass_delay, config.call_grace) if self.calls_waiting() else config.auto_pass_delay
