"""The client under its Content-Security-Policy (issue 21): no violation over the lobby, a table in play and
/docs; markup in a player's name or a chat message is shown as text and never runs; and screenshots, at a
phone's size and a desktop's, for a person to see that nothing visible broke."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, api, make_table, new_page, open_lobby, play_soon

pytestmark = pytest.mark.slow

#: What the page reports: each violation the browser raises an event for, and the console's own words.
WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.violations.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));
"""
SCRIPT = "<script>alert(1)</script>"
IMAGE = "<img src=x onerror=alert(1)>"


def watched(browser: Any, **size: Any) -> Any:
    page = new_page(browser, **size)
    page.add_init_script(WATCH)
    page.dialogs = []
    page.refused = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.on(
        "console",
        lambda m: page.refused.append(m.text) if "Content Security Policy" in m.text or "Refused" in m.text else None,
    )
    return page


def violations(page: Any) -> list[str]:
    found: list[str] = [*page.evaluate("window.violations || []"), *page.refused]
    return found


def rename(page: Any, name: str) -> None:
    page.click("#menu summary")
    page.fill("#name", name)
    page.press("#name", "Enter")
    page.wait_for_function("(n) => JSON.parse(localStorage.getItem('capicua.me')).name === n", arg=name)
    page.keyboard.press("Escape")


def test_no_violation_and_markup_in_a_name_or_a_chat_message_is_inert_text(
    browser: Any, server: str, shots: Path
) -> None:
    page = watched(browser, **DESKTOP)
    open_lobby(page, server)
    rename(page, SCRIPT)
    # an open table (its bots far off) that the lobby lists with my name
    waiting = api(page, "POST", "/api/tables", {"variant": "dominousa", "sit": True, "bots_after": 600})
    assert waiting["status"] == 201, waiting
    other = watched(browser, **DESKTOP)
    open_lobby(other, server)
    other.wait_for_selector(f".who:has-text('{SCRIPT}')", timeout=10000)
    # a casual table in play: free chat, the websocket, the clocks, the tiles
    make_table(page, server, variant="individual", players=2, target=1000)
    page.wait_for_selector(f".seat-chip.me .name:has-text('{SCRIPT}')", timeout=15000)
    for text in (SCRIPT, IMAGE):
        page.wait_for_selector("#chat-text:not([disabled])")
        page.fill("#chat-text", text)
        page.press("#chat-text", "Enter")
        page.wait_for_selector(f".chat-line:has-text('{text}')", timeout=5000)
        page.wait_for_timeout(1100)  # one message a second
    rename(page, IMAGE)
    page.wait_for_selector(f".seat-chip.me .name:has-text('{IMAGE}')", timeout=5000)
    for _ in range(3):
        play_soon(page, 20)
        page.wait_for_timeout(300)
    page.wait_for_timeout(500)
    assert not page.query_selector("img[src=x]") and not page.query_selector("#app script")
    assert page.dialogs == [] and other.dialogs == []
    assert violations(page) == [] and violations(other) == []
    assert not page.errors and not other.errors
    assert page.evaluate("getComputedStyle(document.querySelector('.mytiles')).getPropertyValue('--n')").strip()


def test_the_docs_render_their_operations_and_try_one_without_a_violation(browser: Any, server: str) -> None:
    page = watched(browser, **DESKTOP)
    page.goto(f"{server}/docs")
    page.wait_for_selector("#swagger-ui .opblock", timeout=30000)
    assert len(page.query_selector_all("#swagger-ui .opblock")) > 40
    summary = page.locator(".opblock-get .opblock-summary:has([data-path='/api/variants'])").first
    summary.click()
    page.click(".opblock.is-open .try-out__btn")
    page.click(".opblock.is-open .execute")
    page.wait_for_selector(".opblock.is-open .live-responses-table .response-col_status:has-text('200')", timeout=10000)
    assert "amazonense" in page.inner_text(".opblock.is-open .live-responses-table")
    assert violations(page) == [] and page.dialogs == [] and not page.errors


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_screenshots_of_the_lobby_and_a_table_under_the_policy(
    browser: Any, server: str, shots: Path, size: dict[str, int]
) -> None:
    page = watched(browser, **size)
    open_lobby(page, server)
    page.wait_for_timeout(300)
    name = f"{size['width']}x{size['height']}"
    page.screenshot(path=shots / f"lobby-{name}.png", animations="disabled")
    make_table(page, server, variant="amazonense", target=200)
    page.wait_for_selector(".mytiles button.tile", timeout=15000)
    play_soon(page, 20)
    page.wait_for_timeout(500)
    page.screenshot(path=shots / f"table-{name}.png", animations="disabled")
    # the font is ours and was loaded, the icons are drawn, the style sheets apply
    assert page.evaluate("document.fonts.check('16px \"Noto Sans\"')")
    assert page.evaluate("[...document.fonts].some((f) => f.status === 'loaded')")
    assert page.query_selector("svg.icon")
    assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith('"Noto Sans"')
    assert violations(page) == [] and not page.errors
