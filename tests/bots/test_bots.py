"""Bots: only legal actions, only from what their seat may see, and every decision exercised."""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Iterator

import pytest

from capicua.bots.base import Bot
from capicua.bots.driver import next_action
from capicua.bots.expert import SHORTLIST, ExpertBot
from capicua.bots.heuristic import HeuristicBot
from capicua.bots.pimc import PimcBot
from capicua.bots.scorer import ScorerBot
from capicua.bots.simple import GreedyBot, RandomBot
from capicua.bots.worlds import knowledge, sample_world
from capicua.rules import variants
from capicua.rules.hand import Hand
from capicua.rules.match import Match
from capicua.rules.moves import ANNOUNCE, CLAIM, GALO, KEEP, REDEAL, Move
from capicua.rules.randomgame import random_action

GAMES = [
    ("amazonense", None, {}),
    ("individual", 2, {}),
    ("individual", 3, {}),
    ("individual", 4, {}),
    ("dominousa", None, {}),
    ("dominousa", None, {"strict": True}),
]


def positions(variant: str, players: int | None, options: dict[str, object], seed: int) -> Iterator[Hand]:
    """Every position of a random match (random actions of every kind, referee ones included)."""
    rng = random.Random(seed)
    match = Match(variants.get(variant), players=players, options=options, seed=seed)
    while not match.is_over() and len(match.hands) < 6:
        if match.needs_deal():
            match.deal()
        yield match.hand
        seat, move = random_action(match.hand, rng)
        match.push(move, seat)


def assert_legal(bot: Bot, hand: Hand, seat: int) -> None:
    action = bot.act(hand.view(seat))
    if action is None:
        return
    legal = hand.legal_moves_for(seat)
    assert action in legal or (action.galo and action.without_galo() in legal), (bot, seat, action, hand)
    probe = hand.copy()
    probe.push(action, seat)  # accepted by the engine, and never fined: bots keep the rules
    assert [s.kind for s in probe.scores[len(hand.scores) :]].count("fine") == 0


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_random_and_greedy_only_make_legal_moves(variant: str, players: int | None, options: dict[str, object]) -> None:
    bots: list[Bot] = [RandomBot(1), GreedyBot()]
    count = 0
    for seed in range(25):
        for hand in positions(variant, players, options, seed):
            if hand.end is not None:
                continue
            for seat in range(hand.seats):
                for bot in bots:
                    assert_legal(bot, hand, seat)
                    count += 1
    assert count > 2000


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_expert_only_makes_legal_moves(variant: str, players: int | None, options: dict[str, object]) -> None:
    bot = ExpertBot(budget_ms=1000, seed=3, max_worlds=3)
    count = 0
    for seed in range(3):
        for hand in positions(variant, players, options, seed):
            if hand.end is None:
                assert_legal(bot, hand, hand.turn)
                count += 1
    assert count > 50


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_bots_cannot_tell_worlds_that_look_the_same(
    variant: str, players: int | None, options: dict[str, object]
) -> None:
    """Views built from different hidden deals that look the same from the seat are equal,
    and the deterministic bots (greedy, the scorer, the heuristic; pimc and the expert with a fixed number of worlds
    and seed) choose the same action in both."""
    rng = random.Random(7)
    checked = missed = 0
    for seed in range(6):
        for hand in positions(variant, players, options, seed):
            if hand.end is not None or rng.random() > 0.3:
                continue
            seat = hand.turn
            view = hand.view(seat)
            other = sample_world(view, rng)
            if other is None:  # the sampler gives up after its tries; rare (see the next test)
                missed += 1
                continue
            twin = other.view(seat)
            assert twin == view
            if other.hands == hand.hands:
                continue  # the same world: nothing to learn
            assert GreedyBot().act(view) == GreedyBot().act(twin)
            assert ScorerBot().act(view) == ScorerBot().act(twin)
            assert HeuristicBot().act(view) == HeuristicBot().act(twin)
            assert PimcBot(4, seed=9).act(view) == PimcBot(4, seed=9).act(twin)
            if checked < 8:
                expert = ExpertBot(budget_ms=1000, seed=5, max_worlds=4)
                again = ExpertBot(budget_ms=1000, seed=5, max_worlds=4)
                assert expert.act(view) == again.act(twin)
            checked += 1
    assert checked >= 5 and missed <= checked // 20


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_worlds_respect_what_the_seat_knows(variant: str, players: int | None, options: dict[str, object]) -> None:
    """Sampled worlds keep the seat's tiles and the voids it has seen; the real hands obey the
    inferred voids; and a world is found (almost) every time."""
    rng = random.Random(1)
    seen_void = False
    found = missed = 0
    for seed in range(10):
        for hand in positions(variant, players, options, seed):
            if hand.end is not None:
                continue
            me = hand.turn
            view = hand.view(me)
            k = knowledge(view)
            for s in range(hand.seats):
                if s != me:
                    assert not hand.hands[s] & k.voids[s] & ~k.held[s], (s, view.history)
                    seen_void = seen_void or bool(k.voids[s])
            world = sample_world(view, rng, k)
            if world is None:
                missed += 1
                continue
            found += 1
            assert world.hands[me] == hand.hands[me]
            for s in range(hand.seats):
                if s != me:
                    assert not world.hands[s] & k.voids[s] & ~k.held[s]
    assert seen_void and missed <= found // 100


def test_greedy_announces_keeps_and_calls_galo_only_when_certain() -> None:
    """A5/A6: over many Amazonense matches greedy announces 4 doubles, keeps 5+, and every galo it
    calls is right."""
    announced = kept = galos = 0
    greedy = (0, 2)  # the seats greedy plays; random plays the others

    def greedy_only(seat: int, action: Move) -> None:
        nonlocal announced, kept
        if seat in greedy:
            announced += action is ANNOUNCE
            kept += action is KEEP
            assert action is not REDEAL and action is not GALO

    for seed in range(60):
        match = Match(variants.get("amazonense"), seed=seed)
        bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot(), RandomBot(seed + 1)]
        galos += play_checking_galos(match, bots, greedy_only, checked=greedy)
    assert announced and galos


def play_checking_galos(
    match: Match,
    bots: list[Bot],
    seen: Callable[[int, Move], None] | None = None,
    checked: Container[int] = range(4),
) -> int:
    """Play ``match`` out as the driver asks the seats (``next_action``); every galo a seat of ``checked``
    calls is proved right on a copy of the hand before it is pushed. ``seen`` sees each action first. The
    galos checked."""
    galos = 0
    while not match.is_over():
        if match.needs_deal():
            match.deal()
        hand = match.hand
        found = next_action(hand, bots)
        assert found is not None, "nobody acted"
        seat, action = found
        if seen is not None:
            seen(seat, action)
        if seat in checked and action.galo:
            galos += 1
            probe = hand.copy()
            probe.push(action.without_galo(), seat)
            assert probe.galo_is_right(seat)  # type: ignore[attr-defined]
        match.push(action, seat)
    return galos


def test_expert_calls_a_certain_galo() -> None:
    """A5: GALO_MID_DEAL (tests/rules): every 0 left is seat 3's, so 3-0 S leaves nobody else a play
    and seat 3 still has one: the expert finds that play and calls galo with it."""
    from tests.rules.test_amazonense_rules import GALO_MID_DEAL, GALO_MID_PLAY, hand_of, play

    hand = play(hand_of(GALO_MID_DEAL), GALO_MID_PLAY)
    action = ExpertBot(budget_ms=1000, seed=1, max_worlds=20).act(hand.view(3))
    assert action is not None and str(action) == "3-0 S galo"


def test_expert_does_not_call_galo_on_a_lead() -> None:
    """A5: after the 6-6 lead the other seats almost surely hold a 6: no galo (it would give 50 away)."""
    for seed in range(8):
        match = Match(variants.get("amazonense"), seed=seed)
        hand = match.deal()
        bot = ExpertBot(budget_ms=1000, seed=seed, max_worlds=10)
        action = bot.act(hand.view(hand.turn))
        while action is ANNOUNCE or action is KEEP:  # A6 decisions come before the lead
            hand.push(action, hand.turn)
            action = bot.act(hand.view(hand.turn))
        assert action is not None and action.tile is not None and not action.galo


def test_claim_only_when_certain() -> None:
    """C6: greedy and expert claim only when nobody else can hold a fitting tile; the claim is right."""
    claims = 0
    for seed in range(40):
        for hand in positions("dominousa", None, {"strict": True}, seed):
            if hand.end is not None:
                continue
            for seat in range(4):
                if CLAIM not in hand.view(seat).legal_moves:
                    continue
                if GreedyBot().act(hand.view(seat)) is CLAIM:
                    claims += 1
                    assert hand.claim_is_right(seat)  # type: ignore[attr-defined]
    assert claims > 0


@pytest.mark.parametrize(("variant", "players", "options"), [GAMES[0], GAMES[4]])
def test_the_expert_weighs_the_heuristics_shortlist_in_amazonense_and_every_play_on_a_line(
    variant: str, players: int | None, options: dict[str, object]
) -> None:
    """Issue 23: in Amazonense the expert's worlds weigh the heuristic's three best plays (and their galo twins),
    and it plays one of them; on a line (``SHORTLIST`` 0) every legal play is weighed."""
    keep = SHORTLIST[variants.get(variant).layout]
    seen = 0
    for seed in range(8):
        for hand in positions(variant, players, options, seed):
            if hand.end is not None or seen >= 6:
                continue
            seat = hand.turn
            plays = [m for m in hand.legal_moves_for(seat) if m.is_play]
            if len(plays) <= 3 or len(plays) != len(hand.legal_moves_for(seat)):
                continue
            view = hand.view(seat)
            expert = ExpertBot(budget_ms=100, seed=5, max_worlds=2)
            action = expert.act(view)
            assert expert.last is not None and action is not None
            weighed = {m.without_galo() for m in expert.last.moves}
            if keep:
                best = HeuristicBot().ranked(view, plays)[:keep]
                assert weighed == set(best), (weighed, best)
                assert action.without_galo() in best
            else:
                assert weighed == set(plays)
            seen += 1
    assert seen == 6
