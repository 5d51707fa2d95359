"""The end of a match and leaving a table (issue 22, items 3, 8 and 14): the hand that ends the match is shown
beside the final board (below it on a phone), no board tile covered, before the result; the table's menu
resigns during a match (the result says who) and frees the seat before it, each after a confirmation; and
no sound is tried before the page's first gesture."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, make_table, new_page, open_lobby, play_until

pytestmark = pytest.mark.slow

# Every board tile's box, and what lies at its centre and at its corners (pulled in a little): the tile
# itself, nothing over it; and whether the last hand's view overlaps it.
COVERED = """() => {
  const view = document.querySelector('.overlay-box .hand-over');
  const v = view ? view.getBoundingClientRect() : null;
  const out = [];
  const tiles = [...document.querySelectorAll('.board-svg .board-tile')];
  for (const tile of tiles) {
    const r = tile.getBoundingClientRect();
    const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 3, r.top + 3], [r.right - 3, r.bottom - 3]];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.closest('.board-tile') !== tile) {
        out.push(`${tile.dataset.tile}: ${hit ? hit.className.baseVal ?? hit.className : 'off screen'}`);
      }
    }
    const under = v && r.left < v.right && v.left < r.right && r.top < v.bottom && v.top < r.bottom;
    if (under) out.push(`${tile.dataset.tile}: under the view`);
  }
  return {tiles: tiles.length, covered: out};
}"""


def no_tile_covered(page: Any) -> int:
    """Wait until the board, laid out for the page's size now, has every tile in sight; how many tiles."""
    clear = f"() => {{ const r = ({COVERED})(); return r.tiles > 0 && r.covered.length === 0; }}"
    page.wait_for_function(clear, timeout=5000)
    found: dict[str, Any] = page.evaluate(COVERED)
    assert found["covered"] == [], found
    return int(found["tiles"])


def test_the_last_hand_shows_beside_the_final_board_then_the_result(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, **DESKTOP)
    open_lobby(page, server)
    # the first hand that scores ends the match; the pause between hands is long, the last hand stays up;
    # the Amazonense cross, the board with the most room to need
    make_table(page, server, variant="amazonense", target=1, pause_seconds=30)
    play_until(page, ".last-hand-over", timeout=180)
    assert page.locator(".result-box .result").count() == 0  # the result waits
    view = page.locator(".last-hand-over")
    assert view.locator(".match-ends").text_content() == "Última mão da partida"
    assert view.locator(".hand-row").count() == 4 and view.locator("#see-result").is_visible()
    # Desktop: beside the felt, in the side column; every tile in sight.
    felt, box = page.locator(".felt").bounding_box(), view.bounding_box()
    assert box["x"] >= felt["x"] + felt["width"], (felt, box)
    tiles = no_tile_covered(page)
    page.screenshot(path=str(shots / "last-hand-desktop.png"), animations="disabled")
    # Phone: below the felt, the board drawn smaller; every tile still in sight.
    page.set_viewport_size(PHONE)
    page.wait_for_function(
        "() => { const f = document.querySelector('.felt').getBoundingClientRect();"
        " const v = document.querySelector('.last-hand-over').getBoundingClientRect(); return v.top >= f.bottom - 1; }"
    )
    assert no_tile_covered(page) == tiles
    page.screenshot(path=str(shots / "last-hand-phone.png"), animations="disabled")
    # Then the result, over everything (at once here: the button; else when the pause ends).
    page.click("#see-result")
    page.wait_for_selector(".result-box .result")
    assert page.locator(".last-hand-over").count() == 0
    assert page.locator(".result .last-hand").is_visible()  # how the last hand ended, in the result too
    assert page.errors == []


def test_the_menu_resigns_a_match_and_frees_a_seat_before_it_and_no_sound_before_a_gesture(
    browser: Any, server: str, shots: Path
) -> None:
    page = new_page(browser, **DESKTOP)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.add_init_script("""(() => {  // count the audio contexts the page makes
      const AC = window.AudioContext;
      window.audioContexts = 0;
      window.AudioContext = class extends AC { constructor(...a) { super(...a); window.audioContexts += 1; } };
    })()""")
    open_lobby(page, server)
    make_table(page, server, variant="individual", players=2, target=500, sit=False)  # bots play, I watch
    # Sounds were due (tiles laid), yet nothing was tried before a gesture: no context, no warning.
    page.wait_for_function("() => Boolean(document.documentElement.dataset.lastSound)")
    assert page.evaluate("() => window.audioContexts") == 0
    make_table(page, server, variant="individual", players=2, target=500)
    # During the match: "Desistir", confirmed (or not).
    page.click("#table-menu")  # the page's first gesture: audio may start now
    assert page.evaluate("() => window.audioContexts") <= 1
    item = page.locator("#menu-resign")
    assert item.inner_text() == "Desistir"
    item.click()
    dialog = page.locator("#leave-confirm")
    dialog.wait_for()
    assert "Seu lado perde a partida" in dialog.inner_text()
    page.screenshot(path=str(shots / "resign-confirm-desktop.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "resign-confirm-phone.png"))
    page.click("#leave-cancel")  # not yet: nothing happens
    dialog.wait_for(state="detached")
    assert page.locator(".result").count() == 0
    page.click("#table-menu")
    assert page.get_attribute("#table-menu", "aria-expanded") == "true"
    page.screenshot(path=str(shots / "menu-open-phone.png"))
    page.click("#menu-resign")
    page.click("#leave-confirmed")
    page.wait_for_selector(".result .left-match")
    me = page.locator(".seat-chip.me .name").inner_text()
    assert page.locator(".result .left-match").inner_text() == f"{me} desistiu da partida"
    # a finished match: nothing to leave (the menu keeps how to play)
    assert page.locator("#menu-resign, #menu-leave").count() == 0
    page.screenshot(path=str(shots / "resigned-result-phone.png"))
    # Before the match: "Sair da mesa" frees my seat.
    make_table(page, server, variant="individual", players=2, target=500, bots_after=None)
    page.wait_for_selector(".seat-chip.me")
    page.click("#table-menu")
    assert page.locator("#menu-leave").inner_text() == "Sair da mesa"
    page.click("#menu-leave")
    assert "Seu lugar fica livre" in page.locator("#leave-confirm").inner_text()
    page.screenshot(path=str(shots / "leave-confirm-phone.png"))
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(shots / "leave-confirm-desktop.png"))
    page.click("#leave-confirmed")
    page.wait_for_selector("#sit-any")  # a spectator now, with a seat to take
    assert page.locator(".seat-chip.me").count() == 0 and page.locator("#menu-resign, #menu-leave").count() == 0
    assert [m for m in console if "AudioContext" in m] == []
    assert page.errors == []
