"""Layouts: where tiles lie on the table and which ends are open.

Two shapes: the 4-arm :class:`SpinnerLayout` of Dominó Amazonense (A1) and the
two-ended :class:`LineLayout` of individual play and Dominousa (C1). Both keep
plain ints for the hot path: the open ends as ``(end, pip)`` pairs,
``fit_mask``, the bitmask of every tile that fits some open end, and ``plays``,
which turns a hand's bitmask into its legal plays with a lookup per end
(:meth:`SpinnerLayout.plays_for`).

>>> from capicua.rules.tiles import Tile
>>> lay = SpinnerLayout()
>>> lay.lead(Tile(6, 6).index)  # the spinner alone counts both halves
12
>>> lay.play(Tile(6, 3).index, W)  # 3 + 12 (A2)
15
>>> lay
SpinnerLayout(spinner='6-6', W=['6-3'], E=[], N=[], S=[])
"""

from __future__ import annotations

from typing import Any, NamedTuple

from capicua.rules.moves import END_NAMES, MOVES, E, L, Move, N, R, S, W
from capicua.rules.tiles import HIGH, IS_DOUBLE, LOW, NUMBER_MASK, PIPS, TILES, Tile, indices_of

__all__ = ["LineLayout", "Placed", "SpinnerLayout"]


class Placed(NamedTuple):
    """A tile as it lies: ``inner`` touches the layout, ``outer`` faces out."""

    tile: Tile
    inner: int
    outer: int

    def __str__(self) -> str:
        return f"{self.inner}-{self.outer}"


def _submasks(mask: int) -> list[int]:
    subs, sub = [], mask
    while sub:
        subs.append(sub)
        sub = (sub - 1) & mask
    return subs


#: PLAYS_AT[end][pip] maps ``hand & NUMBER_MASK[pip]`` to the tuple of moves laying
#: those tiles on ``end``: listing the plays on an end is one ``&`` and one lookup.
PLAYS_AT: tuple[tuple[dict[int, tuple[Move, ...]], ...], ...] = tuple(
    tuple(
        {sub: tuple(MOVES[t << 4 | end << 1] for t in indices_of(sub)) for sub in _submasks(NUMBER_MASK[pip])}
        for pip in range(7)
    )
    for end in range(6)
)


def _open(ends: tuple[tuple[int, int], ...], open_pip: tuple[int, ...]) -> tuple[Any, ...]:
    fit = 0
    for _, pip in ends:
        fit |= NUMBER_MASK[pip]
    plays = tuple((NUMBER_MASK[pip], PLAYS_AT[end][pip]) for end, pip in ends)
    return ends, fit, open_pip, plays


# Everything about the open ends that depends only on their pips, precomputed:
# _OPEN4[w*343 + e*49 + n*7 + s] for the four open arms, _OPEN2[w*7 + e] while
# only W and E are open. Each entry is (ends, fit_mask, open_pip, plays).
_OPEN4 = tuple(
    _open(((W, w), (E, e), (N, n), (S, s)), (w, e, n, s))
    for w in range(7)
    for e in range(7)
    for n in range(7)
    for s in range(7)
)
_OPEN2 = tuple(_open(((W, w), (E, e)), (w, e, -1, -1)) for w in range(7) for e in range(7))


_PAIR_TEXT = tuple(tuple(f"{a}-{b}" for b in range(7)) for a in range(7))  # how a tile lies: "inner-outer"


def _chain(tiles: list[int], pip: int) -> list[Placed]:
    """Tiles laid one after another from an open ``pip``: each covers it with its matching half."""
    out = []
    for t in tiles:
        other = PIPS[t] - pip
        out.append(Placed(TILES[t], pip, other))
        pip = other
    return out


class _Layout:
    """What both layouts share: their open ends as data, and the plays they allow."""

    __slots__ = ()
    plays: tuple[tuple[int, dict[int, tuple[Move, ...]]], ...]

    def plays_for(self, hand: int) -> list[Move]:
        """Every play of the tiles in bitmask ``hand`` on the open ends (none before the lead).

        >>> lay = SpinnerLayout(); _ = lay.lead(Tile(6, 6).index)
        >>> lay.plays_for(Tile(6, 1).mask | Tile(2, 0).mask)
        [Move.parse('6-1 W'), Move.parse('6-1 E')]
        """
        moves: list[Move] = []
        for number_mask, plays in self.plays:
            m = hand & number_mask
            if m:
                moves += plays[m]
        return moves


class SpinnerLayout(_Layout):
    """The Amazonense cross (A1): the opening double is the spinner, arms W, E, N, S.

    Until both W and E hold a tile only W and E are open; then N and S open too.
    Later doubles lie crosswise at the end of an arm and do not branch.
    """

    __slots__ = ("arms", "contrib", "doubled", "ends", "fit_mask", "open_pip", "outer", "plays", "spinner")

    def __init__(self) -> None:
        self.spinner = -1  # tile index of the opening double, -1 before the lead
        self.arms: list[list[int]] = [[], [], [], []]  # tile indices, spinner outward
        self.outer = [-1, -1, -1, -1]  # pip facing out on each arm (spinner pip if empty)
        self.doubled = [False, False, False, False]  # the arm's outer tile is a double
        self.contrib = [0, 0, 0, 0]  # what each arm adds to the table count (A2)
        self.ends: tuple[tuple[int, int], ...] = ()  # open (arm, pip) pairs
        self.open_pip: tuple[int, ...] = (-1, -1, -1, -1)  # pip of each arm if open, else -1
        self.fit_mask = 0
        # (NUMBER_MASK[pip], PLAYS_AT[end][pip]) for each open end: see legal plays
        self.plays: tuple[tuple[int, dict[int, tuple[Move, ...]]], ...] = ()

    def copy(self) -> SpinnerLayout:
        c = SpinnerLayout.__new__(SpinnerLayout)
        c.spinner = self.spinner
        c.arms = [a[:] for a in self.arms]
        c.outer = self.outer[:]
        c.doubled = self.doubled[:]
        c.contrib = self.contrib[:]
        c.ends = self.ends
        c.open_pip = self.open_pip
        c.fit_mask = self.fit_mask
        c.plays = self.plays
        return c

    @property
    def empty(self) -> bool:
        return self.spinner < 0

    def _refresh(self) -> int:
        """Recompute the open ends; return the table count (A2)."""
        w, e, n, s = self.outer
        c = self.contrib
        if self.arms[W] and self.arms[E]:
            self.ends, self.fit_mask, self.open_pip, self.plays = _OPEN4[w * 343 + e * 49 + n * 7 + s]
            return c[0] + c[1] + c[2] + c[3]
        self.ends, self.fit_mask, self.open_pip, self.plays = _OPEN2[w * 7 + e]
        return c[0] + c[1] + 2 * HIGH[self.spinner]

    def lead(self, tile: int) -> int:
        """Lay the opening double (the spinner); return the table count."""
        pip = HIGH[tile]
        self.spinner = tile
        self.outer = [pip, pip, pip, pip]
        return self._refresh()

    def play(self, tile: int, arm: int) -> int:
        """Lay ``tile`` at the open end of ``arm`` (the caller checks it fits); return the table count."""
        arms = self.arms
        arms[arm].append(tile)
        outer = self.outer
        pip = PIPS[tile] - outer[arm]
        outer[arm] = pip
        c = self.contrib
        if IS_DOUBLE[tile]:
            self.doubled[arm] = True
            c[arm] = pip + pip
        else:
            self.doubled[arm] = False
            c[arm] = pip
        # _refresh, inlined: this is the engine's hottest path.
        w, e, n, s = outer
        if arms[0] and arms[1]:
            self.ends, self.fit_mask, self.open_pip, self.plays = _OPEN4[w * 343 + e * 49 + n * 7 + s]
            return c[0] + c[1] + c[2] + c[3]
        self.ends, self.fit_mask, self.open_pip, self.plays = _OPEN2[w * 7 + e]
        return c[0] + c[1] + 2 * HIGH[self.spinner]

    def count_after(self, tile: int, arm: int) -> int:
        """The table count if ``tile`` were laid on ``arm`` now (it must fit), without laying it.

        >>> lay = SpinnerLayout(); _ = lay.lead(Tile(6, 6).index)
        >>> lay.count_after(Tile(6, 3).index, W), lay.count()
        (15, 12)
        """
        pip = PIPS[tile] - self.outer[arm]
        c = self.contrib
        total = c[0] + c[1] + c[2] + c[3] - c[arm] + (pip + pip if IS_DOUBLE[tile] else pip)
        if (self.arms[W] or arm == W) and (self.arms[E] or arm == E):
            return total
        return total + 2 * HIGH[self.spinner]

    def unplay(self, arm: int) -> None:
        """Take back the last tile laid on ``arm``."""
        arm_tiles = self.arms[arm]
        tile = arm_tiles.pop()
        pip = PIPS[tile] - self.outer[arm]  # the pip it covered
        self.outer[arm] = pip
        if arm_tiles:
            dbl = IS_DOUBLE[arm_tiles[-1]]
            self.doubled[arm] = dbl
            self.contrib[arm] = pip + pip if dbl else pip
        else:
            self.doubled[arm] = False
            self.contrib[arm] = 0
        self._refresh()

    def unlead(self) -> None:
        """Take back the opening double."""
        # Re-initialise in place: the layout object is shared by reference.
        self.__init__()  # type: ignore[misc]

    def count(self) -> int:
        """The table count of A2 (the sum of the open ends)."""
        if self.spinner < 0:
            return 0
        c = self.contrib
        if self.arms[W] and self.arms[E]:
            return c[0] + c[1] + c[2] + c[3]
        return c[0] + c[1] + 2 * HIGH[self.spinner]

    def fits(self, tile: int, arm: int) -> bool:
        """Whether ``tile`` may be laid on ``arm`` now."""
        pip = self.open_pip[arm] if 0 <= arm < 4 else -1
        return pip >= 0 and (pip == HIGH[tile] or pip == LOW[tile])

    def tiles(self) -> list[int]:
        """Tile indices on the table: the spinner, then each arm outward."""
        return [] if self.spinner < 0 else [self.spinner, *(t for arm in self.arms for t in arm)]

    def placed(self, arm: int) -> list[Placed]:
        """The tiles of ``arm`` as they lie, spinner outward."""
        return _chain(self.arms[arm], HIGH[self.spinner])

    def snapshot(self) -> dict[str, object]:
        """A plain, public description (for views and the UI)."""
        return {
            "shape": "spinner",
            "spinner": None if self.spinner < 0 else str(TILES[self.spinner]),
            "arms": {END_NAMES[a]: [str(p) for p in self.placed(a)] if self.spinner >= 0 else [] for a in range(4)},
            "ends": {END_NAMES[a]: pip for a, pip in self.ends},
            "count": self.count(),
        }

    def __repr__(self) -> str:
        if self.spinner < 0:
            return "SpinnerLayout()"
        arms = ", ".join(f"{END_NAMES[a]}={[str(TILES[t]) for t in self.arms[a]]}" for a in range(4))
        return f"SpinnerLayout(spinner='{TILES[self.spinner]}', {arms})"


_Plays = tuple[tuple[int, dict[int, tuple[Move, ...]]], ...]

# LINE_OPEN[left*7 + right]: (ends, fit_mask, plays, code_fit). code_fit[code & 15] is the mask of the
# tiles that a move's low code bits (end << 1 | galo) may lay: the tiles that fit L for a plain play at L,
# those that fit R at R, none for the other ends, the lead codes and galo. LineHand.push reads it too.
LINE_OPEN: tuple[tuple[tuple[tuple[int, int], ...], int, _Plays, tuple[int, ...]], ...] = tuple(
    (ends, fit, plays, tuple({L << 1: NUMBER_MASK[left], R << 1: NUMBER_MASK[right]}.get(c, 0) for c in range(16)))
    for left in range(7)
    for right in range(7)
    for ends, fit, _, plays in [_open(((L, left), (R, right)), ())]
)


class LineLayout(_Layout):
    """A line with two ends, L and R (C1); doubles lie crosswise and never branch.

    >>> lay = LineLayout()
    >>> lay.lead(Tile(6, 4).index, reversed=True)  # written 4-6: 4 at L
    10
    >>> _ = lay.play(Tile(6, 6).index, R); _ = lay.play(Tile(4, 1).index, L)
    >>> lay, lay.ends
    (LineLayout('1-4 4-6 6-6'), ((4, 1), (5, 6)))
    >>> lay.plays_for(Tile(1, 1).mask | Tile(6, 0).mask)
    [Move.parse('1-1 L'), Move.parse('6-0 R')]
    """

    __slots__ = ("code_fit", "ends", "first", "fit_mask", "left", "lefts", "plays", "right", "rights")

    def __init__(self) -> None:
        self.first: tuple[int, int] | None = None  # the lead: (tile, pip at its left side)
        self.lefts: list[int] = []  # tiles laid on L, in order (growing leftwards)
        self.rights: list[int] = []  # tiles laid on R, in order
        self.left = -1
        self.right = -1
        self.ends: tuple[tuple[int, int], ...] = ()
        self.fit_mask = 0
        self.plays: tuple[tuple[int, dict[int, tuple[Move, ...]]], ...] = ()
        self.code_fit: tuple[int, ...] = (0,) * 16  # by a move's code & 15: the tiles it may lay (LINE_OPEN)

    def copy(self) -> LineLayout:
        c = LineLayout.__new__(LineLayout)
        c.first, c.lefts, c.rights = self.first, self.lefts[:], self.rights[:]
        c.left, c.right, c.ends, c.fit_mask = self.left, self.right, self.ends, self.fit_mask
        c.plays, c.code_fit = self.plays, self.code_fit
        return c

    @property
    def empty(self) -> bool:
        return self.first is None

    @property
    def open_pip(self) -> tuple[int, ...]:
        """The pip open at each end, by end code (-1: no such end); only L and R open on a line."""
        return (-1, -1, -1, -1, self.left, self.right)

    def _refresh(self) -> None:
        self.ends, self.fit_mask, self.plays, self.code_fit = LINE_OPEN[self.left * 7 + self.right]

    def lead(self, tile: int, reversed: bool = False) -> int:
        """Lay the first tile: its high half at L, or its low half with ``reversed``."""
        left = LOW[tile] if reversed else HIGH[tile]
        self.first = (tile, left)
        self.left = left
        self.right = PIPS[tile] - left
        self._refresh()
        return self.left + self.right

    def play(self, tile: int, end: int) -> int:
        """Lay ``tile`` at ``end`` (the caller checks it fits); return the sum of the ends.

        ``LineHand.push`` does the same inline on its hot path: change both together.
        """
        if end == L:
            self.lefts.append(tile)
            self.left = PIPS[tile] - self.left
        else:
            self.rights.append(tile)
            self.right = PIPS[tile] - self.right
        self._refresh()
        return self.left + self.right

    def unplay(self, end: int) -> None:
        if end == L:
            self.left = PIPS[self.lefts.pop()] - self.left
        else:
            self.right = PIPS[self.rights.pop()] - self.right
        self._refresh()

    def unlead(self) -> None:
        self.__init__()  # type: ignore[misc]

    def count(self) -> int:
        """Sum of the two open ends (no variant on a line scores it; shown to players)."""
        return 0 if self.first is None else self.left + self.right

    def fits(self, tile: int, end: int) -> bool:
        pip = self.open_pip[end] if 0 <= end < 6 else -1
        return pip >= 0 and (pip == HIGH[tile] or pip == LOW[tile])

    def tiles(self) -> list[int]:
        """Tile indices on the table, left to right."""
        return [] if self.first is None else [*reversed(self.lefts), self.first[0], *self.rights]

    def placed(self) -> list[Placed]:
        """The tiles left to right, as (tile, left pip, right pip)."""
        if self.first is None:
            return []
        tile, left = self.first
        right = PIPS[tile] - left
        leftwards = [Placed(p.tile, p.outer, p.inner) for p in reversed(_chain(self.lefts, left))]
        return [*leftwards, Placed(TILES[tile], left, right), *_chain(self.rights, right)]

    def line_text(self) -> list[str]:
        """The tiles left to right as they lie, ``str(Placed)`` of :meth:`placed` (built for every frame).

        >>> lay = LineLayout(); _ = lay.lead(Tile(6, 4).index); _ = lay.play(Tile(4, 1).index, R)
        >>> _ = lay.play(Tile(6, 6).index, L); lay.line_text()
        ['6-6', '6-4', '4-1']
        """
        if self.first is None:
            return []
        text = _PAIR_TEXT
        tile, pip = self.first
        line = []
        for t in self.lefts:
            other = PIPS[t] - pip
            line.append(text[other][pip])
            pip = other
        line.reverse()
        tile, pip = self.first
        right = PIPS[tile] - pip
        line.append(text[pip][right])
        pip = right
        for t in self.rights:
            other = PIPS[t] - pip
            line.append(text[pip][other])
            pip = other
        return line

    def snapshot(self) -> dict[str, object]:
        return {
            "shape": "line",
            "line": self.line_text(),
            "lead": len(self.lefts),  # the lead's index in ``line``: the tiles laid at L lie left of it
            "ends": {"L": self.left, "R": self.right} if self.first is not None else {},
            "count": self.count(),
        }

    def __repr__(self) -> str:
        return f"LineLayout('{' '.join(str(p) for p in self.placed())}')"
