"""The record walker's one error (issue 18, item 8): whatever is wrong with a record, reading and walking it
either works or raises RecordError (a MoveError, the engine's error) naming the step that failed, with the
action's text cut short. Never another exception: the web layer maps this one type to 422 (a 500 before),
and ``capicua replay`` prints it and exits 1."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from capicua.rules.moves import MoveError
from capicua.rules.randomgame import random_record
from capicua.rules.record import SHOWN_REASON, SHOWN_TEXT, Record, RecordError, replay, replay_steps
from tests.rules.test_record import spec_record

#: Whole matches of every game (strict Dominousa has referee-free fines and claims), as JSON.
RECORDS = [
    random_record(variant, seed=seed, options=options).to_json()
    for variant, options in (("amazonense", None), ("individual", None), ("dominousa", {"strict": True}))
    for seed in (1, 2)
]
#: Pieces of action text: what records hold, and what they must not.
WORDS = ["pass", "draw", "galo", "claim", "time", "6-6", "6-5 W", "3-1 R", "9-9", "-:", "ref(Ana): ",
         "fine 0 5", 'score 1 -5 "x"', "touch 0 6-6", 'award 1 "x"', "annul", "²", "٣", "𝟔", "\x00", "\n", " ",
         ":", "\ud800"]  # fmt: skip
garbage = st.one_of(
    st.text(max_size=30),
    st.lists(st.sampled_from(WORDS), max_size=4).map("".join),
    st.builds(lambda seat, rest: f"{seat}: {rest}", st.sampled_from(["0", "3", "7", "-", "²", "٣", " 1"]),
              st.lists(st.sampled_from(WORDS), max_size=3).map(" ".join)),
    st.just("0: " + "x" * 100_000),
)  # fmt: skip


def position(err: RecordError) -> tuple[int, int]:
    """Where the error is: (hand, action), a hand's deal being action 0; a whole-record error is (0, 0)."""
    return (err.hand or 0, err.action or 0)


def check(data: dict[str, Any], changed: tuple[int, int]) -> None:
    """``data`` replays, or every reader fails with RecordError at ``changed`` (the first step that differs
    from a record that replays) or later, in few words."""
    errors = []
    for read in (lambda: replay(Record.from_json(data)), lambda: replay_steps(data)):
        try:
            read()
        except RecordError as exc:
            errors.append(exc)
    if not errors:
        return
    assert len(errors) == 2 and str(errors[0]) == str(errors[1])  # every reader says the same
    err = errors[0]
    assert isinstance(err, MoveError)
    assert position(err) >= changed, (str(err), changed)
    assert len(err.text) <= SHOWN_TEXT and len(err.reason) <= SHOWN_REASON
    assert len(str(err)) <= SHOWN_TEXT + SHOWN_REASON + 60


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(RECORDS) - 1),
    hand=st.integers(0, 50),
    at=st.integers(0, 200),
    how=st.sampled_from(["replace", "insert", "delete", "swap", "cut"]),
    text=garbage,
)
def test_perturbed_actions_replay_or_give_the_walkers_error_at_the_change(
    which: int, hand: int, at: int, how: str, text: str
) -> None:
    data = copy.deepcopy(RECORDS[which])
    hand %= len(data["hands"])
    actions = data["hands"][hand]["actions"]
    at %= len(actions) + 1
    if how == "replace" and at < len(actions):
        actions[at] = text
    elif how == "delete" and at < len(actions):
        del actions[at]
    elif how == "swap" and at + 1 < len(actions):
        actions[at], actions[at + 1] = actions[at + 1], actions[at]
    elif how == "cut":
        del actions[at:]
    else:
        actions.insert(at, text)
    check(data, (hand + 1, at + 1))


@settings(max_examples=150, deadline=None)
@given(
    which=st.integers(0, len(RECORDS) - 1),
    hand=st.integers(0, 50),
    seat=st.integers(0, 3),
    how=st.sampled_from(["drop", "add", "move", "boneyard"]),
    tile=st.sampled_from(["6-6", "0-0", "3-1", "9-9", "6-6-6", "", "x"]),
)
def test_perturbed_deals_replay_or_give_the_walkers_error_at_the_hand(
    which: int, hand: int, seat: int, how: str, tile: str
) -> None:
    data = copy.deepcopy(RECORDS[which])
    hand %= len(data["hands"])
    entry = data["hands"][hand]
    seat %= len(entry["deal"])
    if how == "drop" and entry["deal"][seat]:
        entry["deal"][seat].pop()
    elif how == "move" and entry["deal"][seat]:
        entry["deal"][(seat + 1) % len(entry["deal"])].append(entry["deal"][seat].pop())
    elif how == "boneyard":
        entry["boneyard"] = [tile, *entry.get("boneyard", [])]
    else:
        entry["deal"][seat].append(tile)
    try:
        check(data, (hand + 1, 0))
    except RecordError as exc:  # a tile that is no tile: refused while reading, naming the hand
        assert exc.hand == hand + 1 and "not a tile" in str(exc)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("7: pass", "there is no seat 7"),
        ("0: 9-9", "not a move"),
        ("zzz", "not an action"),
        ("²: pass", "bad seat '²'"),  # int('²') raised ValueError: out of the walker, a 500 on the server
        ("٣: pass", "bad seat '٣'"),  # was read as seat 3: the seat is one ASCII digit
    ],
)
def test_the_actions_of_the_issue_name_their_step(action: str, reason: str) -> None:
    data = spec_record()
    data["hands"][0]["actions"][1] = action
    with pytest.raises(RecordError) as err:
        replay(Record.from_json(data))
    assert (err.value.hand, err.value.action) == (1, 2) and reason in str(err.value)


def test_a_huge_action_is_named_cut_short() -> None:
    data = spec_record()
    data["hands"][0]["actions"][1] = "1: " + "6" * 100_000
    with pytest.raises(RecordError) as err:
        replay(Record.from_json(data))
    assert str(err.value).startswith("hand 1, action 2 ('1: 666") and len(str(err.value)) < 300
    assert err.value.text.endswith("…") and len(err.value.text) == SHOWN_TEXT


def test_the_error_is_the_engines_and_crosses_a_process_whole() -> None:
    """A MoveError (the engine's error), and pickled (out of a worker process) with hand, action and text."""
    err = RecordError("there is no seat 7", 2, 5, "7: pass")
    assert isinstance(err, MoveError) and isinstance(err, ValueError)
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), back.hand, back.action, back.text, str(back)) == (
        RecordError,
        2,
        5,
        "7: pass",
        "hand 2, action 5 ('7: pass'): there is no seat 7",
    )
