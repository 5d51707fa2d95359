"""The bots' registry and the one loop that asks the seats."""

from __future__ import annotations

import pytest

from capicua.bots.driver import ask_order, candidates, next_action, play_match
from capicua.bots.expert import ExpertBot
from capicua.bots.heuristic import HeuristicBot
from capicua.bots.pimc import PimcBot
from capicua.bots.registry import LEVELS, check_spec, level_names, make_bot
from capicua.bots.scorer import ScorerBot
from capicua.bots.simple import GreedyBot, RandomBot
from capicua.rules import GALO, Match, variants
from capicua.rules.hand import Hand, SeatView
from capicua.rules.moves import Move


def test_levels_and_specs() -> None:
    assert level_names() == ("random", "greedy", "heuristic", "pimc", "expert") and len(LEVELS) == 5
    assert isinstance(make_bot("random", 1), RandomBot) and isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert isinstance(make_bot("scorer"), ScorerBot) and "scorer" not in level_names()  # the bench's, not a level
    assert isinstance(make_bot("pimc:24"), PimcBot) and make_bot("pimc:24").worlds == 24  # type: ignore[attr-defined]
    pimc = make_bot("pimc:48", 3)
    assert isinstance(pimc, PimcBot) and pimc.worlds == 48
    level = make_bot("pimc")
    assert isinstance(level, PimcBot) and level.worlds is None  # the Difícil level: as many as the game asks
    assert [level.worlds_for(game) for game in ("dominousa", "amazonense", "individual")] == [48, 24, 24]
    expert = make_bot("expert:75")
    assert isinstance(expert, ExpertBot) and expert.budget == 0.075
    assert make_bot("expert").budget == 0.2
    bad_specs = (
        "wizard",
        "greedy:3",
        "random:x",
        "scorer:2",
        "heuristic:1",
        "pimc:0",
        "pimc:2000",
        "pimc:many",
        "pimc:2.5",
    )
    for bad in (*bad_specs, "expert:0", "expert:2000", "expert:fast", ""):
        with pytest.raises(ValueError):
            check_spec(bad)


def test_a_bot_says_whether_it_searches() -> None:
    assert [make_bot(level.name).searches for level in LEVELS] == [False, False, False, True, True]


def test_others_are_asked_first_then_the_seat_to_act() -> None:
    assert list(ask_order(1, 4)) == [2, 3, 0, 1]
    assert list(ask_order(0, 2)) == [1, 0]


def test_candidates_are_the_seats_with_something_to_do() -> None:
    m = Match(variants.get("amazonense"), seed=3)
    hand = m.deal()
    m.push(hand.legal_moves[0])  # the 6-6: its player may call galo (A5) before the next one acts
    leader = hand.history[0][0]
    assert leader is not None
    got = list(candidates(hand, range(4)))
    assert got[-1] == hand.turn and leader in got and set(got) == {hand.turn, leader}
    assert list(candidates(hand, [leader])) == [leader]
    assert list(candidates(hand, [])) == []


class Recorder:
    """A player that declines what is optional and otherwise plays the first legal move; it notes who asked."""

    def __init__(self, log: list[int]) -> None:
        self.log = log

    def act(self, view: SeatView) -> Move | None:
        assert view.seat is not None
        self.log.append(view.seat)
        if view.turn != view.seat:
            return None
        return view.legal_moves[0]


def test_next_action_asks_in_order_until_one_acts() -> None:
    m = Match(variants.get("amazonense"), seed=3)
    hand = m.deal()
    m.push(hand.legal_moves[0])
    asked: list[int] = []
    players = [Recorder(asked) for _ in range(4)]
    chosen = next_action(hand, players)
    assert chosen is not None and chosen[0] == hand.turn and asked[-1] == hand.turn
    assert GALO in hand.legal_moves_for(asked[0])  # the one who just played was asked first
    assert next_action(hand, [None, None, None, None]) is None


@pytest.mark.parametrize(("variant", "players"), [("amazonense", None), ("individual", 3), ("dominousa", None)])
def test_play_match_drives_a_whole_match_and_reports_each_step(variant: str, players: int | None) -> None:
    m = Match(variants.get(variant), players=players, seed=9, options={"target": 60})
    deals: list[Hand] = []
    actions: list[tuple[int, Move]] = []
    times: list[bool] = []
    bots = [make_bot("greedy") for _ in range(m.players)]
    play_match(
        m,
        bots,
        on_deal=deals.append,
        on_action=lambda seat, move, hand: actions.append((seat, move)),
        timer=lambda seat, seconds, own: times.append(own),
        clock=lambda: 0.0,
    )
    assert m.is_over() and len(deals) == len(m.hands)
    assert actions == [a for h in m.hands for a in h.history]
    assert times and any(times)


def test_play_match_fails_loudly_when_nobody_acts() -> None:
    class Silent:
        def act(self, view: SeatView) -> Move | None:
            return None

    with pytest.raises(RuntimeError, match="nobody acted"):
        play_match(Match(variants.get("dominousa"), seed=1), [Silent()] * 4)
