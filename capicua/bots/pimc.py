"""The ``pimc`` bot: plain perfect-information Monte Carlo, a fixed number of worlds a move.

For each decision it deals ``worlds`` possible worlds from its seat's view (at random among the deals
that agree with what the seat has seen, all alike: :func:`capicua.bots.worlds.sample_world`), plays every legal
move in every world and finishes the hand there with greedy play-outs (every seat sheds its heaviest
tile, in Amazonense after the most table points, and calls galo when it is right), or, once 10 tiles
or fewer are left, by exact search of the world (:meth:`capicua.bots.sim.LineWorld.exact`). It plays
the move with the best mean (ties: the heaviest tile). In Amazonense a play and the same play with
galo are two moves (A5). No time budget: ``pimc:N`` always plays N worlds (``pimc`` is ``pimc:24``),
so with a seed it is deterministic.

It is the baseline a serious bot author tests against; ``expert`` must beat it.
"""

from __future__ import annotations

from collections.abc import Callable

from capicua.bots.search import Evaluation, SearchingBot, Settings
from capicua.bots.sim import GREEDY
from capicua.rules.hand import SeatView

__all__ = ["PimcBot"]

EXACT_TILES = 10


class PimcBot(SearchingBot):
    """Plain PIMC over ``worlds`` sampled worlds, greedy play-outs, exact near the hand's end."""

    name = "pimc"

    def __init__(self, worlds: int = 24, seed: int | None = None) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.settings = Settings(policy=GREEDY, eps=0.0, playouts=1, exact_tiles=EXACT_TILES)

    def plan(self, view: SeatView) -> tuple[Settings, Callable[[Evaluation], bool]]:
        return self.settings, lambda e: e.worlds < self.worlds
