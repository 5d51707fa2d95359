"""Live tables: seats, matches, clocks and bots, with every change an event.

A :class:`Table` is the authority for one table: its state says what happens (``state``, ``follows``,
``flow``) and its runner does the I/O (``runner``, with ``log``, ``fanout``, ``frames``, ``clocks``, ``bots``:
see :mod:`capicua.service.tables.table`); :class:`TableService` holds every live table of a server.
"""

from capicua.service.tables.bots import BotPool
from capicua.service.tables.fanout import REPLAY_WINDOW, Subscriber
from capicua.service.tables.frames import view_json
from capicua.service.tables.service import AUTOSTART_SECONDS, FORGET_AFTER, TableConfig, TableService
from capicua.service.tables.state import Seat, TableState
from capicua.service.tables.table import Table

__all__ = [
    "AUTOSTART_SECONDS",
    "FORGET_AFTER",
    "REPLAY_WINDOW",
    "BotPool",
    "Seat",
    "Subscriber",
    "Table",
    "TableConfig",
    "TableService",
    "TableState",
    "view_json",
]
