"""What must follow an event at a table, as data.

:meth:`~capicua.service.tables.state.TableState.apply` answers every event it applies with its public part and
the list of what must follow it: a frame to send, a clock to set and bots to ask, a bus event to publish, the
next deal or the match's end. It does none of it: the table's runner (:mod:`capicua.service.tables.runner`)
carries them out, in order, and is the only part that does I/O. A table rebuilt from its stored events applies
them again and ignores what they say must follow (that happened already); a recorder in the tests collects
them instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from capicua.service.bus import Event
from capicua.service.tables.messages import TableEvent

__all__ = [
    "Abandon",
    "AfterHand",
    "Applied",
    "Begin",
    "Follow",
    "Forget",
    "MarkAway",
    "Publish",
    "Send",
    "Stop",
    "Turn",
]


@dataclass(frozen=True, slots=True)
class Send:
    """Send the event's frame to everyone watching the table, each as his seat may see it."""


@dataclass(frozen=True, slots=True)
class Turn:
    """Somebody is to act: start the move clock of the seat to act, and let the bot seats move."""


@dataclass(frozen=True, slots=True)
class AfterHand:
    """The hand (or the match) is over: the match's end, or the next deal after the pause between hands."""


@dataclass(frozen=True, slots=True)
class Stop:
    """The match is over: no more clocks, no more bots."""


@dataclass(frozen=True, slots=True)
class Begin:
    """Start a match now: a tournament's table whose seats are all taken (C10)."""


@dataclass(frozen=True, slots=True)
class Forget:
    """Somebody else sits at ``seat``: the bot that played there is forgotten."""

    seat: int


@dataclass(frozen=True, slots=True)
class MarkAway:
    """A10: two timeouts in a row at a casual table: a bot stands in for ``seat`` until he acts again."""

    seat: int


@dataclass(frozen=True, slots=True)
class Abandon:
    """A rated table's third timeout in a row at ``seat``: he abandoned the match, his side loses it."""

    seat: int


@dataclass(frozen=True, slots=True)
class Publish:
    """Publish ``event`` on the bus."""

    event: Event


Follow = Send | Turn | AfterHand | Stop | Begin | Forget | MarkAway | Abandon | Publish


class Applied(NamedTuple):
    """An applied event: its public part (the same for everybody) and what must follow it."""

    public: TableEvent
    follows: tuple[Follow, ...]
