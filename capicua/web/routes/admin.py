"""Moderation (docs/operations.md, "Conduct"): what accounts with the role ``admin`` see and do. Every action
says why, and the log keeps it; anybody else gets ``403 forbidden``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Path, Query
from pydantic import Field

from capicua.service.conduct import ACTIONS, REASON_LENGTH
from capicua.web.deps import PlatformDep, Who
from capicua.web.errors import refusals
from capicua.web.routes.common import PlayerId, StrictModel, router

__all__ = ["routes"]

routes = router("admin")

if TYPE_CHECKING:
    ActionName = str
else:
    ActionName = Literal[tuple(ACTIONS)]
Action = Annotated[ActionName, Path(description="; ".join(f"`{name}`: {words}" for name, words in ACTIONS.items()))]


class ActionIn(StrictModel):
    reason: str = Field(min_length=3, max_length=REASON_LENGTH, description="why: kept in the moderation log")
    hours: float | None = Field(
        default=None, gt=0, le=24 * 3650, description="how long a ban or a mute holds (none: for good)"
    )


@routes.get("/api/admin/flags")
async def flags(who: Who, platform: PlatformDep) -> dict[str, Any]:
    """What needs a moderator's eye: pairs of players who met in rated 2-player matches beyond the 24-hour decay
    (B8, D5: those matches paid nothing), this week's abandoners with their playbans, and the accounts banned,
    muted or with their name hidden now."""
    await platform.conduct.check_admin(who)
    return await platform.conduct.flags()


@routes.get("/api/admin/log")
async def log(
    who: Who,
    platform: PlatformDep,
    player: Annotated[str | None, Query(pattern=r"^[A-Za-z0-9:_-]{1,64}$", description="one account's")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> list[dict[str, Any]]:
    """The moderation log, newest first: who did what to whom, when, why, and until when."""
    await platform.conduct.check_admin(who)
    return await platform.conduct.log(player, limit)


@routes.get("/api/admin/players/{player_id}")
async def standing(player_id: PlayerId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """An account's conduct (its playban, mute, ban, hidden name) and its moderation log."""
    await platform.conduct.check_admin(who)
    data = await platform.conduct.standing(player_id)
    data["log"] = await platform.conduct.log(player_id, 50)
    return data


@routes.post("/api/admin/players/{player_id}/{action}", responses=refusals(404))
async def act(player_id: PlayerId, action: Action, body: ActionIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Act on an account, saying why (the log keeps it). Its standing afterwards."""
    return await platform.conduct.act(who, player_id, action, body.reason, body.hours)
