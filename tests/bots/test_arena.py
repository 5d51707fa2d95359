"""The arena's duplicate matches: what a result says of where a configuration won (``MatchResult.by_kind``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from capicua.bots.arena import duplicate_match
from capicua.rules.match import Match

GAMES = [("amazonense", None), ("dominousa", None), ("individual", 2), ("individual", 3), ("individual", 4)]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10**6), st.booleans())
def test_the_points_by_kind_add_up_to_the_match_score_of_each_side(
    game: tuple[str, int | None], seed: int, a_even: bool
) -> None:
    """Each kind of score goes to the side that scored it, and together they make A's total less B's."""
    variant, players = game
    kept: list[Match] = []
    r = duplicate_match("greedy", "random", variant, players, {}, seed, a_even, prepare=lambda m, _: kept.append(m))
    assert sum(r.by_kind.values()) == r.points[0] - r.points[1]
    kinds = {score.kind for hand in kept[0].hands for score in hand.scores}
    assert set(r.by_kind) == kinds


def test_the_same_deals_with_the_seats_swapped_give_each_kind_to_the_other_side() -> None:
    """Two random players on the same deals: swapping the seats swaps every kind's sign, since each seat plays
    as its seed says whichever configuration it has (both are ``random``)."""
    even = duplicate_match("random", "random", "amazonense", None, {}, 7, True)
    odd = duplicate_match("random", "random", "amazonense", None, {}, 7, False)
    assert even.by_kind and {k: -v for k, v in even.by_kind.items()} == odd.by_kind
