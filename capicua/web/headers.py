"""The security headers of every HTTP answer: a Content-Security-Policy and the rest (docs/operations.md,
"Security headers", says why each). A pure ASGI middleware, the app's outermost layer, so an error page
(404, 422, even a 500) carries them as the client's own files do.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["POLICY", "SecurityHeaders"]


#: Every answer's, the client's page, the API's JSON and /docs alike (Swagger UI, from the server's own files,
#: started by static/docs.js): scripts, style sheets, fonts and connections from this origin only (``'self'``
#: covers the websocket of the same host, ws: and wss:), no inline script and no inline style attribute (the
#: client sets styles through the CSSOM: static/js/dom.js); images from here or ``data:`` (the pages' empty
#: ``data:,`` icon, Swagger UI's icons); no plugin, no ``<base>``, forms sent here only, never in a frame.
POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

_ALWAYS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
_HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")


class SecurityHeaders:
    """Adds the headers to every HTTP answer that does not set its own of the same name; HSTS only over https
    (the scheme as uvicorn took it from the proxy's ``X-Forwarded-Proto``), as RFC 6797 says: a browser
    ignores it over plain http, and a server reached that way may have no https to hold it to."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [(b"content-security-policy", POLICY.encode()), *_ALWAYS]
        if scope.get("scheme") == "https":
            extra.append(_HSTS)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
