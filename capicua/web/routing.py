"""Request bodies read strictly: JSON parsed by orjson, whatever FastAPI would have done.

orjson refuses NaN and Infinity, numbers too large for a double, unpaired surrogates and nesting
deeper than 1024; a body that is not UTF-8 is refused too. Each of those is a validation error
(``422 invalid``), never a server error or a body that cannot be written back in an error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import Request, Response
from fastapi.routing import APIRoute

__all__ = ["StrictJSONRequest", "StrictJSONRoute"]


class StrictJSONRequest(Request):
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
