"""Where bot accounts hear of things: their event stream, people's invitations, and a seat's table stream.

Each bot account may hold event streams open (``events``): they get, as JSON objects,

- ``{"type": "invitation", "id", "table", "seat", "variant", "options", "rated", "from"}``: a person
  invites the bot to a seat of his open table; the bot accepts (it sits there) or declines;
- ``{"type": "tableStart", "table", "match", "variant", "seat"}``: a match starts at a table where the
  bot sits (on connecting, every table where a match of its is in play is announced again);
- ``{"type": "tableFinish", "table", "match", "winner", "how"}``: that match ended.

A seat's table stream (``table_stream``) is the websocket's frames for that seat, each with the seat's
engine view as JSON (``view``: :meth:`capicua.rules.hand.SeatView.to_json`), so a program can rebuild the
very view a built-in bot decides from. It ends after the match's end.

Invitations live in memory for ``INVITATION_TTL`` seconds (a restart forgets them: people invite again).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import defaultdict
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any

from capicua.service.bus import Bus, MatchEnded, MatchStarted
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store import AccountStore
from capicua.service.tables import Table, TableService
from capicua.service.tables.fanout import Subscriber

__all__ = ["INVITATION_TTL", "KEEPALIVE", "BotHub", "Invitation"]

#: Seconds an invitation waits for the bot's answer.
INVITATION_TTL = 300.0
#: Seconds of silence after which a stream sends an empty line (so that proxies and clients know it lives).
KEEPALIVE = 10.0
#: Frames a slow reader may leave unread before its stream is closed.
BACKLOG = 2000


@dataclass
class Invitation:
    id: str
    table: str
    seat: int | None
    bot: str  # the bot account's id
    by: Identity
    variant: str
    options: dict[str, Any]
    rated: bool
    invite: str | None  # a private table's invite code (the inviter sits there: he may share it)
    at: float = field(default_factory=time.monotonic)

    def json(self) -> dict[str, Any]:
        return {
            "type": "invitation",
            "id": self.id,
            "table": self.table,
            "seat": self.seat,
            "variant": self.variant,
            "options": self.options,
            "rated": self.rated,
            "from": {"id": self.by.id, "name": self.by.name},
        }


class BotHub:
    """Every bot account's event streams and invitations, and their table streams."""

    def __init__(self, tables: TableService, accounts: AccountStore, clock: Callable[[], float] | None = None) -> None:
        self.tables = tables
        self.accounts = accounts
        self.clock = clock or time.monotonic
        self.streams: defaultdict[str, list[asyncio.Queue[dict[str, Any]]]] = defaultdict(list)
        self.invitations: dict[str, Invitation] = {}

    def attach(self, bus: Bus) -> BotHub:
        bus.subscribe(MatchStarted.topic, self.match_started)
        bus.subscribe(MatchEnded.topic, self.match_ended)
        return self

    def online(self, account_id: str) -> bool:
        """Whether the bot account has an event stream open (it can answer invitations now)."""
        return bool(self.streams.get(account_id))

    def _push(self, account_id: str, event: dict[str, Any]) -> None:
        for queue in self.streams.get(account_id, []):
            if queue.qsize() < BACKLOG:
                queue.put_nowait(event)

    def _pending(self, account_id: str) -> list[Invitation]:
        now = self.clock()
        for key in [k for k, inv in self.invitations.items() if now - inv.at > INVITATION_TTL]:
            del self.invitations[key]
        return [inv for inv in self.invitations.values() if inv.bot == account_id]

    # -- invitations ---------------------------------------------------------------------------------
    async def invite(self, who: Identity, table_id: str, username: str, seat: int | None) -> Invitation:
        """A player (or the creator) of an open table invites the bot account ``username`` to a seat."""
        table = await self.tables.fetch(table_id)
        state = table.state
        if table.seat_of(who) is None and who.id != state.owner:
            raise ServiceError("forbidden", "only the table's players may invite a bot to it")
        if table.status != "open":
            raise ServiceError("started", "the match has started")
        if state.reserved is not None:
            raise ServiceError("reserved", "a tournament table's seats are kept for its players")
        account = await self.accounts.by_username(username.lower())
        if account is None or not account.bot:
            raise ServiceError("not-found", f"no bot account {username!r}")
        if seat is not None and not (0 <= seat < state.players and state.seats[seat].empty):
            raise ServiceError("taken", f"seat {seat} is not free")
        if not any(s.empty for s in state.seats):
            raise ServiceError("full", "no seat is free")
        invitation = Invitation(
            secrets.token_urlsafe(6),
            table.id,
            seat,
            account.id,
            who,
            state.variant,
            dict(state.options),
            state.rated,
            state.invite,
        )
        self._pending(account.id)  # forget the stale ones
        self.invitations[invitation.id] = invitation
        self._push(account.id, invitation.json())
        return invitation

    def _take(self, who: Identity, invitation_id: str) -> Invitation:
        invitation = self.invitations.get(invitation_id)
        if invitation is None or invitation.bot != who.id or self.clock() - invitation.at > INVITATION_TTL:
            raise ServiceError("not-found", f"no invitation {invitation_id!r} for you")
        return self.invitations.pop(invitation_id)

    async def accept(self, who: Identity, invitation_id: str) -> dict[str, Any]:
        """The bot accepts: it sits at the seat it was invited to (or the first free one)."""
        invitation = self._take(who, invitation_id)
        table = await self.tables.fetch(invitation.table)
        seat = await table.join(who, invitation.seat, invitation.invite)
        return {"table": table.id, "seat": seat}

    async def decline(self, who: Identity, invitation_id: str) -> None:
        self._take(who, invitation_id)

    # -- the event stream ----------------------------------------------------------------------------
    def events(self, who: Identity) -> AsyncGenerator[dict[str, Any] | None, None]:
        """The bot's events, as they come (None: nothing for a while, a keep-alive). Refused at once (not when
        iterated) to an account that is not a bot."""
        if not who.bot:
            raise ServiceError("forbidden", "the bot API's streams are for bot accounts (create one with bot: true)")
        return self._events(who)

    async def _events(self, who: Identity) -> AsyncGenerator[dict[str, Any] | None, None]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.streams[who.id].append(queue)
        try:
            for invitation in self._pending(who.id):
                yield invitation.json()
            for table in list(self.tables.tables.values()):
                seat = table.seat_of(who)
                if seat is not None and table.status == "playing":
                    yield _started(table.id, table.state.match_no, table.state.variant, seat)
            while True:
                try:
                    yield await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    yield None
        finally:
            self.streams[who.id].remove(queue)
            if not self.streams[who.id]:
                del self.streams[who.id]

    async def match_started(self, event: MatchStarted) -> None:
        for seat, player in enumerate(event.player_ids):
            if player is not None and player in self.streams:
                self._push(player, _started(event.table_id, event.match_no, event.variant, seat))

    async def match_ended(self, event: MatchEnded) -> None:
        for player in event.player_ids:
            if player is not None and player in self.streams:
                self._push(
                    player,
                    {
                        "type": "tableFinish",
                        "table": event.table_id,
                        "match": event.match_no,
                        "winner": event.outcome.winner,
                        "how": event.outcome.termination.value,
                    },
                )

    # -- a seat's table stream -----------------------------------------------------------------------
    async def table_stream(self, who: Identity, table_id: str) -> AsyncGenerator[dict[str, Any] | None, None]:
        """The frames of ``who``'s seat at a table, each with the seat's view (``view``), until the match ends.
        Refused at once when he does not sit there."""
        table = await self.tables.fetch(table_id)
        if table.seat_of(who) is None:
            raise ServiceError("not-seated", "you do not sit at this table")
        return self._table_frames(table, who)

    async def _table_frames(self, table: Table, who: Identity) -> AsyncGenerator[dict[str, Any] | None, None]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def send(frame: dict[str, Any]) -> None:
            if queue.qsize() >= BACKLOG:
                raise ServiceError("too-fast", "this stream is not being read")
            seat = table.seat_of(who)
            match = table.match
            if seat is not None and match is not None and match.hands and frame.get("state") is not None:
                frame = {**frame, "view": match.hand.view(seat).to_json()}
            queue.put_nowait(frame)

        sub = Subscriber(who, table.seat_of(who), send)
        await table.subscribe(sub, None)
        try:
            while True:
                try:
                    frame = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    if sub.closed:
                        return
                    yield None
                    continue
                yield frame
                if frame.get("type") == "event" and frame["event"].get("kind") == "end":
                    return
                if frame.get("type") == "state" and frame["state"]["table"]["status"] == "finished":
                    return
        finally:
            table.unsubscribe(sub)


def _started(table: str, match: int, variant: str, seat: int) -> dict[str, Any]:
    return {"type": "tableStart", "table": table, "match": match, "variant": variant, "seat": seat}
