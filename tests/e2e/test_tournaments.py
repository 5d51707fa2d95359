"""Tournaments and referees in Chromium (issue 13): an organiser creates a tournament through its form, two
teams register and accept on their pages, the organiser names a referee and starts it, the four players
check in, the referee fines a player and records a touched tile from his console, the players see both,
and after the match the standings (and their CSV) show the result. Also the over-the-board scoresheet on
a phone, the printable pairing sheet and slips, and the referee console of a strict table's creator.
Screenshots at phone and desktop sizes go to test-artifacts/ for a person to look at."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import secrets
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, Account, SocketPlayers, call, http, log_in, new_page, sign_up

pytestmark = pytest.mark.slow

QUICK = {"target": 30, "pause_seconds": 0, "auto_pass": False}


def register_team(server: str, tid: str, a: Account, b: Account, name: str | None = None) -> int:
    """``a`` registers a team with ``b`` over the API, and ``b`` accepts; its number."""
    body = {"partner": b.username, **({"name": name} if name else {})}
    team: int = call(server, a, "POST", f"/api/tournaments/{tid}/teams", body, 201)["team"]
    call(server, b, "POST", f"/api/tournaments/{tid}/teams/{team}/accept")
    return team


def page_as(browser: Any, server: str, who: Account, path: str, size: dict[str, Any], lang: str = "pt-BR") -> Any:
    """A browser context of ``who`` at ``path``; dialogs accepted."""
    page = new_page(browser, lang=lang, **size)
    page.on("dialog", lambda d: d.accept())
    log_in(page, server, who, path)
    return page


RAW_KEY = re.compile(r"\b(?:tour|ref|entry|error)_[a-z0-9_]+\b")


def shot(page: Any, path: Path, full: bool = False) -> None:
    """A screenshot for a person to look at; the page must show words, not a words.json key."""
    page.wait_for_timeout(150)
    raw = RAW_KEY.findall(page.inner_text("body"))
    assert not raw, f"{path.name} shows words keys: {raw}"
    page.screenshot(path=path, animations="disabled", full_page=full)


def tournament_page(server: str, tid: str, who: Account | None = None) -> dict[str, Any]:
    r = http.get(f"{server}/api/tournaments/{tid}", headers=who.headers if who else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_for(check: Any, what: str, timeout: float = 20) -> Any:
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen in time")


def test_an_organiser_runs_a_tournament_a_referee_fines_and_touches_a_tile_the_players_see_it_and_the_standings_update(
    browser: Any, server: str, shots: Path
) -> None:
    org, juiz = sign_up(server, "Organizadora"), sign_up(server, "Juiz")
    ana, bia, caio, davi = (sign_up(server, n) for n in ("Ana", "Bia", "Caio", "Davi"))
    name = f"Copa Manaus {secrets.token_hex(2)}"

    # The organiser creates it through the form: one round, a quick match, strict mode on by default.
    organiser = page_as(browser, server, org, "/tournaments", DESKTOP)
    organiser.wait_for_selector("#tour-create")
    assert organiser.is_checked("#opt-strict") and organiser.is_disabled("#opt-auto_pass")
    assert organiser.input_value("#opt-target") == "200" and organiser.input_value("#opt-match_minutes") == "40"
    shot(organiser, shots / "list-desktop.png")
    organiser.fill("#tour-name", name)
    organiser.fill("#tour-rounds", "1")
    organiser.fill("#opt-target", "30")
    organiser.fill("#opt-pause_seconds", "0")
    organiser.fill("#opt-move_seconds", "600")
    tomorrow = dt.datetime.now() + dt.timedelta(days=1)
    organiser.fill("#tour-starts", tomorrow.strftime("%Y-%m-%dT19:30"))
    organiser.click("#tour-submit")
    organiser.wait_for_selector("#tournament[data-status='registration']")
    tid = re.search(r"#/tournament/([\w-]+)", organiser.url).group(1)  # type: ignore[union-attr]
    data = tournament_page(server, tid)
    assert data["name"] == name and data["round_count"] == 1 and data["game"] == "dominousa"
    assert data["options"] == {**data["options"], "target": 30, "pause_seconds": 0, "strict": True, "move_seconds": 600}
    starts = dt.datetime.fromisoformat(data["starts_at"])
    assert starts == tomorrow.replace(hour=19, minute=30, second=0, microsecond=0).astimezone()  # the browser's zone

    # The organiser names the referee (every board).
    organiser.fill("#tour-ref-user", juiz.username)
    organiser.click("#tour-ref-add")
    organiser.wait_for_selector(".tour-referees-edit li:has-text('Juiz')")

    # Two teams: Ana invites Bia (Ana on a phone), Bia accepts; Caio invites Davi, Davi accepts.
    pages = {}
    for first, second, team_name, size in ((ana, bia, "Onças", PHONE), (caio, davi, "Botos", DESKTOP)):
        pages[first.name] = page_as(browser, server, first, f"/tournament/{tid}", size)
        p = pages[first.name]
        p.wait_for_selector("#tour-register")
        if first is ana:
            shot(p, shots / "tournament-registration-phone.png", full=True)
        p.fill("#tour-partner", second.username)
        p.fill("#tour-team-name", team_name)
        p.click("#tour-register-submit")
        p.wait_for_selector(".tour-my-team:has-text('aguardando')")
        pages[second.name] = page_as(browser, server, second, f"/tournament/{tid}", size)
        q = pages[second.name]
        q.wait_for_selector(".tour-invite button")
        assert team_name in q.inner_text(".tour-invite")
        q.click(".tour-invite button")
        q.wait_for_selector(".tour-my-team .tour-team-status.status-registered")
    organiser.wait_for_selector(".tour-team-list li.status-registered >> nth=1", timeout=10000)
    shot(organiser, shots / "tournament-registration-desktop.png", full=True)

    # The organiser starts it now: round 1 is drawn, one board.
    organiser.click("#tour-start")
    organiser.wait_for_selector("#tournament[data-status='running']")
    # the header says when it really began (now), no longer the time it was announced for (issue 22, item 14)
    header_time = organiser.wait_for_selector(f".tour-when time:not([datetime='{data['starts_at']}'])")
    began = header_time.get_attribute("datetime")
    assert dt.datetime.fromisoformat(began) < starts, began
    organiser.wait_for_selector("li.tour-board[data-board='1'] .tour-seated")
    board = tournament_page(server, tid)["rounds"][0]["boards"][0]
    table = board["table"]
    teams = {x["team"]: x for x in tournament_page(server, tid)["teams"]}
    seat_ids = [
        teams[board["team_a"]]["players"][0]["id"],
        teams[board["team_b"]]["players"][0]["id"],
        teams[board["team_a"]]["players"][1]["id"],
        teams[board["team_b"]]["players"][1]["id"],
    ]
    people = {p.id: p for p in (ana, bia, caio, davi)}
    seats = [people[i] for i in seat_ids]  # who sits where: team A at 0 and 2, partners opposite

    # The four check in on their pages (the page polls): each lands at the table.
    for who in seats:
        p = pages[who.name]
        p.wait_for_selector("#tour-checkin", timeout=10000)
        assert "mesa 1" in p.inner_text(".tour-your-board").lower()
        if who is ana:
            shot(p, shots / "tournament-checkin-phone.png", full=True)
        p.click("#tour-checkin")
        p.wait_for_selector(f".table-view .seat-chip.me[data-seat='{seats.index(who)}']", timeout=10000)
    for who in seats:
        pages[who.name].wait_for_selector(".mytiles button.tile", timeout=10000)  # the match started
    assert tournament_page(server, tid)["rounds"][0]["boards"][0]["seated"] is None

    # The referee opens his console from the tournament page.
    referee = page_as(browser, server, juiz, f"/tournament/{tid}", DESKTOP)
    referee.wait_for_selector(".tour-my-referee a.tour-ref-link")
    referee.click(".tour-my-referee a.tour-ref-link")
    referee.wait_for_selector("#ref-panel #ref-apply:not([disabled])", timeout=10000)
    assert not referee.query_selector(".mytiles button.tile")  # a referee is a spectator: no hidden tile

    # A fine: 20 on seat 1, "sinal ao parceiro".
    fined = seats[1]
    referee.select_option("#ref-seat", "1")
    referee.fill("#ref-reason", "sinal ao parceiro")
    referee.click("#ref-apply")
    referee.wait_for_selector("#ref-answer.good")
    phone = pages[ana.name]  # a player sees it at once, in words
    phone.wait_for_selector("#ref-toast:has-text('multa de 20')", timeout=5000)
    # A touched tile (C7): seat 3's first tile, which the referee saw on the table.
    toucher = seats[3]
    tile = pages[toucher.name].get_attribute(".mytiles button.tile", "data-tile")
    referee.click("button.ref-choice[data-decision='touch']")
    referee.select_option("#ref-seat", "3")
    referee.click(f"button.ref-tile[data-tile='{tile}']")
    referee.fill("#ref-reason", "deixou cair a pedra")
    referee.click("#ref-apply")
    referee.wait_for_selector("#ref-answer.good")
    phone.wait_for_selector("#ref-toast:has-text('pedra tocada')", timeout=5000)
    phone.wait_for_selector(f".seat-chip[data-seat='3'] .touched svg[data-tile='{tile}']")
    shot(phone, shots / "player-sees-referee-phone.png")
    referee.wait_for_selector(f".seat-chip[data-seat='3'] .touched svg[data-tile='{tile}']")
    referee.wait_for_selector(".history-panel li.move[data-kind='referee'] >> nth=1")
    shot(referee, shots / "referee-console-desktop.png")

    # The players see both: the history in words, the score, the tile face up at its seat.
    phone.click("#show-history")
    rows = phone.query_selector_all(".history-panel li.move[data-kind='referee']")
    assert len(rows) == 2
    assert f"Árbitro Juiz: multa de 20 a {fined.name} — sinal ao parceiro" in rows[0].inner_text().replace("\n", " ")
    assert "+20" in rows[0].inner_text()
    assert f"pedra tocada de {toucher.name}" in rows[1].inner_text()
    shot(phone, shots / "player-history-phone.png")
    assert re.search(r"\b20\b", phone.inner_text("#scoreboard"))
    toucher_page = pages[toucher.name]
    toucher_page.wait_for_selector(f".mytiles button.tile.touched[data-tile='{tile}']")
    spectator_tiles = referee.query_selector_all(f".seat-chip[data-seat='3'] .touched svg[data-tile='{tile}']")
    assert len(spectator_tiles) == 1

    # The referee's console on a phone: the panel is a sheet over the table.
    small = page_as(browser, server, juiz, f"/referee/{table}", PHONE)
    small.wait_for_selector("#ref-panel #ref-apply:not([disabled])", timeout=10000)
    shot(small, shots / "referee-console-phone.png")
    small.close()

    # The organiser's page while it runs: the board live, the standings at 0.
    organiser.wait_for_selector("li.tour-board[data-board='1'] .tour-watch")
    shot(organiser, shots / "tournament-running-desktop.png", full=True)

    # The players play it out; the standings update on the organiser's page.
    with SocketPlayers(server, table, seats) as players:
        organiser.wait_for_selector("#tournament[data-status='finished']", timeout=90000)
    assert not players.errors, players.errors
    final = tournament_page(server, tid)
    winner = final["rounds"][0]["boards"][0]["winner"]
    organiser.wait_for_selector("#tour-standings-table tbody tr >> nth=1")
    first = organiser.query_selector("#tour-standings-table tbody tr")
    assert first.get_attribute("data-team") == str(winner)
    cells = {c.get_attribute("class").split()[0]: c.inner_text() for c in first.query_selector_all("th, td")}
    assert (cells["c-place"], cells["c-played"], cells["c-wins"], cells["c-losses"]) == ("1", "1", "1", "0")
    line = final["standings"][0]
    assert cells["c-points_for"] == str(line["points_for"]) and int(line["points_for"]) >= 30
    tickets = sorted(x["draw"] for x in final["standings"])
    assert cells["c-draw"] == str(tickets.index(line["draw"]) + 1)  # the draw's rank; its ticket in the CSV
    champion = next(x for x in final["teams"] if x["team"] == winner)["name"]
    assert champion in organiser.inner_text(".tour-champion")
    shot(organiser, shots / "tournament-finished-desktop.png", full=True)

    # A team's history: click its name in the standings.
    organiser.click(f"#tour-standings-table tr[data-team='{winner}'] button.tour-team-name")
    organiser.wait_for_selector("#tour-history tr[data-round='1'] a.tour-replay", timeout=10000)
    assert "Vitória" in organiser.inner_text("#tour-history tr[data-round='1']")
    shot(organiser, shots / "team-history-desktop.png", full=True)

    # The standings as CSV: the page's link.
    href = organiser.get_attribute("#tour-csv", "href")
    r = http.get(server + href)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(r.text)))
    assert [int(x["team"]) for x in lines] == [x["team"] for x in final["standings"]]
    assert lines[0]["wins"] == "1" and lines[0]["played"] == "1"
    assert [x["draw"] for x in lines] == [x["draw"] for x in final["standings"]]
    assert http.get(server + organiser.get_attribute("#tour-json", "href")).json() == final["standings"]

    # The phone's standings (Ana's page, back on the tournament).
    phone.goto(f"{server}/#/tournament/{tid}")
    phone.wait_for_selector("#tour-standings-table")
    mine = phone.inner_text(".tour-my-place")  # in words, not "1 V, 0 D" (issue 22, item 12)
    assert re.fullmatch(r"\dº lugar · \d vitórias? · \d derrotas?", mine.strip()), mine
    shot(phone, shots / "tournament-finished-phone.png", full=True)

    # The printable sheet and slips.
    organiser.click("#tour-print")
    organiser.wait_for_selector("#print-sheet tr[data-board='1']")
    assert len(organiser.query_selector_all("#print-slips .slip")) == 1
    assert champion in organiser.inner_text("#print-sheet")
    assert len(organiser.query_selector_all("#print-slips .slip-hands tbody tr")) == 13  # 12 hands and the totals
    shot(organiser, shots / "print-desktop.png", full=True)
    organiser.emulate_media(media="print")
    assert not organiser.is_visible("#app > header") and not organiser.is_visible(".print-tools")
    assert organiser.is_visible("#print-sheet") and organiser.is_visible(".slip")
    organiser.set_viewport_size({"width": 794, "height": 1123})  # an A4 page at 96 dpi
    shot(organiser, shots / "print-paper.png", full=True)
    organiser.emulate_media(media="screen")
    organiser.set_viewport_size(PHONE)
    shot(organiser, shots / "print-phone.png", full=True)

    # The list: the tournament under "finished".
    phone.goto(f"{server}/#/tournaments")
    phone.wait_for_selector(f"#tour-finished li[data-tournament='{tid}']")
    shot(phone, shots / "list-phone.png", full=True)
    for p in (organiser, referee, *pages.values()):
        assert not p.errors, p.errors


def test_over_the_board_the_referee_enters_hands_and_fines_on_a_phone_and_ends_the_boards(
    browser: Any, server: str, shots: Path
) -> None:
    org, juiz = sign_up(server, "Organizador"), sign_up(server, "Árbitra")
    people = [sign_up(server, f"Jogador{k}") for k in range(8)]
    body = {"name": "Copa Presencial", "starts_at": "2031-01-04T14:00:00-04:00", "mode": "board", "rounds": 1}
    tid = call(server, org, "POST", "/api/tournaments", body, 201)["id"]
    for k in range(4):
        register_team(server, tid, people[2 * k], people[2 * k + 1], f"Dupla {k + 1}")
    call(server, org, "PUT", f"/api/tournaments/{tid}/referees/{juiz.username}", {"boards": []})
    call(server, org, "POST", f"/api/tournaments/{tid}/start")
    data = tournament_page(server, tid)
    boards = data["rounds"][0]["boards"]
    names = {x["team"]: x["name"] for x in data["teams"]}

    page = page_as(browser, server, juiz, f"/tournament/{tid}", PHONE)
    page.wait_for_selector(".tour-my-referee a.tour-sheet-link[data-board='1']")
    page.click(".tour-my-referee a.tour-sheet-link[data-board='1']")
    page.wait_for_selector("#entry-form")
    a_name, b_name = names[boards[0]["team_a"]], names[boards[0]["team_b"]]
    assert a_name in page.inner_text("#entry-score") and b_name in page.inner_text("#entry-score")
    # A hand: 35 to A. A fine on A (20 to B), with a note.
    page.fill("#entry-a", "35")
    page.click("#entry-add")
    page.wait_for_selector("#entry-list li.kind-hand")
    page.click("button.ref-choice[data-kind='fine']")
    page.select_option("#entry-fined", "a")
    page.fill("#entry-note", "conversa durante a mão")
    page.click("#entry-add")
    page.wait_for_selector("#entry-list li.kind-fine")
    assert [x.inner_text() for x in page.query_selector_all("#entry-score .entry-pts")] == ["35", "20"]
    assert "conversa durante a mão" in page.inner_text("#entry-list")
    shot(page, shots / "board-entry-phone.png", full=True)
    page.click("#entry-end")
    page.wait_for_selector("#entry-score .entry-final")
    assert a_name in page.inner_text(".entry-final") and not page.query_selector("#entry-form")
    shot(page, shots / "board-entry-done-phone.png", full=True)

    # Board 2: equal points need the referee's winner; then a no-show on board 2's team B is not possible
    # (it is ended): so a no-show is marked on a board of its own, the tie decided on this one.
    page.goto(f"{server}/#/tournament/{tid}/board/1/2")
    page.wait_for_selector("#entry-form")
    page.fill("#entry-a", "10")
    page.fill("#entry-b", "10")
    page.click("#entry-add")
    page.wait_for_selector("#entry-list li.kind-hand")
    page.set_viewport_size(DESKTOP)
    shot(page, shots / "board-entry-desktop.png")
    page.set_viewport_size(PHONE)
    page.click("#entry-end")
    page.wait_for_selector("#error:not([hidden]):has-text('escolha a vencedora')")  # (not an earlier error)
    page.select_option("#entry-winner", str(boards[1]["team_b"]))
    page.click("#entry-end")
    page.wait_for_selector("#entry-score .entry-final")
    assert "decisão do árbitro" in page.inner_text(".entry-final")

    done = tournament_page(server, tid)
    first, second = done["rounds"][0]["boards"]
    assert (first["winner"], first["points"], first["kind"]) == (boards[0]["team_a"], [35, 20], "board")
    assert (second["winner"], second["kind"]) == (boards[1]["team_b"], "award")
    # The tournament page: the standings show both results, in Spanish too.
    page.goto(f"{server}/#/tournament/{tid}")
    page.wait_for_selector("#tour-standings-table tbody tr >> nth=3")
    wins = [int(c.inner_text()) for c in page.query_selector_all("#tour-standings-table td.c-wins")]
    assert sorted(wins) == [0, 0, 1, 1]
    page.select_option("#lang", "es")
    page.wait_for_selector("h2:has-text('Clasificación')")
    assert "Pareo" in page.inner_text("#tour-rounds")
    shot(page, shots / "tournament-board-mode-phone-es.png", full=True)
    page.select_option("#lang", "en")
    page.wait_for_selector("h2:has-text('Standings')")
    assert "Pairings" in page.inner_text("#tour-rounds")
    page.click(f"#tour-standings-table tr[data-team='{boards[0]['team_a']}'] button.tour-team-name")
    page.wait_for_selector("#tour-history tr[data-round='1']")
    assert "Win" in page.inner_text("#tour-history tr[data-round='1']")
    shot(page, shots / "tournament-board-mode-phone-en.png", full=True)
    assert not page.errors, page.errors


def test_a_no_show_is_marked_over_the_board_and_the_creator_of_a_strict_table_referees_it(
    browser: Any, server: str, shots: Path
) -> None:
    org = sign_up(server, "Organiza")
    people = [sign_up(server, f"Pessoa{k}") for k in range(4)]
    body = {"name": "Copa W.O.", "starts_at": "2031-01-04T14:00:00Z", "mode": "board", "rounds": 1}
    tid = call(server, org, "POST", "/api/tournaments", body, 201)["id"]
    for k in range(2):
        register_team(server, tid, people[2 * k], people[2 * k + 1])
    call(server, org, "POST", f"/api/tournaments/{tid}/start")
    board = tournament_page(server, tid)["rounds"][0]["boards"][0]
    page = page_as(browser, server, org, f"/tournament/{tid}/board/1/1", PHONE)  # the organiser referees every board
    page.wait_for_selector("#entry-absent-b")
    page.check("#entry-absent-b")
    page.click("#entry-absent")
    page.wait_for_selector("#entry-score .entry-final")
    assert "W.O." in page.inner_text(".entry-final")
    done = tournament_page(server, tid)["rounds"][0]["boards"][0]
    assert (done["kind"], done["winner"], done["points"]) == ("forfeit", board["team_a"], [200, 0])

    # A strict table outside tournaments: its creator, who does not sit there, has the referee's link.
    table = call(server, org, "POST", "/api/tables", {"variant": "dominousa", "strict": True, **QUICK}, 201)["id"]
    for who in people:
        call(server, who, "POST", f"/api/tables/{table}/join", {})
    call(server, people[0], "POST", f"/api/tables/{table}/start")
    page.goto(f"{server}/#/table/{table}")
    page.wait_for_selector("#open-referee", timeout=10000)
    page.click("#open-referee")
    page.wait_for_selector("#ref-panel #ref-apply:not([disabled])", timeout=10000)
    page.select_option("#ref-seat", "2")
    page.fill("#ref-reason", "comentário durante a mão")
    page.click("#ref-apply")
    page.wait_for_selector("#ref-answer.good")
    player = page_as(browser, server, people[0], f"/table/{table}", DESKTOP)
    player.wait_for_selector(".history-panel li.move[data-kind='referee']")
    assert "multa de 20 a Pessoa2" in player.inner_text(".history-panel li.move[data-kind='referee']")
    assert not player.query_selector("#open-referee")  # a player at the table does not referee it
    assert not page.errors and not player.errors, (page.errors, player.errors)


def test_the_organiser_forbids_a_pairing_and_pairs_a_round_by_hand_and_the_page_stops_polling_when_left(
    browser: Any, server: str, shots: Path
) -> None:
    org = sign_up(server, "Organizador")
    people = [sign_up(server, f"Socio{k}") for k in range(6)]
    body = {"name": "Copa dos Clubes", "starts_at": "2031-01-04T14:00:00Z", "rounds": 2, "options": QUICK}
    tid = call(server, org, "POST", "/api/tournaments", body, 201)["id"]
    for k in range(3):
        register_team(server, tid, people[2 * k], people[2 * k + 1])
    page = page_as(browser, server, org, f"/tournament/{tid}", DESKTOP)
    # Teams 1 and 2 are of one club: never paired.
    page.wait_for_selector("#tour-forbid-form")
    page.select_option("#tour-forbid-a", "1")
    page.select_option("#tour-forbid-b", "2")
    page.click("#tour-forbid-add")
    page.wait_for_selector(".tour-forbidden-edit li")
    assert tournament_page(server, tid)["forbidden"] == [[1, 2]]
    page.click("#tour-start")
    page.wait_for_selector("#tournament[data-status='running'] li.tour-board.bye")
    boards = tournament_page(server, tid)["rounds"][0]["boards"]
    played = next(b for b in boards if b["team_b"] is not None)
    bye = next(b for b in boards if b["team_b"] is None)["team_a"]
    assert {played["team_a"], played["team_b"]} != {1, 2}
    # By hand: the team that had the bye plays instead of the one from its club.
    other = ({1, 2} - {bye}).pop()
    page.click("details.tour-editor > summary")
    page.select_option("li.tour-editor-board .pick-a", str(bye))
    page.select_option("li.tour-editor-board .pick-b", "3")
    page.select_option("#tour-editor-bye", str(other))
    shot(page, shots / "pairing-editor-desktop.png", full=True)
    page.click("#tour-editor-save")
    page.wait_for_selector(f"li.tour-board.bye .tour-team[data-team='{other}']")
    again = tournament_page(server, tid)["rounds"][0]["boards"]
    assert [(b["team_a"], b["team_b"]) for b in again] == [(bye, 3), (other, None)]
    assert again[0]["table"] != played["table"]  # a new table: the old one closed unplayed
    # A forbidden pairing by hand is refused, in words.
    page.click("details.tour-editor > summary")
    page.select_option("li.tour-editor-board .pick-a", "1")
    page.select_option("li.tour-editor-board .pick-b", "2")
    page.select_option("#tour-editor-bye", "3")
    page.click("#tour-editor-save")
    page.wait_for_selector("#error:not([hidden]):has-text('inválido')")  # (not an earlier error)
    assert tournament_page(server, tid)["rounds"][0]["boards"] == again
    # Leaving the page stops its refresh.
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if f"/api/tournaments/{tid}" in r.url else None)
    page.wait_for_timeout(3500)
    assert asked  # it polls while it is on screen
    page.goto(f"{server}/#/")
    page.wait_for_selector("#create")
    asked.clear()
    page.wait_for_timeout(4000)
    assert not asked, asked
    assert not page.errors, page.errors


def test_an_amazonense_tournament_names_result_helpers_who_enter_results_with_no_decision(
    browser: Any, server: str, shots: Path
) -> None:
    """C8 (clarified), issue 18: Amazonense has no table referee (GET /api/variants' ``referee``). Its form
    says so; over the board its organiser names result helpers (the page calls them that), who enter the
    hands and the board's end with no fine and no award."""
    org, ajuda = sign_up(server, "Organizadora"), sign_up(server, "Ajudante")
    people = [sign_up(server, f"Parceiro{k}") for k in range(4)]
    organiser = page_as(browser, server, org, "/tournaments", DESKTOP)
    organiser.wait_for_selector("#tour-create")
    assert "árbitros de mesa" in organiser.inner_text("#tour-game-referee")  # Dominousa first
    organiser.select_option("#tour-game", "amazonense")
    organiser.wait_for_selector("#tour-game-referee:has-text('não tem árbitro de mesa')")
    assert "auxiliares" in organiser.inner_text("#tour-mode option[value='board']")
    assert not organiser.query_selector("#opt-strict")
    organiser.select_option("#tour-mode", "board")
    organiser.fill("#tour-name", "Copa do Boto")
    organiser.fill("#tour-rounds", "1")
    shot(organiser, shots / "amazonense-form-desktop.png", full=True)
    organiser.set_viewport_size(PHONE)
    shot(organiser, shots / "amazonense-form-phone.png", full=True)
    organiser.set_viewport_size(DESKTOP)
    organiser.click("#tour-submit")
    organiser.wait_for_selector("#tournament[data-status='registration']")
    tid = re.search(r"#/tournament/([\w-]+)", organiser.url).group(1)  # type: ignore[union-attr]
    assert tournament_page(server, tid)["game"] == "amazonense"
    # The organiser's tool names result helpers, not referees.
    organiser.wait_for_selector("#tour-referee-form[data-role='helper']")
    assert "Auxiliares de mesa (resultados presenciais)" in organiser.inner_text("#tour-tool-referees")
    assert "Nomear auxiliar" in organiser.inner_text("#tour-ref-add")
    organiser.fill("#tour-ref-user", ajuda.username)
    organiser.fill("#tour-ref-boards", "1")
    organiser.click("#tour-ref-add")
    organiser.wait_for_selector(".tour-referees-edit li:has-text('Ajudante')")
    data = tournament_page(server, tid)
    assert data["referees"] == [] and [(h["id"], h["boards"]) for h in data["helpers"]] == [(ajuda.id, [1])]
    for k in range(2):
        register_team(server, tid, people[2 * k], people[2 * k + 1], f"Dupla {k + 1}")
    call(server, org, "POST", f"/api/tournaments/{tid}/start")
    organiser.wait_for_selector("#tournament[data-status='running'] .tour-info-card .tour-helpers")
    assert "Auxiliares de mesa" in organiser.inner_text(".tour-info-card")
    shot(organiser, shots / "amazonense-tournament-organiser-desktop.png", full=True)
    organiser.set_viewport_size(PHONE)
    shot(organiser, shots / "amazonense-tournament-organiser-phone.png", full=True)

    # The helper: his boards' scoresheet, no console, no fine, no award.
    helper = page_as(browser, server, ajuda, f"/tournament/{tid}", PHONE)
    helper.wait_for_selector(".tour-my-referee a.tour-sheet-link[data-board='1']")
    assert "auxiliar de mesa (resultados presenciais)" in helper.inner_text(".tour-my-referee")
    assert not helper.query_selector("a.tour-ref-link")
    shot(helper, shots / "amazonense-tournament-helper-phone.png", full=True)
    helper.set_viewport_size(DESKTOP)
    shot(helper, shots / "amazonense-tournament-helper-desktop.png", full=True)
    helper.set_viewport_size(PHONE)
    helper.click(".tour-my-referee a.tour-sheet-link[data-board='1']")
    helper.wait_for_selector("#entry-form")
    assert not helper.query_selector("button.ref-choice[data-kind='fine'], #entry-fined, #entry-winner")
    helper.fill("#entry-a", "45")
    helper.fill("#entry-b", "45")
    helper.click("#entry-add")
    helper.wait_for_selector("#entry-list li.kind-hand")
    helper.wait_for_selector("#entry-end[disabled]")  # equal points: the next hands decide, nobody else
    assert "próximas mãos" in helper.inner_text(".entry-end")
    helper.fill("#entry-b", "20")
    helper.click("#entry-add")
    helper.wait_for_selector("#entry-end:not([disabled])")
    shot(helper, shots / "amazonense-sheet-helper-phone.png", full=True)
    helper.click("#entry-end")
    helper.wait_for_selector("#entry-score .entry-final")
    board = tournament_page(server, tid)["rounds"][0]["boards"][0]
    assert (board["kind"], board["winner"], board["points"]) == ("board", board["team_b"], [45, 65])
    # In Spanish the page calls them helpers too.
    helper.goto(f"{server}/#/tournament/{tid}")
    helper.select_option("#lang", "es")
    helper.wait_for_selector(".tour-info-card h2:has-text('Auxiliares (resultados presenciales)')")
    assert not organiser.errors and not helper.errors, (organiser.errors, helper.errors)


SEAT_TWICE = re.compile(r"(Lugar|Puesto|Seat) (\d+) · \1 \2")


def test_the_referee_console_is_only_for_referees_others_get_the_table_and_kept_seats_are_offered_to_nobody_else(
    browser: Any, server: str, shots: Path
) -> None:
    """Issue 22 (11): only a table's referees get its console (GET /api/tables/{id}/referee answers 403 to
    anyone else). A guest who opens #/referee/TABLE gets the table itself, at #/table/TABLE, with a line
    saying why, and no console control, on a phone and a desktop, in pt-BR and es. A tournament table's empty
    seats are kept for the paired players: a guest is offered none, a paired player only his own. The
    referee's seat list names an empty seat once ("Lugar 2", not "Lugar 2 · Lugar 2"). At a table of a game
    without a table referee nobody gets the console, its creator neither, and the printed slips of such a
    tournament have no fines column and no referee's signature."""
    org, juiz = sign_up(server, "Org22"), sign_up(server, "Juiz22")
    people = [sign_up(server, f"Par22{k}") for k in range(4)]
    tid = call(server, org, "POST", "/api/tournaments", {"name": "Copa Árbitro", "starts_at": "2031-02-01T14:00:00Z",
                                                          "options": QUICK}, 201)["id"]  # fmt: skip
    for k in range(2):
        register_team(server, tid, people[2 * k], people[2 * k + 1])
    call(server, org, "PUT", f"/api/tournaments/{tid}/referees/{juiz.username}", {"boards": []})
    call(server, org, "POST", f"/api/tournaments/{tid}/start")
    first = call(server, people[0], "POST", f"/api/tournaments/{tid}/checkin")
    table, first_seat = first["table"], first["seat"]
    # the seat each player is kept (the tournament's board: A1, B1, A2, B2)
    board = tournament_page(server, tid)["rounds"][0]["boards"][0]
    teams = {x["team"]: x for x in tournament_page(server, tid)["teams"]}
    order = [teams[board["team_a"]]["players"][0], teams[board["team_b"]]["players"][0],
             teams[board["team_a"]]["players"][1], teams[board["team_b"]]["players"][1]]  # fmt: skip
    kept = {p["id"]: k for k, p in enumerate(order)}
    waiting = next(p for p in people if p.id != order[first_seat]["id"])  # paired, not yet seated
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        for lang, why in (("pt-BR", "Só os árbitros desta mesa"), ("es", "Solo los árbitros de esta mesa")):
            guest = new_page(browser, lang=lang, **viewport)
            guest.goto(f"{server}/#/referee/{table}")
            guest.wait_for_selector(".table-view .seat-chip[data-seat='3']", timeout=10000)
            assert why in guest.inner_text("#ref-refused")
            assert guest.evaluate("location.hash") == f"#/table/{table}"
            console = "#ref-panel, #ref-form, .ref-decisions, #show-referee, #ref-apply, #open-referee"
            assert not guest.query_selector(console)
            # the kept seats: none offered to a guest, each named as kept
            assert not guest.query_selector("button.sit, #sit-any")
            empty = [k for k in range(4) if k != first_seat]
            for k in empty:
                assert "reservado" in guest.inner_text(f".seat-chip[data-seat='{k}'] .name")
            shot(guest, shots / f"referee-refused-guest-{lang}-{size}.png")
            assert not guest.errors, guest.errors
            guest.context.close()
    # A paired player not yet seated is offered his own seat only.
    player = page_as(browser, server, waiting, f"/table/{table}", PHONE)
    player.wait_for_selector(".seat-chip button.sit", timeout=10000)
    offered = [b.get_attribute("data-seat") for b in player.query_selector_all(".seat-chip button.sit")]
    assert offered == [str(kept[waiting.id])], offered
    player.context.close()
    # The referee gets the console; its seat list names each empty seat once.
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        for lang in ("pt-BR", "es"):
            ref = page_as(browser, server, juiz, f"/referee/{table}", viewport, lang=lang)
            ref.wait_for_selector("#ref-panel #ref-seat option >> nth=3", state="attached", timeout=10000)
            labels = [o.inner_text() for o in ref.query_selector_all("#ref-seat option")]
            assert len(set(labels)) == 4 and not any(SEAT_TWICE.search(x) for x in labels), labels
            assert not ref.query_selector("#ref-refused")
            shot(ref, shots / f"referee-console-{lang}-{size}.png")
            assert not ref.errors, ref.errors
            ref.context.close()

    # An Amazonense table: nobody referees it, its creator (who does not sit there) neither.
    table2 = call(server, org, "POST", "/api/tables", {"variant": "amazonense", **QUICK}, 201)["id"]
    for who in people:
        call(server, who, "POST", f"/api/tables/{table2}/join", {})
    call(server, people[0], "POST", f"/api/tables/{table2}/start")
    creator = page_as(browser, server, org, f"/referee/{table2}", DESKTOP)
    creator.wait_for_selector(".table-view .seat-chip[data-seat='3']", timeout=10000)
    assert "Este jogo não tem árbitro de mesa" in creator.inner_text("#ref-refused")
    assert not creator.query_selector("#ref-panel, #show-referee, #open-referee")
    shot(creator, shots / "referee-refused-amazonense-desktop.png")
    # An Amazonense tournament's printed slips: no fines, the result helper signs.
    body = {"name": "Copa Sem Juiz", "game": "amazonense", "starts_at": "2031-02-02T14:00:00Z", "mode": "board",
            "options": {"target": 30}}  # fmt: skip
    tid2 = call(server, org, "POST", "/api/tournaments", body, 201)["id"]
    for k in range(2):
        register_team(server, tid2, people[2 * k], people[2 * k + 1])
    call(server, org, "POST", f"/api/tournaments/{tid2}/start")
    creator.goto(f"{server}/#/tournament/{tid2}/print/1")
    creator.wait_for_selector("#print-slips .slip")
    slip = creator.inner_text("#print-slips .slip")
    assert "Multas" not in slip and "Árbitro" not in slip and "Auxiliar de mesa" in slip, slip
    assert not creator.errors, creator.errors


HEADERS = {
    "pt-BR": ["Posição", "Dupla", "Partidas", "Vitórias", "Derrotas", "Saldo", "Pontos pró", "Pontos contra",
              "Confronto direto", "Sorteio", "Folgas"],
    "es": ["Posición", "Pareja", "Partidos", "Victorias", "Derrotas", "Diferencia", "Puntos a favor",
           "Puntos en contra", "Enfrentamiento directo", "Sorteo", "Descansos"],
}  # fmt: skip
LEGEND = {"pt-BR": "Critério de desempate", "es": "Criterio de desempate"}
AUTO_ROUNDS = {"pt-BR": "automático (4 para 16 duplas", "es": "automático (4 para 16 parejas"}


def test_the_standings_read_in_words_the_draw_is_a_rank_and_a_phone_shows_every_name_whole(
    browser: Any, server: str, shots: Path
) -> None:
    """Issue 22 (12): every standings header is spelled out (partidas, vitórias, derrotas, saldo, pontos pró,
    pontos contra, confronto direto, sorteio) and the tie-breaks' order is written under the table; the draw
    is a small rank (1 to the number of teams) while the CSV keeps its ticket; the form says the automatic
    number of rounds in words ("automático (4 para 16 duplas)"), with no log₂; on a phone every team's name
    is whole (no cell's text wider than its box) and the standings fit the screen; pt-BR and es."""
    org = sign_up(server, "Org12")
    names = ["Os Invencíveis do Mercado Adolpho Lisboa", "Carroça de Seis", "Galo Doido da Cachoeirinha", "Tambaquis"]
    people = [sign_up(server, f"Jogadora Comprida {k}") for k in range(8)]
    body = {"name": "Copa Legível", "starts_at": "2031-03-01T14:00:00Z", "mode": "board", "options": {"target": 100}}
    tid = call(server, org, "POST", "/api/tournaments", body, 201)["id"]
    for k, name in enumerate(names):
        register_team(server, tid, people[2 * k], people[2 * k + 1], name)
    call(server, org, "POST", f"/api/tournaments/{tid}/start")
    for board, points in ((1, (45, 10)), (2, (20, 65))):
        url = f"/api/tournaments/{tid}/rounds/1/boards/{board}"
        call(server, org, "POST", f"{url}/entries", {"a": points[0], "b": points[1]})
        call(server, org, "POST", f"{url}/result", {})
    standings = tournament_page(server, tid)["standings"]
    assert sum(x["played"] for x in standings) == 4
    tickets = sorted(x["draw"] for x in standings)
    csv_lines = list(csv.DictReader(io.StringIO(http.get(f"{server}/api/tournaments/{tid}/standings.csv").text)))
    assert sorted(x["draw"] for x in csv_lines) == tickets and all(re.fullmatch(r"[0-9a-f]{8}", x) for x in tickets)
    for lang in ("pt-BR", "es"):
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page = page_as(browser, server, org, f"/tournament/{tid}", viewport, lang=lang)
            page.wait_for_selector("#tour-standings-table tbody tr >> nth=3")
            heads = [h.text_content().strip() for h in page.query_selector_all("#tour-standings-table thead th")]
            assert heads == HEADERS[lang], heads
            assert LEGEND[lang] in page.inner_text(".tour-tiebreaks")
            for line in standings:
                row = f"#tour-standings-table tr[data-team='{line['team']}']"
                assert page.text_content(f"{row} td.c-draw").strip() == str(tickets.index(line["draw"]) + 1)
            cut = page.evaluate("""() => [...document.querySelectorAll(
                "#tour-standings-table .tour-team-name, #tour-standings-table .tour-players, #tour-standings-table td")]
                .filter((e) => e.offsetParent && e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
            assert not cut, cut  # no name (nor number) cut
            wide = page.evaluate("""() => { const t = document.querySelector("#tour-standings-table");
                return [t.getBoundingClientRect().right, t.parentElement.getBoundingClientRect().right,
                        document.documentElement.clientWidth]; }""")
            assert wide[0] <= min(wide[1], wide[2]) + 1, wide  # it fits its card and the screen: no sideways scroll
            assert all(n in page.inner_text("#tour-standings-table") for n in names)
            shot(page, shots / f"standings-{lang}-{size}.png", full=True)
            assert "log₂" not in page.inner_text("body")
            # the form: the automatic number of rounds in words
            page.goto(f"{server}/#/tournaments")
            page.wait_for_selector("#tour-create #tour-rounds")
            form = page.inner_text("#tour-create")
            assert "log₂" not in form and "log2" not in form and AUTO_ROUNDS[lang] in form, form
            if size == "phone":
                page.eval_on_selector("#tour-rounds", "e => e.scrollIntoView()")
                shot(page, shots / f"form-rounds-{lang}-phone.png")
            assert not page.errors, page.errors
            page.context.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_start_entered_at_19h_in_manaus_is_kept_and_shown_as_19h_with_the_zones_name(
    browser: Any, server: str, shots: Path, size: dict[str, Any]
) -> None:
    """Issue 18 (4): an organiser in Manaus (UTC-4) enters 19:00; the form sends it with its offset, the server
    keeps 23:00 UTC (SQLite kept 19:00 UTC: the page showed 15:00), and every page shows it in the viewer's own
    zone, named in his language: 19:00 Horário Padrão do Amazonas in Manaus, 8:00 PM in São Paulo."""
    kind = "phone" if size is PHONE else "desktop"
    org = sign_up(server, "Organizadora")
    # Manaus has had no summer time since 2000; the latest start of the session's tournaments (the lobby lists 4)
    day = dt.date(2099, 3, 10)
    page = new_page(browser, lang="pt-BR", timezone="America/Manaus", **size)
    log_in(page, server, org, "/tournaments")
    page.wait_for_selector("#tour-create")
    page.fill("#tour-name", f"Copa Amazonas {secrets.token_hex(2)}")
    page.fill("#tour-starts", f"{day}T19:00")
    page.fill("#tour-closes", f"{day}T18:30")
    assert page.inner_text("#tour-zone") == "No seu fuso horário (Horário Padrão do Amazonas, America/Manaus)"
    page.locator("#tour-starts").scroll_into_view_if_needed()
    shot(page, shots / f"manaus-form-{kind}.png")
    page.click("#tour-submit")
    page.wait_for_selector("#tournament[data-status='registration']")
    tid = re.search(r"#/tournament/([\w-]+)", page.url).group(1)  # type: ignore[union-attr]
    data = tournament_page(server, tid)
    assert (data["starts_at"], data["registration_closes"]) == (f"{day}T23:00:00+00:00", f"{day}T22:30:00+00:00")
    when = page.inner_text(".tour-when time")
    assert re.search(r"\b19:00 Horário Padrão do Amazonas$", when), when
    rules = page.inner_text(".tour-rules-line")
    assert re.search(r"inscrições até .*\b18:30 AMT\b", rules), rules
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, shots / f"manaus-tournament-{kind}.png")
    page.goto(f"{server}/#/tournaments")
    item = page.wait_for_selector(f"li.tour-item[data-tournament='{tid}'] .tour-item-when time")
    assert re.search(r"\b19:00 Horário Padrão do Amazonas$", item.inner_text()), item.inner_text()
    # The same moment for a viewer in São Paulo who reads English: his own zone, named in his words.
    elsewhere = new_page(browser, lang="en", timezone="America/Sao_Paulo", **size)
    elsewhere.goto(f"{server}/#/tournament/{tid}")
    when = elsewhere.wait_for_selector(".tour-when time").inner_text()
    assert re.search(r"\b08:00\sPM Brasilia Standard Time$", when), when
    shot(elsewhere, shots / f"sao-paulo-en-tournament-{kind}.png")
    shot(page, shots / f"manaus-list-{kind}.png")
    page.goto(f"{server}/#/")
    box = page.wait_for_selector(f"#lobby-tournaments li:has(a[href='#/tournament/{tid}']) small")
    assert re.search(r"\b19:00 AMT$", box.inner_text()), box.inner_text()  # the lobby's box: the zone's short name
    assert not page.errors and not elsewhere.errors, (page.errors, elsewhere.errors)
