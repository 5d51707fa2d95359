"""Ratings in the browser (issue 12): the leaderboards, a medal on the profile once its week has closed, the
rating chart, the rating changes on the result screen (with the D3 bonus as its own line), ratings at the
table and in the lobby, rated tables from the form and rated quick play; screenshots at phone and desktop
sizes for a person to look at.

The module's server starts on a database where two past weeks of rated Dominousa matches were seeded
through the ratings service: the server closes those weeks when it starts (D4, at start-up for every week
that ended while it was down), so their medals are there without a fake clock. This week's matches are
played for real, over the HTTP API (a player resigns: a rated match in a moment) or over the websocket."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import start_server
from tests.e2e.helpers import (
    DESKTOP,
    PHONE,
    Account,
    SocketPlayers,
    call,
    http,
    log_in,
    new_page,
    play_until,
    rated_table,
    ratings_of,
    resigned_match,
    seed_rated_weeks,
    sign_up,
    this_monday,
)

pytestmark = pytest.mark.slow

NAMES = ["Ana", "Bia", "Caio", "Davi", "Eva", "Fabio"]


def schedule(winners: list[int]) -> list[tuple[list[int], int]]:
    """Matches among the six, everybody in turn: seats from a rotation, the winning side given."""
    rotations = [[0, 1, 2, 3], [4, 5, 0, 1], [2, 3, 4, 5], [0, 3, 4, 1], [2, 5, 0, 3], [4, 1, 2, 5]]
    return [(rotations[k % len(rotations)], w) for k, w in enumerate(winners)]


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[Account]]]:
    """A server whose database holds two closed weeks of rated Dominousa (24 matches each for the six, so
    most of them are established), and the six players' accounts."""
    data = tmp_path_factory.mktemp("e2e-ratings")
    # Ana, Caio and Eva sit on side 0 of every rotation: they win all but every fourth match
    weeks = {ago: schedule([1 if k % 4 == ago else 0 for k in range(18)]) for ago in (2, 1)}
    people = seed_rated_weeks(data, NAMES, "dominousa", weeks)
    proc, url = start_server(data, "--bot-delay", "0.02", "--call-grace", "0", "--no-limits")  # accounts at once
    yield url, people
    proc.terminate()
    proc.wait(10)


def board(server: str, game: str) -> dict[str, Any]:
    data: dict[str, Any] = http.get(f"{server}/api/ratings/{game}").json()
    return data


def signed(n: float) -> str:
    v = round(n)
    return f"+{v}" if v > 0 else f"\u2212{-v}" if v < 0 else "±0"


def four(server: str, *names: str) -> list[Account]:
    return [sign_up(server, name) for name in names]


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]


def test_the_leaderboard_shows_this_weeks_ranking_last_weeks_medalists_and_the_all_time_list(
    browser: Any, rated: tuple[str, list[Account]], shots: Path
) -> None:
    server, people = rated
    players = four(server, "Gil", "Hugo", "Iara", "Joca")
    changes = resigned_match(server, players, "dominousa", resigns=1)  # Gil & Iara win this week
    api = board(server, "dominousa")
    assert api["last_week"]["closed"] and [s["medal"] for s in api["last_week"]["standings"][:3]] == [1, 2, 3]
    assert api["all_time"], "the seeded weeks leave established players"
    page = new_page(browser, **DESKTOP)
    log_in(page, server, people[0])
    page.wait_for_selector("#create")
    page.click("#ratings-link")  # from the header
    page.wait_for_selector(".ratings-page #this-week")
    page.click(".game-tabs a[data-game='dominousa']")
    page.wait_for_selector(".ratings-page[data-game='dominousa'] #this-week tbody tr")
    # this week, live: the four who played, each with his net score
    week = {r["player"]: r for r in api["this_week"]["standings"]}
    for c in changes:
        row = page.locator(f"#this-week tr[data-player='{c['player']}']")
        assert row.locator(".score").inner_text() == signed(week[c["player"]]["score"])
    assert page.inner_text(f"#this-week tr[data-player='{players[0].id}'] .who").startswith("Gil")
    # last week: gold, silver and bronze, by name
    podium = page.locator("#past-week .podium li")
    assert podium.count() == 3
    medalists = api["last_week"]["standings"][:3]
    for k, s in enumerate(medalists):
        item = podium.nth(k)
        assert item.get_attribute("data-player") == s["player"]
        assert s["name"] in item.inner_text() and ["Ouro", "Prata", "Bronze"][k] in item.inner_text()
    # all time: by rating, the established players only (no "?" there)
    rows = page.locator("#all-time tbody tr")
    assert rows.count() == len(api["all_time"])
    for k, r in enumerate(api["all_time"]):
        assert rows.nth(k).get_attribute("data-player") == r["player"]
        assert rows.nth(k).locator(".rating-cell").inner_text() == str(r["rating"])
    assert "?" not in page.inner_text("#all-time tbody")
    assert not {p.id for p in players} & {r["player"] for r in api["all_time"]}  # provisional: left out
    assert page.locator(f"#all-time tr.me[data-player='{people[0].id}']").count() == (
        1 if any(r["player"] == people[0].id for r in api["all_time"]) else 0
    )
    page.screenshot(path=shots / "desktop-leaderboard.png", animations="disabled")
    # the weeks before: back one week, and forward again
    page.click("#older-week")
    page.wait_for_selector(f"#past-week[data-week='{this_monday() - dt.timedelta(days=14)}'] .podium")
    page.click("#newer-week")
    page.wait_for_selector(f"#past-week[data-week='{this_monday() - dt.timedelta(days=7)}']")
    assert page.is_disabled("#newer-week")
    # another game's tab: nobody has played it rated, and it says so
    page.click(".game-tabs a[data-game='individual']")
    page.wait_for_selector(".ratings-page[data-game='individual']")
    assert page.locator("#this-week .none").count() == 1
    # the phone: one column, nothing sideways, and the lobby leads there too
    phone = new_page(browser, **PHONE)
    log_in(phone, server, people[0])
    phone.wait_for_selector(".leaders-box .leaders li")
    phone.click(".leaders-box h2 a")
    phone.wait_for_selector(".ratings-page #all-time")
    phone.click(".game-tabs a[data-game='dominousa']")
    phone.wait_for_selector(".ratings-page[data-game='dominousa'] #this-week tbody tr")
    no_sideways_scroll(phone)
    phone.screenshot(path=shots / "phone-leaderboard.png", animations="disabled", full_page=True)
    assert not page.errors and not phone.errors


def test_a_medal_on_the_profile_after_its_week_closed(
    browser: Any, rated: tuple[str, list[Account]], shots: Path
) -> None:
    server, people = rated
    last = this_monday() - dt.timedelta(days=7)
    gold = board(server, "dominousa")["last_week"]["standings"][0]
    champion = next(p for p in people if p.id == gold["player"])
    page = new_page(browser, **DESKTOP)
    log_in(page, server, champion, "/ratings/dominousa")
    page.wait_for_selector("#past-week .podium li")
    page.click(f"#past-week .podium li[data-player='{champion.id}'] a.player")  # his name leads to his profile
    page.wait_for_selector(".profile .medals-card")
    medal = page.locator(f".medal-item.place-1[data-game='dominousa'][data-week='{last}']")
    assert medal.count() == 1
    text = medal.inner_text()
    assert "Ouro" in text and "Dominousa" in text and signed(gold["score"]) in text
    assert page.locator(".medal-item svg.medal-1").count() >= 1
    profile = http.get(f"{server}/api/players/{champion.id}/profile").json()
    assert page.locator(".medal-item").count() == len(profile["medals"])  # kept: every week he won one
    page.screenshot(path=shots / "desktop-profile-medal.png", animations="disabled")
    phone = new_page(browser, lang="es-ES", **PHONE)
    log_in(phone, server, champion, f"/profile/{champion.id}")
    phone.wait_for_selector(".medal-item.place-1")
    assert "Oro" in phone.inner_text(".medal-item.place-1")
    no_sideways_scroll(phone)
    phone.screenshot(path=shots / "phone-profile-medal.png", animations="disabled", full_page=True)
    assert not page.errors and not phone.errors


def test_the_rating_chart_draws_a_line_per_game_with_a_point_per_match(
    browser: Any, rated: tuple[str, list[Account]], shots: Path
) -> None:
    server, _ = rated
    players = four(server, "Kelly", "Lia", "Mara", "Nina")
    resigned_match(server, players, "dominousa", resigns=1)
    resigned_match(server, players, "dominousa", resigns=3)
    resigned_match(server, players, "amazonense", resigns=1)
    kelly = players[0]
    profile = http.get(f"{server}/api/players/{kelly.id}/profile").json()
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, **viewport)
        log_in(page, server, kelly, f"/profile/{kelly.id}")
        page.wait_for_selector("svg.rating-chart path.line")
        lines = page.locator("svg.rating-chart path.line")
        assert sorted(lines.nth(k).get_attribute("data-game") for k in range(lines.count())) == sorted(
            profile["history"]
        )
        dominousa = page.locator("svg.rating-chart path.line[data-game='dominousa']")
        assert int(dominousa.get_attribute("data-points")) >= 2  # its start and a point per match
        assert page.locator("svg.rating-chart .series[data-game='dominousa'] circle.dot").count() == 2
        # each line's last value, at its end, is the rating its card shows
        for r in profile["ratings"]:
            assert page.text_content(f"svg.rating-chart .ends [data-game='{r['game']}']") == str(r["rating"])
            card = page.inner_text(f".rating-card[data-game='{r['game']}'] .value")
            assert card.startswith(f"{r['rating']}?")  # three matches: provisional
        assert page.locator("svg.rating-chart .grid text").count() >= 2  # the rating axis has labels
        assert page.locator("svg.rating-chart .dates text").count() >= 1
        width = page.eval_on_selector("svg.rating-chart", "s => s.getBoundingClientRect().width")
        assert width <= viewport["width"]
        # the match history: each rated match with its change and the rating after it
        matches = http.get(f"{server}/api/players/{kelly.id}/matches").json()
        for m in matches:
            change = page.inner_text(f"tr[data-record='{m['id']}'] .rating-change .change")
            assert change == signed(round(m["rating"]["after"]) - round(m["rating"]["before"]))
        no_sideways_scroll(page)
        page.screenshot(path=shots / f"{size}-profile-chart.png", animations="disabled", full_page=True)
        assert not page.errors


def test_the_result_screen_shows_each_rating_change_with_the_amazonense_bonus_as_its_own_line(
    browser: Any, rated: tuple[str, list[Account]], shots: Path
) -> None:
    server, _ = rated
    players = four(server, "Olga", "Paulo", "Quitéria", "Rui")
    first = {c["seat"]: c for c in resigned_match(server, players, "amazonense", resigns=1)}
    table = rated_table(server, players, "amazonense", start=False, target=60, move_seconds=30)
    page = new_page(browser, **DESKTOP)
    log_in(page, server, players[0], f"/table/{table}")
    page.wait_for_selector(".seat-chip.me")
    # ratings at the table: each seat with the rating its player sat down with ("?": provisional)
    for seat in range(4):
        expected = f"({round(first[seat]['after'])}?)"
        assert page.inner_text(f".seat-chip[data-seat='{seat}'] .seat-rating") == expected
    assert page.locator(".bar .rated-tag").count() == 1
    call(server, players[0], "POST", f"/api/tables/{table}/start")
    with SocketPlayers(server, table, players[1:]) as others:
        # and in the lobby's list of tables: "Olga (1559?)"
        lobby = new_page(browser, **DESKTOP)
        lobby.goto(server)
        row = lobby.locator(f".table-item:has(a[href='#/table/{table}'])")
        row.wait_for(timeout=10000)
        assert f"Olga ({round(first[0]['after'])}?)" in row.inner_text() and row.locator(".rated-tag").count() == 1
        play_until(page, ".result", timeout=120)
        assert not others.errors, others.errors
    page.wait_for_selector(".result .rating-changes .rating-row", timeout=10000)
    changes = ratings_of(server, table)
    bonuses = 0
    for c in changes:
        row = page.locator(f".rating-row[data-seat='{c['seat']}']")
        bonus = round(c["bonus"])
        total = round(c["after"]) - round(c["before"])
        assert row.locator(".change").inner_text() == signed(total - bonus)  # the match's part
        assert row.locator(".new strong").inner_text() == str(round(c["after"]))
        if bonus:
            bonuses += 1
            line = row.locator(".bonus-line")
            assert line.get_attribute("data-bonus") == str(bonus) and signed(bonus) in line.inner_text()
            assert re.search(r"galo|batida|pontas", line.inner_text())
        else:
            assert row.locator(".bonus-line").count() == 0
    assert page.locator(".rating-row.me[data-seat='0']").count() == 1
    page.screenshot(path=shots / "desktop-result.png", animations="disabled")
    phone = new_page(browser, **PHONE)
    log_in(phone, server, players[0], f"/table/{table}")
    phone.wait_for_selector(".result .rating-changes .rating-row")
    assert phone.locator(".result .bonus-line").count() == bonuses
    phone.screenshot(path=shots / "phone-result.png", animations="disabled")
    assert not page.errors and not phone.errors


def test_rated_tables_from_the_form_and_rated_quick_play(
    browser: Any, rated: tuple[str, list[Account]], shots: Path
) -> None:
    server, _ = rated
    # a guest may not create a rated table: the server's refusal in his words
    guest = new_page(browser, **DESKTOP)
    guest.goto(server)
    guest.wait_for_selector("#create")
    assert guest.locator("#quick-rated .guest-hint").count() == 1  # no rated quick play for guests
    guest.check("#rated")
    assert guest.is_disabled("#bots_after") and guest.is_disabled("#bot")
    guest.click("#create button[type=submit]")
    guest.wait_for_selector("#error:has-text('Mesas valendo rating são só para quem tem conta')")
    # an account holder creates one, and the table says it is rated
    sara, tito = sign_up(server, "Sara"), sign_up(server, "Tito")
    page = new_page(browser, **DESKTOP)
    log_in(page, server, sara)
    page.wait_for_selector("#create")
    assert page.eval_on_selector("#create", "f => f.getBoundingClientRect().top") < DESKTOP["height"] / 2
    page.select_option("#variant", "individual")
    page.check("#rated")
    page.click("#create button[type=submit]")
    page.wait_for_selector(".bar .rated-tag")
    table = page.evaluate("location.hash").split("/")[2]
    assert http.get(f"{server}/api/tables/{table}").json()["rated"] is True
    call(server, sara, "POST", f"/api/tables/{table}/leave")  # free for the queue
    # rated quick play: waiting shows the range and the time, and may be cancelled
    page.goto(server + "/#/")
    page.wait_for_selector("#quick-rated button[data-game='dominousa']")
    page.click("#quick-rated button[data-game='dominousa']")
    page.wait_for_selector("#rated-wait")
    assert re.search(r"aceita de \d+ a \d+", page.inner_text("#rated-wait"))
    page.wait_for_function(  # the time waited, counting
        "() => /\\b[1-9]\\d* s\\b/.test(document.querySelector('#rated-wait .muted')?.textContent || '')", timeout=5000
    )
    page.screenshot(path=shots / "desktop-rated-wait.png", animations="disabled")
    page.click("#cancel-rated")
    page.wait_for_selector("#quick-rated button[data-game='dominousa']")
    # two account holders of individual play are seated together at a rated table, its match started
    other = new_page(browser, lang="es-ES", **PHONE)
    log_in(other, server, tito)
    other.wait_for_selector("#quick-rated button[data-game='individual']")
    other.screenshot(path=shots / "phone-lobby.png", animations="disabled")
    page.click("#quick-rated button[data-game='individual']")
    page.wait_for_selector("#rated-wait")
    other.click("#quick-rated button[data-game='individual']")
    for p in (page, other):
        p.wait_for_function("() => location.hash.startsWith('#/table/')", timeout=10000)
        p.wait_for_selector(".seat-chip.me")
    assert page.evaluate("location.hash") == other.evaluate("location.hash")
    seated = page.evaluate("location.hash").split("/")[2]
    summary = http.get(f"{server}/api/tables/{seated}").json()
    assert summary["rated"] and summary["status"] == "playing"
    assert sorted(s["name"] for s in summary["seats"]) == ["Sara", "Tito"]
    assert other.locator(".bar .rated-tag:has-text('con rating')").count() == 1
    time.sleep(0.2)
    assert not guest.errors and not page.errors and not other.errors
