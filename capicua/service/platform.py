"""The service layer put together: one store, one bus, the tables, identities and accounts, and the
listeners of the bus. The web app runs one :class:`Platform`; tests can run one without the web."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from capicua.service.accounts import Accounts
from capicua.service.analysis import Analyses
from capicua.service.botapi.hub import BotHub
from capicua.service.botapi.tokens import ApiTokens
from capicua.service.bus import Bus, LocalBus
from capicua.service.conduct import Conduct
from capicua.service.errors import ServiceError
from capicua.service.identity import GuestIdentities, Identity
from capicua.service.lessons import Lessons
from capicua.service.limits import Limits, MemoryLimitStore, RedisLimitStore
from capicua.service.nodes import LEASE_SECONDS, NodeLease
from capicua.service.presence import Presence
from capicua.service.puzzles import Puzzles
from capicua.service.quickplay import QuickPlay
from capicua.service.ratings.service import TIMEZONE, Ratings
from capicua.service.records import Records
from capicua.service.relay import RedisTransport, Router
from capicua.service.relay.router import identity_json, identity_of
from capicua.service.results import RecordSaver
from capicua.service.store import Store
from capicua.service.tables import TableConfig, TableService
from capicua.service.tournaments.director import Tournaments
from capicua.service.tournaments.referees import RefereePolicy

__all__ = ["Platform"]

log = logging.getLogger("capicua.platform")

#: What a node tells the others when somebody changes his name (:meth:`Router.tell`).
RENAMED = "renamed"


class Platform:
    """Everything behind the web layer; ``secret`` signs identity tokens. ``analysis_workers``: processes
    that compute hand reviews (None: one, or none, threads instead, when the tables' bots run inline).
    ``sweeps``: whether :meth:`open` starts the background loops (closing weeks, the quick-play queue, the
    tournaments); a test that drives those by hand on a clock of its own turns them off. ``node``: this
    server's name among the nodes sharing the database, alive while it renews a lease of ``lease_seconds``
    (:mod:`capicua.service.nodes`); with ``redis_url``, what is asked of a table another node runs goes there
    (:mod:`capicua.service.relay`). ``limits`` False lets every request through the rate limits (load tests
    from one address)."""

    def __init__(
        self,
        store: Store,
        secret: str,
        config: TableConfig | None = None,
        bus: Bus | None = None,
        timezone: str = TIMEZONE,
        clock: Callable[[], dt.datetime] | None = None,
        analysis_workers: int | None = None,
        sweeps: bool = True,
        node: str = "local",
        lease_seconds: float = LEASE_SECONDS,
        redis_url: str | None = None,
        limits: bool = True,
    ) -> None:
        self.store = store
        self.sweeps = sweeps
        self.bus: Bus = bus or LocalBus()
        self.identities = GuestIdentities(secret)
        #: The rate limits of every door (docs/operations.md, "Rate limits"): in Redis when the nodes share one.
        self.limits = Limits(MemoryLimitStore(), enabled=limits)
        #: Playbans, moderation and its log (a name a moderator hid is shown at the tables of every node).
        self.conduct = Conduct(store.conduct, clock, self._hidden)
        self.accounts = Accounts(store.accounts, self.identities, self.limits, clock, self.conduct.ban_words)
        self.ratings = Ratings(store.ratings, store.accounts.names, timezone, clock)
        # Who referees a tournament's table (C8): built first, over the tournament store alone, because both
        # the tables (the referee console, a decision) and the tournaments (which need the tables) ask it.
        self.referees = RefereePolicy(store.tournaments)
        self.tables = TableService(
            store.events,
            self.bus,
            config,
            self.ratings.rating_of,
            tournament_referees=self.referees.referees_table,
            node=node,
            alive=store.nodes.alive,
            conduct=self.conduct,
        )
        self.node = NodeLease(store.nodes, store.events, self.tables, lease_seconds)
        #: Every request about a table goes through the router: here, or to the node that runs it.
        self.router = Router(self.tables, RedisTransport(redis_url, node) if redis_url else None)
        if self.router.transport is not None:
            self.limits.store = RedisLimitStore(self.router.transport.redis, fallback=MemoryLimitStore())
        self.router.listen(RENAMED, self._renamed)
        #: Who is online here, shown to the other nodes as the lobby is (``people``).
        self.presence = Presence()
        self.router.show("people", self.presence.here)
        # The listeners of a match's end, in this order: the record, the ratings, the tournaments.
        self.record_saver = RecordSaver(store.records).attach(self.bus)
        self.records = Records(store.records)
        self.ratings.attach(self.bus)
        self.tournaments = Tournaments(store, self.tables, self.referees, clock, self.router).attach(self.bus)
        # The bot API: personal API tokens, its rate limits, and the bot accounts' streams.
        self.api_tokens = ApiTokens(store.tokens, clock)
        self.bot_hub = BotHub(self.tables, store.accounts, store.invitations, router=self.router).attach(self.bus)
        self.lessons = Lessons(self.tables)
        self.quickplay = QuickPlay(store.quickplay, self.tables, self.ratings, clock, self.node.leads, self.conduct)
        # Hand reviews of records, computed in worker processes and kept.
        if analysis_workers is None:
            analysis_workers = 0 if self.tables.config.bot_workers == 0 else 1
        self.analyses = Analyses(store.analyses, store.records, self.tables.spawn, analysis_workers)
        #: Puzzles from real hands (docs/puzzles.md): the daily one changes at midnight in the platform's zone.
        self.puzzles = Puzzles(store.puzzles, today=lambda: self.ratings.clock().astimezone(self.ratings.tz).date())

    async def open(self) -> None:
        """Open the database (migrations included), close the weeks that ended while the platform was down
        (D4), load the tables that were live, and keep closing weeks as they end and tournaments moving."""
        await self.store.open()
        await self.node.register()
        await self.ratings.close_weeks()
        await self.tables.load()
        await self.router.start()
        self.tables.spawn(self.node.keep())
        if not self.sweeps:
            return
        self.tables.spawn(self._close_weeks_every_minute())
        self.tables.spawn(self._sweep_quickplay())
        self.tables.spawn(self._sweep_tournaments())

    async def _sweep_quickplay(self) -> None:
        """Forget the quick-play tickets nobody asks about and seat the groups that can form (every node's
        players: the tickets are in the database): every second, on the leading node."""
        while True:
            await asyncio.sleep(1)
            try:
                if await self.node.leads():
                    await self.quickplay.sweep()
            except Exception:
                log.exception("the quick-play queue could not be swept")

    async def _sweep_tournaments(self) -> None:
        """Start the tournaments that are due, and move running ones on (no-shows, rounds): every 2 s, on the
        leading node (:meth:`NodeLease.leads`)."""
        while True:
            await asyncio.sleep(2)
            try:
                if await self.node.leads():
                    await self.tournaments.sweep()
            except Exception:
                log.exception("the tournaments could not be swept")

    async def _close_weeks_every_minute(self) -> None:
        while True:
            await asyncio.sleep(60)
            try:
                if await self.node.leads():
                    await self.ratings.close_weeks()
            except Exception:  # the database may be away for a moment: the next minute tries again
                log.exception("closing the weeks failed")

    async def rename(self, who: Identity, name: str) -> tuple[Identity, str]:
        """``who`` is called ``name`` from now on: the same identity (his seats, his history) under a
        new token; the tables he sits at show the new name."""
        await self.conduct.check_rename(who)
        renamed = Identity(who.id, name, who.guest, who.bot)
        if not who.guest and not await self.store.accounts.set_name(who.id, name):
            raise ServiceError("not-found", "no such account")
        await self.router.tell(RENAMED, identity_json(renamed) or {})  # the tables of every node
        return renamed, await self.accounts.session_token(renamed)

    async def _hidden(self, renamed: Identity) -> None:
        """A moderator hid an account's name (its new one is stored): the tables of every node show it."""
        await self.router.tell(RENAMED, identity_json(renamed) or {})

    async def _renamed(self, payload: dict[str, Any]) -> None:
        """Somebody was renamed (on any node): the tables of this node where he sits show his new name."""
        renamed = identity_of(payload)
        assert renamed is not None
        for table in list(self.tables.tables.values()):
            if table.seat_of(renamed) is not None:
                await table.rename(renamed, renamed.name)

    async def online(self, who: Identity | None) -> int:
        """How many people are online on every living node (each counted once), ``who`` (asking) among them."""
        self.presence.seen(who)
        return len(set(await self.router.everywhere("people")))

    async def health(self) -> dict[str, object]:
        """What ``GET /api/health`` answers: this node, whether the database answers, the tables it runs."""
        return {
            "node": self.node.name,
            "database": "ok" if await self.store.nodes.ping() else "down",
            "redis": None
            if self.router.transport is None
            else ("ok" if await self.router.transport.ping() else "down"),
            "tables": sorted(self.tables.tables),
            "lease_seconds": self.node.lease_seconds,
            "draining": self.tables.draining,
        }

    async def close(self) -> None:
        """Stop: the tables stopped (each event half written written first), then the node retires, so that the
        other nodes take its tables over at once, then the store closes."""
        self.analyses.close()
        await self.tables.aclose()
        await self.router.close()  # the frames for other nodes' clients (``moved``) are sent first
        try:
            await self.node.retire()
        except Exception:  # the database away: the other nodes wait for the lease to run out instead
            log.warning("node %s could not retire", self.node.name, exc_info=True)
        await self.store.close()
