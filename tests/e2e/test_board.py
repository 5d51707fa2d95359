"""The tiles on the table as the page draws them (issue 22): a long hand of each game, the whole double-six set
on the table, at a phone's size and a desktop's, inside the felt with no tile over another, each open end with
its pip count shown and named; with screenshots to look at (test-artifacts/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, make_table, new_page, open_lobby

#: The longest hands of 300 random deals of each shape (every tile laid where it fits, at random), written
#: as the server's layouts: all 28 tiles of the set, the cross's arms of 4, 12, 4 and 7.
CROSS: dict[str, Any] = {
    "shape": "spinner",
    "spinner": "6-6",
    "arms": {
        "W": ["6-0", "0-4", "4-3", "3-6"],
        "E": ["6-2", "2-3", "3-1", "1-2", "2-0", "0-5", "5-5", "5-2", "2-2", "2-4", "4-5", "5-1"],
        "N": ["6-4", "4-4", "4-1", "1-6"],
        "S": ["6-5", "5-3", "3-3", "3-0", "0-0", "0-1", "1-1"],
    },
    "ends": {"W": 6, "E": 1, "N": 6, "S": 1},
    "count": 15,
}
LINE: dict[str, Any] = {
    "shape": "line",
    "line": [
        "6-6", "6-0", "0-4", "4-2", "2-6", "6-5", "5-4", "4-3", "3-2", "2-2", "2-5", "5-3", "3-0", "0-5",
        "5-5", "5-1", "1-0", "0-0", "0-2", "2-1", "1-1", "1-4", "4-4", "4-6", "6-3", "3-3", "3-1", "1-6",
    ],
    "ends": {"L": 6, "R": 6},
    "count": 12,
}  # fmt: skip

#: Draw `layout` into the felt with the table view's own felt module (the waiting room's panel
#: taken off the felt, to see it whole); then what the page
#: shows: each tile's and each pip count's box, the felt's box, and the pip counts' names and numbers.
DRAW = """async ([layout, lead]) => {
    const { renderBoardInto } = await import("/static/js/views/table/felt.js");
    const box = document.querySelector(".felt .board");
    for (const panel of document.querySelectorAll(".felt-panel")) panel.replaceChildren(); // the waiting room's
    // the lead lies `lead` tiles into a line, as the engine's layout says
    renderBoardInto(box, { layout: { ...layout, lead }, history: [] }, null, () => {});
    const rect = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    return {
        felt: rect(box),
        tiles: [...box.querySelectorAll(".board-tile")].map((e) => [e.dataset.tile, rect(e.querySelector(".face"))]),
        marks: [...box.querySelectorAll(".end-mark")].map((e) => ({
            end: e.dataset.end, label: e.getAttribute("aria-label"), text: e.querySelector("text").textContent,
            box: rect(e.querySelector("circle")), shown: getComputedStyle(e).visibility === "visible",
        })),
    };
}"""


#: How many tiles the felt shows, the waiting room's panel off it (0 if the page drew the felt again).
STILL_DRAWN = """() => document.querySelector(".felt-panel").childElementCount ? 0
    : document.querySelectorAll(".felt .board .board-tile").length"""


def within(b: list[float], felt: list[float]) -> bool:
    """Whether a box lies inside the felt's (to half a pixel)."""
    return felt[0] - 0.5 <= b[0] and felt[1] - 0.5 <= b[1] and b[2] <= felt[2] + 0.5 and b[3] <= felt[3] + 0.5


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes overlap by more than a pixel's rounding each way."""
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize(
    ("variant", "layout", "lead", "names"),
    [
        (
            "amazonense",
            CROSS,
            0,
            {"W": "ponta oeste: 6", "E": "ponta leste: 1", "N": "ponta norte: 6", "S": "ponta sul: 1"},
        ),
        ("individual", LINE, 15, {"L": "ponta esquerda: 6", "R": "ponta direita: 6"}),
    ],
)
def test_a_long_hand_lies_on_the_felt_with_each_open_end_marked(
    browser: Any, server: str, shots: Path, size: str, variant: str, layout: dict[str, Any], lead: int,
    names: dict[str, str],
) -> None:  # fmt: skip
    page = new_page(browser, **(PHONE if size == "phone" else DESKTOP))
    open_lobby(page, server)
    make_table(page, server, variant=variant, bots_after=None)  # nobody else comes: the table waits, still
    page.wait_for_function("() => document.querySelector('.felt .board').clientHeight > 100")
    for _ in range(5):  # a frame of the waiting table (a seat's presence) may draw the felt again meanwhile
        drawn = page.evaluate(DRAW, [layout, lead])
        page.screenshot(path=shots / f"{variant}-long-{size}.png")
        if page.evaluate(STILL_DRAWN) == len(drawn["tiles"]):
            break
    felt, tiles, marks = drawn["felt"], drawn["tiles"], drawn["marks"]
    count = len(layout["line"]) if variant == "individual" else 1 + sum(len(a) for a in layout["arms"].values())
    assert len(tiles) == count == 28
    outside = [t for t, b in tiles if not within(b, felt)]
    assert outside == []
    over = [(t, u) for i, (t, a) in enumerate(tiles) for u, b in tiles[:i] if overlap(a, b)]
    assert over == []
    # each open end: its pip count, shown, named in the page's language, on the felt and on no tile
    assert {m["end"]: m["label"] for m in marks} == names
    for m in marks:
        assert m["shown"] and m["text"] == m["label"].rsplit(" ", 1)[1]
        assert within(m["box"], felt)
        assert [t for t, b in tiles if overlap(m["box"], b)] == []
        assert m["box"][2] - m["box"][0] >= 11  # big enough to read
    assert not page.errors


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("es", {"W": "punta oeste: 6", "E": "punta este: 1", "N": "punta norte: 6", "S": "punta sur: 1"}),
        ("en", {"W": "west end: 6", "E": "east end: 1", "N": "north end: 6", "S": "south end: 1"}),
    ],
)
def test_the_ends_pip_counts_are_named_in_the_pages_language(
    browser: Any, server: str, lang: str, names: dict[str, str]
) -> None:
    page = new_page(browser, lang=lang, **PHONE)
    open_lobby(page, server)
    make_table(page, server, variant="amazonense", bots_after=None)
    page.wait_for_function("() => document.querySelector('.felt .board').clientHeight > 100")
    marks = page.evaluate(DRAW, [CROSS, 0])["marks"]
    assert {m["end"]: m["label"] for m in marks} == names
    assert all(m["shown"] and m["text"] == m["label"][-1] for m in marks)
    assert not page.errors
