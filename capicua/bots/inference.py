"""How likely a world makes what the other seats did: weights for sampled worlds.

:func:`capicua.bots.worlds.sample_world` deals the unseen tiles at random among the deals that agree with
the hard facts, every one alike (voids shown by passes and draws, counts). But players are not uniform: most shed heavy
tiles and take table points when they can. So a world in which an opponent held a 6-5 when he played a
2-0 explains his play worse than one in which he did not. :class:`PlayModel` gives each world the
log-likelihood of the other seats' plays under a simple model of play (a softmax over the tiles each
could have played, by pips, and in Amazonense by the table points the tile made, A2), computed from the
world's hands as they were before each play; a searching bot weighs the world's results by it.

Everything here reads the seat's view (the public history) and the world it is given, never the real
hand.
"""

from __future__ import annotations

import math

from capicua.rules.hand import Hand, SeatView
from capicua.rules.layout import SpinnerLayout
from capicua.rules.moves import DRAW, LEAD, LEAD_REVERSED, Move
from capicua.rules.tiles import ALL_TILES_MASK, NUMBER_MASK, PIPS

__all__ = ["PlayModel"]

_PLAY, _DRAW = 0, 1


class PlayModel:
    """The other seats' plays of ``view``, ready to be scored against worlds.

    ``pip_weight`` and ``point_weight`` are the softmax's weights (per pip of the tile, per table point
    it made); ``strength`` scales the whole log-likelihood (0: every world alike).
    """

    def __init__(self, view: SeatView, pip_weight: float = 0.35, point_weight: float = 0.15, strength: float = 1.0):
        assert view.seat is not None
        self.me = view.seat
        self.strength = strength
        history = view.history
        on_table = view.on_table
        last_play: dict[int, int] = {}
        for i, (_, move) in enumerate(history):
            if isinstance(move, Move) and move.is_play and move.tile is not None:
                last_play[move.tile.index] = i
        spinner = view.layout.get("shape") == "spinner"
        layout = SpinnerLayout() if spinner else None
        draws = 0
        # (kind, index, seat, tile or draw ordinal, fit mask (-1: the lead), {tile: log-weight}), newest last
        steps: list[tuple[int, int, int, int, int, dict[int, float]]] = []
        for i, (seat, move) in enumerate(history):
            if seat is None or not isinstance(move, Move):
                continue
            if move is DRAW:
                steps.append((_DRAW, i, seat, draws, 0, {}))
                draws += 1
                continue
            if not move.is_play or move.tile is None:
                continue
            tile = move.tile.index
            stood = last_play.get(tile) == i and on_table >> tile & 1
            if not stood:
                continue
            end = move.end_code
            lead = end in (LEAD, LEAD_REVERSED)
            fit = ALL_TILES_MASK if lead else _fit(view.ends_before[i])
            weights: dict[int, float] = {}
            if seat != self.me:
                for t in range(28):
                    if fit >> t & 1:
                        w = pip_weight * PIPS[t]
                        if layout is not None:
                            w += point_weight * _best_points(layout, t)
                        weights[t] = w
            steps.append((_PLAY, i, seat, tile, -1 if lead else fit, weights))
            if layout is not None:
                if lead:
                    layout.lead(tile)
                else:
                    layout.play(tile, end)
        self.steps = steps[::-1]

    def loglik(self, world: Hand) -> float:
        """The log-likelihood of the other seats' plays in ``world`` (up to a constant)."""
        hands = list(world.hands)
        bone = world.boneyard_order
        lead_mask = getattr(world, "lead_mask", ALL_TILES_MASK)  # what the lead could be (A3, B2, C2)
        me = self.me
        total = 0.0
        log = math.log
        exp = math.exp
        for kind, _, seat, what, fit, weights in self.steps:
            if kind == _DRAW:
                hands[seat] &= ~(1 << bone[what])
                continue
            h = hands[seat] | 1 << what
            hands[seat] = h
            if seat == me:
                continue
            options = h & (lead_mask if fit < 0 else fit)
            if options & (options - 1) == 0:
                continue  # one tile it could play: nothing learnt
            chosen = weights[what]
            top = chosen
            values = []
            while options:
                low = options & -options
                options ^= low
                v = weights[low.bit_length() - 1]
                values.append(v)
                if v > top:
                    top = v
            total += chosen - top - log(sum(exp(v - top) for v in values))
        return self.strength * total


def _fit(ends: tuple[tuple[int, int], ...]) -> int:
    m = 0
    for _, pip in ends:
        m |= NUMBER_MASK[pip]
    return m


def _best_points(layout: SpinnerLayout, tile: int) -> int:
    """A2: the most table points ``tile`` could make on an open end now."""
    if layout.empty:
        count = PIPS[tile]  # a lead is a double (A3): both halves count
        return count if count % 5 == 0 else 0
    best = 0
    for arm, pip in layout.ends:
        if NUMBER_MASK[pip] >> tile & 1:
            count = layout.count_after(tile, arm)
            if count % 5 == 0 and count > best:
                best = count
    return best
