"""`capicua puzzles make` (a real subprocess on a SQLite data directory): puzzles drawn from the store's public
matches are kept with their source, and making them again adds none."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from capicua.service.store import Store, default_url
from tests.aio import run_async
from tests.bots.test_analysis import _galo_thrown_away

CAPICUA = [sys.executable, "-m", "capicua.cli", "puzzles", "make"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CAPICUA, *args], capture_output=True, text=True, timeout=300, env={**os.environ})


def test_make_keeps_the_planted_blunder_with_its_source_once(tmp_path: Path) -> None:
    record, hand, action = _galo_thrown_away()
    data = record.to_json()

    async def save() -> int:
        store = Store(default_url(tmp_path))
        await store.open()
        try:
            table = await store.events.create_table("amazonense", 4, {"target": 100}, False, "ana")
            return await store.records.save(table.id, 1, "amazonense", data["players"], None, data)
        finally:
            await store.close()

    rid = run_async(save())
    made = run("--worlds", "24", "--data-dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    assert "1 matches weighed" in made.stdout

    async def kept() -> list[tuple[str, str, int | None, int, int, dict[str, Any]]]:
        store = Store(default_url(tmp_path))
        await store.open()
        try:
            rows = [await store.puzzles.nth(i) for i in range(await store.puzzles.count())]
            return [(r.key, r.source, r.record_id, r.hand, r.action, r.data) for r in rows if r is not None]
        finally:
            await store.close()

    rows = run_async(kept())
    planted = [r for r in rows if (r[3], r[4]) == (hand, action)]
    assert planted, rows
    key, source, record_id, _, _, puzzle = planted[0]
    assert source == "record" and record_id == rid and key.startswith(f"r{rid}:")
    assert puzzle["answers"][0].endswith(" galo") and "galo" in puzzle["themes"]
    again = run("--worlds", "24", "--data-dir", str(tmp_path))
    assert again.returncode == 0 and "0 new kept" in again.stdout
    assert len(run_async(kept())) == len(rows)
    missing = run("--data-dir", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "no data directory" in missing.stderr
