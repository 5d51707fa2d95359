"""What reacts to a table listens on a bus: the table publishes, it never calls its listeners.

A match's end is published as :class:`MatchEnded`; the record saver (``results.py``) listens
now, ratings and tournaments next. :class:`Bus` is the interface; :class:`LocalBus` delivers
in this process, awaiting each handler before ``publish`` returns (so the record of a match
exists when its end is announced). A Redis bus for several nodes implements the same two
methods. Delivery is at least once: a table whose server died between publishing and writing
its ``end`` event publishes again when it is reloaded, so every handler must be idempotent
(by ``MatchEnded.match_id``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from capicua.rules.variant import MatchOutcome

__all__ = ["Bus", "Event", "LocalBus", "MatchEnded", "MatchStarted"]


class Event(Protocol):
    topic: ClassVar[str]


@dataclass(frozen=True)
class MatchStarted:
    """A match started at a table (its first hand is dealt): the bot API tells the bot accounts seated there."""

    topic: ClassVar[str] = "match.started"

    table_id: str
    match_no: int
    variant: str
    #: The identity at each seat (None for a server bot).
    player_ids: list[str | None]


@dataclass(frozen=True)
class MatchEnded:
    """A match finished at a table. ``record`` is its ``capicua-record/1`` JSON."""

    topic: ClassVar[str] = "match.ended"

    table_id: str
    match_no: int
    variant: str
    outcome: MatchOutcome
    #: Names at each seat, as the record writes them.
    names: list[str]
    #: The identity at each seat (None for a bot).
    player_ids: list[str | None]
    record: dict[str, Any] = field(repr=False)
    #: D1: a rated match (account holders only).
    rated: bool = False
    #: The seat that abandoned the match (its side lost it), if one did.
    abandoned_by: int | None = None
    #: When the match ended.
    at: dt.datetime | None = None
    #: What each seat's own actions scored, by kind: (how many, how many points) (``Match.tally``).
    tally: list[dict[str, tuple[int, int]]] | None = None
    #: How many hands each seat ended by going out, scored or not (``Match.went_out``).
    went_out: list[int] | None = None

    @property
    def match_id(self) -> str:
        """Unique across the platform: the table and the match's number at it."""
        return f"{self.table_id}/{self.match_no}"


E = TypeVar("E")
Handler = Callable[[E], Awaitable[None]]


class Bus(Protocol):
    def subscribe(self, topic: str, handler: Handler[Any]) -> None:
        """Call ``handler`` with every event of ``topic`` published from now on."""

    async def publish(self, event: Event) -> None:
        """Deliver ``event`` to the handlers of its topic."""


class LocalBus:
    """The in-process bus: ``publish`` awaits the handlers in the order they subscribed; the first
    that raises stops the delivery and the error reaches the publisher (the table tries again, see
    ``TableRunner.follow_up``)."""

    def __init__(self) -> None:
        self._handlers: defaultdict[str, list[Handler[Any]]] = defaultdict(list)

    def subscribe(self, topic: str, handler: Handler[Any]) -> None:
        self._handlers[topic].append(handler)

    async def publish(self, event: Event) -> None:
        for handler in list(self._handlers[event.topic]):
            await handler(event)
