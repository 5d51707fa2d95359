"""Fast play-outs and exact search of one possible world, for the searching bots.

A *world* is a whole hand with every tile placed (:func:`capicua.bots.worlds.sample_world` deals one
the seat cannot tell from the real hand). Searching bots play thousands of moves in worlds for every
decision, so here a world is turned into plain ints (the hands as bitmasks, the open ends as pips) and
played by small loops that know the rules of the hand's scoring and nothing else: no history, no
undo stack, no views. :class:`LineWorld` plays the line games (Dominousa C3/C4, individual B3–B5, with
the world's boneyard order), :class:`SpinnerWorld` Dominó Amazonense (A2, A4, A5, A6's 40, A7, A8).

Both give, from the point of view of one seat (``me``: its team in partnerships), the points of the
rest of the hand (ours minus theirs, in individual play the seat's points minus the best other's):

- :meth:`~LineWorld.after` plays a move of the seat to act (a sim move, see :meth:`~LineWorld.code_of`) and
  then finishes the hand with a play-out policy (``GREEDY``: the heaviest tile, in Amazonense the most
  table points first; ``SCORER``: in Amazonense also the pass 20 and galo 50 it sees the move make;
  ``DOUBLES_FIRST``: on a line a double before the heaviest tile, as the ``greedy`` bot plays there), a
  share ``eps`` of the choices made at random;
- :meth:`~LineWorld.exact` finishes it by alpha-beta search over every play of every seat (each seat
  sees the whole world: perfect information), within a node budget (:class:`TooBig` beyond it).

In these worlds every player calls galo exactly when it is right (A5) and claims nothing (C6: a
right claim only skips passes); fines and touched tiles (C6, C7) are not simulated: a world with a
touched tile has ``supported`` False and bots play it through the engine instead. ``tests/bots/
test_sim.py`` plays random hands both ways and checks the points agree with the engine's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from capicua.rules import variants
from capicua.rules.amazonense import AmazonenseHand
from capicua.rules.hand import Hand
from capicua.rules.line import LineHand
from capicua.rules.moves import LEAD, LEAD_REVERSED, Move
from capicua.rules.tiles import DOUBLE_MASK, HIGH, IS_DOUBLE, LOW, LOW_ORDER, NUMBER_MASK, PIPS, pips_of

__all__ = ["DOUBLES_FIRST", "GREEDY", "SCORER", "LineWorld", "SpinnerWorld", "TooBig", "world_of"]

GREEDY = 0
SCORER = 1
DOUBLES_FIRST = 2  # on a line: a double first (the heaviest), else the heaviest tile; in Amazonense as GREEDY

NM = NUMBER_MASK
_RANK_OF = {t.index: r for r, t in enumerate(LOW_ORDER)}
_INF = 10**9


def _chunk_table(shift: int) -> tuple[int, ...]:
    """For 7 bits of a hand at ``shift``: the heaviest tile among them as ``pips << 5 | tile`` (-1: none);
    equal pips: the double, then the higher index."""
    out = []
    for bits in range(128):
        best = -1
        for k in range(7):
            if bits >> k & 1:
                t = shift + k
                key = PIPS[t] << 6 | IS_DOUBLE[t] << 5 | t
                best = max(best, key)
        out.append(best)
    return tuple(out)


_H0, _H1, _H2, _H3 = (_chunk_table(s) for s in (0, 7, 14, 21))


def heaviest(mask: int) -> int:
    """The heaviest tile of a non-empty bitmask (equal pips: the double first).

    >>> from capicua.rules.tiles import Tile
    >>> heaviest(Tile(6, 0).mask | Tile(3, 3).mask | Tile(1, 0).mask) == Tile(3, 3).index
    True
    """
    key = max(_H0[mask & 127], _H1[mask >> 7 & 127], _H2[mask >> 14 & 127], _H3[mask >> 21])
    return key & 31


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class TooBig(Exception):
    """An exact search went over its node budget."""


class _AlphaBeta:
    """The exact search both worlds share: alpha-beta with a transposition table of bounds, within a node
    budget. A world says what a search node is: its ``state`` (a tuple of the world's own), which the world's
    ``_child`` builds with the node's transposition ``key`` and whether the seat to act is on ``me``'s side
    (``maxing``); ``_moves`` lists a node's sim moves as (order, move), best guess first, and ``_child``
    gives the value of a move, searching on with ``_node``."""

    __slots__ = ()

    _nodes: list[int]
    _table: dict[Any, tuple[int, int]]

    def _moves(self, state: tuple[Any, ...]) -> list[tuple[int, int]]:
        raise NotImplementedError

    def _child(self, state: tuple[Any, ...], code: int, alpha: int, beta: int) -> int:
        raise NotImplementedError

    def _node(self, state: tuple[Any, ...], key: Any, maxing: bool, alpha: int, beta: int) -> int:
        nodes = self._nodes
        nodes[0] -= 1
        if nodes[0] < 0:
            raise TooBig
        table = self._table
        hit = table.get(key)
        if hit is not None:
            lo, hi = hit
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        best = -_INF if maxing else _INF
        child = self._child
        for _, code in self._moves(state):
            v = child(state, code, alpha, beta)
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        lo, hi = -_INF, _INF
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        if hit is not None:
            lo, hi = max(lo, hit[0]), min(hi, hit[1])
        table[key] = (lo, hi)
        return best


class LineWorld(_AlphaBeta):
    """A line game's world (Dominousa, individual) as plain ints.

    A sim move is ``tile << 1 | side``: side 0 lays the tile at L, 1 at R; a lead is ``tile << 1``.
    """

    __slots__ = (
        "_nodes",
        "_table",
        "bone",
        "domino_kind",
        "drawn",
        "hands",
        "last",
        "lead_mask",
        "left",
        "me",
        "n",
        "nbone",
        "partners",
        "right",
        "supported",
        "turn",
    )

    def __init__(self, hand: LineHand, me: int) -> None:
        self.n = hand.seats
        self.partners = hand.partnerships
        self.me = me
        self.bone = tuple(hand.boneyard_order)
        self.nbone = len(self.bone)
        self.drawn = hand.drawn
        self.hands = list(hand.hands)
        layout = hand.layout
        self.left = layout.left if layout.first is not None else -1
        self.right = layout.right if layout.first is not None else -1
        self.turn = hand.turn
        self.last = hand.last
        self.lead_mask = hand.lead_mask
        self.domino_kind = 1 if hand.partnerships else 0  # scoring: 1 Dominousa (C3, C4), 0 individual (B4, B5)
        self.supported = hand.plain  # a touched tile (C7) limits what a seat may play: not simulated

    # -- moves ------------------------------------------------------------------------
    def code_of(self, move: Move) -> int:
        """The sim move of an engine play (of the seat to act)."""
        assert move.tile is not None
        end = move.end_code
        return move.tile.index << 1 | (1 if end == 5 else 0)

    def tiles_left(self) -> int:
        return sum(h.bit_count() for h in self.hands) + self.nbone - self.drawn

    def _side(self, seat: int) -> int:
        return seat & 1 if self.partners else seat

    # -- scoring ----------------------------------------------------------------------
    def _domino(self, hands: list[int], seat: int) -> int:
        """C3/B5: the pips of every other hand, to the side of ``seat``; from ``me``'s side."""
        total = 0
        for h in hands:
            total += pips_of(h)
        return total if self._side(seat) == self._side(self.me) else -total

    def _blocked(self, hands: list[int], blocker: int) -> int:
        if self.domino_kind:  # C4
            s0 = pips_of(hands[0]) + pips_of(hands[2])
            s1 = pips_of(hands[1]) + pips_of(hands[3])
            if s0 == s1:
                return 0
            won = 0 if s0 < s1 else 1
            return s0 + s1 if won == self.me & 1 else -(s0 + s1)
        sums = [pips_of(h) for h in hands]  # B4
        best = min(sums)
        tied = [s for s in range(self.n) if sums[s] == best]
        if len(tied) > 1 and blocker in tied:
            tied.remove(blocker)
        if len(tied) > 1:
            tied.sort(key=lambda s: min(_RANK_OF[t] for t in _bits(hands[s])))
        winner = tied[0]
        points = sum(sums) - sums[winner]
        return points if winner == self.me else -points

    # -- play-outs --------------------------------------------------------------------
    def after(
        self,
        code: int,
        policy: int = GREEDY,
        eps: float = 0.0,
        rng: random.Random | None = None,
        trace: list[int] | None = None,
    ) -> int:
        """Play sim move ``code`` for the seat to act, then finish the hand with the play-out policy (on a
        line ``GREEDY`` and ``SCORER`` shed the heaviest tile, ``DOUBLES_FIRST`` a double first); ``trace``
        collects the sim moves played."""
        doubles = DOUBLE_MASK if policy == DOUBLES_FIRST else 0
        return self._run(self.hands[:], self.left, self.right, self.turn, self.drawn, code, eps, rng, trace, doubles)

    def _run(
        self,
        hands: list[int],
        left: int,
        right: int,
        turn: int,
        drawn: int,
        code: int,
        eps: float,
        rng: random.Random | None,
        trace: list[int] | None,
        doubles: int = 0,
    ) -> int:
        """The play-out; ``doubles``: the tiles played before any other that fits (0: none)."""
        n = self.n
        bone = self.bone
        nbone = self.nbone
        pips = PIPS
        nm = NM
        rand = rng.random if (rng is not None and eps > 0) else None
        last = self.last
        while True:
            if code < 0:
                if left < 0:
                    h = hands[turn] & self.lead_mask
                    code = heaviest(h) << 1
                else:
                    fl, fr = nm[left], nm[right]
                    h = hands[turn]
                    f = h & (fl | fr)
                    if not f:
                        while drawn < nbone:
                            t = bone[drawn]
                            drawn += 1
                            h |= 1 << t
                            if (fl | fr) >> t & 1:
                                break
                        hands[turn] = h
                        f = h & (fl | fr)
                        if not f:
                            if drawn == nbone and nbone and not _any_fit(hands, fl | fr):
                                return self._blocked(hands, last)
                            turn = turn + 1 if turn + 1 < n else 0
                            continue
                    if rand is not None and rand() < eps:
                        assert rng is not None
                        options = _bits(f)
                        t = options[int(rand() * len(options))]
                        side = 0 if fl >> t & 1 else 1
                        if side == 0 and fr >> t & 1 and left != right and rand() < 0.5:
                            side = 1
                    else:
                        t = heaviest(f & doubles or f)
                        side = 0 if fl >> t & 1 else 1
                    code = t << 1 | side
            # lay the tile
            if trace is not None:
                trace.append(code)
            t = code >> 1
            if left < 0:
                left, right = HIGH[t], LOW[t]
            elif code & 1:
                right = pips[t] - right
            else:
                left = pips[t] - left
            code = -1
            h = hands[turn] ^ (1 << t)
            hands[turn] = h
            last = turn
            if not h:
                return self._domino(hands, turn)
            if drawn == nbone and not _any_fit(hands, nm[left] | nm[right]):
                return self._blocked(hands, turn)
            turn = turn + 1 if turn + 1 < n else 0

    # -- exact search -------------------------------------------------------------------
    def exact(self, code: int, budget: int = 20000, table: dict[Any, tuple[int, int]] | None = None) -> int:
        """The value of sim move ``code`` for the seat to act, every seat then playing its best with the
        whole world in view (alpha-beta, perfect information); :class:`TooBig` past ``budget`` nodes."""
        self._nodes = [budget]
        self._table = {} if table is None else table
        return self._child((self.hands, self.left, self.right, self.turn, self.drawn), code, -_INF, _INF)

    # A search node's state: (hands, left, right, turn, drawn).
    def _moves(self, state: tuple[Any, ...]) -> list[tuple[int, int]]:
        hands, left, right, turn, _ = state
        fl, fr = NM[left], NM[right]
        f = hands[turn] & (fl | fr)
        moves = []
        for t in _bits(f):
            if fl >> t & 1:
                moves.append((PIPS[t], t << 1))
            if fr >> t & 1 and (left != right or not fl >> t & 1):
                moves.append((PIPS[t], t << 1 | 1))
        moves.sort(reverse=True)
        return moves

    def _child(self, state: tuple[Any, ...], code: int, alpha: int, beta: int) -> int:
        """Lay ``code`` for the seat to act on a copy of the hands and search on."""
        hands, left, right, turn, drawn = state
        t = code >> 1
        if left < 0:
            left, right = HIGH[t], LOW[t]
        elif code & 1:
            right = PIPS[t] - right
        else:
            left = PIPS[t] - left
        hands = hands[:]
        h = hands[turn] ^ (1 << t)
        hands[turn] = h
        if not h:
            return self._domino(hands, turn)
        fit = NM[left] | NM[right]
        if drawn == self.nbone and not _any_fit(hands, fit):
            return self._blocked(hands, turn)
        last = turn
        n = self.n
        turn = turn + 1 if turn + 1 < n else 0
        # forced draws and passes up to the next seat that can play
        while True:
            h = hands[turn]
            if h & fit:
                break
            while drawn < self.nbone:
                tile = self.bone[drawn]
                drawn += 1
                h |= 1 << tile
                if fit >> tile & 1:
                    break
            hands[turn] = h
            if h & fit:
                break
            if drawn == self.nbone and self.nbone and not _any_fit(hands, fit):
                return self._blocked(hands, last)
            turn = turn + 1 if turn + 1 < n else 0
        key = (*hands, left, right, turn, drawn, last) if not self.partners else (*hands, left, right, turn)
        maxing = self._side(turn) == self._side(self.me)
        return self._node((hands, left, right, turn, drawn), key, maxing, alpha, beta)


def _any_fit(hands: list[int], fit: int) -> bool:
    for h in hands:  # noqa: SIM110 (a loop is faster than any() over a generator)
        if h & fit:
            return True
    return False


# -- Amazonense ----------------------------------------------------------------------------------
class SpinnerWorld(_AlphaBeta):
    """A world of Dominó Amazonense as plain ints.

    A sim move is ``tile << 2 | arm`` (arms W, E, N, S = 0..3); a lead is ``tile << 2``. The layout is
    the spinner's pip and, for each arm, its outer pip (the spinner's while the arm is empty) and what
    it adds to the table count (A2).
    """

    __slots__ = (
        "_nodes",
        "_table",
        "bonus",
        "contrib",
        "dcount",
        "dseat",
        "hands",
        "last",
        "lead_mask",
        "me",
        "outer",
        "passes",
        "sp",
        "supported",
        "turn",
        "used",
    )

    def __init__(self, hand: AmazonenseHand, me: int) -> None:
        self.supported = True
        self.me = me
        self.hands = list(hand.hands)
        lay = hand.layout
        self.sp = -1 if lay.spinner < 0 else PIPS[lay.spinner] >> 1
        self.outer = list(lay.outer)
        self.contrib = list(lay.contrib)
        self.used = [bool(a) for a in lay.arms]
        self.turn = hand.turn
        self.last = hand.last
        self.passes = hand.passes
        self.lead_mask = hand.lead_mask
        # A3: the 20 of a batida's player who holds no double, scored with the lead
        nobody = hand.no_double_team
        self.bonus = 0 if self.sp >= 0 or nobody is None else (20 if nobody == me & 1 else -20)
        # A6: the announced seat scores 40 with his 4th double unless he passes first.
        if hand.announced and not hand.doubles_spoiled and hand.doubles_played < 4 and hand.doubles_seat is not None:
            self.dseat, self.dcount = hand.doubles_seat, hand.doubles_played
        else:
            self.dseat, self.dcount = -1, 0

    def code_of(self, move: Move) -> int:
        assert move.tile is not None
        end = move.end_code
        return move.tile.index << 2 | (0 if end in (LEAD, LEAD_REVERSED) else end)

    def tiles_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)

    def galo_right(self, code: int) -> bool:
        """A5: after sim move ``code`` by the seat to act, nobody else has a fitting tile and he has one."""
        outer, contrib, used = self.outer[:], self.contrib[:], self.used[:]
        seat = self.turn
        t = code >> 2
        if self.sp < 0:
            fit = NM[PIPS[t] >> 1]
        else:
            _lay(outer, contrib, used, t, code & 3)
            fit = _fit(outer, used)
        hands = self.hands
        if not (hands[seat] & ~(1 << t)) & fit:
            return False
        return not any(hands[s] & fit for s in range(4) if s != seat)

    # -- play-outs --------------------------------------------------------------------
    def after(
        self,
        code: int,
        policy: int = GREEDY,
        eps: float = 0.0,
        rng: random.Random | None = None,
        trace: list[int] | None = None,
    ) -> int:
        """Play sim move ``code`` for the seat to act, without a galo call (a right galo is then left to
        A4's pass; :meth:`galo_right` says what calling it would change), then finish the hand with the
        play-out policy, every later right galo called. ``trace`` collects the sim moves played."""
        hands, outer, contrib, used = self.hands[:], self.outer[:], self.contrib[:], self.used[:]
        return self.bonus + self._run(hands, outer, contrib, used, code, policy, eps, rng, trace)

    def _run(
        self,
        hands: list[int],
        outer: list[int],
        contrib: list[int],
        used: list[bool],
        code: int,
        policy: int,
        eps: float,
        rng: random.Random | None,
        trace: list[int] | None,
    ) -> int:
        me, score = self.me & 1, 0  # score: ours minus theirs
        sp = self.sp
        turn, last, passes, dseat, dcount = self.turn, self.last, self.passes, self.dseat, self.dcount
        rand = rng.random if (rng is not None and eps > 0) else None
        galo = False  # the first move, given, is played without a call
        pips = PIPS
        while True:
            if code < 0:
                if sp < 0:
                    code = heaviest(hands[turn] & self.lead_mask) << 2
                else:
                    fit = _fit(outer, used)
                    h = hands[turn]
                    if not h & fit:  # A4
                        if passes == 0:
                            score += 20 if (last & 1) == me else -20
                        passes += 1
                        if turn == dseat:
                            dseat = -1
                        turn = (turn + 1) & 3
                        continue
                    if rand is not None and rand() < eps:
                        options = _plays(h, outer, used)
                        code = options[int(rand() * len(options))]
                    else:
                        code = _best_play(h, outer, contrib, used, sp, hands, turn, policy)
            if trace is not None:
                trace.append(code)
            t = code >> 2
            team = turn & 1
            if sp < 0:
                sp = pips[t] >> 1
                for a in range(4):
                    outer[a] = sp
                count = sp + sp
            else:
                _lay(outer, contrib, used, t, code & 3)
                if used[0] and used[1]:
                    count = contrib[0] + contrib[1] + contrib[2] + contrib[3]
                else:
                    count = contrib[0] + contrib[1] + sp + sp
            code = -1
            gained = count if count % 5 == 0 else 0
            if turn == dseat and IS_DOUBLE[t]:
                dcount += 1
                if dcount == 4:
                    gained += 40
                    dseat = -1
            h = hands[turn] ^ (1 << t)
            hands[turn] = h
            if not h:  # A7
                gained += _batida(hands, team, t)
                return score + (gained if team == me else -gained)
            fit = _fit(outer, used)
            others = 0
            for s in range(4):
                if s != turn:
                    others |= hands[s]
            if not (h | others) & fit:  # A8
                gained += _tranca(hands, team)
                return score + (gained if team == me else -gained)
            last, passes = turn, 0
            if galo and not others & fit:  # A5: a right galo, called
                gained += 50
            else:
                turn = (turn + 1) & 3
            galo = True
            score += gained if team == me else -gained

    # -- exact search -------------------------------------------------------------------
    def exact(self, code: int, budget: int = 20000, table: dict[Any, tuple[int, int]] | None = None) -> int:
        """The value of sim move ``code`` (played without a galo call, as in :meth:`after`) for the seat to act, then
        every seat playing its best with the whole world in view; :class:`TooBig` past ``budget`` nodes."""
        self._nodes = [budget]
        self._table = {} if table is None else table
        state = (self.hands, self.outer, self.contrib, self.used, self.sp, self.turn, self.dseat, self.dcount)
        return self.bonus + self._child(state, code, -_INF, _INF, galo=False)

    # A search node's state: (hands, outer, contrib, used, sp, turn, dseat, dcount).
    def _moves(self, state: tuple[Any, ...]) -> list[tuple[int, int]]:
        hands, outer, contrib, used, sp, turn, _, _ = state
        moves = []
        for code in _distinct_plays(hands[turn], outer, contrib, used):
            t, arm = code >> 2, code & 3
            count = _count_after(outer, contrib, used, sp, t, arm)
            moves.append(((count if count % 5 == 0 else 0) * 16 + PIPS[t], code))
        moves.sort(reverse=True)
        return moves

    def _child(self, state: tuple[Any, ...], code: int, alpha: int, beta: int, galo: bool = True) -> int:
        """Lay ``code`` for the seat to act (on copies) and search on; the value from ``me``'s side. Every
        right galo is called (A5), but with the move given at the root (``galo`` False, as in :meth:`after`)."""
        hands, outer, contrib, used, sp, turn, dseat, dcount = state
        me = self.me & 1
        t = code >> 2
        team = turn & 1
        hands = hands[:]
        outer = outer[:]
        contrib = contrib[:]
        used = used[:]
        if sp < 0:
            sp = PIPS[t] >> 1
            for a in range(4):
                outer[a] = sp
            count = sp + sp
        else:
            _lay(outer, contrib, used, t, code & 3)
            if used[0] and used[1]:
                count = contrib[0] + contrib[1] + contrib[2] + contrib[3]
            else:
                count = contrib[0] + contrib[1] + sp + sp
        gained = count if count % 5 == 0 else 0
        if turn == dseat and IS_DOUBLE[t]:
            dcount += 1
            if dcount == 4:
                gained += 40
                dseat = -1
        h = hands[turn] ^ (1 << t)
        hands[turn] = h
        if not h:  # A7
            gained += _batida(hands, team, t)
            return gained if team == me else -gained
        fit = _fit(outer, used)
        others = 0
        for s in range(4):
            if s != turn:
                others |= hands[s]
        if not (h | others) & fit:  # A8
            gained += _tranca(hands, team)
            return gained if team == me else -gained
        nxt = turn
        if not others & fit and galo:
            gained += 50
        else:
            nxt = (turn + 1) & 3
            first_pass = True
            while not hands[nxt] & fit:  # A4: forced passes
                if first_pass:
                    gained += 20
                    first_pass = False
                if nxt == dseat:
                    dseat = -1
                nxt = (nxt + 1) & 3
        here = gained if team == me else -gained
        key = (*hands, *outer, *contrib, used[0], used[1], nxt, dseat, dcount)
        state = (hands, outer, contrib, used, sp, nxt, dseat, dcount)
        return here + self._node(state, key, (nxt & 1) == me, alpha - here, beta - here)


def _round5(n: int) -> int:
    return n - n % 5


def _batida(hands: list[int], team: int, tile: int) -> int:
    """A7: what ``team`` scores going out with ``tile`` (its table count aside): the opponents' pips rounded
    down to 5, and 20 for a double."""
    opp = team ^ 1
    return _round5(pips_of(hands[opp]) + pips_of(hands[opp + 2])) + (20 if IS_DOUBLE[tile] else 0)


def _tranca(hands: list[int], team: int) -> int:
    """A8: the points of a blocked hand for ``team`` (ours minus theirs): the lower sum scores the other's."""
    s0 = pips_of(hands[0]) + pips_of(hands[2])
    s1 = pips_of(hands[1]) + pips_of(hands[3])
    if s0 == s1:
        return 0
    won = 0 if s0 < s1 else 1
    points = _round5(s1 if won == 0 else s0)
    return points if won == team else -points


def _fit(outer: list[int], used: list[bool]) -> int:
    """The tiles that fit an open end (A1: N and S open once W and E both hold a tile)."""
    if used[0] and used[1]:
        return NM[outer[0]] | NM[outer[1]] | NM[outer[2]] | NM[outer[3]]
    return NM[outer[0]] | NM[outer[1]]


def _lay(outer: list[int], contrib: list[int], used: list[bool], t: int, arm: int) -> int:
    pip = PIPS[t] - outer[arm]
    outer[arm] = pip
    contrib[arm] = pip + pip if IS_DOUBLE[t] else pip
    used[arm] = True
    return pip


def _count_after(outer: list[int], contrib: list[int], used: list[bool], sp: int, t: int, arm: int) -> int:
    """A2: the table count if ``t`` were laid on ``arm``."""
    pip = PIPS[t] - outer[arm]
    mine = pip + pip if IS_DOUBLE[t] else pip
    total = contrib[0] + contrib[1] + contrib[2] + contrib[3] - contrib[arm] + mine
    if (used[0] or arm == 0) and (used[1] or arm == 1):
        return total
    return total + sp + sp


def _plays(h: int, outer: list[int], used: list[bool]) -> list[int]:
    arms = 4 if used[0] and used[1] else 2
    out = []
    for arm in range(arms):
        m = h & NM[outer[arm]]
        while m:
            low = m & -m
            out.append((low.bit_length() - 1) << 2 | arm)
            m ^= low
    return out


def _distinct_plays(h: int, outer: list[int], contrib: list[int], used: list[bool]) -> list[int]:
    """The plays of ``h``, one per tile and arm state (arms alike lead to the same position)."""
    arms = 4 if used[0] and used[1] else 2
    out = []
    seen: list[tuple[int, int, bool]] = []
    for arm in range(arms):
        state = (outer[arm], contrib[arm], used[arm])
        if state in seen:
            continue
        seen.append(state)
        m = h & NM[outer[arm]]
        while m:
            low = m & -m
            out.append((low.bit_length() - 1) << 2 | arm)
            m ^= low
    return out


def _best_play(
    h: int,
    outer: list[int],
    contrib: list[int],
    used: list[bool],
    sp: int,
    hands: list[int],
    turn: int,
    policy: int,
) -> int:
    """The play-out choice: the most points now (table count; with SCORER also the pass 20 and the galo
    50 the play makes in this world), then the heaviest tile."""
    best, best_key = -1, -1
    arms = 4 if used[0] and used[1] else 2
    for arm in range(arms):
        m = h & NM[outer[arm]]
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            count = _count_after(outer, contrib, used, sp, t, arm)
            points = count if count % 5 == 0 else 0
            if policy == SCORER:
                points += _pass_bonus(outer, used, t, arm, hands, turn)
            key = points << 5 | PIPS[t] << 1 | IS_DOUBLE[t]
            if key > best_key:
                best, best_key = t << 2 | arm, key
    return best


def _pass_bonus(outer: list[int], used: list[bool], t: int, arm: int, hands: list[int], turn: int) -> int:
    """What the next seats' passes give the play: 50 for a right galo, 20 when the next seat must pass."""
    o = outer[:]
    u = used[:]
    o[arm] = PIPS[t] - o[arm]
    u[arm] = True
    fit = _fit(o, u)
    nxt = (turn + 1) & 3
    if hands[nxt] & fit:
        return 0
    if not (hands[(turn + 2) & 3] | hands[(turn + 3) & 3]) & fit and (hands[turn] & ~(1 << t)) & fit:
        return 50
    return 20


#: The sim of each layout a game declares (``Variant.layout``: the spinner's 4 arms, A1; a line, C1).
WORLDS: dict[str, Callable[[Any, int], LineWorld | SpinnerWorld]] = {"spinner": SpinnerWorld, "line": LineWorld}


def world_of(hand: Hand, me: int) -> LineWorld | SpinnerWorld:
    """The sim of an engine hand (a sampled world), from ``me``'s side."""
    return WORLDS[variants.get(hand.variant).layout](hand, me)
