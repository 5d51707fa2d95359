"""`capicua admin`: the operator names and removes moderators on the platform's database, and reads the log
(real subprocesses, on a SQLite data directory as `capicua serve` leaves it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from capicua.service.store import Store, default_url
from tests.aio import run_async

CAPICUA = [sys.executable, "-m", "capicua.cli", "admin"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}  # the log's table on one line an entry
    return subprocess.run([*CAPICUA, *args], capture_output=True, text=True, timeout=60, env=env)


def role_of(data: Path, account_id: str) -> str | None:
    async def read() -> str | None:
        store = Store(default_url(data))
        await store.open()
        try:
            row = await store.accounts.by_id(account_id)
            assert row is not None
            return row.role
        finally:
            await store.close()

    return run_async(read())


def test_the_operator_names_a_moderator_and_the_log_says_why(tmp_path: Path) -> None:
    async def make() -> None:
        store = Store(default_url(tmp_path))
        await store.open()
        assert await store.accounts.add("a:bia", "Bia", "Bia Souza", "x")
        await store.close()

    run_async(make())
    granted = run("grant", "BIA", "--reason", "runs the Manaus club's tables", "--data-dir", str(tmp_path))
    assert granted.returncode == 0, granted.stderr
    assert role_of(tmp_path, "a:bia") == "admin"
    nobody = run("grant", "nobody", "--reason", "a typo", "--data-dir", str(tmp_path))
    assert nobody.returncode == 1 and "no account 'nobody'" in nobody.stderr
    short = run("grant", "bia", "--reason", "x", "--data-dir", str(tmp_path))
    assert short.returncode == 1 and "reason" in short.stderr
    revoked = run("revoke", "bia", "--reason", "left the club", "--data-dir", str(tmp_path))
    assert revoked.returncode == 0 and role_of(tmp_path, "a:bia") is None
    log = run("log", "--data-dir", str(tmp_path))
    assert log.returncode == 0, log.stderr
    lines = [line for line in log.stdout.splitlines() if "admin" in line]
    assert "revoke-admin" in lines[0] and "left the club" in lines[0] and "operator" in lines[0]
    assert "grant-admin" in lines[1] and "Manaus" in lines[1]
    missing = run("log", "--data-dir", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "no data directory" in missing.stderr
