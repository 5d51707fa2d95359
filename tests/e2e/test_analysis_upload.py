"""Analyse a record from a file in Chromium (issue 14, part 2: "any record uploaded"): the page sends the
chosen file to the server, follows the progress, and shows each player's accuracy and every decision with
its loss and label; a file that is not JSON, and a record that does not replay, are refused in words."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.e2e.helpers import DESKTOP, PHONE, new_page
from tests.web.server import CAPICUA


def record_file(folder: Path) -> Path:
    """A short 2-player individual match, written by ``capicua record random``."""
    text = subprocess.run(
        [*CAPICUA, "record", "random", "--variant", "individual", "--players", "2", "--target", "20", "--seed", "3"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    path = folder / "match.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_record_file_is_analysed_in_the_browser(browser: Any, server: str, shots: Path, tmp_path: Path) -> None:
    path = record_file(tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    page = new_page(browser, "pt-BR", **DESKTOP)
    page.goto(f"{server}/#/analyse")
    page.wait_for_selector("#record-file")
    bad = tmp_path / "notes.json"
    bad.write_text("not json", encoding="utf-8")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector("#upload-result [role=alert]:has-text('não é um registro JSON')")
    broken = dict(record, hands=[dict(record["hands"][0], actions=["0: 6-6", "0: 6-6"])])
    (tmp_path / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    page.set_input_files("#record-file", str(tmp_path / "broken.json"))
    page.wait_for_selector("#upload-result [role=alert]:has-text('broken.json')")  # (not the last file's alert)
    # the refusal in the page's words; the server's, naming the action, behind a closed "detalhes"
    assert "6-6" not in page.inner_text("#upload-result")
    assert "6-6" in (page.text_content("#upload-result details.error-details:not([open]) code") or "")
    huge = tmp_path / "huge.json"  # over the server's 1 MiB: refused in words before it is read or sent
    huge.write_text(json.dumps(dict(record, padding="x" * (1 << 20))), encoding="utf-8")
    page.set_input_files("#record-file", str(huge))
    page.wait_for_selector("#upload-result [role=alert]:has-text('huge.json passa de 1 MiB')")
    page.screenshot(path=str(shots / "upload-too-large-desktop.png"), animations="disabled")

    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#upload-decisions tbody tr", timeout=120_000)
    rows = page.query_selector_all("#upload-decisions tbody tr")
    summary = page.query_selector_all("table.an-summary tbody tr")
    assert len(summary) == 2 and {r.query_selector("td").inner_text() for r in summary} == set(record["players"])
    assert len(rows) >= 2
    # Every row's loss agrees with its label's thresholds (5, 15, 30).
    for row in rows:
        loss = float(row.query_selector_all("td")[4].inner_text())
        label = row.get_attribute("data-label")
        want = "blunder" if loss >= 30 else "mistake" if loss >= 15 else "inaccuracy" if loss >= 5 else ""
        assert label == want, (loss, label)
    assert not page.errors
    page.screenshot(path=str(shots / "upload-desktop.png"), animations="disabled", full_page=True)

    # The same file again, on a phone in Spanish: the stored analysis, at once.
    phone = new_page(browser, "es", **PHONE)
    phone.goto(f"{server}/#/analyse")
    phone.set_input_files("#record-file", str(path))
    phone.wait_for_selector("#upload-decisions tbody tr", timeout=10_000)
    assert "Precisión" in phone.inner_text("#upload-result")
    assert not phone.errors
    phone.screenshot(path=str(shots / "upload-phone.png"), animations="disabled")
    phone.set_input_files("#record-file", str(huge))
    phone.wait_for_selector("#upload-result [role=alert]:has-text('huge.json pasa de 1 MiB')")
    phone.screenshot(path=str(shots / "upload-too-large-phone.png"), animations="disabled")
    phone.set_input_files("#record-file", str(path))  # (back to the analysis for the replay below)
    phone.wait_for_selector("#upload-decisions tbody tr", timeout=10_000)

    # The record replays on the table: a decision's row opens the viewer at its step, with its evaluation.
    worst = max(record_decisions(phone), key=lambda row: row[1])
    phone.click(f"#upload-decisions a[href*='/{worst[0]}?']")
    phone.wait_for_selector("#replay .board svg")
    phone.wait_for_selector(f"#analysis-step[data-step='{worst[0] - 1}']", timeout=10_000)
    assert phone.query_selector("#analysis-graph circle.an-point.current")
    assert "de un archivo" in phone.text_content("#replay .bar .title")  # (the phone shows the step line only)
    assert not phone.errors
    phone.screenshot(path=str(shots / "upload-replay-phone.png"), animations="disabled")
    page.click("#upload-replay")
    page.wait_for_selector("#replay .board svg")
    page.wait_for_selector("#analysis-graph circle.an-point")
    page.keyboard.press("End")
    assert page.inner_text("#replay .replay-info .winners")
    assert not page.errors
    page.screenshot(path=str(shots / "upload-replay-desktop.png"), animations="disabled")


def record_decisions(page: Any) -> list[tuple[int, float]]:
    """The decisions' rows of an analysed upload: the step each links to (from 1) and its loss."""
    rows = []
    for row in page.query_selector_all("#upload-decisions tbody tr"):
        href = row.query_selector("a").get_attribute("href")
        step = int(href.split("?")[0].rsplit("/", 1)[1])
        rows.append((step, float(row.query_selector_all("td")[4].inner_text())))
    return rows
