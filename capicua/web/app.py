"""The ASGI app: the HTTP API (described by OpenAPI at ``/docs``), the websocket, the browser client.

A thin layer: routers (``routes/``) and the websocket (``socket.py``) call the platform's services;
no rule or persistence logic lives here. Errors get one shape (``errors.py``). The websocket
messages are typed (``protocol.py``) and documented in ``docs/protocol.md``.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp
from swagger_ui_bundle import swagger_ui_path

from capicua.service.platform import Platform
from capicua.web import errors, socket
from capicua.web.headers import SecurityHeaders
from capicua.web.routes import (
    admin,
    analysis,
    botapi,
    health,
    identity,
    lessons,
    puzzles,
    quickplay,
    ratings,
    records,
    tables,
    tournaments,
    variants,
)

#: The routers, each a module of ``routes/`` with its ``routes``, in the order they are included.
ROUTERS = (
    identity, tables, quickplay, lessons, records, analysis, puzzles, ratings, tournaments, botapi, admin, variants,
    health,
)  # fmt: skip

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"


def _tune_gc() -> None:
    """The cyclic garbage collector stops the event loop while it runs: a full collection walks every
    live container (hundreds of thousands with 500 tables: 50-100 ms here). What exists now (modules,
    the app, the loaded tables) lives as long as the server, so it is frozen out of the walks; and a
    full collection comes after 100 middle ones instead of 10 (every half minute rather than every few
    seconds at 1,600 actions a second). Measured with bench/server.py. Twice: a tuple is untracked only
    once the tuples inside it are, and frozen objects stay as they are."""
    gc.collect()
    gc.collect()
    gc.freeze()
    gen0, gen1, _ = gc.get_threshold()
    gc.set_threshold(gen0, gen1, 100)


class _QuietInvalidUtf8(logging.Filter):
    """uvicorn closes a websocket whose text frame is not UTF-8 with 1007, as it should, and logs a
    traceback for it: a client's bad input is worth one line, not a stack."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Invalid UTF-8 sequence received from client"):
            record.msg, record.args = "a client sent invalid UTF-8 in a websocket text frame: closed (1007)", ()
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


#: A query parameter whose value is a credential: the websocket's ``token``, a private table's ``invite``, and
#: anything named like a token, a password or a secret.
_SECRET_PARAMETER = re.compile(r"(?i)([?&;](?:[\w.%-]*(?:token|password|passwd|secret)|invite)=)[^&;#\s\"]*")


def redact(text: str) -> str:
    """``text`` with the values of its credential query parameters hidden.

    >>> redact('"GET /ws?token=abc.def&x=1 HTTP/1.1" 101'), redact("/api/tables/t1?invite=Zq9")
    ('"GET /ws?token=***&x=1 HTTP/1.1" 101', '/api/tables/t1?invite=***')
    """
    return _SECRET_PARAMETER.sub(r"\1***", text)


class _RedactSecrets(logging.Filter):
    """uvicorn logs each request's path with its query string (the access log, and the websocket's
    ``"WebSocket /ws?token=…" [accepted]`` on ``uvicorn.error``): a guest's or a session's token there would
    let whoever reads the logs play as him. The values are hidden in the record's arguments themselves, which
    uvicorn's access formatter unpacks one by one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


def _quiet_uvicorn() -> None:
    """The filters of uvicorn's loggers: invalid UTF-8 in one line; no credential in any line."""
    error, access = logging.getLogger("uvicorn.error"), logging.getLogger("uvicorn.access")
    if not any(isinstance(f, _QuietInvalidUtf8) for f in error.filters):
        error.addFilter(_QuietInvalidUtf8())
    for logger in (error, access):
        if not any(isinstance(f, _RedactSecrets) for f in logger.filters):
            logger.addFilter(_RedactSecrets())


class _App(FastAPI):
    """The app, with the security headers (``headers.py``) outside everything, Starlette's error middleware
    too: a 500 carries them as well."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())

    _described: dict[str, Any] | None = None

    def openapi(self) -> dict[str, Any]:
        """FastAPI's description, with every operation's error statuses in the one shape (``errors.py``)."""
        document = super().openapi()
        if document is not self._described:
            errors.describe(self.routes, document)
            self._described = document
        return document


def create_app(platform: Platform) -> FastAPI:
    """The ASGI app of ``platform`` (built over its store by the caller: the web layer never opens a store
    itself); the app's lifespan opens and closes the platform."""
    _quiet_uvicorn()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await platform.open()
        _tune_gc()
        yield
        await platform.close()

    app = _App(
        title="capicua",
        version="0.1.0",
        description="Dominoes the way Brazil and Latin America play. Live play goes over the websocket "
        "`/ws` (see docs/protocol.md).",
        lifespan=lifespan,
        docs_url=None,  # served below from the server itself: no CDN
        redoc_url=None,
    )
    app.state.platform = platform
    app.state.sockets = socket.Open()  # the websockets open now, per identity and address
    errors.install(app)
    for module in ROUTERS:
        app.include_router(module.routes)
    app.include_router(socket.routes)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        # Swagger UI from the server's files, started by static/docs.js: no inline script (headers.py)
        return FileResponse(STATIC / "docs.html")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static/swagger", StaticFiles(directory=swagger_ui_path), name="swagger")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
