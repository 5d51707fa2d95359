"""Fuzzing the edges: every websocket message kind and every HTTP route with what hypothesis makes up.

Whatever arrives, the answer is documented (an error frame or an HTTP error with one of the codes of
docs/protocol.md, in the one shape), the connection lives on, and nothing changes: the table's events
and every seat's view stay as they were, and no table or record appears.

The quick fuzzer, run everywhere; the slow ones, with about 100,000 inputs, are schemathesis against the OpenAPI
description (tests/web/test_openapi_fuzz.py) and a state machine of the websocket
(tests/web/test_protocol_stateful.py): docs/operations.md, "Fuzzing".
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from capicua.service.errors import CODES
from capicua.web.errors import HTTP_CODES
from capicua.web.protocol import CLIENT_MESSAGES
from tests.web.helpers import Conn, Harness, create_table, join

#: Every error code a client may be sent.
DOCUMENTED = set(CODES) | set(HTTP_CODES.values()) | {"malformed-json", "too-large", "unknown-type"}
FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# -- values -------------------------------------------------------------------------------------------------
texts = st.text(st.characters(codec=None), max_size=40)  # unpaired surrogates included
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4), max_leaves=8
)
moves = st.sampled_from(
    ["pass", "draw", "6-6", "6-6 L", "6-5 R", "1-0", "galo", "claim", "time", "0: pass", "ref(x): annul"]
)


def as_json(value: Any) -> str:
    return json.dumps(value, allow_nan=True)


# -- the websocket ------------------------------------------------------------------------------------------------
@pytest.fixture
def still_table(h: Harness) -> tuple[str, Conn, Conn]:
    """An individual match of two people waiting for its leader: the other seat (the fuzzer) may do nothing
    (individual play has no calls out of turn)."""
    ana, bia = h.guest("Ana"), h.guest("Bia")
    table_id = create_table(h.client, ana, variant="individual", players=2, move_seconds=600)["id"]
    join(h.client, ana, table_id, 0)
    join(h.client, bia, table_id, 1)
    assert h.client.post(f"/api/tables/{table_id}/start", headers=ana.headers).is_success
    match = h.table(table_id).match
    assert match is not None
    idle = 1 - match.hand.turn  # B2: the holder of the highest tile leads
    fuzzer = h.connect((ana, bia)[idle], "fuzzer", idle)
    anonymous = h.connect(None)
    return table_id, fuzzer, anonymous


def ws_messages(table_id: str) -> st.SearchStrategy[str]:
    fields = {
        "table": st.one_of(st.just(table_id), st.just("nosuch"), values),
        "last": st.one_of(st.integers(min_value=-5, max_value=10), values),
        "invite": values,
        "action": st.one_of(moves, values),
        "ref": values,
        "extra": values,
    }
    kinds = st.one_of(st.sampled_from(sorted(CLIENT_MESSAGES)), values)
    shaped = st.fixed_dictionaries({"type": kinds}, optional=fields).map(as_json)
    return st.one_of(shaped, shaped, values.map(as_json), texts)


def snapshot(h: Harness, table_id: str) -> tuple[int, dict[int | None, Any]]:
    table = h.table(table_id)

    def read() -> tuple[int, dict[int | None, Any]]:
        return table.n, {s: table.state_for(s)["hand"] for s in (0, 1, None)}

    assert h.client.portal is not None
    return h.client.portal.call(read)


def test_fuzz_every_websocket_message_kind(h: Harness, still_table: tuple[str, Conn, Conn]) -> None:
    table_id, *conns = still_table
    before = snapshot(h, table_id)
    pings = iter(range(10**9))

    @FUZZ
    @given(text=ws_messages(table_id), which=st.sampled_from([0, 1]))
    def one(text: str, which: int) -> None:
        conn = conns[which]
        since = len(conn.frames)
        conn.send_text(text)
        conn.ping(f"fuzz-{next(pings)}")  # still answering, and has said all it had to say
        for frame in conn.frames[since:-1]:
            if frame["type"] == "error":
                assert frame["code"] in DOCUMENTED and frame["message"], frame
            else:
                assert frame["type"] in ("pong", "state", "synced", "event"), frame
        assert snapshot(h, table_id) == before

    one()


# -- HTTP ---------------------------------------------------------------------------------------------------------
def routes(h: Harness) -> list[tuple[str, str]]:
    """Every route of the API, as its OpenAPI description lists them."""
    paths: dict[str, dict[str, Any]] = h.app.openapi()["paths"]
    return [(method.upper(), path) for path, ops in sorted(paths.items()) for method in sorted(ops)]


def test_every_api_route_is_fuzzed(h: Harness) -> None:
    """The routes the fuzzer knows are all of them (a new route is fuzzed too)."""
    paths = {path for _, path in routes(h)}
    assert {"/api/tables", "/api/tables/{table_id}/join", "/api/records/{record_id}", "/api/variants"} <= paths


def world(h: Harness) -> tuple[Any, ...]:
    """What a request could change: the tables (with their events) and the records."""
    platform = h.app.state.platform
    assert h.client.portal is not None

    async def read() -> tuple[Any, ...]:
        tables = sorted((t.id, t.n, t.status) for t in platform.tables.tables.values())
        records = [r.id for t in platform.tables.tables for r in await platform.store.records.of_table(t)]
        return tuple(tables), tuple(records)

    return h.client.portal.call(read)


def test_fuzz_every_http_route(h: Harness) -> None:
    ana = h.guest("Ana")
    table_id = create_table(h.client, ana, variant="dominousa", sit=True)["id"]
    ids = st.one_of(st.just(table_id), st.just("1"), st.just("9223372036854775808"), st.just("-1"), texts)
    bodies = st.one_of(st.none(), values.map(as_json), st.binary(max_size=40), st.just("[" * 3000))

    @FUZZ
    @given(
        route=st.sampled_from(routes(h)),
        param=ids,
        query=st.dictionaries(st.sampled_from(["invite", "x", "token"]), texts, max_size=2),
        body=bodies,
        token=st.sampled_from([ana.token, None, "forged"]),
    )
    def one(route: tuple[str, str], param: str, query: dict[str, str], body: Any, token: str | None) -> None:
        method, path = route
        quoted = urllib.parse.quote(param.encode("utf-8", "surrogatepass"), safe="")
        url = path.replace("{table_id}", quoted).replace("{record_id}", quoted).replace("{player_id}", quoted)
        headers = {"content-type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        content = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
        query = {k: v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for k, v in query.items()}
        before = world(h)
        r = h.client.request(method, url, params=query, content=content, headers=headers)
        assert r.status_code < 500, (method, url, content, r.status_code, r.text)
        if r.status_code >= 400:
            data = r.json()
            assert data["error"] in DOCUMENTED and data["message"], data
            assert world(h) == before, (method, url, content, data)

    one()
