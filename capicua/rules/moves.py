"""Moves and their text notation (``6-4 W``, ``pass``, ``galo``…).

Every possible move has an ``int`` code and one interned :class:`Move` object,
so the engine hands out and compares moves without allocating.

>>> Move.parse("6-4 W galo")
Move.parse('6-4 W galo')
>>> m = Move.parse("4-6 w")
>>> m.tile, m.end, m.galo, str(m)
(Tile.parse('6-4'), 'W', False, '6-4 W')
>>> Move.parse("pass") is PASS
True
>>> Move.parse("4-6"), Move.parse("6-4")
(Move.parse('4-6'), Move.parse('6-4'))

An action is a seat with a move, written ``<seat>: <move>`` in records:

>>> parse_action("2: 6-2 E")
(2, Move.parse('6-2 E'))
>>> format_action(2, Move.parse("6-2 E"))
'2: 6-2 E'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar, Final

from capicua.rules.tiles import HIGH, LOW, TILES, Tile, TileError, parse_halves, tile_index

__all__ = [
    "ANNOUNCE",
    "CLAIM",
    "DRAW",
    "END_NAMES",
    "GALO",
    "KEEP",
    "LEAD",
    "LEAD_REVERSED",
    "MOVES",
    "PASS",
    "REDEAL",
    "TIME",
    "Action",
    "E",
    "L",
    "Move",
    "MoveError",
    "N",
    "R",
    "RefereeAction",
    "S",
    "W",
    "format_action",
    "parse_action",
    "play_code",
]


class MoveError(ValueError):
    """Text that is not a move, or a move the position does not allow."""


# End codes. W, E, N, S are the arms of the spinner layout (A1); L, R the ends
# of a line (C1). LEAD is the first tile of a hand; on a line a non-double lead
# lies as written, so LEAD puts the tile's high half at L and LEAD_REVERSED its
# low half.
W: Final = 0
E: Final = 1
N: Final = 2
S: Final = 3
L: Final = 4
R: Final = 5
LEAD: Final = 6
LEAD_REVERSED: Final = 7
END_NAMES: Final[tuple[str | None, ...]] = ("W", "E", "N", "S", "L", "R", None, None)
_END_CODES: Final[dict[str, int]] = {"W": W, "E": E, "N": N, "S": S, "L": L, "R": R}


def play_code(tile: int, end: int, galo: bool = False) -> int:
    """Code of playing tile index ``tile`` on end code ``end``."""
    return (tile << 4) | (end << 1) | galo


PLAY_CODES: Final = 28 * 16
_SIMPLE: Final[tuple[str, ...]] = ("pass", "draw", "galo", "announce", "redeal", "keep", "claim", "time")


class Move:
    """A move: a play (tile, end, optional galo call) or one of the word moves.

    Moves are interned: build them with :meth:`parse`, :meth:`play` or the
    module constants, and compare them with ``==`` or ``is``.
    """

    __slots__ = ("code", "end", "end_code", "galo", "kind", "tile")
    code: int
    kind: str
    tile: Tile | None
    end: str | None
    end_code: int
    galo: bool

    def __init__(self, code: int) -> None:
        self.code = code
        if code < PLAY_CODES:
            self.kind = "play"
            self.tile = TILES[code >> 4]
            self.end_code = (code >> 1) & 7
            self.end = END_NAMES[self.end_code]
            self.galo = bool(code & 1)
        else:
            self.kind = _SIMPLE[code - PLAY_CODES]
            self.tile = None
            self.end_code = -1
            self.end = None
            self.galo = False

    @staticmethod
    def from_code(code: int) -> Move:
        """The interned move with this code."""
        return MOVES[code]

    @staticmethod
    def play(tile: Tile, end: str | None = None, galo: bool = False, reversed: bool = False) -> Move:
        """Play ``tile`` on ``end`` (``None`` for the lead; ``reversed`` puts the low half at L).

        >>> Move.play(Tile(6, 6))
        Move.parse('6-6')
        >>> Move.play(Tile(6, 3), "W", galo=True)
        Move.parse('6-3 W galo')
        """
        if end is None:
            end_code = LEAD_REVERSED if reversed and not tile.is_double else LEAD
        else:
            try:
                end_code = _END_CODES[end.upper()]
            except KeyError:
                raise MoveError(f"unknown end {end!r} (ends are W, E, N, S or L, R)") from None
        return MOVES[play_code(tile.index, end_code, galo)]

    @staticmethod
    def parse(text: str) -> Move:
        """Parse a move in record notation.

        A play is ``a-b``, optionally followed by an end and by ``galo``; a lead
        written with its lower half first (``4-6``) is the reversed lead.

        >>> Move.parse("6-6 galo")
        Move.parse('6-6 galo')
        >>> Move.parse("6-4 X")
        Traceback (most recent call last):
        ...
        capicua.rules.moves.MoveError: not a move: '6-4 X' (unknown end 'X'; ends are W, E, N, S, L, R)
        """
        words = text.split()
        if not words:
            raise MoveError("empty move")
        first = words[0].lower()
        if len(words) == 1 and first in _SIMPLE:
            return MOVES[PLAY_CODES + _SIMPLE.index(first)]
        try:
            a, b = parse_halves(words[0])
        except TileError:
            raise MoveError(f"not a move: {text!r}") from None
        rest = words[1:]
        galo = False
        if rest and rest[-1].lower() == "galo":
            galo = True
            rest = rest[:-1]
        if len(rest) > 1:
            raise MoveError(f"not a move: {text!r} (expected 'a-b [END] [galo]')")
        idx = tile_index(a, b)
        if rest:
            end_name = rest[0].upper()
            if end_name not in _END_CODES:
                raise MoveError(f"not a move: {text!r} (unknown end {rest[0]!r}; ends are W, E, N, S, L, R)")
            end_code = _END_CODES[end_name]
        else:
            end_code = LEAD_REVERSED if a < b else LEAD
        return MOVES[play_code(idx, end_code, galo)]

    @property
    def is_play(self) -> bool:
        return self.code < PLAY_CODES

    @property
    def is_lead(self) -> bool:
        """A play written without an end (the hand's first tile, or an end to be inferred)."""
        return self.end_code >= LEAD

    def without_galo(self) -> Move:
        return MOVES[self.code & ~1] if self.code < PLAY_CODES else self

    def with_galo(self) -> Move:
        if self.code >= PLAY_CODES:
            raise MoveError(f"galo is called with a play, not with {self}")
        return MOVES[self.code | 1]

    def with_end(self, end: int) -> Move:
        """The same play on end code ``end``."""
        return MOVES[(self.code & ~0b1110) | (end << 1)]

    def __str__(self) -> str:
        if self.code >= PLAY_CODES:
            return self.kind
        t = self.code >> 4
        if self.end_code == LEAD_REVERSED:
            text = f"{LOW[t]}-{HIGH[t]}"
        else:
            text = f"{HIGH[t]}-{LOW[t]}"
        if self.end is not None:
            text += " " + self.end
        if self.galo:
            text += " galo"
        return text

    def __repr__(self) -> str:
        return f"Move.parse('{self}')"

    def __hash__(self) -> int:
        return self.code

    def __eq__(self, other: object) -> bool:
        return self is other

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Move.from_code, (self.code,))


#: Every move, indexed by code. Reversed leads of doubles are not distinct moves.
MOVES: Final[tuple[Move, ...]] = tuple(Move(c) for c in range(PLAY_CODES + len(_SIMPLE)))
PASS: Final = MOVES[PLAY_CODES + 0]
DRAW: Final = MOVES[PLAY_CODES + 1]
GALO: Final = MOVES[PLAY_CODES + 2]
ANNOUNCE: Final = MOVES[PLAY_CODES + 3]
REDEAL: Final = MOVES[PLAY_CODES + 4]
KEEP: Final = MOVES[PLAY_CODES + 5]
CLAIM: Final = MOVES[PLAY_CODES + 6]
TIME: Final = MOVES[PLAY_CODES + 7]


REFEREE_DECISIONS: Final = ("fine", "score", "annul", "award", "touch")


@dataclass(frozen=True)
class RefereeAction:
    """A table referee's decision (C8), written ``ref(NAME): DECISION ARGS "REASON"``.

    ``fine SEAT POINTS``: POINTS to SEAT's opponents (C6); ``score SIDE POINTS``:
    correct a score (POINTS may be negative; SIDE is a team or, in individual play,
    a seat); ``annul``: annul the hand in play (C4, C8); ``award SIDE``: award the
    match; ``touch SEAT TILE``: SEAT touched or exposed TILE (C7). The reason is a
    JSON string.

    >>> a = RefereeAction.parse('ref(Juan Pérez): fine 2 20 "hand signal to partner"')
    >>> a.referee, a.decision, a.seat, a.points, a.reason
    ('Juan Pérez', 'fine', 2, 20, 'hand signal to partner')
    >>> str(a)
    'ref(Juan Pérez): fine 2 20 "hand signal to partner"'
    """

    referee: str
    decision: str
    seat: int | None = None
    points: int | None = None
    tile: Tile | None = None
    reason: str = ""

    code: ClassVar[int] = 1000  # never a Move code
    kind: ClassVar[str] = "referee"
    galo: ClassVar[bool] = False
    is_play: ClassVar[bool] = False

    @staticmethod
    def parse(text: str) -> RefereeAction:
        head, sep, rest = text.partition("):")
        if not head.startswith("ref(") or not sep:
            raise MoveError(f"not a referee action: {text!r} (write 'ref(NAME): DECISION ... \"REASON\"')")
        referee = head[4:].strip()
        if not referee:
            raise MoveError(f"referee action without the referee's name: {text!r}")
        rest = rest.strip()
        quote = rest.find('"')
        if quote < 0:
            raise MoveError(f'referee action without a reason: {text!r} (add it as "...")')
        try:
            reason = json.loads(rest[quote:])
        except ValueError:
            raise MoveError(f"referee action with a badly quoted reason: {text!r}") from None
        if not isinstance(reason, str) or not reason.strip():
            raise MoveError(f"referee action with an empty reason: {text!r}")
        words = rest[:quote].split()
        if not words or words[0] not in REFEREE_DECISIONS:
            raise MoveError(f"unknown referee decision in {text!r} (one of {', '.join(REFEREE_DECISIONS)})")
        decision, args = words[0], words[1:]
        shapes = {"fine": "nn", "score": "nn", "annul": "", "award": "n", "touch": "nt"}
        shape = shapes[decision]
        if len(args) != len(shape):
            raise MoveError(f"referee {decision} takes {len(shape)} argument(s): {text!r}")
        seat = points = None
        tile = None
        try:
            for kind, arg in zip(shape, args, strict=True):
                if kind == "t":
                    tile = Tile.parse(arg)
                elif seat is None:
                    seat = int(arg)
                else:
                    points = int(arg)
        except (ValueError, TileError):
            raise MoveError(f"bad argument in referee action {text!r}") from None
        return RefereeAction(referee, decision, seat, points, tile, reason)

    def __str__(self) -> str:
        args = [self.decision]
        if self.seat is not None:
            args.append(str(self.seat))
        if self.points is not None:
            args.append(str(self.points))
        if self.tile is not None:
            args.append(str(self.tile))
        return f"ref({self.referee}): {' '.join(args)} {json.dumps(self.reason, ensure_ascii=False)}"


#: Anything a record's action line holds.
Action = Move | RefereeAction


def parse_action(text: str) -> tuple[int | None, Move | RefereeAction]:
    """Parse ``<seat>: <move>``; the seat ``-`` (the table itself, for ``time``) gives ``None``,
    and so does a referee's decision (``ref(NAME): …``).

    >>> parse_action("-: time")
    (None, Move.parse('time'))
    >>> parse_action("6-4")
    Traceback (most recent call last):
    ...
    capicua.rules.moves.MoveError: not an action: '6-4' (write '<seat>: <move>')
    """
    if text.lstrip().startswith("ref("):
        return None, RefereeAction.parse(text.strip())
    seat_text, sep, move_text = text.partition(":")
    if not sep:
        raise MoveError(f"not an action: {text!r} (write '<seat>: <move>')")
    seat_text = seat_text.strip()
    if seat_text == "-":
        seat = None
    elif len(seat_text) == 1 and "0" <= seat_text <= "9":  # an ASCII digit ('²' and '٣' are digits too)
        seat = int(seat_text)
    else:
        raise MoveError(f"not an action: {text!r} (bad seat {seat_text!r})")
    return seat, Move.parse(move_text)


def format_action(seat: int | None, move: Move | RefereeAction) -> str:
    """Write an action as records do."""
    if isinstance(move, RefereeAction):
        return str(move)
    return f"{'-' if seat is None else seat}: {move}"
