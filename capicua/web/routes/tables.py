"""Tables: the lobby's list, creating one (with its game's options), seats, starting, rematches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, create_model

from capicua.bots.registry import level_names
from capicua.rules import variants
from capicua.rules.variant import Option
from capicua.service.errors import ServiceError
from capicua.service.tables import AUTOSTART_SECONDS
from capicua.service.tables.referee import REFEREE_DECISIONS
from capicua.web.deps import Caller, PlatformDep, Who, limited
from capicua.web.errors import refusals
from capicua.web.routes.common import ROUTED, Invite, StrictModel, TableId, router

__all__ = ["TableIn", "routes"]

routes = router("tables")

if TYPE_CHECKING:
    GameName = str
    BotLevel = str
else:  # the registries' names, as the schema's enums
    GameName = Literal[variants.names()]
    BotLevel = Literal[level_names()]


def _option_field(option: Option, games: list[str]) -> tuple[Any, Any]:
    """A body field for a game option: its type and limits; absent means the game's default (``null`` is not
    a value of it: refused as the wrong type)."""
    if option.type is bool:
        kind: Any = bool
    elif option.type is int:
        kind = Annotated[int, Field(ge=option.minimum, le=option.maximum)]
    else:
        kind = Literal[option.choices]
    defaults = ", ".join(f"{g} {variants.get(g).defaults[option.name]!r}" for g in games)
    rules = ", ".join(sorted({spec.rule for g in games if (spec := variants.get(g).option(option.name))}))
    where = "" if len(games) == len(variants.names()) else f" ({', '.join(games)} only)"
    return kind, Field(
        default=None,  # absent: the game's default, which the description says (not null, which is refused)
        description=f"{option.help}{where} ({rules}); default: {defaults}",
        json_schema_extra=_no_default,
    )


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def _options_fields() -> dict[str, Any]:
    """One field per option name any game has (an option of the same name is the same everywhere)."""
    games: dict[str, list[str]] = {}
    specs: dict[str, Option] = {}
    for game in variants.all_variants():
        for option in game.option_specs:
            games.setdefault(option.name, []).append(game.name)
            specs.setdefault(option.name, option)
    return {name: _option_field(specs[name], games[name]) for name in specs}


class _TableBase(StrictModel):
    variant: GameName
    players: Annotated[int, Field(ge=2, le=4)] | None = Field(default=None, description="Individual: 2, 3 or 4")
    private: bool = Field(default=False, description="Private tables are joined by invite link")
    rated: bool = Field(default=False, description="D1: the matches change ratings; account holders only, no bots")
    bots_rated: bool = Field(
        default=False, description="with rated: a match with bot accounts (the bot API) among people is rated too"
    )
    bots_after: Annotated[float, Field(ge=0, le=600)] | None = Field(
        default=None, description="Fill empty seats with bots and start after this many seconds"
    )
    bot: BotLevel = Field(default="greedy", description="Bot level for empty seats")
    sit: bool = Field(default=False, description="Seat the creator at the first free seat at once")
    autostart: bool = Field(
        default=True,
        description=f"Once every seat is taken the match starts by itself {AUTOSTART_SECONDS} seconds later (the "
        "summary's `starts_at` counts down; a player may start it sooner); false: its players start it",
    )

    def game_options(self) -> dict[str, Any]:
        """The game options given (the others take the game's defaults)."""
        return {name: value for name in _OPTIONS if (value := getattr(self, name)) is not None}


_OPTIONS = _options_fields()
if TYPE_CHECKING:
    TableIn = _TableBase
else:
    #: A new table: the table's own fields and every game's options (``GET /api/variants`` says whose).
    TableIn = create_model("TableIn", __base__=_TableBase, **_OPTIONS)


class JoinIn(StrictModel):
    seat: int | None = None
    invite: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")] | None = None


class BotsIn(StrictModel):
    level: BotLevel = "greedy"


@routes.get("/api/tables")
async def list_tables(platform: PlatformDep) -> list[dict[str, Any]]:
    """Public tables that are open or in play (those of every node, when the nodes share Redis)."""
    return await platform.router.lobby()


class OnlineOut(BaseModel):
    people: int = Field(description="people online on every server, each counted once (the caller among them)")


@routes.get("/api/online")
async def online(platform: PlatformDep, who: Caller) -> OnlineOut:
    """How many people are online: those with a websocket open, or who asked something (this, say) in the last
    30 seconds. The lobby asks it as it asks for the tables."""
    return OnlineOut(people=await platform.online(who))


@routes.post("/api/tables", status_code=201, dependencies=[limited("table")], responses=refusals(503))
async def create_table(body: TableIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Create a table; with `sit` you take the first seat at once (before any bots arrive)."""
    if body.rated and body.bots_after is not None:
        raise ServiceError("bad-options", "bots do not play rated matches (D1): a rated table waits for people")
    bots_after = None if body.bots_after is None else (body.bots_after, body.bot)
    table = await platform.tables.create(
        who,
        body.variant,
        body.players,
        body.game_options(),
        body.private,
        rated=body.rated,
        bots_rated=body.bots_rated,
        bots_after=bots_after,
        autostart=AUTOSTART_SECONDS if body.autostart else None,
    )
    if body.sit:
        await table.join(who, None, table.invite)
    table.arm_fill()
    return table.summary(with_invite=True)


@routes.get("/api/tables/{table_id}", responses=refusals(403, *ROUTED))
async def get_table(table_id: TableId, platform: PlatformDep, who: Caller, invite: Invite = None) -> dict[str, Any]:
    """The table's summary, and whether the caller may referee it (``referee``, C8: its tournament's referees;
    outside tournaments the creator of a strict table who does not sit at it)."""
    answer: dict[str, Any] = await platform.router.call(table_id, "summary", who, invite=invite)
    return answer


@routes.post("/api/tables/{table_id}/join", responses=refusals(403, 409, *ROUTED))
async def join(table_id: TableId, body: JoinIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    answer: dict[str, Any] = await platform.router.call(table_id, "join", who, seat=body.seat, invite=body.invite)
    return answer


@routes.post("/api/tables/{table_id}/leave", responses=refusals(409, *ROUTED))
async def leave(table_id: TableId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    answer: dict[str, Any] = await platform.router.call(table_id, "leave", who)
    return answer


@routes.post("/api/tables/{table_id}/bots", responses=refusals(403, 409, *ROUTED))
async def bots(table_id: TableId, body: BotsIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    answer: dict[str, Any] = await platform.router.call(table_id, "bots", who, level=body.level)
    return answer


@routes.post("/api/tables/{table_id}/start", responses=refusals(403, 409, *ROUTED))
async def start(table_id: TableId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    answer: dict[str, Any] = await platform.router.call(table_id, "start", who)
    return answer


@routes.post("/api/tables/{table_id}/resign", responses=refusals(409, *ROUTED))
async def resign(table_id: TableId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Leave the match in play: your side loses it (at a rated table it is rated as lost)."""
    answer: dict[str, Any] = await platform.router.call(table_id, "resign", who)
    return answer


class RefereeIn(StrictModel):
    """A table referee's decision (C8); see the websocket's ``referee`` message (docs/protocol.md)."""

    decision: Literal["fine", "score", "annul", "award", "touch"]
    seat: Annotated[int, Field(ge=0, le=3, description="fine, touch: the seat; score, award: the side")] | None = None
    points: Annotated[int, Field(ge=-1000, le=1000, description="fine: positive; score: the correction")] | None = None
    tile: Annotated[str, Field(pattern=r"^[0-6]-[0-6]$", description="touch: the tile (C7)")] | None = None
    reason: Annotated[str, Field(min_length=1, max_length=200, description="the decision's written reason")]


@routes.get("/api/tables/{table_id}/referee", responses=refusals(403, *ROUTED))
async def referee_console(table_id: TableId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """C8: what the referee console (``#/referee/{id}``) opens with, for the table's referees only (as
    ``POST`` below says who they are): anyone else, a guest, a player at the table, and everyone at a table of
    a game without a table referee (``GET /api/variants``' ``referee``), gets ``forbidden`` (403)."""
    answer: dict[str, Any] = await platform.router.call(table_id, "referee_console", who)
    return {**answer, "referee": {"id": who.id, "name": who.name}, "decisions": list(REFEREE_DECISIONS)}


@routes.post("/api/tables/{table_id}/referee", responses=refusals(403, 409, *ROUTED))
async def referee(table_id: TableId, body: RefereeIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """C8: a referee's decision at a table in play, final and written in the record with his name. Only the
    referees its tournament names for it, or (outside tournaments) the creator of a strict table who does
    not sit at it. Returns the decision's event number."""
    decision = {"seat": body.seat, "points": body.points, "tile": body.tile, "reason": body.reason}
    answer: dict[str, Any] = await platform.router.call(table_id, "referee", who, decision=body.decision, **decision)
    return answer


@routes.post("/api/tables/{table_id}/rematch", responses=refusals(403, 409, *ROUTED))
async def rematch(table_id: TableId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    answer: dict[str, Any] = await platform.router.call(table_id, "rematch", who)
    return answer
