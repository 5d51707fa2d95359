"""Every HTTP error in one shape, ``{"error": code, "message": text}``, and the one map from the
service's error codes to HTTP statuses. Validation errors add ``detail`` (each field's problem).

The OpenAPI description says it too: every operation lists the error statuses it may answer, each with the
one shape (:class:`ErrorOut`). A route declares its own (``responses=refusals(404, 409)``); those that
follow from what the route depends on are added to every operation by :func:`describe`: ``422`` where it
takes parameters or a body, ``413`` where it reads a body, ``401`` (and ``403`` for an API token) where it
needs a signed-in caller, ``429`` where it is rate-limited. ``tests/web/test_openapi_fuzz.py`` holds the
answers to the description.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Literal

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute

from capicua.rules.record import RecordError
from capicua.service.errors import CODES, ServiceError

__all__ = ["HTTP_CODES", "STATUS", "ErrorOut", "describe", "install", "refusals"]

#: The HTTP status of each service error code.
STATUS: dict[str, int] = {
    "invalid": 422,
    "unauthorized": 401,
    "forbidden": 403,
    "not-found": 404,
    "bad-variant": 422,
    "bad-options": 422,
    "bad-seat": 422,
    "full": 409,
    "taken": 409,
    "bad-username": 422,
    "wrong-password": 403,
    "api-token": 403,
    "started": 409,
    "seats-empty": 409,
    "not-finished": 409,
    "not-seated": 409,
    "not-playing": 409,
    "malformed": 422,
    "illegal": 422,
    "stale": 409,
    "unavailable": 503,
    "moved": 503,
    "elsewhere": 503,
    "unknown": 504,
    "accounts-only": 403,
    "not-paused": 409,
    "chat-closed": 409,
    "too-fast": 429,
    "reserved": 403,
    "one-match": 409,
    "no-referee": 409,
    "closed": 409,
    "registered": 409,
    "too-few": 409,
    "round-open": 409,
    "bad-pairing": 422,
    "playban": 403,
    "banned": 403,
    "muted": 403,
}
assert set(STATUS) == set(CODES), set(STATUS) ^ set(CODES)
#: The error code of a plain HTTP status (an unknown path, a wrong method…).
HTTP_CODES = {
    404: "not-found",
    405: "method-not-allowed",
    401: "unauthorized",
    403: "forbidden",
    413: "too-large",
    422: "invalid",
}

if TYPE_CHECKING:
    ErrorCode = str
else:  # every code an HTTP error may carry
    ErrorCode = Literal[tuple(sorted({*CODES, *HTTP_CODES.values()}))]


class ErrorDetail(BaseModel):
    """One field at fault (pydantic's error, with its ``input`` when it can be written back as JSON)."""

    loc: list[str | int]
    msg: str
    type: str
    input: Any = None


class ErrorOut(BaseModel):
    """Every HTTP error: a code a client translates, a message for people; ``detail`` lists every field at fault
    of a request that does not fit its schema; ``retry_after`` (429) says in how many seconds to try again."""

    error: ErrorCode
    message: str
    detail: list[ErrorDetail] | None = None
    retry_after: int | None = None


def _codes_of(status: int) -> str:
    """The codes an error of ``status`` may carry, for its description."""
    codes = {code for code, s in STATUS.items() if s == status}
    if status in HTTP_CODES:
        codes.add(HTTP_CODES[status])
    return "an error: " + ", ".join(sorted(codes))


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may answer these error statuses (each in the one shape)."""
    return {status: {"model": ErrorOut, "description": _codes_of(status)} for status in statuses}


#: A route dependency's marks: the error statuses it may answer (``deps.py`` marks its dependencies).
ANSWERS = "__capicua_answers__"


def _dependencies(route: APIRoute) -> Iterator[Callable[..., Any]]:
    stack = list(route.dependant.dependencies)
    while stack:
        dependant = stack.pop()
        if dependant.call is not None:
            yield dependant.call
        stack.extend(dependant.dependencies)


def _implied(route: APIRoute, operation: dict[str, Any]) -> set[int]:
    """The error statuses that follow from what ``route`` takes and depends on."""
    statuses: set[int] = set()
    if operation.get("parameters") or operation.get("requestBody"):
        statuses.add(422)
    if operation.get("requestBody"):
        statuses.add(413)
    for call in _dependencies(route):
        statuses |= set(getattr(call, ANSWERS, ()))
    return statuses


def _flat(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route, those of the included routers too (FastAPI keeps an included router as one route that
    holds the router: ``original_router``)."""
    for route in routes:
        router = getattr(route, "original_router", None)
        if router is not None:
            yield from _flat(router.routes)
        else:
            yield route


def describe(routes: list[BaseRoute], document: dict[str, Any]) -> None:
    """Every operation of ``document`` (the app's OpenAPI description) with the error statuses its route may
    answer, each in the one shape; FastAPI's own ``422`` (a shape we do not send) replaced."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    shape = ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(shape.pop("$defs", {}))
    schemas["ErrorOut"] = shape
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    for route in _flat(routes):
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        for method in route.methods or ():
            operation = document["paths"].get(route.path_format, {}).get(method.lower())
            if operation is None:
                continue
            answers = operation.setdefault("responses", {})
            declared = {int(s) for s in answers if s.isdigit() and int(s) >= 400}
            for status in sorted(declared | _implied(route, operation)):
                answers[str(status)] = {
                    "description": _codes_of(status),
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
                }


def _echoable(value: Any) -> bool:
    """Whether ``value`` can be written back as JSON: no NaN or infinities, no unpaired surrogates,
    no integer beyond 64 bits, not nested too deep."""
    if isinstance(value, float) and not math.isfinite(value):
        return False
    try:
        orjson.dumps(value)
    except (TypeError, orjson.JSONEncodeError):
        return False
    return True


def _detail(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pydantic's errors, with the input and context they echo kept only where they can be written."""
    out = []
    for error in errors:
        item = {"loc": list(error.get("loc", ())), "msg": str(error.get("msg", "")), "type": str(error.get("type"))}
        if "input" in error and _echoable(error["input"]):
            item["input"] = error["input"]
        out.append(item)
    return out


def install(app: FastAPI) -> None:
    """The exception handlers that give every error its shape."""

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        body: dict[str, Any] = {"error": exc.code, "message": exc.message}
        headers = None
        if exc.seconds is not None:  # 429, a playban: when to try again, in the header and in the body
            body["retry_after"] = exc.seconds
            headers = {"Retry-After": str(exc.seconds)}
        return JSONResponse(body, status_code=STATUS[exc.code], headers=headers)

    @app.exception_handler(RecordError)
    async def record_error(_request: Request, exc: RecordError) -> JSONResponse:
        # Whatever is wrong with a record (an upload, a record read back), said once: the step that failed.
        return JSONResponse({"error": "invalid", "message": f"the record does not replay: {exc}"}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = _detail(list(exc.errors()))
        first = errors[0] if errors else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid request"))
        return JSONResponse({"error": "invalid", "message": message, "detail": errors}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "error")
        body = {"error": code, "message": str(exc.detail)}
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of the path, not only those of the first route that has it
            headers["Allow"] = ", ".join(_methods(request.app.router.routes, request.scope))
        return JSONResponse(body, status_code=exc.status_code, headers=headers)


def _methods(routes: list[BaseRoute], scope: Any) -> list[str]:
    """The methods the routes of the request's path take (HEAD with GET, as Starlette answers it)."""
    methods: set[str] = set()
    for route in _flat(routes):
        path_regex, route_methods = getattr(route, "path_regex", None), getattr(route, "methods", None)
        if path_regex is not None and route_methods and path_regex.match(scope["path"]):
            methods |= set(route_methods)
    return sorted(methods)
