"""The ``heuristic`` bot (issue 23, item 1): legal in every game, only its seat's view, and the reply it allows.

The two positions below come from greedy self-play (``Match(amazonense, seed=4)`` and ``seed=75``, greedy's
moves); what the next opponent may hold is worked out here from the real deal and the public history, apart
from the bot's own code.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from capicua.bots.heuristic import DEFAULT_WEIGHTS, HeuristicBot, Weights, features
from capicua.bots.worlds import sample_world
from capicua.rules.amazonense import AmazonenseHand
from capicua.rules.moves import Move
from capicua.rules.tiles import NUMBER_MASK, TILES
from tests.bots.helpers import random_position
from tests.bots.test_bots import GAMES, assert_legal
from tests.rules.test_amazonense_rules import GALO_MID_DEAL, GALO_MID_PLAY, hand_of, play

#: Seat 0 to play, ends W 4, E 4, N 5, S 5 (count 18); it holds 0-0 1-0 4-2 5-4 5-5.
REPLY_DEAL = (
    "0-0 1-0 4-2 5-2 5-3 5-4 5-5",
    "2-0 2-2 3-0 3-3 4-1 4-4 6-0",
    "3-1 3-2 4-0 5-0 6-3 6-4 6-6",
    "1-1 2-1 4-3 5-1 6-1 6-2 6-5",
)
REPLY_PLAY = "2: 6-6, 3: 6-5 W, 0: 5-3 W, 1: 3-3 W, 2: 6-4 E, 3: 6-2 N, 0: 5-2 N, 1: 6-0 S, 2: 5-0 S, 3: 4-3 W"
#: Seat 1 to play, ends W 3, E 3, N 2, S 0; seat 2 passed on W 3 / E 6 early (A4: he has no 3 and no 6).
VOID_DEAL = (
    "1-1 3-1 5-2 5-3 6-0 6-2 6-4",
    "1-0 2-2 3-0 4-1 4-3 5-5 6-5",
    "0-0 2-0 2-1 4-2 5-0 5-1 5-4",
    "3-2 3-3 4-0 4-4 6-1 6-3 6-6",
)
VOID_PLAY = (
    "3: 6-6, 0: 6-4 W, 1: 4-3 W, 2: pass, 3: 6-3 W, 0: 6-2 W, 1: 6-5 E, 2: 2-0 W, 3: 6-1 N, 0: 5-3 E, "
    "1: 1-0 W, 2: 5-1 W, 3: 3-3 E, 0: 5-2 W, 1: 4-1 N, 2: 4-2 N, 3: 3-2 W, 0: 6-0 S"
)


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), steps=st.integers(0, 45))
def test_heuristic_only_makes_legal_moves(
    game: tuple[str, int | None, dict[str, object]], seed: int, steps: int
) -> None:
    """Random hands of every game, random actions of every kind (wrong galos, claims, fines, touched tiles...):
    whatever the bot does for any seat, the engine accepts it and never fines it."""
    hand = random_position(game, seed, steps).hand
    assume(hand.end is None)
    bot = HeuristicBot()
    for seat in range(hand.seats):
        assert_legal(bot, hand, seat)


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), steps=st.integers(0, 45))
def test_heuristic_sees_only_its_seat_s_view(
    game: tuple[str, int | None, dict[str, object]], seed: int, steps: int
) -> None:
    """Another deal of the hidden tiles that the seat cannot tell from the real one (same view) gets the same
    move and the same features for every play: nothing but the view goes in."""
    hand = random_position(game, seed, steps).hand
    assume(hand.end is None and any(m.is_play for m in hand.legal_moves))
    seat = hand.turn
    view = hand.view(seat)
    other = sample_world(view, random.Random(seed))
    assume(other is not None and other.hands != hand.hands)
    assert other is not None
    twin = other.view(seat)
    assert twin == view
    assert HeuristicBot().act(view) == HeuristicBot().act(twin)
    for move in (m for m in view.legal_moves if m.is_play):
        assert features(view, move) == features(twin, move)


def _replies(hand: AmazonenseHand, move: Move, seat: int, may: int) -> list[str]:
    """The plays of tiles in ``may`` that would score table points (A2) right after ``seat`` plays ``move``."""
    probe = hand.copy()
    probe.push(move, seat)
    out = []
    for t in range(28):
        if not may >> t & 1:
            continue
        for arm, pip in probe.layout.ends:
            if NUMBER_MASK[pip] >> t & 1:
                count = probe.layout.count_after(t, arm)
                if count and count % 5 == 0:
                    out.append(f"{TILES[t]} {'WENS'[arm]}")
    return out


def test_it_leaves_the_next_opponent_no_scoring_reply_when_an_equal_play_does() -> None:
    """Seat 0 may lay 5-4 on W or E (ends 5 4 5 5, count 19) or on N or S (4 4 4 5, count 17): no points
    either way, the same tile. After 5-4 W seat 1 (who has not passed: any unseen tile may be his) could
    score 15 with 4-0 on E or 5-1 on W, N or S; after 5-4 N no tile he may hold scores. The bot lays it on
    N or S."""
    hand = play(hand_of(REPLY_DEAL), REPLY_PLAY)
    assert hand.turn == 0
    view = hand.view(0)
    may = ((1 << 28) - 1) & ~view.on_table & ~sum(t.mask for t in view.tiles)
    on_w = Move.parse("5-4 W")
    on_n = Move.parse("5-4 N")
    assert on_w in view.legal_moves and on_n in view.legal_moves
    assert _replies(hand, on_w, 0, may) == ["4-0 E", "5-1 W", "5-1 N", "5-1 S"]
    assert _replies(hand, on_n, 0, may) == []
    action = HeuristicBot().act(view)
    assert action is not None and str(action.tile) == "5-4" and action.end_code in (2, 3), action  # N or S
    assert features(view, on_w).reply > 0 == features(view, on_n).reply


def test_it_prefers_ends_the_next_opponent_is_known_to_lack() -> None:
    """Seat 2 passed when the ends were 3 and 6 (A4), so he holds no 3. Seat 1's 3-0 on S makes the ends
    3 3 2 3 (three ends he lacks); on W or E it makes 0 3 2 0 (one). The bot plays it on S."""
    hand = play(hand_of(VOID_DEAL), VOID_PLAY)
    assert hand.turn == 1
    view = hand.view(1)
    action = HeuristicBot().act(view)
    assert action is not None and str(action) == "3-0 S", action
    on_s, on_w = features(view, Move.parse("3-0 S")), features(view, Move.parse("3-0 W"))
    assert (on_s.next_void, on_w.next_void) == (3, 1)
    assert on_s.pass_chance > on_w.pass_chance  # he may have no 2 either: a better chance of the 20 (A4)
    assert not hand.hands[2] & NUMBER_MASK[3]  # (the real deal agrees: seat 2 has no 3)


def test_it_calls_a_certain_galo() -> None:
    """A5: the position where every 0 left is seat 3's: 3-0 S with galo, as the scorer plays it."""
    hand = play(hand_of(GALO_MID_DEAL), GALO_MID_PLAY)
    assert str(HeuristicBot().act(hand.view(3))) == "3-0 S galo"


def test_every_weight_has_a_documented_meaning() -> None:
    """The weights are data: each has a comment in the code and a line in docs/bots.md's table of them."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    lines = Path(features.__code__.co_filename).read_text(encoding="utf-8").splitlines()
    for name in Weights.names():
        assert f"| `{name}` |" in doc, name
        at = lines.index(f"    {name}: float = {getattr(Weights(), name)!r}")
        assert lines[at - 1].startswith("    #: "), name
    assert set(DEFAULT_WEIGHTS) == {"spinner", "line"}
