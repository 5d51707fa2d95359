"""``capicua serve``: the platform (HTTP API, websocket and the browser client) in one process."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from capicua.cli.common import fail

__all__ = ["serve_command"]


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data_dir: Annotated[Path, typer.Option(help="Where the SQLite database and the secret live.")] = Path("data"),
    database_url: Annotated[
        str | None,
        typer.Option(envvar="CAPICUA_DATABASE_URL", help="e.g. postgresql+asyncpg://user@host/db (default: SQLite)."),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before it moves, on average (each wait is 0.5 to 1.5 times it).")
    ] = 0.4,
    call_grace: Annotated[
        float,
        typer.Option(help="Seconds bots and forced passes wait, at least, while a person may call galo or claim."),
    ] = 2.0,
    bot_workers: Annotated[
        int | None,
        typer.Option(help="Processes the searching bots think in (default: one less than the cores, at least 1)."),
    ] = None,
    timezone: Annotated[
        str, typer.Option(help="The platform's time zone: the weekly ranking closes at Sunday's midnight there (D4).")
    ] = "America/Sao_Paulo",
    ws_deflate: Annotated[
        bool,
        typer.Option(help="Compress websocket frames (permessage-deflate): less traffic, more server CPU a frame."),
    ] = False,
) -> None:
    """Start the platform: HTTP API, websocket and static files in one process."""
    import asyncio
    import socket
    import zoneinfo

    import uvicorn

    from capicua.service.identity import load_secret
    from capicua.service.platform import Platform
    from capicua.service.store import Store, StoreError, default_url
    from capicua.service.tables import TableConfig
    from capicua.web.app import create_app

    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(f"cannot use the data directory {data_dir}: {exc}") from None
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise fail(
                f"cannot listen on {host}:{port}: {exc.strerror} (is another server running? try --port)"
            ) from None
    url = database_url or default_url(data_dir)
    store = Store(url)

    async def check() -> None:
        await store.open()  # reachable? schema up to date? (the app opens it again in its own loop)
        await store.engine.dispose()

    try:
        asyncio.run(check())
    except StoreError as exc:
        raise fail(str(exc)) from None
    config = TableConfig(bot_delay=bot_delay, bot_workers=bot_workers, call_grace=call_grace)
    try:
        zoneinfo.ZoneInfo(timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise fail(f"unknown time zone {timezone!r} (e.g. America/Sao_Paulo, America/Manaus, UTC)", 2) from None
    app_ = create_app(Platform(store, load_secret(data_dir), config, timezone=timezone))
    Console(stderr=True).print(f"capicua on http://{host}:{port}  (database: {url.split('://')[0]}, data: {data_dir})")
    uvicorn.run(app_, host=host, port=port, log_level="warning", ws_max_size=65536, ws_per_message_deflate=ws_deflate)
