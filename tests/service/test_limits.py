"""The rate limits (capicua/service/limits.py): GCRA lets a burst through and then one request a period, the
same in memory and in Redis (several nodes share one count); wrong passwords back off per account and per
address, never holding the real owner back past ACCOUNT_WAIT_MAX; Redis away, each node limits alone."""

from __future__ import annotations

import itertools
import secrets

import pytest
import redis.asyncio as aioredis
from hypothesis import given, settings
from hypothesis import strategies as st

from capicua.service.limits import (
    ACCOUNT_WAIT_MAX,
    ADDRESS_WAIT_MAX,
    FREE_FAILURES,
    Limited,
    Limits,
    MemoryLimitStore,
    RedisLimitStore,
    Rule,
    backoff,
)
from tests.aio import run_async

REDIS = "redis://127.0.0.1:6379/0"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_one_a_period() -> None:
    clock = Clock()
    store = MemoryLimitStore(clock)

    async def body() -> None:
        assert [await store.take("k", 3, 2.0) for _ in range(3)] == [0.0, 0.0, 0.0]
        assert await store.take("k", 3, 2.0) == pytest.approx(0.5)  # the fourth at once: half a second
        assert await store.take("other", 3, 2.0) == 0.0  # keys apart
        clock.now += 0.5
        assert await store.take("k", 3, 2.0) == 0.0
        assert await store.take("k", 3, 2.0) == pytest.approx(0.5)
        clock.now += 10  # long idle: the burst again, no more
        assert [await store.take("k", 3, 2.0) for _ in range(4)][-1] > 0

    run_async(body())


@settings(max_examples=200, deadline=None)
@given(
    burst=st.integers(1, 20),
    rate=st.floats(0.01, 50),
    gaps=st.lists(st.floats(0, 5), min_size=1, max_size=60),
)
def test_gcra_never_lets_more_through_than_the_burst_and_the_rate_allow(
    burst: int, rate: float, gaps: list[float]
) -> None:
    """Over any window of the requests' times, what got through is at most ``burst + rate × window``; and a
    refused request is told a wait after which it would have got through."""
    clock = Clock()
    store = MemoryLimitStore(clock)

    async def body() -> None:
        through: list[float] = []
        for gap in gaps:
            clock.now += gap
            wait = await store.take("k", burst, rate)
            if wait == 0:
                through.append(clock.now)
            else:
                probe = MemoryLimitStore(clock)
                probe._tat = dict(store._tat)
                clock.now += wait
                assert await probe.take("k", burst, rate) == 0.0, "the wait it was told was not enough"
                clock.now -= wait
        for i, start in enumerate(through):
            for j in range(i, len(through)):
                assert j - i + 1 <= burst + rate * (through[j] - start) + 1e-6

    run_async(body())


def test_the_same_counts_in_redis_are_shared_by_two_nodes() -> None:
    async def body() -> None:
        one, two = aioredis.Redis.from_url(REDIS), aioredis.Redis.from_url(REDIS)
        a, b = RedisLimitStore(one), RedisLimitStore(two)
        key = f"test-{secrets.token_hex(4)}"
        got = [await (a if k % 2 else b).take(key, 4, 1.0) for k in range(6)]
        assert got[:4] == [0.0] * 4 and got[4] > 0.5 and got[5] > 0.5, got  # 4 in all, whichever node
        assert await a.strike(key, 60) == 1 and await b.strike(key, 60) == 2
        await a.hold(key, 5)
        assert 4 < await b.held(key) <= 5
        await b.forgive(key)
        assert await a.held(key) == 0 and await a.strike(key, 60) == 1
        await one.aclose()
        await two.aclose()

    run_async(body())


def test_redis_away_each_node_limits_alone() -> None:
    async def body() -> None:
        dead = aioredis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
        store = RedisLimitStore(dead)
        got = [await store.take("k", 2, 1.0) for _ in range(3)]
        assert got[:2] == [0.0, 0.0] and got[2] > 0  # still limited, by this node's memory
        await dead.aclose()

    run_async(body())


def test_wrong_passwords_back_off_per_account_and_per_address_and_the_right_one_clears_the_account() -> None:
    clock = Clock()
    limits = Limits(MemoryLimitStore(clock))

    async def fail(account: str, address: str) -> None:
        await limits.login_allowed(account, address)
        await limits.login_failed(account, address)

    async def body() -> None:
        for _ in range(FREE_FAILURES):
            await fail("ana", "1.1.1.1")
        await fail("ana", "1.1.1.1")  # the first that costs: 1 s
        with pytest.raises(Limited) as held:
            await limits.login_allowed("ana", "2.2.2.2")  # the account waits, from anywhere
        assert held.value.code == "too-fast" and held.value.seconds == 1
        await limits.login_allowed("bia", "2.2.2.2")  # another account from another address does not
        # An attacker keeps trying: the waits double, but the account's stop at ACCOUNT_WAIT_MAX.
        for k in range(20):
            await limits.login_failed("ana", f"3.3.3.{k}")  # from ever new addresses
            clock.now += ACCOUNT_WAIT_MAX
            await limits.login_allowed("ana", "9.9.9.9")  # the real owner, elsewhere: never held longer
        with pytest.raises(Limited) as longest:
            await limits.login_failed("ana", "3.3.3.99")
            await limits.login_allowed("ana", "9.9.9.9")
        assert longest.value.retry_after == pytest.approx(ACCOUNT_WAIT_MAX)
        # The right password clears the account's count.
        await limits.login_succeeded("ana")
        await fail("ana", "4.4.4.4")
        await limits.login_allowed("ana", "5.5.5.5")

    run_async(body())


def test_an_address_that_guesses_many_accounts_waits_longer_and_longer() -> None:
    clock = Clock()
    limits = Limits(MemoryLimitStore(clock), rules={"login": Rule("login", 1000, 1000.0, "address", "")})

    async def body() -> None:
        waits = []
        for k in range(12):
            try:
                await limits.login_allowed(f"user{k}", "6.6.6.6")
            except Limited as exc:
                waits.append(exc.retry_after)
                clock.now += exc.retry_after
                await limits.login_allowed(f"user{k}", "6.6.6.6")
            await limits.login_failed(f"user{k}", "6.6.6.6")
        assert waits == sorted(waits) and len(waits) == 12 - FREE_FAILURES - 1 and waits[-1] > ACCOUNT_WAIT_MAX

    run_async(body())


def test_backoff_doubles_and_stops_at_its_most() -> None:
    assert [backoff(n, ADDRESS_WAIT_MAX) for n in range(1, FREE_FAILURES + 1)] == [0.0] * FREE_FAILURES
    waits = [backoff(n, ADDRESS_WAIT_MAX) for n in range(FREE_FAILURES + 1, 30)]
    assert all(b == min(2 * a, ADDRESS_WAIT_MAX) for a, b in itertools.pairwise(waits))
    assert waits[-1] == ADDRESS_WAIT_MAX


def test_limits_turned_off_let_everything_through() -> None:
    limits = Limits(MemoryLimitStore(Clock()), enabled=False)

    async def body() -> None:
        for _ in range(100):
            await limits.take("guest", "1.1.1.1")
            await limits.login_allowed("ana", "1.1.1.1")
            await limits.login_failed("ana", "1.1.1.1")

    run_async(body())


def test_docs_operations_tables_the_rules_as_they_are() -> None:
    from pathlib import Path

    from capicua.service.limits import rules_table

    text = (Path(__file__).parents[2] / "docs" / "operations.md").read_text(encoding="utf-8")
    assert rules_table() in text, "docs/operations.md's table of rate limits is not RULES: paste rules_table()"
