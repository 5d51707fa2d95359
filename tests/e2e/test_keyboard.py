"""The table without a mouse and without sight (issue 22, item 15): a whole Amazonense hand played in pt-BR with
the keyboard alone (page.keyboard, no click once the table is open), every play, pass and score of it found in
the announcer's live region in the page's words, the keys that ask for the ends and the counts answered from
what the table shows, the shortcuts' help; then Dominousa in es at a phone's size: the tiles' Spanish names
and the sentences in Spanish. Screenshots of the focus ring and the help at both sizes (test-artifacts/)."""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.helpers import DESKTOP, PHONE, make_table, new_page, open_lobby, page_state

pytestmark = pytest.mark.slow

PT = ["branco", "um", "dois", "três", "quatro", "cinco", "seis"]
ES = ["blanco", "uno", "dos", "tres", "cuatro", "cinco", "seis"]


def spoken(tile: str, words: list[str], double: str, pair: str) -> str:
    """A tile's name as a player says it: "carroça de seis", "seis e quatro" (the higher half first)."""
    a, b = sorted((int(x) for x in tile.split("-")), reverse=True)
    return double.format(words[a]) if a == b else pair.format(words[a], words[b])


def say_pt(tile: str) -> str:
    return spoken(tile, PT, "carroça de {}", "{} e {}")


def say_es(tile: str) -> str:
    return spoken(tile, ES, "doble {}", "{} y {}")


LOG = "() => [...document.querySelectorAll('#announcer p')].map((p) => p.textContent)"
FOCUSED = """() => { const a = document.activeElement;
    return a ? {tile: a.dataset.tile || null, end: a.classList.contains('end-choice')} : null; }"""
#: Each other seat's chip as "name count".
CHIPS = "cs => cs.map((c) => `${c.querySelector('.name').textContent} ${c.querySelector('.count').textContent}`)"
SAID = "(text) => [...document.querySelectorAll('#announcer p')].some((p) => p.textContent.includes(text))"
#: The hand's history as the side panel lists it: who, what (play/pass/…), the tile, and the scores each earned.
HISTORY = """() => [...document.querySelectorAll('.history-panel li.move')].map((li) => ({
    seat: li.dataset.seat, kind: li.dataset.kind, who: li.querySelector('.who')?.textContent || '',
    tile: li.querySelector('svg.tile')?.dataset.tile || null, lead: !li.querySelector('.what .end svg'),
    end: li.querySelector('.what .end .sr')?.textContent || null,
    scores: [...li.querySelectorAll('.earned li')].map((s) => s.classList.contains('cost-item')
        // a score a rule cost, said in a sentence: "Zé passou: +20 para Eles" (costs.js)
        ? s.querySelector('.cost-text').textContent.match(/([+][0-9]+) para (.+)$/).slice(1)
        : [s.querySelector('.points').textContent, s.querySelector('.to').textContent])}))"""


#: Each sentence the announcer adds is stamped with where the focus was as it was said (a tile of my hand, else
#: the focused element's start): the frame that brought it was drawn just before, in the same task, so this
#: is the focus that frame left, however soon the next one comes (the bots' next move closes galo's window).
STAMP_FOCUS = """() => new MutationObserver((records) => { for (const r of records) for (const p of r.addedNodes) {
    if (p.nodeName !== 'P' || p.parentElement?.id !== 'announcer') continue;
    const a = document.activeElement;
    p.dataset.focus = a?.dataset?.tile ? 'tile' : (a?.outerHTML || 'none').slice(0, 80);
}}).observe(document.body, {childList: true, subtree: true})"""
#: The announcer's sentences from the one marked before my move on (all of them if none is marked), each with
#: where the focus was as it was said.
SINCE_MARK = """() => { const ps = [...document.querySelectorAll('#announcer p')];
    return ps.slice(ps.findIndex((p) => p.dataset.mark !== undefined) + 1)
        .map((p) => [p.textContent, p.dataset.focus]); }"""
MARK = """() => { document.querySelectorAll('#announcer p[data-mark]').forEach((p) => delete p.dataset.mark);
    const last = document.querySelector('#announcer p:last-child'); if (last) last.dataset.mark = ''; }"""
GALO_OFFER = "Pode cantar galo: tecla g"


def keyboard_move(page: Any, galo: bool = False) -> str | None:
    """My move, from the keyboard: the first playable tile (walked to with the arrows, Enter; with two ends
    the focus is on the first end, Enter), else pass (x), else the game's other calls' keys. ``galo``: a game
    whose every play of mine opens galo's window (Amazonense A5) for as long as the next seat takes to act: the
    offer is said right after my play's own sentence (unless that play ended the hand), and the focus stays in
    my hand all the same, the "Galo!" button there for "g" or Tab, not taking the focus."""
    if not page.query_selector(".table-view.my-turn"):
        return None
    tiles = page.eval_on_selector_all(".mytiles button.tile", "bs => bs.map((b) => b.classList.contains('playable'))")
    if True in tiles:
        page.keyboard.press("Home")
        for _ in range(tiles.index(True)):
            page.keyboard.press("ArrowRight")
        focused = page.evaluate(FOCUSED)
        assert focused and focused["tile"], focused  # the arrows walk my hand
        tile = focused["tile"]
        me = page.text_content(".seat-chip.me .name")
        page.evaluate(MARK)
        page.keyboard.press("Enter")
        # played at once, or picked with its ends to choose
        page.wait_for_function(
            """(n) => document.querySelector('.actions button.end-choice')
                || document.querySelectorAll('.mytiles button.tile').length < n""",
            arg=len(tiles),
        )
        if page.query_selector(".actions button.end-choice"):
            assert page.evaluate(FOCUSED)["end"]  # on to where it goes
            page.keyboard.press("Enter")
        page.wait_for_function("(n) => document.querySelectorAll('.mytiles button.tile').length < n", arg=len(tiles))
        if len(tiles) > 1:  # my hand drawn again without the tile: the focus still in it, for the next move
            assert page.evaluate(FOCUSED)["tile"], page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
        if galo:  # my play's sentence, then the galo offer, or the hand's end (a play that ends it offers nothing)
            said = page.evaluate(SINCE_MARK)
            mine = (f"{me} jogou {say_pt(tile)} na ponta ", f"{me} saiu com {say_pt(tile)}")
            at = next((i for i, (x, _) in enumerate(said) if x.startswith(mine)), None)
            assert at is not None and at + 1 < len(said), (mine, said)
            text, focus = said[at + 1]
            assert text == GALO_OFFER or "Placar:" in text, said[at:]
            if text == GALO_OFFER and len(tiles) > 1:  # offered while the "Galo!" button shows: still in my hand
                assert focus == "tile", said[at:]
        return "play"
    for key, move in (("x", "pass"), ("k", "keep"), ("a", "announce")):
        if page.query_selector(f".actions button[data-move='{move}']"):
            page.keyboard.press(key)
            return move
    return None


def play_hand(page: Any, timeout: float = 90) -> int:
    """Play from the keyboard until the hand is over; how many moves I made."""
    moves = 0
    deadline = time.time() + timeout
    while not page.query_selector(".hand-over"):
        assert time.time() < deadline, page_state(page)
        with contextlib.suppress(PlaywrightError):  # a frame drew the hand again under the keys
            moves += keyboard_move(page) is not None
        page.wait_for_timeout(80)
    return moves


def check_the_hand_was_announced(page: Any, whole: bool) -> dict[str, int]:
    """Each play, pass and score of the hand in the history has its sentence in the live region, in order
    (whole: from its first move; else from the first one the page heard: the bots may lead before it opened)."""
    page.wait_for_function(SAID, arg="Placar:")
    log = page.evaluate(LOG)
    rows = page.evaluate(HISTORY)
    seen = {"play": 0, "pass": 0, "score": 0}
    at = 0  # the sentences come in the history's order
    for row in rows:
        if row["kind"] == "play":
            what = (
                f"{row['who']} saiu com {say_pt(row['tile'])}"
                if row["lead"]
                else f"{row['who']} jogou {say_pt(row['tile'])} na ponta {row['end'].lower()}"
            )
        elif row["kind"] == "pass":
            what = f"{row['who']} passou"
        else:
            continue
        found = [i for i in range(at, len(log)) if log[i].startswith(what)]
        if not found and not whole and not any(seen.values()):
            continue  # before the page was open
        assert found, (what, log[at:])
        at = found[0]
        seen[row["kind"]] += 1
        for points, side in row["scores"]:  # "+15", "Eles" → "mais 15 para Eles" in the same sentence
            assert f"mais {points.lstrip('+')} para {side}" in log[at], (row, log[at])
            seen["score"] += 1
    totals = page.evaluate("() => [...document.querySelectorAll('.hand-over .totals .pts')].map((e) => e.textContent)")
    assert any(line.endswith(f"Placar: Nós {totals[0]}, Eles {totals[1]}") for line in log), (totals, log[-3:])
    return seen


def ask(page: Any, key: str) -> str:
    page.evaluate("() => { const a = document.querySelector('#table-answer'); if (a) a.textContent = ''; }")
    page.keyboard.press(key)
    page.wait_for_function("() => document.querySelector('#table-answer').textContent !== ''")
    return str(page.text_content("#table-answer"))


def test_a_whole_hand_from_the_keyboard_with_every_move_announced(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, "pt-BR", **DESKTOP)
    open_lobby(page, server)
    # my passes are mine to make (x); the end of a hand stays until "n"
    make_table(page, server, variant="amazonense", target=1000, auto_pass=False, pause_seconds=30)
    page.wait_for_selector(".mytiles button.tile")
    page.evaluate(STAMP_FOCUS)
    page.wait_for_function(SAID, arg="Mão 1")  # said as the table opens, or as the hand is dealt
    # the tiles carry their spoken names
    for b in page.query_selector_all(".mytiles button.tile"):
        assert b.get_attribute("aria-label") == say_pt(str(b.get_attribute("data-tile")))
    # the help, from "?": the game's own moves, in Portuguese; Esc closes it
    page.keyboard.press("?")
    page.wait_for_selector("dialog#keys-help[open]")
    help_text = page.inner_text("#keys-help")
    assert "Atalhos do teclado" in help_text and "Passar" in help_text and "Ouvir as pontas" in help_text
    assert "Comprar" not in help_text  # no boneyard in this game
    assert "Galo: cantar agora" in help_text  # "g": the galo offered after my play, called without leaving my hand
    page.screenshot(path=str(shots / "keys-help-pt-desktop.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#keys-help", state="detached")
    # the focus ring, on a tile of my hand
    page.keyboard.press("End")
    assert page.evaluate(FOCUSED)["tile"]
    page.screenshot(path=str(shots / "focus-pt-desktop.png"))

    seen = {"play": 0, "pass": 0, "score": 0}
    asked = False
    for hand in range(4):  # a hand, another while none had a pass yet
        deadline = time.time() + 90
        while not page.query_selector(".hand-over"):
            assert time.time() < deadline, (page_state(page), page.evaluate(LOG)[-8:])
            if not asked and page.query_selector(".board .end-mark"):  # p and c, answered from what the table shows
                marks = page.eval_on_selector_all(".board .end-mark", "ms => ms.map((m) => m.ariaLabel)")
                ends = ask(page, "p")
                assert ends.startswith("Pontas: ") and "soma" in ends, ends
                for mark in marks:  # "ponta leste: 4" → "leste 4" in the answer
                    name, pip = re.match(r"ponta (\w+): (\d)", mark).groups()  # type: ignore[union-attr]
                    assert f"{name} {pip}" in ends, (mark, ends)
                counts = ask(page, "c")
                assert counts.startswith("Pedras na mão: "), counts
                chips = page.eval_on_selector_all(".seat-chip:not(.me)", CHIPS)
                assert chips and all(chip in counts for chip in chips), (chips, counts)
                asked = True
            with contextlib.suppress(PlaywrightError):
                keyboard_move(page, galo=True)
            page.wait_for_timeout(80)
        for kind, n in check_the_hand_was_announced(page, whole=hand > 0).items():
            seen[kind] += n
        if seen["pass"]:
            break
        page.keyboard.press("n")  # the next hand, from the keyboard too
        page.wait_for_selector(".hand-over", state="detached")
    assert seen["play"] >= 4 and seen["pass"] >= 1 and seen["score"] >= 1, seen
    assert asked
    assert ask(page, "s").startswith("Placar: Nós ")
    # a phone's size: the next hand from the keyboard, my move too
    page.set_viewport_size(PHONE)
    page.keyboard.press("n")
    page.wait_for_selector(".hand-over", state="detached")
    page.wait_for_function(SAID, arg="Sua vez")
    page.wait_for_selector(".table-view.my-turn")
    page.keyboard.press("Home")
    page.screenshot(path=str(shots / "focus-pt-phone.png"))
    page.keyboard.press("?")
    page.wait_for_selector("dialog#keys-help[open]")
    page.screenshot(path=str(shots / "keys-help-pt-phone.png"))
    page.keyboard.press("Escape")
    assert page.errors == []


def test_dominousa_in_spanish_reads_its_tiles_and_moves_in_spanish(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, "es", **PHONE)
    open_lobby(page, server)
    make_table(page, server, variant="dominousa", target=500, pause_seconds=30, move_seconds=12)
    page.wait_for_selector(".mytiles button.tile")
    for b in page.query_selector_all(".mytiles button.tile"):
        assert b.get_attribute("aria-label") == say_es(str(b.get_attribute("data-tile")))
    # my move clock running low is said, once: 12 s to move, warned at 10
    page.wait_for_selector(".table-view.my-turn")
    page.wait_for_function(SAID, arg="segundos")
    assert len([x for x in page.evaluate(LOG) if re.fullmatch(r"Quedan (10|9) segundos", x)]) == 1, page.evaluate(LOG)
    deadline = time.time() + 60
    while len([x for x in page.evaluate(LOG) if re.search(r" (jugó|salió con|pasó) ", x + " ")]) < 4:
        assert time.time() < deadline, (page.evaluate(LOG), page_state(page))
        with contextlib.suppress(PlaywrightError):
            keyboard_move(page)
        page.wait_for_timeout(80)
    log = page.evaluate(LOG)
    english = re.compile(r"\b(played|passed|led with|drew|end)\b|\bjogou\b|\bpassou\b")
    assert not [x for x in log if english.search(x)], log
    assert not [x for x in log if "galo" in x], log  # no galo in this game: none offered after my plays
    played = [x for x in log if " jugó " in x]
    assert all(re.search(r" jugó (doble \w+|\w+ y \w+) en la punta (izquierda|derecha)", x) for x in played), played
    board = page.eval_on_selector_all(".board .board-tile", "ts => ts.map((t) => [t.dataset.tile, t.ariaLabel])")
    assert board and all(name == say_es(tile) for tile, name in board), board
    assert ask(page, "p").startswith("Puntas: ")
    page.keyboard.press("?")
    page.wait_for_selector("dialog#keys-help[open]")
    text = page.inner_text("#keys-help")
    assert "Atajos de teclado" in text and "Nadie más juega" in text and "Oír las puntas" in text
    page.screenshot(path=str(shots / "keys-help-es-phone.png"))
    page.keyboard.press("Escape")
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("End")
    page.screenshot(path=str(shots / "focus-es-desktop.png"))
    assert page.errors == []
