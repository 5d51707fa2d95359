"""``capicua bot run``: the reference client of the bot API (docs/bots.md), using only the public HTTP API.

It plays a bot account with one of capicua's own bots: it listens to the account's event stream, accepts
invitations (to the games it is told to play), and for each match that starts opens the seat's table
stream, rebuilds the seat's view from each frame (``SeatView.from_json``) and posts the bot's actions.
Nothing here reaches into the server: what an outside program can do, this does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Any

import httpx
import typer
from rich.console import Console

from capicua.bots.base import Bot
from capicua.bots.registry import make_bot
from capicua.cli.common import fail
from capicua.rules.hand import SeatView

__all__ = ["BotClient", "app"]

app = typer.Typer(help="Play a bot account over the bot API (docs/bots.md).", no_args_is_help=True)


@dataclass
class BotClient:
    """One bot account at one server, played by ``level``."""

    server: str
    token: str
    level: str
    games: set[str] | None = None  # the games it accepts invitations to (None: all)
    matches: int | None = None  # stop after this many matches ended (None: never)
    console: Console = field(default_factory=Console)
    finished: int = 0
    tables: dict[tuple[str, int], asyncio.Task[None]] = field(default_factory=dict)

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.server.rstrip("/"),
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=httpx.Timeout(30.0, read=None),
        )

    async def run(self) -> None:
        async with self.http() as http:
            r = await http.get("/api/me")
            if r.status_code != 200:
                raise RuntimeError(f"the server refused the token: {r.status_code} {r.text}")
            me = r.json()
            if not me.get("bot"):
                raise RuntimeError(f"{me['name']} is not a bot account (create one with bot: true)")
            self.console.print(f"[bold]{me['name']}[/] plays as [cyan]{self.level}[/] on {self.server}")
            while self.matches is None or self.finished < self.matches:
                try:
                    await self.listen(http)
                except (httpx.TransportError, httpx.HTTPStatusError) as exc:
                    self.console.print(f"[yellow]the event stream dropped ({exc!r}); again in 2 s[/]")
                    await asyncio.sleep(2)
            for task in self.tables.values():
                task.cancel()

    async def listen(self, http: httpx.AsyncClient) -> None:
        """Read the event stream until it ends or enough matches have been played."""
        async with http.stream("GET", "/api/bot/stream/event") as stream:
            if stream.status_code != 200:
                raise RuntimeError(f"the event stream was refused: {stream.status_code} {await stream.aread()!r}")
            async for event in _lines(stream):
                kind = event.get("type")
                if kind == "invitation":
                    await self.invited(http, event)
                elif kind == "tableStart":
                    key = (event["table"], event["match"])
                    if key not in self.tables:
                        self.console.print(f"match {event['match']} starts at {event['table']}, seat {event['seat']}")
                        self.tables[key] = asyncio.create_task(self.play(http, event["table"]))
                elif kind == "tableFinish":
                    self.finished += 1
                    self.console.print(f"match {event['match']} at {event['table']} ended: {event['how']}")
                    if self.matches is not None and self.finished >= self.matches:
                        task = self.tables.get((event["table"], event["match"]))
                        if task is not None:
                            with contextlib.suppress(asyncio.CancelledError, Exception):
                                await asyncio.wait_for(task, 10)
                        return

    async def invited(self, http: httpx.AsyncClient, event: dict[str, Any]) -> None:
        who = event["from"]["name"]
        if self.games is not None and event["variant"] not in self.games:
            await http.post(f"/api/bot/invitations/{event['id']}/decline")
            self.console.print(f"declined {who}'s invitation to {event['variant']}")
            return
        r = await http.post(f"/api/bot/invitations/{event['id']}/accept")
        if r.status_code == 200:
            self.console.print(f"accepted {who}'s invitation: {r.json()['table']}, seat {r.json()['seat']}")
        else:
            self.console.print(f"[yellow]could not accept {who}'s invitation: {r.text}[/]")

    async def play(self, http: httpx.AsyncClient, table: str) -> None:
        """Play our seat of the match at ``table``: act on the newest frame only."""
        bot = make_bot(self.level)
        frames: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

        async def read() -> None:
            try:
                async with http.stream("GET", f"/api/bot/tables/{table}/stream") as stream:
                    if stream.status_code != 200:
                        self.console.print(f"[red]{table}: {stream.status_code} {await stream.aread()!r}[/]")
                        return
                    async for frame in _lines(stream):
                        frames.put_nowait(frame)
            finally:
                frames.put_nowait(None)

        reader = asyncio.create_task(read())
        acted: int | None = None
        try:
            while True:
                frame = await frames.get()
                while frame is not None and not frames.empty():  # only the newest frame matters
                    newer = frames.get_nowait()
                    if newer is None:
                        break
                    frame = newer
                if frame is None:
                    return
                acted = await self.act(http, table, bot, frame, acted)
        finally:
            reader.cancel()

    async def act(
        self, http: httpx.AsyncClient, table: str, bot: Bot, frame: dict[str, Any], acted: int | None
    ) -> int | None:
        """The bot's action on ``frame`` (once per event number); the event number acted on."""
        data = frame.get("view")
        n = frame.get("n")
        if data is None or n == acted:
            return acted
        view = SeatView.from_json(data)
        if not view.legal_moves:
            return acted
        move = await asyncio.to_thread(bot.act, view)  # a searching bot thinks off the event loop
        if move is None:
            return n  # it declines an optional call (galo, claim)
        r = await http.post(f"/api/bot/tables/{table}/action", json={"action": str(move)})
        if r.status_code != 200:
            body = r.json()
            # the table may have moved on meanwhile (a call of another seat): the next frame says what now
            self.console.print(f"[yellow]{table}: {move} refused ({body.get('error')}: {body.get('message')})[/]")
        return n


async def _lines(stream: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    async for line in stream.aiter_lines():
        if line.strip():
            yield json.loads(line)


@app.command("run")
def run_command(
    server: Annotated[str, typer.Option(help="The platform's address, e.g. http://127.0.0.1:8000.")],
    token: Annotated[str, typer.Option(help="The bot account's API token (cap_…), from POST /api/me/tokens.")],
    level: Annotated[str, typer.Option(help="Which of capicua's bots plays: random, greedy, expert, expert:MS…")] = (
        "expert"
    ),
    game: Annotated[
        list[str] | None, typer.Option(help="Accept invitations to this game only (repeatable; default: all).")
    ] = None,
    matches: Annotated[int | None, typer.Option(help="Stop after this many matches (default: run until killed).")] = (
        None
    ),
) -> None:
    """Play a bot account: accept invitations, play every match it is seated at."""
    try:
        make_bot(level)
    except ValueError as exc:
        raise fail(str(exc), 2) from None
    client = BotClient(server, token, level, set(game) if game else None, matches)
    try:
        asyncio.run(client.run())
    except RuntimeError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        pass
