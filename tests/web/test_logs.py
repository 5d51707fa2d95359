"""Logs never carry a credential (issue 21): uvicorn writes each request's path with its query string, and
the websocket's carries the player's token (``/ws?token=…``); the app's filters hide the values."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from uvicorn.logging import AccessFormatter, DefaultFormatter

from capicua.web.app import redact


@pytest.fixture
def written(app: FastAPI) -> Iterator[io.StringIO]:
    """What uvicorn's two loggers write, through uvicorn's own formatters (the app built: its filters on)."""
    out = io.StringIO()
    handlers = []
    for name, formatter in (
        ("uvicorn.access", AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False)),
        ("uvicorn.error", DefaultFormatter("%(message)s", use_colors=False)),
    ):
        handler = logging.StreamHandler(out)
        handler.setFormatter(formatter)
        logger = logging.getLogger(name)
        handlers.append((logger, handler, logger.level))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    yield out
    for logger, handler, level in handlers:
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_the_access_log_and_the_websockets_line_hide_the_token(written: io.StringIO) -> None:
    access, error = logging.getLogger("uvicorn.access"), logging.getLogger("uvicorn.error")
    # as uvicorn's h11 and websockets protocols log them
    access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/ws?token=abc.def", "1.1", 101)
    access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/api/tables/t1?invite=Zq9&x=1", "1.1", 200)
    error.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5000", "/ws?last=3&token=eyJpZCI6.sig")
    error.info('%s - "WebSocket %s" 403', "127.0.0.1:5000", "/ws?password=hunter2")
    lines = written.getvalue().splitlines()
    assert lines == [
        '127.0.0.1:5000 - "GET /ws?token=*** HTTP/1.1" 101 Switching Protocols',
        '127.0.0.1:5000 - "GET /api/tables/t1?invite=***&x=1 HTTP/1.1" 200 OK',
        '127.0.0.1:5000 - "WebSocket /ws?last=3&token=***" [accepted]',
        '127.0.0.1:5000 - "WebSocket /ws?password=***" 403',
    ]
    assert not any(secret in written.getvalue() for secret in ("abc.def", "Zq9", "eyJpZCI6", "hunter2"))


def test_only_credentials_are_hidden() -> None:
    assert redact("/api/me/tokens/3") == "/api/me/tokens/3"  # a path, not a parameter
    assert redact("/api/tournaments?status=running&page=2") == "/api/tournaments?status=running&page=2"
    assert redact("/x?api_token=cap_1&new_password=p&secret=s&Token=T") == (
        "/x?api_token=***&new_password=***&secret=***&Token=***"
    )
