"""Every HTTP error in one shape, ``{"error": code, "message": text}``, and the one map from the
service's error codes to HTTP statuses. Validation errors add ``detail`` (each field's problem)."""

from __future__ import annotations

import math
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from capicua.rules.record import RecordError
from capicua.service.errors import CODES, ServiceError

__all__ = ["HTTP_CODES", "STATUS", "install"]

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
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "error")
        body = {"error": code, "message": str(exc.detail)}
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)
