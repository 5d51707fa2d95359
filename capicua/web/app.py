"""The ASGI app: HTTP API (described by OpenAPI at ``/docs``), one websocket, static files.

A thin layer: every handler calls the table service; no rule or persistence
logic lives here. The websocket messages are documented in ``docs/protocol.md``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path

from capicua.bots.arena import make_bot
from capicua.rules.record import replay_steps
from capicua.service.accounts import AccountError, Accounts
from capicua.service.identity import GuestIdentities, Identity
from capicua.service.store import Store
from capicua.service.tables import Subscriber, TableConfig, TableError, TableService
from capicua.web.outbox import Outbox

__all__ = ["create_app"]

log = logging.getLogger("capicua.web")
STATIC = Path(__file__).parent / "static"
#: Largest websocket message a client may send (an action is a few dozen bytes).
MAX_MESSAGE = 4096
#: Frames a connection may have waiting to be written before it is closed as too slow.
OUTBOX_FRAMES = 256

STATUS = {
    "not-found": 404,
    "forbidden": 403,
    "bad-variant": 422,
    "bad-options": 422,
    "bad-seat": 422,
    "full": 409,
    "taken": 409,
    "started": 409,
    "seats-empty": 409,
    "not-finished": 409,
    "not-seated": 409,
    "not-playing": 409,
    "illegal": 422,
    "malformed": 422,
    "unavailable": 503,
    "unauthorized": 401,
    "invalid": 422,
}
#: The error code of a plain HTTP status (an unknown path, a wrong method…).
HTTP_CODES = {404: "not-found", 405: "method-not-allowed", 401: "unauthorized", 403: "forbidden", 422: "invalid"}


BotLevel = Literal["random", "greedy", "expert"]


class GuestIn(BaseModel):
    name: str | None = Field(default=None, max_length=32, description="Shown at tables; generated if absent")


class GuestOut(BaseModel):
    id: str
    name: str
    token: str = Field(description="Send as `Authorization: Bearer <token>` and as the websocket's `token`")


class TableIn(BaseModel):
    variant: Literal["amazonense", "individual", "dominousa"]
    players: int | None = Field(default=None, ge=2, le=4, description="Individual: 2, 3 or 4")
    target: int | None = Field(default=None, ge=1, le=1000, description="Points to win (default per game)")
    strict: bool = Field(default=False, description="Dominousa strict mode (C9)")
    move_seconds: int = Field(default=40, ge=5, le=600, description="Move clock (A10)")
    match_minutes: int | None = Field(default=None, ge=1, le=600, description="Dominousa match clock (C5)")
    lead: Literal["highest", "winner"] | None = Field(default=None, description="Individual lead rule (B2)")
    private: bool = Field(default=False, description="Private tables are joined by invite link")
    bots_after: float | None = Field(
        default=None, ge=0, le=600, description="Fill empty seats with bots and start after this many seconds"
    )
    bot: BotLevel = Field(default="greedy", description="Bot level for empty seats")
    sit: bool = Field(default=False, description="Seat the creator at the first free seat at once")


class SignUpIn(BaseModel):
    username: str = Field(min_length=3, max_length=24, pattern=r"^[A-Za-z0-9_.-]+$")
    password: str = Field(min_length=8, max_length=200)
    name: str | None = Field(default=None, max_length=32)


class LogInIn(BaseModel):
    username: str = Field(max_length=24)
    password: str = Field(max_length=200)


class JoinIn(BaseModel):
    seat: int | None = None
    invite: str | None = None


class BotsIn(BaseModel):
    level: BotLevel = "greedy"


SESSION_COOKIE = "capicua_session"
#: Requests authenticated by the session cookie must carry this header: a cross-site form cannot send it
#: (that would need a CORS preflight, which the server never grants), so cookies cannot be ridden (CSRF).
CSRF_HEADER = "x-requested-with"


def caller(request: Request) -> Identity | None:
    """The caller: ``Authorization: Bearer <token>``, or the session cookie with the CSRF header."""
    identities = request.app.state.identities
    authorization = request.headers.get("authorization", "")
    if authorization.startswith("Bearer "):
        who = identities.authenticate(authorization.removeprefix("Bearer ").strip())
        return who if isinstance(who, Identity) else None
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie and request.headers.get(CSRF_HEADER) == "capicua":
        who = identities.authenticate(cookie)
        return who if isinstance(who, Identity) else None
    return None


def current_identity(request: Request) -> Identity:
    who = caller(request)
    if who is None:
        raise TableError(
            "unauthorized", "sign in, or send a guest token: Authorization: Bearer <token> (POST /api/guests)"
        )
    return who


Who = Annotated[Identity, Depends(current_identity)]


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def create_app(store: Store, secret: str, config: TableConfig | None = None) -> FastAPI:
    """The platform's ASGI app on ``store``; ``secret`` signs guest tokens."""
    service = TableService(store, config)
    identities = GuestIdentities(secret)
    accounts = Accounts(store, identities)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        await service.load()
        # The cyclic garbage collector stops the event loop while it runs: a full collection walks every
        # live container (hundreds of thousands with 500 tables: 50-100 ms here). What exists now (modules,
        # the app, the loaded tables) lives as long as the server, so it is frozen out of the walks; and a
        # full collection comes after 100 middle ones instead of 10 (every half minute rather than every few
        # seconds at 1,600 actions a second). Measured with bench/server.py.
        # Twice: a tuple is untracked only once the tuples inside it are, and frozen objects stay as they are.
        gc.collect()
        gc.collect()
        gc.freeze()
        gen0, gen1, _ = gc.get_threshold()
        gc.set_threshold(gen0, gen1, 100)
        yield
        await service.aclose()
        await store.close()

    app = FastAPI(
        title="capicua",
        version="0.1.0",
        description="Dominoes the way Brazil and Latin America play. Live play goes over the websocket "
        "`/ws` (see docs/protocol.md).",
        lifespan=lifespan,
        docs_url=None,  # served below from the server itself: no CDN
        redoc_url=None,
    )
    app.state.service = service
    app.state.identities = identities

    # Every HTTP error has one shape: {"error": code, "message": text} (validation adds "detail").
    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"error": exc.code, "message": exc.message}, status_code=STATUS.get(exc.code, 400))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = jsonable_encoder(exc.errors())
        first = errors[0] if errors else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid request"))
        return JSONResponse({"error": "invalid", "message": message, "detail": errors}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "error")
        body = {"error": code, "message": str(exc.detail)}
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    @app.post("/api/guests", response_model=GuestOut, tags=["identity"])
    async def new_guest(body: GuestIn | None = None) -> GuestOut:
        """Play as a guest: a generated name (or yours) and a signed token."""
        who, token = identities.new_guest(body.name if body else None)
        return GuestOut(id=who.id, name=who.name, token=token)

    def signed_in(response: Response, request: Request, who: Identity, token: str) -> dict[str, Any]:
        response.set_cookie(
            SESSION_COOKIE,
            token,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            max_age=60 * 60 * 24 * 30,
        )
        return {"id": who.id, "name": who.name, "guest": who.guest, "token": token}

    @app.post("/api/accounts", tags=["identity"], status_code=201)
    async def sign_up(body: SignUpIn, request: Request, response: Response) -> dict[str, Any]:
        """Create an account; a guest (by his token) keeps his identity and his matches."""
        try:
            who, token = await accounts.sign_up(body.username, body.password, body.name, caller(request))
        except AccountError as exc:
            raise TableError("taken" if exc.code == "taken" else "invalid", exc.message) from None
        return signed_in(response, request, who, token)

    @app.post("/api/login", tags=["identity"])
    async def log_in(body: LogInIn, request: Request, response: Response) -> dict[str, Any]:
        try:
            who, token = await accounts.log_in(body.username, body.password)
        except AccountError as exc:
            raise TableError("unauthorized", exc.message) from None
        return signed_in(response, request, who, token)

    @app.post("/api/logout", tags=["identity"])
    async def log_out(response: Response) -> dict[str, Any]:
        response.delete_cookie(SESSION_COOKIE)
        return {"ok": True}

    @app.get("/api/me", tags=["identity"])
    async def me(who: Who) -> dict[str, Any]:
        return {"id": who.id, "name": who.name, "guest": who.guest}

    @app.get("/api/players/{player_id}/matches", tags=["records"])
    async def player_matches(player_id: str) -> list[dict[str, Any]]:
        """A player's finished matches, newest first (his profile's match history)."""
        rows = await store.records_of(player_id)
        return [
            {
                "id": r.id,
                "table": r.table_id,
                "variant": r.variant,
                "players": r.players,
                "seat": seat,
                "winner": r.winner,
                "finished_at": r.finished_at.isoformat(),
            }
            for r, seat in rows
        ]

    @app.get("/api/tables", tags=["tables"])
    async def list_tables() -> list[dict[str, Any]]:
        """Public tables that are open or in play."""
        return [t.summary() for t in service.open_tables()]

    @app.post("/api/tables", tags=["tables"], status_code=201)
    async def create_table(body: TableIn, who: Who) -> dict[str, Any]:
        """Create a table; with `sit` you take the first seat at once (before any bots arrive)."""
        options: dict[str, Any] = {"move_seconds": body.move_seconds}
        if body.target is not None:
            options["target"] = body.target
        if body.variant == "dominousa":
            options["strict"] = body.strict
            if body.match_minutes is not None:
                options["match_minutes"] = body.match_minutes
        elif body.strict:
            raise TableError("bad-options", "strict mode is a Dominousa option (C9)")
        if body.lead is not None:
            if body.variant != "individual":
                raise TableError("bad-options", "the lead rule is an individual option (B2)")
            options["lead"] = body.lead
        if body.bots_after is not None:
            try:
                make_bot(body.bot)  # check the level before the table exists
            except ValueError as exc:
                raise TableError("bad-options", str(exc)) from None
        table = await service.create(who, body.variant, body.players, options, body.private)
        if body.sit:
            await table.join(who, None, table.invite)
        if body.bots_after is not None:
            table.schedule_bots_after(body.bots_after, body.bot)
        return table.summary(with_invite=True)

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str, invite: str | None = None) -> dict[str, Any]:
        table = await service.fetch(table_id)
        if table.private and invite != table.invite:
            raise TableError("forbidden", "this table is private: you need its invite link")
        return table.summary()

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join(table_id: str, body: JoinIn, who: Who) -> dict[str, Any]:
        seat = await (await service.fetch(table_id)).join(who, body.seat, body.invite)
        return {"seat": seat}

    @app.post("/api/tables/{table_id}/leave", tags=["tables"])
    async def leave(table_id: str, who: Who) -> dict[str, Any]:
        await (await service.fetch(table_id)).leave(who)
        return {"ok": True}

    @app.post("/api/tables/{table_id}/bots", tags=["tables"])
    async def bots(table_id: str, body: BotsIn, who: Who) -> dict[str, Any]:
        try:
            await (await service.fetch(table_id)).fill_bots(who, body.level)
        except ValueError as exc:
            raise TableError("bad-options", str(exc)) from None
        return service.get(table_id).summary()

    @app.post("/api/tables/{table_id}/start", tags=["tables"])
    async def start(table_id: str, who: Who) -> dict[str, Any]:
        table = await service.fetch(table_id)
        await table.start(who)
        return table.summary()

    @app.post("/api/tables/{table_id}/rematch", tags=["tables"])
    async def rematch(table_id: str, who: Who) -> dict[str, Any]:
        table = await service.fetch(table_id)
        await table.rematch(who)
        return table.summary()

    @app.get("/api/tables/{table_id}/records", tags=["records"])
    async def table_records(table_id: str, invite: str | None = None) -> list[dict[str, Any]]:
        """The finished matches of a table."""
        table = await service.fetch(table_id)
        if table.private and invite != table.invite:
            raise TableError("forbidden", "this table is private: you need its invite link")
        rows = await store.records(table_id)
        return [
            {"id": r.id, "match": r.match_no, "variant": r.variant, "players": r.players, "winner": r.winner}
            for r in rows
        ]

    @app.get("/api/records/{record_id}", tags=["records"])
    async def record_file(record_id: int) -> Response:
        """A finished match as a `capicua-record/1` file (`capicua replay` reads it)."""
        row = await store.record(record_id)
        if row is None:
            raise TableError("not-found", f"no record {record_id}")
        return Response(
            json.dumps(row.record, ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="capicua-{row.table_id}-{row.match_no}.json"'},
        )

    @app.get("/api/records/{record_id}/steps", tags=["records"])
    async def record_steps(record_id: int) -> dict[str, Any]:
        """A finished match step by step, for the replay viewer: after each action, the table, every
        hand (the match is over: all of them are shown), the scores and the totals."""
        row = await store.record(record_id)
        if row is None:
            raise TableError("not-found", f"no record {record_id}")
        return replay_steps(row.record)

    @app.websocket("/ws")
    async def socket(ws: WebSocket, token: Annotated[str | None, Query()] = None) -> None:
        await ws.accept()
        who = identities.authenticate(token) if token else None
        origin = ws.headers.get("origin", "")
        cookie = ws.cookies.get(SESSION_COOKIE)
        if who is None and cookie and origin.split("://")[-1] == ws.headers.get("host"):
            who = identities.authenticate(cookie)  # same-origin pages only: no cross-site socket hijacking
        subs: dict[str, Subscriber] = {}
        outbox = Outbox(ws.send_text, lambda code, reason: ws.close(code=code, reason=reason), OUTBOX_FRAMES)
        send = outbox.send

        async def error(code: str, message: str, ref: Any = None) -> None:
            await send({"type": "error", "code": code, "message": message, "ref": ref})

        await send({"type": "welcome", "you": None if who is None else {"id": who.id, "name": who.name}})
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:  # a binary frame
                    await error("malformed-json", "send one JSON object per text message")
                    continue
                if len(text) > MAX_MESSAGE or len(text.encode()) > MAX_MESSAGE:
                    await error("too-large", f"messages are at most {MAX_MESSAGE} bytes")
                    continue
                try:
                    msg = json.loads(text, parse_constant=_no_constants)
                except (ValueError, RecursionError):  # RecursionError: deeply nested arrays
                    await error("malformed-json", "send one JSON object per message")
                    continue
                if not isinstance(msg, dict):
                    await error("malformed-json", "send one JSON object per message")
                    continue
                ref = msg.get("ref")
                kind = msg.get("type")
                try:
                    if kind == "ping":
                        await send({"type": "pong", "ref": ref})
                    elif kind == "subscribe":
                        table = await service.fetch(str(msg.get("table")))
                        if table.private and msg.get("invite") != table.invite and table.seat_of(who) is None:
                            raise TableError("forbidden", "this table is private: you need its invite link")
                        last = msg.get("last")
                        if last is not None and not isinstance(last, int):
                            raise TableError("malformed", "last must be an event number")
                        old = subs.pop(table.id, None)
                        if old is not None:
                            table.unsubscribe(old)
                        sub = Subscriber(who, table.seat_of(who), send)
                        subs[table.id] = sub
                        await table.subscribe(sub, last)
                    elif kind == "unsubscribe":
                        old = subs.pop(str(msg.get("table")), None)
                        if old is not None:
                            service.get(str(msg.get("table"))).unsubscribe(old)
                    elif kind == "action":
                        if who is None:
                            raise TableError("forbidden", "connect with a token to play")
                        action = msg.get("action")
                        if not isinstance(action, str):
                            raise TableError("malformed", "action must be a move in record notation, e.g. '6-4 W'")
                        table = await service.fetch(str(msg.get("table")))
                        n = await table.act(who, action)
                        with contextlib.suppress(Exception):  # the client may have gone: the action stands
                            await send({"type": "ack", "ref": ref, "n": n})
                    else:
                        await error("unknown-type", f"unknown message type {kind!r}", ref)
                except TableError as exc:
                    await error(exc.code, exc.message, ref)
        except (WebSocketDisconnect, ConnectionError):
            pass
        finally:
            for table_id, sub in subs.items():
                with contextlib.suppress(TableError):
                    service.get(table_id).unsubscribe(sub)
            await outbox.aclose()

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="capicua API",
            swagger_js_url="/static/swagger/swagger-ui-bundle.js",
            swagger_css_url="/static/swagger/swagger-ui.css",
            swagger_favicon_url="data:,",
        )

    app.mount("/static/swagger", StaticFiles(directory=swagger_ui_path), name="swagger")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
