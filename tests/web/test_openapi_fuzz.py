"""Schemathesis against the app's own OpenAPI description (``/openapi.json``): every operation gets generated
requests, valid and not, and every answer must be what the description promises.

The checks are schemathesis's: no ``5xx``; a status the operation documents; its content type; a body that
matches the documented schema (every error in the one shape, ``ErrorOut``, with a documented code); headers;
an invalid request refused; ``405`` with an ``Allow`` that lists the path's methods. Its ``positive data
acceptance`` (a request that fits the schema is never ``4xx`` but for credentials or conflicts) is replaced by
a narrower one (:func:`refused_only_for_unwritten_rules`): the description cannot say every rule (a username of
one alphabet, a Dominousa table of four, a tile the seat holds, ``1.0`` where an integer is wanted), so a
request that fits it may be refused, but only for one of those, never for a rule the schema could have said.

Requests go to the app in-process: a ``requests`` adapter hands each one to the ASGI app in the test client's
event loop (one call through its portal, no socket), the app whose lifespan the test client runs. Credentials
are drawn per request: a guest's token, an account's, none, a forged one. A stateful run follows the links
added to the description below (a table created, then read, joined, started…; a tournament, its teams…).

``CAPICUA_FUZZ_SCALE`` multiplies the examples (``tests/web/fuzzing.py``). Failures found are kept as
``@example``s of ``tests/web/test_bad_input_found.py`` style tests at the end of this file.
"""

from __future__ import annotations

import contextlib
import copy
import io
import itertools
import time
import urllib.parse
import zlib
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
import requests
import requests.adapters
import schemathesis
import urllib3
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.generation.stateful import run_state_machine_as_test

from capicua.service.errors import CODES
from capicua.service.platform import Platform
from capicua.service.store import Store, default_url
from capicua.service.tables import TableConfig
from capicua.web.app import create_app
from capicua.web.errors import HTTP_CODES
from tests.web.fuzzing import record, scaled

pytestmark = pytest.mark.slow

#: The NDJSON streams of the bot API never end while the bot plays: fuzzed as requests that are refused
#: (a guest is no bot account) in tests/web/test_fuzz.py, not here, where an answer must end.
STREAMS = r"^/api/bot/(stream/event|tables/\{table_id\}/stream)$"
BASE = "http://testserver"


def new_app(data: Path) -> FastAPI:
    """The app on a store of its own, limits off. Its bots wait an hour before each move: the tables the fuzzer
    fills with bots stay as they are instead of playing whole matches beside the test (the requests are what
    is fuzzed here; tests/web/test_protocol_stateful.py plays)."""
    config = TableConfig(bot_delay=3600, bot_workers=0, call_grace=0)
    return create_app(Platform(Store(default_url(data)), "test-secret", config, limits=False))


# -- the description, with links for the stateful run ------------------------------------------------------
def _operation_ids(document: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {(m.upper(), p): op["operationId"] for p, ops in document["paths"].items() for m, op in ops.items()}


#: (source operation, its status) -> [(target operation, {target parameter: runtime expression})]
LINKS: dict[tuple[str, str, str], list[tuple[str, str, dict[str, str]]]] = {
    ("POST", "/api/tables", "201"): [
        (m, f"/api/tables/{{table_id}}{tail}", {"table_id": "$response.body#/id"})
        for m, tail in [
            ("GET", ""),
            ("POST", "/join"),
            ("POST", "/leave"),
            ("POST", "/bots"),
            ("POST", "/start"),
            ("POST", "/resign"),
            ("POST", "/rematch"),
            ("GET", "/referee"),
            ("POST", "/referee"),
            ("GET", "/records"),
            ("POST", "/invite"),
        ]
    ],
    ("POST", "/api/tournaments", "201"): [
        (m, f"/api/tournaments/{{tournament_id}}{tail}", {"tournament_id": "$response.body#/id"})
        for m, tail in [
            ("GET", ""),
            ("PATCH", ""),
            ("POST", "/teams"),
            ("POST", "/start"),
            ("POST", "/rounds"),
            ("POST", "/forbidden"),
            ("GET", "/standings.json"),
            ("GET", "/standings.csv"),
        ]
    ],
    ("POST", "/api/tournaments/{tournament_id}/teams", "201"): [
        (
            "POST",
            f"/api/tournaments/{{tournament_id}}/teams/{{team}}/{verb}",
            {"tournament_id": "$request.path.tournament_id", "team": "$response.body#/team"},
        )
        for verb in ("accept", "withdraw")
    ],
    ("POST", "/api/me/tokens", "201"): [("DELETE", "/api/me/tokens/{token_id}", {"token_id": "$response.body#/id"})],
    ("POST", "/api/quickplay", "200"): [
        (m, "/api/quickplay/{ticket}", {"ticket": "$response.body#/ticket"}) for m in ("GET", "DELETE")
    ],
    ("POST", "/api/analysis", "202"): [
        ("GET", f"/api/analysis/{{key}}{tail}", {"key": "$response.body#/key"}) for tail in ("", "/steps")
    ],
}


def document() -> dict[str, Any]:
    """The description the app serves (from an app never started: it needs no store), with :data:`LINKS`."""
    doc = copy.deepcopy(new_app(Path("/nonexistent")).openapi())
    ids = _operation_ids(doc)
    for (method, path, status), targets in LINKS.items():
        response = doc["paths"][path][method.lower()]["responses"][status]
        links = response.setdefault("links", {})
        for target_method, target_path, parameters in targets:
            links[f"{target_method} {target_path}"] = {
                "operationId": ids[(target_method, target_path)],
                "parameters": parameters,
            }
    return doc


#: Every code an HTTP error may carry.
DOCUMENTED = set(CODES) | set(HTTP_CODES.values())
#: The pydantic error types of rules the JSON Schema cannot write: a custom validator's (a name's control
#: characters, a date written other than YYYY-MM-DD, a moment out of the years 1-9999 in UTC), and an integer
#: sent as a float (JSON Schema's integer is any number with no fraction: ``1.0`` fits it; the models, strict,
#: take only ``1``).
UNWRITTEN = {"value_error", "moment_range"}


def refused_only_for_unwritten_rules(ctx: Any, response: Any, case: Any) -> None:
    """A request generated to fit the schema may be refused with ``422`` only for a rule the schema cannot
    write (:data:`UNWRITTEN`; or a code of the service's own rules, ``bad-options``, ``bad-username``…, or an
    ``invalid`` the service raises itself, naming no field), never because the schema and the models disagree
    (a length, a pattern, a range, a field the body does not have)."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return
    body = response.json()
    for detail in body.get("detail") or []:
        if detail["type"] in UNWRITTEN:
            continue
        if detail["type"] == "int_type" and isinstance(detail.get("input"), float) and detail["input"].is_integer():
            continue
        raise AssertionError(f"a request that fits the schema refused for a rule it could say: {detail}")


CONFIG = schemathesis.Config.from_dict(
    {
        "base-url": BASE,
        "checks": {
            "positive_data_acceptance": {"enabled": False},  # replaced, see refused_only_for_unwritten_rules
        },
        "operations": [
            {
                # A player waits with one ticket: a new join replaces the one he had (docs/protocol.md), so a
                # ticket made two joins ago is rightly gone, which this check takes for a resource lost.
                "include-path-regex": r"^/api/quickplay/\{ticket\}$",
                "checks": {"ensure_resource_availability": {"enabled": False}},
            },
            {
                # Its 404 may be the bot account named in the body (``no bot account '0'``), not the table.
                "include-path-regex": r"^/api/tables/\{table_id\}/invite$",
                "checks": {"ensure_resource_availability": {"enabled": False}},
            },
            {
                # Their 404 may be the account named (a team's ``partner``: ``no account '𝔙êè'``; a referee's or
                # a helper's username in the path), not the tournament just created.
                "include-path-regex": r"^/api/tournaments/\{tournament_id\}/"
                r"(teams|referees/\{username\}|helpers/\{username\})$",
                "checks": {"ensure_resource_availability": {"enabled": False}},
            },
        ],
    }
)
SCHEMA = schemathesis.openapi.from_dict(document(), config=CONFIG).exclude(path_regex=STREAMS)


# -- the app in-process ------------------------------------------------------------------------------------
class InProcess(requests.adapters.HTTPAdapter):
    """``requests`` to the ASGI app, run in the event loop of the test client that started its lifespan: one
    portal call a request (no socket; the test client itself makes several)."""

    def __init__(self, app: FastAPI, portal: Any) -> None:
        super().__init__()
        self.app, self.portal = app, portal
        self.sent = 0

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> requests.Response:
        assert request.url is not None and request.method is not None
        parts = urllib.parse.urlsplit(request.url)
        body = request.body or b""
        content = body.encode() if isinstance(body, str) else body
        headers = [(b"host", b"testserver")]
        headers += [(_latin1(k).lower(), _latin1(v)) for k, v in request.headers.items()]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request.method,
            "scheme": "http",
            "path": urllib.parse.unquote(parts.path),
            "raw_path": parts.path.encode(),
            "root_path": "",
            "query_string": parts.query.encode(),
            "headers": headers,
            "client": ("testclient", 50000),
            "server": ("testserver", 80),
        }
        self.sent += 1
        status, answer_headers, answer = self.portal.call(self._run, scope, content)
        raw = urllib3.HTTPResponse(
            body=io.BytesIO(answer), headers=answer_headers, status=status, preload_content=False, version=11
        )
        return self.build_response(request, raw)

    async def _run(self, scope: dict[str, Any], body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        done = anyio.Event()
        start: dict[str, Any] = {}
        chunks: list[bytes] = []
        asked = False

        async def receive() -> dict[str, Any]:
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    done.set()

        with anyio.fail_after(30):
            await self.app(scope, receive, send)
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in start.get("headers", [])]
        return start["status"], headers, b"".join(chunks)


def _latin1(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("latin-1")


@dataclass
class Api:
    """The running app, a session that reaches it, and the credentials a request may carry."""

    client: TestClient
    session: requests.Session
    adapter: InProcess
    tokens: dict[str, str | None] = field(default_factory=dict)
    account: tuple[str, str] = ("fuzzer", "fuzzer password")

    def headers(self, who: str) -> dict[str, str]:
        token = self.tokens[who]
        return {} if token is None else {"Authorization": f"Bearer {token}"}

    def renew(self, response: Any, who: str) -> None:
        """The fuzzer may end the account's sessions (``DELETE /api/me/sessions``) or change its password: sign
        in again, so that the requests after it are not all ``401``."""
        if who == "account" and response.status_code == 401:
            username, password = self.account
            r = self.client.post("/api/login", json={"username": username, "password": password})
            if r.status_code == 200:
                self.tokens["account"] = r.json()["token"]


CREDENTIALS = ["guest", "account", "none", "forged"]


@contextlib.contextmanager
def running(data: Path) -> Iterator[Api]:
    """The app on a fresh store in ``data``, running, with a guest and an account signed in."""
    app = new_app(data)
    with TestClient(app) as client:
        assert client.portal is not None
        adapter = InProcess(app, client.portal)
        session = requests.Session()
        session.mount(BASE, adapter)
        guest = client.post("/api/guests", json={"name": "Fuzz"}).json()["token"]
        api = Api(client, session, adapter)
        username, password = api.account
        r = client.post("/api/accounts", json={"username": username, "password": password})
        assert r.status_code == 201, r.text
        api.tokens = {"guest": guest, "account": r.json()["token"], "none": None, "forged": "forged.token"}
        yield api


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    with running(tmp_path_factory.mktemp("openapi-fuzz")) as api:
        yield api


#: Examples per operation (schemathesis's fuzzing phase; its examples and coverage phases come on top).
EXAMPLES = scaled(120)


def credentials(case: Any) -> str:
    """Whose credentials a request carries: drawn from the request itself, so that replaying it (a failure's
    example, shrinking) sends the same ones. (``SCHEMA.given`` would draw them, but turns off schemathesis's
    coverage phase, its boundary values.)"""
    return CREDENTIALS[zlib.crc32(repr((case.path_parameters, case.query, case.body)).encode()) % len(CREDENTIALS)]


@SCHEMA.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same requests every run: CI fails on what a developer can replay
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_every_operation(case: Any, api: Api) -> None:
    who = credentials(case)
    response = case.call_and_validate(
        session=api.session, headers=api.headers(who), additional_checks=[refused_only_for_unwritten_rules]
    )
    api.renew(response, who)
    if response.status_code >= 400:  # every error in the one shape, with a documented code
        data = response.json()
        assert data["error"] in DOCUMENTED and data["message"], data


@pytest.fixture(autouse=True)
def _count(api: Api, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test's requests, counted as sent (the checks' own extra requests included), and its share asserted."""
    before, start = api.adapter.sent, time.perf_counter()
    yield
    sent = api.adapter.sent - before
    name = f"{request.node.module.__name__}::{request.node.name}"
    record(tmp_path_factory, name, "http", sent, time.perf_counter() - start)
    assert sent >= 1, f"{request.node.name}: no request sent"


# -- stateful: links between operations --------------------------------------------------------------------
STEPS = scaled(1500)


def test_stateful_links(api: Api, tmp_path: Path) -> None:
    """Random walks through the links: a table created then joined, started, resigned…; a tournament, its
    teams accepted…; a token revoked; a ticket asked about. Every answer checked as above. Each walk starts on
    an app of its own: what earlier walks left in the store would change which links can be followed, and
    hypothesis, replaying a walk, would find it drawing differently (FlakyStrategyDefinition)."""
    base = SCHEMA.as_state_machine()
    walks = itertools.count()
    sent = [0]

    class Walk(base):  # type: ignore[misc,valid-type]
        """Every step as the account (a resource created is then asked for by its owner: schemathesis checks
        that what was created is found, and what was deleted is gone)."""

        def setup(self) -> None:
            data = tmp_path / f"walk-{next(walks)}"
            data.mkdir()
            self.stack = contextlib.ExitStack()
            self.api = self.stack.enter_context(running(data))

        def teardown(self) -> None:
            sent[0] += self.api.adapter.sent
            self.stack.close()

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"session": self.api.session, "headers": self.api.headers("account")}

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            self.api.renew(response, "account")
            super().validate_response(response, case, additional_checks=[refused_only_for_unwritten_rules], **kwargs)

    before = api.adapter.sent
    run_state_machine_as_test(
        Walk,
        settings=settings(
            max_examples=max(1, STEPS // 30),  # each walk on an app of its own: fewer, longer walks
            stateful_step_count=30,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        ),
    )
    api.adapter.sent += sent[0]  # counted with this module's requests (the _count fixture reads the module's app)
    assert api.adapter.sent - before >= min(STEPS, 50)
