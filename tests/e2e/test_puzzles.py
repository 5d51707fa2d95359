"""Puzzles in the browser (#/puzzles, docs/puzzles.md): a puzzle is solved with a galo call on a desktop, missed
on a phone, and a streak counts a right one; the page never holds a tile another seat had not played (checked
against the record, on the whole DOM); the lobby shows the daily puzzle. Screenshots at both sizes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from capicua.bots import analysis
from capicua.bots.puzzles import Criteria, Found, judge
from capicua.rules.record import Record
from capicua.service.puzzles import PUZZLE_START
from capicua.service.store import Store, default_url
from capicua.service.store.puzzles import NewPuzzle
from tests.aio import run_async
from tests.bots.test_analysis import _galo_thrown_away
from tests.bots.test_puzzles import greedy_record
from tests.e2e.conftest import start_server
from tests.e2e.helpers import DESKTOP, PHONE, new_page
from tests.web.helpers import tiles_in
from tests.web.test_puzzles_api import hidden_at


@pytest.fixture(scope="module")
def puzzled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[int, tuple[Record, Found]]]]:
    """A server whose store holds two puzzles: a planted blunder's (a galo thrown away) and the first of a two-player
    match; the URL, and each puzzle's id with its record and where it was found."""
    record, hand, action = _galo_thrown_away()
    two = greedy_record("individual", 2, 3)  # and a two-player game's, for the phone
    found = first_puzzle(record, lambda p: (p.hand, p.action) == (hand, action)) + first_puzzle(two, lambda p: True)
    data = tmp_path_factory.mktemp("e2e-puzzles")
    ids: dict[int, tuple[Record, Found]] = {}

    async def keep() -> None:
        store = Store(default_url(data))
        await store.open()
        try:
            for rec, f in found:  # the planted one first: the desktop's
                new = NewPuzzle(
                    f"s7:{rec.variant}:{f.decision}",
                    rec.variant,
                    "self-play",
                    None,
                    7,
                    f.decision,
                    f.hand,
                    f.action,
                    f.puzzle.themes,
                    f.puzzle.to_json(),
                )
                pid = await store.puzzles.add(new, PUZZLE_START)
                assert pid is not None
                ids[pid] = (rec, f)
        finally:
            await store.close()

    run_async(keep())
    assert len(ids) >= 2, "the planted blunder and another"
    proc, url = start_server(data, "--no-limits")
    yield url, ids
    proc.terminate()
    proc.wait(10)


def first_puzzle(record: Record, where: Callable[[Any], bool]) -> list[tuple[Record, Found]]:
    """The first decision of ``record`` that ``where`` picks and that is a puzzle (judged as ``capicua puzzles
    make`` does, with fewer worlds), found as ``puzzles_of_record`` finds it."""
    for i, pos in enumerate(analysis.positions_of(record)[0]):
        if where(pos) and (p := judge(pos.view, pos.moves, Criteria(worlds=24, screen=12))) is not None:
            return [(record, Found(i, pos.hand, pos.action, pos.step, p))]
    raise AssertionError("no puzzle")


def no_hidden_tile(page: Any, ids: dict[int, tuple[Record, Found]]) -> None:
    """No tile of another seat's hand that was not played yet is anywhere in the page's DOM; the seat's own are."""
    pid = int(page.get_attribute("#puzzle", "data-puzzle"))
    record, f = ids[pid]
    others, mine = hidden_at(record, f.hand, f.action, f.puzzle.seat)
    shown = tiles_in(page.content())
    assert not shown & others, shown & others
    assert mine <= shown


def test_a_puzzle_is_solved_and_shows_no_hidden_tile(browser: Any, puzzled: Any, shots: Path) -> None:
    url, ids = puzzled
    first = min(ids)
    _, f = ids[first]
    answer = f.puzzle.answers[0]
    assert answer.endswith(" galo")
    desk = new_page(browser, lang="pt-BR", **DESKTOP)
    desk.goto(f"{url}/#/puzzles/{first}")
    desk.wait_for_selector("#pz-prompt:has-text('Sua vez: encontre a melhor jogada')")
    desk.wait_for_selector(".felt .board-svg .board-tile")
    no_hidden_tile(desk, ids)
    desk.screenshot(path=shots / "puzzle-desktop.png", animations="disabled")
    solve(desk, answer)  # the galo call, then the tile (and its end, where it fits more than one)
    desk.wait_for_selector("#pz-verdict.pz-right")
    assert "Era galo certo" in desk.inner_text(".pz-why")
    rows = desk.query_selector_all("table.pz-moves tbody tr")
    assert len(rows) == len(f.puzzle.moves) and rows[0].get_attribute("data-move") == answer
    assert "Pontos esperados" in desk.inner_text("table.pz-moves")
    no_hidden_tile(desk, ids)
    desk.screenshot(path=shots / "puzzle-desktop-solved.png", animations="disabled")
    # The lobby's daily puzzle card.
    desk.goto(f"{url}/#/")
    desk.wait_for_selector("#daily-puzzle:not([hidden]) .pz-mini svg")
    assert "Desafio do dia" in desk.inner_text("#daily-puzzle")
    desk.screenshot(path=shots / "lobby-desktop.png", animations="disabled")

    # A phone, in Spanish: the next puzzle, missed on purpose; the answer and its reason shown.
    phone = new_page(browser, lang="es", **PHONE)
    phone.goto(f"{url}/#/puzzles/{max(ids)}")
    phone.wait_for_selector("#pz-prompt:has-text('Tu turno: encuentra la mejor jugada')")
    phone.wait_for_selector(".felt .board-svg .board-tile")
    no_hidden_tile(phone, ids)
    phone.screenshot(path=shots / "puzzle-phone.png", animations="disabled")
    _, g = ids[max(ids)]
    wrong = next(m.move for m in g.puzzle.moves if m.move not in g.puzzle.answers and not m.move.endswith(" galo"))
    solve(phone, wrong)
    phone.wait_for_selector("#pz-verdict.pz-wrong")
    assert "La mejor era" in phone.inner_text(".pz-result")
    no_hidden_tile(phone, ids)
    phone.screenshot(path=shots / "puzzle-phone-missed.png", animations="disabled")
    # Streak mode: the one puzzle this session has not seen; solved, the streak counts it.
    phone.goto(f"{url}/#/puzzles/streak")
    phone.wait_for_selector(f"#puzzle[data-puzzle='{first}'] .pz-streak:has-text('Racha: 0')")
    phone.wait_for_selector(".felt .board-svg .board-tile")
    phone.screenshot(path=shots / "puzzle-phone-streak.png", animations="disabled")
    solve(phone, answer)
    phone.wait_for_selector("#pz-verdict.pz-right")
    assert "Racha: 1" in (phone.text_content(".pz-streak") or "")
    assert not desk.errors and not phone.errors


def solve(page: Any, move: str) -> None:
    """Play ``move`` as a person does: galo armed first, the tile, then its end where it fits more than one."""
    if move.endswith(" galo"):
        page.click("#pz-galo")
        move = move.removesuffix(" galo")
    low, high = sorted(int(x) for x in move.split(" ")[0].split("-"))
    page.click(f".mytiles button.tile[data-tile='{high}-{low}']")
    end_button = page.query_selector(f".pz-ends button[data-move='{move}']")
    if end_button is not None:
        end_button.click()
