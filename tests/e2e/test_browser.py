"""The browser client in a real headless chromium (Playwright), against a real server process."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

FOCUSED_TILE = "(e => e && e.classList.contains('tile') ? e.title : null)(document.activeElement)"


def new_page(browser: Any, lang: str = "pt-BR", width: int = 1200, height: int = 900) -> Any:
    context = browser.new_context(locale=lang, viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def create_table(page: Any, variant: str, target: int, bots_after: int | None = 0, players: int | None = None) -> str:
    page.select_option("#variant", variant)
    if players:
        page.select_option("#players", str(players))
    page.fill("#target", str(target))
    if bots_after is not None:
        page.fill("#bots_after", str(bots_after))
    page.click("#create button[type=submit]")
    page.wait_for_function("location.hash.startsWith('#/table/')")
    return str(page.url.split("#/table/")[1].split("?")[0])


def play_until_over(page: Any, timeout: float = 90) -> int:
    """Play whatever is playable (first playable tile, first end; else pass/draw/keep) until the result shows."""
    moves = 0
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.query_selector(".result"):
            return moves
        tiles = page.query_selector_all("button.tile.playable:not([disabled])")
        if tiles:
            tiles[0].click()
            page.wait_for_timeout(50)
            ends = page.query_selector_all(".actions button.primary")
            if page.query_selector("button.tile[aria-pressed='true']") and ends:
                ends[0].click()
            moves += 1
        else:
            for name in ("pass", "draw", "keep", "announce"):
                button = page.query_selector(f"button[data-move='{name}']")
                if button:
                    button.click()
                    moves += 1
                    break
        page.wait_for_timeout(120)
    raise AssertionError("the match did not end in time")


def test_guest_plays_a_whole_amazonense_match_against_three_bots(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server)
    page.wait_for_selector("#create")
    page.screenshot(path=shots / "lobby.png")
    create_table(page, "amazonense", target=60)
    page.wait_for_selector(".board", timeout=15000)
    page.screenshot(path=shots / "table.png")
    moves = play_until_over(page)
    page.screenshot(path=shots / "result.png", full_page=True)
    assert moves > 0
    assert page.query_selector(".result table tbody tr")  # the scoreboard per hand
    assert page.query_selector("a[download]")  # download the record
    assert not page.errors


def test_reload_mid_hand_resumes_the_same_hand(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server)
    page.wait_for_selector("#create")
    create_table(page, "dominousa", target=100)
    page.wait_for_selector(".mytiles", timeout=15000)
    page.wait_for_timeout(500)
    before = [b.get_attribute("title") for b in page.query_selector_all(".mytiles button.tile")]
    hand_no = page.inner_text(".hand .meta").split("·")[0]
    page.reload()
    page.wait_for_selector(".mytiles", timeout=15000)
    after = [b.get_attribute("title") for b in page.query_selector_all(".mytiles button.tile")]
    page.screenshot(path=shots / "after-reload.png")
    assert page.inner_text(".hand .meta").split("·")[0] == hand_no
    assert set(after) <= set(before) and after  # the same hand: my tiles are still mine (some may be played)


def test_spectator_sees_no_hidden_tile(browser: Any, server: str, shots: Path) -> None:
    player = new_page(browser)
    player.goto(server)
    player.wait_for_selector("#create")
    table = create_table(player, "individual", target=100, players=2)
    player.wait_for_selector(".mytiles", timeout=15000)
    mine = {b.get_attribute("title") for b in player.query_selector_all(".mytiles button.tile")}
    watcher = new_page(browser)
    watcher.goto(f"{server}/#/table/{table}")
    watcher.wait_for_selector(".board", timeout=15000)
    watcher.screenshot(path=shots / "spectator.png")
    assert not watcher.query_selector(".mytiles")
    on_table = {t.get_attribute("title") for t in watcher.query_selector_all(".board .tile")}
    shown = {t.get_attribute("title") for t in watcher.query_selector_all(".tile")}
    assert not (shown - on_table) & mine  # the player's hand never shows on the spectator's page


def test_language_switch(browser: Any, server: str) -> None:
    page = new_page(browser, lang="es-ES")
    page.goto(server)
    page.wait_for_selector("#create")
    assert page.inner_text("h1") == "Mesas" and "Partida rápida" in page.inner_text("#quick")
    page.select_option("#lang", "en")
    page.wait_for_selector("text=Quick play")
    assert page.inner_text("h1") == "Tables"
    page.select_option("#lang", "pt-BR")
    page.wait_for_selector("text=Jogo rápido")
    assert page.evaluate("document.documentElement.lang") == "pt-BR"


def test_buttons_have_names_and_tiles_are_reachable_by_keyboard(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, width=390, height=800)  # a phone-sized screen
    page.goto(server)
    page.wait_for_selector("#create")
    create_table(page, "amazonense", target=200)
    page.wait_for_selector(".mytiles", timeout=15000)
    page.screenshot(path=shots / "phone.png", full_page=True)
    for button in page.query_selector_all("button"):
        name = (button.get_attribute("aria-label") or button.inner_text()).strip()
        assert name, button.evaluate("b => b.outerHTML")
    # Tab through the page: every enabled tile button takes the focus.
    enabled = len(page.query_selector_all(".mytiles button.tile:not([disabled])"))
    focused_tiles = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        title = page.evaluate(FOCUSED_TILE)
        if title:
            focused_tiles.add(title)
    assert len(focused_tiles) >= enabled


def test_sign_up_log_out_log_in_and_match_history(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server)
    page.wait_for_selector("#create")
    name = f"ana{int(time.time() * 1000) % 10**8}"
    page.fill("#username", name)
    page.fill("#password", "jaraqui-assado")
    page.click("#signup")
    page.wait_for_selector("#logout")
    page.screenshot(path=shots / "signed-up.png")
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["capicua_session"]["httpOnly"]
    # Play a short match as this account, so it shows in the history.
    create_table(page, "dominousa", target=15)
    play_until_over(page)
    page.click("#logout")
    page.wait_for_selector("#login")
    page.fill("#username", name)
    page.fill("#password", "wrong password")
    page.click("#login")
    page.wait_for_selector("#error:not([hidden])")
    page.fill("#password", "jaraqui-assado")
    page.click("#login")
    page.wait_for_selector("#logout")
    page.click("header .account a")
    page.wait_for_selector("table.history tr")
    page.screenshot(path=shots / "profile.png")
    assert "Dominousa" in page.inner_text("table.history")


def test_replay_viewer_steps_through_a_finished_match(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, lang="en")
    page.goto(server)
    page.wait_for_selector("#create")
    create_table(page, "individual", target=20, players=2)
    play_until_over(page)
    page.wait_for_selector("#open-replay")
    page.click("#open-replay")
    page.wait_for_selector("#replay #step")
    first = page.inner_text("#step")
    page.click("#next")
    page.click("#next")
    second = page.inner_text("#step")
    assert first != second and "3/" in second
    page.click("#prev")
    assert "2/" in page.inner_text("#step")
    page.click("#last")
    assert (
        page.inner_text("#step").split("·")[1].split("/")[0].strip().split()[-1]
        == page.inner_text("#step").split("/")[1].split()[0]
    )
    page.screenshot(path=shots / "replay.png")


def test_two_browsers_play_at_the_same_individual_table(browser: Any, server: str, shots: Path) -> None:
    ana = new_page(browser)
    ana.goto(server)
    ana.wait_for_selector("#create")
    table = create_table(ana, "individual", target=15, bots_after=None, players=2)
    bia = new_page(browser, lang="es-ES")
    bia.goto(f"{server}/#/table/{table}")
    bia.wait_for_selector(".seats")
    bia.click("text=Sentarse")
    ana.wait_for_selector("text=Começar")
    ana.click("text=Começar")
    deadline = time.time() + 90
    while time.time() < deadline and not (ana.query_selector(".result") and bia.query_selector(".result")):
        for page in (ana, bia):
            tiles = page.query_selector_all("button.tile.playable:not([disabled])")
            if tiles:
                tiles[0].click()
                page.wait_for_timeout(50)
                if page.query_selector("button.tile[aria-pressed='true']"):
                    page.query_selector_all(".actions button.primary")[0].click()
            for name in ("draw", "pass"):
                button = page.query_selector(f"button[data-move='{name}']")
                if button:
                    button.click()
        time.sleep(0.15)
    ana.screenshot(path=shots / "ana.png")
    bia.screenshot(path=shots / "bia.png")
    assert ana.query_selector(".result") and bia.query_selector(".result")
    # Both see the same winner (the winner's own page adds "(você)"/"(tú)" to his name).
    winner = [p.inner_text(".result h2").split(":")[-1].split("(")[0].strip() for p in (ana, bia)]
    assert winner[0] == winner[1] and winner[0]
