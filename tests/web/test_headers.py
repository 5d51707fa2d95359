"""Every HTTP answer carries the security headers (issue 21): the Content-Security-Policy, nosniff, no framing,
the referrer kept to this site, the opener policy; HSTS only over https. The client's page, its files, the API's
JSON, its errors (404, 405, 422, a 500), /docs and /openapi.json alike."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from capicua.web.headers import POLICY

HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
}
HSTS = "max-age=31536000; includeSubDomains"


def directives(policy: str) -> dict[str, list[str]]:
    parts = [d.split() for d in policy.split(";") if d.strip()]
    return {p[0]: p[1:] for p in parts}


def answers(client: TestClient) -> dict[str, Any]:
    """One answer of every kind."""
    guest = client.post("/api/guests", json={"name": "Ana"}).json()
    return {
        "the page": client.get("/"),
        "a module": client.get("/static/js/main.js"),
        "a style sheet": client.get("/static/style.css"),
        "a font": client.get("/static/fonts/noto-sans-latin-400-normal.woff2"),
        "the API": client.get("/api/variants"),
        "a POST": client.post(
            "/api/tables", json={"variant": "dominousa"}, headers={"Authorization": f"Bearer {guest['token']}"}
        ),
        "a 401": client.post("/api/tables", json={"variant": "dominousa"}),
        "a 404": client.get("/api/tables/nonesuch"),
        "an unknown path": client.get("/nothing-here"),
        "a 405": client.delete("/api/variants"),
        "a 422": client.post("/api/guests", json={"name": 3}),
        "the docs": client.get("/docs"),
        "the docs' script": client.get("/static/docs.js"),
        "Swagger UI": client.get("/static/swagger/swagger-ui-bundle.js"),
        "the OpenAPI": client.get("/openapi.json"),
        "a CSV": client.get("/api/tournaments/nonesuch/standings.csv"),
    }


def test_the_policy_is_strict() -> None:
    d = directives(POLICY)
    assert d["default-src"] == d["script-src"] == d["style-src"] == d["connect-src"] == ["'self'"]
    assert d["object-src"] == d["base-uri"] == d["frame-ancestors"] == ["'none'"] and d["form-action"] == ["'self'"]
    assert d["img-src"] == ["'self'", "data:"]
    assert not any(word in POLICY for word in ("unsafe", "*", "http:", "https:", "blob:", "nonce-", "sha256-")), (
        "no inline script or style, no other origin"
    )


def test_every_kind_of_answer_carries_the_headers_and_no_hsts_over_http(client: TestClient) -> None:
    seen = answers(client)
    assert {k: r.status_code for k, r in seen.items()} == {
        "the page": 200,
        "a module": 200,
        "a style sheet": 200,
        "a font": 200,
        "the API": 200,
        "a POST": 201,
        "a 401": 401,
        "a 404": 404,
        "an unknown path": 404,
        "a 405": 405,
        "a 422": 422,
        "the docs": 200,
        "the docs' script": 200,
        "Swagger UI": 200,
        "the OpenAPI": 200,
        "a CSV": 404,
    }
    for kind, r in seen.items():
        assert r.headers.get("content-security-policy") == POLICY, kind
        assert {k: r.headers.get(k) for k in HEADERS} == HEADERS, kind
        assert "strict-transport-security" not in r.headers, kind
        assert len(r.headers.get_list("content-security-policy")) == 1, kind


def test_over_https_hsts_too(app: FastAPI) -> None:
    with TestClient(app, base_url="https://testserver") as client:
        for kind, r in answers(client).items():
            assert r.headers.get("strict-transport-security") == HSTS, kind
            assert r.headers.get("content-security-policy") == POLICY, kind


def test_the_docs_page_has_no_inline_script(client: TestClient) -> None:
    page = client.get("/docs").text
    assert '<script src="/static/swagger/swagger-ui-bundle.js"></script>' in page
    assert '<script src="/static/docs.js"></script>' in page
    assert page.count("<script") == 2 and "style=" not in page and "<style" not in page
    index = client.get("/").text
    assert index.count("<script") == 1 and '<script type="module" src="/static/js/main.js">' in index
    assert "style=" not in index and "<style" not in index


@pytest.fixture
def failing(app: FastAPI) -> Iterator[TestClient]:
    """A route that fails: Starlette's error middleware answers 500, outside every other middleware."""

    @app.get("/api/test-failure", include_in_schema=False)
    async def fail() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_a_500_carries_them_too(failing: TestClient) -> None:
    r = failing.get("/api/test-failure")
    assert r.status_code == 500
    assert r.headers.get("content-security-policy") == POLICY
    assert {k: r.headers.get(k) for k in HEADERS} == HEADERS


def test_a_websocket_is_untouched(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_json() == {"type": "welcome", "you": None}
