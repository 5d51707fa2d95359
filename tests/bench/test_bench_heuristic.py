"""bench/tune_heuristic.py and the ladder of bench/bots.py keep working (their figures are in docs/benchmarks.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.slow
def test_tuning_prints_a_row_for_every_candidate_and_writes_the_best(tmp_path: Path) -> None:
    out = tmp_path / "best.json"
    args = ["--pairs", "1", "--sweeps", "1", "--only", "double", "--final", "1", "--out", str(out)]
    run = subprocess.run(
        [sys.executable, str(BENCH / "tune_heuristic.py"), *args], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.split()[:2] == ["1", "double"]]
    assert [float(r.split()[2]) for r in rows] == [0.0, 1.5, 4.5, 6.0]  # 0, half, 1.5 and twice its 3
    assert all(r.split()[3] == "2" for r in rows)  # one pair: two matches, the seats swapped
    assert "final vs greedy" in run.stdout
    assert set(json.loads(out.read_text())) >= {"reply", "next_void", "double"}


@pytest.mark.slow
def test_the_ladder_rows_are_each_level_against_the_one_below() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import bots  # bench/bots.py
    finally:
        sys.path.remove(str(BENCH))
    from capicua.bots.registry import LEVELS

    names = [level.name for level in LEVELS]
    pairs = [(row.a.format(expert="expert").split(":")[0], row.b.split(":")[0]) for row in bots.LADDER]
    assert pairs == list(zip(names[1:], names[:-1], strict=True))
    assert all(row.goal == 0.60 for row in bots.LADDER)
