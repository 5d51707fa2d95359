"""What a table uses of the server it runs on: its settings and its doors to the outside (the store, the bus,
the bot workers, the background tasks, the ratings, the referee policy).

A table's runner (:mod:`capicua.service.tables.runner`) is the only part that goes through these doors; the
table's state never does. The table service builds one :class:`Ports` and hands it to every table, so that no
part of a table reaches back into the service (or into the table) for what it needs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from capicua.service.bus import Bus
from capicua.service.identity import Identity
from capicua.service.store import EventStore

if TYPE_CHECKING:
    from capicua.service.tables.bots import BotPool
    from capicua.service.tables.state import TableState

__all__ = ["Gate", "OpenGate", "Ports", "RatingOf", "Spawn", "TableConfig"]

#: What a table asks of the ratings, to show a player's rating at his seat: his rating in a game, or None.
RatingOf = Callable[[str, str], Awaitable[dict[str, Any] | None]]


class Gate(Protocol):
    """What a table asks of the players' conduct (:class:`capicua.service.conduct.Conduct`): each check refuses
    with a ``ServiceError`` (``playban``, ``muted``) or lets the player through."""

    async def check_rated(self, player_id: str) -> None:
        """May this player start a rated match now (no playban)?"""

    async def check_chat(self, player_id: str) -> None:
        """May this player speak at tables (not muted)?"""


class OpenGate:
    """Everybody through (a table service with no conduct behind it: the tables' own tests)."""

    async def check_rated(self, player_id: str) -> None:
        return None

    async def check_chat(self, player_id: str) -> None:
        return None


#: Starts a background task of a table, known to the service (which cancels and awaits them on shutdown).
Spawn = Callable[[Coroutine[Any, Any, None]], "asyncio.Task[None]"]


@dataclass
class TableConfig:
    bot_delay: float = 0.4  # mean seconds before a bot moves (people like to see the table change), ±50 %
    #: Processes the searching bots think in: None, one less than the cores (at least 1); 0, inline
    #: on the event loop (tests: deterministic and quick).
    bot_workers: int | None = None
    #: Seconds bots and forced passes wait, at least, while a person may make a call out of his turn
    #: (A5: galo right after his own play, before the next player acts; a claim).
    call_grace: float = 2.0
    #: The beat before the table passes for a person whose only move is a pass (option ``auto_pass``).
    auto_pass_delay: float = 0.8
    #: Seconds after which an open table nobody started, watches or joined lately leaves memory (and the
    #: lobby); it is loaded again when its link is opened. A restart does not load such tables either.
    stale_open_after: float = 24 * 3600.0
    #: A match's end or the next deal that failed (a listener of the end, or the database, away for a
    #: moment) is tried again after this many seconds, then twice as long each time, up to a minute.
    retry_after: float = 1.0
    #: A casual table whose last person was away (A10) when he closed its page waits this many seconds for
    #: him (a page reloaded opens the table again) before it ends, deserted (``TableState.deserted``).
    desert_grace: float = 15.0


@dataclass(frozen=True)
class Ports:
    """The server's side of every table: ``config()`` is read when used (the service's config may be
    replaced), ``rating_of(player, game)`` gives a seat's rating, ``may_referee(state, who)`` the referee
    policy (C8), ``lost(table_id)`` is told when the store refused a table's event because another node runs
    the table now, ``conduct`` checks playbans and mutes."""

    store: EventStore
    bus: Bus
    bot_pool: BotPool
    config: Callable[[], TableConfig]
    spawn: Spawn
    rating_of: RatingOf
    may_referee: Callable[[TableState, Identity], Awaitable[bool]]
    lost: Callable[[str], None] = lambda table_id: None
    conduct: Gate = field(default_factory=OpenGate)
