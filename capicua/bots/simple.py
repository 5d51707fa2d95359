"""Two simple bots: ``random`` and ``greedy``.

>>> from capicua.rules import Match
>>> m = Match(variants.get("amazonense"), seed=3)
>>> hand = m.deal()
>>> GreedyBot().act(hand.view(hand.turn))
Move.parse('6-6')
"""

from __future__ import annotations

import random

from capicua.bots.base import Bot, CarefulBot, fits_mask, layout_of
from capicua.bots.worlds import knowledge, nobody_else_can_play
from capicua.rules import variants
from capicua.rules.hand import SeatView
from capicua.rules.layout import SpinnerLayout
from capicua.rules.moves import ANNOUNCE, GALO, Move

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot(Bot):
    """Uniformly random legal moves; galo called now and then, right or wrong; never claims."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def act(self, view: SeatView) -> Move | None:
        if view.seat is None or view.end is not None:
            return None
        required = self.required(view)
        if view.turn != view.seat or not required:
            if ANNOUNCE in view.legal_moves and self.rng.random() < 0.5:
                return ANNOUNCE
            if GALO in view.legal_moves and self.rng.random() < 0.1:
                return GALO
            return None
        move = self.rng.choice(required)
        if move.is_play and GALO in variants.get(view.variant).calls and self.rng.random() < 0.05:
            return move.with_galo()
        return move


class GreedyBot(CarefulBot):
    """Best immediate gain: the most table points where table counts score (Amazonense); where nothing
    scores during play (the line games), the beginner's rule: a double first (it fits one number only and
    is the hardest tile to place later), else the heaviest tile.

    Always announces 4 doubles and keeps 5 or more; calls galo and claims only when
    what it has seen makes it certain.
    """

    name = "greedy"

    def choose(self, view: SeatView, required: list[Move]) -> Move:
        if len(required) == 1 and not required[0].is_play:
            return required[0]
        if variants.get(view.variant).table_count:
            return self._table_points(view, required)
        return max(required, key=_weight)

    def _table_points(self, view: SeatView, moves: list[Move]) -> Move:
        """The play scoring the most table points (A2), with galo when it is certain (A5)."""
        layout = layout_of(view)
        assert isinstance(layout, SpinnerLayout)
        best, best_key = moves[0], (-1, -1, 0)
        for move in moves:
            if not move.is_play:
                continue
            assert move.tile is not None
            t = move.tile.index
            count = 2 * move.tile.high if layout.empty else layout.count_after(t, move.end_code)
            points = count if count % 5 == 0 else 0
            key = (points, move.tile.pips, -move.code)
            if key > best_key:
                best, best_key = move, key
        if best.is_play:
            assert best.tile is not None
            best_probe = layout.copy()
            if best_probe.empty:
                best_probe.lead(best.tile.index)
            else:
                best_probe.play(best.tile.index, best.end_code)
            k = knowledge(view)
            mine = 0
            for tile in view.tiles:
                mine |= tile.mask
            assert best.tile is not None
            mine &= ~best.tile.mask
            fit = fits_mask(best_probe)
            if mine & fit and nobody_else_can_play(k, fit, view.seat or 0, view.seats) and mine != 0:
                return best.with_galo()
        return best


def _weight(move: Move) -> tuple[int, int, int]:
    """Doubles first, then the heaviest tile (a draw or a pass last).

    In 2-player individual play heaviest-first alone beat random play in 59.8 % of 4,000 matches, doubles
    first in 68.2 % (docs/benchmarks.md, issue 23's ladder).

    >>> from capicua.rules.tiles import Tile
    >>> plays = [Move.play(Tile(6, 5), "L"), Move.play(Tile(2, 2), "R"), Move.play(Tile(6, 4), "L")]
    >>> [str(m) for m in sorted(plays, key=_weight, reverse=True)]
    ['2-2 R', '6-5 L', '6-4 L']
    """
    if move.tile is None:
        return (-1, 0, 0)
    return (int(move.tile.is_double), move.tile.pips, -move.code)
