"""``capicua admin``: the operator names the moderators (docs/operations.md, "Conduct"), on the platform's database.

The moderators then act in the browser (the admin page) or through ``/api/admin/…``; what the operator does
here is written to the same moderation log, with his reason, as done "by the operator".
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.console import Console

from capicua.cli.common import fail

if TYPE_CHECKING:
    from capicua.service.store import Store

__all__ = ["app"]

T = TypeVar("T")

app = typer.Typer(help="Name or remove moderators, and read the moderation log.", no_args_is_help=True)

DataDir = Annotated[Path, typer.Option(help="Where the SQLite database lives (as for capicua serve).")]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(envvar="CAPICUA_DATABASE_URL", help="e.g. postgresql+asyncpg://user@host/db (default: SQLite)."),
]
Reason = Annotated[str, typer.Option(help="Why: kept in the moderation log.")]


def _on_store(data_dir: Path, database_url: str | None, work: Callable[[Store], Awaitable[T]]) -> T:
    """``work`` done on the platform's store (opened, its schema brought up to date, closed after), or exit
    saying why not: no data directory (2), a store or a refusal of the service (1)."""
    from capicua.service.errors import ServiceError
    from capicua.service.store import Store, StoreError, default_url

    async def body() -> T:
        store = Store(database_url or default_url(data_dir))
        await store.open()
        try:
            return await work(store)
        finally:
            await store.close()

    if not data_dir.is_dir() and database_url is None:
        raise fail(f"no data directory {data_dir} (the platform's, as capicua serve --data-dir)", 2)
    try:
        return asyncio.run(body())
    except (StoreError, ServiceError) as exc:
        raise fail(str(exc)) from None


def _run(data_dir: Path, database_url: str | None, username: str, action: str, reason: str) -> None:
    from capicua.service.conduct import Conduct

    async def act(store: Store) -> str:
        row = await store.accounts.by_username(username)
        if row is None:
            raise fail(f"no account {username!r}", 1)
        await Conduct(store.conduct).act(None, row.id, action, reason)
        return f"{row.username} ({row.name}): {action}"

    Console().print(_on_store(data_dir, database_url, act), highlight=False)


@app.command("grant")
def grant(
    username: Annotated[str, typer.Argument(help="The account that moderates from now on.")],
    reason: Reason,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
) -> None:
    """Make an account a moderator (role admin)."""
    _run(data_dir, database_url, username, "grant-admin", reason)


@app.command("revoke")
def revoke(
    username: Annotated[str, typer.Argument(help="The account that moderates no more.")],
    reason: Reason,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
) -> None:
    """Take an account's moderator role away."""
    _run(data_dir, database_url, username, "revoke-admin", reason)


@app.command("log")
def show_log(
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    limit: Annotated[int, typer.Option(min=1, help="How many entries, newest first.")] = 50,
) -> None:
    """The moderation log, newest first."""
    from rich.table import Table

    from capicua.service.conduct import Conduct

    async def read(store: Store) -> list[dict[str, object]]:
        return await Conduct(store.conduct).log(None, limit)

    entries = _on_store(data_dir, database_url, read)
    table = Table("at", "by", "player", "action", "until", "reason")
    for e in entries:
        by, player = e["by"], e["player"]
        table.add_row(
            str(e["at"])[:16],
            "operator" if not isinstance(by, dict) else str(by["name"]),
            str(player["name"]) if isinstance(player, dict) else "",
            str(e["action"]),
            str(e["until"] or "")[:16],
            str(e["reason"]),
        )
    Console().print(table)
