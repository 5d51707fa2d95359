"""What the fuzzing tests share: how many examples they make, and the inputs they really sent.

``CAPICUA_FUZZ_SCALE`` multiplies every fuzzing test's examples (default 1: what CI runs, about 100,000
inputs in all; ``10`` for a long run on a free machine). Each test counts the inputs it sent (HTTP requests,
websocket messages) with :func:`sent` and asserts its own share; the counts are written to the session's
temporary directory, and the end of the run sums them, the workers of ``-n`` included
(``tests/web/conftest.py``: ``pytest_terminal_summary``), so the total said is the total sent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import Phase

__all__ = ["PHASES", "SCALE", "record", "scaled", "totals"]

#: Every fuzzing test's examples are multiplied by this.
SCALE = float(os.environ.get("CAPICUA_FUZZ_SCALE", "1"))
#: ``CAPICUA_FUZZ_SHRINK=0``: a failure is reported as found, not shrunk first (shrinking a long stateful run
#: may take minutes).
PHASES = tuple(Phase) if os.environ.get("CAPICUA_FUZZ_SHRINK", "1") != "0" else tuple(set(Phase) - {Phase.shrink})
#: The name of the count files, in the session's temporary directory.
PREFIX = "fuzz-inputs-"


def scaled(examples: int) -> int:
    return max(1, round(examples * SCALE))


def record(
    tmp_path_factory: pytest.TempPathFactory, test: str, kind: str, count: int, seconds: float, **more: int
) -> None:
    """Say that ``test`` sent ``count`` inputs of ``kind`` (``http``, ``ws``) in ``seconds`` (``more``: its own
    counts, kept beside)."""
    name = "".join(c if c.isalnum() else "_" for c in test)
    path = tmp_path_factory.getbasetemp() / f"{PREFIX}{name}.json"
    path.write_text(json.dumps({"test": test, "kind": kind, "count": count, "seconds": seconds, **more}))


def totals(root: Path) -> list[dict[str, object]]:
    """Every count written under ``root`` (the session's, with its workers' directories)."""
    return [json.loads(p.read_text()) for p in sorted(root.rglob(f"{PREFIX}*.json"))]
