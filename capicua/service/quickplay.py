"""Rated quick play: account holders wait in a queue per game and are seated with players of near ratings.

Each waiting player accepts opponents within a range of his rating that widens the longer he waits:
``RANGE + WIDEN × seconds waited`` (100 points at first, 10 more each second); after ``ANYONE_AFTER``
seconds anybody will do. A group (four players in the partnership games, two in individual play) forms when
every one of them accepts every other; among the groups that can form, the one with the smallest spread of
ratings goes first, and the longest waiting player is always in it. The group gets a rated table (D1), the
teams balanced (the strongest and the weakest against the two others), and its match starts at once.

Guests play quick games against bots (``bots_after``); this queue is for rated matches.

>>> acceptable(1500, 1580, waited=0.0), acceptable(1500, 1650, waited=0.0), acceptable(1500, 1650, waited=6.0)
(True, False, True)
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from capicua.rules import variants
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.ratings.model import BASE

if TYPE_CHECKING:
    from capicua.service.ratings.service import Ratings
    from capicua.service.tables import TableService

__all__ = ["ANYONE_AFTER", "RANGE", "WIDEN", "QuickPlay", "acceptable"]

#: A waiting player accepts opponents this far from his rating at first…
RANGE = 100.0
#: …and this much farther for each second he waits…
WIDEN = 10.0
#: …and anybody once he has waited this long.
ANYONE_AFTER = 60.0
#: A ticket nobody asked about for this long is dropped (the player left the page).
FORGOTTEN_AFTER = 30.0


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

    def waited(self, now: dt.datetime) -> float:
        return (now - self.since).total_seconds()


class QuickPlay:
    """The rated quick-play queues of one platform."""

    def __init__(self, tables: TableService, ratings: Ratings, clock: Callable[[], dt.datetime] | None = None) -> None:
        self.tables = tables
        self.ratings = ratings
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self.tickets: dict[str, Ticket] = {}
        self.lock = asyncio.Lock()

    async def join(self, who: Identity, game: str) -> dict[str, Any]:
        """Wait for a rated match of ``game``; the ticket to ask about (a player waits in one queue)."""
        if who.guest:
            raise ServiceError("accounts-only", "rated quick play is for account holders: sign up, or play the bots")
        try:
            variants.get(game)
        except ValueError as exc:
            raise ServiceError("bad-variant", str(exc)) from None
        async with self.lock:
            for ticket in list(self.tickets.values()):
                if ticket.who.id == who.id and ticket.table is None:
                    del self.tickets[ticket.id]  # one queue at a time: the new one replaces it
            rating = await self.ratings.rating_of(who.id, game)
            now = self.clock()
            ticket = Ticket(secrets.token_urlsafe(9), who, game, rating["rating"] if rating else BASE, now, now)
            self.tickets[ticket.id] = ticket
            await self._match(game)
            return self._json(ticket)

    async def status(self, who: Identity, ticket_id: str) -> dict[str, Any]:
        async with self.lock:
            ticket = self._mine(who, ticket_id)
            ticket.seen = self.clock()
            await self._match(ticket.game)
            return self._json(ticket)

    async def leave(self, who: Identity, ticket_id: str) -> None:
        async with self.lock:
            ticket = self._mine(who, ticket_id)
            if ticket.table is None:
                del self.tickets[ticket.id]

    def _mine(self, who: Identity, ticket_id: str) -> Ticket:
        ticket = self.tickets.get(ticket_id)
        if ticket is None or ticket.who.id != who.id:
            raise ServiceError("not-found", "no such quick-play ticket (it may have expired)")
        return ticket

    def _json(self, ticket: Ticket) -> dict[str, Any]:
        now = self.clock()
        waited = ticket.waited(now)
        waiting = sum(1 for t in self.tickets.values() if t.game == ticket.game and t.table is None)
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
        """Drop the tickets nobody asks about any more, and match what can be matched."""
        async with self.lock:
            now = self.clock()
            for ticket in list(self.tickets.values()):
                if (now - ticket.seen).total_seconds() > FORGOTTEN_AFTER:
                    del self.tickets[ticket.id]
            for game in {t.game for t in self.tickets.values()}:
                await self._match(game)

    async def _match(self, game: str) -> None:
        """Seat every group that can form now (the lock is held)."""
        size = 4 if variants.get(game).partnerships else 2
        while True:
            group = self._best_group(game, size)
            if group is None:
                return
            await self._seat(game, group)

    def _best_group(self, game: str, size: int) -> list[Ticket] | None:
        now = self.clock()
        waiting = sorted(
            (t for t in self.tickets.values() if t.game == game and t.table is None), key=lambda t: t.since
        )
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

    async def _seat(self, game: str, group: list[Ticket]) -> None:
        """A rated table for the group, the teams balanced, the match started."""
        ranked = sorted(group, key=lambda t: -t.rating)
        order = [ranked[0], ranked[1], ranked[3], ranked[2]] if len(ranked) == 4 else ranked  # seats 0+2 v 1+3
        table = await self.tables.create(order[0].who, game, len(order), {}, private=False, rated=True)
        for seat, ticket in enumerate(order):
            await table.join(ticket.who, seat, None)
        await table.start(order[0].who)
        for ticket in group:
            ticket.table = table.id
