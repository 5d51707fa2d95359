"""B7, B8, D5: ranking points of individual matches."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from capicua.service.ratings.points import STAKE, ranking_flows

ratings = st.floats(min_value=600, max_value=2800, allow_nan=False)


def test_B7_points_flow_from_each_loser_to_the_single_winner() -> None:
    """B7: 3 players at 1500: each loser pays 32 × (1 − 0.5) = 16; the winner gets 32."""
    assert ranking_flows({"ana": 1500, "bia": 1500, "caio": 1500}, winner="caio") == {
        "ana": -16,
        "bia": -16,
        "caio": 32,
    }


def test_B7_stronger_opponents_pay_more() -> None:
    """D2: beating a 1700 player (E = 0.24) pays 32 × 0.76 = 24; beating a 1300 player (E = 0.76) pays 8."""
    flows = ranking_flows({"ana": 1500, "forte": 1700, "fraco": 1300}, winner="ana")
    assert flows == {"forte": -24, "fraco": -8, "ana": 32}


@given(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), ratings, min_size=2, max_size=4), st.data())
def test_B7_zero_sum_and_only_the_winner_gains(table: dict[str, float], data: st.DataObject) -> None:
    winner = data.draw(st.sampled_from(sorted(table)))
    flows = ranking_flows(table, winner)
    assert sum(flows.values()) == 0
    assert all(v <= 0 for p, v in flows.items() if p != winner)
    assert 0 <= flows[winner] <= STAKE * (len(table) - 1)


def test_B8_repeated_two_player_matches_decay_to_zero() -> None:
    """B8/D5: the same two players at 1500: 16, then 12, 8, 4, and 0 from the 5th match in 24 hours."""
    paid = [ranking_flows({"ana": 1500, "bia": 1500}, "ana", {"bia": n})["ana"] for n in range(6)]
    assert paid == [16, 12, 8, 4, 0, 0]


def test_B8_limit_is_for_two_player_matches_only() -> None:
    with pytest.raises(ValueError, match="2-player"):
        ranking_flows({"a": 1500, "b": 1500, "c": 1500}, "a", {"b": 3})


def test_winner_must_have_played() -> None:
    with pytest.raises(ValueError, match="did not play"):
        ranking_flows({"a": 1500, "b": 1500}, "z")
