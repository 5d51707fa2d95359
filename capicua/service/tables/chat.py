"""A table's chat: preset quick messages at every table, free text where it cannot help a partner.

Dominousa's competition rules fine comments and signals (rule 4 of the seed, C6): during a hand of a
strict (or, later, rated) match only the presets may be said; free text is for casual tables and the
time between hands. Messages are not events (nothing of the game depends on them): they go to whoever
watches the table, and the last few are shown to whoever comes.
"""

from __future__ import annotations

import datetime as dt
import time
from collections import deque

from capicua.service.errors import ServiceError
from capicua.service.identity import clean_name
from capicua.service.tables.fanout import Fanout, Subscriber
from capicua.service.tables.messages import ChatFrame
from capicua.service.tables.state import TableState

__all__ = ["CHAT_PRESETS", "MAX_TEXT", "TableChat"]

#: The quick messages every table has, by id (each client says them in its language).
CHAT_PRESETS = ("hello", "good", "gg", "thanks", "oops")
#: The longest free text.
MAX_TEXT = 200
#: Seconds between two messages of one seat.
MIN_INTERVAL = 1.0
#: Messages kept for those who come to the table.
KEPT = 30


class TableChat:
    def __init__(self, state: TableState, fanout: Fanout) -> None:
        self.table = state
        self.fanout = fanout
        self.recent: deque[ChatFrame] = deque(maxlen=KEPT)
        self._last: dict[int, float] = {}  # seat -> when it last spoke (monotonic)

    def free_text_allowed(self) -> bool:
        """Casual tables always; strict and rated ones only between hands (no hand in play)."""
        t = self.table
        if not t.free_text_closed:
            return True
        match = t.match
        return t.status != "playing" or match is None or match.needs_deal()

    async def say(self, seat: int | None, preset: str | None, text: str | None) -> ChatFrame:
        """``seat`` says a preset or a text; the frame everybody gets. ServiceError when it may not (a malformed
        message is malformed whoever says it; then only the players talk)."""
        if (preset is None) == (text is None):
            raise ServiceError("malformed", "say a preset or a text")
        if preset is not None and preset not in CHAT_PRESETS:
            raise ServiceError("malformed", f"unknown quick message {preset!r} (one of {', '.join(CHAT_PRESETS)})")
        if text is not None:
            try:
                text = clean_name(text.replace("\n", " "), MAX_TEXT)
            except ValueError as exc:
                raise ServiceError("malformed", str(exc).replace("a name", "a message")) from None
            if not text:
                raise ServiceError("malformed", "an empty message")
        if seat is None:
            raise ServiceError("not-seated", "only the table's players talk at it")
        if text is not None:
            if not self.free_text_allowed():
                raise ServiceError(
                    "chat-closed", "during a hand of a strict or rated match only the quick messages are said"
                )
        now = time.monotonic()
        if now - self._last.get(seat, -MIN_INTERVAL) < MIN_INTERVAL:
            raise ServiceError("too-fast", "one message a second")
        self._last[seat] = now
        frame = ChatFrame(
            type="chat",
            table=self.table.id,
            seat=seat,
            name=self.table.seats[seat].name,
            preset=preset,
            text=text,
            at=dt.datetime.now(dt.UTC).isoformat(),
        )
        self.recent.append(frame)
        for sub in list(self.fanout.subscribers):
            await self.fanout.send(sub, frame)
        return frame

    async def catch_up(self, sub: Subscriber) -> None:
        """What was said lately, for a connection that just came."""
        for frame in list(self.recent):
            await self.fanout.send(sub, frame)
