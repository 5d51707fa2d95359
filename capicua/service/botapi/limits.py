"""Rate limits of the bot API: a token bucket per caller and kind of request.

>>> clock = iter([0.0, 0.0, 0.0, 1.0]).__next__
>>> limits = RateLimits({"action": (2, 1.0)}, clock)
>>> limits.check("a:1", "action"); limits.check("a:1", "action")
>>> limits.check("a:1", "action")
Traceback (most recent call last):
...
capicua.service.errors.ServiceError: too many action requests: at most 2 at once, 1 a second
>>> limits.check("a:1", "action")  # a second later, one more
"""

from __future__ import annotations

import time
from collections.abc import Callable

from capicua.service.errors import ServiceError

__all__ = ["LIMITS", "RateLimits"]

#: kind -> (burst, refills a second). Published in docs/bots.md.
LIMITS: dict[str, tuple[float, float]] = {
    "action": (20, 10.0),  # moves and calls at tables
    "stream": (10, 0.5),  # opening event or table streams
    "invite": (20, 1.0),  # invitations answered, tokens made
}


class RateLimits:
    """A token bucket per (caller, kind): ``burst`` requests at once, refilled at ``rate`` a second."""

    def __init__(
        self, limits: dict[str, tuple[float, float]] | None = None, clock: Callable[[], float] | None = None
    ) -> None:
        self.limits = limits or LIMITS
        self.clock = clock or time.monotonic
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}

    def check(self, caller: str, kind: str) -> None:
        """Take one request of ``kind`` from ``caller``'s bucket, or refuse it (``too-fast``)."""
        burst, rate = self.limits[kind]
        now = self.clock()
        level, since = self._buckets.get((caller, kind), (burst, now))
        level = min(burst, level + (now - since) * rate)
        if level < 1:
            self._buckets[(caller, kind)] = (level, now)
            raise ServiceError("too-fast", f"too many {kind} requests: at most {burst:g} at once, {rate:g} a second")
        self._buckets[(caller, kind)] = (level - 1, now)
