"""The node's health, for a load balancer and for operators (docs/operations.md, "Several nodes")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from capicua.web.deps import PlatformDep
from capicua.web.routes.common import router

__all__ = ["Health", "routes"]

routes = router("health")


class Health(BaseModel):
    node: str
    database: Literal["ok", "down"]
    redis: Literal["ok", "down"] | None
    tables: list[str]
    lease_seconds: float
    draining: bool


@routes.get("/api/health")
async def health(platform: PlatformDep) -> Health:
    """This node: its name, whether the database (and Redis, when used; null: not used) answers, the ids of the
    tables it runs now (open, in play or between matches), its lease and whether it is shutting down."""
    return Health.model_validate(await platform.health())
