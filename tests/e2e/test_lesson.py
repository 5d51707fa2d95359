"""The guided first hand in the browser (issue 22, item 4): a guest's first quick play of Dominó Amazonense
offers it; he follows the prompts to the end of the hand on a phone in pt-BR (the wanted tile, end and galo
marked), a wrong legal move is held back with the lesson's explanation, and the end offers a quick play. The
prompts are photographed at a phone's and a desktop's size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from capicua.bots.lessons import get
from tests.e2e.helpers import DESKTOP, PHONE, new_page, open_lobby


def shoot(page: Any, shots: Path, name: str, desktop: bool = False) -> None:
    page.screenshot(path=str(shots / f"{name}-phone.png"))
    if desktop:
        page.set_viewport_size(DESKTOP)
        page.wait_for_timeout(150)  # the felt is drawn again at its new size
        page.screenshot(path=str(shots / f"{name}-desktop.png"))
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(150)


def my_wanted_tile(page: Any) -> Any:
    """What the lesson marks for my move now: a tile of my hand, or a word's button (draw)."""
    return page.wait_for_selector("#lesson-prompt", timeout=20000) and page.wait_for_selector(
        ".table-view.my-turn .mytiles button.tile.lesson-want:not([disabled]),"
        " .table-view.my-turn .actions button.lesson-want",
        timeout=20000,
    )


def play_wanted(page: Any, move: str) -> None:
    """Make the lesson's move by what the page marks: the galo toggle, the tile, then its end; or the word."""
    if move.endswith(" galo"):
        page.click(".galo-toggle.lesson-want")
        page.wait_for_selector(".galo-toggle.armed")
    if move in ("draw", "pass"):
        page.click(f".actions button.lesson-want[data-move='{move}']")
        return
    page.wait_for_selector(".mytiles button.tile.lesson-want:not([disabled])").click()
    if page.query_selector(".actions .end-choice"):
        page.click(".actions .end-choice.lesson-want")


def wait_next(page: Any, count: str) -> None:
    page.wait_for_function(
        "(n) => !document.querySelector('#lesson-prompt')"
        " || document.querySelector('.lesson-count')?.textContent !== n",
        arg=count,
    )


def test_a_guest_is_offered_the_guided_hand_and_follows_it_to_the_end(browser: Any, server: str, shots: Path) -> None:
    lesson = get("amazonense")
    steps = [s for s in lesson.script if s.seat == lesson.seat]
    page = new_page(browser, "pt-BR", **PHONE, lessons_seen=False)
    open_lobby(page, server)
    page.click("button.quick-game[data-game='amazonense']")
    offer = page.wait_for_selector(".lesson-offer")
    assert "Primeira vez" in offer.inner_text()
    shoot(page, shots, "lesson-offer", desktop=True)
    page.click("#lesson-yes")
    for k, step in enumerate(steps):
        my_wanted_tile(page)
        prompt = page.inner_text("#lesson-prompt")
        assert prompt == step.prompt[0].format(**_names(page)), (k, prompt)
        assert page.inner_text(".lesson-count") == f"Jogada {k + 1} de {len(steps)}"
        if k in (0, 1, 5):
            shoot(page, shots, f"lesson-step{k + 1}", desktop=True)
        if step.wrong:  # a wrong legal move first: held back, with the lesson's words for it
            wrong = step.wrong[0]["moves"][0]
            tile_of = _norm(wrong.split()[0])
            page.click(f".mytiles button.tile[data-tile='{tile_of}']")
            if page.query_selector(".actions .end-choice"):
                page.click(f".actions .end-choice[data-end='{wrong.split()[1]}']")
            said = page.wait_for_selector("#lesson-wrong").inner_text()
            assert said.startswith(wrong.split()[0]) and said.endswith(step.wrong[0]["text"][0]), said
            assert page.query_selector(f".mytiles button.tile[data-tile='{tile_of}']"), "the tile stays in hand"
            if k == 1:
                shoot(page, shots, "lesson-wrong", desktop=True)
            my_wanted_tile(page)
        play_wanted(page, step.move)
        wait_next(page, f"Jogada {k + 1} de {len(steps)}")
    end = page.wait_for_selector(".lesson-end", timeout=20000)
    assert end.inner_text() == lesson.end["text"][0]
    assert page.query_selector("#lesson-quick") and page.query_selector("#lesson-lobby")
    shoot(page, shots, "lesson-end", desktop=True)
    # the offer is made once a game: the next quick play of it goes straight to a table
    page.click("#lesson-lobby")
    page.click("button.quick-game[data-game='amazonense']")
    page.wait_for_selector(".table-view")
    assert not page.query_selector(".lesson-offer") and not page.query_selector(".lesson-panel")
    assert page.errors == []


def _norm(tile: str) -> str:
    a, b = sorted(map(int, tile.split("-")), reverse=True)
    return f"{a}-{b}"


def _names(page: Any) -> dict[str, str]:
    names: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('.seat-chip')].sort((a, b) => a.dataset.seat - b.dataset.seat)"
        ".map((c) => c.querySelector('.name').textContent)"
    )
    return {f"s{k}": name for k, name in enumerate(names)}


def test_the_individual_lesson_in_spanish(browser: Any, server: str, shots: Path) -> None:
    """From the lobby's "Aprender a jugar": the learner draws from the pozo when the lesson says, the word's
    button marked, and goes out; the prompts in Spanish. (Dominousa's lesson, its pass marked the same way, is
    played over the websocket in tests/web/test_lessons.py.)"""
    game = "individual"
    lesson = get(game)
    steps = [s for s in lesson.script if s.seat == lesson.seat]
    page = new_page(browser, "es", **DESKTOP, lessons_seen=False)
    open_lobby(page, server)
    page.click(f".learn-game[data-game='{game}']")
    for k, step in enumerate(steps):
        my_wanted_tile(page)
        assert page.inner_text("#lesson-prompt") == step.prompt[1].format(**_names(page))
        if step.move in ("draw", "pass") and not list(shots.glob("*-word-*")):
            assert page.query_selector(f".actions button.lesson-want[data-move='{step.move}']")
            page.screenshot(path=str(shots / f"lesson-{game}-word-es-desktop.png"))
            page.set_viewport_size(PHONE)
            page.wait_for_timeout(150)
            page.screenshot(path=str(shots / f"lesson-{game}-word-es-phone.png"))
            page.set_viewport_size(DESKTOP)
        play_wanted(page, step.move)
        wait_next(page, f"Jugada {k + 1} de {len(steps)}")
    end = page.wait_for_selector(".lesson-end", timeout=20000)
    assert end.inner_text() == lesson.end["text"][1].format(**_names(page))
    page.screenshot(path=str(shots / f"lesson-{game}-end-es-desktop.png"))
    assert page.errors == []
