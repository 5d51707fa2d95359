"""The lobby tells the truth, and tables and tournaments are shared (issue 22, items 9 and 10), in Chromium at a
phone's and a desktop's size, in pt-BR and es.

- A table nobody started whose seats are all taken is "cheia" / "llena" with "Assistir" / "Mirar", not
  "aberta" with "Sentar"; one counting down to its start says in how many seconds; the lobby says how many
  people are online and each table how many watch it.
- Quick play's Individual is two players with the morto, with three beside it.
- A full table counts down at the table and starts by itself; "Começar" stays for the players.
- A private table's page, and a tournament's, share their link: a copy button and a plain wa.me link holding it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect
from websockets.sync.client import connect

from tests.e2e.helpers import DESKTOP, PHONE, call, http, new_page, sign_up

WORDS = json.loads((Path(__file__).resolve().parents[2] / "capicua/web/static/js/words.json").read_text("utf-8"))
LANG = {"pt-BR": 0, "es": 1}


def word(key: str, lang: str) -> str:
    return str(WORDS[key][LANG[lang]])


def guest(server: str, name: str) -> dict[str, str]:
    r = http.post(f"{server}/api/guests", json={"name": name})
    assert r.status_code in (200, 201), r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def post(server: str, who: dict[str, str], path: str, body: Any = None, status: int = 200) -> Any:
    r = http.post(server + path, json=body if body is not None else {}, headers=who)
    assert r.status_code == status, r.text
    return r.json()


def full_table(server: str, autostart: bool) -> str:
    people = [guest(server, name) for name in ("Ana", "Bia", "Caio", "Duda")]
    table = post(server, people[0], "/api/tables", {"variant": "dominousa", "autostart": autostart}, 201)["id"]
    for k, who in enumerate(people):
        post(server, who, f"/api/tables/{table}/join", {"seat": k})
    return str(table)


def test_the_lobby_shows_open_full_counting_and_playing_tables_with_watchers_and_people_online(
    server: str, browser: Any, shots: Path
) -> None:
    host = guest(server, "Zé")
    opened = post(server, host, "/api/tables", {"variant": "amazonense"}, 201)["id"]  # nobody sits: aberta
    full = full_table(server, autostart=False)
    counting = full_table(server, autostart=True)
    playing = post(
        server, host, "/api/tables", {"variant": "individual", "players": 2, "sit": True, "bots_after": 0}, 201
    )["id"]
    with connect(server.replace("http", "ws") + "/ws") as ws:  # somebody watches the match in play
        ws.send(json.dumps({"type": "subscribe", "table": playing}))
        for lang, size in (("pt-BR", PHONE), ("es", DESKTOP), ("pt-BR", DESKTOP), ("es", PHONE)):
            page = new_page(browser, lang, **size)
            page.goto(server)

            def row(table: str, page: Any = page) -> Any:
                return page.locator(f"li.table-item[data-table='{table}']")

            expect(row(full).locator(".status")).to_have_text(word("status_full", lang))
            expect(row(full).locator("a.button")).to_have_text(word("watch", lang))
            # the counting table: full and counting down, or (10 s later, on a loaded machine) started by itself
            hand_one = word("hand_n", lang).replace("{n}", "1")
            expect(row(counting).locator(".status")).to_have_text(
                re.compile(f"^({word('status_full', lang)}|{hand_one}|{word('status_playing', lang)})$")
            )
            if row(counting).locator(".status").inner_text() == word("status_full", lang):
                expect(row(counting).locator(".starts-in")).to_have_text(
                    re.compile(word("starts_in", lang).replace("{n}", r"\d+"))
                )
            expect(row(opened).locator(".status")).to_have_text(word("status_open", lang))
            expect(row(opened).locator("a.button")).to_have_text(word("join", lang))
            expect(row(playing).locator("a.button")).to_have_text(word("watch", lang))
            expect(row(playing).locator(".watchers")).to_contain_text("1")
            online = "online" if lang == "pt-BR" else "en línea"
            expect(page.locator("#online")).to_have_text(re.compile(rf"^\d+ {online}$"))
            # the quick play of individual: two with the morto, three beside it
            main = page.locator("#quick .quick-game[data-game='individual']")
            expect(main).to_have_attribute("data-players", "2")
            expect(page.locator("#quick .quick-more[data-game='individual'][data-players='3']")).to_be_visible()
            if lang == "pt-BR" and size is DESKTOP:
                expect(main).to_contain_text("2 jogadores, com morto")
            name = "phone" if size is PHONE else "desktop"
            page.locator("#quick").scroll_into_view_if_needed()
            page.screenshot(path=str(shots / f"lobby-{lang}-{name}.png"), full_page=True)
            assert not page.errors, page.errors
            page.context.close()
    # Quick play's three: a table of three seats, me and two bots.
    page = new_page(browser, "pt-BR", **DESKTOP)
    page.goto(server)
    page.click("#quick .quick-more[data-game='individual'][data-players='3']")
    page.wait_for_url(re.compile(r"#/table/"))
    table = page.url.split("#/table/")[1]
    summary = http.get(f"{server}/api/tables/{table}").json()
    assert summary["variant"] == "individual" and summary["players"] == 3


def test_a_full_table_counts_down_and_starts_by_itself_and_a_private_table_shares_its_link(
    server: str, browser: Any, shots: Path
) -> None:
    people = [guest(server, name) for name in ("Bia", "Caio", "Duda")]
    host = new_page(browser, "pt-BR", **DESKTOP)
    host.goto(server)
    host.wait_for_selector("#create")
    host.check("#private")
    expect(host.locator("#autostart")).to_be_checked()  # on by default
    host.select_option("#variant", "dominousa")
    host.click("#create button[type=submit]")
    host.wait_for_url(re.compile(r"#/table/.+\?invite="))
    table, invite = re.search(r"#/table/([^?]+)\?invite=(.+)$", host.url).groups()  # type: ignore[union-attr]
    link = f"{server}/#/table/{table}?invite={invite}"
    expect(host.locator("#share-url")).to_have_value(link)
    expect(host.locator("#share-copy")).to_have_text(word("copy_link_button", "pt-BR"))
    href = host.locator("#share-whatsapp").get_attribute("href")
    assert href is not None and href.startswith("https://wa.me/?text=")
    assert link in parse_qs(urlsplit(href).query)["text"][0]
    whatsapp = host.locator("#share-whatsapp")  # a plain link: no script of theirs, nothing of ours handed over
    expect(whatsapp).to_have_attribute("rel", "noopener noreferrer")
    expect(whatsapp).to_have_attribute("target", "_blank")
    policy = http.get(server).headers["content-security-policy"]
    assert "navigate-to" not in policy and "script-src 'self'" in policy  # the policy leaves links alone, as it was
    host.click("#share-copy")
    expect(host.locator(".share-note")).to_have_text(word("link_copied", "pt-BR"))
    host.locator(".waiting").screenshot(path=str(shots / "share-pt-BR-desktop.png"))
    # A friend follows the link on a phone, in Spanish: the same share, in his words.
    friend = new_page(browser, "es", **PHONE)
    friend.goto(link)
    expect(friend.locator("#share-copy")).to_have_text(word("copy_link_button", "es"))
    expect(friend.locator("#share-url")).to_have_value(link)
    friend.locator(".waiting").screenshot(path=str(shots / "share-es-phone.png"))
    # Everybody sits: the table counts down, "Começar" still there, and it starts by itself.
    for k, who in enumerate(people, start=1):
        post(server, who, f"/api/tables/{table}/join", {"seat": k, "invite": invite})
    expect(host.locator("#starts-in")).to_have_text(re.compile(r"^A partida começa em \d+ s$"))
    expect(friend.locator("#starts-in")).to_have_text(re.compile(r"^El partido empieza en \d+ s$"))
    expect(host.locator("#start")).to_be_visible()  # "Começar" stays for the players
    expect(friend.locator("#start")).to_have_count(0)  # a spectator starts nothing
    friend.screenshot(path=str(shots / "countdown-es-phone.png"))
    for page in (host, friend):
        expect(page.locator("#table")).to_have_attribute("data-status", "playing", timeout=30_000)
        assert not page.errors, page.errors


def test_a_tournament_shares_its_link(server: str, browser: Any, shots: Path) -> None:
    org = sign_up(server, "Organiza")
    body = {"name": "Copa do Tambaqui", "starts_at": "2031-01-04T14:00:00Z", "rounds": 1}
    tid = call(server, org, "POST", "/api/tournaments", body, 201)["id"]
    for lang, size, name in (("pt-BR", PHONE, "phone"), ("es", DESKTOP, "desktop")):
        page = new_page(browser, lang, **size)
        page.goto(f"{server}/#/tournament/{tid}")
        link = f"{server}/#/tournament/{tid}"
        expect(page.locator("#tour-share-url")).to_have_value(link)
        expect(page.locator("#tour-share-copy")).to_have_text(word("copy_link_button", lang))
        href = page.locator("#tour-share-whatsapp").get_attribute("href")
        assert href is not None and href.startswith("https://wa.me/?text=")
        text = parse_qs(urlsplit(href).query)["text"][0]
        assert link in text and "Copa do Tambaqui" in text
        page.locator("#tour-head").screenshot(path=str(shots / f"tour-share-{lang}-{name}.png"))
        assert not page.errors, page.errors
