"""The games the platform has, and what a table of each may be created with."""

from __future__ import annotations

from typing import Any

from capicua.bots.registry import LEVELS
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
async def list_bots() -> list[dict[str, str]]:
    """The bot levels a table may seat."""
    return [{"name": level.name, "summary": level.summary} for level in LEVELS]
