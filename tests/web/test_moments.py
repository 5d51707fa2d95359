"""Times over the HTTP API, on SQLite and on PostgreSQL (issue 18: items 4 and 8).

A tournament's times are given in any zone and come back as the same moment, in UTC; a moment whose UTC time
falls outside the years 1 to 9999 is a clear 422 that changes nothing (it was a 500 on PostgreSQL); a weekly
ranking whose week does not fit the calendar is a 422 too (it was a 500 on both)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from capicua.service.platform import Platform
from capicua.service.store import Store
from capicua.service.tables import TableConfig
from capicua.web.app import create_app
from tests.service.conftest import empty_store_url, pg_url  # noqa: F401 (fixtures)


@pytest.fixture
def client(empty_store_url: str) -> Iterator[TestClient]:  # noqa: F811
    config = TableConfig(bot_delay=0, bot_workers=0, call_grace=0)
    app = create_app(Platform(Store(empty_store_url), "test-secret", config, limits=False))  # scripted: no limits
    with TestClient(app) as client:
        yield client


def organiser(client: TestClient) -> dict[str, str]:
    r = client.post("/api/accounts", json={"username": "organiser", "password": "s3cret-pass", "name": "Org"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def listed(client: TestClient) -> list[dict[str, Any]]:
    r = client.get("/api/tournaments")
    assert r.status_code == 200, r.text
    return list(r.json())


def test_a_tournaments_times_are_kept_as_the_same_moment_whatever_their_zone(client: TestClient) -> None:
    """19:00 in Manaus (-04:00) is 23:00 UTC: SQLite used to give back 19:00+00:00 (15:00 on a Manaus page)."""
    who = organiser(client)
    body = {
        "name": "Copa Manaus",
        "starts_at": "2030-03-10T19:00:00-04:00",
        "registration_opens": "2030-03-01T08:00:00+05:30",
        "registration_closes": "2030-03-10T09:45:00-12:00",
    }
    r = client.post("/api/tournaments", json=body, headers=who)
    assert r.status_code == 201, r.text
    page = r.json()
    assert page["starts_at"] == "2030-03-10T23:00:00+00:00"
    assert page["registration_closes"] == "2030-03-10T21:45:00+00:00"
    again = client.get(f"/api/tournaments/{page['id']}").json()
    assert (again["starts_at"], again["registration_closes"]) == (page["starts_at"], page["registration_closes"])
    assert [t["starts_at"] for t in listed(client)] == ["2030-03-10T23:00:00+00:00"]
    r = client.patch(f"/api/tournaments/{page['id']}", json={"starts_at": "2030-03-11T08:30:00+14:00"}, headers=who)
    assert r.status_code == 200, r.text
    assert r.json()["starts_at"] == "2030-03-10T18:30:00+00:00"


@pytest.mark.parametrize(
    ("field", "moment"),
    [
        ("starts_at", "9999-12-31T23:59:59-12:00"),  # the year 10000 in UTC
        ("starts_at", "9999-12-31T20:00:00-04:00"),
        ("registration_opens", "0001-01-01T00:00:00+05:30"),  # the year 0 in UTC
        ("registration_closes", "9999-12-31T23:00:00-01:00"),
    ],
)
def test_a_moment_outside_the_years_1_to_9999_in_utc_is_a_clear_422_and_changes_nothing(
    client: TestClient, field: str, moment: str
) -> None:
    who = organiser(client)
    body = {"name": "Copa", "starts_at": "2030-03-10T19:00:00-04:00", field: moment}
    r = client.post("/api/tournaments", json=body, headers=who)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "invalid"
    assert r.json()["message"] == f"{field}: {moment} is out of range: in UTC it must fall in the years 1 to 9999"
    assert listed(client) == []
    r = client.post("/api/tournaments", json={"name": "Copa", "starts_at": "2030-03-10T19:00:00-04:00"}, headers=who)
    tid = r.json()["id"]
    r = client.patch(f"/api/tournaments/{tid}", json={"starts_at": "9999-12-31T23:59:59-12:00"}, headers=who)
    assert (r.status_code, r.json()["error"]) == (422, "invalid"), r.text
    assert "out of range" in r.json()["message"]
    assert client.get(f"/api/tournaments/{tid}").json()["starts_at"] == "2030-03-10T23:00:00+00:00"


def test_the_first_and_last_moments_of_the_calendar_in_utc_are_kept(client: TestClient) -> None:
    """The edges that fit: both databases keep them, and give them back as they were sent."""
    who = organiser(client)
    body = {
        "name": "Copa",
        "registration_opens": "0001-01-01T00:00:00+00:00",
        "starts_at": "9999-12-31T23:59:59.999999+00:00",
        "registration_closes": "9999-12-31T20:00:00-03:59",
    }
    r = client.post("/api/tournaments", json=body, headers=who)
    assert r.status_code == 201, r.text
    page = client.get(f"/api/tournaments/{r.json()['id']}").json()
    assert page["starts_at"] == "9999-12-31T23:59:59.999999+00:00"
    assert page["registration_closes"] == "9999-12-31T23:59:00+00:00"


@pytest.mark.parametrize("date", ["9999-12-31", "9999-12-27", "9999-12-30"])
def test_a_weekly_ranking_whose_week_ends_after_9999_is_a_422_not_a_500(client: TestClient, date: str) -> None:
    """Issue 18 (8): the week of 9999-12-27 would end on 10000-01-03."""
    before = client.get("/api/ratings/dominousa")
    assert before.status_code == 200, before.text
    r = client.get(f"/api/ratings/dominousa/weeks/{date}")
    assert r.status_code == 422, r.text
    assert r.json() == {
        "error": "invalid",
        "message": "the week of Monday 9999-12-27 does not fit the calendar: in UTC it must begin and end within "
        "the years 1 to 9999",
    }
    assert client.get("/api/ratings/dominousa").json() == before.json()


@pytest.mark.parametrize(("date", "monday"), [("9999-12-26", "9999-12-20"), ("0001-01-01", "0001-01-01")])
def test_the_first_and_last_weeks_that_fit_the_calendar_are_answered(
    client: TestClient, date: str, monday: str
) -> None:
    r = client.get(f"/api/ratings/dominousa/weeks/{date}")
    assert r.status_code == 200, r.text
    week = r.json()
    assert (week["week"], week["standings"], week["closed"]) == (monday, [], False)
    begins, ends = dt.datetime.fromisoformat(week["begins"]), dt.datetime.fromisoformat(week["ends"])
    assert ends - begins == dt.timedelta(days=7) and begins.utcoffset() == dt.timedelta(0)
