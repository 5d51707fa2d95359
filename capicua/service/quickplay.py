"""Rated quick play: account holders wait in a queue per game and are seated with players of near ratings.

Each waiting player accepts opponents within a range of his rating that widens the longer he waits:
``RANGE + WIDEN × seconds waited`` (100 points at first, 10 more each second); after ``ANYONE_AFTER``
seconds anybody will do. A group (four players in the partnership games, two in individual play) forms when
every one of them accepts every other; among the groups that can form, the one with the smallest spread of
ratings goes first, and the longest waiting player is always in it. The group gets a rated table (D1), the
teams balanced (the strongest and the weakest against the two others), and its match starts at once.

Guests play quick games against bots (``bots_after``); this queue is for rated matches.

**Several nodes.** The tickets are rows of the database (``quickplay_tickets``,
:mod:`capicua.service.store.quickplay`), so a join, a status and a leave may each reach any node: there are no
sticky sessions, and a player has one waiting ticket whichever nodes his joins reached. Only the leading node
(:meth:`NodeLease.leads <capicua.service.nodes.NodeLease.leads>`) matches: in its sweep (every second) and
right after a join or a status it answers, so that on one process a join is seated at once. Two nodes may
both believe for a moment that they lead; a group is then still seated once, because it is claimed by one
conditional write, and only the node whose claim won seats anybody (:meth:`QuickPlay._seat` says why the
table is made before the claim).

>>> acceptable(1500, 1580, waited=0.0), acceptable(1500, 1650, waited=0.0), acceptable(1500, 1650, waited=6.0)
(True, False, True)
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from capicua.rules import variants
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.ratings.model import BASE
from capicua.service.store.schema import QuickPlayTicketRow

if TYPE_CHECKING:
    from capicua.service.ratings.service import Ratings
    from capicua.service.store import QuickPlayStore
    from capicua.service.tables import TableService
    from capicua.service.tables.ports import Gate

__all__ = ["ANYONE_AFTER", "RANGE", "WIDEN", "QuickPlay", "acceptable"]

log = logging.getLogger("capicua.quickplay")

#: A waiting player accepts opponents this far from his rating at first…
RANGE = 100.0
#: …and this much farther for each second he waits…
WIDEN = 10.0
#: …and anybody once he has waited this long.
ANYONE_AFTER = 60.0
#: A ticket nobody asked about for this long is dropped (the player left the page).
FORGOTTEN_AFTER = 30.0
#: A match stops after this many groups in a row were claimed by another node first (the next sweep goes on).
LOST_CLAIMS = 5


def acceptable(mine: float, theirs: float, waited: float) -> bool:
    """Whether a player rated ``mine`` who waited ``waited`` seconds takes an opponent rated ``theirs``."""
    return waited >= ANYONE_AFTER or abs(mine - theirs) <= RANGE + WIDEN * waited


@dataclass
class Ticket:
    id: str
    who: Identity
    game: str
    rating: float
    since: dt.datetime
    seen: dt.datetime
    table: str | None = None  # once seated

    @classmethod
    def of(cls, row: QuickPlayTicketRow) -> Ticket:
        who = Identity(row.player_id, row.player_name, guest=row.guest, bot=row.bot)
        return cls(row.id, who, row.game, row.rating, row.since, row.seen, row.table_id)

    def waited(self, now: dt.datetime) -> float:
        return (now - self.since).total_seconds()


class QuickPlay:
    """The rated quick-play queues of the platform, kept in ``store`` (shared by every node). ``leads``: whether
    this node leads now (it alone matches after a join or a status; the platform sweeps on the leader only);
    None: a single node, always. ``conduct`` keeps out whoever is under a playban."""

    def __init__(
        self,
        store: QuickPlayStore,
        tables: TableService,
        ratings: Ratings,
        clock: Callable[[], dt.datetime] | None = None,
        leads: Callable[[], Awaitable[bool]] | None = None,
        conduct: Gate | None = None,
    ) -> None:
        self.store = store
        self.conduct = conduct
        self.tables = tables
        self.ratings = ratings
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self.leads = leads
        self.lock = asyncio.Lock()  # one match at a time in this process (the store guards across nodes)

    async def join(self, who: Identity, game: str) -> dict[str, Any]:
        """Wait for a rated match of ``game``; the ticket to ask about (a player waits in one queue: a new join
        replaces his waiting ticket, whichever node it reached)."""
        if who.guest:
            raise ServiceError("accounts-only", "rated quick play is for account holders: sign up, or play the bots")
        try:
            variants.get(game)
        except ValueError as exc:
            raise ServiceError("bad-variant", str(exc)) from None
        if self.conduct is not None:
            await self.conduct.check_rated(who.id)  # a playban closes the rated queues
        found = await self.ratings.rating_of(who.id, game)
        rating = found["rating"] if found else BASE
        now = self.clock()

        def make() -> QuickPlayTicketRow:
            return QuickPlayTicketRow(
                id=secrets.token_urlsafe(9),
                player_id=who.id,
                player_name=who.name,
                guest=who.guest,
                bot=who.bot,
                game=game,
                rating=rating,
                since=now,
                seen=now,
                table_id=None,
            )

        row = await self.store.join(make)
        return await self._answer(row)

    async def status(self, who: Identity, ticket_id: str) -> dict[str, Any]:
        """Where the wait of ``who`` stands (he asked: the ticket is not forgotten)."""
        row = await self.store.touch(ticket_id, who.id, self.clock())
        if row is None:
            raise self._not_found()
        return await self._answer(row)

    async def leave(self, who: Identity, ticket_id: str) -> None:
        """Stop waiting (a ticket already seated stays as it is: its table is the player's)."""
        row = await self.store.ticket(ticket_id)
        if row is None or row.player_id != who.id:
            raise self._not_found()
        await self.store.leave(ticket_id, who.id)

    @staticmethod
    def _not_found() -> ServiceError:
        return ServiceError("not-found", "no such quick-play ticket (it may have expired)")

    async def _answer(self, row: QuickPlayTicketRow) -> dict[str, Any]:
        """The ticket's JSON, once this node, if it leads, has matched what can be matched in its game."""
        if row.table_id is None and (self.leads is None or await self.leads()):
            await self.match(row.game)
            row = await self.store.ticket(row.id) or row  # seated meanwhile (or forgotten: as it was)
        return self._json(Ticket.of(row), await self.store.count_waiting(row.game))

    def _json(self, ticket: Ticket, waiting: int) -> dict[str, Any]:
        now = self.clock()
        waited = ticket.waited(now)
        return {
            "ticket": ticket.id,
            "game": ticket.game,
            "state": "waiting" if ticket.table is None else "seated",
            "table": ticket.table,
            "rating": round(ticket.rating),
            "waited": round(waited, 1),
            "range": None if waited >= ANYONE_AFTER else round(RANGE + WIDEN * waited),
            "waiting": waiting,
        }

    async def sweep(self) -> None:
        """Drop the tickets nobody asks about any more, and match what can be matched: the leading node's work
        (the platform runs it every second there; tests call it)."""
        await self.store.forget(self.clock() - dt.timedelta(seconds=FORGOTTEN_AFTER))
        for game in await self.store.games_waiting():
            await self.match(game)

    async def match(self, game: str) -> list[str]:
        """Seat every group that can form now among the tickets waiting in ``game``'s queue, on every node; the
        tables made. Safe on several nodes at once (two that both believe they lead): a group claimed first
        elsewhere is read again (see :meth:`_seat`)."""
        size = 4 if variants.get(game).partnerships else 2
        made: list[str] = []
        lost = 0
        async with self.lock:
            while lost < LOST_CLAIMS and not self.tables.draining:
                group = self._best_group([Ticket.of(row) for row in await self.store.waiting(game)], size)
                if group is None:
                    break
                table_id = await self._seat(game, group)
                if table_id is None:
                    lost += 1  # another node seated some of them first, or one left: read the queue again
                    continue
                made.append(table_id)
        return made

    def _best_group(self, tickets: list[Ticket], size: int) -> list[Ticket] | None:
        """Among the waiting ``tickets`` of one game, the group of ``size`` to seat now (None: none can form)."""
        now = self.clock()
        waiting = sorted(tickets, key=lambda t: t.since)
        if len(waiting) < size:
            return None
        first, rest = waiting[0], waiting[1:]
        best: tuple[float, list[Ticket]] | None = None
        # The longest waiting player is in the group; the others are the nearest that all accept each other.
        near = sorted(rest, key=lambda t: abs(t.rating - first.rating))[: max(size + 6, 10)]
        for others in itertools.combinations(near, size - 1):
            group = [first, *others]
            if all(acceptable(a.rating, b.rating, a.waited(now)) for a in group for b in group if a is not b):
                spread = max(t.rating for t in group) - min(t.rating for t in group)
                if best is None or spread < best[0]:
                    best = (spread, group)
        return None if best is None else best[1]

    async def _seat(self, game: str, group: list[Ticket]) -> str | None:
        """A rated table for the group, the teams balanced, the match started; its id, or None when the group
        could not be claimed (nothing is left behind then).

        The table is created *first*, then the group is claimed for it (one conditional write: the tickets get
        its id only if every one of them still waits), and only then are the players seated. The other order
        (claim under an id picked beforehand, then create the table under it) would leave tickets pointing to a
        table that does not exist whenever the creation fails after the claim (the node shutting down, the
        database away, the process killed between the two), and their players would be told ``seated`` at
        nothing. This way a ticket only ever points to a table that exists (``table_id`` is a foreign key), a
        player is seated only by the node whose claim won, and a ticket is claimed once (``table_id IS NULL``
        in the write), so nobody is seated twice and no table seats a player claimed by another. What a lost
        claim leaves is an empty table nobody was told about: discarded at once (if this node dies in between,
        it stays open and empty until it is forgotten as an untouched open table)."""
        ranked = sorted(group, key=lambda t: -t.rating)
        order = [ranked[0], ranked[1], ranked[3], ranked[2]] if len(ranked) == 4 else ranked  # seats 0+2 v 1+3
        table = await self.tables.create(order[0].who, game, len(order), {}, private=False, rated=True)
        if not await self.store.claim([t.id for t in group], table.id):
            log.info("quick play: the group for table %s was claimed first elsewhere; discarded", table.id)
            await self.tables.discard(table)
            return None
        for seat, ticket in enumerate(order):
            await table.join(ticket.who, seat, None)
        await table.start(order[0].who)
        return table.id
