"""Rated quick play: wait in a game's queue; the server seats you with players of near ratings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Path
from pydantic import Field

from capicua.rules import variants
from capicua.web.deps import PlatformDep, Who, limited
from capicua.web.errors import refusals
from capicua.web.routes.common import StrictModel, router

__all__ = ["routes"]

routes = router("quickplay")

if TYPE_CHECKING:
    GameName = str
else:
    GameName = Literal[variants.names()]
Ticket = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="a quick-play ticket")]


class QuickIn(StrictModel):
    variant: GameName = Field(description="the game to play")


@routes.post("/api/quickplay", dependencies=[limited("seek")])
async def join(body: QuickIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Wait for a rated match (account holders): near ratings first, the range widening as you wait.
    The answer is your ticket; ask about it (about every second) until its ``state`` is ``seated``: its
    ``table`` is your rated table, already started."""
    return await platform.quickplay.join(who, body.variant)


@routes.get("/api/quickplay/{ticket}", dependencies=[limited("seek")], responses=refusals(404))
async def status(ticket: Ticket, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Where your wait stands: ``waiting`` (with the rating range you accept now) or ``seated``."""
    return await platform.quickplay.status(who, ticket)


@routes.delete("/api/quickplay/{ticket}", responses=refusals(404))
async def leave(ticket: Ticket, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Stop waiting."""
    await platform.quickplay.leave(who, ticket)
    return {"ok": True}
