"""The baselines (``scorer``, ``pimc``) and what the expert adds: legal moves only, nothing hidden, the
points they must see (A2, A4, A5), the worlds they use."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from capicua.bots.base import layout_of
from capicua.bots.expert import ExpertBot
from capicua.bots.inference import PlayModel
from capicua.bots.pimc import PimcBot
from capicua.bots.scorer import ScorerBot, immediate_points
from capicua.bots.search import Settings, candidates, evaluate
from capicua.bots.worlds import knowledge, sample_world
from capicua.rules import variants
from capicua.rules.hand import Score
from capicua.rules.match import Match
from capicua.rules.moves import GALO, Move
from capicua.rules.variant import Termination
from tests.bots.test_bots import GAMES, assert_legal, play_checking_galos, positions
from tests.rules.test_amazonense_rules import GALO_MID_DEAL, GALO_MID_PLAY, hand_of, play

#: After 0: 6-6, seat 1 holds 6-3 (3 + 12 = 15 on the table, A2) and the heavier 6-5 (17: nothing).
COUNT_DEAL = (
    "6-6 5-5 4-2 3-1 0-0 6-1 3-2",
    "6-3 6-5 4-4 2-1 0-1 5-0 2-2",
    "6-2 5-4 4-3 1-1 0-2 5-3 4-0",
    "3-3 6-4 5-2 6-0 5-1 4-1 3-0",
)


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_scorer_and_pimc_only_make_legal_moves(variant: str, players: int | None, options: dict[str, object]) -> None:
    scorer, pimc = ScorerBot(), PimcBot(3, seed=2)
    count = 0
    for seed in range(8):
        for i, hand in enumerate(positions(variant, players, options, seed)):
            if hand.end is not None:
                continue
            for seat in range(hand.seats):
                assert_legal(scorer, hand, seat)
            if i % 3 == 0:
                assert_legal(pimc, hand, hand.turn)
            count += 1
    assert count > 100


def test_scorer_takes_the_table_count() -> None:
    """A2: after the 6-6, 6-3 makes 3 + 12 = 15 and 6-5 makes 17 (nothing): the scorer plays 6-3,
    though 6-5 is heavier."""
    hand = play(hand_of(COUNT_DEAL), "0: 6-6")
    action = ScorerBot().act(hand.view(1))
    assert action is not None and str(action.tile) == "6-3" and not action.galo
    probe = hand.copy()
    probe.push(action, 1)
    assert probe.scores[-1].kind == "table" and probe.scores[-1].points == 15


def test_scorer_calls_a_certain_galo() -> None:
    """A5: GALO_MID_DEAL after GALO_MID_PLAY (tests/rules): every 0 left is seat 3's, so after 3-0 S
    (every end 0) nobody else can play and seat 3 still can: 50, worth more than 5-3 S's 5 points."""
    hand = play(hand_of(GALO_MID_DEAL), GALO_MID_PLAY)
    action = ScorerBot().act(hand.view(3))
    assert action is not None and str(action) == "3-0 S galo"
    probe = hand.copy()
    probe.push(action, 3)
    assert probe.galo_is_right(3) or probe.scores[-1].kind == "galo"


def test_scorer_and_pimc_never_call_a_galo_they_cannot_prove_or_weigh_wrongly() -> None:
    """Over whole matches every galo the scorer calls is right (it calls only certain ones)."""
    calls = 0

    def no_bare_galo(seat: int, action: Move) -> None:
        assert action is not GALO

    for seed in range(12):
        match = Match(variants.get("amazonense"), seed=seed)
        calls += play_checking_galos(match, [ScorerBot() for _ in range(4)], no_bare_galo)
    assert calls > 0


def test_pimc_plays_its_n_worlds() -> None:
    match = Match(variants.get("dominousa"), seed=4)
    hand = match.deal()
    for worlds in (1, 7, 24):
        bot = PimcBot(worlds, seed=1)
        assert bot.act(hand.view(hand.turn)) in hand.legal_moves
        assert bot.last is not None and bot.last.worlds == worlds


def test_pimc_and_expert_call_the_certain_galo() -> None:
    hand = play(hand_of(GALO_MID_DEAL), GALO_MID_PLAY)
    assert str(PimcBot(8, seed=1).act(hand.view(3))) == "3-0 S galo"
    assert str(ExpertBot(budget_ms=1000, seed=1, max_worlds=8).act(hand.view(3))) == "3-0 S galo"


def test_inference_prefers_worlds_that_explain_the_plays() -> None:
    """A seat that shed a light tile when it could have shed a heavy one: the worlds in which it held
    the heavy one explain that play worse."""
    match = Match(variants.get("dominousa"), seed=2)
    hand = match.deal()
    while len(hand.history) < 12 and hand.end is None:
        legal = hand.legal_moves
        plays = [m for m in legal if m.is_play]
        move = min(plays, key=lambda m: m.tile.pips if m.tile else 0) if plays else legal[0]
        hand.push(move)
    me = hand.turn
    view = hand.view(me)
    model = PlayModel(view)
    rng = random.Random(3)
    worlds = [w for w in (sample_world(view, rng) for _ in range(200)) if w is not None]
    assert len(worlds) > 100
    real = model.loglik(hand)
    # the real deal (everyone shed its lightest tile) is among the least likely under a heavy-first model
    below = sum(model.loglik(w) < real for w in worlds)
    assert below < len(worlds) // 2
    assert PlayModel(view, strength=0.0).loglik(hand) == 0.0


def _ours(scores: list[Score], team: int) -> int:
    """Points to ``team`` minus the others' (A3's 20 for a lead without a double is the deal's, not the play's)."""
    return sum(s.points if s.to == team else -s.points for s in scores if s.kind != "no-double")


def test_scorer_counts_the_points_the_engine_gives_and_only_certain_ones() -> None:
    """Amazonense, every play of many random positions: what the scorer counts for a play is the table
    count and 4th double the engine scores for it (A2, A6), plus at most a certain extra that the real
    hand confirms: a galo (50, A5) only when it is right, a pass (20, A4) only when the next seat really
    has nothing; a batida (A7) is never overrated, a tranca (A8) not counted. It plays the most points,
    ties to the heaviest tile."""
    extras = Counter[int]()
    ties = 0
    for seed in range(30):
        for hand in positions("amazonense", None, {}, seed):
            legal = [m for m in hand.legal_moves if m.is_play] if hand.end is None else []
            if len(legal) < 2:
                continue
            seat = hand.turn
            view = hand.view(seat)
            k, layout = knowledge(view), layout_of(view)
            points = {}
            for move in legal:
                counted, galo = immediate_points(view, k, layout, move)
                probe = hand.copy()
                probe.push(move, seat)
                new = probe.scores[len(hand.scores) :]
                got = _ours(new, seat & 1)
                made = _ours([sc for sc in new if sc.kind in ("table", "doubles-4")], seat & 1)
                points[move] = counted
                if probe.end == Termination.DOMINO:  # the hand count is certain only when the partner is out
                    assert counted <= got and (counted == got or k.need[(seat + 2) % 4])
                    continue
                if probe.end == Termination.BLOCKED:  # a tranca's sums are not certain: not counted
                    assert counted == made
                    continue
                assert got == made
                extra = counted - made
                extras[int(extra)] += 1
                assert extra in (0, 20, 50) and galo == (extra == 50), (move, counted, got)
                if extra == 50:
                    assert probe.galo_is_right(seat)  # type: ignore[attr-defined]
                if extra == 20:
                    assert not probe.hands[(seat + 1) % 4] & probe.layout.fit_mask
            bot = ScorerBot()
            action = bot.choose(view, bot.required(view))  # (an announcement of A6 comes first: not here)
            assert action.tile is not None
            top = max(points.values())
            best = [m for m in legal if points[m] == top]
            assert points[action.without_galo()] == top
            heaviest = max((m.tile.pips, m.tile.is_double) for m in best if m.tile is not None)
            assert (action.tile.pips, action.tile.is_double) == heaviest
            ties += len({m.tile for m in best}) > 1
    assert extras[0] > 500 and extras[20] > 10 and extras[50] > 0 and ties > 50, (extras, ties)


@pytest.mark.parametrize(("variant", "players"), [("dominousa", None), ("individual", 2), ("individual", 3)])
def test_scorer_goes_out_else_sheds_its_heaviest_tile(variant: str, players: int | None) -> None:
    """Line games: with no points in sight the scorer plays its heaviest tile (equal pips: the double);
    else the play with the most points it sees (going out, C3/B5; a tranque, C4/B4)."""
    heavy = out = 0
    for seed in range(25):
        for hand in positions(variant, players, {}, seed):
            legal = [m for m in hand.legal_moves if m.is_play] if hand.end is None else []
            if len(legal) < 2:
                continue
            view = hand.view(hand.turn)
            k, layout = knowledge(view), layout_of(view)
            points = [immediate_points(view, k, layout, m)[0] for m in legal]
            action = ScorerBot().act(view)
            assert action is not None and action.tile is not None
            if not any(points):
                assert (action.tile.pips, action.tile.is_double) == max(
                    (m.tile.pips, m.tile.is_double) for m in legal if m.tile is not None
                )
                heavy += 1
            else:  # a play that goes out, or a tranque it sees the play make: the most points
                assert immediate_points(view, k, layout, action)[0] == max(points)
                out += 1
    assert heavy > 200, heavy


@pytest.mark.parametrize("variant", ["amazonense", "dominousa"])
def test_search_is_exact_in_every_world_near_the_hand_s_end(variant: str) -> None:
    """Once few tiles are left, every world of the evaluation is searched exactly (the sim's alpha-beta,
    itself checked against brute force in tests/bots/test_sim.py), and pimc with a seed is deterministic."""
    checked = 0
    for seed in range(20):
        for hand in positions(variant, None, {}, seed):
            if hand.end is not None or len([m for m in hand.legal_moves if m.is_play]) < 2:
                continue
            if sum(h.bit_count() for h in hand.hands) + len(hand.boneyard_order) - getattr(hand, "drawn", 0) > 9:
                continue
            view = hand.view(hand.turn)
            k = knowledge(view)
            moves = candidates(view, [m for m in hand.legal_moves if m.is_play], k)
            ev = evaluate(view, moves, random.Random(seed), Settings(exact_tiles=10), lambda e: e.worlds < 4, k)
            assert ev.worlds == 4 and ev.exact == 4
            assert len(ev.means()) == len(moves) and 0 <= ev.best() < len(moves)
            assert PimcBot(5, seed=seed).act(view) == PimcBot(5, seed=seed).act(view)
            checked += 1
            break
    assert checked >= 5
