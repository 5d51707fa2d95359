"""End-to-end fixtures: a real server process and Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CHROMIUM = os.environ.get("CAPICUA_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "capicua.cli", "serve", "--port", str(port), "--data-dir", str(data), *extra]
    # Its output goes to a file beside its data (a pipe nobody reads would block the server once full).
    log = (data / "server.log").open("ab")
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(url + "/api/tables", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    else:
        proc.kill()
        raise RuntimeError("the server did not start")
    return proc, url


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose bots play fast (--bot-delay 0.02) and wait for no call (--call-grace 0), without rate limits
    (the tests are scripted people, far faster than real ones, all from one address)."""
    proc, url = start_server(
        tmp_path_factory.mktemp("e2e-data"), "--bot-delay", "0.02", "--call-grace", "0", "--no-limits"
    )
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="session")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server at the default pace: bots 0.4 s, the default --call-grace, and the rate limits on."""
    proc, url = start_server(tmp_path_factory.mktemp("e2e-paced"))
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Path:
    """Where a test saves its screenshots."""
    folder: Path = ARTIFACTS / str(request.node.name)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(autouse=True)
def close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every page a test opened when it ends: a table page left open keeps its socket, its clocks and
    its bots' animations running for the rest of the session, and dozens of them starve the 2 cores."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
