"""The table page draws again only what changed (issue 19): each part of it is drawn from its slice of the
table's store, so a chat message or a clock leaves the tiles on the table, my hand and the hand's history
as they are (the same DOM nodes), while what they change is drawn at once."""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
import time
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, history_rows, make_table, my_turn, new_page, open_lobby, play_one, play_soon

pytestmark = pytest.mark.slow

#: The nodes watched: a tile on the table, my hand, the history's list and the chat's list.
MARK = """() => { window.marked = {
    tile: document.querySelector(".board g.board-tile"),
    hand: document.querySelector(".mine .mytiles"),
    history: document.querySelector(".history-panel ol.moves"),
    chat: document.querySelector(".chat-panel .chat-lines") }; }"""
#: Which of them are still the very nodes on the page.
SAME = """() => Object.fromEntries(Object.entries(window.marked)
    .map(([k, node]) => [k, node !== null && node.isConnected]))"""


class Tap:
    """The page's websocket through Playwright: every frame the server sends it is kept, and a test may
    send it one of its own."""

    def __init__(self, page: Any) -> None:
        self.frames: list[dict[str, Any]] = []
        self.routes: list[Any] = []
        page.route_web_socket(re.compile(r"/ws(\?|$)"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda message: server.send(message))

        def down(message: str | bytes) -> None:
            self.frames.append(json.loads(message))
            ws.send(message)

        server.on_message(down)
        self.routes.append(ws)

    def last_state(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f.get("state"))

    def send(self, frame: dict[str, Any]) -> None:
        self.routes[-1].send(json.dumps(frame))


def my_quiet_turn(page: Any, timeout: float = 60) -> None:
    """Play until it is my turn again with tiles on the table and moves in the history: the table then waits
    for me (a bot plays at once, and my move clock runs for 40 s)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if my_turn(page) and history_rows(page) >= 2 and page.query_selector(".board g.board-tile"):
            return
        play_one(page, avoid_pass=True)
        page.wait_for_timeout(80)
    raise AssertionError("no turn of mine with tiles on the table came")


def test_a_chat_message_or_a_clock_redraws_neither_the_tiles_nor_my_hand_nor_the_history(
    browser: Any, server: str
) -> None:
    page = new_page(browser, **DESKTOP)
    tap = Tap(page)
    open_lobby(page, server)
    make_table(page, server, variant="individual", players=2, target=500)
    my_quiet_turn(page)
    page.evaluate(MARK)
    assert all(page.evaluate("() => Object.values(window.marked).map((n) => n !== null)"))

    # A chat message: the chat list and the speaker's bubble are drawn, nothing of the game.
    page.click("button.preset[data-preset='gg']")
    page.wait_for_selector(".chat-panel .chat-line[data-preset='gg']", timeout=5000)
    page.wait_for_selector(".seat-chip.me .bubble", timeout=5000)
    assert page.evaluate(SAME) == {"tile": True, "hand": True, "history": True, "chat": True}

    # Only the clock changes (the same state, my move clock given more time): the clock shows it, and the
    # rest stays as it is, the clock's ticks included.
    frame = copy.deepcopy(tap.last_state())
    assert frame["state"]["clock"]["seat"] == frame["state"]["seat"]
    later = (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=95)).isoformat()
    frame["state"]["clock"]["deadline"] = later
    tap.send(frame)
    page.wait_for_selector(f".seat-chip.me .clock.running[data-deadline='{later}']", timeout=5000)
    left = "document.querySelector('.seat-chip.me .clock .left').textContent"
    page.wait_for_function(f"() => {left}.startsWith('1:3')", timeout=5000)  # 95 s: 1:35
    page.wait_for_timeout(600)  # a few ticks of the clocks
    assert page.evaluate(SAME) == {"tile": True, "hand": True, "history": True, "chat": True}

    # A move of mine draws the tiles, my hand and the history again.
    assert play_soon(page)
    page.wait_for_function("() => !window.marked.history.isConnected && !window.marked.hand.isConnected", timeout=5000)
    assert not page.errors
