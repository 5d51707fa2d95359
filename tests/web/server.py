"""A real ``capicua serve`` process for the tests that need one (a killed server, raw sockets)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

__all__ = ["CAPICUA", "HOST", "Server", "free_port"]

CAPICUA = [sys.executable, "-m", "capicua.cli"]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
    return port


class Server:
    """``capicua serve`` as a subprocess; each start logs to its own file."""

    def __init__(
        self,
        data_dir: Path,
        port: int,
        database_url: str | None = None,
        command: list[str] = CAPICUA,
        args: list[str] | None = None,
        env: dict[str, str] | None = None,
        limits: bool = False,
    ) -> None:
        self.data_dir = data_dir
        #: The rate limits on (docs/operations.md): off unless asked, since a scripted client makes in a second
        #: what people make in an hour, all from one address.
        self.limits = limits
        self.args = args or []  # more options of ``capicua serve``
        self.env = env or {}  # more environment
        self.command = command  # the ``capicua`` to start (another venv's, for the install test)
        self.port = port
        self.database_url = database_url  # None: SQLite in data_dir
        self.base = f"http://{HOST}:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []

    def start(self) -> None:
        log = self.data_dir.parent / f"server-{len(self.logs)}.log"
        self.logs.append(log)
        with log.open("wb") as out:
            args = ["--host", HOST, "--port", str(self.port), "--data-dir", str(self.data_dir), "--bot-delay", "0.05"]
            args += ["--call-grace", "0"]
            if not self.limits:
                args += ["--no-limits"]
            if self.database_url is not None:
                args += ["--database-url", self.database_url]
            env = {k: v for k, v in os.environ.items() if not k.startswith("CAPICUA_")}
            self.proc = subprocess.Popen(
                [*self.command, "serve", *args, *self.args],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**env, **self.env},
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}:\n{self.output()}")
            try:
                if httpx.get(f"{self.base}/api/tables", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the server did not answer within 60 s:\n{self.output()}")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, sig)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)

    def output(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-4000:]}" for p in self.logs if p.exists())
