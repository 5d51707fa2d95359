"""The game record (shared/spec/records.md): reading, writing, replaying, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from capicua.rules.randomgame import random_record
from capicua.rules.record import FORMAT, Record, RecordError, replay, summary

SPEC_RECORD: dict[str, Any] = {
    "format": "capicua-record/1",
    "variant": "amazonense",
    "options": {"target": 200},
    "players": ["Ana", "Bia", "Caio", "Davi"],
    "hands": [
        {
            "deal": [
                ["6-6", "5-5", "4-2", "3-1", "0-0", "6-1", "3-2"],
                ["6-3", "5-4", "4-4", "2-1", "0-1", "5-0", "2-2"],
                ["6-2", "6-5", "4-3", "1-1", "0-2", "5-3", "4-0"],
                ["3-3", "6-4", "5-2", "6-0", "5-1", "4-1", "3-0"],
            ],
            "boneyard": [],
            "actions": ["0: 6-6", "1: 6-3 W", "2: 6-2 E", "3: 3-3 W"],
        }
    ],
}


def spec_record(**changes: Any) -> dict[str, Any]:
    rec: dict[str, Any] = json.loads(json.dumps(SPEC_RECORD))
    rec.update(changes)
    return rec


def test_spec_example_replays_to_the_spec_json() -> None:
    """The example of records.md: 6-6 alone 12; 6-3 W 3+12 = 15 → team 1; 6-2 E 3+2 = 5 → team 0;
    3-3 W 6+2 = 8, nothing. The record stops mid-hand: finished false."""
    assert summary(replay(Record.from_json(SPEC_RECORD))) == {
        "hands": [
            {
                "end": "open",
                "points": [5, 15],
                "scoring": [
                    {"hand": 1, "action": 2, "seat": 1, "kind": "table", "points": 15, "to": 1},
                    {"hand": 1, "action": 3, "seat": 2, "kind": "table", "points": 5, "to": 0},
                ],
            }
        ],
        "totals": [5, 15],
        "winner": None,
        "finished": False,
    }


def test_record_round_trips_through_text() -> None:
    rec = Record.from_json(SPEC_RECORD)
    again = Record.loads(rec.dumps())
    assert again == rec
    assert json.loads(rec.dumps())["format"] == FORMAT


def test_options_default_to_empty_and_unknown_fields_are_kept() -> None:
    data = spec_record(options={}, site="capicua.test")
    data["hands"][0]["table"] = 7
    rec = Record.from_json(data)
    assert rec.extra == {"site": "capicua.test"}
    assert rec.hands[0].extra == {"table": 7}
    assert json.loads(rec.dumps())["hands"][0]["table"] == 7
    assert replay(rec).options["target"] == 200


def test_tile_written_either_way_is_the_same_tile() -> None:
    """`6-4` and `4-6` are the same tile (records.md)."""
    data = spec_record()
    data["hands"][0]["actions"] = ["0: 6-6", "1: 3-6 W"]
    assert summary(replay(Record.from_json(data)))["totals"] == [0, 15]


@pytest.mark.parametrize(
    ("mutate", "hand", "action", "reason"),
    [
        (lambda r: r["hands"][0]["actions"].__setitem__(1, "1: 6-4 W"), 1, 2, "does not hold 6-4"),
        (lambda r: r["hands"][0]["actions"].__setitem__(1, "2: 6-2 W"), 1, 2, "not seat 2's turn"),
        (lambda r: r["hands"][0]["actions"].__setitem__(1, "1: 6-3 N"), 1, 2, "not open yet"),
        (lambda r: r["hands"][0]["actions"].__setitem__(1, "1: pass"), 1, 2, "may not pass"),
        (lambda r: r["hands"][0]["actions"].__setitem__(0, "0: 5-5"), 1, 1, "lead must be 6-6"),
        (lambda r: r["hands"][0]["actions"].__setitem__(1, "1: 6-3 Q"), 1, 2, "unknown end"),
        (lambda r: r["hands"][0]["actions"].__setitem__(1, "one: 6-3 W"), 1, 2, "bad seat"),
        (lambda r: r["hands"][0]["actions"].__setitem__(1, "7: 6-3 W"), 1, 2, "no seat 7"),
        (lambda r: r["hands"][0]["actions"].__setitem__(1, "1: 6-3"), 1, 2, "more than one end"),
    ],
)
def test_illegal_action_names_hand_action_and_reason(mutate: Any, hand: int, action: int, reason: str) -> None:
    data = spec_record()
    mutate(data)
    with pytest.raises(RecordError) as err:
        replay(Record.from_json(data))
    assert (err.value.hand, err.value.action) == (hand, action)
    assert reason in str(err.value)
    assert str(err.value).startswith(f"hand {hand}, action {action}")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("[]", "a record is a JSON object"),
        ("{", "not JSON"),
        (json.dumps(spec_record(format="capicua-record/2")), "format must be"),
        (json.dumps(spec_record(variant="pôquer")), "unknown variant"),
        (json.dumps(spec_record(players="Ana")), "players must be"),
        (json.dumps(spec_record(players=["Ana", "Bia"])), "played by 4 players"),
        (json.dumps(spec_record(options={"target": -5})), "target must be a positive integer"),
        (json.dumps(spec_record(hands={})), "hands must be a list"),
    ],
)
def test_malformed_record_is_rejected_with_reason(data: str, reason: str) -> None:
    with pytest.raises(RecordError, match=reason):
        replay(Record.loads(data))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d[0].__setitem__(0, "7-7"), "not a tile"),
        (lambda d: d[0].__setitem__(0, "5-5"), "dealt the same tile twice"),
        (lambda d: d[0].pop(), "must be dealt 7"),
        (lambda d: d[1].__setitem__(0, "6-6"), "exactly once|dealt a tile dealt to another seat"),
        (lambda d: d.pop(), "must have 4 hands"),
    ],
)
def test_bad_deal_is_rejected_naming_the_hand(change: Any, reason: str) -> None:
    data = spec_record()
    change(data["hands"][0]["deal"])
    with pytest.raises(RecordError, match=reason) as err:
        replay(Record.from_json(data))
    assert err.value.hand == 1


def test_actions_after_the_hand_ended_are_rejected() -> None:
    rec = random_record("amazonense", seed=4)
    rec.hands[0].actions.append(rec.hands[0].actions[-1])
    with pytest.raises(RecordError, match="already over") as err:
        replay(rec)
    assert err.value.hand == 1 and err.value.action == len(rec.hands[0].actions)


def test_hand_after_an_unfinished_hand_is_rejected() -> None:
    rec = random_record("amazonense", seed=4)
    rec.hands[0].actions.pop()
    with pytest.raises(RecordError, match="not finished") as err:
        replay(rec)
    assert err.value.hand == 2


def test_hand_after_the_match_ended_is_rejected() -> None:
    rec = random_record("amazonense", seed=4)
    rec.hands.append(rec.hands[-1])
    with pytest.raises(RecordError, match="already over"):
        replay(rec)


def test_record_cut_mid_hand_replays_unfinished() -> None:
    rec = random_record("amazonense", seed=11)
    full = summary(replay(rec))
    assert full["finished"] and full["winner"] in (0, 1)
    rec.hands[-1].actions = rec.hands[-1].actions[:5]
    cut = summary(replay(rec))
    assert cut["finished"] is False and cut["winner"] is None
    assert cut["hands"][-1]["end"] == "open"
    assert cut["hands"][:-1] == full["hands"][:-1]


def test_random_records_are_reproducible_and_use_every_action_kind() -> None:
    """`capicua record random` material: same seed, same record; across seeds every kind appears."""
    assert random_record(seed=5) == random_record(seed=5)
    assert random_record(seed=5) != random_record(seed=6)
    words: set[str] = set()
    ends: set[str] = set()
    kinds: set[str] = set()
    for seed in range(120):
        rec = random_record(seed=seed)
        for hand in rec.hands:
            for action in hand.actions:
                move = action.split(": ")[1].split()
                if len(move) == 1 and "-" not in move[0]:
                    words.add(move[0])
                if len(move) >= 2 and move[1] != "galo":
                    ends.add(move[1])
                if move[-1] == "galo" and len(move) > 1:
                    words.add("play+galo")
        for hand_summary in summary(replay(rec))["hands"]:
            kinds.update(s["kind"] for s in hand_summary["scoring"])
    assert words >= {"pass", "galo", "play+galo", "announce", "redeal", "keep"}
    assert ends == {"W", "E", "N", "S"}
    assert kinds == {
        "table",
        "pass",
        "galo",
        "galo-wrong",
        "doubles-4",
        "doubles-5",
        "no-double",
        "batida",
        "batida-double",
        "tranca",
    }


def test_referee_and_strict_records_round_trip() -> None:
    """C8/C9: referee decisions and fined actions are written and replayed exactly as the table made them."""
    from capicua.rules.randomgame import random_match

    seen: set[str] = set()
    for seed in range(40):
        match = random_match("dominousa", seed, options={"strict": True})
        rec = Record.from_match(match)
        text = rec.dumps()
        again = replay(Record.loads(text))
        assert summary(again) == summary(match)
        assert Record.from_match(again).dumps() == text
        for hand in rec.hands:
            for action in hand.actions:
                if action.startswith("ref("):
                    seen.add(action.split(": ")[1].split()[0])
        seen.update(s["kind"] for h in summary(match)["hands"] for s in h["scoring"])
    assert {"fine", "score", "touch", "referee", "batida", "tranca"} <= seen


def test_bad_referee_action_is_rejected() -> None:
    data = spec_record(variant="dominousa")
    data["hands"][0]["actions"] = ['ref(Rivera): fine 2 "no points"']
    with pytest.raises(RecordError, match="takes 2 argument") as err:
        replay(Record.from_json(data))
    assert (err.value.hand, err.value.action) == (1, 1)
    data["hands"][0]["actions"] = ["ref(Rivera): fine 2 20"]
    with pytest.raises(RecordError, match="without a reason"):
        replay(Record.from_json(data))
    data["hands"][0]["actions"] = ['ref(Rivera): award 0 "intentional pass"']
    result = summary(replay(Record.from_json(data)))
    assert result["winner"] == 0 and result["finished"] and result["hands"][0]["end"] == "awarded"
