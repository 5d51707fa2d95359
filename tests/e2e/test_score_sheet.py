"""The score sheet ("marcador", issue 22 item 5) in the table's side panel, a tab beside the moves: one row a
hand with each side's points (a zero as —) and the running totals, which end at the match's score; the
reasons of a hand on demand. Played for real against bots, at phone and desktop sizes, in es (the words of
every language: tests/web/test_words.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, new_page, play_until
from tests.e2e.test_browser import create_table

pytestmark = pytest.mark.slow

SHEET_ROWS = """() => [...document.querySelectorAll('.score-sheet tr.sheet-row')].map(r =>
  [...r.querySelectorAll('td.pts')].map(td =>
    [td.querySelector('.got').textContent, Number(td.querySelector('.sum').textContent)]))"""


def test_the_score_sheet_adds_up_hand_by_hand(browser: Any, server: str, shots: Path) -> None:
    """One match (a hand is half a minute of play): on a phone in Spanish, then the same page on a desktop."""
    page = new_page(browser, "es", width=PHONE["width"], height=PHONE["height"])
    page.goto(server)
    page.wait_for_selector("#create")
    create_table(page, "dominousa", 200)
    page.wait_for_selector(".mytiles")
    page.click("#show-history")
    tab = page.locator("#tab-sheet")
    assert tab.inner_text() == "Anotador"
    tab.click()
    assert tab.get_attribute("aria-selected") == "true"
    page.click(".close-panel")  # on a phone the panel covers my tiles: closed while I play
    play_until(page, ".score-sheet tr.sheet-row[data-hand='2']", timeout=90)  # the first hand is over
    page.click("#show-history")
    assert page.locator("#tab-sheet").get_attribute("aria-selected") == "true"  # the tab I chose
    rows = page.evaluate(SHEET_ROWS)
    finished = rows[:-1] if page.query_selector(".score-sheet tr.playing") else rows
    assert len(finished) >= 1
    for k in range(len(rows[0])):  # each side's running total is the sum of its hands
        total = 0
        for row in rows:
            got, running = row[k]
            total += 0 if got == "—" else int(got)
            assert running == total
    assert any(got == "—" for row in finished for got, _ in row)  # a hand a side did not score: —, not 0
    totals = page.eval_on_selector_all(".score-sheet tfoot td.total", "ts => ts.map(t => t.textContent)")
    footer = [int(x) for x in totals]
    assert footer == [cell[1] for cell in rows[-1]]
    # The reasons of the first hand, on demand.
    toggle = page.locator(".score-sheet tr.sheet-row[data-hand='1'] .why-toggle")
    assert toggle.get_attribute("aria-expanded") == "false" and page.locator(".why-row").count() == 0
    toggle.click()
    page.locator(".why-row").first.wait_for()
    reasons = page.locator(".why-row").first.inner_text()
    assert any(ch.isdigit() for ch in reasons), reasons
    page.screenshot(path=str(shots / "score-sheet-es-phone.png"))
    page.set_viewport_size(DESKTOP)  # the side panel beside the felt: the sheet stays, its reasons open
    page.locator(".why-row").first.wait_for()
    page.screenshot(path=str(shots / "score-sheet-es-desktop.png"))
    page.click("#tab-moves")
    page.locator("#panel-moves").wait_for()  # the moves of the hand in play (maybe none yet)
    assert page.locator("#tab-moves").get_attribute("aria-selected") == "true"
    assert page.errors == []
