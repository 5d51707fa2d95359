"""Ranking points of individual play (B7, B8, D5): zero-sum, from each loser to the winner.

Pure functions; the service stores ratings and match history and calls these
when a rated individual match ends. The numbers are published on the rules page
(``docs/rules/individual.md``, "Ranking points"):

- Each loser pays the winner ``STAKE × (1 − E)``, rounded to a whole point, where
  ``E = 1 / (1 + 10 ** ((loser − winner) / 400))`` is the winner's expected score
  against that loser. A stronger loser pays more (D2).
- 2 players only (B8): the ``n``-th rated match between the same two players
  within ``WINDOW`` (the earlier ones counted, this one not) pays
  ``max(0, 1 − n / FARM_LIMIT)`` of that: 100 %, 75 %, 50 %, 25 %, then nothing.
- What the winner gains is exactly what the losers lose (zero-sum per match).

>>> flows = ranking_flows({"ana": 1500, "bia": 1500}, winner="ana")
>>> flows
{'bia': -16, 'ana': 16}
>>> ranking_flows({"ana": 1500, "bia": 1500}, winner="ana", repeats={"bia": 2})
{'bia': -8, 'ana': 8}
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

__all__ = ["FARM_LIMIT", "STAKE", "WINDOW", "expected", "farming_factor", "ranking_flows"]

#: Points at stake between the winner and each loser (an even match pays half of it).
STAKE = 32
#: B8: repeated 2-player matches within this window pay less and less...
WINDOW = timedelta(hours=24)
#: ...and nothing from the FARM_LIMIT-th repeat on.
FARM_LIMIT = 4


def expected(rating: float, opponent: float) -> float:
    """Expected score of ``rating`` against ``opponent`` (logistic, 400-point scale).

    >>> round(expected(1700, 1500), 3)
    0.76
    """
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / 400.0)))


def farming_factor(repeats: int) -> float:
    """B8: share paid for a 2-player match with ``repeats`` earlier rated matches in the window.

    >>> [farming_factor(n) for n in range(6)]
    [1.0, 0.75, 0.5, 0.25, 0.0, 0.0]
    """
    if repeats < 0:
        raise ValueError("repeats counts earlier matches: it cannot be negative")
    return max(0.0, 1.0 - repeats / FARM_LIMIT)


def ranking_flows(
    ratings: Mapping[str, float],
    winner: str,
    repeats: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Ranking points each player gains (winner) or loses (losers) in a rated individual match.

    ``ratings``: every player's rating before the match; ``repeats`` (2-player matches
    only): for the loser, how many rated matches he already played against the winner
    within :data:`WINDOW`. The result sums to zero.
    """
    if winner not in ratings:
        raise ValueError(f"the winner {winner!r} did not play")
    if not 2 <= len(ratings) <= 4:
        raise ValueError("individual matches have 2, 3 or 4 players")
    repeats = repeats or {}
    if repeats and len(ratings) != 2:
        raise ValueError("the repeated-match limit applies to 2-player matches only (B8)")
    flows: dict[str, int] = {}
    for player, rating in ratings.items():
        if player == winner:
            continue
        share = farming_factor(repeats.get(player, 0))
        flows[player] = -round(STAKE * (1.0 - expected(ratings[winner], rating)) * share)
    flows[winner] = -sum(flows.values())
    return flows
