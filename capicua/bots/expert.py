"""The ``expert`` bot: determinized search (PIMC) with inference, exact endgames and a CPU-time budget.

For each decision it samples possible worlds consistent with everything its seat has seen
(:func:`capicua.bots.worlds.sample_world`: unseen tiles dealt under the voids revealed by passes, draws,
right galos and claims, and the world replayed to match the view exactly) and plays every candidate
move in every world (:mod:`capicua.bots.search`, :mod:`capicua.bots.sim`). What it adds to plain PIMC
(the ``pimc`` bot):

- **inference**: each world counts by how well it explains the other seats' plays
  (:class:`capicua.bots.inference.PlayModel`: players shed heavy tiles and take table points), not
  uniformly among the deals consistent with the hard facts;
- **exact search** of each world once few tiles are left (16 on a line, 11 in Amazonense's cross, within
  a node budget), and before that several play-outs a candidate, most choices greedy (in Amazonense the
  ``scorer``'s: table points, the pass 20 and the galo 50 a play makes; on a line a double first, then the
  heaviest tile: against ``pimc:24`` in Dominousa 82.8 % of 400 matches where heaviest-first play-outs won
  76.2 %), some at random;
- **galo** (A5) as a candidate of its own: a play with the call is worth +30 in the worlds where it is
  right, -50 in the others, so it is called when the (weighted) worlds make it pay;
- **a shortlist** (Amazonense): the worlds weigh only the ``heuristic`` bot's three best plays (``SHORTLIST``,
  by layout), so the few worlds a move affords separate the plays that matter instead of eight at once;
- **time where decisions are close**: the budget is the bot's own CPU time (``time.thread_time``: a
  busy machine makes it slower, not weaker), it stops early once one move is clearly best, and thinks
  up to twice its budget while the best two are within the noise. A wall-clock cap (4 × the budget,
  at least 0.25 s) bounds a move on a machine that is very busy.

The budget is 200 ms by default (``expert:MS`` sets it; never more than 1 s). With ``max_worlds`` it
stops at that many worlds, which makes it deterministic for a seed when the budget is generous (the
tests rely on it).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from capicua.bots.heuristic import HeuristicBot
from capicua.bots.inference import PlayModel
from capicua.bots.search import Evaluation, SearchingBot, Settings
from capicua.bots.sim import DOUBLES_FIRST, SCORER
from capicua.rules import variants
from capicua.rules.hand import SeatView
from capicua.rules.moves import Move

__all__ = ["ExpertBot"]

HARD_CAP = 1.0  # seconds a move, whatever the budget says
EXACT_LINE = 16  # tiles left (hands and boneyard) from which a line world is searched exactly
EXACT_SPINNER = 11  # the same for Amazonense's cross (more ends: a bigger tree)
NODES_PER_SECOND = 60000  # an exact search's node budget, for each second of the move's budget
MIN_WORLDS = 12  # worlds before it may stop early
CLEAR = 3.0  # the best leads the second by this many standard errors: stop early
CLOSE = 1.0  # within this many: think on past the budget (up to EXTEND times it)
EXTEND = 2.0
#: How many of the heuristic's best plays the search weighs, by the layout a game declares (0: every play).
#: In Amazonense a handful of worlds a move cannot tell eight plays apart; the heuristic's top three hold the
#: best play nearly always, and the worlds then separate those (docs/benchmarks.md, issue 23).
SHORTLIST: dict[str, int] = {"spinner": 3, "line": 0}


class ExpertBot(SearchingBot):
    """PIMC with inference and exact endgames under a CPU-time budget per move."""

    name = "expert"

    def __init__(
        self,
        budget_ms: float = 200,
        seed: int | None = None,
        playouts: int = 2,
        max_worlds: int = 4000,
        eps: float = 0.15,
        inference: float = 1.0,
        exact_line: int = EXACT_LINE,
        exact_spinner: int = EXACT_SPINNER,
        adaptive: bool = True,
        shortlist: dict[str, int] | None = None,
    ) -> None:
        super().__init__(seed)
        self.budget = min(budget_ms / 1000.0, HARD_CAP)
        self.playouts = playouts
        self.max_worlds = max_worlds  # with a generous budget, a fixed count makes the bot deterministic
        self.eps = eps
        self.inference = inference
        self.exact_line = exact_line
        self.exact_spinner = exact_spinner
        self.adaptive = adaptive
        self.keep = SHORTLIST if shortlist is None else {**SHORTLIST, **shortlist}
        self.judge = HeuristicBot()

    def shortlist(self, view: SeatView, required: list[Move]) -> list[Move]:
        """The plays the ``heuristic`` bot ranks highest, as many as ``SHORTLIST`` keeps for the game's layout
        (0: all of them). The worlds' budget then goes to the moves worth weighing."""
        keep = self.keep.get(variants.get(view.variant).layout, 0)
        if not keep or len(required) <= keep or not all(m.is_play for m in required):
            return required
        return self.judge.ranked(view, required)[:keep]

    def plan(self, view: SeatView) -> tuple[Settings, Callable[[Evaluation], bool]]:
        """Weighed worlds under the CPU-time budget, counted from now: stop early when one move is clearly
        best, think on (up to ``EXTEND`` times the budget) while the best two are close."""
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        budget = self.budget
        wall_cap = max(4 * budget, 0.25)
        spinner = view.layout.get("shape") == "spinner"
        model = PlayModel(view, strength=self.inference) if self.inference > 0 else None
        settings = Settings(
            policy=SCORER if spinner else DOUBLES_FIRST,
            eps=self.eps,
            playouts=self.playouts,
            exact_tiles=self.exact_spinner if spinner else self.exact_line,
            nodes=max(2000, int(NODES_PER_SECOND * budget)),
            inference=model,
        )
        max_worlds = self.max_worlds
        adaptive = self.adaptive

        def more(ev: Evaluation) -> bool:
            n = ev.worlds
            if n >= max_worlds:
                return False
            if time.perf_counter() - wall0 >= wall_cap:
                return False
            spent = time.thread_time() - cpu0
            if not adaptive:
                return spent < budget
            if (n >= MIN_WORLDS and (n & 3) == 0) or spent >= budget:
                lead, se = ev.margin()
                if n >= MIN_WORLDS and (lead > CLEAR * se or se < 1e-9):
                    return False  # clearly best (or the best two alike in every world so far)
                if spent >= budget:
                    return lead <= CLOSE * se and spent < EXTEND * budget
            return True

        return settings, more
