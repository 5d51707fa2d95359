"""A live table: the authority for its seats and match. It takes requests (join, start, act…) and turns each
into events, under the table's lock; it is made of parts with one job each:

- :class:`~capicua.service.tables.state.TableState`: seats, match, status, and ``apply``, the one function
  every event goes through, which says what must follow it, as data (:mod:`~capicua.service.tables.follows`);
- :class:`~capicua.service.tables.runner.TableRunner`: the only part that does I/O. It stores the events and
  carries out what follows them: frames to the subscribers (``fanout``, ``frames``), the move clock and the
  match clock (``clocks``), the bots (``bots``), the next deal and the match's end, the bus;
- :class:`~capicua.service.tables.chat.TableChat`: what is said at the table (not events).

A match's end is published on the bus (``MatchEnded``); the table knows none of those who listen (the record
saver, ratings, tournaments).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import random
import secrets
import time
from collections.abc import Mapping
from typing import Any

from capicua.rules.match import Match
from capicua.rules.moves import MoveError
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store import TableRow
from capicua.service.tables.chat import TableChat
from capicua.service.tables.fanout import Subscriber
from capicua.service.tables.messages import TableView
from capicua.service.tables.ports import Ports
from capicua.service.tables.referee import decision
from capicua.service.tables.runner import TableRunner
from capicua.service.tables.state import TableState

__all__ = ["Table"]


class Table:
    """One table: the authority for its seats and match."""

    def __init__(self, row: TableRow, ports: Ports) -> None:
        self.id = row.id
        self.state = TableState(row)
        self.rng = random.Random(secrets.randbits(64))
        self.runner = TableRunner(self.state, ports, self.rng, row.lease)
        self.chat = TableChat(self.state, self.runner.fanout)
        self.fill_task: asyncio.Task[None] | None = None
        #: When the empty seats get bots (quick games: ``bots_after``), as kept with the table; None: never.
        self.fill: dict[str, Any] | None = row.fill
        #: The countdown to the match starting by itself once every seat is taken (``autostart``).
        self.start_task: asyncio.Task[None] | None = None
        #: When this Table was built (``time.monotonic()``): after its row was written or claimed.
        self.built = time.monotonic()

    # -- information ---------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """The number of the table's last committed event."""
        return self.runner.n

    @property
    def status(self) -> str:
        """``open``, ``playing`` or ``finished``."""
        return self.state.status

    @property
    def invite(self) -> str | None:
        """A private table's invite (None: public)."""
        return self.state.invite

    @property
    def variant(self) -> str:
        return self.state.variant

    @property
    def tournament_id(self) -> str | None:
        return self.state.tournament_id

    @property
    def match(self) -> Match | None:
        return self.state.match

    @property
    def subscribers(self) -> list[Subscriber]:
        return self.runner.fanout.subscribers

    def seat_of(self, identity: Identity | None) -> int | None:
        return self.state.seat_of(identity)

    def check_entry(self, identity: Identity | None, invite: str | None) -> None:
        """Refuse (``forbidden``) whoever may not see this private table."""
        self.state.check_entry(identity, invite)

    def summary(self, with_invite: bool = False) -> dict[str, Any]:
        """The table as the lobby shows it: with how many watch it (connections without a seat here)."""
        data = self.runner.frames.summary(with_invite)
        data["watchers"] = sum(1 for sub in self.subscribers if self.seat_of(sub.identity) is None)
        return dict(data)

    def with_view(self, frame: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
        """``frame`` with the engine's view of ``seat`` (``view``: what the bot API's seat streams add, see
        docs/bots.md) when it carries a state and a hand is dealt."""
        out: dict[str, Any] = dict(frame)
        match = self.match
        if seat is not None and match is not None and match.hands and out.get("state") is not None:
            out["view"] = match.hand.view(seat).to_json()
        return out

    def state_for(self, seat: int | None) -> TableView:
        """What ``seat`` (None: a spectator) may see now."""
        return self.runner.frames.state(seat)

    async def may_referee(self, who: Identity) -> bool:
        """C8: whether ``who`` referees this table (``TableService.may_referee``)."""
        return await self.runner.may_referee(who)

    # -- subscribers -----------------------------------------------------------------------------------
    async def subscribe(self, sub: Subscriber, last: int | None) -> None:
        """Add a connection; send what it missed since event ``last`` (or its full state)."""
        if await self.runner.subscribe(sub, last) == "state":
            await self.chat.catch_up(sub)  # somebody new at the table: what was said lately

    def unsubscribe(self, sub: Subscriber) -> None:
        self.runner.unsubscribe(sub)

    # -- requests (each checked by the state, then committed by the runner) -----------------------------
    async def join(self, who: Identity, seat: int | None, invite: str | None) -> int:
        async with self.runner.lock:
            self.state.check_entry(who, invite)
            current = self.seat_of(who)
            if current is not None:
                return current
            seat = self.state.free_seat(who, seat)
            if self.state.rated:
                await self.runner.ports.conduct.check_rated(who.id)  # a playban closes rated tables
            data: dict[str, Any] = {"seat": seat, "player": who.id, "name": who.name}
            if who.bot:
                data["bot_account"] = True
            if not who.guest and (rating := await self.runner.seat_rating(who.id)) is not None:
                data["rating"] = rating
            await self.runner.commit("seat", data)  # a tournament's table full: its match begins (C10)
        self.arm_start()
        return seat

    async def leave(self, who: Identity) -> None:
        async with self.runner.lock:
            seat = self.state.check_leave(who)
            await self.runner.commit("seat", {"seat": seat, "player": None, "name": None})

    async def fill_bots(self, who: Identity | None, level: str) -> None:
        async with self.runner.lock:
            for data in self.state.bot_seats(who, level, self.rng):
                await self.runner.commit("seat", data)
        self.arm_start()

    async def start(self, who: Identity | None) -> None:
        async with self.runner.lock:
            self.state.check_start(who)
            await self.runner.begin()

    async def rematch(self, who: Identity) -> None:
        async with self.runner.lock:
            self.state.check_rematch(who)
            if self.state.rated:  # a rated rematch is a rated match: none with a player under a playban
                for seat in self.state.seats:
                    if seat.player is not None:
                        await self.runner.ports.conduct.check_rated(seat.player)
            await self.runner.begin()

    async def say(self, who: Identity | None, preset: str | None = None, text: str | None = None) -> None:
        """A player says a quick message (``preset``) or a text at the table (see ``chat.py``)."""
        seat = self.seat_of(who)
        if seat is not None and who is not None and not who.guest:
            await self.runner.ports.conduct.check_chat(who.id)  # a moderator's mute
        await self.chat.say(seat, preset, text)

    async def rename(self, who: Identity, name: str) -> None:
        """The player at this table is now called ``name`` (his identity is the same)."""
        async with self.runner.lock:
            seat = self.seat_of(who)
            if seat is not None and self.state.seats[seat].name != name:
                await self.runner.commit("name", {"seat": seat, "name": name})

    async def next_hand(self, who: Identity) -> int:
        """Any player may skip the rest of the pause between two hands: the next hand is dealt now."""
        async with self.runner.lock:
            self.state.check_next_hand(who, self.runner.clocks.holding)
            await self.runner.deal_now()
            return self.n

    async def resign(self, who: Identity) -> int:
        """A player leaves a match in play: his side loses it (at a rated table, rated as lost)."""
        async with self.runner.lock:
            await self.runner.end(abandoned_by=self.state.check_resign(who), reason="resign")
            return self.n

    async def act(self, who: Identity, text: str, ref: Any = None) -> int:
        """A player's action in record notation (his seat is implied). Returns the event number. The same
        action sent again in the same hand with the ``ref`` it was made with (its answer was lost) is answered
        with its event number, and not made again."""
        async with self.runner.lock:
            seat = self.state.seat_of(who)
            done = None if ref is None or seat is None else self.runner.log.made(seat, ref, " ".join(text.split()))
            if done is not None:
                return done
            return await self.runner.act(self.state.action_of(who, text), by_player=True, ref=ref)

    async def referee(
        self, who: Identity, kind: str, seat: int | None = None, points: int | None = None, tile: str | None = None,
        reason: str = "",
    ) -> int:  # fmt: skip
        """C8: a table referee's decision (``kind`` and its arguments, see ``referee.py``), written in his
        name with its reason: committed like a play, shown to everyone at once, final. Allowed to the
        table's referees only (``TableService.may_referee``). Returns its event number."""
        action = decision(who.name, kind, seat, points, tile, reason)
        async with self.runner.lock:
            self.state.check_referee(who)
            if not await self.may_referee(who):
                raise ServiceError("forbidden", "you are not a referee of this table (C8)")
            self.state.check_playing()
            try:
                await self.runner.commit("action", {"action": str(action), "referee": who.id}, (None, action))
            except MoveError as exc:
                raise ServiceError("illegal", str(exc)) from None
            return self.n

    async def forfeit(self, winner: int | None, reason: str) -> None:
        """A tournament's board decided without a match (C10: a no-show): the table closes unplayed."""
        async with self.runner.lock:
            if self.status != "open":
                raise ServiceError("started", "the match has started: its result decides")
            await self.runner.commit("end", {"winner": winner, "how": "forfeit", "reason": reason})

    # -- background ----------------------------------------------------------------------------------
    def arm_fill(self) -> None:
        """Quick games against bots (``bots_after``, kept with the table: ``TableRow.fill``): when the time comes,
        the empty seats get bots and the match starts. Armed when the table is made and whenever it is rebuilt
        (after a restart, or by the node that took it over), so the appointment outlives its first node."""
        fill = self.fill
        if fill is None or self.status != "open" or (self.fill_task is not None and not self.fill_task.done()):
            return
        level = str(fill["level"])
        seconds = max(0.0, (dt.datetime.fromisoformat(fill["at"]) - dt.datetime.now(dt.UTC)).total_seconds())

        async def later() -> None:
            await asyncio.sleep(seconds)
            if self.status != "open":
                return
            with contextlib.suppress(ServiceError):
                await self.fill_bots(None, level)
                await self.start(None)

        self.fill_task = self.runner.ports.spawn(later())

    def arm_start(self) -> None:
        """Issue 22, item 9: a table whose every seat is taken starts its match by itself ``autostart`` seconds
        later (``TableState.starts_at``, which every frame's summary shows, so the table counts down), unless a
        player starts it first or a seat is left meanwhile. Armed whenever a seat is taken and whenever the
        table is rebuilt: the moment the last seat was taken is its event's, so a restart keeps the count."""
        starts = self.state.starts_at
        if starts is None or (self.start_task is not None and not self.start_task.done()):
            return

        async def later() -> None:
            while (at := self.state.starts_at) is not None:
                wait = (at - dt.datetime.now(dt.UTC)).total_seconds()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue  # a seat may have been left and taken again meanwhile: the count began again
                with contextlib.suppress(ServiceError):
                    await self.start(None)
                return

        self.start_task = self.runner.ports.spawn(later())

    def busy(self) -> bool:
        """Whether the table has work pending besides its clocks (quick play's bots_after timer, the countdown
        to its start)."""
        return any(task is not None and not task.done() for task in (self.fill_task, self.start_task))

    def close(self) -> None:
        self.runner.stop()
        for task in (self.fill_task, self.start_task):
            if task is not None:
                task.cancel()
