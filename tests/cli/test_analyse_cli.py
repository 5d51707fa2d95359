"""`capicua analyse` as a user runs it (real subprocesses): the table, --json, a bad file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from capicua.bots.analysis import Analysis
from capicua.bots.driver import play_match
from capicua.bots.registry import make_bot
from capicua.rules import variants
from capicua.rules.match import Match
from capicua.rules.record import Record

CAPICUA = [sys.executable, "-m", "capicua.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CAPICUA, *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = Match(variants.get("amazonense"), seed=4, options={"target": 50})
    play_match(match, [make_bot("greedy", s) for s in range(4)])
    path = tmp_path_factory.mktemp("analyse") / "game.json"
    path.write_text(Record.from_match(match, ["Ana", "Bia", "Caio", "Davi"]).dumps())
    return path


def test_analyse_prints_decisions_and_accuracy(record_file: Path) -> None:
    out = run("analyse", str(record_file), "--worlds", "6")
    assert out.returncode == 0, out.stderr
    assert "played" in out.stdout and "best" in out.stdout and "loss" in out.stdout
    assert "accuracy" in out.stdout and "Ana" in out.stdout and "Davi" in out.stdout
    assert "blunder ≥ 30" in out.stdout


def test_analyse_json(record_file: Path) -> None:
    out = run("analyse", str(record_file), "--json", "--worlds", "6")
    assert out.returncode == 0, out.stderr
    result = Analysis.from_json(json.loads(out.stdout))
    assert result.worlds == 6 and result.decisions
    assert [s.name for s in result.summary] == ["Ana", "Bia", "Caio", "Davi"]
    assert all(d.worlds == 6 for d in result.decisions)


def test_analyse_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "capicua-record/1", "variant": "amazonense", "players": ["a"], "hands": 3}')
    out = run("analyse", str(bad))
    assert out.returncode == 1
    assert "hands must be a list" in out.stderr and not out.stdout
    missing = run("analyse", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    notjson = tmp_path / "x.json"
    notjson.write_text("hello")
    assert run("analyse", str(notjson)).returncode == 1
