"""The bots' fast worlds (``capicua.bots.sim``) keep the engine's rules: every play-out replayed in the
engine gives the same points, and the exact search gives the value brute force over the engine finds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from capicua.bots.sim import DOUBLES_FIRST, GREEDY, SCORER, LineWorld, SpinnerWorld, TooBig, heaviest, world_of
from capicua.rules.amazonense import AmazonenseHand
from capicua.rules.hand import Hand
from capicua.rules.moves import DRAW, GALO, LEAD, MOVES, PASS, Move
from capicua.rules.tiles import PIPS
from capicua.rules.variant import Termination
from tests.bots.helpers import random_position
from tests.bots.test_bots import GAMES, positions


def plays(hand: Hand) -> list[Move]:
    return [m for m in hand.legal_moves if m.is_play]


def engine_move(hand: Hand, code: int) -> Move:
    """The engine's move for a sim move of the seat to act."""
    if isinstance(hand, AmazonenseHand):
        tile, arm = code >> 2, code & 3
        return MOVES[tile << 4 | (LEAD if hand.layout.empty else arm) << 1]
    tile, side = code >> 1, code & 1
    return MOVES[tile << 4 | (LEAD if hand.layout.empty else 4 + side) << 1]


def value(hand: Hand, before: list[int], me: int) -> int:
    """Points since ``before``: ours minus theirs (individual: the seat's minus the best other's)."""
    delta = [p - q for p, q in zip(hand.points, before, strict=True)]
    if hand.partnerships:
        return delta[me & 1] - delta[(me & 1) ^ 1]
    return delta[me] - max(d for s, d in enumerate(delta) if s != me)


def replay(hand: Hand, trace: list[int], me: int, ends: list[Termination | None] | None = None) -> int:
    """Play the sim's moves in the engine (forced passes and draws, and every right galo after the
    first move, in between); the points they make (``ends`` gets how the hand ended)."""
    hand = hand.copy()
    before = list(hand.points)
    for i, code in enumerate(trace):
        while hand.legal_moves in ((PASS,), (DRAW,)):
            hand.push(hand.legal_moves[0])
        seat = hand.turn
        move = engine_move(hand, code)
        assert move in hand.legal_moves, (hand, move, trace)
        hand.push(move)
        if i and isinstance(hand, AmazonenseHand) and hand.end is None and hand.galo_is_right(seat):
            hand.push(GALO, seat)
    while hand.end is None:
        assert hand.legal_moves in ((PASS,), (DRAW,)), hand
        hand.push(hand.legal_moves[0])
    if ends is not None:
        ends.append(hand.end)
    return value(hand, before, me)


def sim_positions(variant: str, players: int | None, options: dict[str, object], seeds: range) -> list[Hand]:
    out = []
    for seed in seeds:
        for hand in positions(variant, players, options, seed):
            if hand.end is None and plays(hand) and world_of(hand, hand.turn).supported:
                out.append(hand.copy())
    return out


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_play_outs_score_as_the_engine_does(variant: str, players: int | None, options: dict[str, object]) -> None:
    rng = random.Random(3)
    checked = 0
    ends: list[Termination | None] = []
    for hand in sim_positions(variant, players, options, range(12)):
        for me in {hand.turn, (hand.turn + 1) % hand.seats}:  # the seat to act's side, and another's
            world = world_of(hand, me)
            for move in plays(hand)[:3]:
                for policy, eps in ((GREEDY, 0.0), (SCORER, 0.0), (GREEDY, 0.5), (SCORER, 1.0)):
                    trace: list[int] = []
                    got = world.after(world.code_of(move), policy, eps, rng, trace)
                    assert trace[0] == world.code_of(move)
                    assert got == replay(hand, trace, me, ends), (hand, move, trace)
                    checked += 1
    assert checked > 600
    # both ways a hand ends were played out (and scored alike)
    assert ends.count(Termination.DOMINO) > 50 and ends.count(Termination.BLOCKED) > 5, Counter(ends)


@settings(max_examples=200, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 40),
    me=st.integers(0, 3),
    pick=st.integers(0, 12),
    policy=st.sampled_from((GREEDY, SCORER, DOUBLES_FIRST)),
    eps=st.sampled_from((0.0, 0.25, 1.0)),
)
def test_random_deals_play_out_in_the_sim_as_in_the_engine(
    game: tuple[str, int | None, dict[str, object]], seed: int, steps: int, me: int, pick: int, policy: int, eps: float
) -> None:
    """A fresh deal, some random actions of any kind (announcements, wrong galos, claims, fines...), then a
    play-out in the sim from any seat's side: the engine, replaying it, gives the same points."""
    rng = random.Random(seed)  # the random actions, then the play-out
    hand = random_position(game, seed, steps, rng).hand
    assume(hand.end is None and plays(hand))
    me %= hand.seats
    world = world_of(hand, me)
    assume(world.supported)
    move = plays(hand)[pick % len(plays(hand))]
    trace: list[int] = []
    got = world.after(world.code_of(move), policy, eps, rng, trace)
    assert got == replay(hand, trace, me), (hand, move, trace)


@pytest.mark.parametrize(("variant", "players", "options"), [g for g in GAMES if g[0] != "amazonense"])
def test_a_doubles_first_play_out_sheds_a_double_whenever_one_fits(
    variant: str, players: int | None, options: dict[str, object]
) -> None:
    """DOUBLES_FIRST on a line, no random choice: after the move given, each seat plays its heaviest fitting double
    if it has one, else its heaviest fitting tile (GREEDY: the heaviest, double or not); replayed in the engine."""
    doubles_played = {DOUBLES_FIRST: 0, GREEDY: 0}
    for hand in sim_positions(variant, players, options, range(8)):
        world = world_of(hand, hand.turn)
        for policy in doubles_played:
            trace: list[int] = []
            world.after(world.code_of(plays(hand)[0]), policy, 0.0, None, trace)
            probe = hand.copy()
            for i, code in enumerate(trace):
                while probe.legal_moves in ((PASS,), (DRAW,)):
                    probe.push(probe.legal_moves[0])
                move = engine_move(probe, code)
                fitting = [m.tile for m in plays(probe) if m.tile is not None]
                if i and not probe.layout.empty:
                    doubles = [t for t in fitting if t.is_double] if policy == DOUBLES_FIRST else []
                    best = max(doubles or fitting, key=lambda t: (t.pips, t.is_double))
                    assert move.tile is not None and move.tile.pips == best.pips, (probe, move, fitting)
                    assert move.tile.is_double == best.is_double
                    doubles_played[policy] += move.tile.is_double
                probe.push(move)
    assert doubles_played[DOUBLES_FIRST] > doubles_played[GREEDY] > 0


def brute(hand: Hand, me: int) -> int:
    """The perfect-information value of the rest of the hand, by trying every play in the engine (a right
    galo is always called: in the sim's worlds every player calls it exactly when it is right)."""
    if hand.end is not None:
        return 0
    moves = hand.legal_moves
    if moves in ((PASS,), (DRAW,)):
        before = list(hand.points)
        hand.push(moves[0])
        v = value(hand, before, me) + brute(hand, me)
        hand.pop()
        return v
    seat = hand.turn
    partners = hand.partnerships

    def side(s: int) -> int:
        return s & 1 if partners else s

    best: int | None = None
    for move in moves:
        before = list(hand.points)
        hand.push(move)
        pushed = 1
        if isinstance(hand, AmazonenseHand) and hand.end is None and hand.galo_is_right(seat):
            hand.push(GALO, seat)
            pushed = 2
        v = value(hand, before, me) + brute(hand, me)
        for _ in range(pushed):
            hand.pop()
        if best is None or (v > best if side(seat) == side(me) else v < best):
            best = v
    assert best is not None
    return best


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_exact_search_finds_the_perfect_information_value(
    variant: str, players: int | None, options: dict[str, object]
) -> None:
    checked = 0
    for hand in sim_positions(variant, players, options, range(40)):
        world = world_of(hand, hand.turn)
        if world.tiles_left() > 9:
            continue
        me = hand.turn
        table: dict[object, tuple[int, int]] = {}
        for move in plays(hand):
            probe = hand.copy()
            before = list(probe.points)
            probe.push(move)
            want = value(probe, before, me) + brute(probe, me)
            assert world.exact(world.code_of(move), table=table) == want, (hand, move)
            checked += 1
    assert checked > 20


def test_exact_search_keeps_to_its_budget() -> None:
    hand = next(h for h in sim_positions("dominousa", None, {}, range(1)) if h.history)
    world = world_of(hand, hand.turn)
    assert isinstance(world, LineWorld) and world.tiles_left() > 20
    with pytest.raises(TooBig):
        world.exact(world.code_of(plays(hand)[0]), budget=50)


def test_heaviest_and_galo() -> None:
    from tests.rules.test_amazonense_rules import GALO_MID_DEAL, GALO_MID_PLAY, hand_of, play

    assert all(PIPS[heaviest(m)] == max(PIPS[t] for t in range(28) if m >> t & 1) for m in range(1, 1 << 12))
    hand = play(hand_of(GALO_MID_DEAL), GALO_MID_PLAY)
    world = world_of(hand, 3)
    assert isinstance(world, SpinnerWorld)
    right = [str(m) for m in plays(hand) if world.galo_right(world.code_of(m))]
    assert right == ["3-0 S"]
