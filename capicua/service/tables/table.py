"""A live table: the authority for its seats and match, composed of parts with one job each.

- :class:`~capicua.service.tables.state.TableState`: seats, match, status, and ``apply``, the one
  function every event goes through;
- :class:`~capicua.service.tables.log.EventLog`: events applied, committed, numbered, replayed;
- :class:`~capicua.service.tables.fanout.Fanout`: subscribers and the replay window;
- :class:`~capicua.service.tables.frames.Frames`: what each seat may see;
- :class:`~capicua.service.tables.clocks.Clocks`: move clock, bots' watchdog, match clock;
- :class:`~capicua.service.tables.bots.BotTurns`: the bot seats, asked in the driver's order.

The table itself takes requests (join, start, act…), each under its lock, and turns them into
events. A match's end is published on the bus (``MatchEnded``); the table knows none of those
who listen (the record saver, later ratings and tournaments).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import secrets
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from capicua.bots.registry import check_spec
from capicua.rules.hand import IllegalMoveError
from capicua.rules.match import Match
from capicua.rules.moves import Action, Move, MoveError, format_action
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store import StoredEvent, TableRow
from capicua.service.tables.bots import BotTurns
from capicua.service.tables.chat import TableChat
from capicua.service.tables.clocks import GRACE_SECONDS, Clocks
from capicua.service.tables.fanout import Fanout, Subscriber
from capicua.service.tables.flow import MatchFlow
from capicua.service.tables.frames import Frames
from capicua.service.tables.log import EventLog, NotDurable
from capicua.service.tables.pace import Pace
from capicua.service.tables.referee import decision
from capicua.service.tables.state import BOT_NAMES, TableState

if TYPE_CHECKING:
    from capicua.service.tables.service import TableService

__all__ = ["Table"]

log = logging.getLogger("capicua.tables")


class Table:
    """One table: the authority for its seats and match."""

    def __init__(self, service: TableService, row: TableRow) -> None:
        self.service = service
        self.id = row.id
        self.state = TableState(row)
        self.lock = asyncio.Lock()
        self.rng = random.Random(secrets.randbits(64))
        self.log = EventLog(row.id, service.store, self._apply)
        self.fanout = Fanout(row.id)
        self.chat = TableChat(self.state, self.fanout)
        self.pace = Pace(self.state, lambda: service.config, self.rng)
        self.flow = MatchFlow(self)
        flow, pace = self.flow, self.pace
        self.clocks = Clocks(self.state, self.spawn, flow.timed_out, flow.time_up, pace.forced_pass, pace.pause)
        self.frames = Frames(self.state, lambda: self.log.n, self._clock_times)
        self.bots = BotTurns(self, service.bot_pool, pace.bot_delay, self._bot_acts)
        self.touched = time.monotonic()  # the last event or (un)subscription: see TableService.forget_idle
        self.fill_task: asyncio.Task[None] | None = None

    def _clock_times(self) -> tuple[dt.datetime | None, dt.datetime | None, dt.datetime | None]:
        """What the frames show of the clocks: the move deadline, the match clock's end, the next deal."""
        clocks = self.clocks
        return clocks.deadline, clocks.match_ends(), clocks.next_deal

    # -- information ---------------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.log.n

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def match(self) -> Match | None:
        return self.state.match

    @property
    def subscribers(self) -> list[Subscriber]:
        return self.fanout.subscribers

    def seat_of(self, identity: Identity | None) -> int | None:
        return self.state.seat_of(identity)

    def summary(self, with_invite: bool = False) -> dict[str, Any]:
        """The table as the lobby shows it: with how many watch it (connections without a seat here)."""
        data = self.frames.summary(with_invite)
        data["watchers"] = sum(1 for sub in self.fanout.subscribers if self.seat_of(sub.identity) is None)
        return data

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see now."""
        return self.frames.state(seat)

    # -- events ---------------------------------------------------------------------------
    def _apply(self, kind: str, data: dict[str, Any], at: dt.datetime, parsed: Any) -> dict[str, Any]:
        public = self.state.apply(kind, data, at, parsed)
        if kind == "seat":
            self.bots.forget(data["seat"])
        return public

    async def commit(self, kind: str, data: dict[str, Any], parsed: Any = None) -> dict[str, Any]:
        """Apply (the engine refuses an invalid action before changing anything), commit, broadcast.
        The caller holds the lock (the table's requests, and its parts: ``flow``)."""
        status = {"start": "playing", "end": "finished"}.get(kind)  # stored with the event
        try:
            public = await self.log.commit(kind, data, parsed, status)
        except NotDurable:
            log.exception("table %s: an event was not stored; rebuilding from the store", self.id)
            await self._reload()
            raise ServiceError("unavailable", "the table could not save this action: try again") from None
        self.touched = time.monotonic()
        self.clocks.show()
        await self.fanout.broadcast(self.log.n, public, self.state.seat_of, self.frames.event)
        return public

    async def _reload(self) -> None:
        self.flow.stop()
        self.state.reset()
        self.bots.clear()
        self.log.n = 0
        await self.replay(await self.log.read())

    async def replay(self, events: list[StoredEvent], resume: bool = False) -> None:
        """Rebuild the table from its stored events (after a restart).

        With ``resume``, a step a killed server left half done is finished: the deal of the next
        hand after an ended one, or the end of a finished match (published again: its listeners
        are idempotent).
        """
        self.log.replay(events)
        match = self.state.match
        if self.state.status == "playing":
            if resume and match is not None:
                if match.is_over():
                    await self.flow.end()
                    return
                if match.needs_deal():
                    await self.flow.deal()
            self.flow.restart(grace=GRACE_SECONDS)

    # -- subscribers ------------------------------------------------------------------------
    async def subscribe(self, sub: Subscriber, last: int | None) -> None:
        """Add a connection; send what it missed since event ``last`` (or its full state)."""
        async with self.lock:
            self.touched = time.monotonic()
            if await self.fanout.subscribe(sub, last, self.log.n, self.frames.state) == "state":
                await self.chat.catch_up(sub)  # somebody new at the table: what was said lately

    def unsubscribe(self, sub: Subscriber) -> None:
        self.touched = time.monotonic()
        self.fanout.unsubscribe(sub)

    # -- requests -------------------------------------------------------------------------
    async def join(self, who: Identity, seat: int | None, invite: str | None) -> int:
        async with self.lock:
            self.state.check_entry(who, invite)
            current = self.seat_of(who)
            if current is not None:
                return current
            if self.status != "open":
                raise ServiceError("started", "the match has started: you can watch it")
            if self.state.rated and who.guest:
                raise ServiceError("accounts-only", "rated tables are for account holders: sign up to sit here (D1)")
            free = [k for k, s in enumerate(self.state.seats) if s.empty]
            reserved = self.state.reserved
            if reserved is not None:
                if who.id not in reserved:
                    raise ServiceError("reserved", "this tournament table's seats are kept for the teams paired here")
                if seat is not None and reserved[seat] != who.id:
                    raise ServiceError("reserved", f"your seat at this table is {reserved.index(who.id)}")
                seat = reserved.index(who.id)
            if seat is None:
                if not free:
                    raise ServiceError("full", "no seat is free")
                seat = free[0]
            if not 0 <= seat < self.state.players:
                raise ServiceError("bad-seat", f"seats are 0..{self.state.players - 1}")
            if seat not in free:
                raise ServiceError("taken", f"seat {seat} is taken")
            data: dict[str, Any] = {"seat": seat, "player": who.id, "name": who.name}
            if who.bot:
                data["bot_account"] = True
            if not who.guest and (rating := await self.seat_rating(who.id)) is not None:
                data["rating"] = rating
            await self.commit("seat", data)
            if reserved is not None and not any(s.empty for s in self.state.seats):
                await self.flow.begin()  # a tournament's table starts once all four have sat down (C10)
            return seat

    async def seat_rating(self, player_id: str | None) -> dict[str, Any] | None:
        """What a seat shows of its player's rating in this table's game (None: a server bot, unrated)."""
        if player_id is None:
            return None
        rating = await self.service.rating_of(player_id, self.state.variant)
        return None if rating is None else {"rating": rating["rating"], "provisional": rating["provisional"]}

    async def leave(self, who: Identity) -> None:
        async with self.lock:
            seat = self.seat_of(who)
            if seat is None:
                raise ServiceError("not-seated", "you are not seated at this table")
            if self.status != "open":
                raise ServiceError("started", "you can leave only before the match starts")
            await self.commit("seat", {"seat": seat, "player": None, "name": None})

    def _check_player(self, who: Identity | None, what: str) -> None:
        if who is not None and self.seat_of(who) is None and who.id != self.state.owner:
            raise ServiceError("forbidden", f"only the table's players may {what}")

    async def fill_bots(self, who: Identity | None, level: str) -> None:
        try:
            check_spec(level)
        except ValueError as exc:
            raise ServiceError("bad-options", str(exc)) from None
        async with self.lock:
            self._check_player(who, "call bots")
            if self.status != "open":
                raise ServiceError("started", "the match has started")
            if self.state.rated:
                raise ServiceError("accounts-only", "bots do not play rated matches (D1)")
            # never a name a player's could be mistaken for: the guest "Sabiá 914" gets no bot "Sabiá"
            taken = {word for s in self.state.seats if s.name for word in (s.name, s.name.split()[0])}
            names = [name for name in BOT_NAMES if name not in taken]
            self.rng.shuffle(names)
            for k, seat in enumerate(self.state.seats):
                if seat.empty:
                    name = names.pop() if names else f"{level} {k}"
                    await self.commit("seat", {"seat": k, "player": None, "name": name, "bot": level})

    async def start(self, who: Identity | None) -> None:
        async with self.lock:
            self._check_player(who, "start it")
            if self.status != "open":
                raise ServiceError("started", "the match has already started")
            if any(s.empty for s in self.state.seats):
                raise ServiceError("seats-empty", "every seat needs a player or a bot")
            await self.flow.begin()

    async def rematch(self, who: Identity) -> None:
        async with self.lock:
            if self.seat_of(who) is None:
                raise ServiceError("forbidden", "only the table's players may ask for a rematch")
            if self.status != "finished":
                raise ServiceError("not-finished", "the match is still on")
            if self.state.tournament_id is not None:
                raise ServiceError("one-match", "a tournament's table plays one match: no rematch")
            await self.flow.begin()

    async def say(self, who: Identity | None, preset: str | None = None, text: str | None = None) -> None:
        """A player says a quick message (``preset``) or a text at the table (see ``chat.py``)."""
        await self.chat.say(self.seat_of(who), preset, text)

    async def rename(self, who: Identity, name: str) -> None:
        """The player at this table is now called ``name`` (his identity is the same)."""
        async with self.lock:
            seat = self.seat_of(who)
            if seat is not None and self.state.seats[seat].name != name:
                await self.commit("name", {"seat": seat, "name": name})

    async def next_hand(self, who: Identity) -> int:
        """Any player may skip the rest of the pause between two hands: the next hand is dealt now."""
        async with self.lock:
            if self.seat_of(who) is None:
                raise ServiceError("not-seated", "only the table's players may deal the next hand")
            match = self.state.match
            if self.status != "playing" or match is None or not match.needs_deal() or not self.clocks.holding:
                raise ServiceError("not-paused", "there is no pause to skip: the hand is in play or the match is over")
            await self.flow.deal_now()
            return self.log.n

    async def resign(self, who: Identity) -> int:
        """A player leaves a match in play: his side loses it (at a rated table, rated as lost)."""
        async with self.lock:
            self._check_playing()
            seat = self.seat_of(who)
            if seat is None:
                raise ServiceError("not-seated", "you are not seated at this table")
            match = self.state.match
            if match is None or match.is_over():
                raise ServiceError("not-playing", "the match is over")
            await self.flow.end(abandoned_by=seat)
            return self.log.n

    async def act(self, who: Identity, text: str) -> int:
        """A player's action in record notation (his seat is implied). Returns the event number."""
        async with self.lock:
            self._check_playing()
            seat = self.seat_of(who)
            if seat is None:
                raise ServiceError("not-seated", "spectators cannot act")
            try:
                parsed = self.state.parse(text, seat)
            except IllegalMoveError as exc:
                raise ServiceError("illegal", str(exc)) from None
            except MoveError as exc:
                raise ServiceError("malformed", str(exc)) from None
            return await self.act_parsed(parsed, by_player=True)

    async def _bot_acts(self, seat: int, move: Move, expect: int) -> int:
        """A bot's action, decided at event ``expect``: refused if the table moved on."""
        async with self.lock:
            self._check_playing()
            if self.log.n != expect:
                raise ServiceError("stale", "the table moved on while this action was being decided")
            match = self.state.match
            assert match is not None
            try:
                parsed = (seat, match.resolve(move, seat))
            except MoveError as exc:
                raise ServiceError("illegal", str(exc)) from None
            return await self.act_parsed(parsed, by_player=False)

    async def referee(
        self,
        who: Identity,
        kind: str,
        seat: int | None = None,
        points: int | None = None,
        tile: str | None = None,
        reason: str = "",
    ) -> int:
        """C8: a table referee's decision (``kind`` and its arguments, see ``referee.py``), written in his
        name with its reason: committed like a play, shown to everyone at once, final. Allowed to the
        table's referees only (``TableService.may_referee``). Returns its event number."""
        action = decision(who.name, kind, seat, points, tile, reason)
        async with self.lock:
            self._check_playing()
            match = self.state.match
            assert match is not None
            if not match.variant.referee:
                raise ServiceError("no-referee", f"{match.variant.title} has no table referee (C8)")
            if self.seat_of(who) is not None:
                raise ServiceError("forbidden", "a player at this table cannot referee it")
            if not await self.service.may_referee(self.state, who):
                raise ServiceError("forbidden", "you are not a referee of this table (C8)")
            between_hands = match.needs_deal()
            try:
                await self.commit("action", {"action": str(action), "referee": who.id}, (None, action))
            except MoveError as exc:
                raise ServiceError("illegal", str(exc)) from None
            n = self.log.n
            if match.is_over() or (match.needs_deal() and not between_hands):
                self.spawn(self.flow.follow_up())  # the match's end, or the pause and the next deal
            elif not between_hands:
                self.flow.restart()  # the seat to act may have changed (an annulled hand does not get here)
            return n

    async def forfeit(self, winner: int | None, reason: str) -> None:
        """A tournament's board decided without a match (C10: a no-show): the table closes unplayed."""
        async with self.lock:
            if self.status != "open":
                raise ServiceError("started", "the match has started: its result decides")
            await self.commit("end", {"winner": winner, "how": "forfeit", "reason": reason})
            self.flow.stop()

    def _check_playing(self) -> None:
        if self.status != "playing" or self.state.match is None:
            raise ServiceError("not-playing", "no match is being played at this table")

    async def act_parsed(self, parsed: tuple[int | None, Action], by_player: bool, timeout: bool = False) -> int:
        """Commit an action (the lock is held); what follows it is scheduled. Returns its event number."""
        seat, move = parsed
        try:
            await self.commit("action", {"action": format_action(seat, move), "timeout": timeout}, parsed)
        except MoveError as exc:
            raise ServiceError("illegal", str(exc)) from None
        if by_player and seat is not None:
            await self._back(seat)
        n = self.log.n
        match = self.state.match
        assert match is not None
        if match.is_over() or match.needs_deal():
            # The action is durable: its ack does not wait for the match's end or the next deal, which
            # follow under the lock (a restart finishes them too, see replay()).
            self.spawn(self.flow.follow_up())
        else:
            self.flow.restart()
        return n

    async def _back(self, seat: int) -> None:
        """The player acted himself: reset his timeouts, and take his seat back from the bot."""
        state = self.state.seats[seat]
        state.timeouts = 0
        if state.away:
            await self.commit("away", {"seat": seat, "away": False})

    def schedule_bots_after(self, seconds: float, level: str) -> None:
        """Quick play: after ``seconds``, empty seats get bots and the match starts."""
        check_spec(level)

        async def later() -> None:
            await asyncio.sleep(seconds)
            if self.status != "open":
                return
            with contextlib.suppress(ServiceError):
                await self.fill_bots(None, level)
                await self.start(None)

        self.fill_task = self.spawn(later())

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Start a background task of this table (clock, bots…), known to the service so that
        shutting down can cancel it and wait for it."""
        return self.service.spawn(coro)

    def busy(self) -> bool:
        """Whether the table has work pending besides its clocks (quick play's bots_after timer)."""
        return self.fill_task is not None and not self.fill_task.done()

    def close(self) -> None:
        self.flow.stop()
        if self.fill_task is not None:
            self.fill_task.cancel()
