"""A server's worker processes leave when their server is gone, even killed (no orphan waits for work)."""

from __future__ import annotations

import subprocess
import sys
import time

SERVER = """
import os, sys
from capicua.service.workers import pool
p = pool(1)
print(p.submit(os.getpid).result(), flush=True)
sys.stdin.readline()
os.kill(os.getpid(), 9)  # killed: no shutdown, no atexit
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"  # a zombie is gone, only not reaped yet
    except FileNotFoundError:
        return False


def test_a_worker_leaves_when_its_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None and server.stdin is not None
    worker = int(server.stdout.readline())
    assert worker != server.pid and alive(worker)
    server.stdin.write("\n")
    server.stdin.flush()
    assert server.wait(timeout=30) == -9
    deadline = time.monotonic() + 15
    while alive(worker):  # the worker notices within a second or so
        assert time.monotonic() < deadline, f"worker {worker} outlived its server"
        time.sleep(0.05)
    assert not alive(worker)
