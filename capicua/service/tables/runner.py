"""A table's runner: it carries out what the table's state says must follow each event, and is the only part of
a table that does I/O.

Every event goes the same way: :meth:`TableRunner.commit` has the state apply it (the engine refuses an invalid
action before anything changes), stores it, numbers it, then carries out its follows
(:mod:`capicua.service.tables.follows`) in order: the frame to everyone watching, the move clock and the bots
of the seat to act, the next deal or the match's end, a bus event. The runner also makes the moves the table
makes by itself (a timeout move, A10; a forced pass; ``-: time``, C5) and rebuilds the table from its stored
events after a restart. What the table does by itself is computed by :mod:`capicua.service.tables.flow`; what
each seat may see by :mod:`capicua.service.tables.frames`.

Its parts get what they need given to them (the state, a lock, a clock of event numbers, callbacks), never the
table or the runner.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import time
from typing import Any

from capicua.rules.moves import PASS, Action, Move, MoveError, format_action
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store import StoredEvent
from capicua.service.tables.bots import BotTurns
from capicua.service.tables.clocks import GRACE_SECONDS, Clocks
from capicua.service.tables.fanout import Fanout, Subscriber
from capicua.service.tables.flow import deal_data, match_end, start_data
from capicua.service.tables.follows import (
    Abandon,
    AfterHand,
    Applied,
    Begin,
    Forget,
    MarkAway,
    Publish,
    Send,
    Stop,
    Turn,
)
from capicua.service.tables.frames import Frames
from capicua.service.tables.log import EventLog, Moved, NotDurable
from capicua.service.tables.messages import TableEvent
from capicua.service.tables.pace import Pace
from capicua.service.tables.ports import Ports
from capicua.service.tables.state import TableState

__all__ = ["RETRY_MAX", "TableRunner"]

#: The longest wait between two tries of a follow-up that failed.
RETRY_MAX = 60.0

log = logging.getLogger("capicua.tables")


class TableRunner:
    """Runs one table: its event log, its subscribers, its clocks and bots. Every method runs with the
    table's ``lock`` held, but those a timer or a task starts, which take it themselves."""

    def __init__(self, state: TableState, ports: Ports, rng: random.Random, lease: int | None = None) -> None:
        self.state = state
        self.ports = ports
        self.lock = asyncio.Lock()
        self.log = EventLog(state.id, ports.store, state.apply, lease)
        self.fanout = Fanout(state.id)
        self.pace = Pace(state, ports.config, rng)
        self.clocks = Clocks(state, ports.spawn, self.timed_out, self.time_up, self.pace.forced_pass, self.pace.pause)
        self.frames = Frames(state, self._position, self._clock_times)
        self.bots = BotTurns(
            state, ports.bot_pool, rng, self.pace.bot_delay, ports.spawn, self.lock, self._position, self.bot_acts
        )
        self.touched = time.monotonic()  # the last event or (un)subscription: see TableService.forget_idle

    @property
    def n(self) -> int:
        """The number of the table's last committed event."""
        return self.log.n

    def _position(self) -> int:
        return self.log.n

    def _clock_times(self) -> tuple[dt.datetime | None, dt.datetime | None, dt.datetime | None]:
        """What the frames show of the clocks: the move deadline, the match clock's end, the next deal."""
        clocks = self.clocks
        return clocks.deadline, clocks.match_ends(), clocks.next_deal

    # -- events ---------------------------------------------------------------------------------
    async def commit(self, kind: str, data: dict[str, Any], parsed: Any = None) -> TableEvent:
        """Apply event ``n + 1``, store it, then carry out what follows it; return its public part."""
        status = {"start": "playing", "end": "finished"}.get(kind)  # stored with the event
        try:
            applied = await self.log.commit(kind, data, parsed, status)
        except Moved:
            log.warning("table %s: another node runs it now; letting it go", self.state.id)
            self.stop()
            self.ports.lost(self.state.id)
            message = "another server runs this table now: nothing changed; subscribe again"
            raise ServiceError("moved", message) from None
        except NotDurable:
            log.exception("table %s: an event was not stored; rebuilding from the store", self.state.id)
            await self._reload()
            raise ServiceError("unavailable", "the table could not save this action: try again") from None
        self.touched = time.monotonic()
        await self.carry_out(applied)
        return applied.public

    async def carry_out(self, applied: Applied) -> None:
        """Do what the event just committed says must follow, in order."""
        for follow in applied.follows:
            match follow:
                case Send():
                    self.clocks.show()  # the clock the next frames show
                    await self.fanout.broadcast(self.log.n, applied.public, self.state.seat_of, self.frames.event)
                case Turn():
                    self.restart()
                case AfterHand():
                    # The action is durable: its ack does not wait for the match's end or the next deal, which
                    # follow under the lock (a restart finishes them too, see replay()).
                    self.ports.spawn(self.follow_up())
                case Stop():
                    self.stop()
                case Begin():
                    await self.begin()
                case Forget(seat=seat):
                    self.bots.forget(seat)
                case MarkAway(seat=seat):
                    await self.commit("away", {"seat": seat, "away": True})
                    if self.state.deserted(self.present()):  # the last person left a casual table: it ends
                        await self.end(abandoned_by=seat, reason="deserted")
                case Abandon(seat=seat):
                    await self.end(abandoned_by=seat, reason="timeouts")
                case Publish(event=event):
                    await self.ports.bus.publish(event)

    async def act(
        self, parsed: tuple[int | None, Action], by_player: bool, timeout: bool = False, ref: Any = None
    ) -> int:
        """Commit an action; returns the number of the last event it made. A player who acts himself takes his
        seat back from the bot that stood in for him (A10): his ack comes after that ``away`` event too. The
        client's ``ref``, if any, is stored with the action (see ``EventLog.refs``)."""
        seat, move = parsed
        data: dict[str, Any] = {"action": format_action(seat, move), "timeout": timeout}
        if ref is not None:
            data["ref"] = ref
        try:
            await self.commit("action", data, parsed)
        except MoveError as exc:
            raise ServiceError("illegal", str(exc)) from None
        if by_player and seat is not None and self.state.seats[seat].away:
            await self.commit("away", {"seat": seat, "away": False})
            if ref is not None and (made := self.log.refs.get((seat, ref))) is not None:
                made.n = self.log.n  # the ack names the away event too
        return self.log.n

    async def bot_acts(self, seat: int, move: Move, expect: int) -> int:
        """A bot's action, decided at event ``expect``: refused if the table moved on."""
        async with self.lock:
            match = self.state.check_playing()
            if self.log.n != expect:
                raise ServiceError("stale", "the table moved on while this action was being decided")
            try:
                parsed = (seat, match.resolve(move, seat))
            except MoveError as exc:
                raise ServiceError("illegal", str(exc)) from None
            return await self.act(parsed, by_player=False)

    # -- the match's course ------------------------------------------------------------------------
    async def begin(self) -> None:
        """A match starts: its ``start``, then its first deal."""
        ratings = [await self.seat_rating(s.player) for s in self.state.seats] if self.state.match_no else None
        await self.commit("start", start_data(self.state, ratings))
        await self.deal()

    async def deal(self) -> None:
        match = self.state.match
        assert match is not None
        await self.commit("deal", deal_data(match))

    def restart(self, grace: float = 0.0) -> None:
        """Restart the move clock for the seat to act, and let bots (and away seats) move."""
        self.clocks.restart(self.log.n, grace)
        self.bots.schedule(self.log.n)

    def stop(self) -> None:
        self.clocks.cancel()
        self.bots.cancel()

    async def end(self, abandoned_by: int | None = None, reason: str | None = None) -> None:
        """Publish the match's end (its listeners save the record, rate it…), then commit ``end``: a server
        that dies between the two publishes it again when the table is rebuilt (the listeners are idempotent),
        so the end is never lost to them. ``reason``: why ``abandoned_by`` left (see ``match_end``)."""
        event, data = match_end(self.state, abandoned_by, dt.datetime.now(dt.UTC), reason)
        await self.ports.bus.publish(event)
        await self.commit("end", data)

    async def follow_up(self) -> None:
        """What an action that ended a hand or the match sets off, in the background, tried again while it
        fails: a listener of the match's end that cannot do its work now (the database away for a moment)
        holds the end back, it never loses it, and the table does not wait for a restart to finish its match."""
        delay = self.ports.config().retry_after
        while True:
            try:
                await self.after_action_locked()
                return
            except Exception:
                log.exception("table %s: what follows the last action failed; again in %.0f s", self.state.id, delay)
            await asyncio.sleep(delay)
            delay = min(2 * delay, RETRY_MAX)

    async def after_action_locked(self) -> None:
        async with self.lock:
            match = self.state.match  # whatever came first (the match clock, another task) may have done it
            if self.state.status == "playing" and match is not None and (match.is_over() or match.needs_deal()):
                await self._after_hand()

    async def _after_hand(self) -> None:
        """Once a hand or the match is over: the match's end, or the next deal (after the pause)."""
        match = self.state.match
        assert match is not None
        if match.is_over():
            await self.end()
        elif not self.clocks.hold(self.deal_after_pause):
            await self.deal()
        # else everybody sees how the hand ended; then the next deal (or a player's "next")

    async def deal_after_pause(self) -> None:
        async with self.lock:
            match = self.state.match
            if self.state.status == "playing" and match is not None and match.needs_deal() and self.clocks.holding:
                await self.deal_now()

    async def deal_now(self) -> None:
        """The pause between hands is over (or a player skipped it): deal."""
        self.clocks.release()
        await self.deal()

    async def timed_out(self, n: int, seat: int, why: str) -> None:
        """A10: the clock of ``seat`` set at event ``n`` ran out: ``timeout`` (a person's: the table moves for
        him, and the state counts it), ``watchdog`` (a bot's: the table moves for it) or ``auto`` (a forced
        pass's beat: the table passes)."""
        async with self.lock:
            match = self.state.match
            if self.log.n != n or match is None or match.is_over():
                return
            hand = match.hand
            if hand.end is not None or hand.turn != seat:
                return
            if why == "auto":
                if self.pace.forced_pass(seat) is None:
                    return  # no longer forced (the table's state moved on)
                data = {"action": format_action(seat, PASS), "timeout": False, "auto": True}
                await self.commit("action", data, (seat, PASS))
                return
            move = hand.timeout_move(seat)
            await self.commit("action", {"action": format_action(seat, move), "timeout": True}, (seat, move))

    async def time_up(self) -> None:
        """C5: when the match time runs out, the table writes ``-: time`` (once)."""
        async with self.lock:
            match = self.state.match
            if match is None or match.is_over() or self.state.status != "playing" or match.time_called:
                return
            await self.act(self.state.parse("time", None), by_player=False)

    # -- the server's side ------------------------------------------------------------------------
    async def seat_rating(self, player_id: str | None) -> dict[str, Any] | None:
        """What a seat shows of its player's rating in this table's game (None: a server bot, unrated)."""
        if player_id is None:
            return None
        rating = await self.ports.rating_of(player_id, self.state.variant)
        return None if rating is None else {"rating": rating["rating"], "provisional": rating["provisional"]}

    async def may_referee(self, who: Identity) -> bool:
        """C8: whether ``who`` referees this table (the service's policy)."""
        return await self.ports.may_referee(self.state, who)

    async def subscribe(self, sub: Subscriber, last: int | None) -> str:
        """Add a connection; send what it missed since event ``last`` (or its full state). Returns what was
        sent (``synced``, ``events`` or ``state``)."""
        async with self.lock:
            self.touched = time.monotonic()
            return await self.fanout.subscribe(sub, last, self.log.n, self.frames.state)

    def unsubscribe(self, sub: Subscriber) -> None:
        self.touched = time.monotonic()
        self.fanout.unsubscribe(sub)
        seat = self.state.seat_of(sub.identity)
        if seat is not None and self.state.deserted(self.present()):
            self.ports.spawn(self._end_deserted(seat))  # an away player closed the table's last page

    def present(self) -> set[int]:
        """The seats with a connection to this table open (their player is here, whether or not he acts)."""
        seats = (self.state.seat_of(sub.identity) for sub in self.fanout.subscribers if not sub.closed)
        return {k for k in seats if k is not None}

    async def _end_deserted(self, seat: int) -> None:
        """A casual table whose people are all away and gone ends: ``seat``, who left last, abandoned it (if
        nobody came back within the grace: a page reloaded is no desertion)."""
        await asyncio.sleep(self.ports.config().desert_grace)
        async with self.lock:
            if not self.state.deserted(self.present()):
                return  # somebody came back meanwhile
            try:
                await self.end(abandoned_by=seat, reason="deserted")
            except ServiceError:
                log.warning("table %s: its end, deserted, was not committed here", self.state.id)

    # -- rebuilding --------------------------------------------------------------------------------
    async def _reload(self) -> None:
        self.stop()
        self.state.reset()
        self.bots.clear()
        self.log.reset()
        await self.replay(await self.log.read())

    async def replay(self, events: list[StoredEvent], resume: bool = False) -> None:
        """Rebuild the table from its stored events (after a restart): their follows happened already.

        With ``resume``, a step a killed server left half done is finished: the deal of the next hand after
        an ended one, or the end of a finished match (published again: its listeners are idempotent).
        """
        self.log.replay(events)
        match = self.state.match
        if self.state.status == "playing":
            if resume and match is not None:
                if match.is_over():
                    await self.end()
                    return
                if match.needs_deal():
                    await self.deal()
            self.restart(grace=GRACE_SECONDS)
