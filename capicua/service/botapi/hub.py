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

Invitations are kept in the database (``store.invitations``) until the bot answers or they are
``INVITATION_TTL`` old: a bot that connects after a restart, or to another node, still gets them.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from collections import defaultdict
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import Any

from capicua.service.botapi.messages import AccountEvent, InvitationFrame, Inviter, TableFinish, TableStart
from capicua.service.bus import Bus, MatchEnded, MatchStarted
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity, is_guest_id
from capicua.service.relay import Router
from capicua.service.store import AccountStore, InvitationStore
from capicua.service.store.schema import BotInvitationRow, now
from capicua.service.tables import TableService

__all__ = ["INVITATION_TTL", "KEEPALIVE", "BotHub", "Invitation"]

#: How long an invitation waits for the bot's answer.
INVITATION_TTL = dt.timedelta(minutes=5)
#: Seconds of silence after which a stream sends an empty line (so that proxies and clients know it lives).
KEEPALIVE = 10.0
#: Frames a slow reader may leave unread before its stream is closed.
BACKLOG = 2000
#: What the nodes tell each other for the bot accounts' event streams (:meth:`Router.tell`).
TOLD = "account-event"


@dataclass(frozen=True)
class Invitation:
    id: str
    table: str
    seat: int | None
    bot: str  # the bot account's id
    by_id: str
    by_name: str
    variant: str
    options: dict[str, Any]
    rated: bool
    invite: str | None  # a private table's invite code (the inviter sits there: he may share it)
    at: dt.datetime

    def json(self) -> InvitationFrame:
        return InvitationFrame(
            {
                "type": "invitation",
                "id": self.id,
                "table": self.table,
                "seat": self.seat,
                "variant": self.variant,
                "options": self.options,
                "rated": self.rated,
                "from": Inviter(id=self.by_id, name=self.by_name),
            }
        )

    def row(self) -> BotInvitationRow:
        data: dict[str, Any] = {"from": {"id": self.by_id, "name": self.by_name}, "variant": self.variant}
        data |= {"options": self.options, "rated": self.rated, "invite": self.invite}
        return BotInvitationRow(
            id=self.id, bot_id=self.bot, table_id=self.table, seat=self.seat, data=data, created_at=self.at
        )

    @classmethod
    def of_row(cls, row: BotInvitationRow) -> Invitation:
        d = row.data
        return cls(row.id, row.table_id, row.seat, row.bot_id, d["from"]["id"], d["from"]["name"], d["variant"],
                   d["options"], d["rated"], d["invite"], row.created_at)  # fmt: skip


class BotHub:
    """Every bot account's event streams and invitations, and their table streams."""

    def __init__(
        self,
        tables: TableService,
        accounts: AccountStore,
        invitations: InvitationStore,
        clock: Callable[[], dt.datetime] = now,
        router: Router | None = None,
    ) -> None:
        self.tables = tables
        #: A table's seat stream and an accepted invitation reach the table wherever it runs.
        self.router = router or Router(tables)
        self.accounts = accounts
        self.invitations = invitations
        self.clock = clock
        self.streams: defaultdict[str, list[asyncio.Queue[AccountEvent]]] = defaultdict(list)

    def attach(self, bus: Bus) -> BotHub:
        bus.subscribe(MatchStarted.topic, self.match_started)
        bus.subscribe(MatchEnded.topic, self.match_ended)
        self.router.listen(TOLD, self._told)
        self.router.show("online", lambda: list(self.streams))
        return self

    async def online(self, account_id: str) -> bool:
        """Whether the bot account has an event stream open on some node (it can answer invitations now)."""
        return account_id in await self.online_ids()

    async def online_ids(self) -> set[str]:
        """The bot accounts with an event stream open on any node (another node's, as it said at most
        ``KEEP_EVERY`` seconds ago)."""
        return set(await self.router.everywhere("online"))

    async def _tell(self, account_ids: list[str], event: AccountEvent) -> None:
        """``event`` to the event streams of these accounts, on every node."""
        await self.router.tell(TOLD, {"to": account_ids, "event": dict(event)})

    async def _told(self, payload: dict[str, Any]) -> None:
        for account_id in payload["to"]:
            for queue in self.streams.get(account_id, []):
                if queue.qsize() < BACKLOG:
                    queue.put_nowait(payload["event"])

    async def pending(self, account_id: str) -> list[Invitation]:
        """The bot's unanswered invitations, oldest first (the ones older than ``INVITATION_TTL`` are gone)."""
        rows = await self.invitations.pending(account_id, self.clock() - INVITATION_TTL)
        return [Invitation.of_row(r) for r in rows]

    # -- invitations ---------------------------------------------------------------------------------
    async def invite(self, who: Identity, table_id: str, username: str, seat: int | None) -> Invitation:
        """A player (or the creator) of an open table invites the bot account ``username`` to a seat. The table
        may run on any node, and the bot's event streams be open on any node."""
        about = await self.router.call(table_id, "invitable", who, seat=seat)
        account = await self.accounts.by_username(username)
        if account is None or not account.bot:
            raise ServiceError("not-found", f"no bot account {username!r}")
        at = self.clock()
        invitation = Invitation(
            secrets.token_urlsafe(6),
            table_id,
            seat,
            account.id,
            who.id,
            who.name,
            about["variant"],
            about["options"],
            about["rated"],
            about["invite"],
            at,
        )
        await self.invitations.add(invitation.row(), older_than=at - INVITATION_TTL)  # durable, then told
        await self._tell([account.id], invitation.json())
        return invitation

    async def _take(self, who: Identity, invitation_id: str) -> Invitation:
        row = await self.invitations.take(invitation_id, who.id, self.clock() - INVITATION_TTL)
        if row is None:
            raise ServiceError("not-found", f"no invitation {invitation_id!r} for you")
        return Invitation.of_row(row)

    async def accept(self, who: Identity, invitation_id: str) -> dict[str, Any]:
        """The bot accepts: it sits at the seat it was invited to (or the first free one). An invitation is
        answered once: a second answer, here or on another node, finds none."""
        invitation = await self._take(who, invitation_id)
        answer = await self.router.call(invitation.table, "join", who, seat=invitation.seat, invite=invitation.invite)
        return {"table": invitation.table, "seat": answer["seat"]}

    async def decline(self, who: Identity, invitation_id: str) -> None:
        await self._take(who, invitation_id)

    # -- the event stream ----------------------------------------------------------------------------
    def events(self, who: Identity) -> AsyncGenerator[AccountEvent | None, None]:
        """The bot's events, as they come (None: nothing for a while, a keep-alive). Refused at once (not when
        iterated) to an account that is not a bot."""
        if not who.bot:
            raise ServiceError("forbidden", "the bot API's streams are for bot accounts (create one with bot: true)")
        return self._events(who)

    async def _events(self, who: Identity) -> AsyncGenerator[AccountEvent | None, None]:
        queue: asyncio.Queue[AccountEvent] = asyncio.Queue()
        self.streams[who.id].append(queue)
        try:
            for invitation in await self.pending(who.id):
                yield invitation.json()
            for seated in await self.router.seated(who):
                yield _started(seated["table"], seated["match"], seated["variant"], seated["seat"])
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
            if player is not None and not is_guest_id(player):
                await self._tell([player], _started(event.table_id, event.match_no, event.variant, seat))

    async def match_ended(self, event: MatchEnded) -> None:
        players = [p for p in event.player_ids if p is not None and not is_guest_id(p)]
        if players:
            finish = TableFinish(
                type="tableFinish",
                table=event.table_id,
                match=event.match_no,
                winner=event.outcome.winner,
                how=event.outcome.termination.value,
            )
            await self._tell(players, finish)

    # -- a seat's table stream -----------------------------------------------------------------------
    async def table_stream(self, who: Identity, table_id: str) -> AsyncGenerator[dict[str, Any] | None, None]:
        """The frames of ``who``'s seat at a table, each with the seat's view (``view``), until the match ends,
        wherever the table runs. Refused at once when he does not sit there."""
        players = (await self.router.call(table_id, "seats", None))["players"]
        if who.id not in players:
            raise ServiceError("not-seated", "you do not sit at this table")
        return self._table_frames(table_id, who)

    async def _table_frames(self, table_id: str, who: Identity) -> AsyncGenerator[dict[str, Any] | None, None]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def send(frame: Any) -> None:
            if queue.qsize() >= BACKLOG:
                raise ServiceError("too-fast", "this stream is not being read")
            queue.put_nowait(dict(frame))

        sub = await self.router.subscribe(table_id, who, None, None, send, view=True)
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
                if frame.get("type") == "moved":
                    return
        finally:
            sub.close()


def _started(table: str, match: int, variant: str, seat: int) -> TableStart:
    return TableStart(type="tableStart", table=table, match=match, variant=variant, seat=seat)
