"""This server as one node among several on one database: its lease, kept alive, and the tables it takes over.

A node registers under its name (:class:`~capicua.service.store.nodes.NodeStore`) and renews its lease every
third of ``lease_seconds``. Every ``scan_every`` seconds it takes over its share of the tables whose node is no
longer alive (:meth:`TableService.claim_orphans`): a node killed stops renewing, and its tables move once its
lease has run out; a node shut down retires at once, and its tables move at the next scan. A node that finds
its lease lost (it was paused past it) registers again and keeps only the tables whose fencing token the
store still gives it (:meth:`TableService.check_owned`): whatever it would write to the others is refused
anyway. docs/architecture.md, "Several nodes", says why the leases live in the database.
"""

from __future__ import annotations

import asyncio
import logging
import time

from capicua.service.store import EventStore, NodeStore
from capicua.service.tables import TableService

__all__ = ["LEASE_SECONDS", "NodeLease"]

log = logging.getLogger("capicua.nodes")

#: How long a node stays alive without renewing its lease: a killed node's tables move after this.
LEASE_SECONDS = 10.0


class NodeLease:
    """The lease of the node ``tables.node`` and the loops that keep it and take tables over."""

    def __init__(
        self,
        nodes: NodeStore,
        events: EventStore,
        tables: TableService,
        lease_seconds: float = LEASE_SECONDS,
        scan_every: float = 1.0,
    ) -> None:
        self.nodes = nodes
        self.events = events
        self.tables = tables
        self.name = tables.node
        self.lease_seconds = lease_seconds
        self.scan_every = scan_every
        self.epoch = 0

    async def register(self) -> None:
        self.epoch = await self.nodes.register(self.name, self.lease_seconds)

    async def renew(self) -> None:
        """Renew the lease; if it was lost, register again, and drop the tables another node took meanwhile."""
        if not await self.nodes.renew(self.name, self.epoch, self.lease_seconds, self.tables.draining):
            log.warning("node %s: its lease ran out (paused, or the database away); registering again", self.name)
            await self.register()
        asked = time.monotonic()
        lost = self.tables.check_owned(await self.events.owned(self.name), asked)
        if lost:
            log.warning("node %s: %d tables are run by other nodes now: %s", self.name, len(lost), " ".join(lost))

    async def take_over(self) -> list[str]:
        """Claim this node's share of the tables no living node runs (the rest go to the other nodes)."""
        taken = await self.tables.claim_orphans(len(await self.nodes.alive()))
        if taken:
            log.warning("node %s took over %d tables: %s", self.name, len(taken), " ".join(taken))
        return taken

    async def keep(self) -> None:
        """Renew the lease and take tables over, until cancelled; a database away for a while is tried again.
        Two loops: taking over many tables (each one claimed, read and replayed) never holds up a renewal."""
        await asyncio.gather(self._renewing(), self._taking_over())

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.renew()
            except Exception:
                log.exception("node %s: the lease could not be renewed; trying again", self.name)

    async def _taking_over(self) -> None:
        while True:
            await asyncio.sleep(self.scan_every)
            try:
                await self.take_over()
            except Exception:
                log.exception("node %s: could not look for tables to take over; trying again", self.name)

    async def leads(self) -> bool:
        """Whether this node leads: it is the first living node by name. The leader alone runs what the
        platform does once for all (the tournaments' director, the weekly close); when it dies, the next one
        leads once its lease has run out. Two nodes may both believe they lead for a moment (one's view of the
        living nodes is older): each step of that work is one write guarded by what it expects to find, so
        the second to try it finds it done."""
        alive = await self.nodes.alive()
        return not alive or alive[0] == self.name

    async def retire(self) -> None:
        """A graceful stop: no longer alive, so that the other nodes take the tables over at once."""
        await self.nodes.retire(self.name, self.epoch)
