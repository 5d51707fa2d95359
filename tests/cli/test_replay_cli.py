"""`capicua replay` and `capicua record random` as a user runs them (real subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.rules.test_record import SPEC_RECORD

CAPICUA = [sys.executable, "-m", "capicua.cli"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CAPICUA, *args], capture_output=True, text=True, input=stdin, timeout=60)


def test_help_lists_subcommands() -> None:
    out = run("--help")
    assert out.returncode == 0
    assert "replay" in out.stdout and "record" in out.stdout


def test_replay_json_of_spec_example(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SPEC_RECORD))
    out = run("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["totals"] == [5, 15] and result["finished"] is False


def test_replay_table_is_readable(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SPEC_RECORD))
    out = run("replay", str(path))
    assert out.returncode == 0
    assert "Ana & Caio" in out.stdout and "table 15→1" in out.stdout and "Not finished" in out.stdout


def test_record_random_then_replay_round_trip(tmp_path: Path) -> None:
    out = run("record", "random", "--variant", "amazonense", "--seed", "42")
    assert out.returncode == 0, out.stderr
    again = run("record", "random", "--variant", "amazonense", "--seed", "42")
    assert again.stdout == out.stdout  # reproducible from the seed
    path = tmp_path / "r.json"
    path.write_text(out.stdout)
    replayed = run("replay", str(path), "--json")
    assert replayed.returncode == 0
    result = json.loads(replayed.stdout)
    assert result["finished"] is True and result["winner"] in (0, 1)
    assert max(result["totals"]) >= 200
    table = run("replay", "-", stdin=out.stdout)
    assert table.returncode == 0 and "Winner" in table.stdout


def test_illegal_action_exits_nonzero_naming_hand_action_reason(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(SPEC_RECORD))
    bad["hands"][0]["actions"][2] = "2: 5-3 E"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = run("replay", str(path), "--json")
    assert out.returncode == 1
    assert out.stdout == ""  # nothing half-printed as success
    assert "hand 1, action 3" in out.stderr and "5-3 does not fit the E end" in out.stderr


def test_malformed_and_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{not json")
    out = run("replay", str(path))
    assert out.returncode == 1 and "not JSON" in out.stderr
    missing = run("replay", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_record_random_rejects_unknown_variant() -> None:
    out = run("record", "random", "--variant", "xadrez")
    assert out.returncode == 2 and "unknown variant" in out.stderr


def test_every_walker_error_exits_1_in_one_short_line(tmp_path: Path) -> None:
    """'²: pass' ended in a ValueError traceback (int('²') while '²'.isdigit()); a 10^5-character action was
    printed whole. Each now exits 1 naming hand and action, in a line cut short, stdout empty."""
    for action, reason in (
        ("²: pass", "bad seat '²'"),
        ("1: " + "6" * 100_000, "not a move"),
        ("7: pass", "no seat 7"),
    ):
        bad = json.loads(json.dumps(SPEC_RECORD))
        bad["hands"][0]["actions"][1] = action
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        out = run("replay", str(path), "--json")
        assert (out.returncode, out.stdout) == (1, ""), out.stderr[-500:]
        assert "hand 1, action 2" in out.stderr and reason in out.stderr, out.stderr[-500:]
        assert "Traceback" not in out.stderr and len(out.stderr) < 400
