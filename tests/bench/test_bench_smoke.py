"""The benchmark keeps working (its figures are read from `python bench/engine.py`, not from tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine.py"


@pytest.mark.slow
def test_bench_engine_runs_and_prints_its_tables() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--seconds", "0.05", "--runs", "1", "--no-peers"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    for row in ("Amazonense random hands", "Individual 3 players", "Dominousa random hands", "side by side"):
        assert row in out.stdout
