"""Guests, accounts and sessions: signing up and in, changing the password, logging out everywhere."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response
from pydantic import BaseModel, Field

from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.web.deps import SESSION_COOKIE, FromOurPages, PlatformDep, Playing, Who, address_of, limited, reader
from capicua.web.errors import refusals
from capicua.web.routes.common import Name, StrictModel, Username, router

__all__ = ["routes"]

routes = router("identity")


class GuestIn(StrictModel):
    name: Name | None = Field(default=None, description="Shown at tables; generated if absent")


class GuestOut(BaseModel):
    id: str
    name: str
    token: str = Field(description="Send as `Authorization: Bearer <token>` and as the websocket's `token`")


class SignUpIn(StrictModel):
    username: Username = Field(
        description="3 to 24 letters (of one alphabet), digits, '.', '_' or '-'; matched in any case"
    )
    password: str = Field(min_length=8, max_length=200)
    name: Name | None = None
    bot: bool = Field(
        default=False, description="a bot account, played by a program over the bot API (docs/bots.md); for good"
    )


class LogInIn(StrictModel):
    username: Username = Field(description="in any case")
    password: str = Field(max_length=200)


class PasswordIn(StrictModel):
    password: str = Field(max_length=200, description="the current password")
    new_password: str = Field(min_length=8, max_length=200)


@routes.post("/api/guests", response_model=GuestOut, dependencies=[limited("guest")])
async def new_guest(platform: PlatformDep, body: GuestIn | None = None) -> GuestOut:
    """Play as a guest: a generated name (or yours) and a signed token."""
    who, token = platform.identities.new_guest(body.name if body else None)
    return GuestOut(id=who.id, name=who.name, token=token)


def _signed_in(response: Response, request: Request, who: Identity, token: str) -> dict[str, Any]:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        max_age=60 * 60 * 24 * 30,
    )
    return {"id": who.id, "name": who.name, "guest": who.guest, "bot": who.bot, "token": token}


@routes.post("/api/accounts", status_code=201, dependencies=[limited("register")], responses=refusals(409))
async def sign_up(body: SignUpIn, request: Request, response: Response, platform: PlatformDep) -> dict[str, Any]:
    """Create an account; a guest (by his token) keeps his identity and his matches."""
    who, token = await platform.accounts.sign_up(
        body.username, body.password, body.name, await reader(request), bot=body.bot
    )
    return _signed_in(response, request, who, token)


@routes.post("/api/login", responses=refusals(401, 403, 429))  # 403: banned (docs/operations.md, "Conduct")
async def log_in(body: LogInIn, request: Request, response: Response, platform: PlatformDep) -> dict[str, Any]:
    who, token = await platform.accounts.log_in(body.username, body.password, address_of(request))
    return _signed_in(response, request, who, token)


@routes.post("/api/logout", dependencies=[FromOurPages])
async def log_out(response: Response) -> dict[str, Any]:
    """Forget the session cookie (this browser only; DELETE /api/me/sessions logs out everywhere). Only with
    the header `X-Requested-With: capicua`, as every request the cookie counts for: a cross-site form cannot
    log you out."""
    response.delete_cookie(SESSION_COOKIE)
    return {"ok": True}


@routes.delete("/api/me/sessions", responses=refusals(404))
async def log_out_everywhere(who: Who, response: Response, platform: PlatformDep) -> dict[str, Any]:
    """Log out everywhere: every session token of your account, this one too, opens nothing from now on
    (on every server). Your API tokens stay: revoke those one by one."""
    await platform.accounts.end_sessions(who)
    response.delete_cookie(SESSION_COOKIE)
    return {"ok": True}


@routes.post("/api/me/password", responses=refusals(404))
async def change_password(
    body: PasswordIn, who: Who, request: Request, response: Response, platform: PlatformDep
) -> dict[str, Any]:
    """A new password, given the current one: your other sessions end; this one goes on under the new token
    (and cookie) answered. Your API tokens stay."""
    renewed, token = await platform.accounts.change_password(who, body.password, body.new_password)
    return _signed_in(response, request, renewed, token)


class NameIn(StrictModel):
    name: Name = Field(description="The name shown at tables")


@routes.post("/api/me/name")
async def rename(body: NameIn, who: Who, request: Request, response: Response, platform: PlatformDep) -> dict[str, Any]:
    """Change your name and keep who you are: the same id (your seats, your history), a new token; the
    tables you sit at show the new name. An empty name is refused."""
    if not body.name:
        raise ServiceError("invalid", "name: a name needs a letter or a digit")
    renamed, token = await platform.rename(who, body.name)
    if not renamed.guest:
        return _signed_in(response, request, renamed, token)
    return {"id": renamed.id, "name": renamed.name, "guest": True, "token": token}


@routes.get("/api/me")
async def me(who: Playing, platform: PlatformDep) -> dict[str, Any]:
    """Who you are; ``admin``: you moderate (docs/operations.md, "Conduct")."""
    admin = await platform.conduct.is_admin(who)
    return {"id": who.id, "name": who.name, "guest": who.guest, "bot": who.bot, "admin": admin}
