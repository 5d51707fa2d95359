"""``bench/server.py`` keeps working, on one node and on three (its figures come from running it, not from here)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pg import ADMIN_DSN

BENCH = Path(__file__).resolve().parents[2] / "bench" / "server.py"


@pytest.mark.slow
def test_bench_server_runs_one_node_and_three_with_a_failover() -> None:
    command = [sys.executable, str(BENCH), "--tables", "12", "--nodes", "1", "3", "--seconds", "2", "--warmup", "1"]
    command += ["--bot-delay", "0.05", "--postgres", ADMIN_DSN, "--failover"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=400)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "several nodes: acks by the node" in out.stdout, out.stdout
    assert "tracebacks" not in out.stdout, out.stdout
    rows = [line for line in out.stdout.splitlines() if re.match(r"^│\s+12 │", line)]
    assert len(rows) == 3, out.stdout  # 1 node, 3 nodes, and the row of the three nodes' details
