"""The hand review's HTTP API: start, follow the progress, read the result; stored, not recomputed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from capicua.service.platform import Platform
from capicua.service.store import Store
from capicua.service.tables import TableConfig
from capicua.web.app import create_app
from tests.service.conftest import empty_store_url, pg_url  # noqa: F401 (fixtures)
from tests.service.test_analysis_service import a_record


@pytest.fixture
def client(empty_store_url: str) -> Iterator[TestClient]:  # noqa: F811
    config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)
    app = create_app(Platform(Store(empty_store_url), "test-secret", config, limits=False))  # uploads at once
    with TestClient(app) as client:
        platform: Platform = app.state.platform
        platform.analyses.worlds = 4
        yield client


def save(client: TestClient, record: dict[str, Any]) -> int:
    platform: Platform = client.app.state.platform  # type: ignore[attr-defined]

    async def body() -> int:
        table = await platform.store.events.create_table("amazonense", 4, {"target": 50}, False, "ana")
        return await platform.store.records.save(table.id, 1, "amazonense", record["players"], 0, record)

    assert client.portal is not None
    return int(client.portal.call(body))


def follow(client: TestClient, url: str) -> dict[str, Any]:
    for _ in range(600):
        r = client.get(url)
        assert r.status_code == 200, r.text
        if r.json()["state"] != "running":
            return dict(r.json())
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def test_a_records_analysis_over_http(client: TestClient) -> None:
    record = a_record()
    rid = save(client, record)
    url = f"/api/records/{rid}/analysis"
    assert client.get(url).json()["state"] == "none"
    r = client.post(url)
    assert r.status_code == 202, r.text
    assert r.json()["state"] == "running" and r.json()["total"] > 0 and r.json()["result"] is None
    done = follow(client, url)
    assert done["state"] == "done" and done["done"] == done["total"]
    result = done["result"]
    assert result["players"] == record["players"]
    assert result["thresholds"]["blunder"] == 30
    steps = client.get(f"/api/records/{rid}/steps").json()["steps"]
    assert result["steps"] == len(steps)
    for d in result["decisions"]:
        assert steps[d["step"]]["action"].startswith(f"{d['seat']}: ")
        assert d["label"] in (None, "inaccuracy", "mistake", "blunder")
    again = client.post(url)
    assert again.status_code == 200 and again.json()["result"] == result
    platform: Platform = client.app.state.platform  # type: ignore[attr-defined]
    assert platform.analyses.computed == 1
    assert client.post("/api/records/99999/analysis").status_code == 404


def test_an_uploaded_records_analysis_and_bad_input(client: TestClient) -> None:
    record = a_record(seed=6)
    r = client.post("/api/analysis", json=record)
    assert r.status_code == 202, r.text
    key = r.json()["key"]
    done = follow(client, f"/api/analysis/{key}")
    assert done["state"] == "done" and done["result"]["decisions"]
    assert client.post("/api/analysis", json=record).status_code == 200
    # Its replay, as a match played here has one: every step, the decisions' steps among them.
    steps = client.get(f"/api/analysis/{key}/steps")
    assert steps.status_code == 200, steps.text
    assert steps.json()["players"] == record["players"] and len(steps.json()["steps"]) == done["result"]["steps"]
    for d in done["result"]["decisions"]:
        assert steps.json()["steps"][d["step"]]["action"].startswith(f"{d['seat']}: ")
    missing = client.get(f"/api/analysis/u{'0' * 64}/steps")
    assert missing.status_code == 404 and missing.json()["error"] == "not-found"
    assert client.get("/api/analysis/r1/steps").status_code == 422  # a match played here: /api/records/1/steps
    bad = client.post("/api/analysis", json=dict(record, hands=[{"deal": [], "actions": []}]))
    assert bad.status_code == 422 and bad.json()["error"] == "invalid"
    assert client.post("/api/analysis", json=[1, 2]).status_code == 422
    assert client.get("/api/analysis/nope").status_code == 422
    assert client.get("/api/analysis/r12345").json()["state"] == "none"


def test_the_analysis_routes_are_in_openapi(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in (
        "/api/records/{record_id}/analysis",
        "/api/analysis",
        "/api/analysis/{key}",
        "/api/analysis/{key}/steps",
    ):
        assert path in spec["paths"]
    post = spec["paths"]["/api/records/{record_id}/analysis"]["post"]
    assert "202" in post["responses"]
    schemas = spec["components"]["schemas"]
    assert {"AnalysisStatus", "AnalysisOut", "DecisionOut", "PlayerSummaryOut"} <= set(schemas)
