"""All live tables of one server: creating them, finding them (loading them from the store when
they are not in memory), letting idle ones go, and shutting down.

The server is one node among those sharing the store: it runs the tables it created or claimed, each under a
fencing token (:mod:`capicua.service.store.events`). It claims the tables no living node runs (their node
died, or let them go), lets go of those it no longer keeps in memory, and drops at once a table the store says
another node runs now (its subscribers are told ``moved``). docs/architecture.md, "Several nodes".
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import math
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from capicua.bots.registry import check_spec
from capicua.rules import variants
from capicua.service.bus import Bus
from capicua.service.errors import Elsewhere, ServiceError
from capicua.service.identity import Identity
from capicua.service.store import EventStore, StoredEvent, TableRow
from capicua.service.tables.bots import BotPool
from capicua.service.tables.ports import Gate, OpenGate, Ports, RatingOf, TableConfig
from capicua.service.tables.state import TableState
from capicua.service.tables.table import Table

#: Who referees a table (C8) besides what the table knows itself: the tournaments answer for theirs.
MayReferee = Callable[[TableState, Identity], Awaitable[bool]]

__all__ = ["AUTOSTART_SECONDS", "FORGET_AFTER", "TableConfig", "TableService"]

log = logging.getLogger("capicua.tables")

#: Seconds from a table's last seat taken to its match starting by itself (a table's ``autostart``, issue 22).
AUTOSTART_SECONDS = 10
#: Seconds a finished table nobody watches stays in memory (it is loaded again when asked for).
FORGET_AFTER = 600.0


def _fill(seconds: float, level: str) -> dict[str, str]:
    """Quick play's appointment kept with a table (``tables.fill``): bots of ``level`` in ``seconds`` from now."""
    check_spec(level)
    return {"at": (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds)).isoformat(), "level": level}


class TableService:
    """All live tables of the server; what they publish goes to ``bus``; ``tournament_referees`` answers who
    referees a tournament's table (C8), so that the tables know nothing of tournaments; ``conduct``, whether a
    player may start a rated match or speak (playbans, mutes)."""

    def __init__(
        self,
        store: EventStore,
        bus: Bus,
        config: TableConfig | None = None,
        rating_of: RatingOf | None = None,
        tournament_referees: MayReferee | None = None,
        node: str = "local",
        alive: Callable[[], Awaitable[list[str]]] | None = None,
        conduct: Gate | None = None,
    ) -> None:
        self.store = store
        #: This node's name: the tables it runs say so in the store.
        self.node = node
        #: Shutting down: it creates and claims no tables.
        self.draining = False
        #: The nodes alive now (by name): a table one of them runs is not this node's to load.
        self._alive = alive
        self.bus = bus
        self._rating_of = rating_of
        #: Who referees a tournament's tables: the tournaments' referee policy, given when the service is built.
        self._tournament_referees = tournament_referees
        self.config = config or TableConfig()
        self.bot_pool = BotPool(self.config.bot_workers)
        self.tables: dict[str, Table] = {}
        #: A lock for each table being rebuilt from the store (it goes when nobody holds or awaits it).
        self._loading: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.tasks: set[asyncio.Task[None]] = set()
        #: What every table uses of this server (its runner's doors: store, bus, bots, tasks, ratings, referees).
        self.ports = Ports(
            store,
            bus,
            self.bot_pool,
            lambda: self.config,
            self.spawn,
            self.rating_of,
            self.may_referee,
            self.drop,
            conduct or OpenGate(),
        )

    async def alive(self) -> list[str]:
        return [] if self._alive is None else await self._alive()

    async def rating_of(self, player_id: str, game: str) -> dict[str, Any] | None:
        """A player's rating in ``game``, to show at his seat (None: unrated, or no ratings here)."""
        return None if self._rating_of is None else await self._rating_of(player_id, game)

    async def may_referee(self, table: TableState, who: Identity) -> bool:
        """C8: a tournament's table is refereed by the referees its tournament names for it; any other
        strict table by its creator (casual tables have no referee). Never by one who sits at it, and only in
        a game with a table referee (``Variant.referee``): another game's tables have none."""
        if not table.game.referee or table.seat_of(who) is not None:
            return False
        if table.tournament_id is not None:
            return self._tournament_referees is not None and await self._tournament_referees(table, who)
        return bool(table.options.get("strict")) and who.id == table.owner

    async def check_referee(self, table: Table, who: Identity) -> None:
        """Refuse (``forbidden``) whoever may not referee ``table`` (:meth:`may_referee`), saying why: the
        referee console is for the table's referees only."""
        if await self.may_referee(table.state, who):
            return
        game = table.state.game
        if not game.referee:
            raise ServiceError("forbidden", f"{game.title} has no table referee (C8): nobody referees this table")
        if table.seat_of(who) is not None:
            raise ServiceError("forbidden", "a player at this table cannot referee it")
        raise ServiceError("forbidden", "only this table's referees may open its referee console (C8)")

    async def entered(self, table_id: str, who: Identity | None, invite: str | None) -> Table:
        """The table, if ``who`` may see it (a private table needs its invite, or a seat at it)."""
        table = await self.fetch(table_id)
        table.check_entry(who, invite)
        return table

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A background task, cancelled and awaited when the service shuts down."""
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def load(self) -> None:
        """Rebuild every table this node ran when it stopped (under its name), and those no living node runs;
        then let go of idle finished tables every minute."""
        mine = await self.store.owned(self.node)
        rows = [row for row in await self.store.tables(["open", "playing"]) if row.id in mine]
        for row in rows + await self.store.orphans(self.node):
            await self._adopt(row)
        self.spawn(self._housekeeping())

    async def claim_orphans(self, nodes_alive: int = 1) -> list[str]:
        """Run this node's share of the tables whose node is not alive (one in ``nodes_alive``: the others take
        the rest), claimed in one statement and read in one query, then each rebuilt. Returns the ids of those
        it took; another node that claimed one first keeps it."""
        if self.draining:
            return []
        orphans = [row for row in await self.store.orphans(self.node) if row.id not in self.tables]
        share = orphans[: math.ceil(len(orphans) / max(1, nodes_alive))]
        claimed = await self.store.claim_many({row.id: row.lease for row in share}, self.node)
        events = await self.store.read_many(list(claimed))
        taken = []
        for row in share:
            if row.id in claimed:
                row.node, row.lease = self.node, claimed[row.id]
                if await self._build(row, events[row.id]) is not None:
                    taken.append(row.id)
        return taken

    async def _adopt(self, row: TableRow, stale_too: bool = False) -> Table | None:
        """The one Table of ``row``: the one in memory, or claimed for this node (its token raised: the old
        owner can no longer write it) and rebuilt from its events; None if another node claimed it first. An
        open table never started and untouched for long (``config.stale_open_after``) is let go again unless
        ``stale_too``: it is loaded when its link is opened.

        A table is claimed and rebuilt once even when two ask for it together (a restart's loading, and a
        listener of a match's end that the loading published fetching a table of the next round): a second
        claim would raise the token under the first Table, and a second Table replaying the same events would
        write the same event numbers again."""
        async with self._loading_lock(row.id):
            if (table := self.tables.get(row.id)) is not None:
                return table
            lease = await self.store.claim(row.id, self.node, row.lease)
            if lease is None:
                return None
            row.node, row.lease = self.node, lease
            events = await self.store.read(row.id)  # read after the claim: every event of the old owner is in
            return await self._build_locked(row, events, stale_too)

    async def _build(self, row: TableRow, events: list[StoredEvent]) -> Table | None:
        """The Table of ``row``, claimed by this node, rebuilt from its ``events`` (read after the claim), unless
        one was built meanwhile."""
        async with self._loading_lock(row.id):
            if (table := self.tables.get(row.id)) is not None:
                return table
            return await self._build_locked(row, events)

    def _loading_lock(self, table_id: str) -> asyncio.Lock:
        """The lock under which the table is claimed and rebuilt (it goes when nobody holds or awaits it)."""
        lock = self._loading.get(table_id)
        if lock is None:
            lock = self._loading[table_id] = asyncio.Lock()
        return lock

    async def _build_locked(self, row: TableRow, events: list[StoredEvent], stale_too: bool = False) -> Table | None:
        """:meth:`_build`, with the table's loading lock held by the caller."""
        idle = (dt.datetime.now(dt.UTC) - (events[-1].at if events else row.created_at)).total_seconds()
        if not stale_too and row.status == "open" and idle > self.config.stale_open_after:
            await self.store.release(row.id, row.lease)
            return None
        table = Table(row, self.ports)
        await table.runner.replay(events, resume=True)
        self.tables[row.id] = table
        table.arm_fill()
        table.arm_start()
        if not stale_too:  # loaded by itself: as idle as its events say (asked for: touched now)
            table.runner.touched -= idle
        return table

    def check_owned(self, owned: dict[str, int], asked: float) -> list[str]:
        """Drop the tables in memory that the store says this node no longer runs (``owned``: the store's
        tables of this node and their tokens, read from ``asked`` on, a ``time.monotonic()``): another node
        took them over while this one was away. A table built since (created or claimed while the store was
        read) is not judged by a read that may be older than it."""
        lost = [t.id for t in self.tables.values() if t.built < asked and owned.get(t.id) != t.runner.log.lease]
        for table_id in lost:
            self.drop(table_id)
        return lost

    def drop(self, table_id: str) -> None:
        """This node no longer runs the table: out of memory, its clocks and bots stopped, its subscribers told
        ``moved`` (they subscribe again, through any node)."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close()
            self.spawn(table.runner.fanout.moved())

    async def _housekeeping(self) -> None:
        while True:
            await asyncio.sleep(60)
            for table in self.forget_idle():
                await self._release(table)

    async def _release(self, table: Table) -> None:
        """Let another node claim a table this one no longer keeps (a store away for a moment: it stays
        this node's, claimed again when asked for)."""
        lease = table.runner.log.lease
        if lease is not None:
            try:
                await self.store.release(table.id, lease)
            except Exception:
                log.warning("table %s could not be let go", table.id, exc_info=True)

    async def create(
        self,
        who: Identity,
        variant: str,
        players: int | None,
        options: dict[str, Any],
        private: bool,
        rated: bool = False,
        tournament_id: str | None = None,
        reserved: list[str] | None = None,
        bots_rated: bool = False,
        bots_after: tuple[float, str] | None = None,
        lesson: str | None = None,
        autostart: int | None = None,
    ) -> Table:
        """A new open table of ``variant``; its options are the game's own, checked by the game (and ``lesson``,
        the guided hand it deals first: :mod:`capicua.service.lessons`). A rated
        table (D1) is for account holders only: no guest creates or joins one, and no bot sits at it.
        ``bots_after`` (seconds, level): quick play, the empty seats get bots of that level then and the match
        starts, once the caller arms it (:meth:`Table.arm_fill`, after seating whoever sits first: with 0 s the
        bots would take every seat first); a table rebuilt later arms itself. ``autostart`` (seconds): once every
        seat is taken the match starts by itself that much later (:meth:`Table.arm_start`); None: its players
        start it."""
        if rated and who.guest:
            raise ServiceError("accounts-only", "rated tables are for account holders: sign up to play one (D1)")
        if self.draining:
            raise ServiceError("unavailable", "this server is shutting down: try again in a moment")
        try:
            game = variants.get(variant)
        except ValueError as exc:
            raise ServiceError("bad-variant", str(exc)) from None
        try:
            count = game.check_players(players)
            checked = game.check_options(options)
        except ValueError as exc:
            raise ServiceError("bad-options", str(exc)) from None
        if lesson is not None:
            checked["lesson"] = lesson
        if reserved is not None and len(reserved) != count:
            raise ServiceError("bad-options", f"a reserved table keeps {count} seats, not {len(reserved)}")
        fill = None if bots_after is None else _fill(*bots_after)
        row = await self.store.create_table(
            variant, count, checked, private, who.id, rated, tournament_id, reserved, bots_rated and rated, self.node,
            fill, None if reserved is not None else autostart,
        )  # fmt: skip
        table = Table(row, self.ports)
        self.tables[row.id] = table
        return table

    async def discard(self, table: Table) -> None:
        """Drop a new table that nobody was told about and nobody sits at (quick play's, when its group was
        claimed by another node first): out of memory and the lobby, stopped, and ``finished`` in the store,
        so that neither a restart nor another node's takeover loads it again."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.close()
        await self.store.set_status(table.id, "finished")

    def get(self, table_id: str) -> Table:
        """A table in memory (open, in play, or finished not long ago); see :meth:`fetch`."""
        table = self.tables.get(table_id)
        if table is None:
            raise ServiceError("not-found", f"no table {table_id!r}")
        return table

    async def fetch(self, table_id: str) -> Table:
        """A table, loaded from the store if it is not in memory: a finished table after a restart,
        or one that :meth:`forget_idle` let go. One that another living node runs is refused
        (``elsewhere``), naming the node."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        for _ in range(3):  # another node may claim it between the read and the claim: read again
            row = await self.store.table(table_id)
            if row is None:
                raise ServiceError("not-found", f"no table {table_id!r}")
            if row.node not in (None, self.node) and row.node in await self.alive():
                raise Elsewhere(table_id, row.node)
            if self.draining:
                raise ServiceError("unavailable", "this server is shutting down: try again in a moment")
            table = await self._adopt(row, stale_too=True)
            if table is not None:
                return table
        raise ServiceError("unavailable", f"table {table_id!r} is changing servers: try again in a moment")

    def forget_idle(self, seconds: float = FORGET_AFTER) -> list[Table]:
        """Let go of finished tables nobody watches and nobody touched for ``seconds``, and of open
        tables untouched for ``config.stale_open_after`` (both are loaded again on demand); return them (the
        caller lets the store know, :meth:`_release`). Memory then holds live tables, not history, and the
        lobby lists tables people use."""
        now = time.monotonic()
        limits = {"finished": seconds, "open": self.config.stale_open_after}
        idle = [
            t.id
            for t in self.tables.values()
            if t.status in limits
            and not t.subscribers
            and now - t.runner.touched > limits[t.status]
            and not t.runner.lock.locked()
            and not t.busy()
        ]
        forgotten = [self.tables.pop(table_id) for table_id in idle]
        for table in forgotten:
            table.close()
        return forgotten

    def open_tables(self) -> list[Table]:
        """The lobby's tables: public, open or in play; a tournament's tables are listed on its page."""
        return [
            t
            for t in self.tables.values()
            if not t.state.private and t.state.tournament_id is None and t.status in ("open", "playing")
        ]

    async def open_round_tables(self, tournament_id: str) -> list[str]:
        """The tables of a tournament's rounds still open (nobody has played them yet), on any node."""
        return [row.id for row in await self.store.tables(["open"], tournament_id)]

    def seated(self, who: Identity) -> list[dict[str, Any]]:
        """The tables of this node where ``who`` sits and a match is in play: ``table``, ``match`` (its number),
        ``variant``, ``seat``."""
        found = []
        for table in list(self.tables.values()):
            seat = table.seat_of(who)
            if seat is not None and table.status == "playing":
                found.append({"table": table.id, "match": table.state.match_no, "variant": table.variant, "seat": seat})
        return found

    def close(self) -> None:
        for table in self.tables.values():
            table.close()

    async def aclose(self, timeout: float = 10.0) -> None:
        """Stop every table's background work and wait until it has stopped, so that nothing is
        left half way through a database call when the store closes."""
        self.draining = True
        self.close()
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=timeout)
        # Every table is left stopped, an event half written written first; the node then retires, and
        # another node takes its tables over without waiting for its lease to run out. Their subscribers
        # are told to subscribe again.
        for table in list(self.tables.values()):
            async with table.runner.lock:
                await table.runner.fanout.moved()
        self.tables.clear()
        self.bot_pool.close()
