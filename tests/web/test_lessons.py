"""A guided first hand's table (issue 22, item 4; capicua/bots/lessons): ``POST /api/lessons/{game}`` seats the
caller at a private, casual table that deals the lesson's hand, its scripted bots follow the script as the
learner plays the lesson's moves, the learner sees no other seat's tile, and the match is decided when the
lesson says. The lesson's prompts (``GET``) hold no hidden tile."""

from __future__ import annotations

from typing import Any

import pytest

from capicua.bots.lessons import get, names
from capicua.rules.tiles import Tile
from tests.web.helpers import Harness, tiles_in


@pytest.mark.parametrize("game", names())
def test_a_lesson_table_deals_the_lesson_and_its_bots_follow_the_script(h: Harness, game: str) -> None:
    lesson = get(game)
    learner = h.guest("Aprendiz")
    r = h.client.post(f"/api/lessons/{game}", headers=learner.headers)
    assert r.status_code == 201, r.text
    summary = r.json()
    table_id = summary["id"]
    assert summary["private"] is True and summary["rated"] is False and summary["options"]["lesson"] == game
    assert table_id not in {t["id"] for t in h.client.get("/api/tables").json()}  # not in the lobby
    conn = h.connect(learner)
    conn.subscribe(table_id)
    wanted = [s.move for s in lesson.script if s.seat == lesson.seat]
    mine = {str(Tile.parse(t)) for t in lesson.deal[lesson.seat]}
    played = since = 0
    acted = -1  # the length of the history when I last acted: a state from before it is not my turn now
    while True:
        ready = lambda f, acted=acted: (  # noqa: E731
            _state(f) is not None
            and len(_state(f)["hand"]["history"]) > acted  # type: ignore[index]
            and (_mine_to_play(f, lesson.seat) or _over(f))
        )
        frame = conn.wait_for(ready, since=since, timeout=10)
        state = _state(frame)
        assert state is not None
        if state["seat"] is not None:
            assert state["seat"] == lesson.seat
        hand = state["hand"]
        if not hand["end"]:  # every tile the learner sees is his own: dealt him, or drawn by him
            assert tiles_in({"tiles": hand["tiles"]}) <= mine | _drawn(lesson, hand["history"])
        if _over(frame):
            break
        history = hand["history"]
        assert lesson.follows(history), history  # the bots played the script so far
        since, acted = len(conn.frames), len(history)
        conn.act(table_id, wanted[played])
        played += 1
    state = _state(frame)
    assert state is not None
    assert state["hand"]["history"] == [s.do for s in lesson.script]
    assert state["totals"][0] == lesson.end["facts"]["total"]
    if state["totals"][0] >= state["table"]["options"]["target"]:
        assert state["winner"] == 0  # the lesson's hand decides the match
    assert played == len(wanted)
    seats = state["table"]["seats"]
    assert [s["kind"] for s in seats] == ["person"] + ["bot"] * (len(seats) - 1)
    assert all(s["bot"] == f"lesson:{game}" for s in seats[1:])


def _drawn(lesson: Any, history: list[str]) -> set[str]:
    """The boneyard's tiles the learner drew in ``history`` (the draws take them in the boneyard's order)."""
    draws = [a for a in history if a.endswith(": draw")]
    return {str(Tile.parse(t)) for a, t in zip(draws, lesson.boneyard, strict=False) if a.startswith(f"{lesson.seat}:")}


def _state(frame: dict[str, Any]) -> dict[str, Any] | None:
    state = frame.get("state")
    return state if state and state.get("hand") else None


def _mine_to_play(frame: dict[str, Any], seat: int) -> bool:
    state = _state(frame)
    return bool(state and state["hand"]["turn"] == seat and not state["hand"]["end"] and state["hand"]["legal"])


def _over(frame: dict[str, Any]) -> bool:
    state = _state(frame)
    return bool(state and state["hand"]["end"])


def test_the_lesson_the_client_gets_and_what_is_refused(h: Harness) -> None:
    assert h.client.get("/api/lessons").json() == list(names()) and "amazonense" in names()
    public = h.client.get("/api/lessons/amazonense").json()
    lesson = get("amazonense")
    hidden = {str(Tile.parse(t)) for seat, hand in enumerate(lesson.deal) if seat != lesson.seat for t in hand}
    prompts = [text for step in public["steps"] for text in step["prompt"]]
    assert len(public["steps"]) == 7 and all(len(step["prompt"]) == 3 for step in public["steps"])
    assert "deal" not in public and not any(s.do in repr(public) for s in lesson.script if s.seat != lesson.seat)
    # the prompts name tiles: the learner's own, and the bots' only once they lie on the table (a note after)
    assert tiles_in(public["steps"]) - {str(Tile.parse(t)) for t in lesson.deal[lesson.seat]} <= hidden
    assert prompts
    guest = h.guest("Curioso")
    for path in ("/api/lessons/chess", "/api/lessons/Amazonense"):
        assert h.client.get(path).status_code == 422
        r = h.client.post(path, headers=guest.headers)
        assert r.status_code == 422 and r.json()["error"] == "invalid"


@pytest.mark.parametrize("game", names())
def test_a_rematch_at_a_lesson_table_deals_a_match_like_any(h: Harness, game: str) -> None:
    """The lesson is the first match's first hand: a rematch deals from its own shuffle, and its bots play on."""
    lesson = get(game)
    learner = h.guest("Aprendiz")
    table_id = h.client.post(f"/api/lessons/{game}", headers=learner.headers).json()["id"]
    conn = h.connect(learner)
    conn.subscribe(table_id)
    dealt = {str(Tile.parse(t)) for t in lesson.deal[lesson.seat]}
    first = conn.wait_for(lambda f: _state(f) is not None, timeout=10)
    assert tiles_in({"tiles": _state(first)["hand"]["tiles"]}) == dealt  # type: ignore[index]
    assert h.client.post(f"/api/tables/{table_id}/resign", headers=learner.headers).status_code == 200
    assert h.client.post(f"/api/tables/{table_id}/rematch", headers=learner.headers).is_success

    def second_match(f: dict[str, Any]) -> bool:
        state = _state(f)
        return state is not None and state["table"]["match"] == 2

    state = _state(conn.wait_for(second_match, timeout=10))
    assert state is not None and state["hand"]["hand"] == 1
    assert tiles_in({"tiles": state["hand"]["tiles"]}) != dealt  # its own shuffle, not the lesson's deal
    # the bots play it (the script is not followed: greedy play), up to the learner's turn or the hand's end
    conn.wait_for(lambda f: second_match(f) and (_mine_to_play(f, lesson.seat) or _over(f)), timeout=10)
