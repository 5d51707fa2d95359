"""Request bodies read strictly: JSON parsed by orjson, whatever FastAPI would have done.

orjson refuses NaN and Infinity, numbers too large for a double, unpaired surrogates and nesting
deeper than 1024; a body that is not UTF-8 is refused too. Each of those is a validation error
(``422 invalid``), never a server error or a body that cannot be written back in an error.

A body is at most :data:`MAX_BODY` bytes (a route that reads its own, an upload, sets its own limit with
:func:`read_body`): a longer one is ``413 too-large`` as soon as its ``Content-Length`` says so, before
anything is read, or as soon as the bytes streamed pass the limit (so a body without a length, or with a
false one, is never held whole). (FastAPI's own ``max_body_size`` answers a body announced too long in
plain text, outside the one error shape.)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import HTTPException, Request, Response
from fastapi.routing import APIRoute

__all__ = ["MAX_BODY", "StrictJSONRequest", "StrictJSONRoute", "read_body"]

#: Largest request body of the API, in bytes: the largest a request needs is a few kilobytes.
MAX_BODY = 64 * 1024


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, at most ``limit`` bytes: ``413`` (``too-large``) past it, checked on the
    ``Content-Length`` before reading and on the bytes as they come."""
    too_large = HTTPException(413, f"a body here is at most {limit} bytes")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


class StrictJSONRequest(Request):
    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            self._body = await read_body(self, MAX_BODY)
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                self._json = orjson.loads(body)
            except orjson.JSONDecodeError as exc:
                # FastAPI turns json.JSONDecodeError into a validation error naming the position.
                raise json.JSONDecodeError(str(exc).split(":")[0], body.decode("utf-8", "replace"), exc.pos) from None
        return self._json


class StrictJSONRoute(APIRoute):
    """An API route whose request body is read by :class:`StrictJSONRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict
