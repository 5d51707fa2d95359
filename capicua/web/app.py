"""The ASGI app: the HTTP API (described by OpenAPI at ``/docs``), the websocket, the browser client.

A thin layer: routers (``routes/``) and the websocket (``socket.py``) call the platform's services;
no rule or persistence logic lives here. Errors get one shape (``errors.py``). The websocket
messages are typed (``protocol.py``) and documented in ``docs/protocol.md``.
"""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

from capicua.service.platform import Platform
from capicua.web import errors, socket
from capicua.web.routes import (
    analysis,
    botapi,
    health,
    identity,
    quickplay,
    ratings,
    records,
    tables,
    tournaments,
    variants,
)

#: The routers, each a module of ``routes/`` with its ``routes``, in the order they are included.
ROUTERS = (identity, tables, quickplay, records, analysis, ratings, tournaments, botapi, variants, health)

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


def _quiet_uvicorn() -> None:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _QuietInvalidUtf8) for f in logger.filters):
        logger.addFilter(_QuietInvalidUtf8())


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

    app = FastAPI(
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
    async def docs() -> Response:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="capicua API",
            swagger_js_url="/static/swagger/swagger-ui-bundle.js",
            swagger_css_url="/static/swagger/swagger-ui.css",
            swagger_favicon_url="data:,",
        )

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static/swagger", StaticFiles(directory=swagger_ui_path), name="swagger")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
