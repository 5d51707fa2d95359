"""Bot turns: the seats a bot plays (or stands in for, A10) are asked in the driver's order.

After every change a table waits ``bot_delay`` (0.5 to 1.5 times it, so tables started together do
not move in step, and people see the table change), then asks its bot seats in the order of
:func:`capicua.bots.driver.candidates`: the first that acts ends the turn. A bot that searches
thinks in a worker process (:class:`BotPool`), never on the event loop: its search would hold the
GIL and stall every other table of the server.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor

from capicua.bots.base import Bot
from capicua.bots.driver import candidates
from capicua.bots.registry import make_bot
from capicua.rules.hand import SeatView
from capicua.rules.moves import Move
from capicua.service.errors import ServiceError
from capicua.service.tables.ports import Spawn
from capicua.service.tables.state import TableState
from capicua.service.workers import pool

__all__ = ["BotPool", "BotTurns"]

log = logging.getLogger("capicua.tables")

#: The level of the bot that stands in for an away player.
STAND_IN = "greedy"


#: The shortest a searching bot thinks when the workers are busy (see BotPool).
MIN_BUDGET = 0.02


class BotPool:
    """Worker processes for the bots that search, started when the first one is needed.

    ``workers`` 0 runs them inline (tests); None leaves a core to the event loop: one worker less
    than the cores, at least one. The workers run at a lower priority than the server. When more
    searches wait than there are workers, each thinks for a share of its budget (down to 20 ms), so
    that a busy server's bots answer in about the time one would alone, a little less well.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, (os.cpu_count() or 2) - 1) if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None
        self.waiting = 0  # searches asked for and not answered yet

    @property
    def inline(self) -> bool:
        return self.workers == 0

    def share(self) -> float:
        """The part of its budget the next search may spend: all of it while a worker is free."""
        return min(1.0, self.workers / (self.waiting + 1))

    async def decide(self, spec: str, seed: int, view: SeatView) -> Move | None:
        if self._pool is None:
            self._pool = pool(self.workers)
        share = self.share()
        self.waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, _decide, spec, seed, view, share)
        finally:
            self.waiting -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


_worker_bots: dict[str, Bot] = {}


def _decide(spec: str, seed: int, view: SeatView, share: float = 1.0) -> Move | None:
    """In a worker: the bot of ``spec`` (one kept per spec), reseeded, answers ``view`` thinking for
    ``share`` of its budget."""
    bot = _worker_bots.get(spec)
    if bot is None:
        bot = _worker_bots[spec] = make_bot(spec)
    full = bot.budget  # put back after each move
    if share < 1.0:
        bot.budget = max(MIN_BUDGET, full * share)
    bot.reseed(seed)
    try:
        return bot.act(view)
    finally:
        bot.budget = full


class _BotSeats:
    """The seats of a table a bot plays now, as a container (``seat in bot_seats``)."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    def __contains__(self, seat: object) -> bool:
        return isinstance(seat, int) and self.state.seats[seat].played_by_bot


class BotTurns:
    """The bots of one table: when to ask them, and asking them. ``position()`` is the number of the table's
    last event; ``lock`` the table's, held while a bot's view is taken; ``submit(seat, move, expect)`` the
    bot's action, refused if the table moved on from event ``expect``."""

    def __init__(
        self,
        state: TableState,
        pool: BotPool,
        rng: random.Random,
        delay: Callable[[], float],
        spawn: Spawn,
        lock: asyncio.Lock,
        position: Callable[[], int],
        submit: Callable[[int, Move, int], Awaitable[int]],
    ) -> None:
        self.state = state
        self.pool = pool
        self.rng = rng
        self._delay = delay
        self._spawn = spawn
        self._lock = lock
        self._position = position
        self._submit = submit
        self._bots: dict[int, Bot] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    def forget(self, seat: int) -> None:
        """Someone else sits there now."""
        self._bots.pop(seat, None)

    def clear(self) -> None:
        self._bots.clear()

    def schedule(self, n: int) -> None:
        """After event ``n``: if a bot seat has something to do, ask the bots after the delay."""
        self.cancel()
        match = self.state.match
        if match is None or match.is_over() or not match.hands or match.hand.end is not None:
            return
        seats = self.state.seats
        hand = match.hand
        if any(seats[s].played_by_bot and hand.public_moves_for(s) for s in range(len(seats))):
            self._timer = asyncio.get_running_loop().call_later(self._delay(), self._fired, n)

    def _fired(self, n: int) -> None:
        self._timer = None
        self._task = self._spawn(self.run(n))

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        task = self._task
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    async def run(self, n: int) -> None:
        """Ask the bot seats, in the driver's order, what to do at event ``n``; the first that acts wins."""
        state = self.state
        match = state.match
        if match is None or state.status != "playing":
            return
        hand = match.hand
        asking = candidates(hand, _BotSeats(state))
        while True:
            # Each bot's view is built when it is asked (the first that acts ends this turn).
            async with self._lock:
                if self._position() != n or state.match is not match or match.hand is not hand or hand.end is not None:
                    return
                seat = next(asking, None)
                if seat is None:
                    return
                view = hand.view(seat)
            move = await self.decide(seat, view)
            if move is None:
                continue
            try:
                await self._submit(seat, move, n)
            except ServiceError as exc:
                if exc.code != "stale":  # a stale decision is dropped: a newer bot turn takes over
                    log.exception("table %s: bot at seat %s failed", state.id, seat)
            return  # the action set the bots' next turn for the new state: two would race on one view

    async def decide(self, seat: int, view: SeatView) -> Move | None:
        spec = self.state.seats[seat].bot or STAND_IN
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_bot(spec, self.rng.getrandbits(32))
        if bot.searches and not self.pool.inline:
            return await self.pool.decide(spec, self.rng.getrandbits(32), view)
        return bot.act(view)
