"""D4: the weekly ranking and its medals, as pure functions of the week's rating changes.

A week runs from Monday 00:00 to Sunday 23:59:59 in the platform's time zone (a setting, by default
America/Sao_Paulo). A player's score for the week, in one game, is the net sum of his rating changes in the
rated matches that ended in it (gains minus losses, D3 bonuses included). Only players with at least one
rated match that week rank; ties go to more rated wins that week, then to whoever reached the score
first. When the week closes the top three with a positive score get gold, silver and bronze.

>>> tz = ZoneInfo("America/Sao_Paulo")
>>> week_start(dt.datetime(2026, 12, 7, 2, 30, tzinfo=dt.UTC), tz)  # Sunday 23:30 in Manaus' neighbour
datetime.date(2026, 11, 30)
>>> [str(b) for b in week_bounds(dt.date(2026, 11, 30), tz)]
['2026-11-30 03:00:00+00:00', '2026-12-07 03:00:00+00:00']
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

__all__ = ["MEDALS", "Standing", "WeekChange", "medalists", "standings", "week_bounds", "week_start"]

#: The places that get a medal.
MEDALS = ("gold", "silver", "bronze")


def week_start(at: dt.datetime, tz: ZoneInfo) -> dt.date:
    """The Monday (a local date) of the week ``at`` falls in."""
    local = at.astimezone(tz).date()
    return local - dt.timedelta(days=local.weekday())


def week_bounds(start: dt.date, tz: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    """The week from Monday ``start`` 00:00 to the next Monday 00:00 (local), in UTC; the end is not in it.
    ``OverflowError`` for a week beyond the calendar (either bound outside the years 1 to 9999 in UTC)."""
    begin = dt.datetime.combine(start, dt.time(0), tz)
    end = dt.datetime.combine(start + dt.timedelta(days=7), dt.time(0), tz)
    return begin.astimezone(dt.UTC), end.astimezone(dt.UTC)


@dataclass(frozen=True)
class WeekChange:
    """One rated match of a player, as the week counts it: his whole change (D3 bonus included)."""

    player_id: str
    at: dt.datetime
    change: float
    won: bool


@dataclass(frozen=True)
class Standing:
    player_id: str
    score: float
    wins: int
    matches: int
    #: When his running total first reached his final score (the last tie-break: earlier is better).
    reached_at: dt.datetime


def standings(changes: Iterable[WeekChange]) -> list[Standing]:
    """The week's ranking: score, then wins, then who reached his score first (then the id, so that the
    order is always the same)."""
    by_player: dict[str, list[WeekChange]] = {}
    for c in sorted(changes, key=lambda c: c.at):
        by_player.setdefault(c.player_id, []).append(c)
    out = []
    for player, mine in by_player.items():
        score = round(sum(c.change for c in mine), 6)
        running = 0.0
        reached = mine[-1].at
        for c in mine:
            running += c.change
            if round(running, 6) >= score:
                reached = c.at
                break
        out.append(Standing(player, score, sum(c.won for c in mine), len(mine), reached))
    return sorted(out, key=lambda s: (-s.score, -s.wins, s.reached_at, s.player_id))


def medalists(ranked: list[Standing]) -> list[tuple[str, Standing]]:
    """Gold, silver and bronze: the first three, if their score is positive."""
    return [(medal, s) for medal, s in zip(MEDALS, ranked, strict=False) if s.score > 0]
