"""The ``heuristic`` bot: one ply, like ``scorer``, but it weighs the reply it allows.

A strong club player of Manaus does not ask only "what does this tile score now?" but "what does it let
the next man score, and who will be stuck?". For every play of its turn this bot adds up, from its seat's
view alone (:func:`capicua.bots.worlds.knowledge`: the unseen tiles, what each seat is known to hold, the
numbers each seat showed it lacks by passing, drawing or a right galo or claim):

- the points the play makes for certain (:func:`capicua.bots.scorer.immediate_points`: the table count,
  A2; a right galo, A5; the first pass's 20 when the next seat surely has nothing, A4; a fourth announced
  double, A6; a batida's count, A7; on a line going out and a certain tranque);
- minus the next opponent's best reply: the table points (A2) he could make on the new ends with a tile
  he may still hold, each tile weighed by the chance that he holds it (known voids give 0) -- as an
  expected best reply and as the worst case;
- the chance the next opponent must pass (his first pass gives our side 20, A4) when it is not certain;
- ends the next opponent is known to lack (a bonus), ends the partner is known to lack (a penalty), ends
  whose number nobody else can hold any more (the road to a galo);
- flexibility: how many of its remaining tiles still fit the new ends, and how many of them hold an
  open end's number (suit control);
- doubles early and heavy tiles first (a double is hard to place late; pips left in hand count for the
  others at a batida or a tranca);
- a locked table (tranca A8, tranque B4/C4): the expected result from each hand's expected pips;
- doubles left that can no longer be played (every other tile of their number is on the table): a
  penalty, they only wait to be counted against us.

Each is a number times a weight of :class:`Weights`; the weights are data (one set for each layout a game
declares, ``Variant.layout``), tuned by self-play with ``bench/tune_heuristic.py`` (see docs/bots.md). The
move with the highest sum is played; ties go to the heaviest tile, then the double, then the first listed.
Galo is called only when certain (the seat can prove it: in Amazonense every unseen tile is in a hand, so
a galo's rightness is known), as the scorer does.

>>> from capicua.rules import Match
>>> m = Match(variants.get("amazonense"), seed=3)
>>> hand = m.deal()
>>> HeuristicBot().act(hand.view(hand.turn))
Move.parse('6-6')
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from capicua.bots.base import CarefulBot, fits_mask, layout_of
from capicua.bots.scorer import immediate_points
from capicua.bots.worlds import knowledge, nobody_else_can_play
from capicua.rules import variants
from capicua.rules.hand import SeatView
from capicua.rules.layout import SpinnerLayout
from capicua.rules.moves import GALO, Move
from capicua.rules.tiles import DOUBLE_MASK, IS_DOUBLE, NUMBER_MASK, PIPS, mask_of, pips_of

__all__ = ["DEFAULT_WEIGHTS", "Features", "HeuristicBot", "Weights", "features"]


@dataclass(frozen=True)
class Weights:
    """What each feature of a play is worth, in points of the hand (the certain points a play makes count 1).

    A positive weight favours plays with more of the feature; ``reply``, ``reply_max``, ``partner_void`` and
    ``dead_doubles`` are subtracted (a larger weight avoids more of it).
    """

    #: per point of the next opponent's expected best reply (A2 table points with a tile he may hold)
    reply: float = 0.8
    #: per point of the most he could score in reply, were he to hold the best tile for it
    reply_max: float = 0.1
    #: per point of the first pass's 20 (A4) times the chance the next opponent has no fitting tile
    #: (when it is certain the 20 is in the play's certain points already)
    pass_chance: float = 0.6
    #: for each open end whose number the next opponent is known to lack
    next_void: float = 2.0
    #: against each open end whose number the partner is known to lack
    partner_void: float = 1.0
    #: for each open end whose number nobody else can hold (only our seat has it: a galo's road)
    own_end: float = 1.0
    #: for each tile left in hand that fits an open end after the play
    flex: float = 1.0
    #: for each pair (open end, tile left in hand with that end's number): suit control
    control: float = 0.3
    #: for playing a double
    double: float = 3.0
    #: per pip of the tile played
    pips: float = 0.3
    #: per point of the expected result of a table the play locks for certain (tranca A8, tranque B4/C4)
    tranca: float = 0.8
    #: against each double left in hand that no end takes and whose number has no other tile off the table
    #: (it can no longer be played)
    dead_doubles: float = 4.0

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def with_(self, **changes: float) -> Weights:
        return replace(self, **changes)

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


#: The tuned weights, by the layout a game declares (``Variant.layout``): the spinner (Amazonense) and the
#: line (individual, Dominousa). ``bench/tune_heuristic.py`` prints them; docs/bots.md says how they were found.
DEFAULT_WEIGHTS: dict[str, Weights] = {
    "spinner": Weights(),
    "line": Weights(reply=0.0, reply_max=0.0, pass_chance=0.0, next_void=2.0, own_end=0.5, pips=1.0),
}


@dataclass
class Features:
    """The numbers :class:`Weights` weighs, for one play."""

    now: float = 0.0  # certain points of the play (scorer's)
    galo: bool = False  # whether it is played with a (certain) galo call
    reply: float = 0.0
    reply_max: float = 0.0
    pass_chance: float = 0.0
    next_void: float = 0.0
    partner_void: float = 0.0
    own_end: float = 0.0
    flex: float = 0.0
    control: float = 0.0
    double: float = 0.0
    pips: float = 0.0
    tranca: float = 0.0
    dead_doubles: float = 0.0

    def value(self, w: Weights) -> float:
        return (
            self.now
            - w.reply * self.reply
            - w.reply_max * self.reply_max
            + w.pass_chance * self.pass_chance
            + w.next_void * self.next_void
            - w.partner_void * self.partner_void
            + w.own_end * self.own_end
            + w.flex * self.flex
            + w.control * self.control
            + w.double * self.double
            + w.pips * self.pips
            + w.tranca * self.tranca
            - w.dead_doubles * self.dead_doubles
        )


class HeuristicBot(CarefulBot):
    """One ply: certain points, the next opponent's reply, voids, flexibility, doubles, tranca."""

    name = "heuristic"

    def __init__(self, weights: Weights | dict[str, Weights] | None = None) -> None:
        if weights is None:
            self.weights = dict(DEFAULT_WEIGHTS)
        elif isinstance(weights, Weights):
            self.weights = {layout: weights for layout in DEFAULT_WEIGHTS}
        else:
            self.weights = {**DEFAULT_WEIGHTS, **weights}

    def choose(self, view: SeatView, required: list[Move]) -> Move:
        plays = [m for m in required if m.is_play]
        if not plays:
            return required[0]
        if len(plays) == 1:
            only = plays[0]
            return only.with_galo() if _galo_certain(view, only) else only
        _, move, galo = max(self._weighed(view, plays), key=lambda x: x[0])
        return move.with_galo() if galo else move

    def ranked(self, view: SeatView, plays: list[Move]) -> list[Move]:
        """``plays`` (of the seat to act), best first as this bot weighs them (without their galo calls)."""
        weighed = sorted(self._weighed(view, plays), key=lambda x: x[0], reverse=True)
        return [move for _, move, _ in weighed]

    def _weighed(self, view: SeatView, plays: list[Move]) -> list[tuple[tuple[float, int, bool], Move, bool]]:
        """Each play's sort key (its value, then the heaviest tile, then the double), the play, and whether it
        is to be called with a (certain) galo."""
        w = self.weights[variants.get(view.variant).layout]
        context = _Context(view)
        out = []
        for move in plays:
            f = features(view, move, context)
            assert move.tile is not None
            out.append(((round(f.value(w), 6), move.tile.pips, move.tile.is_double), move, f.galo))
        return out


def _galo_certain(view: SeatView, move: Move) -> bool:
    if GALO not in variants.get(view.variant).calls:
        return False
    return immediate_points(view, knowledge(view), layout_of(view), move)[1]


class _Context:
    """What every play of one decision shares: the seat's knowledge, the layout, the others' chances."""

    def __init__(self, view: SeatView) -> None:
        assert view.seat is not None
        self.view = view
        self.k = k = knowledge(view)
        self.layout = layout_of(view)
        self.seat = seat = view.seat
        self.n = n = view.seats
        variant = variants.get(view.variant)
        self.table_count = variant.table_count
        self.partner = (seat + 2) % n if variant.partnerships else -1
        self.nxt = (seat + 1) % n
        self.mine = mask_of(view.tiles)
        # the chance that each seat holds each tile: 1 for a tile known to be his, else his share of the
        # holders the tile may have (seats with unseen tiles to hold who do not lack its numbers, and the
        # boneyard), in proportion to how many unseen tiles each holds
        holders = [s for s in range(n) if s != seat and k.need[s]]
        chance: list[list[float]] = [[0.0] * 28 for _ in range(n)]
        unseen = k.unseen
        for t in range(28):
            if not unseen >> t & 1:
                continue
            room = [s for s in holders if not k.voids[s] >> t & 1]
            total = sum(k.need[s] for s in room) + k.boneyard
            if total:
                for s in room:
                    chance[s][t] = k.need[s] / total
        for s in range(n):
            if s != seat:
                held = k.held[s]
                for t in range(28):
                    if held >> t & 1:
                        chance[s][t] = 1.0
        self.chance = chance
        #: per seat, the tiles he may hold (a chance above 0)
        self.may_hold = [sum(1 << t for t in range(28) if chance[s][t]) for s in range(n)]
        # tiles not on the table, and those some other seat may hold (or the boneyard)
        self.off_table = ~view.on_table & ((1 << 28) - 1)
        others = unseen
        for s in range(n):
            if s != seat:
                others |= k.held[s]
        self.others = others


def features(view: SeatView, move: Move, c: _Context | None = None) -> Features:
    """The features of ``move`` (a play of the seat to act) as :class:`HeuristicBot` weighs them."""
    if c is None:
        c = _Context(view)
    assert move.tile is not None
    k, seat = c.k, c.seat
    tile = move.tile.index
    f = Features()
    f.now, f.galo = immediate_points(view, k, c.layout, move)
    probe = c.layout.copy()
    if probe.empty:
        probe.lead(tile)
    else:
        probe.play(tile, move.end_code)
    mine = c.mine & ~(1 << tile)
    fit = fits_mask(probe)
    ends = [pip for _, pip in probe.ends]
    f.double = float(IS_DOUBLE[tile])
    f.pips = float(PIPS[tile])
    if not mine:
        return f  # a batida / domino: the hand is over, its points are in ``now``
    nxt = c.nxt
    for pip in ends:
        number = NUMBER_MASK[pip]
        if not c.may_hold[nxt] & number:
            f.next_void += 1
        if c.partner >= 0 and not c.may_hold[c.partner] & number:
            f.partner_void += 1
        if not c.others & number:
            f.own_end += 1
        f.control += (mine & number).bit_count()
    f.flex = float((mine & fit).bit_count())
    # doubles left that no open end takes and whose number has no other tile off the table: dead
    doubles = mine & DOUBLE_MASK & ~fit
    off = c.off_table & ~(1 << tile)
    while doubles:
        low = doubles & -doubles
        doubles ^= low
        d = low.bit_length() - 1
        if not off & NUMBER_MASK[PIPS[d] >> 1] & ~low:
            f.dead_doubles += 1
    nobody = nobody_else_can_play(k, fit, seat, c.n)
    if nobody and not mine & fit and not view.boneyard:  # the play locks the table for certain
        f.tranca = _tranca(c, mine)
        f.next_void = f.partner_void = f.own_end = 0.0
        return f
    if f.galo:
        return f  # we play again: no reply
    # the next opponent: his chance to have nothing, and his best reply
    chance = c.chance[nxt]
    p_play_none = 1.0
    replies: list[tuple[int, float]] = []
    for t in range(28):
        p = chance[t]
        if not p or not fit >> t & 1:
            continue
        p_play_none *= 1.0 - p
        if c.table_count and isinstance(probe, SpinnerLayout):
            best = 0
            for arm, pip in probe.ends:
                if NUMBER_MASK[pip] >> t & 1:
                    count = probe.count_after(t, arm)
                    if count % 5 == 0 and count > best:
                        best = count
            if best:
                replies.append((best, p))
    if p_play_none < 1.0:  # a certain pass is counted in ``now`` already
        f.pass_chance = 20.0 * p_play_none
    if replies:
        replies.sort(reverse=True)
        f.reply_max = float(replies[0][0])
        left = 1.0
        for value, p in replies:
            f.reply += value * p * left
            left *= 1.0 - p
            if left <= 0.0:
                break
    return f


def _tranca(c: _Context, mine: int) -> float:
    """The expected points of a locked table for our side (A8 in Amazonense, C4 in Dominousa, B4 alone):
    each hand's expected pips (the tiles known to be his, his share of the unseen ones)."""
    k, n, seat = c.k, c.n, c.seat
    unseen = k.unseen.bit_count()
    per_tile = pips_of(k.unseen) / unseen if unseen else 0.0
    expected = [pips_of(k.held[s]) + k.need[s] * per_tile for s in range(n)]
    expected[seat] = float(pips_of(mine))
    if c.partner >= 0:
        ours = expected[seat] + expected[c.partner]
        theirs = sum(expected) - ours
        if c.table_count:  # A8: the lower sum scores the other's, rounded down to 5
            return theirs if ours < theirs else (-ours if ours > theirs else 0.0)
        total = ours + theirs  # C4: every hand's pips
        return total if ours < theirs else (-total if ours > theirs else 0.0)
    low = min(expected[s] for s in range(n) if s != seat)  # B4: the lowest hand scores the others'
    total = sum(expected)
    return total - expected[seat] if expected[seat] < low else -(total - low)
