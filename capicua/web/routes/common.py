"""What the routers share: strict models, the path parameters' shapes, names, a record's steps."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response
from pydantic import AfterValidator, AwareDatetime, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from capicua.rules.record import replay_steps
from capicua.service.identity import NAME_LENGTH, clean_name
from capicua.web.routing import StrictJSONRoute

__all__ = [
    "ROUTED",
    "Invite",
    "Moment",
    "Name",
    "PlayerId",
    "RecordId",
    "StrictModel",
    "TableId",
    "TeamName",
    "TokenLabel",
    "TournamentName",
    "Username",
    "UsernamePath",
    "router",
    "steps_response",
]


class StrictModel(BaseModel):
    """A request body: no coercion (``"2"`` is not ``2``, ``"yes"`` is not ``true``), no unknown field."""

    model_config = ConfigDict(strict=True, extra="forbid")


def router(tag: str) -> APIRouter:
    return APIRouter(tags=[tag], route_class=StrictJSONRoute)


def named(length: int, blank: bool = True) -> AfterValidator:
    """The one check of every name-like field: :func:`~capicua.service.identity.clean_name` (no control
    character, NUL included, nor unpaired surrogate: 422; trimmed, runs of spaces made one, at most
    ``length`` characters). A blank name is None, or (``blank`` False) refused too."""

    def check(value: str) -> str | None:
        name = clean_name(value, length)
        if name is None and not blank:
            raise ValueError("a name may not be blank")
        return name

    return AfterValidator(check)


#: A name shown at tables: no control characters, at most 32 characters once trimmed (blank: None).
Name = Annotated[str, Field(max_length=NAME_LENGTH), named(NAME_LENGTH)]
#: A tournament's name: 1 to 80 characters once trimmed, no control characters.
TournamentName = Annotated[str, Field(min_length=1, max_length=80), named(80, blank=False)]
#: A team's name: at most 64 characters once trimmed, no control characters (blank: the players' names).
TeamName = Annotated[str, Field(max_length=64), named(64)]
#: A personal API token's label: at most 64 characters once trimmed, no control characters.
TokenLabel = Annotated[str, Field(max_length=64), named(64)]

#: What a request about a table may answer as it goes to the server running it (docs/protocol.md, "Several
#: servers"): ``not-found``; ``unavailable``, ``moved`` or ``elsewhere`` (503); ``unknown`` (504).
ROUTED = (404, 503, 504)

TableId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="a table's id")]
RecordId = Annotated[int, Path(ge=1, le=2**63 - 1, description="a record's id")]
PlayerId = Annotated[str, Path(pattern=r"^[A-Za-z0-9:_-]{1,64}$", description="a player's id")]


def _printable(value: str) -> str:
    """``value`` as typed, refused (422) if it holds a control character: no username has one, and
    PostgreSQL's text cannot hold a NUL (looking one up was a 500)."""
    clean_name(value)  # raises ValueError naming the character; the value itself is kept as typed
    return value


#: An account's username as somebody typed it: the service matches it in any case, fullwidth or not
#: (``capicua.service.usernames``) and says what is wrong with a new one; a control character is refused here.
Username = Annotated[
    str,
    Field(min_length=1, max_length=64, description="an account's username, in any case"),
    AfterValidator(_printable),
]
UsernamePath = Annotated[
    str,
    Path(min_length=1, max_length=64, description="an account's username, in any case"),
    AfterValidator(_printable),
]
Invite = Annotated[str | None, Query(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="a private table's invite")]


def _in_utc(moment: dt.datetime) -> dt.datetime:
    """The moment in UTC, as the store keeps it; refused if that falls outside the years 1 to 9999
    (``9999-12-31T23:59:59-12:00`` is in the year 10000 in UTC: no database column takes it)."""
    try:
        return moment.astimezone(dt.UTC)
    except OverflowError:
        raise PydanticCustomError(
            "moment_range",
            "{moment} is out of range: in UTC it must fall in the years 1 to 9999",
            {"moment": moment.isoformat()},
        ) from None


def _written(moment: Any) -> Any:
    """A moment comes as text: pydantic's lax mode would read a number as seconds since 1970 (``0.0`` was taken
    for 1970-01-01 as a tournament's registration opening), which the description, a string, does not allow."""
    if not isinstance(moment, str):
        raise PydanticCustomError("moment_text", "a moment is written as ISO 8601 text, e.g. 2030-01-01T14:00:00-04:00")
    return moment


#: A moment of the API (a tournament's start, its registration window): ISO 8601 text with its zone, given in any
#: zone and handed on in UTC; a moment without its zone, not written as text, or beyond the years 1 to 9999 in
#: UTC, is a 422.
Moment = Annotated[
    AwareDatetime,
    Field(strict=False, description="a moment with its zone, ISO 8601 (in UTC, within the years 1 to 9999)"),
    BeforeValidator(_written),
    AfterValidator(_in_utc),
]


def bots_of(record: dict[str, Any]) -> list[bool] | None:
    """Which seats a bot played (a server's bot or a bot account), as the table wrote it in the record; for
    an older record of a table, the seats that had no player's id; None for a record that does not say (an
    upload)."""
    bots, ids = record.get("bots"), record.get("player_ids")  # the record's extras lie at its top level
    if isinstance(bots, list) and all(isinstance(b, bool) for b in bots):
        return list(bots)
    if isinstance(ids, list) and record.get("table"):
        return [pid is None for pid in ids]
    return None


async def steps_response(record: dict[str, Any]) -> Response:
    """A record step by step (:func:`~capicua.rules.record.replay_steps`, for the replay viewer) as JSON,
    built in a thread: it grows with the record, and the event loop serves every table meanwhile."""

    def build() -> bytes:
        steps = replay_steps(record)
        steps["bots"] = bots_of(record)
        return json.dumps(steps, ensure_ascii=False).encode()

    return Response(await asyncio.to_thread(build), media_type="application/json")
