"""The ``expert`` bot: determinized search (Perfect Information Monte Carlo).

For each decision it samples possible worlds consistent with everything its seat
has seen (:func:`capicua.bots.worlds.sample_world`: unseen tiles dealt under the
voids revealed by passes, draws, right galos and claims, and the world replayed
to match the view exactly), plays every candidate move in every world, finishes
the hand with fast playouts, and picks the move with the best mean result for
its side. It stops at its time budget (default 200 ms; never more than 1 s).

Galo (A5) is called with a play when the sampled worlds say it is right often
enough to be worth it: right, it turns the 20 of the first pass into 50 (+30);
wrong, it gives the other team 50; so it pays above 50/80 = 62.5 %.
"""

from __future__ import annotations

import random
import time

from capicua.bots.base import CarefulBot
from capicua.bots.simple import GreedyBot
from capicua.bots.worlds import knowledge, sample_world
from capicua.rules.hand import Hand, SeatView
from capicua.rules.layout import SpinnerLayout
from capicua.rules.moves import Move
from capicua.rules.tiles import PIPS

__all__ = ["ExpertBot"]

GALO_THRESHOLD = 0.65
HARD_CAP = 1.0  # seconds a move, whatever the budget says


class ExpertBot(CarefulBot):
    """PIMC search under a time budget per move."""

    name = "expert"

    def __init__(
        self, budget_ms: float = 200, seed: int | None = None, playouts: int = 2, max_worlds: int = 4000
    ) -> None:
        self.budget = min(budget_ms / 1000.0, HARD_CAP)
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.max_worlds = max_worlds  # with a generous budget, a fixed count makes the bot deterministic
        self.fallback = GreedyBot()

    def choose(self, view: SeatView, required: list[Move]) -> Move:
        if len(required) == 1 and not (required[0].is_play and view.variant == "amazonense"):
            return required[0]  # nothing to weigh (in Amazonense a lone play may still carry galo)
        return self.search(view, required)

    def search(self, view: SeatView, moves: list[Move]) -> Move:
        deadline = time.perf_counter() + self.budget
        seat = view.seat
        assert seat is not None
        k = knowledge(view)
        totals = [0.0] * len(moves)
        galo_right = [0] * len(moves)
        worlds = 0
        while True:
            world = sample_world(view, self.rng, k, tries=100)
            if world is None:
                break
            worlds += 1
            for i, move in enumerate(moves):
                for _ in range(self.playouts):
                    probe = world.copy()
                    probe.push(move, seat)
                    if move.is_play and probe.end is None and getattr(probe, "galo_is_right", None):
                        galo_right[i] += probe.galo_is_right(seat)  # type: ignore[attr-defined]
                    totals[i] += self._playout(probe, seat)
            if worlds >= self.max_worlds or time.perf_counter() >= deadline:
                break
        if not worlds:
            return self.fallback.choose(view, moves)
        best = max(range(len(moves)), key=lambda i: (totals[i], _weight(moves[i])))
        move = moves[best]
        if move.is_play and view.variant == "amazonense":
            if galo_right[best] / (worlds * self.playouts) >= GALO_THRESHOLD:
                return move.with_galo()
        return move

    def _playout(self, hand: Hand, seat: int) -> float:
        """Finish the hand with quick heuristic play; the result for ``seat``'s side.

        Each seat plays the greedy move (table points in Amazonense, then the heaviest
        tile) most of the time and a random one otherwise: purely random playouts
        underrate what opponents score.
        """
        rng = self.rng
        spinner = isinstance(hand.layout, SpinnerLayout)
        while hand.end is None:
            moves = hand.legal_moves
            if len(moves) > 1 and rng.random() < 0.7:
                if spinner:
                    layout = hand.layout
                    move = max(moves, key=lambda m: _table_gain(layout, m))
                else:
                    move = max(moves, key=lambda m: PIPS[m.code >> 4] if m.code < 448 else -1)
            else:
                move = rng.choice(moves)
            hand.push(move)
        points = hand.points
        if hand.partnerships:
            mine = seat & 1
            return float(points[mine] - points[mine ^ 1])
        others = [p for s, p in enumerate(points) if s != seat]
        return float(points[seat] - max(others))


def _table_gain(layout: SpinnerLayout, move: Move) -> int:
    """Greedy key of an Amazonense play: table points scored, then its pips."""
    code = move.code
    if code >= 448 or move.end_code > 3:
        return -1
    tile = code >> 4
    count = layout.count_after(tile, move.end_code)
    return (count if count % 5 == 0 else 0) * 16 + PIPS[tile]


def _weight(move: Move) -> int:
    return move.tile.pips if move.tile is not None else -1
