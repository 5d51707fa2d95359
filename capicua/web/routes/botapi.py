"""The bot API (docs/bots.md): personal API tokens, bot accounts' event streams and table streams (NDJSON),
actions, invitations; and people inviting bot accounts to their tables."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Annotated, Any

import orjson
from fastapi import Path
from fastapi.responses import StreamingResponse
from pydantic import Field

from capicua.service.botapi.tokens import describe
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.web.deps import PlatformDep, Playing, Who, limited
from capicua.web.errors import refusals
from capicua.web.routes.common import ROUTED, StrictModel, TableId, TokenLabel, Username, router

__all__ = ["routes"]

routes = router("bot API")

NDJSON = "application/x-ndjson"
TokenId = Annotated[str, Path(pattern=r"^[A-Za-z0-9-]{1,16}$", description="a token's id")]
InvitationId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,16}$", description="an invitation's id")]
STREAM_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {NDJSON: {}}, "description": "one JSON object a line; an empty line now and then (keep-alive)"}
}


class TokenIn(StrictModel):
    label: TokenLabel | None = None


class ActionIn(StrictModel):
    action: Annotated[str, Field(min_length=1, max_length=64, description="record notation, without the seat")]


class InviteIn(StrictModel):
    username: Username
    seat: Annotated[int, Field(ge=0, le=3)] | None = None


def _ndjson(items: AsyncIterator[Mapping[str, Any] | None]) -> StreamingResponse:
    async def lines() -> AsyncIterator[bytes]:
        async for item in items:
            yield b"\n" if item is None else orjson.dumps(item) + b"\n"

    return StreamingResponse(lines(), media_type=NDJSON, headers={"cache-control": "no-store"})


async def _limited(platform: Any, who: Identity, kind: str) -> None:
    """The bot API's own limits, per account: ``bot-action``, ``bot-stream``, ``bot-invite``."""
    await platform.limits.take(f"bot-{kind}", who.id)


# -- tokens ---------------------------------------------------------------------------------------------
@routes.post("/api/me/tokens", status_code=201, dependencies=[limited("token")])
async def create_token(body: TokenIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """A personal API token for your account (send it as `Authorization: Bearer cap_…`). It is shown this once:
    the server keeps only its digest."""
    row, token = await platform.api_tokens.create(who, body.label)
    return {**describe(row), "token": token}


@routes.get("/api/me/tokens")
async def list_tokens(who: Who, platform: PlatformDep) -> list[dict[str, Any]]:
    """Your API tokens (never the tokens themselves): when made, last used, revoked."""
    return [describe(row) for row in await platform.api_tokens.tokens(who)]


@routes.delete("/api/me/tokens/{token_id}", responses=refusals(404))
async def revoke_token(token_id: TokenId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Revoke one of your tokens: it opens nothing from now on."""
    await platform.api_tokens.revoke(who, token_id)
    return {"id": token_id, "revoked": True}


# -- bot accounts -----------------------------------------------------------------------------------------
@routes.get("/api/bot/accounts")
async def bot_accounts(platform: PlatformDep) -> list[dict[str, Any]]:
    """Every bot account, and whether it is online (its event stream is open on some server: it can answer an
    invitation)."""
    online = await platform.bot_hub.online_ids()
    return [{"username": a.username, "name": a.name, "online": a.id in online} for a in await platform.accounts.bots()]


@routes.get(
    "/api/bot/stream/event", response_class=StreamingResponse, responses={**STREAM_RESPONSES, **refusals(403, 429)}
)
async def event_stream(who: Playing, platform: PlatformDep) -> StreamingResponse:
    """A bot account's events, as NDJSON: `invitation`, `tableStart`, `tableFinish` (docs/bots.md). On opening,
    the pending invitations and the tables where a match of the bot is in play come first."""
    await _limited(platform, who, "stream")
    return _ndjson(platform.bot_hub.events(who))


@routes.get(
    "/api/bot/tables/{table_id}/stream",
    response_class=StreamingResponse,
    responses={**STREAM_RESPONSES, **refusals(403, 409, 429, *ROUTED)},
)
async def table_stream(table_id: TableId, who: Playing, platform: PlatformDep) -> StreamingResponse:
    """Your seat's stream of a table, as NDJSON: the websocket's frames for your seat (first its full `state`,
    then each `event`), each with your engine view (`view`); it ends after the match's end."""
    if not who.bot:
        raise ServiceError("forbidden", "the bot API's streams are for bot accounts")
    await _limited(platform, who, "stream")
    return _ndjson(await platform.bot_hub.table_stream(who, table_id))


@routes.post("/api/bot/tables/{table_id}/action", responses=refusals(403, 409, 429, *ROUTED))
async def bot_action(table_id: TableId, body: ActionIn, who: Playing, platform: PlatformDep) -> dict[str, Any]:
    """Your move at a table, in record notation without the seat (`6-4 L`, `pass`, `galo`…): your seat is the
    one you sit at. Answers the event number of your action."""
    await _limited(platform, who, "action")
    answer: dict[str, Any] = await platform.router.call(table_id, "act", who, action=body.action)
    return answer


@routes.post("/api/bot/invitations/{invitation_id}/accept", responses=refusals(403, 404, 409, 429))
async def accept_invitation(invitation_id: InvitationId, who: Playing, platform: PlatformDep) -> dict[str, Any]:
    """Accept an invitation: the bot sits at the seat it was invited to. Answers the table and the seat."""
    await _limited(platform, who, "invite")
    return await platform.bot_hub.accept(who, invitation_id)


@routes.post("/api/bot/invitations/{invitation_id}/decline", responses=refusals(403, 404, 409, 429))
async def decline_invitation(invitation_id: InvitationId, who: Playing, platform: PlatformDep) -> dict[str, Any]:
    await _limited(platform, who, "invite")
    await platform.bot_hub.decline(who, invitation_id)
    return {"declined": invitation_id}


@routes.post("/api/tables/{table_id}/invite", status_code=201, responses=refusals(403, 409, 429, *ROUTED))
async def invite_bot(table_id: TableId, body: InviteIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Invite a bot account to a seat of your open table (any free seat if `seat` is absent); it sits there when
    its program accepts. A match with a bot account and people is rated only at a table created with
    `bots_rated`."""
    invitation = await platform.bot_hub.invite(who, table_id, body.username, body.seat)
    return {**invitation.json(), "online": await platform.bot_hub.online(invitation.bot)}
