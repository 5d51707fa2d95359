"""Who is calling, and the platform, as FastAPI dependencies."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, WebSocket

from capicua.service.botapi.tokens import PREFIX as API_TOKEN_PREFIX
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform

__all__ = ["CSRF_HEADER", "SESSION_COOKIE", "Caller", "Who", "caller", "platform_of", "socket_identity"]

SESSION_COOKIE = "capicua_session"
#: Requests authenticated by the session cookie must carry this header: a cross-site form cannot send it
#: (that would need a CORS preflight, which the server never grants), so cookies cannot be ridden (CSRF).
CSRF_HEADER = "x-requested-with"


def platform_of(request: Request) -> Platform:
    platform: Platform = request.app.state.platform
    return platform


async def caller(request: Request) -> Identity | None:
    """The caller: ``Authorization: Bearer <token>`` (a signed identity token, or a personal API token
    ``cap_…`` of the bot API), or the session cookie with the CSRF header."""
    platform = platform_of(request)
    identities = platform.identities
    authorization = request.headers.get("authorization", "")
    if authorization.startswith("Bearer "):
        token = authorization.removeprefix("Bearer ").strip()
        if token.startswith(API_TOKEN_PREFIX):
            return await platform.api_tokens.authenticate(token)
        return identities.authenticate(token)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie and request.headers.get(CSRF_HEADER) == "capicua":
        return identities.authenticate(cookie)
    return None


async def current_identity(request: Request) -> Identity:
    who = await caller(request)
    if who is None:
        raise ServiceError(
            "unauthorized", "sign in, or send a guest token: Authorization: Bearer <token> (POST /api/guests)"
        )
    return who


#: Longest identity token: a signed ``{id, name, guest}`` is about 150 characters; a longer one is not read.
MAX_TOKEN = 512


def socket_identity(ws: WebSocket, token: str | None) -> Identity | None:
    """A websocket's caller: its ``token`` (one too long to be ours is no token), or the session cookie of a
    same-origin page (no cross-site socket hijacking)."""
    identities: Platform = ws.app.state.platform
    who = identities.identities.authenticate(token) if token and len(token) <= MAX_TOKEN else None
    origin = ws.headers.get("origin", "")
    cookie = ws.cookies.get(SESSION_COOKIE)
    if who is None and cookie and origin.split("://")[-1] == ws.headers.get("host"):
        who = identities.identities.authenticate(cookie)
    return who


Who = Annotated[Identity, Depends(current_identity)]
Caller = Annotated[Identity | None, Depends(caller)]
PlatformDep = Annotated[Platform, Depends(platform_of)]
