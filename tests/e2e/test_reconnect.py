"""A move whose connection drops before its answer (docs/protocol.md, "Several servers"): it may not have reached
the table, or it may have been made with its answer lost. Either way the browser client, once connected and
subscribed again, makes it exactly once: sent again with its ref if the table still waits for it, and not sent
again if what was missed brings its event; no error is shown."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.helpers import make_table, my_seat, my_turn, new_page, open_lobby, page_state, play_one

pytestmark = pytest.mark.slow


class Cut:
    """The page's websocket through Playwright. Armed, it takes the next action the page sends: ``lost`` drops
    it (it never reaches the table) and closes the page's connection at once; ``made`` lets it through, swallows
    every frame that follows, and closes the connection when the action's ack comes (made, its answer lost)."""

    def __init__(self, page: Any) -> None:
        self.up: list[tuple[int, dict[str, Any]]] = []  # (connection, message) the page sent
        self.down: list[tuple[int, dict[str, Any]]] = []  # (connection, frame) the page got
        self.armed: str | None = None
        self.cut: tuple[int, dict[str, Any]] | None = None  # the connection and the action taken
        self.connections = 0
        page.route_web_socket(re.compile(r"/ws(\?|$)"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        k, self.connections = self.connections, self.connections + 1
        swallowing = False

        def up(message: str | bytes) -> None:
            nonlocal swallowing
            msg = json.loads(message)
            self.up.append((k, msg))
            if msg.get("type") == "action" and self.armed:
                mode, self.armed, self.cut = self.armed, None, (k, msg)
                if mode == "lost":
                    ws.close()
                    return
                swallowing = True
            server.send(message)

        def down(message: str | bytes) -> None:
            frame = json.loads(message)
            if swallowing:
                if self.cut and frame.get("ref") == self.cut[1]["ref"]:
                    ws.close()
                return
            self.down.append((k, frame))
            ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    def after(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """What the page sent, and what it got, on the connections after the one the action was cut on."""
        assert self.cut is not None
        return [m for k, m in self.up if k > self.cut[0]], [f for k, f in self.down if k > self.cut[0]]


def until(page: Any, done: Callable[[], bool], what: str, timeout: float = 20) -> None:
    """Wait (letting Playwright hand over the socket's messages) until ``done()``."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if done():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{what} did not happen in time: {page_state(page)}")


def turn_with_a_tile(page: Any, timeout: float = 60) -> None:
    """Play (drawing or passing) until it is my turn with a tile to play: the table then waits for me."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if my_turn(page) and page.query_selector(".mytiles button.tile.playable:not([disabled])"):
            return
        play_one(page)
        page.wait_for_timeout(80)
    raise AssertionError("no turn of mine with a tile to play came")


def mine(frames: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """My seat's action events among frames."""
    return [f for f in frames if f["type"] == "event" and f["event"]["kind"] == "action" and f["event"]["seat"] == seat]


@pytest.mark.parametrize("fate", ["lost", "made"])
def test_a_move_whose_connection_drops_before_its_answer_is_made_once(browser: Any, server: str, fate: str) -> None:
    page = new_page(browser)
    cut = Cut(page)
    open_lobby(page, server)
    make_table(page, server, variant="individual", players=2, target=500)
    turn_with_a_tile(page)
    seat = my_seat(page)
    cut.armed = fate
    assert play_one(page, avoid_pass=True) == "play"
    until(page, lambda: cut.cut is not None and bool(mine(cut.after()[1], seat)), "my move's event on a new connection")
    assert cut.cut is not None
    action = cut.cut[1]

    def past_my_move() -> bool:  # any answer to a resend has come by then
        got = cut.after()[1]
        return len(got) > got.index(mine(got, seat)[0]) + 1

    until(page, past_my_move, "a frame after my move's")
    sent, got = cut.after()
    assert sent[0]["type"] == "subscribe"
    again = [m for m in sent if m["type"] == "action"]
    if fate == "lost":
        # The table waited for it (synced): sent again, with its ref, before anything else.
        assert again[:1] == [action], (sent, got)
        assert any(f["type"] == "ack" and f["ref"] == action["ref"] for f in got), got
    else:
        # What was missed brought its event: it is not sent again (it would be answered by its first ack).
        assert all(m["ref"] != action["ref"] for m in again), (sent, got)
    assert [f for f in got if f["type"] == "error"] == []
    assert len(mine(got, seat)) >= 1 and mine(got, seat)[0]["event"]["action"].endswith(action["action"])
    assert page.is_hidden("#error"), page_state(page)
    assert not page.errors
