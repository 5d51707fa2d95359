"""A bare ``pip install .`` (no extras) into a fresh venv gives a ``capicua`` that starts.

The test suite's own venv holds the test extras (httpx, playwright…), so an import that only they satisfy
would pass every other test and still break ``scripts/run`` and ``pip install capicua`` (issue 18, item 1).
This test builds the package from a copy of the source tree (so the wheel's package data is checked too) into
a venv of its own and runs what a new user runs: every command's ``--help``, ``capicua serve`` answering ``/``
and ``/api/variants``, and an import of every module of the package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer

from capicua.cli import app
from tests.web.server import Server, free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
#: What a source tree holds that is not the package's source (the copy leaves it out).
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "data", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "test-artifacts"
)


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command's words, the group's own first: (), ('replay',), ('record',), ('record', 'random')…
    (typer's groups are click groups of its own copy of click: a group is what has ``commands``)"""
    out = [path]
    if hasattr(command, "commands"):
        for name, sub in sorted(command.commands.items()):
            out += _commands(sub, (*path, name))
    return out


@pytest.fixture(scope="module")
def bare_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with ``pip install <a copy of the source>`` and nothing else.

    The venv is made without pip, and this suite's pip installs into it (``pip --python``): ensurepip's own
    pip and setuptools took seconds and are no part of what is checked; the venv ends up holding capicua and
    its dependencies alone. ``--no-compile``: pip leaves the bytecode to the first import (it compiled every
    file of every dependency, half of the install's time); the package is the same."""
    where = tmp_path_factory.mktemp("install")
    source, venv = where / "source", where / "venv"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet"]
    pip += ["--disable-pip-version-check", "--no-compile"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    done = subprocess.run([*pip, str(source)], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"pip install . failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return venv


def _run(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run(args, cwd=venv, env=env, capture_output=True, text=True, timeout=120)


def test_the_bare_install_holds_none_of_the_test_extras(bare_venv: Path) -> None:
    """The check below means something only if the venv really lacks what the tests install."""
    done = _run(bare_venv, str(bare_venv / "bin" / "python"), "-c", "import playwright")
    assert done.returncode != 0 and "No module named 'playwright'" in done.stderr


def test_every_command_answers_help(bare_venv: Path) -> None:
    commands = _commands(typer.main.get_command(app))
    assert ("serve",) in commands and ("bot", "run") in commands and ("record", "random") in commands
    for words in commands:
        done = _run(bare_venv, str(bare_venv / "bin" / "capicua"), *words, "--help")
        assert done.returncode == 0, f"capicua {' '.join(words)} --help failed:\n{done.stderr[-3000:]}"
        assert "Usage" in done.stdout, done.stdout


def test_every_module_imports(bare_venv: Path) -> None:
    """Every module of the installed package (not the source tree: the venv's own copy) imports. Left out:
    ``__main__`` modules, which run the command when imported, and Alembic's env.py, a script Alembic runs
    inside a migration context."""
    script = (
        "import importlib, pkgutil, capicua, pathlib\n"
        "assert 'site-packages' in capicua.__file__, capicua.__file__\n"
        "names = [m.name for m in pkgutil.walk_packages(capicua.__path__, 'capicua.')]\n"
        "scripts = ('capicua.service.migrations.env',)\n"
        "names = [n for n in names if n not in scripts and not n.endswith('.__main__')]\n"
        "for n in names: importlib.import_module(n)\n"
        "print(len(names))\n"
    )
    done = _run(bare_venv, str(bare_venv / "bin" / "python"), "-c", script)
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout) > 50  # the walk found the package's modules


def test_serve_starts_and_answers(bare_venv: Path, tmp_path: Path) -> None:
    server = Server(tmp_path / "data", free_port(), command=[str(bare_venv / "bin" / "capicua")])
    try:
        server.start()
        page = httpx.get(f"{server.base}/", timeout=10)
        assert page.status_code == 200 and "<html" in page.text.lower()
        variants = httpx.get(f"{server.base}/api/variants", timeout=10)
        assert variants.status_code == 200
        assert {v["name"] for v in variants.json()} == {"amazonense", "individual", "dominousa"}
    finally:
        server.stop()
