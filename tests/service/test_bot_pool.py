"""The bots' worker processes leave when their server is killed with SIGKILL (nobody can stop them then)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

SERVER = """
import asyncio, os, sys
from capicua.rules import variants
from capicua.rules.match import Match
from capicua.service.tables.bots import BotPool

async def main():
    pool = BotPool(workers=1)
    hand = Match(variants.get("dominousa"), seed=1).deal()
    await pool.decide("greedy", 1, hand.view(hand.turn))  # the worker starts
    children = [p for p in os.listdir("/proc") if p.isdigit() and _parent(p) == os.getpid()]
    print(" ".join(children), flush=True)
    await asyncio.sleep(600)

def _parent(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None

asyncio.run(main())
"""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_bot_workers_leave_when_their_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        workers = [int(p) for p in server.stdout.readline().split()]
        assert workers, "no worker process started"
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        deadline = time.monotonic() + 10
        alive = workers
        while alive and time.monotonic() < deadline:
            alive = [p for p in workers if os.path.exists(f"/proc/{p}") and "Z" not in _state(p)]
            time.sleep(0.2)
        assert not alive, f"workers {alive} outlived their killed server"
    finally:
        if server.poll() is None:
            server.kill()


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
