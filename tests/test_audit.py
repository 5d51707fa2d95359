"""scripts/audit.py, which scripts/test runs: a known vulnerability with a fix fails the run, one without a fix
is only printed, and an advisory database out of reach is said and skipped, never passed over silently."""

from __future__ import annotations

import doctest
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).parents[1] / "scripts" / "audit.py"


def audit() -> ModuleType:
    spec = importlib.util.spec_from_file_location("audit", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_findings_doctest() -> None:
    assert doctest.testmod(audit()).failed == 0


def fake_run(stdout: str, stderr: str = "", code: int = 0) -> object:
    def run(*args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess([], code, stdout, stderr)

    return run


def one(*vulns: dict[str, object]) -> str:
    """pip-audit's JSON report of one package with these vulnerabilities."""
    return json.dumps({"dependencies": [{"name": "a", "version": "1", "vulns": list(vulns)}]})


@pytest.mark.parametrize(
    ("stdout", "stderr", "expected", "said"),
    [
        (one(), "", 0, "no known vulnerability"),
        (one({"id": "X", "fix_versions": ["2"]}), "", 1, "a 1: X (fixed in 2)"),
        (one({"id": "X", "fix_versions": []}), "", 0, "not fixable yet"),
        ("", "requests.exceptions.ConnectionError: Max retries exceeded", 0, "SKIPPED"),
        ("", "Traceback: something else broke", 1, "pip-audit failed"),
    ],
)
def test_what_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdout: str, stderr: str, expected: int,
    said: str,
) -> None:  # fmt: skip
    module = audit()
    monkeypatch.setattr(module.subprocess, "run", fake_run(stdout, stderr, 1 if stderr else 0))
    assert module.main() == expected
    out = capsys.readouterr()
    assert said in out.out + out.err


def test_it_runs_where_scripts_test_runs_it() -> None:
    """The installed pip-audit itself (the test extra) against this environment."""
    if not Path(sys.executable).with_name("pip-audit").exists():
        pytest.fail("pip-audit is not installed next to this Python: it is in the test extra (pyproject.toml)")
