"""The games the platform has, and what a table of each may be created with."""

from __future__ import annotations

from typing import Any

from capicua.bots.registry import LEVELS, measured
from capicua.rules import variants
from capicua.web.routes.common import router

__all__ = ["routes"]

routes = router("variants")


@routes.get("/api/variants")
async def list_variants() -> list[dict[str, Any]]:
    """Every game: its players, whether partners score together, its calls, and its table options
    (each with type, default, limits and the rule it comes from). Forms are built from this."""
    return [v.describe() for v in variants.all_variants()]


@routes.get("/api/bots")
async def list_bots() -> list[dict[str, Any]]:
    """The bot levels a table may seat, weakest first, each with its strength as the bench measured it
    (``measured``: in each game, its win rate over the level below, in matches played in duplicate, with
    the 95 % interval, the CPU time a move it had where it thinks on a clock, ``think_ms``, the day that
    measured it, ``measured_on``, and the seats, ``players``, where the game has a choice of them; the level's
    ``measured_on``: the newest run, ``bench/bots.py --ladder``)."""
    ladder = measured()
    return [
        {
            "name": level.name,
            "summary": level.summary,
            "measured": [
                {k: rung[k] for k in ("game", "below", "matches", "wins", "win_rate", "ci95", "think_ms", "players")}
                | {"measured_on": rung["measured"]}
                for rung in ladder["rungs"]
                if rung["level"] == level.name
            ],
            "measured_on": ladder["measured"],
        }
        for level in LEVELS
    ]
