"""Worker processes of a server (the bots' moves, the hand reviews): a pool started with ``spawn``, whose
workers give way to the event loop and leave when their server is gone.

A server killed with SIGKILL cannot stop its workers, and a worker waiting for work would wait for ever: each
one watches its parent and leaves as soon as it is gone.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

__all__ = ["pool"]


def pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes, each niced and watching its server."""
    return ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=_start)


def _start() -> None:
    os.nice(5)  # the server's event loop goes first
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="capicua-server-watch", daemon=True).start()
