"""Who is calling, and the platform, as FastAPI dependencies."""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import Depends, Request, WebSocket
from starlette.requests import HTTPConnection

from capicua.service.botapi.tokens import PREFIX as API_TOKEN_PREFIX
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.platform import Platform
from capicua.web.errors import ANSWERS

__all__ = [
    "CSRF_HEADER",
    "CSRF_VALUE",
    "SESSION_COOKIE",
    "Caller",
    "FromOurPages",
    "Playing",
    "Who",
    "address_of",
    "caller",
    "limited",
    "platform_of",
    "socket_identity",
]

SESSION_COOKIE = "capicua_session"
#: Requests authenticated by the session cookie must carry this header: a cross-site form cannot send it
#: (that would need a CORS preflight, which the server never grants), so cookies cannot be ridden (CSRF).
CSRF_HEADER = "x-requested-with"
#: ... with this value (what the browser client sends on every request: static/js/api.js).
CSRF_VALUE = "capicua"
#: What an API token opens, for the refusals' words.
BOTS_DOC = "docs/bots.md"


def platform_of(request: Request) -> Platform:
    platform: Platform = request.app.state.platform
    return platform


#: What :func:`caller` keeps of a request's caller, once found (a rate limit and the route both ask).
_CALLER = "capicua_caller"
_UNKNOWN = object()


async def caller(request: Request) -> Identity | None:
    """The caller: ``Authorization: Bearer <token>`` (a signed session or guest token, or a personal API token
    ``cap_…`` of the bot API, marked ``api_token``), or the session cookie with the CSRF header. An account's
    session token counts only while its sessions have not been ended nor the account banned (checked in the
    database once a request)."""
    found = getattr(request.state, _CALLER, _UNKNOWN)
    if found is _UNKNOWN:
        found = await _find_caller(request)
        setattr(request.state, _CALLER, found)
    return cast("Identity | None", found)


async def _find_caller(request: Request) -> Identity | None:
    platform = platform_of(request)
    authorization = request.headers.get("authorization", "")
    if authorization.startswith("Bearer "):
        token = authorization.removeprefix("Bearer ").strip()
        if token.startswith(API_TOKEN_PREFIX):
            return await platform.api_tokens.authenticate(token)
        return await platform.accounts.authenticate(token)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie and _csrf_header(request):
        return await platform.accounts.authenticate(cookie)
    return None


def _csrf_header(request: Request) -> bool:
    return request.headers.get(CSRF_HEADER) == CSRF_VALUE


async def from_our_pages(request: Request) -> None:
    """A request that acts on the session cookie without needing an identity (logging out) must carry the CSRF
    header all the same: otherwise a cross-site form could post to it, and the answer's ``Set-Cookie`` would
    end the visitor's session (the cookie's ``SameSite=Lax`` keeps it from being sent, not from being
    deleted)."""
    if not _csrf_header(request):
        raise ServiceError("forbidden", f"send the header {CSRF_HEADER}: {CSRF_VALUE} (docs/protocol.md)")


def _signed_in(who: Identity | None) -> Identity:
    if who is None:
        raise ServiceError(
            "unauthorized", "sign in, or send a guest token: Authorization: Bearer <token> (POST /api/guests)"
        )
    return who


async def current_identity(request: Request) -> Identity:
    """A guest or an account, signed in: every route that acts for its caller. A personal API token is
    refused (403 ``api-token``): it opens only what docs/bots.md lists, through :data:`Playing`."""
    who = _signed_in(await caller(request))
    if who.api_token:
        raise ServiceError(
            "api-token",
            f"an API token is for playing: it opens only GET /api/me and the /api/bot/… endpoints ({BOTS_DOC}); "
            "sign in with the account's password for the rest",
        )
    return who


async def playing_identity(request: Request) -> Identity:
    """Like :func:`current_identity`, but a personal API token counts too: the bot API's routes."""
    return _signed_in(await caller(request))


# What each refuses, for the OpenAPI description (capicua/web/errors.py: describe).
setattr(from_our_pages, ANSWERS, (403,))
setattr(current_identity, ANSWERS, (401, 403))
setattr(playing_identity, ANSWERS, (401,))


async def reader(request: Request) -> Identity | None:
    """The caller of a route that only reads (it answers anybody): with an API token he reads what anyone may."""
    who = await caller(request)
    return None if who is not None and who.api_token else who


#: Longest token a websocket reads: a signed identity is about 150 characters; a longer one is nobody's.
MAX_TOKEN = 512


async def socket_identity(ws: WebSocket, token: str | None) -> Identity | None:
    """A websocket's caller: its ``token``, or the session cookie of a same-origin page (no cross-site socket
    hijacking). A revoked session, an API token, or a token too long to be ours, is nobody (a spectator)."""
    platform: Platform = ws.app.state.platform
    who = await platform.accounts.authenticate(token) if token and len(token) <= MAX_TOKEN else None
    origin = ws.headers.get("origin", "")
    cookie = ws.cookies.get(SESSION_COOKIE)
    if who is None and cookie and origin.split("://")[-1] == ws.headers.get("host"):
        who = await platform.accounts.authenticate(cookie)
    return who


def address_of(conn: HTTPConnection) -> str:
    """The client's address: the peer's, or the one the trusted proxy in front says (uvicorn's proxy headers,
    docs/operations.md)."""
    return conn.client.host if conn.client is not None else "unknown"


def limited(rule_name: str) -> Any:
    """A route's dependency: one request through the rate limit ``rule_name`` (``capicua.service.limits``), per
    the client's address, or per its identity or account as the rule says (by address when nobody signed in),
    or ``429 too-fast`` with ``Retry-After``."""

    async def take(request: Request) -> None:
        platform = platform_of(request)
        rule = platform.limits.rules[rule_name]
        who = None if rule.by == "address" else await caller(request)
        await platform.limits.take(rule_name, who.id if who is not None else f"address:{address_of(request)}")

    setattr(take, ANSWERS, (429,))
    return Depends(take)


#: The caller of a route that acts for him: a guest or an account, never an API token.
Who = Annotated[Identity, Depends(current_identity)]
#: The caller of a route of the bot API (docs/bots.md): an API token counts too.
Playing = Annotated[Identity, Depends(playing_identity)]
#: The caller, if any, of a route that answers anybody (an API token reads as anybody).
Caller = Annotated[Identity | None, Depends(reader)]
PlatformDep = Annotated[Platform, Depends(platform_of)]
#: A route that touches the session cookie for anybody: only with the CSRF header (:func:`from_our_pages`).
FromOurPages = Depends(from_our_pages)
