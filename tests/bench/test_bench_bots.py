"""bench/bots.py keeps working: its step rows build the expert they name, and a tiny run prints every row."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from capicua.bots.expert import SHORTLIST, ExpertBot

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bots  # bench/bots.py, not a package


def test_each_step_row_builds_the_expert_with_its_part_taken_away() -> None:
    built = {}
    for row in bots.STEPS:
        make = bots._builder(row, "expert:50")
        expert = make("expert:50", 3)
        assert isinstance(expert, ExpertBot) and expert.budget == 0.05
        assert make(row.b, 3).name == row.b  # the opponent as the registry builds it
        built[row.name] = expert
    assert built["step-issue14"].keep["spinner"] == 0 and built["step-issue14"].eps == 0.15
    assert built["step-deterministic"].keep["spinner"] == 0 and built["step-deterministic"].eps == 0.0
    assert built["step-deterministic"].playouts == 1
    assert built["step-shortlist"].keep == SHORTLIST and SHORTLIST["spinner"] == 3


def test_a_tiny_steps_run_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    bots.main(["--steps", "--matches", "2", "--budget", "2"])
    out = capsys.readouterr().out
    for row in bots.STEPS:
        assert row.name in out
    assert out.count("Amazonense") >= len(bots.STEPS)
