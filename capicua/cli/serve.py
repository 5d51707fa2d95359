"""``capicua serve``: the platform (HTTP API, websocket and the browser client) in one process."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from capicua.cli.common import fail

if TYPE_CHECKING:
    from capicua.service.store import Store

__all__ = ["serve_command"]

# The options of a node among several (docs/operations.md, "Several nodes").
NodeName = Annotated[
    str | None,
    typer.Option(
        envvar="CAPICUA_NODE_NAME", help="This server's name among the nodes sharing the database (default: host:port)."
    ),
]
LeaseSeconds = Annotated[
    float,
    typer.Option(
        envvar="CAPICUA_LEASE_SECONDS",
        min=1.0,
        help="Seconds a node stays alive without renewing its lease: a killed node's tables move after this.",
    ),
]
RedisUrl = Annotated[
    str | None,
    typer.Option(
        envvar="CAPICUA_REDIS_URL",
        help="redis://host:port/0: the nodes sharing the database reach each other's tables through it.",
    ),
]
SecretFile = Annotated[
    Path | None,
    typer.Option(
        help="The signing secret, shared by every node (also CAPICUA_SECRET; default: secret.key in the data "
        "directory, created once)."
    ),
]


NoLimits = Annotated[
    bool,
    typer.Option(
        "--no-limits",
        help="Turn the rate limits off (docs/operations.md, 'Rate limits'): for load tests from one address.",
    ),
]
HeaderTimeout = Annotated[
    float,
    typer.Option(
        min=0.1, help="Seconds a client may take to send a request's headers (slow clients get 408 and are closed)."
    ),
]
BodyTimeout = Annotated[
    float, typer.Option(min=0.1, help="Seconds a client may take to send a request's body, its headers in.")
]


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
    node_name: NodeName = None,
    lease_seconds: LeaseSeconds = 10.0,
    secret_file: SecretFile = None,
    redis_url: RedisUrl = None,
    no_limits: NoLimits = False,
    header_timeout: HeaderTimeout = 10.0,
    body_timeout: BodyTimeout = 60.0,
) -> None:
    """Start the platform: HTTP API, websocket and static files in one process; several of them on one
    PostgreSQL database make one platform (docs/operations.md, "Several nodes")."""
    import socket
    import zoneinfo

    import uvicorn

    from capicua.service.identity import SecretError, load_secret
    from capicua.service.platform import Platform
    from capicua.service.store import default_url
    from capicua.service.tables import TableConfig
    from capicua.web.app import create_app
    from capicua.web.timeouts import with_timeouts

    _check_places(data_dir, host, port)
    url = database_url or default_url(data_dir)
    store = _checked_store(url)
    config = TableConfig(bot_delay=bot_delay, bot_workers=bot_workers, call_grace=call_grace)
    try:
        zoneinfo.ZoneInfo(timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise fail(f"unknown time zone {timezone!r} (e.g. America/Sao_Paulo, America/Manaus, UTC)", 2) from None
    try:
        secret = load_secret(data_dir, secret_file)
    except SecretError as exc:
        raise fail(str(exc), 2) from None
    node = node_name or f"{socket.gethostname()}:{port}"
    platform = Platform(
        store,
        secret,
        config,
        timezone=timezone,
        node=node,
        lease_seconds=lease_seconds,
        redis_url=redis_url,
        limits=not no_limits,
    )
    app_ = create_app(platform)
    Console(stderr=True).print(
        f"capicua on http://{host}:{port}  (node: {node}, database: {url.split('://')[0]}, data: {data_dir})"
    )
    http = with_timeouts(header_timeout, body_timeout)  # slow clients cut off (capicua/web/timeouts.py)
    uvicorn.run(
        app_, host=host, port=port, log_level="warning", http=http, ws_max_size=65536, ws_per_message_deflate=ws_deflate
    )


def _check_places(data_dir: Path, host: str, port: int) -> None:
    """The data directory can be used and the port is free, or exit saying which is not."""
    import socket

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


def _checked_store(url: str) -> Store:
    """The store at ``url``, once it answered and its schema is up to date, or exit saying why not."""
    import asyncio

    from capicua.service.store import Store, StoreError

    store = Store(url)

    async def check() -> None:
        await store.open()  # reachable? schema up to date? (the app opens it again in its own loop)
        await store.engine.dispose()

    try:
        asyncio.run(check())
    except StoreError as exc:
        raise fail(str(exc)) from None
    return store
