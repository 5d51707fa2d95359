"""Tiles of the double-six set, as data.

A tile is one of 28 values. Inside the engine a tile is a plain ``int`` index
(0..27) and a set of tiles is an ``int`` bitmask; :class:`Tile` is the thin,
interned, friendly object used at the edges (notation, records, views).

>>> Tile.parse("6-4")
Tile.parse('6-4')
>>> Tile.parse("4-6") is Tile(6, 4)
True
>>> str(Tile(3, 5)), Tile(3, 5).pips, Tile(5, 5).is_double
('5-3', 8, True)
>>> [str(t) for t in tiles_of(NUMBER_MASK[0] & DOUBLE_MASK)]
['0-0']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

__all__ = [
    "ALL_TILES_MASK",
    "DOUBLE_MASK",
    "HIGH",
    "IS_DOUBLE",
    "LOW",
    "LOW_ORDER",
    "NUMBER_MASK",
    "PIPS",
    "START_ORDER",
    "TILES",
    "Tile",
    "TileError",
    "indices_of",
    "mask_of",
    "pips_of",
    "tile_index",
    "tiles_of",
]


class TileError(ValueError):
    """A tile that cannot be understood, such as ``7-1`` or ``66``."""


def tile_index(a: int, b: int) -> int:
    """Index (0..27) of the tile with halves ``a`` and ``b``, in either order.

    >>> tile_index(0, 0), tile_index(1, 0), tile_index(0, 1), tile_index(6, 6)
    (0, 1, 1, 27)
    """
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise TileError(f"tile halves must be 0..6, got {a}-{b}")
    hi, lo = (a, b) if a >= b else (b, a)
    return hi * (hi + 1) // 2 + lo


# Plain data, indexed by tile index: the hot path uses only these.
HIGH: Final[tuple[int, ...]] = tuple(hi for hi in range(7) for lo in range(hi + 1))
LOW: Final[tuple[int, ...]] = tuple(lo for hi in range(7) for lo in range(hi + 1))
PIPS: Final[tuple[int, ...]] = tuple(h + lo for h, lo in zip(HIGH, LOW, strict=True))
IS_DOUBLE: Final[tuple[bool, ...]] = tuple(h == lo for h, lo in zip(HIGH, LOW, strict=True))
ALL_TILES_MASK: Final[int] = (1 << 28) - 1
#: Bitmask of the 7 tiles that carry the number ``n`` (0..6).
NUMBER_MASK: Final[tuple[int, ...]] = tuple(sum(1 << t for t in range(28) if n in (HIGH[t], LOW[t])) for n in range(7))
DOUBLE_MASK: Final[int] = sum(1 << t for t in range(28) if IS_DOUBLE[t])


class Tile:
    """One of the 28 tiles; interned, so ``Tile(6, 4) is Tile(4, 6)``.

    ``str`` writes the higher half first, as records do.
    """

    __slots__ = ("high", "index", "low")
    index: int
    high: int
    low: int

    _interned: dict[int, Tile] = {}  # noqa: RUF012 - class-level intern table

    def __new__(cls, a: int, b: int) -> Tile:
        idx = tile_index(a, b)
        tile = cls._interned.get(idx)
        if tile is None:
            tile = object.__new__(cls)
            object.__setattr__(tile, "index", idx)
            object.__setattr__(tile, "high", HIGH[idx])
            object.__setattr__(tile, "low", LOW[idx])
            cls._interned[idx] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    @classmethod
    def from_index(cls, index: int) -> Tile:
        """The tile with engine index ``index`` (0..27)."""
        return TILES[index]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``a-b`` (0 ≤ a, b ≤ 6), in either order.

        >>> Tile.parse(" 0-6 ")
        Tile.parse('6-0')
        >>> Tile.parse("7-1")
        Traceback (most recent call last):
        ...
        capicua.rules.tiles.TileError: not a tile: '7-1' (write it a-b with 0 <= a, b <= 6)
        """
        a, b = parse_halves(text)
        return cls(a, b)

    @property
    def pips(self) -> int:
        """Sum of both halves."""
        return PIPS[self.index]

    @property
    def is_double(self) -> bool:
        """A double (carroça / doble)."""
        return IS_DOUBLE[self.index]

    @property
    def mask(self) -> int:
        """This tile as a one-bit mask."""
        return 1 << self.index

    def has(self, number: int) -> bool:
        """Whether either half is ``number``."""
        return number in (self.high, self.low)

    def other(self, number: int) -> int:
        """The half opposite ``number`` (``number`` itself for a double)."""
        if not self.has(number):
            raise TileError(f"{self} has no {number}")
        return self.high + self.low - number

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile.parse('{self}')"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other


def parse_halves(text: str) -> tuple[int, int]:
    """Parse ``a-b`` into its two halves in the written order.

    >>> parse_halves("4-6")
    (4, 6)
    """
    s = text.strip()
    if len(s) == 3 and s[1] == "-" and s[0] in "0123456" and s[2] in "0123456":
        return int(s[0]), int(s[2])
    raise TileError(f"not a tile: {text!r} (write it a-b with 0 <= a, b <= 6)")


TILES: Final[tuple[Tile, ...]] = tuple(Tile(HIGH[i], LOW[i]) for i in range(28))


def mask_of(tiles: Iterable[Tile | int]) -> int:
    """Bitmask of some tiles (``Tile`` objects or indices)."""
    m = 0
    for t in tiles:
        m |= 1 << (t if isinstance(t, int) else t.index)
    return m


def tiles_of(mask: int) -> Iterator[Tile]:
    """The tiles of a bitmask, in index order (0-0, 1-0, 1-1, 2-0, …)."""
    while mask:
        low = mask & -mask
        yield TILES[low.bit_length() - 1]
        mask ^= low


# Tile indices of each 14-bit half of a mask, precomputed once so that listing
# the tiles of a hand is two lookups and a concatenation.
_LO14: Final = tuple(tuple(t for t in range(14) if m >> t & 1) for m in range(1 << 14))
_HI14: Final = tuple(tuple(t + 14 for t in range(14) if m >> t & 1) for m in range(1 << 14))
_PIPS_LO14: Final = tuple(sum(PIPS[t] for t in ts) for ts in _LO14)
_PIPS_HI14: Final = tuple(sum(PIPS[t] for t in ts) for ts in _HI14)


def indices_of(mask: int) -> tuple[int, ...]:
    """The tile indices of a bitmask, ascending (the hot-path form of :func:`tiles_of`).

    >>> indices_of(0b1011)
    (0, 1, 3)
    """
    return _LO14[mask & 0x3FFF] + _HI14[mask >> 14]


def pips_of(mask: int) -> int:
    """Sum of the pips of the tiles in ``mask``.

    >>> pips_of(Tile(6, 6).mask | Tile(1, 0).mask)
    13
    """
    return _PIPS_LO14[mask & 0x3FFF] + _PIPS_HI14[mask >> 14]


def _order(text: str, sep: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(item.replace(":", "-")) for item in text.split(sep))


#: The seed's start order (individual.pt.txt, B2): the first tile present leads.
START_ORDER: Final[tuple[Tile, ...]] = _order(
    "6:6 > 5:5 > 4:4 > 3:3 > 2:2 > 1:1 > 0:0 > 5:6 > 4:6 > 3:6 > 4:5 > 2:6 > 3:5 > 1:6 > 2:5 > 3:4"
    " > 0:6 > 1:5 > 2:4 > 0:5 > 1:4 > 2:3 > 0:4 > 1:3 > 0:3 > 1:2 > 0:2 > 0:1",
    ">",
)
#: The seed's low order for the last tie-break of a blocked round (B4): lowest first.
LOW_ORDER: Final[tuple[Tile, ...]] = _order(
    "0:0 < 0:1 < 0:2 < 1:1 < 0:3 < 1:2 < 0:4 < 1:3 < 2:2 < 0:5 < 1:4 < 2:3 < 0:6 < 1:5 < 2:4 < 3:3"
    " < 1:6 < 2:5 < 3:4 < 2:6 < 3:5 < 4:4 < 3:6 < 4:5 < 4:6 < 5:5 < 5:6 < 6:6",
    "<",
)
