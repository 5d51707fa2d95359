"""`capicua play` and `capicua arena` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CAPICUA = [sys.executable, "-m", "capicua.cli"]


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "amazonense", "--target", "60"],
        ["--variant", "individual", "--players", "3", "--target", "30"],
        ["--variant", "dominousa", "--strict", "--target", "40"],
    ],
)
def test_play_a_whole_match_in_the_terminal(args: list[str]) -> None:
    """Always answering 1 (and no to optional calls) plays a match to its end."""
    out = subprocess.run(
        [*CAPICUA, "play", "--bot", "greedy", "--seed", "5", *args],
        input="1\n" * 3000,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "your tiles:" in out.stdout and "your move:" in out.stdout
    assert "Match over:" in out.stdout and "wins" in out.stdout


def test_play_rejects_bad_input_and_keeps_asking() -> None:
    out = subprocess.run(
        [*CAPICUA, "play", "--bot", "greedy", "--variant", "dominousa", "--seed", "1", "--target", "20"],
        input="x\n99\n" + "1\n" * 2000,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0
    assert "type a number from 1 to" in out.stdout


def test_arena_json_reports_win_rate_interval_elo_and_times() -> None:
    out = subprocess.run(
        [*CAPICUA, "arena", "greedy", "random", "--variant", "dominousa", "--pairs", "3", "--workers", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["matches"] == 6
    lo, hi = data["win_rate_95"]
    assert 0 <= lo <= data["win_rate"] <= hi <= 1
    assert {"elo", "a_points_per_hand", "a_move_ms_mean", "a_move_ms_max"} <= set(data)


def test_arena_rejects_unknown_bot() -> None:
    out = subprocess.run([*CAPICUA, "arena", "wizard", "greedy"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "unknown bot" in out.stderr
