"""The hand review in the browser: "analyse" from the result dialog, the progress bar, the per-step
evaluation, the best move on request, and the graph of accumulated loss whose points jump to their step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, make_table, new_page, open_lobby, play_until


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
    page.click("details.an-more summary")
    page.wait_for_selector("table.an-summary tbody tr")
    assert len(page.query_selector_all("table.an-summary tbody tr")) == 2
    page.screenshot(path=shots / "analysis-desktop.png", animations="disabled")
    # A step with no choice says so; the keyboard still steps through the match.
    page.keyboard.press("Home")
    page.wait_for_selector("#analysis-step:has-text('Sem escolha')")
    # The same replay on a phone, in English: the analysis is stored, shown at once.
    link = page.evaluate("location.href").replace("/1?analysis", f"/{target + 1}?analysis")
    phone = new_page(browser, lang="en", **PHONE)
    phone.goto(link)
    phone.wait_for_selector("#analysis-graph circle.an-point", timeout=10000)
    assert not phone.query_selector("#analysis-progress")
    phone.wait_for_selector(f"#analysis-step[data-step='{target}']")
    assert "Expected points" in phone.inner_text("#analysis-step")
    phone.click("#show-best")
    phone.wait_for_selector("ol.an-moves li")
    phone.screenshot(path=shots / "analysis-phone.png", animations="disabled")
    assert not page.errors and not phone.errors
