"""The ``scorer`` bot: one ply, the most points the move makes at once.

The baseline the public Manaus bots use. It looks at each play of its turn alone, with what its seat
knows (:func:`capicua.bots.worlds.knowledge`), and counts only points it is certain of:

- Amazonense: the table count (A2); a galo when it can prove nobody else can play after the move and it
  still can (A5: 50, called with the play); otherwise the first pass's 20 when it can prove the next
  seat has no fitting tile (A4); the 40 of a fourth announced double (A6); a batida's 20 for a double
  and the hand count it is sure of (A7: the unseen pips, all of them the opponents' when its partner
  has no tile left, rounded down to 5).
- The line games (individual, Dominousa): going out (the pips left in the other hands, as far as it
  knows them: every unseen tile is in a hand when there is no boneyard) and the blocked hand it can see
  the move make (C4, B4: every tile that fits the new ends is on the table or its own, and none of its
  own fits): the expected pip count of each hand decides who wins it.

Ties go to the heaviest tile (then the double, then the first listed). It announces 4 doubles, keeps 5
or more and claims only when certain (:class:`~capicua.bots.base.CarefulBot`).

>>> from capicua.rules import Match
>>> m = Match(variants.get("amazonense"), seed=3)
>>> hand = m.deal()
>>> ScorerBot().act(hand.view(hand.turn))
Move.parse('6-6')
"""

from __future__ import annotations

from capicua.bots.base import CarefulBot, fits_mask, layout_of
from capicua.bots.worlds import Knowledge, knowledge, nobody_else_can_play
from capicua.rules import variants
from capicua.rules.hand import SeatView
from capicua.rules.layout import LineLayout, SpinnerLayout
from capicua.rules.moves import PASS, Move
from capicua.rules.tiles import mask_of, pips_of

__all__ = ["ScorerBot", "immediate_points"]


class ScorerBot(CarefulBot):
    """The most points the move makes at once; ties: the heaviest tile."""

    name = "scorer"

    def choose(self, view: SeatView, required: list[Move]) -> Move:
        plays = [m for m in required if m.is_play]
        if not plays:
            return required[0]
        k = knowledge(view)
        layout = layout_of(view)
        best, best_key = plays[0], None
        for move in plays:
            points, galo = immediate_points(view, k, layout, move)
            assert move.tile is not None
            key = (points, move.tile.pips, move.tile.is_double)
            if best_key is None or key > best_key:
                best, best_key = (move.with_galo() if galo else move), key
        return best


def immediate_points(
    view: SeatView, k: Knowledge, layout: SpinnerLayout | LineLayout, move: Move
) -> tuple[float, bool]:
    """The points ``move`` makes for the seat's side at once, as far as the seat can be sure (ours
    minus theirs), and whether it calls galo with it."""
    assert move.tile is not None and view.seat is not None
    seat, tile = view.seat, move.tile
    mine = mask_of(view.tiles) & ~tile.mask
    probe = layout.copy()
    if probe.empty:
        count = probe.lead(tile.index)
    else:
        count = probe.play(tile.index, move.end_code)
    fit = fits_mask(probe)
    return _POINTS[variants.get(view.variant).layout](view, k, seat, tile.index, tile.is_double, count, mine, fit)


def _spinner(
    view: SeatView, k: Knowledge, seat: int, tile: int, double: bool, count: int, mine: int, fit: int
) -> tuple[float, bool]:
    points = float(count if count % 5 == 0 else 0)
    if view.public.get("announced") == seat and double:
        mine_played = [m for s, m in view.history if s == seat and isinstance(m, Move)]
        doubles = sum(1 for m in mine_played if m.tile is not None and m.tile.is_double)
        if doubles == 3 and PASS not in mine_played:
            points += 40  # A6: the fourth double of an announcement
    if not mine:  # A7: a batida
        if double:
            points += 20
        if not k.need[(seat + 2) & 3]:  # every unseen tile is the opponents'
            points += _round5(pips_of(k.unseen | k.held[(seat + 1) & 3] | k.held[(seat + 3) & 3]))
        return points, False
    if nobody_else_can_play(k, fit, seat, view.seats):
        if mine & fit:
            return points + 50, True  # A5: a right galo, certain
        return points, False  # a blocked hand: its sums are not certain
    nxt = (seat + 1) & 3
    if not (k.held[nxt] & fit) and not (k.need[nxt] and k.unseen & fit & ~k.voids[nxt]):
        points += 20  # A4: the next seat must pass
    return points, False


def _line(
    view: SeatView, k: Knowledge, seat: int, tile: int, double: bool, count: int, mine: int, fit: int
) -> tuple[float, bool]:
    """Going out, or a blocked hand the seat can see the move make (expected pips decide it); never a galo."""
    return _line_points(view, k, seat, mine, fit), False


def _line_points(view: SeatView, k: Knowledge, seat: int, mine: int, fit: int) -> float:
    n = view.seats
    partners = variants.get(view.variant).partnerships
    expected = _expected_pips(view, k)
    expected[seat] = float(pips_of(mine))
    if not mine:
        return sum(expected) - expected[seat]  # C3/B5: every other hand's pips
    if mine & fit or view.boneyard or not nobody_else_can_play(k, fit, seat, n):
        return 0.0
    if partners:  # C4: fewer pips scores every hand's pips
        ours = expected[seat] + expected[(seat + 2) & 3]
        theirs = expected[(seat + 1) & 3] + expected[(seat + 3) & 3]
        total = ours + theirs
        return total if ours < theirs else (-total if ours > theirs else 0.0)
    low = min(expected[s] for s in range(n) if s != seat)  # B4: the lowest hand scores the others'
    total = sum(expected)
    if expected[seat] < low:
        return total - expected[seat]
    return -(total - low)


def _expected_pips(view: SeatView, k: Knowledge) -> list[float]:
    """Each seat's pips: the tiles known to be his, and his share of the unseen ones."""
    n = view.seats
    unseen = k.unseen.bit_count()
    per_tile = pips_of(k.unseen) / unseen if unseen else 0.0
    return [pips_of(k.held[s]) + k.need[s] * per_tile for s in range(n)]


def _round5(n: int) -> int:
    return n - n % 5


#: What a play makes at once, by the layout a game declares (``Variant.layout``): the spinner's games score
#: the table count, passes, galo and batida (A2-A7); the line games going out and the blocked hand.
_POINTS = {"spinner": _spinner, "line": _line}
