"""Every message in the page's language (issue 22, item 7): a pt-BR (or es) page's visible text has no English
word, apart from names, notation and the loanwords Brazilians use (rating, ranking, online, bot, upload,
download, link, chat), on the lobby, quick play's table and the upload page with a record that does not replay;
the server's English detail of an error stays behind a closed "detalhes" / "detalles" toggle.

The English words looked for are those that are no Portuguese or Spanish word (``the``, ``must``, ``table``,
``players``…): the server's messages and the client's own English are made of them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.helpers import DESKTOP, PHONE, new_page

_ENGLISH = """the and of to is are was were be been not must does did doesn't don't can't cannot should would could
    have has had this that these those which what when where who why how with without for from into onto by at on
    in it its an or if then than there their they them you your yours we our my she his her all any each
    every some none only also just more most less very too here now again still yet already
    table tables seat seats player players match matches game games hand hands tile tiles record records replay
    replays move moves play plays played playing pass passed draw drawn boneyard team teams round rounds score
    points point win wins won winner lost loses loss start started starts join joined leave left watch watching
    watchers open full free empty waiting wait invalid refused allowed found not-found request
    sign guest name new create created level quick settings sound language close back next previous
    first last history moves analysis accuracy mistake blunder inaccuracy share copy copied invite invited
    tournament tournaments registration standings step steps file files choose drop something went wrong
    try later server connection reconnecting loading"""
ENGLISH = set(_ENGLISH.split())
ALLOWED = {"rating", "ranking", "online", "bot", "bots", "upload", "download", "link", "chat", "capicua", "whatsapp"}


def english_words(page: Any) -> list[str]:
    """The English words in the page's visible text, its tooltips and placeholders (its players' names left out:
    they are anybody's words)."""
    text = page.evaluate(
        """() => {
            const hidden = [...document.querySelectorAll(".seat-chip .name, .who, .names, .player-name, .seat-name")];
            for (const e of hidden) e.dataset.langSkip = e.style.visibility || "-";
            for (const e of hidden) e.style.visibility = "hidden";
            // what shows on hover or in an empty field is read too: the tooltips and placeholders
            const tips = [...document.querySelectorAll("[title], [placeholder]")]
                .filter((e) => !e.closest(".seat-chip, .who, .names"))
                .map((e) => `${e.getAttribute("title") || ""} ${e.getAttribute("placeholder") || ""}`);
            const text = `${document.body.innerText} ${tips.join(" ")}`;
            for (const e of hidden) e.style.visibility = e.dataset.langSkip === "-" ? "" : e.dataset.langSkip;
            return text;
        }"""
    )
    words = re.findall(r"[^\W\d_][^\W\d_'-]*(?:'[^\W\d_]+)?", text)
    found = sorted({w for w in words if w.lower() in ENGLISH and w.lower() not in ALLOWED})
    return found


def no_english(page: Any, where: str) -> None:
    found = english_words(page)
    assert not found, f"English on the {where} ({page.evaluate('document.documentElement.lang')}): {found}"


def test_no_english_on_the_lobby_quick_play_a_table_and_a_refused_upload(
    browser: Any, server: str, shots: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "um-jogador.json"  # one player: the server's refusal is "the record does not replay: …"
    bad.write_text(json.dumps({"format": "capicua-record/1", "variant": "individual", "players": ["Ana"], "hands": []}))
    for lang, size, name in (("pt-BR", PHONE, "phone"), ("es", DESKTOP, "desktop"), ("pt-BR", DESKTOP, "desktop")):
        page = new_page(browser, lang, **size)
        page.goto(server)
        page.wait_for_selector("#online")
        no_english(page, "lobby")
        # an API error, as the pages show it: in the page's words, the server's behind a closed toggle
        page.evaluate(
            """async () => {
                const { api } = await import("/static/js/api.js");
                const { showError } = await import("/static/js/dom.js");
                try { await api("/api/tables/nothere/join", { method: "POST", body: "{}" }); }
                catch (err) { showError(err); }
            }"""
        )
        toast = page.locator("#error")
        expect(toast).to_be_visible()
        expect(toast.locator("details.error-details")).not_to_have_attribute("open", "")
        expect(toast.locator("summary")).to_have_text("detalhes" if lang == "pt-BR" else "detalles")
        assert "table" in (toast.locator("code").text_content() or "")  # the server's words, kept
        no_english(page, "lobby's error")
        # quick play: a table, with its hand dealt
        page.click("#quick .quick-game[data-game='individual']")
        page.wait_for_selector(".table-view[data-status='playing']", timeout=30_000)
        page.wait_for_selector(".mine .tile, .mine button", timeout=30_000)
        no_english(page, "table")
        page.screenshot(path=str(shots / f"table-{lang}-{name}.png"))
        # the upload page, a record that does not replay
        page.goto(f"{server}/#/analyse")
        page.wait_for_selector("main.upload-page #record-file", state="attached")
        page.set_input_files("#record-file", str(bad))
        alert = page.locator("#upload-result [role=alert]")
        expect(alert).to_contain_text("um-jogador.json")
        details = alert.locator("details.error-details")
        expect(details).not_to_have_attribute("open", "")
        assert "does not replay" in (details.locator("code").text_content() or "")
        no_english(page, "upload page")
        page.screenshot(path=str(shots / f"upload-{lang}-{name}.png"))
        details.locator("summary").click()  # opened on demand: the server's words
        expect(details.locator("code")).to_be_visible()
        page.screenshot(path=str(shots / f"upload-details-{lang}-{name}.png"))
        assert not page.errors, page.errors
        page.context.close()
    # The check sees English where there is some: the same lobby in English.
    page = new_page(browser, "en", **DESKTOP)
    page.goto(server)
    page.wait_for_selector("#online")
    assert {"Quick", "play", "Create", "table"} <= set(english_words(page))
