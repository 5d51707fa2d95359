"""A table's clocks: the move clock of the seat to act (A10), a watchdog for bots, the match clock (C5),
the beat before a forced pass, and the pause between hands.

The move clock is a timer (cheap to set and cancel at every action) that starts a task only when it
fires. A person's clock shows in the frames (``deadline``); a bot, or a bot standing in for an away
player, has none to show but a watchdog: if its move never comes, the table moves for it. A person
whose only move is a pass, at a table with ``auto_pass``, gets a short beat instead, after which the
table passes for him. The match clock of a game that has one (``Variant.match_clock``) is one task per
match. Between two hands the next deal waits ``pause_seconds`` (``next_deal``), so that everybody sees
how the hand ended.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Coroutine
from typing import Any

from capicua.service.tables.ports import Spawn
from capicua.service.tables.state import TableState

__all__ = ["GRACE_SECONDS", "Clocks"]

#: After a restart, a seat's move clock starts again with this much extra time.
GRACE_SECONDS = 10.0


class Clocks:
    """``on_timeout(n, seat, counts)`` runs when the clock of ``seat`` set at event ``n`` runs out
    (``counts``: a person's, not a bot's watchdog); ``on_time_up()`` when the match clock does."""

    def __init__(
        self,
        state: TableState,
        spawn: Spawn,
        on_timeout: Callable[[int, int, str], Coroutine[Any, Any, None]],
        on_time_up: Callable[[], Coroutine[Any, Any, None]],
        forced_pass: Callable[[int], float | None],
        pause: Callable[[], float],
    ) -> None:
        """``on_timeout(n, seat, why)``: the clock of ``seat`` set at event ``n`` ran out, ``why`` being
        ``timeout`` (a person's clock), ``watchdog`` (a bot's) or ``auto`` (a forced pass's beat).
        ``forced_pass(seat)``: the beat before the table passes for ``seat``, or None. ``pause()``: the
        seconds the next deal waits once a hand has ended (0: at once)."""
        self.table = state
        self._spawn = spawn
        self._on_timeout = on_timeout
        self._on_time_up = on_time_up
        self._forced_pass = forced_pass
        self._pause = pause
        #: When the next hand is dealt, while a pause between hands runs (None otherwise).
        self.next_deal: dt.datetime | None = None
        self._hold: asyncio.TimerHandle | None = None
        #: Seconds a move (A10): the table's option.
        self.move_seconds = float(state.options.get("move_seconds", 40))
        #: Minutes a match may last (C5), in a game that has a match clock; None otherwise.
        self.match_minutes = state.game.match_clock(state.options)
        #: When the move clock of the seat to act runs out (None: no person's clock is running).
        self.deadline: dt.datetime | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._match_task: asyncio.Task[None] | None = None

    def _to_act(self) -> int | None:
        """The seat to act, while a hand is in play."""
        t = self.table
        match = t.match
        if match is None or not match.hands or match.is_over() or t.status != "playing" or match.hand.end is not None:
            return None
        return match.hand.turn

    def show(self) -> None:
        """Set ``deadline`` and ``next_deal`` for the position just reached, before its frames are built:
        the move clock that :meth:`restart` starts next for the seat to act (none for a bot, an away seat
        or a forced pass), and when the next hand comes after one that just ended."""
        turn = self._to_act()
        self.deadline = None
        now = dt.datetime.now(dt.UTC)
        if turn is not None and not self.table.seats[turn].played_by_bot and self._forced_pass(turn) is None:
            self.deadline = now + dt.timedelta(seconds=self.move_seconds)
        match = self.table.match
        if match is not None and match.hands and match.needs_deal() and self.table.status == "playing":
            if self.next_deal is None and (pause := self._pause()) > 0:
                self.next_deal = now + dt.timedelta(seconds=pause)
        else:
            self.next_deal = None

    def hold(self, deal: Callable[[], Coroutine[Any, Any, None]]) -> bool:
        """Deal the next hand when the pause shown in ``next_deal`` ends; False if there is no pause."""
        if self.next_deal is None:
            return False
        self.release()
        seconds = max(0.0, (self.next_deal - dt.datetime.now(dt.UTC)).total_seconds())
        self._hold = asyncio.get_running_loop().call_later(seconds, lambda: self._spawn(deal()))
        return True

    @property
    def holding(self) -> bool:
        """Whether the next deal waits for the pause between hands."""
        return self._hold is not None and self.next_deal is not None

    def release(self) -> None:
        """No more waiting for the next deal (it is being dealt)."""
        if self._hold is not None:
            self._hold.cancel()
            self._hold = None

    def restart(self, n: int, grace: float = 0.0) -> None:
        """Start the clock of the seat to act at event ``n`` (and the match clock, once)."""
        self.cancel(match_clock=False)
        turn = self._to_act()
        if turn is None:
            return
        loop = asyncio.get_running_loop()
        if self.table.seats[turn].played_by_bot:
            self.deadline = None
            watchdog = max(self.move_seconds, 10.0) + grace
            self._timer = loop.call_later(watchdog, self._fired, n, turn, "watchdog")
        elif (beat := self._forced_pass(turn)) is not None:
            self.deadline = None
            self._timer = loop.call_later(beat + grace, self._fired, n, turn, "auto")
        else:
            seconds = self.move_seconds + grace
            self.deadline = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds)
            self._timer = loop.call_later(seconds, self._fired, n, turn, "timeout")
        if self._match_task is None and self.match_ends() is not None:
            self._match_task = self._spawn(self._match_clock())

    def _fired(self, n: int, seat: int, why: str) -> None:
        self._timer = None
        self._task = self._spawn(self._on_timeout(n, seat, why))

    def cancel(self, match_clock: bool = True) -> None:
        """Stop the move clock (and, with ``match_clock``, the match clock and the pause too)."""
        if match_clock:
            self.release()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        current = asyncio.current_task()
        tasks = [self._task, self._match_task] if match_clock else [self._task]
        for task in tasks:
            if task is not None and task is not current and not task.done():
                task.cancel()
        if match_clock:
            self._match_task = None

    def match_ends(self) -> dt.datetime | None:
        """When the match clock runs out (C5), for a game that has one."""
        started = self.table.started_at
        if not self.match_minutes or started is None:
            return None
        return started + dt.timedelta(minutes=self.match_minutes)

    async def _match_clock(self) -> None:
        deadline = self.match_ends()
        assert deadline is not None
        await asyncio.sleep(max(0.0, (deadline - dt.datetime.now(dt.UTC)).total_seconds()))
        await self._on_time_up()
