"""Ratings (D1–D5): leaderboards per game, weekly rankings and their medals, players' profiles."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Path
from pydantic import BeforeValidator

from capicua.rules import variants
from capicua.service.ratings.model import BASE, BONUS_CAP, PROVISIONAL_SIGMA, SCALE
from capicua.service.ratings.service import INACTIVE_AFTER, INDIVIDUAL_PROVISIONAL_GAMES
from capicua.web.deps import Caller, PlatformDep
from capicua.web.routes.common import PlayerId, router

__all__ = ["routes"]

routes = router("ratings")

if TYPE_CHECKING:
    GameName = str
else:
    GameName = Literal[variants.names()]
Game = Annotated[GameName, Path(description="a game: amazonense, individual or dominousa")]


def _iso_date(value: object) -> object:
    """A date as ISO 8601 writes it, ``YYYY-MM-DD``, and nothing else: pydantic alone takes a number of seconds
    too (``0`` was 1970-01-01), a path the description (a ``date``) does not have."""
    if isinstance(value, str) and not (len(value) == 10 and value[4] == value[7] == "-"):
        raise ValueError("a date is written YYYY-MM-DD")
    return value


Week = Annotated[dt.date, Path(description="a date of the week (YYYY-MM-DD)"), BeforeValidator(_iso_date)]


@routes.get("/api/ratings/{game}")
async def ratings(game: Game, platform: PlatformDep) -> dict[str, Any]:
    """A game's leaderboards: all-time by rating (established players who played in the last 30 days),
    this week's ranking (live, D4), and last week's medalists."""
    r = platform.ratings
    last = r.this_week() - dt.timedelta(days=7)
    return {
        "game": game,
        "all_time": await r.leaderboard(game),
        "this_week": await r.week(game),
        "last_week": await r.week(game, last),
    }


@routes.get("/api/ratings/{game}/weeks/{week}")
async def week(game: Game, week: Week, platform: PlatformDep) -> dict[str, Any]:
    """One week's ranking (``week``: its Monday, a date), with its medals once it has closed."""
    monday = week - dt.timedelta(days=week.weekday())
    return await platform.ratings.week(game, monday)


@routes.get("/api/players/{player_id}/profile")
async def profile(player_id: PlayerId, platform: PlatformDep, who: Caller) -> dict[str, Any]:
    """A player's ratings per game (provisional or not), his medals, and each game's rating history. To the
    player himself and to moderators, also his ``conduct``: a playban or warning for abandoning rated matches,
    with the numbers behind it, and whether a moderator muted or banned him (docs/operations.md, "Conduct")."""
    data = await platform.ratings.profile(player_id)
    names = await platform.accounts.names([player_id])
    data["name"] = names.get(player_id)
    if who is not None and (who.id == player_id or await platform.conduct.is_admin(who)):
        data["conduct"] = await platform.conduct.standing(player_id)
    return data


@routes.get("/api/ratings")
async def rating_rules() -> dict[str, Any]:
    """The published numbers of the ratings (docs/ratings.md explains them)."""
    return {
        "start": BASE,
        "points_per_mu": SCALE,
        "provisional_sigma": PROVISIONAL_SIGMA,
        "individual_provisional_games": INDIVIDUAL_PROVISIONAL_GAMES,
        "inactive_days": INACTIVE_AFTER.days,
        "d3_bonus_cap": BONUS_CAP,
    }
