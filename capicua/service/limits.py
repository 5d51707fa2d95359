"""Rate limits on every door: one rule a door, GCRA over a store of limit state that one process keeps in
memory and several nodes keep in Redis.

**GCRA** (the generic cell rate algorithm, as ATM networks and many API gateways meter traffic). A rule lets
``burst`` requests through at once and then one every ``1 / rate`` seconds. Per key it keeps one number, the
*theoretical arrival time* (TAT) of the next request: a request at ``now`` is let through when
``max(TAT, now) + T - burst × T <= now`` (``T = 1 / rate``), and the TAT moves on by ``T``; otherwise it is
refused with the wait until that holds (``Retry-After``). It is a token bucket written as one timestamp,
which a Redis script updates in one step.

**Login back-off.** Each wrong password counts against the account and against the address it came from,
within ``BACKOFF_WINDOW``; past ``FREE_FAILURES`` each further one doubles the wait before the next try, up
to ``ACCOUNT_WAIT_MAX`` for an account (an attacker elsewhere can hold the real owner back by that much, never
longer) and ``ADDRESS_WAIT_MAX`` for an address. A right password clears the account's count.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from capicua.service.errors import ServiceError

__all__ = [
    "ACCOUNT_WAIT_MAX",
    "ADDRESS_WAIT_MAX",
    "FREE_FAILURES",
    "RULES",
    "SOCKETS_PER_ADDRESS",
    "SOCKETS_PER_IDENTITY",
    "LimitStore",
    "Limited",
    "Limits",
    "MemoryLimitStore",
    "RedisLimitStore",
    "Rule",
    "backoff",
    "rules_table",
]

log = logging.getLogger("capicua.limits")

#: Wrong passwords that cost nothing (typing errors)…
FREE_FAILURES = 3
#: …then the wait doubles from this many seconds…
FIRST_WAIT = 1.0
#: …up to this for an account (the real owner is never held back longer)…
ACCOUNT_WAIT_MAX = 30.0
#: …and this for an address;
ADDRESS_WAIT_MAX = 900.0
#: failures older than this are forgotten.
BACKOFF_WINDOW = 3600.0
#: Websockets open at once to one node, per identity and per address (a household or a café shares one).
SOCKETS_PER_IDENTITY = 10
SOCKETS_PER_ADDRESS = 100


@dataclass(frozen=True)
class Rule:
    """``burst`` requests at once, then ``rate`` a second, per ``by``: the client's address, its identity
    (a guest or an account), or its account."""

    name: str
    burst: int
    rate: float
    by: Literal["address", "identity", "account", "connection"]
    what: str
    #: Kept by each node alone, never in Redis: a connection's own rules (it lives on one node), and those
    #: checked at every websocket message (a round trip to Redis each would cost more than the message).
    local: bool = False

    def words(self) -> str:
        per = f"{self.rate:g} a second" if self.rate >= 1 else f"1 every {1 / self.rate:g} s"
        return f"at most {self.burst} at once and {per}"


def _rules(*rules: Rule) -> dict[str, Rule]:
    return {r.name: r for r in rules}


#: Every door's rule, by name: the table of docs/operations.md ("Rate limits") is made from this one.
RULES: dict[str, Rule] = _rules(
    Rule("login", 10, 1 / 6, "address", "signing in (wrong passwords also back off, per account and address)"),
    Rule("register", 5, 1 / 60, "address", "creating accounts"),
    Rule("guest", 10, 1 / 10, "address", "creating guests"),
    Rule("table", 10, 1 / 6, "identity", "creating tables"),
    Rule("seek", 20, 1.0, "identity", "quick play: joining a queue, asking about a ticket"),
    Rule("analysis", 3, 1 / 20, "identity", "uploading a record for review"),
    Rule("tournament", 3, 1 / 600, "account", "creating tournaments"),
    Rule("register-team", 10, 1 / 10, "account", "registering for tournaments, answering invitations to a team"),
    Rule("token", 5, 1 / 60, "account", "creating API tokens"),
    Rule("ws-connect", 20, 1.0, "address", "opening websockets"),
    Rule("ws-message", 30, 10.0, "connection", "websocket messages of one connection", local=True),
    Rule("ws-identity", 60, 20.0, "identity", "websocket messages of one identity to one node", local=True),
    Rule("bot-action", 20, 10.0, "account", "the bot API: moves and calls"),
    Rule("bot-stream", 10, 0.5, "account", "the bot API: opening event or table streams"),
    Rule("bot-invite", 20, 1.0, "account", "the bot API: answering invitations"),
)


def rules_table(rules: dict[str, Rule] | None = None) -> str:
    """The rules as the Markdown table of docs/operations.md ("Rate limits"), which a test holds to this."""
    rows = ["| rule | door | per | at once | then |", "|---|---|---|---:|---|"]
    for r in (rules or RULES).values():
        per = r.by + (" (each node)" if r.local else "")
        then = f"{r.rate:g} a second" if r.rate >= 1 else f"1 every {1 / r.rate:g} s"
        rows.append(f"| `{r.name}` | {r.what} | {per} | {r.burst} | {then} |")
    return "\n".join(rows)


class Limited(ServiceError):
    """A request past its rule: ``too-fast``, to be tried again in ``retry_after`` seconds."""

    retry_after: float  # always a matter of time

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("too-fast", message, retry_after)


class LimitStore(Protocol):
    """Where the limits' state lives: this process's memory, or Redis for several nodes."""

    async def take(self, key: str, burst: int, rate: float) -> float:
        """GCRA: let one request of ``key`` through (0.0), or say how many seconds it must wait."""
        ...

    async def strike(self, key: str, window: float) -> int:
        """Count one more failure of ``key`` (forgotten ``window`` seconds after the last); the count."""
        ...

    async def hold(self, key: str, seconds: float) -> None:
        """Keep ``key`` waiting for ``seconds`` from now."""
        ...

    async def held(self, key: str) -> float:
        """How many seconds ``key`` must still wait (0.0: none)."""
        ...

    async def forgive(self, key: str) -> None:
        """Forget ``key``'s failures and wait."""
        ...


class MemoryLimitStore:
    """The limits of one process. Keys whose state has run out are dropped every ``PRUNE_EVERY`` updates, so
    a flood of addresses costs memory only while it lasts."""

    PRUNE_EVERY = 10_000

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.clock = clock or time.monotonic
        self._tat: dict[str, int] = {}  # key -> theoretical arrival time, in microseconds
        self._strikes: dict[str, tuple[int, float]] = {}  # key -> (count, forgotten at)
        self._holds: dict[str, float] = {}  # key -> until
        self._updates = 0

    async def take(self, key: str, burst: int, rate: float) -> float:
        # In whole microseconds, as the Redis script counts: a burst of sums of 0.1 s must not fall short by
        # a rounding error.
        now = round(self.clock() * 1_000_000)
        period = round(1_000_000 / rate)
        tat = max(self._tat.get(key, now), now)
        allow_at = tat + period - burst * period
        if allow_at > now:
            return (allow_at - now) / 1_000_000
        self._tat[key] = tat + period
        self._tick(now / 1_000_000)
        return 0.0

    async def strike(self, key: str, window: float) -> int:
        now = self.clock()
        count, until = self._strikes.get(key, (0, now))
        count = count + 1 if until > now else 1
        self._strikes[key] = (count, now + window)
        self._tick(now)
        return count

    async def hold(self, key: str, seconds: float) -> None:
        now = self.clock()
        self._holds[key] = max(self._holds.get(key, now), now + seconds)
        self._tick(now)

    async def held(self, key: str) -> float:
        return max(0.0, self._holds.get(key, 0.0) - self.clock())

    async def forgive(self, key: str) -> None:
        self._strikes.pop(key, None)
        self._holds.pop(key, None)

    def _tick(self, now: float) -> None:
        self._updates += 1
        if self._updates % self.PRUNE_EVERY == 0:
            self._tat = {k: v for k, v in self._tat.items() if v > now * 1_000_000}
            self._strikes = {k: v for k, v in self._strikes.items() if v[1] > now}
            self._holds = {k: v for k, v in self._holds.items() if v > now}


#: GCRA in one step on Redis's own clock (the nodes' clocks need not agree): KEYS[1] the key, ARGV the burst and
#: the period in microseconds. Returns 0 (let through) or the wait in microseconds.
_GCRA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local burst = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local allow_at = tat + period - burst * period
if allow_at > now then return allow_at - now end
redis.call('SET', KEYS[1], tat + period, 'PX', math.ceil((tat + period - now) / 1000) + 1)
return 0
"""


class RedisLimitStore:
    """The limits of several nodes, in Redis (redis-py's asyncio client), under ``capicua:limit:…``. Redis away:
    each node limits by itself meanwhile (its own memory), so a door never opens wide nor shuts for everyone."""

    def __init__(self, redis: Any, fallback: MemoryLimitStore | None = None) -> None:
        self.redis = redis
        self.fallback = fallback or MemoryLimitStore()
        self._gcra = redis.register_script(_GCRA)

    @staticmethod
    def _key(key: str) -> str:
        return f"capicua:limit:{key}"

    async def take(self, key: str, burst: int, rate: float) -> float:
        try:
            wait = await self._gcra(keys=[self._key(key)], args=[burst, round(1_000_000 / rate)])
        except Exception:
            log.warning("rate limits: Redis away, limiting on this node alone", exc_info=True)
            return await self.fallback.take(key, burst, rate)
        return int(wait) / 1_000_000

    async def strike(self, key: str, window: float) -> int:
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.incr(self._key(f"strikes:{key}"))
                pipe.pexpire(self._key(f"strikes:{key}"), round(window * 1000))
                count, _ = await pipe.execute()
        except Exception:
            return await self.fallback.strike(key, window)
        return int(count)

    async def hold(self, key: str, seconds: float) -> None:
        try:
            # The wait is a key that expires when it ends: its time to live is the wait left.
            await self.redis.set(self._key(f"hold:{key}"), 1, px=max(1, round(seconds * 1000)))
        except Exception:
            await self.fallback.hold(key, seconds)

    async def held(self, key: str) -> float:
        try:
            ttl = await self.redis.pttl(self._key(f"hold:{key}"))
        except Exception:
            return await self.fallback.held(key)
        return max(0, int(ttl)) / 1000

    async def forgive(self, key: str) -> None:
        try:
            await self.redis.delete(self._key(f"strikes:{key}"), self._key(f"hold:{key}"))
        except Exception:
            await self.fallback.forgive(key)


class Limits:
    """The platform's limits: each door's :class:`Rule` over one :class:`LimitStore`. ``enabled`` False lets
    everything through (benchmarks that play thousands of tables from one address: ``--no-limits``)."""

    def __init__(
        self, store: LimitStore | None = None, rules: dict[str, Rule] | None = None, enabled: bool = True
    ) -> None:
        self.store: LimitStore = store or MemoryLimitStore()
        #: What a connection's own rules keep: it lives on one node, so its limits never need Redis.
        self.local = MemoryLimitStore()
        self.rules = rules or RULES
        self.enabled = enabled

    async def take(self, rule_name: str, key: str) -> None:
        """One request through the door ``rule_name`` for ``key`` (an address, an identity's id…), or
        :class:`Limited`."""
        if not self.enabled:
            return None
        rule = self.rules[rule_name]
        store = self.local if rule.local else self.store
        wait = await store.take(f"{rule.name}:{key}", rule.burst, rule.rate)
        if wait > 0:
            raise Limited(f"too many requests ({rule.name}): {rule.words()}; try again in {math.ceil(wait)} s", wait)
        return None

    # -- signing in --------------------------------------------------------------------------------------
    async def login_allowed(self, account: str, address: str) -> None:
        """Refuse a sign-in attempt while the account or the address waits after wrong passwords."""
        if not self.enabled:
            return
        await self.take("login", address)
        wait = max(
            await self.store.held(f"login-wait:account:{account}"),
            await self.store.held(f"login-wait:address:{address}"),
        )
        if wait > 0:
            raise Limited(f"too many wrong passwords: try again in {math.ceil(wait)} s", wait)

    async def login_failed(self, account: str, address: str) -> None:
        """A wrong password for ``account`` from ``address``: the next try waits longer, once past the free ones."""
        if not self.enabled:
            return
        for kind, key, most in (("account", account, ACCOUNT_WAIT_MAX), ("address", address, ADDRESS_WAIT_MAX)):
            count = await self.store.strike(f"login-fail:{kind}:{key}", BACKOFF_WINDOW)
            if count > FREE_FAILURES:
                await self.store.hold(f"login-wait:{kind}:{key}", backoff(count, most))

    async def login_succeeded(self, account: str) -> None:
        """The right password: the account's failures are forgotten (the address's are not)."""
        if self.enabled:
            await self.store.forgive(f"login-fail:account:{account}")
            await self.store.forgive(f"login-wait:account:{account}")


def backoff(failures: int, most: float) -> float:
    """The wait after the ``failures``-th wrong password in a row: none for the free ones, then doubling.

    >>> [backoff(n, 30) for n in (1, 3, 4, 5, 6, 9, 20)]
    [0.0, 0.0, 1.0, 2.0, 4.0, 30.0, 30.0]
    """
    if failures <= FREE_FAILURES:
        return 0.0
    return float(min(most, FIRST_WAIT * 2 ** (failures - FREE_FAILURES - 1)))
