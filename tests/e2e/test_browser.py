"""The browser client in a real headless chromium (Playwright), against a real server process."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import PASSWORD, http, log_in, new_page, page_state, play_one, play_until, sign_up

pytestmark = pytest.mark.slow

ME = "JSON.parse(localStorage.getItem('capicua.me'))"
FOCUSED_TILE = "(e => e && e.classList.contains('tile') ? e.title : null)(document.activeElement)"


def create_table(page: Any, variant: str, target: int, bots_after: int | None = 0, players: int | None = None) -> str:
    page.select_option("#variant", variant)
    if players:
        page.select_option("#players", str(players))
    page.fill("#target", str(target))
    page.fill("#pause_seconds", "0")
    if bots_after is not None:
        page.fill("#bots_after", str(bots_after))
    page.click("#create button[type=submit]")
    page.wait_for_function("() => location.hash.startsWith('#/table/')")
    return str(page.url.split("#/table/")[1].split("?")[0])


def play_until_over(page: Any, timeout: float = 90) -> int:
    return play_until(page, ".result", timeout)


def open_menu(page: Any) -> None:
    if not page.evaluate("document.querySelector('#menu').open"):
        page.click("#menu summary")


def test_guest_plays_a_whole_amazonense_match_against_three_bots(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server)
    page.wait_for_selector("#create")
    page.screenshot(path=shots / "lobby.png", animations="disabled")
    create_table(page, "amazonense", target=60)
    page.wait_for_selector(".board svg", timeout=15000)
    page.screenshot(path=shots / "table.png", animations="disabled")
    moves = play_until_over(page)
    page.wait_for_selector("#download")
    page.screenshot(path=shots / "result.png", animations="disabled")
    assert moves > 0
    assert page.query_selector(".result table tbody tr")  # the scoreboard per hand
    assert page.query_selector(".result a[download]")  # download the record
    assert "→ 0" not in page.inner_text(".result")
    assert not page.errors


def test_reload_mid_hand_resumes_the_same_hand(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server)
    page.wait_for_selector("#create")
    create_table(page, "dominousa", target=100)
    page.wait_for_selector(".mytiles button.tile", timeout=15000)
    page.wait_for_timeout(500)
    before = [b.get_attribute("title") for b in page.query_selector_all(".mytiles button.tile")]
    hand_no = page.inner_text("#hand-no")
    page.reload()
    page.wait_for_selector(".mytiles button.tile", timeout=15000)
    after = [b.get_attribute("title") for b in page.query_selector_all(".mytiles button.tile")]
    page.screenshot(path=shots / "after-reload.png", animations="disabled")
    assert page.inner_text("#hand-no") == hand_no
    assert set(after) <= set(before) and after  # the same hand: my tiles are still mine (some may be played)


def test_language_switch(browser: Any, server: str) -> None:
    page = new_page(browser, lang="es-ES")
    page.goto(server)
    page.wait_for_selector("#create")
    assert page.inner_text(".tables-box h1") == "Mesas" and "Partida rápida" in page.inner_text("#quick")
    page.select_option("#lang", "en")
    page.wait_for_selector("text=Quick play")
    assert page.inner_text(".tables-box h1") == "Tables"
    page.select_option("#lang", "pt-BR")
    page.wait_for_selector("text=Jogo rápido")
    assert page.evaluate("document.documentElement.lang") == "pt-BR"


#: What #app shows, each time it is drawn: its view's class (a view's <main>, or the error line).
WATCH_VIEWS = """() => { window.views = [];
    const view = () => document.querySelector('#app > main, #app > .fatal')?.className ?? null;
    new MutationObserver(() => window.views.push(view()))
        .observe(document.querySelector('#app'), { childList: true }); }"""


def test_a_view_that_arrives_late_does_not_cover_the_address_newer_one(browser: Any, server: str) -> None:
    """A profile's answer held back while the player goes on to the rules: when it comes, the profile is drawn,
    and the rules, the address's view, are drawn again over it."""
    page = new_page(browser)
    page.goto(server)
    page.wait_for_selector("#create")
    held: list[Any] = []
    page.route("**/api/players/*/profile", lambda route: held.append(route))
    page.evaluate(WATCH_VIEWS)
    with page.expect_request("**/api/players/*/profile"):
        page.evaluate("() => { location.hash = '#/profile/nobody'; }")
    page.evaluate("() => { location.hash = '#/rules/amazonense'; }")
    page.wait_for_selector("main.rules-view .rule")
    assert held, "the profile's request is held"
    held[0].continue_()
    page.wait_for_function(
        "() => window.views.includes('profile') && window.views.at(-1) === 'rules-view'", timeout=30_000
    )
    assert page.evaluate("window.views.indexOf('profile')") > page.evaluate("window.views.indexOf('rules-view')")
    page.wait_for_selector("main.rules-view .rule")


def test_buttons_have_names_and_tiles_are_reachable_by_keyboard(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, width=390, height=800)  # a phone-sized screen
    page.goto(server)
    page.wait_for_selector("#create")
    create_table(page, "amazonense", target=200)
    page.wait_for_selector(".mytiles button.tile", timeout=15000)
    page.wait_for_selector(".table-view.my-turn", timeout=15000)
    page.screenshot(path=shots / "phone.png", animations="disabled")
    for button in page.query_selector_all("button"):
        name = (button.get_attribute("aria-label") or button.text_content() or "").strip()
        assert name, button.evaluate("b => b.outerHTML")
    # Tab reaches my hand, one stop of the Tab key; the arrows walk every tile of it (issue 22, item 15).
    tiles = len(page.query_selector_all(".mytiles button.tile"))
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_TILE):
            break
    else:
        raise AssertionError("the Tab key never reached my hand")
    page.keyboard.press("Home")
    focused_tiles = {page.evaluate(FOCUSED_TILE)}
    for _ in range(tiles - 1):
        page.keyboard.press("ArrowRight")
        focused_tiles.add(page.evaluate(FOCUSED_TILE))
    assert None not in focused_tiles and len(focused_tiles) == tiles


def test_sign_up_log_out_log_in_and_match_history(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server)
    page.wait_for_selector("#create")
    name = f"ana{int(time.time() * 1000) % 10**8}"
    open_menu(page)
    page.fill("#username", name)
    page.fill("#password", "jaraqui-assado")
    page.click("#signup")
    page.wait_for_selector("#logout", state="attached")
    open_menu(page)
    page.screenshot(path=shots / "signed-up.png", animations="disabled")
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["capicua_session"]["httpOnly"]
    # Play a short match as this account, so it shows in the history.
    page.keyboard.press("Escape")
    create_table(page, "dominousa", target=15)
    play_until_over(page)
    open_menu(page)
    page.click("#logout")
    page.wait_for_selector("#login", state="attached")
    open_menu(page)
    page.fill("#username", name)
    page.fill("#password", "wrong password")
    page.click("#login")
    page.wait_for_selector("#error:not([hidden])")
    open_menu(page)
    page.fill("#username", name)
    page.fill("#password", "jaraqui-assado")
    page.click("#login")
    page.wait_for_selector("#logout", state="attached")
    open_menu(page)
    page.click("#menu .account a")
    page.wait_for_selector("table.history tr")
    page.screenshot(path=shots / "profile.png", animations="disabled")
    assert "Dominousa" in page.inner_text("table.history")


def test_two_browsers_play_at_the_same_individual_table(browser: Any, server: str, shots: Path) -> None:
    ana = new_page(browser)
    ana.goto(server)
    ana.wait_for_selector("#create")
    table = create_table(ana, "individual", target=15, bots_after=None, players=2)
    bia = new_page(browser, lang="es-ES")
    bia.goto(f"{server}/#/table/{table}")
    bia.wait_for_selector(".seat-chip.empty button.sit")
    bia.click(".seat-chip.empty button.sit")
    ana.wait_for_selector("#start:has-text('Começar')")
    ana.click("#start")
    deadline = time.time() + 150
    while time.time() < deadline and not (ana.query_selector(".result") and bia.query_selector(".result")):
        for page in (ana, bia):
            play_one(page)
        time.sleep(0.15)
    ana.screenshot(path=shots / "ana.png", animations="disabled")
    bia.screenshot(path=shots / "bia.png", animations="disabled")
    assert ana.query_selector(".result") and bia.query_selector(".result"), json.dumps(
        {"pages": [page_state(p) for p in (ana, bia)], "table": http.get(f"{server}/api/tables/{table}").json()}
    )
    # Both see the same winner, by name.
    winner = [
        p.inner_text(".result .winners").replace("¡Ganó ", "").replace(" venceu!", "").strip(" !") for p in (ana, bia)
    ]
    assert winner[0] == winner[1] and winner[0]


def test_a_new_password_ends_the_other_browsers_session_and_log_out_everywhere_ends_this_one(
    browser: Any, server: str, shots: Path
) -> None:
    ana = sign_up(server, "Ana")
    laptop = new_page(browser, width=1280, height=800)
    log_in(laptop, server, ana, f"/profile/{ana.id}")
    laptop.wait_for_selector(".security-card #change-password")
    phone = new_page(browser, width=360, height=740)
    phone.goto(server)
    phone.wait_for_selector("#create")
    open_menu(phone)
    phone.fill("#username", ana.username.upper())  # typed in capitals: the same account
    phone.fill("#password", PASSWORD)
    phone.click("#login")
    phone.wait_for_selector("#logout", state="attached")
    phone.goto(f"{server}/#/profile/{ana.id}")
    phone.wait_for_selector(".security-card #logout-everywhere")
    phone.screenshot(path=shots / "security-phone.png", full_page=True, animations="disabled")
    laptop.fill("#current-password", PASSWORD)
    laptop.fill("#new-password", "outra-senha-9")
    laptop.click("#change-password")
    laptop.wait_for_selector("#status:has-text('Senha trocada')")
    laptop.screenshot(path=shots / "password-changed.png", full_page=True, animations="disabled")
    phone.reload()  # the phone's session has ended: it goes on as a guest
    phone.wait_for_selector("#login", state="attached")
    assert phone.evaluate(ME)["guest"] is True
    laptop.click("#logout-everywhere")  # this session too
    laptop.wait_for_selector("#login", state="attached")
    assert laptop.evaluate(ME)["guest"] is True
    assert http.get(f"{server}/api/me", headers=ana.headers).status_code == 401
    assert http.post(f"{server}/api/login", json={"username": ana.username, "password": "outra-senha-9"}).is_success
    assert not laptop.errors and not phone.errors


@pytest.mark.parametrize(
    ("lang", "levels"),
    [
        ("pt-BR", ["Iniciante", "Fácil", "Médio", "Difícil", "Mestre"]),
        ("es", ["Principiante", "Fácil", "Medio", "Difícil", "Maestro"]),
    ],
)
def test_bot_levels_in_the_players_words(browser: Any, server: str, lang: str, levels: list[str]) -> None:
    """Issue 22, item 6: the level picker and a bot's seat say Iniciante … Mestre, never the engines' names."""
    page = new_page(browser, lang)
    page.goto(server)
    page.wait_for_selector("#create")
    options = page.eval_on_selector_all("#bot option", "os => os.map(o => [o.textContent, o.title])")
    assert [text for text, _ in options] == levels and all(about for _, about in options)
    create_table(page, "dominousa", 50)
    page.wait_for_selector(".seat-chip .kind")
    kinds = page.eval_on_selector_all(".seat-chip .kind", "ks => ks.map(k => k.textContent)")
    assert levels[1] in kinds, kinds  # the lobby's default level: Fácil
    text = page.inner_text("body").lower()
    assert not any(word in text for word in ("greedy", "guloso", "scorer", "pimc", "codicioso", "heur")), text
