"""Run a coroutine to completion from a test, whatever the calling thread is doing.

Playwright's sync API (the browser tests) keeps an event loop running in the main thread of the
pytest worker for as long as its browser is open, and ``asyncio.run`` refuses to start inside a
running loop; a fresh thread has none.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
