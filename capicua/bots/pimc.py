"""The ``pimc`` bot: plain perfect-information Monte Carlo, a fixed number of worlds a move.

For each decision it deals ``worlds`` possible worlds from its seat's view (at random among the deals
that agree with what the seat has seen, all alike: :func:`capicua.bots.worlds.sample_world`), plays every legal
move in every world and finishes the hand there with greedy play-outs (every seat sheds its heaviest
tile, in Amazonense after the most table points, and calls galo when it is right), or, once 10 tiles
or fewer are left, by exact search of the world (:meth:`capicua.bots.sim.LineWorld.exact`). It plays
the move with the best mean (ties: the heaviest tile). In Amazonense a play and the same play with
galo are two moves (A5). No time budget: ``pimc:N`` always plays N worlds, so with a seed it is
deterministic. ``pimc``, the level people pick as Difícil, plays as many as its game asks (``WORLDS``: 48 in
Dominousa, where 24 did not clear the level below, 24 elsewhere).

It is the baseline a serious bot author tests against; ``expert`` must beat it.
"""

from __future__ import annotations

from collections.abc import Callable

from capicua.bots.search import Evaluation, SearchingBot, Settings
from capicua.bots.sim import GREEDY
from capicua.rules.hand import SeatView

__all__ = ["PimcBot"]

EXACT_TILES = 10
DEFAULT_WORLDS = 24
#: The ``pimc`` level's worlds a move, by game (``DEFAULT_WORLDS`` where absent): the Difícil level must beat
#: Médio (``heuristic``). In Dominousa 24 worlds won 57-58 % of the matches against it, 48 won 65 %; in
#: Amazonense not even 96 clear it (docs/benchmarks.md, "Could Difícil be calibrated instead?").
WORLDS: dict[str, int] = {"dominousa": 48}


class PimcBot(SearchingBot):
    """Plain PIMC over ``worlds`` sampled worlds (None: the game's ``WORLDS``), greedy play-outs, exact near the
    hand's end.

    >>> PimcBot(8).worlds_for("dominousa"), PimcBot().worlds_for("dominousa"), PimcBot().worlds_for("amazonense")
    (8, 48, 24)
    """

    name = "pimc"

    def __init__(self, worlds: int | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.settings = Settings(policy=GREEDY, eps=0.0, playouts=1, exact_tiles=EXACT_TILES)

    def worlds_for(self, variant: str) -> int:
        """The worlds a move in ``variant``: the count the bot was given, else the level's for the game."""
        return self.worlds if self.worlds is not None else WORLDS.get(variant, DEFAULT_WORLDS)

    def plan(self, view: SeatView) -> tuple[Settings, Callable[[Evaluation], bool]]:
        worlds = self.worlds_for(view.variant)
        return self.settings, lambda e: e.worlds < worlds
