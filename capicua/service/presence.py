"""Who is online (issue 22, item 9): the people this node has seen lately.

A person is online on a node while he has a websocket open there, or for ``RECENT`` seconds after his last
request that named him (the lobby asks ``GET /api/online`` every few seconds: a person on the lobby is seen
that often). Each node shows the others its ids (:meth:`capicua.service.relay.Router.show`, ``people``) the way
it shows its lobby; the count is of the distinct ids of every living node, so a person connected to two
nodes counts once. Bot accounts (the bot API) are not people: the lobby counts them apart (``online``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

from capicua.service.identity import Identity

__all__ = ["RECENT", "Presence"]

#: Seconds a person counts as online after his last request.
RECENT = 30.0


class Presence:
    """The people seen on this node: connected now, or lately."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._connected: Counter[str] = Counter()  # id → his open websockets here
        self._seen: dict[str, float] = {}  # id → when he last asked something

    def seen(self, who: Identity | None) -> None:
        """``who`` asked something now."""
        if who is not None and not who.bot:
            self._seen[who.id] = self.clock()

    def connected(self, who: Identity | None) -> None:
        if who is not None and not who.bot:
            self._connected[who.id] += 1

    def disconnected(self, who: Identity | None) -> None:
        if who is not None and not who.bot:
            self._connected[who.id] -= 1
            if self._connected[who.id] <= 0:
                del self._connected[who.id]
            self._seen[who.id] = self.clock()  # online a while longer: a page reloading reconnects

    def here(self) -> list[str]:
        """The ids of the people online on this node (what it shows the others)."""
        since = self.clock() - RECENT
        for gone in [i for i, at in self._seen.items() if at < since]:
            del self._seen[gone]
        return sorted({*self._connected, *self._seen})
