"""The rating models (D1–D3), as pure functions of numbers: no storage, no I/O.

Partnership games (Amazonense, Dominousa) rate every player with openskill's Plackett-Luce model over two
teams of two: a skill ``mu`` and its uncertainty ``sigma`` per player, updated from the match's result. Why
this model and not Elo: a partnership result says something about two players at once, and a team's
strength is the sum of its partners'; Plackett-Luce handles teams directly, and its ``sigma`` lets a new
player move fast and a known one move little (docs/ratings.md compares it, on the same matches, with
plain Elo and Glicko-2: bench/ratings.py).

A player sees ``rating = 1500 + (mu − 25) × 30``: 1500 for a new player, on a scale like the chess
sites'; once ratings are settled, a team whose two players average 100 points more wins about three
matches in four (:func:`win_probability`). He is provisional ("?") while his ``sigma`` is above
:data:`PROVISIONAL_SIGMA` (about his first 20 rated matches).

D3, in Amazonense only: each galo, batida and table score of the player's own adds a small bonus to his
rating change (:func:`amazonense_bonus`), capped per match; it is its own line of the change.

>>> teams = [[Skill(), Skill()], [Skill(), Skill()]]
>>> after = rate_teams(teams, winner=0)
>>> [round(display(s.mu) - display(25)) for s in after[0]], [round(display(s.mu) - display(25)) for s in after[1]]
([59, 59], [-59, -59])
>>> settled = [[Skill(25 + 100 / SCALE, 4.0)] * 2, [Skill(25.0, 4.0)] * 2]
>>> round(win_probability(settled), 2)
0.75
>>> amazonense_bonus(galos=1, batidas=1, table_points=60)
6.0
>>> amazonense_bonus(galos=3, batidas=2, table_points=200)
8.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "BASE",
    "BONUS_CAP",
    "MU",
    "PROVISIONAL_SIGMA",
    "SCALE",
    "SIGMA",
    "Skill",
    "amazonense_bonus",
    "display",
    "provisional",
    "rate_teams",
    "win_probability",
]

#: The model, with openskill's defaults: mu 25, sigma 25/3, beta 25/6.
MODEL = PlackettLuce()
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma
#: A new player's rating, and display points per unit of mu.
BASE = 1500.0
SCALE = 30.0
#: Provisional ("?") while sigma is above this (it starts at 8.33 and falls with every match).
PROVISIONAL_SIGMA = 6.0

#: D3 (Amazonense): rating points a player's own right galo (A5) and own batida (A7) add to his change…
GALO_BONUS = 2.0
BATIDA_BONUS = 2.0
#: …one point for every this many table points (A2) he scored himself…
TABLE_POINTS_PER_BONUS = 25
#: …and never more than this in one match.
BONUS_CAP = 8.0


@dataclass(frozen=True)
class Skill:
    """What the model knows of a player in one game: his skill and its uncertainty."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def rating(self) -> float:
        return display(self.mu)

    @property
    def provisional(self) -> bool:
        return provisional(self.sigma)


def display(mu: float) -> float:
    """The rating a player sees for a skill ``mu``.

    >>> display(25.0), display(26.0)
    (1500.0, 1530.0)
    """
    return BASE + (mu - MU) * SCALE


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rate_teams(teams: Sequence[Sequence[Skill]], winner: int) -> list[list[Skill]]:
    """Every player's skill after a match between two teams that ``winner`` (0 or 1) won (D2: beating a
    stronger team moves more)."""
    if len(teams) != 2 or winner not in (0, 1):
        raise ValueError("a partnership match is two teams, and one of them won")
    model_teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    rated = MODEL.rate(model_teams, ranks=ranks)
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


def win_probability(teams: Sequence[Sequence[Skill]]) -> float:
    """The model's chance that the first team wins."""
    model_teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    return float(MODEL.predict_win(model_teams)[0])


def amazonense_bonus(galos: int, batidas: int, table_points: int) -> float:
    """D3: the bonus of a player's own galos, batidas and table points in one match, capped."""
    bonus = GALO_BONUS * galos + BATIDA_BONUS * batidas + float(table_points // TABLE_POINTS_PER_BONUS)
    return min(BONUS_CAP, bonus)
