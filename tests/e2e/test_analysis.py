"""The hand review in the browser: "analyse" from the result dialog, the progress bar, the per-step
evaluation, the best move on request, and the graph of accumulated loss whose points jump to their step.
Issue 22 (13): each player's counts (imprecisões, erros, erros graves, precisão %) on the first view, the
graph's axis in pontos esperados perdidos, and the ends in words and arrows, never the record's letters."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, api, make_table, new_page, open_lobby, play_until

#: A record's end letter standing alone in the text (W E N S on the cross, L R on a line).
LETTER = re.compile(r"(?<!\w)[WENSLR](?!\w)")
COUNTS = {
    "pt-BR": ("de precisão", "imprecis", "erro", "erros graves", "pontos esperados perdidos"),
    "es": ("de precisión", "imprecisi", "error", "errores graves", "puntos esperados perdidos"),
}


def check_counts_and_words(page: Any, lang: str, summary: list[dict[str, Any]]) -> None:
    """The counts on the first view (not behind a toggle), as the server counted them; the axis's unit; no
    bare end letter in the panel's text."""
    rows = page.query_selector_all("#analysis-players li.an-player")
    assert len(rows) == len(summary)
    for row, s in zip(rows, summary, strict=True):
        assert row.is_visible()
        text = row.inner_text()
        shown = math.floor(s["accuracy"] + 0.5)  # as Math.round rounds (Python's round rounds half to even)
        assert s["name"] in text and f"{shown}%" in text, (text, s)
        for kind, key in (("inaccuracy", "inaccuracies"), ("mistake", "mistakes"), ("blunder", "blunders")):
            assert row.get_attribute("data-seat") == str(s["seat"])
            assert row.query_selector(f".an-count[data-kind='{kind}']").inner_text().startswith(f"{s[key]} ")
    accuracy, inaccuracy, mistake, blunder, axis = COUNTS[lang]
    counts = page.inner_text("#analysis-players")
    assert accuracy in counts and inaccuracy in counts and mistake in counts and blunder in counts, counts
    assert axis in page.text_content("#analysis-axis-y")
    prose = page.inner_text("#analysis")
    assert not LETTER.search(prose), LETTER.findall(prose)


@pytest.mark.slow
def test_analysis_graph_and_per_step_evaluation_in_the_replay(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, lang="pt-BR", **DESKTOP)
    open_lobby(page, server)
    make_table(page, server, variant="individual", players=2, target=20)
    play_until(page, ".result")
    page.wait_for_selector("#open-analysis")
    page.click("#open-analysis")
    page.wait_for_selector("#replay #step")
    assert "?analysis" in page.evaluate("location.hash")
    page.wait_for_selector("#analysis-progress, #analysis-graph", timeout=10000)  # running, or already done
    page.wait_for_selector("#analysis-graph circle.an-point", timeout=90000)
    record = re.search(r"#/replay/(\w+)", page.evaluate("location.hash"))
    assert record
    summary = api(page, "GET", f"/api/records/{record[1]}/analysis")["body"]["result"]["summary"]
    check_counts_and_words(page, "pt-BR", summary)
    points = page.query_selector_all("#analysis-graph circle.an-point")
    assert points
    steps = [int(p.get_attribute("data-step")) for p in points]
    target = steps[len(steps) // 2]
    page.click(f"#analysis-graph circle.an-point[data-step='{target}']")
    page.wait_for_selector(f"#step:has-text('Lance {target + 1}/')", timeout=3000)
    assert page.evaluate("location.hash").endswith(f"/{target + 1}?analysis")
    step = page.wait_for_selector(f"#analysis-step[data-step='{target}']")
    text = step.inner_text()
    assert "jogou" in text and "Pontos esperados" in text
    assert page.query_selector(f"#analysis-graph circle.an-point.current[data-step='{target}']")
    assert not page.query_selector("ol.an-moves")  # the best move only on request
    page.click("#show-best")
    page.wait_for_selector("ol.an-moves li")
    assert "Melhor:" in page.inner_text("#analysis-step")
    ends = page.inner_text("ol.an-moves")
    assert "Esquerda" in ends or "Direita" in ends or "saída" in ends, ends  # the ends in words
    check_counts_and_words(page, "pt-BR", summary)  # the choices too: no end's letter
    page.click("details.an-more summary")
    page.wait_for_selector("table.an-summary tbody tr")
    assert len(page.query_selector_all("table.an-summary tbody tr")) == 2
    page.screenshot(path=shots / "analysis-desktop.png", animations="disabled")
    # A step with no choice says so; the keyboard still steps through the match.
    page.keyboard.press("Home")
    page.wait_for_selector("#analysis-step:has-text('Sem escolha')")
    # The same replay on a phone, in Spanish: the analysis is stored, shown at once.
    link = page.evaluate("location.href").replace("/1?analysis", f"/{target + 1}?analysis")
    phone = new_page(browser, lang="es", **PHONE)
    phone.goto(link)
    phone.wait_for_selector("#analysis-graph circle.an-point", timeout=10000)
    assert not phone.query_selector("#analysis-progress")
    phone.wait_for_selector(f"#analysis-step[data-step='{target}']")
    assert "Puntos esperados" in phone.inner_text("#analysis-step")
    check_counts_and_words(phone, "es", summary)
    phone.screenshot(path=shots / "analysis-phone-first-view.png", animations="disabled")
    phone.click("#show-best")
    phone.wait_for_selector("ol.an-moves li")
    check_counts_and_words(phone, "es", summary)
    phone.screenshot(path=shots / "analysis-phone.png", animations="disabled")
    assert not page.errors and not phone.errors
