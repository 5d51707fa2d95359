"""The benchmark keeps working (its figures are read from `python bench/engine.py`, not from tests)."""

from __future__ import annotations

import os
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


@pytest.mark.slow
def test_bench_regret_runs_and_prints_its_rows() -> None:
    """Decision regret (issue 23): positions, their truth and a row a bot, the rows' regrets never negative."""
    out = subprocess.run(
        [
            sys.executable,
            str(BENCH.parent / "regret.py"),
            "--matches",
            "1",
            "--budget",
            "5",
            "--jobs",
            "1",
            "--bots",
            "heuristic",
            "oracle:5",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert out.returncode == 0, out.stderr
    rows = {
        line.split("│")[1].strip(): line.split("│")[2].strip()
        for line in out.stdout.splitlines()
        if line.count("│") > 4
    }
    assert set(rows) == {"heuristic", "oracle:5"}, out.stdout
    assert all(float(r) >= 0 for r in rows.values())
    assert "decisions of expert:5 against heuristic" in out.stdout
