"""Fixtures of the web tests: an app on a fresh SQLite store, with bots that move at once."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from capicua.service.platform import Platform
from capicua.service.store import Store, default_url
from capicua.service.tables import TableConfig
from capicua.service.tables import flow as flow_module
from capicua.service.tables import table as table_module
from capicua.web.app import create_app
from tests.aio import run_async
from tests.pg import ADMIN_DSN, admin, sqlalchemy_url
from tests.web.helpers import Harness, seeded_secrets


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh PostgreSQL database of its own, for the nodes of one test (dropped after it)."""
    name = f"capicua_nodes_{secrets.token_hex(6)}"
    run_async(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield sqlalchemy_url(ADMIN_DSN, name)
    finally:
        run_async(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def app(tmp_path: Path, request: pytest.FixtureRequest) -> FastAPI:
    """The rate limits are off (a scripted client makes in a second what a person makes in an hour), but in
    the tests marked ``limits``, which hold the limits to what docs/operations.md says (tests/web/test_limits.py)."""
    config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)  # bots at once, inline; no wait for calls
    limits = request.node.get_closest_marker("limits") is not None
    return create_app(Platform(Store(default_url(tmp_path)), "test-secret", config, limits=limits))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture
def h(app: FastAPI, client: TestClient) -> Iterator[Harness]:
    harness = Harness(app, client)
    try:
        yield harness
    finally:
        harness.close_all()


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> int:
    """Deals and bot seeds from a fixed seed (``CAPICUA_WEB_SEED`` to try others)."""
    value = getattr(request, "param", int(os.environ.get("CAPICUA_WEB_SEED", "2024")))
    seeded = seeded_secrets(value)
    monkeypatch.setattr(table_module, "secrets", seeded)  # the bots' generators
    monkeypatch.setattr(flow_module, "secrets", seeded)  # each match's deal seed
    return int(value)
