"""Hand reviews on the server: computed in worker processes with progress, stored, never recomputed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from capicua.bots.driver import play_match
from capicua.bots.registry import make_bot
from capicua.rules import variants
from capicua.rules.match import Match
from capicua.rules.record import Record, RecordError
from capicua.service.errors import ServiceError
from capicua.service.platform import Platform
from capicua.service.store import Store
from capicua.service.tables import TableConfig
from tests.aio import run_async


def a_record(seed: int = 2) -> dict[str, Any]:
    match = Match(variants.get("amazonense"), seed=seed, options={"target": 50})
    play_match(match, [make_bot("greedy", s) for s in range(4)])
    return Record.from_match(match, ["Ana", "Bia", "Caio", "Davi"]).to_json()


def platform_on(url: str, workers: int) -> Platform:
    platform = Platform(
        Store(url), "s", TableConfig(bot_delay=0, bot_workers=0, call_grace=0), analysis_workers=workers
    )
    platform.analyses.worlds = 4
    return platform


async def saved_record(platform: Platform, record: dict[str, Any]) -> int:
    table = await platform.store.events.create_table("amazonense", 4, {"target": 50}, False, "ana")
    return await platform.store.records.save(table.id, 1, "amazonense", record["players"], 0, record)


async def finished(platform: Platform, ask: Any, seen: list[int]) -> Any:
    for _ in range(1200):
        progress = await ask()
        seen.append(progress.done)
        if progress.state != "running":
            return progress
        await asyncio.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def test_an_analysis_runs_in_worker_processes_and_is_stored_not_recomputed(empty_store_url: str) -> None:
    record = a_record()

    async def body() -> None:
        platform = platform_on(empty_store_url, workers=1)
        await platform.open()
        try:
            rid = await saved_record(platform, record)
            assert (await platform.analyses.of_record(rid, start=False)).state == "none"
            started = await platform.analyses.of_record(rid, start=True)
            assert started.state == "running" and started.total > 8
            again = await platform.analyses.of_record(rid, start=True)  # while it runs: the same one
            assert again is started
            seen: list[int] = []
            done = await finished(platform, lambda: platform.analyses.of_record(rid, start=False), seen)
            assert done.state == "done", done.error
            assert seen == sorted(seen) and seen[-1] == done.total == started.total
            assert done.result is not None and len(done.result["decisions"]) == done.total
            assert platform.analyses.computed == 1
            # asked again: read back, nothing computed, no task started
            tasks = len(platform.tables.tasks)
            twice = await platform.analyses.of_record(rid, start=True)
            assert twice.state == "done" and twice.result == done.result
            assert platform.analyses.computed == 1 and len(platform.tables.tasks) == tasks
        finally:
            await platform.close()
        # after a restart: still there, still not recomputed
        later = platform_on(empty_store_url, workers=1)
        await later.open()
        try:
            kept = await later.analyses.of_record(rid, start=True)
            assert kept.state == "done" and kept.result == done.result
            assert later.analyses.computed == 0 and later.analyses._pool is None
        finally:
            await later.close()

    run_async(body())


def test_an_uploaded_record_is_analysed_once_and_a_bad_one_refused(empty_store_url: str) -> None:
    record = a_record(seed=3)

    async def body() -> None:
        platform = platform_on(empty_store_url, workers=0)  # threads of this process
        await platform.open()
        try:
            started = await platform.analyses.of_upload(json.dumps(record).encode())
            assert started.key.startswith("u") and started.state == "running"
            done = await finished(platform, lambda: platform.analyses.of_key(started.key), [])
            assert done.state == "done" and done.result is not None
            assert done.result["players"] == ["Ana", "Bia", "Caio", "Davi"]
            same = await platform.analyses.of_upload(json.dumps(record).encode())
            assert same.state == "done" and platform.analyses.computed == 1
            # The uploaded record is kept beside its analysis (for its replay): another server reads it back.
            again = platform_on(empty_store_url, workers=0)
            await again.open()
            try:
                assert await again.analyses.upload(started.key) == Record.from_json(record).to_json()
            finally:
                await again.close()
            with pytest.raises(ServiceError) as unknown:
                await platform.analyses.upload("u" + "0" * 64)
            assert unknown.value.code == "not-found"
            bad = dict(record, hands=[dict(record["hands"][0], actions=["0: 1-1"])])
            with pytest.raises(RecordError) as refused:
                await platform.analyses.of_upload(json.dumps(bad).encode())
            assert (refused.value.hand, refused.value.action, refused.value.text) == (1, 1, "0: 1-1")
            with pytest.raises(ServiceError) as missing:
                await platform.analyses.of_record(9999, start=True)
            assert missing.value.code == "not-found"
            assert (await platform.analyses.of_key("r9999")).state == "none"
        finally:
            await platform.close()

    run_async(body())
