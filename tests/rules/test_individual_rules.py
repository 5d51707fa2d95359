"""Individual dominoes: one test per rule sentence of the seed, and tests for each decision B1–B6.

The seed is ``shared/seeds/individual.pt.txt``; the decisions are section B of
``shared/rules/README.md``. Tests named ``test_seed_…`` quote the sentence they check; tests named
``test_B<n>_…`` check decision B<n>; ``test_view_…`` check what a seat may see. Every round is dealt
by hand (7 tiles a seat, the rest in the boneyard in drawing order, all 28 tiles once) and played
with explicit actions written as in records (``"<seat>: <move>"``).

Not tested here: the last two sentences of the seed are not rules of the game, and the rules engine
has nothing to check for them. They are decisions B7, B8 and D5 of the ratings layer
(``capicua/service/ratings/points.py``, tested in ``tests/service/test_ranking.py``):
- "Ao fim do jogo, o fluxo de pontos de ranking debita de cada jogador derrotado e soma ao único
  vencedor. A fórmula de pontuação é diferente, conforme página de ranking." (B7, D5)
- "No caso de partida com apenas 2 jogadores, existe o limite de ganho de pontos por partidas
  repetidas." (B8, D5)

Notation: a play is ``a-b L`` or ``a-b R`` (the ends of the line, C1); the lead has no end and lies
as written (``4-6``: 4 at L, 6 at R). "Ends (x, y)" below means L shows x and R shows y.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import pytest

from capicua.rules import (
    DRAW,
    LOW_ORDER,
    PASS,
    START_ORDER,
    IllegalMoveError,
    Match,
    Move,
    MoveError,
    Score,
    Tile,
    variants,
)
from capicua.rules.individual import IndividualHand, highest_tile_holder
from capicua.rules.moves import format_action, parse_action

# -- helpers ---------------------------------------------------------------------------------------

#: The seed's two orders, copied from individual.pt.txt.
SEED_START_ORDER = (
    "6:6 > 5:5 > 4:4 > 3:3 > 2:2 > 1:1 > 0:0 > 5:6 > 4:6 > 3:6 > 4:5 > 2:6 > 3:5 > 1:6 > 2:5 > 3:4 > 0:6 > 1:5"
    " > 2:4 > 0:5 > 1:4 > 2:3 > 0:4 > 1:3 > 0:3 > 1:2 > 0:2 > 0:1"
)
SEED_LOW_ORDER = (
    "0:0 < 0:1 < 0:2 < 1:1 < 0:3 < 1:2 < 0:4 < 1:3 < 2:2 < 0:5 < 1:4 < 2:3 < 0:6 < 1:5 < 2:4 < 3:3 < 1:6 < 2:5"
    " < 3:4 < 2:6 < 3:5 < 4:4 < 3:6 < 4:5 < 4:6 < 5:5 < 5:6 < 6:6"
)


def tiles(text: str) -> list[Tile]:
    """``"6-6 5-4"`` → the tiles, in order."""
    return [Tile.parse(t) for t in text.split()]


def names(text: str) -> set[str]:
    """A set of tiles written as the engine writes them (higher half first)."""
    return {str(t) for t in tiles(text)}


def held(hand: IndividualHand, seat: int) -> set[str]:
    return {str(t) for t in hand.tiles(seat)}


def dealt(seats: Sequence[str], boneyard: str = "") -> tuple[list[list[Tile]], list[Tile]]:
    """The seats' tiles and the boneyard in drawing order; checks B1 (7 a seat, all 28 tiles once)."""
    hands = [tiles(seat) for seat in seats]
    bone = tiles(boneyard)
    assert 2 <= len(hands) <= 4 and all(len(h) == 7 for h in hands)
    assert len(bone) == 28 - 7 * len(hands)
    assert len({*bone, *(t for h in hands for t in h)}) == 28
    return hands, bone


def hand_of(seats: Sequence[str], boneyard: str = "", leader: int | None = None) -> IndividualHand:
    hands, bone = dealt(seats, boneyard)
    return IndividualHand(hands, bone, leader)


def shift(seats: Sequence[str], k: int) -> tuple[str, ...]:
    """The same deal with every seat's tiles moved ``k`` seats on (seat s's tiles go to seat s+k)."""
    n = len(seats)
    return tuple(seats[(s - k) % n] for s in range(n))


def actions(text: str) -> list[tuple[int, Move]]:
    """Parse ``"0: 6-6, 1: draw"`` (commas or newlines between actions)."""
    out = []
    for item in text.replace("\n", ",").split(","):
        if item.strip():
            seat, move = parse_action(item)
            assert seat is not None and isinstance(move, Move)
            out.append((seat, move))
    return out


def shift_actions(text: str, k: int, n: int = 4) -> str:
    """The same actions made by the seats ``k`` places on (to replay a :func:`shift`-ed deal)."""
    return ", ".join(format_action((seat + k) % n, move) for seat, move in actions(text))


def play(hand: IndividualHand, text: str) -> IndividualHand:
    for seat, move in actions(text):
        hand.push(move, seat)
    return hand


def play_in_match(match: Match, seats: Sequence[str], text: str, boneyard: str = "") -> IndividualHand:
    """Deal ``seats`` as the match's next round and play ``text`` through ``match.push``."""
    hands, bone = dealt(seats, boneyard)
    hand = match.deal(hands, bone)
    assert isinstance(hand, IndividualHand)
    for seat, move in actions(text):
        match.push(move, seat)
    return hand


def state(hand: IndividualHand) -> Any:
    """Everything a rejected move must leave unchanged."""
    return (
        repr(hand),
        list(hand.points),
        len(hand.history),
        list(hand.scores),
        hand.turn,
        hand.end,
        hand.winner,
        hand.boneyard,
        [hand.legal_moves_for(s) for s in range(hand.seats)],
    )


def assert_rejected(hand: IndividualHand, text: str) -> None:
    """``text`` (``"<seat>: <move>"``) raises IllegalMoveError and changes nothing."""
    before = state(hand)
    [(seat, move)] = actions(text)
    with pytest.raises(IllegalMoveError):
        hand.push(move, seat)
    assert state(hand) == before


def legal(hand: IndividualHand, seat: int | None = None) -> set[str]:
    return {str(m) for m in hand.legal_moves_for(hand.turn if seat is None else seat)}


def ends(hand: IndividualHand) -> tuple[int, int]:
    """The pips shown at L and at R."""
    snapshot = hand.view(None).layout
    return snapshot["ends"]["L"], snapshot["ends"]["R"]


def tiles_in(obj: object) -> set[Tile]:
    """Every tile named anywhere in ``obj`` (a view): Tile objects, moves, and ``a-b`` strings."""
    if isinstance(obj, Tile):
        return {obj}
    if isinstance(obj, Move):
        return {obj.tile} if obj.tile is not None else set()
    if isinstance(obj, str):
        return {Tile.parse(obj)} if re.fullmatch(r"[0-6]-[0-6]", obj) else set()
    if isinstance(obj, dict):
        return {t for k, v in obj.items() for t in tiles_in(k) | tiles_in(v)}
    if isinstance(obj, (tuple, list)):
        return {t for item in obj for t in tiles_in(item)}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {t for f in dataclasses.fields(obj) for t in tiles_in(getattr(obj, f.name))}
    return set()


# -- deals -----------------------------------------------------------------------------------------

#: 2 players. Seat 0 holds the seven doubles, seat 1 no 5 and no 6 but 6-5. DOUBLES_PLAY: seat 0 leads
#: 6-6 and lays a double on L each turn; seat 1 answers on L: 6-5, then (ends 5, 6, nothing fits) draws
#: 4-2 (does not fit) and 5-4 (fits L) and plays it, then 4-3, 3-2, 2-1, 1-0. Seat 0 goes out with 0-0
#: at action 15; seat 1 is left with 3-1 4-0 and the drawn 4-2: 4 + 4 + 6 = 14 pips.
DOUBLES = ("6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 4-3 3-2 2-1 1-0 3-1 4-0")
DOUBLES_BONEYARD = "4-2 5-4 6-4 6-3 6-2 6-1 6-0 5-3 5-2 5-1 5-0 4-1 3-0 2-0"
DOUBLES_PLAY = (
    "0: 6-6, 1: 6-5 L, 0: 5-5 L, 1: draw, 1: draw, 1: 5-4 L, 0: 4-4 L, 1: 4-3 L, 0: 3-3 L, 1: 3-2 L,"
    " 0: 2-2 L, 1: 2-1 L, 0: 1-1 L, 1: 1-0 L"
)
DOUBLES_LAST = "0: 0-0 L"
#: DOUBLES with seat 1's hidden tiles and the boneyard changed where seat 0 cannot see: seat 1's
#: spare 3-1 4-0 become 3-0 2-0, his first draw is 4-1 instead of 4-2 (DOUBLES_PLAY still fits).
DOUBLES_TWIN = ("6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 4-3 3-2 2-1 1-0 3-0 2-0")
DOUBLES_TWIN_BONEYARD = "4-1 5-4 6-4 6-3 6-2 6-1 6-0 5-3 5-2 5-1 5-0 4-2 3-1 4-0"

#: 2 players. Seat 0 holds all seven 6s; seat 1 and the boneyard hold no 6. After 6-6 seat 1 draws
#: all 14 tiles (none fits 6), then must pass; seat 0 plays on.
ALL_SIXES = ("6-6 6-5 6-4 6-3 6-2 6-1 6-0", "0-0 1-0 1-1 2-0 2-1 2-2 3-0")
ALL_SIXES_BONEYARD = "3-1 3-2 3-3 4-0 4-1 4-2 4-3 4-4 5-0 5-1 5-2 5-3 5-4 5-5"

#: 2 players. The only double dealt is 0-0 (the other six are in the boneyard), so seat 0 leads it.
#: ZERO_PLAY lays all seven 0s: 0-0 | 1-0 L, 2-1 L, 2-0 L | 3-0 L, 4-3 L, 4-0 L | 5-0 R, 6-5 R, 6-0 R.
#: Ends (0, 0) and every 0 is on the table: no tile can fit any more. Seat 0 (3-1 4-2 left, 10 pips)
#: must still draw the whole boneyard (106 pips: doubles 1-1…6-6 = 42, 5-1 6-1 5-2 6-2 5-3 6-3 5-4 6-4
#: = 64); the 14th draw blocks the round. Seat 1 (4-1 3-2, 10 pips) wins and scores 10 + 106 = 116.
ZERO = ("0-0 2-1 3-0 4-0 6-5 3-1 4-2", "1-0 2-0 4-3 5-0 6-0 4-1 3-2")
ZERO_BONEYARD = "1-1 2-2 3-3 4-4 5-5 6-6 5-1 6-1 5-2 6-2 5-3 6-3 5-4 6-4"
ZERO_PLAY = "0: 0-0, 1: 1-0 L, 0: 2-1 L, 1: 2-0 L, 0: 3-0 L, 1: 4-3 L, 0: 4-0 L, 1: 5-0 R, 0: 6-5 R, 1: 6-0 R"

#: 3 players; 6-6 and 5-5 are in the boneyard, so 4-4 (seat 1) leads. At action 16 (ends 0, 4) seat 1
#: has no 0 or 4: he draws 6-6 (does not fit), then 2-0 (fits L) and plays it. Seat 2 goes out with 4-0
#: at action 22; seat 0 holds 3-3 (6), seat 1 holds 5-3 and the drawn 6-6 (8 + 12 = 20); the 5 tiles
#: left in the boneyard (3-0 5-5 5-2 0-0 6-2, 28 pips) count for nobody. Seat 2 scores 6 + 20 = 26.
THREE = ("3-1 3-2 3-3 4-3 5-0 6-0 6-1", "4-2 4-4 5-1 5-3 6-3 6-4 6-5", "1-0 1-1 2-1 2-2 4-0 4-1 5-4")
THREE_BONEYARD = "6-6 2-0 3-0 5-5 5-2 0-0 6-2"
THREE_PLAY = """
    1: 4-4, 2: 5-4 L, 0: 5-0 L, 1: 4-2 R, 2: 2-1 R, 0: 6-1 R, 1: 6-5 R, 2: 1-0 L,
    0: 3-1 L, 1: 5-1 R, 2: 1-1 R, 0: 4-3 L, 1: 6-4 L, 2: 4-1 R, 0: 6-0 L,
    1: draw, 1: draw, 1: 2-0 L, 2: 2-2 L, 0: 3-2 L, 1: 6-3 L,
"""
THREE_LAST = "2: 4-0 R"

#: 3 players; seat 1 leads 6-6. Seat 2 draws once (6-4 fits), later three times (1-1 5-4 fit no end
#: (6, 6); 6-5 does); seat 1 draws the last three tiles (5-3 3-3 do not fit (6, 0); 6-0, the draw that
#: empties the boneyard, fits, so the round goes on) and plays 6-0 R: ends (6, 6) with all seven 6s on
#: the table, boneyard empty: blocked by seat 1. Left: seat 0 0-0 1-0 2-0 4-4 (11), seat 1 2-1 3-3 4-1
#: 5-1 5-3 5-5 (38), seat 2 1-1 2-2 3-0 3-2 4-0 4-3 5-2 5-4 (41). Seat 0 wins, 38 + 41 = 79.
THREE_TRANCA = ("0-0 1-0 2-0 4-2 4-4 5-0 6-2", "2-1 4-1 5-1 5-5 6-1 6-3 6-6", "2-2 3-0 3-1 3-2 4-0 4-3 5-2")
THREE_TRANCA_BONEYARD = "6-4 1-1 5-4 6-5 5-3 3-3 6-0"
THREE_TRANCA_PLAY = """
    1: 6-6, 2: draw, 2: 6-4 R, 0: 4-2 R, 1: 6-1 L, 2: 3-1 L, 0: 6-2 R, 1: 6-3 L,
    2: draw, 2: draw, 2: draw, 2: 6-5 R, 0: 5-0 R, 1: draw, 1: draw, 1: draw,
"""
THREE_TRANCA_LAST = "1: 6-0 R"

#: 3 players; seat 1 leads 6-6. Seat 2 draws three times (4-2 5-4, then 6-1 fits) and later three more
#: (3-2 5-5, then 5-1 fits). Seat 0's 6-5 R (action 18) leaves ends (6, 6) with all seven 6s on the table,
#: but 2-2 is still in the boneyard: seat 1 must draw it, and that draw, emptying the boneyard with nobody
#: able to play, blocks the round. Left: seat 0 1-0 4-1 4-4 (14), seat 1 0-0 2-2 3-0 4-3 (14), seat 2
#: 2-0 3-2 3-3 4-2 5-0 5-2 5-3 5-4 5-5 (58). Seats 0 and 1 tie at 14; the blocker is seat 0, who made the
#: last play, not seat 1, who drew: seat 1 wins 14 + 58 = 72.
DRAWN_TIE = ("1-0 2-1 4-1 4-4 6-0 6-4 6-5", "0-0 1-1 3-0 3-1 4-3 6-3 6-6", "2-0 3-3 4-0 5-0 5-2 5-3 6-2")
DRAWN_TIE_BONEYARD = "4-2 5-4 6-1 3-2 5-5 5-1 2-2"
DRAWN_TIE_PLAY = """
    1: 6-6, 2: 6-2 R, 0: 2-1 R, 1: 1-1 R, 2: draw, 2: draw, 2: draw, 2: 6-1 R, 0: 6-4 L, 1: 6-3 R,
    2: 4-0 L, 0: 6-0 L, 1: 3-1 R, 2: draw, 2: draw, 2: draw, 2: 5-1 R, 0: 6-5 R, 1: draw
"""

#: 4 players; seat 1 leads 6-6 and goes out at action 25 with 6-2 L. That last play also closes the
#: line: ends (6, 6) and all seven 6s are on the table (6-6 6-4 6-5 6-0 6-1 6-3 6-2), so nobody could
#: play on; it is still a batida. Left: seat 0 3-0 4-2 4-4 (17), seat 2 2-1 3-2 4-0 4-1 (17), seat 3
#: 2-2 5-2 5-4 (20). Seat 1 scores 17 + 17 + 20 = 54.
BATIDA_BLOCK = (
    "1-1 2-0 3-0 4-2 4-4 6-0 6-5",
    "4-3 5-0 5-5 6-1 6-2 6-3 6-6",
    "0-0 2-1 3-1 3-2 3-3 4-0 4-1",
    "1-0 2-2 5-1 5-2 5-3 5-4 6-4",
)
BATIDA_BLOCK_PLAY = """
    1: 6-6, 2: pass, 3: 6-4 R, 0: 6-5 L, 1: 4-3 R, 2: 3-1 R, 3: 1-0 R, 0: 6-0 R,
    1: 5-5 L, 2: pass, 3: 5-1 L, 0: 1-1 L, 1: 6-1 L, 2: pass, 3: pass, 0: pass,
    1: 6-3 L, 2: 3-3 L, 3: 5-3 L, 0: pass, 1: 5-0 L, 2: 0-0 L, 3: pass, 0: 2-0 L,
"""
BATIDA_BLOCK_LAST = "1: 6-2 L"

# Tranca deals (4 players). They share TRANCA_PLAY: 10 plays, no pass, seats 0 1 2 3 0 1 2 3 0 1:
#   6-6 | 6-1 L, 2-1 L, 6-2 L | 6-3 L, 4-3 L, 6-4 L | 6-5 R, 5-0 R, 6-0 R
# ends (6,6) | (1,6) (2,6) (6,6) | (3,6) (4,6) (6,6) | (6,5) (6,0) (6,6). After the 10th play, by seat 1,
# all seven 6s are on the table: blocked by seat 1. The seats' played tiles are fixed: seat 0 6-6 6-3
# 5-0, seat 1 6-1 4-3 6-0, seat 2 2-1 6-4, seat 3 6-2 6-5; the 18 tiles left in hand (4, 4, 5 and 5)
# always hold 90 pips, split differently in each deal to give each tie-break.
TRANCA_PLAY = "0: 6-6, 1: 6-1 L, 2: 2-1 L, 3: 6-2 L, 0: 6-3 L, 1: 4-3 L, 2: 6-4 L, 3: 6-5 R, 0: 5-0 R, 1: 6-0 R"
#: Left: 0: 0-0 5-5 4-4 5-4 (27), 1: 1-0 2-0 1-1 3-0 (8), 2: 2-2 3-3 4-0 3-1 5-3 (26), 3: 4-1 5-1 3-2 4-2
#: 5-2 (29). The blocker, seat 1, has the lowest sum and wins 27 + 26 + 29 = 82 (0-0 is seat 0's).
TRANCA_LOWEST = (
    "6-6 6-3 5-0 0-0 5-5 4-4 5-4",
    "6-1 4-3 6-0 1-0 2-0 1-1 3-0",
    "2-1 6-4 2-2 3-3 4-0 3-1 5-3",
    "6-2 6-5 4-1 5-1 3-2 4-2 5-2",
)
#: Left: 0: 4-4 5-3 5-2 3-0 (26), 1: 0-0 5-5 3-3 4-0 (20), 2: 1-0 2-0 1-1 4-2 5-4 (20), 3: 2-2 3-1 4-1
#: 5-1 3-2 (24). Seats 1 and 2 tie at 20; seat 1 blocked, so seat 2 wins 26 + 20 + 24 = 70, although
#: seat 1 holds the lowest tile, 0-0.
TRANCA_TIE_BLOCKER = (
    "6-6 6-3 5-0 4-4 5-3 5-2 3-0",
    "6-1 4-3 6-0 0-0 5-5 3-3 4-0",
    "2-1 6-4 1-0 2-0 1-1 4-2 5-4",
    "6-2 6-5 2-2 3-1 4-1 5-1 3-2",
)
#: Left: 0: 0-0 5-5 4-4 4-2 (24), 1: 1-0 3-3 5-3 5-4 (24), 2: 2-0 3-0 4-1 3-2 5-1 (21), 3: 1-1 4-0 3-1
#: 2-2 5-2 (21). Seats 2 and 3 tie at 21 and neither blocked: the lowest tile decides. Seat 2's is 0-2,
#: seat 3's 1-1; the seed's low order puts 0:2 before 1:1 (same pips), so seat 2 wins 24 + 24 + 21 = 69.
TRANCA_TIE_LOW_TILE = (
    "6-6 6-3 5-0 0-0 5-5 4-4 4-2",
    "6-1 4-3 6-0 1-0 3-3 5-3 5-4",
    "2-1 6-4 2-0 3-0 4-1 3-2 5-1",
    "6-2 6-5 1-1 4-0 3-1 2-2 5-2",
)
#: Left: 0: 3-3 5-2 5-3 5-4 (30), 1: 0-0 5-5 4-2 4-0 (20), 2: 2-0 1-1 3-0 4-1 4-4 (20), 3: 1-0 2-2 3-1
#: 5-1 3-2 (20). Three tie at 20: seat 1 blocked and drops out; between seats 2 (lowest 0-2) and 3
#: (lowest 0-1) the low order picks seat 3, who wins 30 + 20 + 20 = 70.
TRANCA_THREE_WAY = (
    "6-6 6-3 5-0 3-3 5-2 5-3 5-4",
    "6-1 4-3 6-0 0-0 5-5 4-2 4-0",
    "2-1 6-4 2-0 1-1 3-0 4-1 4-4",
    "6-2 6-5 1-0 2-2 3-1 5-1 3-2",
)

#: Non-doubles in the seed's start order (5:6, 4:6, 3:6, 4:5, 2:6, …).
NON_DOUBLES = [t for t in START_ORDER if not t.is_double]
DOUBLE_TILES = [t for t in START_ORDER if t.is_double]


def no_double_deal(i: int) -> tuple[list[list[Tile]], list[Tile]]:
    """2 players, every double and the ``i`` highest non-doubles in the boneyard: seat 1 holds the next
    one, NON_DOUBLES[i], seat 0 the one after it, NON_DOUBLES[i + 1]; the rest are lower tiles."""
    lower = NON_DOUBLES[i + 2 :]
    fill = 7 - i
    bone = DOUBLE_TILES + NON_DOUBLES[:i] + lower[:fill]
    seat0 = [NON_DOUBLES[i + 1], *lower[fill : fill + 6]]
    seat1 = [NON_DOUBLES[i], *lower[fill + 6 :]]
    assert len(bone) == 14 and len(seat0) == len(seat1) == 7
    return [seat0, seat1], bone


# -- the seed's sentences ----------------------------------------------------------------------------


def test_seed_two_three_or_four_players_per_match() -> None:
    """'O dominó pode ser jogado por 2, 3 ou 4 jogadores por partida.'

    A match and a round take 2, 3 or 4 players; 1 and 5 are refused.
    """
    for n in (2, 3, 4):
        m = Match(variants.get("individual"), players=n)
        assert m.players == n and m.totals == [0] * n
    for n in (1, 5):
        with pytest.raises(MoveError):
            Match(variants.get("individual"), players=n)
    hands, bone = dealt(DOUBLES, DOUBLES_BONEYARD)
    with pytest.raises(ValueError):
        IndividualHand(hands[:1], bone + hands[1])  # one seat, 21 tiles in the boneyard
    with pytest.raises(ValueError):
        IndividualHand([hands[0], hands[1], bone[:7], bone[7:], []])
    assert [hand_of(s, b).seats for s, b in ((DOUBLES, DOUBLES_BONEYARD), (THREE, THREE_BONEYARD))] == [2, 3]
    assert hand_of(BATIDA_BLOCK).seats == 4


def test_seed_each_plays_for_himself_only_who_goes_out_scores_the_round() -> None:
    """'Cada jogador joga por si só, não tem dupla na mesa. Assim, só quem bate a rodada é que ganha os
    pontos desta.'

    BATIDA_BLOCK (4 players): each seat is its own side (no team 0+2 / 1+3); seat 1 goes out and scores
    54 alone: seats 0 and 2 each hold 17, fewer pips than seat 3 (20), and still score nothing.
    THREE (3 players): seat 2 goes out and is the only one to score.
    """
    hand = play(hand_of(BATIDA_BLOCK), BATIDA_BLOCK_PLAY + BATIDA_BLOCK_LAST)
    assert not hand.partnerships
    assert [hand.team(s) for s in range(4)] == [0, 1, 2, 3]
    assert hand.end == "batida" and hand.winner == 1
    assert hand.points == [0, 54, 0, 0]
    assert hand.scores == [Score(25, 1, "batida", 54, 1)]
    assert [hand.pips(s) for s in range(4)] == [17, 0, 17, 20]

    hand = play(hand_of(THREE, THREE_BONEYARD), THREE_PLAY + THREE_LAST)
    assert hand.points == [0, 0, 26] and len(hand.scores) == 1


def test_seed_each_player_takes_seven_tiles() -> None:
    """'Cada jogador no início pega igualmente sete peças.'

    Every seat starts with 7 tiles, with 2, 3 or 4 players; a seat dealt 6 or 8 is refused.
    """
    for seats, rest in ((DOUBLES, DOUBLES_BONEYARD), (THREE, THREE_BONEYARD), (BATIDA_BLOCK, "")):
        hand = hand_of(seats, rest)
        assert [len(hand.tiles(s)) for s in range(hand.seats)] == [7] * hand.seats
        assert hand.view(0).counts == (7,) * hand.seats
    hands, bone = dealt(THREE, THREE_BONEYARD)
    with pytest.raises(MoveError):
        IndividualHand([hands[0][:6], hands[1], hands[2]], [hands[0][6], *bone])  # 6 tiles, 8 in boneyard
    with pytest.raises(MoveError):
        IndividualHand([hands[0] + bone[:1], hands[1], hands[2]], bone[1:])  # 8 tiles, 6 in boneyard


def test_seed_morto_holds_the_rest_with_2_or_3_players() -> None:
    """'As que sobrarem na mesa, se forem 2 ou 3 jogadores na partida, vão para um bolo chamado "MORTO".'

    2 players: 14 tiles in the boneyard; 3 players: 7; 4 players: none. The boneyard keeps the
    drawing order it was dealt in; seats see only its size.
    """
    two = hand_of(DOUBLES, DOUBLES_BONEYARD)
    three = hand_of(THREE, THREE_BONEYARD)
    four = hand_of(BATIDA_BLOCK)
    assert [len(h.boneyard) for h in (two, three, four)] == [14, 7, 0]
    assert [h.view(0).boneyard for h in (two, three, four)] == [14, 7, 0]
    assert [Tile.from_index(t) for t in three.boneyard] == tiles(THREE_BONEYARD)
    # With 4 players there is nothing left over: a boneyard is refused.
    hands, _ = dealt(BATIDA_BLOCK)
    with pytest.raises(MoveError):
        IndividualHand([h[:6] for h in hands], [h[6] for h in hands])


def test_seed_start_order_is_the_seeds_list() -> None:
    """'… a ordem para definir que peça inicia é a seguinte: 6:6 > 5:5 > … > 0:2 > 0:1'

    The engine's START_ORDER is the seed's list: the seven doubles from 6:6 down, then the other tiles
    by pips, and between equal pips the tile with the bigger number ("maior quantidade de pontos e maior
    número": 3:6 before 4:5, 2:6 before 3:5, 1:6 before 2:5 before 3:4).
    """
    assert tuple(Tile.parse(t.strip().replace(":", "-")) for t in SEED_START_ORDER.split(">")) == START_ORDER
    assert len(set(START_ORDER)) == 28
    assert [str(t) for t in START_ORDER[:7]] == ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    for a, b in pairwise(NON_DOUBLES):
        assert (a.pips, a.high) > (b.pips, b.high)


def test_seed_round_starts_with_the_holder_of_6_6() -> None:
    """'No começo de uma rodada, se for para iniciar por quem tem a peça 6:6 …'

    DOUBLES: seat 0 holds 6-6; it is his turn and 6-6 is the only move. Moved one seat on, seat 1
    holds it and leads.
    """
    hand = hand_of(DOUBLES, DOUBLES_BONEYARD)
    assert hand.turn == 0 and hand.legal_moves == (Move.parse("6-6"),)
    assert hand.legal_moves_for(1) == []
    hand = hand_of(shift(DOUBLES, 1), DOUBLES_BONEYARD)
    assert hand.turn == 1 and hand.legal_moves == (Move.parse("6-6"),)


def test_seed_6_6_in_the_morto_the_highest_double_leads() -> None:
    """'… e nenhum dos jogadores a possui (ela está no morto), começa a rodada quem tiver a maior carroça.'

    THREE: 6-6 and 5-5 are in the boneyard; seat 1 holds 4-4, seat 0 3-3, seat 2 2-2 and 1-1: seat 1
    leads 4-4. ZERO: every double but 0-0 is in the boneyard: seat 0 leads 0-0, the lowest double,
    because any double comes before every non-double (seat 1 holds 6-0 and 5-0).
    """
    hand = hand_of(THREE, THREE_BONEYARD)
    assert hand.turn == 1 and hand.legal_moves == (Move.parse("4-4"),)
    assert_rejected(hand, "0: 3-3")
    play(hand, "1: 4-4")
    assert hand.turn == 2

    hand = hand_of(ZERO, ZERO_BONEYARD)
    assert hand.turn == 0 and hand.legal_moves == (Move.parse("0-0"),)
    assert_rejected(hand, "1: 6-0")


def test_seed_no_double_held_the_tile_with_most_pips_and_bigger_number_leads() -> None:
    """'Se ninguém tiver carroça, inicia por aquele que tiver a peça com a maior quantidade de pontos e
    maior número.'

    All seven doubles in the boneyard. First 5-6 (seat 1) against 4-6 (seat 0): seat 1 leads 5-6.
    Then 5-6 also in the boneyard, 3-6 (seat 1) against 4-5 (seat 0), both 9 pips: the bigger number,
    6, makes 3-6 lead.
    """
    hands, bone = no_double_deal(0)
    assert (str(hands[1][0]), str(hands[0][0])) == ("6-5", "6-4")
    hand = IndividualHand(hands, bone)
    assert hand.turn == 1 and legal(hand) == {"6-5", "5-6"}
    hands, bone = no_double_deal(2)
    assert (str(hands[1][0]), str(hands[0][0])) == ("6-3", "5-4")
    hand = IndividualHand(hands, bone)
    assert hand.turn == 1 and legal(hand) == {"6-3", "3-6"}
    assert_rejected(hand, "0: 5-4")


def test_seed_low_order_is_the_seeds_list() -> None:
    """'… vence aquele que tiver a menor peça, segundo a ordem abaixo. 0:0 < 0:1 < 0:2 < 1:1 < …'

    The engine's LOW_ORDER is the seed's list: by pips, and between equal pips the tile with the
    smaller number first (0:2 before 1:1, 0:4 before 1:3 before 2:2).
    """
    assert tuple(Tile.parse(t.strip().replace(":", "-")) for t in SEED_LOW_ORDER.split("<")) == LOW_ORDER
    assert len(set(LOW_ORDER)) == 28
    for a, b in pairwise(LOW_ORDER):
        assert (a.pips, a.low) < (b.pips, b.low)


def test_seed_tied_round_lowest_hand_sum_wins() -> None:
    """'No fim de uma rodada empatada, o critério de desempate dá a vitória para quem tiver a menor soma de
    pontos de peças na mão.'

    TRANCA_LOWEST: blocked after 10 plays with sums [27, 8, 26, 29]: seat 1 wins with 8 and scores
    27 + 26 + 29 = 82, although seat 0 holds the lowest tile (0-0).
    """
    hand = play(hand_of(TRANCA_LOWEST), TRANCA_PLAY)
    assert hand.end == "tranca"
    assert [hand.pips(s) for s in range(4)] == [27, 8, 26, 29]
    assert hand.winner == 1
    assert hand.points == [0, 82, 0, 0]


def test_seed_equal_sums_the_player_who_did_not_block_wins() -> None:
    """'Se a menor soma for igual entre dois jogadores, vence quem não tiver trancado.'

    TRANCA_TIE_BLOCKER: sums [26, 20, 20, 24]; seat 1 made the blocking play (6-0 R), so seat 2 wins
    and scores 26 + 20 + 24 = 70.
    """
    hand = play(hand_of(TRANCA_TIE_BLOCKER), TRANCA_PLAY)
    assert [hand.pips(s) for s in range(4)] == [26, 20, 20, 24]
    assert hand.history[-1] == (1, Move.parse("6-0 R"))
    assert hand.winner == 2
    assert hand.points == [0, 0, 70, 0]


def test_seed_neither_tied_player_blocked_the_lowest_tile_wins() -> None:
    """'Se nenhum dos dois trancou, vence aquele que tiver a menor peça, segundo a ordem abaixo.'

    TRANCA_TIE_LOW_TILE: sums [24, 24, 21, 21]; seat 1 blocked with 24. Seats 2 and 3 tie at 21: seat 2's
    lowest tile is 0-2, seat 3's is 1-1; 0:2 < 1:1 in the seed's order, so seat 2 wins 24 + 24 + 21 = 69.
    """
    hand = play(hand_of(TRANCA_TIE_LOW_TILE), TRANCA_PLAY)
    assert [hand.pips(s) for s in range(4)] == [24, 24, 21, 21]
    assert "2-0" in held(hand, 2) and "1-1" in held(hand, 3)
    assert hand.winner == 2
    assert hand.points == [0, 0, 69, 0]


def test_seed_no_valid_tile_draws_from_the_morto_and_plays_the_tile_that_fits() -> None:
    """'Quando chega a vez de um jogar e este não tem peça alguma válida, se existir peças no morto, ele deve
    pegar uma de lá para sua mão e então ver se pode jogá-la. Se puder, coloque-a na mesa e a rodada
    continua.'

    THREE_TRANCA after 6-6: seat 2 has no 6, so his only move is to draw; he draws 6-4, which fits, and
    his moves are now the two plays of 6-4. He plays it and the turn goes to seat 0.
    """
    hand = play(hand_of(THREE_TRANCA, THREE_TRANCA_BONEYARD), "1: 6-6")
    assert hand.turn == 2 and hand.legal_moves == (DRAW,)
    play(hand, "2: draw")
    assert "6-4" in held(hand, 2) and len(hand.boneyard) == 6
    assert hand.turn == 2 and legal(hand) == {"6-4 L", "6-4 R"}
    play(hand, "2: 6-4 R")
    assert hand.turn == 0 and ends(hand) == (6, 4)


def test_seed_keeps_drawing_until_a_tile_fits() -> None:
    """'Se não puder, ele continua a pegar peças do morto até poder por na mesa.'

    THREE_TRANCA, ends (6, 6) after 6-3 L: seat 2 holds no 6. He draws 1-1 (no fit: draw again), 5-4
    (no fit: draw again), 6-5 (fits): then he must play it.
    """
    hand = play(hand_of(THREE_TRANCA, THREE_TRANCA_BONEYARD), THREE_TRANCA_PLAY.split("2: draw, 2: draw")[0])
    assert ends(hand) == (6, 6) and hand.turn == 2
    for drawn in ("1-1", "5-4"):
        assert hand.legal_moves == (DRAW,)
        play(hand, "2: draw")
        assert drawn in held(hand, 2) and hand.turn == 2 and hand.end is None
    play(hand, "2: draw")
    assert legal(hand) == {"6-5 L", "6-5 R"}


def test_seed_morto_empty_without_a_play_the_turn_passes() -> None:
    """'Se acabar as peças do morto e ele ainda não tiver feito uma jogada, a vez passa para o próximo ao
    lado.'

    ALL_SIXES after 6-6: seat 1 draws the 14 tiles, none fits, and passes; seat 0 plays next. THREE_TRANCA:
    seat 1 draws the last three tiles; the last, 6-0, fits, so he plays it instead of passing.
    """
    hand = play(hand_of(ALL_SIXES, ALL_SIXES_BONEYARD), "0: 6-6" + ", 1: draw" * 14)
    assert hand.boneyard == [] and len(hand.tiles(1)) == 21
    assert hand.legal_moves == (PASS,) and hand.end is None
    play(hand, "1: pass")
    assert hand.turn == 0 and len(hand.legal_moves) == 12  # 6-5 … 6-0, on L or R

    hand = play(hand_of(THREE_TRANCA, THREE_TRANCA_BONEYARD), THREE_TRANCA_PLAY)
    assert hand.boneyard == [] and legal(hand) == {"6-0 L", "6-0 R"}


def test_seed_drawn_tiles_that_could_not_be_played_stay_in_the_hand() -> None:
    """'As peças que foram pegas do morto e não puderam ser jogadas na mesa ficam na mão do jogador que as
    pegou.'

    DOUBLES: seat 1 draws 4-2 (no fit) and 5-4 (plays it): 4-2 stays in his hand to the end of the round
    and counts against him: seat 0 goes out and scores 3-1 + 4-0 + 4-2 = 14.
    """
    hand = play(hand_of(DOUBLES, DOUBLES_BONEYARD), "0: 6-6, 1: 6-5 L, 0: 5-5 L, 1: draw, 1: draw, 1: 5-4 L")
    assert held(hand, 1) == names("4-3 3-2 2-1 1-0 3-1 4-0 4-2")
    play(hand, DOUBLES_PLAY.split("1: 5-4 L,")[1] + ", " + DOUBLES_LAST)
    assert held(hand, 1) == names("3-1 4-0 4-2")
    assert hand.points == [14, 0]


# -- B1 players and deal -----------------------------------------------------------------------------


def test_B1_deal_sizes_and_boneyard_for_2_3_4_players() -> None:
    """B1: 7 tiles each; the boneyard holds 14 tiles for 2 players, 7 for 3, none for 4, through a match
    as well as a bare round."""
    cases: list[tuple[Sequence[str], str]] = [(DOUBLES, DOUBLES_BONEYARD), (THREE, THREE_BONEYARD), (BATIDA_BLOCK, "")]
    for seats, bone in cases:
        n = len(seats)
        m = Match(variants.get("individual"), players=n)
        hands, boneyard = dealt(seats, bone)
        hand = m.deal(hands, boneyard)
        assert isinstance(hand, IndividualHand)
        assert hand.seats == n
        assert [len(hand.tiles(s)) for s in range(n)] == [7] * n
        assert len(hand.boneyard) == 28 - 7 * n == {2: 14, 3: 7, 4: 0}[n]


def test_B1_a_bad_deal_is_rejected() -> None:
    """B1: a deal that does not give 7 tiles a seat and the rest to the boneyard, each of the 28 tiles once,
    is refused, by a bare round and by a match (which then holds no round)."""
    hands, bone = dealt(DOUBLES, DOUBLES_BONEYARD)
    bad: list[tuple[list[list[Tile]], list[Tile]]] = [
        ([hands[0][:6], hands[1]], [hands[0][6], *bone]),  # 6 tiles and 15 in the boneyard
        ([hands[0], hands[1] + bone[:1]], bone[1:]),  # 8 tiles and 13 in the boneyard
        ([hands[0], hands[1]], bone[:13]),  # a tile missing
        ([hands[0], hands[1][:6] + hands[0][:1]], bone),  # 6-6 twice, 4-0 missing
        ([hands[0], hands[1]], [*bone[:13], hands[0][0]]),  # 6-6 in a hand and in the boneyard
        ([hands[0], hands[1]], [*bone[:13], bone[0]]),  # the boneyard holds 4-2 twice
    ]
    for deal, boneyard in bad:
        with pytest.raises(MoveError):
            IndividualHand(deal, boneyard)
        m = Match(variants.get("individual"), players=2)
        with pytest.raises(MoveError):
            m.deal(deal, boneyard)
        assert m.hands == [] and m.needs_deal()
    m = Match(variants.get("individual"), players=3)
    with pytest.raises(MoveError):
        m.deal(*dealt(DOUBLES, DOUBLES_BONEYARD))  # 2 hands at a 3-player table
    assert m.hands == []


def test_B1_no_partnerships_points_per_seat() -> None:
    """B1: no partnerships: with 4 players each seat scores for itself and the match keeps 4 totals."""
    m = Match(variants.get("individual"), players=4)
    hand = play_in_match(m, BATIDA_BLOCK, BATIDA_BLOCK_PLAY + BATIDA_BLOCK_LAST)
    assert [hand.team(s) for s in range(4)] == [0, 1, 2, 3]
    assert hand.points == [0, 54, 0, 0] and m.totals == [0, 54, 0, 0]


# -- B2 lead -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(8), ids=lambda i: f"{NON_DOUBLES[i]}>{NON_DOUBLES[i + 1]}")
def test_B2_no_double_held_start_order_decides(i: int) -> None:
    """B2: with the seven doubles and the ``i`` highest non-doubles in the boneyard, the holder of the next
    tile of the start order leads it, either way round, whichever seat he sits at; the other seat, who
    holds the tile just after it, may not lead."""
    deal, bone = no_double_deal(i)
    high, low = NON_DOUBLES[i], NON_DOUBLES[i + 1]
    both = {f"{high.high}-{high.low}", f"{high.low}-{high.high}"}
    hand = IndividualHand(deal, bone)
    assert hand.turn == 1 and hand.leader == 1 and legal(hand) == both
    assert hand.legal_moves_for(0) == []
    assert_rejected(hand, f"0: {low}")
    assert_rejected(hand, f"1: {deal[1][1]}")
    hand = IndividualHand(deal[::-1], bone)
    assert hand.turn == 0 and legal(hand) == both


def test_B2_highest_tile_holder() -> None:
    """B2: ``highest_tile_holder`` returns the seat and the tile index of the first tile of the start order
    that anyone holds."""
    mask = {t: Tile.parse(t).mask for t in ("6-6", "5-5", "0-0", "6-5", "6-4", "5-4", "6-3", "1-0")}
    assert highest_tile_holder([mask["5-5"] | mask["1-0"], mask["6-6"]]) == (1, Tile.parse("6-6").index)
    assert highest_tile_holder([mask["6-5"], mask["0-0"], mask["1-0"]]) == (1, Tile.parse("0-0").index)
    assert highest_tile_holder([mask["6-4"], mask["6-5"]]) == (1, Tile.parse("6-5").index)
    assert highest_tile_holder([mask["5-4"], mask["6-3"]]) == (1, Tile.parse("6-3").index)
    assert highest_tile_holder([mask["1-0"], 0, mask["6-4"] | mask["5-4"]]) == (2, Tile.parse("6-4").index)


def test_B2_non_double_lead_lies_either_way_round() -> None:
    """B2, C1: a non-double lead lies as written: ``6-5`` puts 6 at L, ``5-6`` puts 5 at L.

    no_double_deal(0): seat 1 leads 5-6 (all doubles in the boneyard).
    """
    deal, bone = no_double_deal(0)
    hand = IndividualHand(deal, bone)
    play(hand, "1: 6-5")
    assert ends(hand) == (6, 5)
    hand.pop()
    play(hand, "1: 5-6")
    assert ends(hand) == (5, 6)
    assert hand.turn == 0


def test_B2_only_the_leader_leads_and_only_with_that_tile() -> None:
    """B2: DOUBLES: seat 0 must lead 6-6. Refused, and nothing changes: seat 1 leading 6-5; seat 0 leading
    5-5; 6-6 with an end; a draw or a pass before the lead."""
    hand = hand_of(DOUBLES, DOUBLES_BONEYARD)
    for text in ("1: 6-5", "0: 5-5", "0: 6-6 L", "0: draw", "0: pass", "1: draw"):
        assert_rejected(hand, text)
    assert hand.history == [] and hand.layout.first is None


def test_B2_winner_leads_option_on_a_bare_round() -> None:
    """B2 option: ``leader=k``: seat k leads any of his tiles, either way round. TRANCA_LOWEST with seat 2
    leading: 2 doubles and 5 other tiles = 12 lead moves; seat 0's 6-6 is refused."""
    hand = hand_of(TRANCA_LOWEST, leader=2)
    assert hand.turn == 2 and hand.leader == 2
    assert len(hand.legal_moves) == 12
    assert {"2-2", "3-3", "2-1", "1-2", "6-4", "4-6", "5-3", "3-5"} <= legal(hand)
    assert_rejected(hand, "0: 6-6")
    play(hand, "2: 1-2")
    assert ends(hand) == (1, 2) and hand.turn == 3


def test_B2_winner_leads_option_through_match() -> None:
    """B2 option ``lead: winner``: the first round is led as usual (the 6-6 holder); then the previous
    round's winner leads any tile, after a tranca as after a batida.

    Round 1 TRANCA_TIE_BLOCKER: seat 0 leads 6-6; seat 2 wins (tie with the blocker). Round 2 is dealt
    TRANCA_LOWEST: seat 2 leads, not seat 0 who holds 6-6; he leads 1-2 (1 at L).
    Other match: round 1 BATIDA_BLOCK (seat 1 goes out); round 2 TRANCA_LOWEST: seat 1 leads any of his
    7 tiles (1-1 and six others: 13 moves).
    """
    m = Match(variants.get("individual"), players=4, options={"lead": "winner"})
    first = play_in_match(m, TRANCA_TIE_BLOCKER, TRANCA_PLAY)
    assert first.winner == 2 and first.history[0] == (0, Move.parse("6-6"))
    hand = m.deal(*dealt(TRANCA_LOWEST))
    assert isinstance(hand, IndividualHand)
    assert hand.turn == 2 and len(hand.legal_moves_for(2)) == 12
    assert hand.legal_moves_for(0) == []
    assert_rejected(hand, "0: 6-6")
    m.push(Move.parse("1-2"), 2)
    assert ends(hand) == (1, 2) and hand.turn == 3

    m = Match(variants.get("individual"), players=4, options={"lead": "winner"})
    play_in_match(m, BATIDA_BLOCK, BATIDA_BLOCK_PLAY + BATIDA_BLOCK_LAST)
    hand = m.deal(*dealt(TRANCA_LOWEST))
    assert isinstance(hand, IndividualHand)
    assert hand.turn == 1 and len(hand.legal_moves) == 13
    assert {"1-1", "1-0", "0-1", "6-1", "1-6"} <= legal(hand)


def test_B2_default_every_round_is_led_by_the_highest_tile() -> None:
    """B2 default ``lead: highest``: after seat 2 won round 1 (TRANCA_TIE_BLOCKER), round 2 (TRANCA_LOWEST)
    is still led by seat 0 with 6-6, his only move."""
    m = Match(variants.get("individual"), players=4)
    assert m.options["lead"] == "highest"
    play_in_match(m, TRANCA_TIE_BLOCKER, TRANCA_PLAY)
    hand = m.deal(*dealt(TRANCA_LOWEST))
    assert isinstance(hand, IndividualHand)
    assert hand.turn == 0 and hand.legal_moves == (Move.parse("6-6"),)
    assert_rejected(hand, "2: 2-1")


def test_B2_lead_option_is_highest_or_winner() -> None:
    """B2: the lead option takes "highest" or "winner"; anything else is refused."""
    assert Match(variants.get("individual"), players=2, options={"lead": "winner"}).options["lead"] == "winner"
    for value in ("loser", "", None, 1):
        with pytest.raises(MoveError):
            Match(variants.get("individual"), players=2, options={"lead": value})


# -- B3 drawing --------------------------------------------------------------------------------------


def test_B3_draw_one_tile_at_a_time_until_one_fits_then_play_it() -> None:
    """B3: DOUBLES after 5-5 L (ends 5, 6): seat 1 holds no 5 or 6. Each draw takes one tile, the next of
    the boneyard: 4-2 (no fit, he draws again), then 5-4, which fits only L: now his only move is 5-4 L;
    drawing again or passing is refused."""
    hand = play(hand_of(DOUBLES, DOUBLES_BONEYARD), "0: 6-6, 1: 6-5 L, 0: 5-5 L")
    assert ends(hand) == (5, 6) and hand.legal_moves == (DRAW,)
    play(hand, "1: draw")
    assert held(hand, 1) - names(DOUBLES[1]) == {"4-2"}
    assert len(hand.boneyard) == 13 and hand.legal_moves == (DRAW,)
    play(hand, "1: draw")
    assert held(hand, 1) - names(DOUBLES[1]) == {"4-2", "5-4"}
    assert len(hand.boneyard) == 12
    assert hand.legal_moves == (Move.parse("5-4 L"),)
    assert_rejected(hand, "1: draw")
    assert_rejected(hand, "1: pass")
    assert_rejected(hand, "1: 4-2 L")
    assert_rejected(hand, "1: 5-4 R")
    play(hand, "1: 5-4 L")
    assert hand.turn == 0 and ends(hand) == (4, 6)


def test_B3_drawn_tiles_that_do_not_fit_stay_in_the_hand() -> None:
    """B3: THREE: seat 1 draws 6-6 (no fit for ends 0, 4), then 2-0 and plays it; 6-6 stays in his hand
    (7 dealt + 2 drawn - 6 played = 3 tiles, 5-3 6-3 6-6) and counts against him at the end (5-3 + 6-6 =
    20)."""
    hand = play(hand_of(THREE, THREE_BONEYARD), THREE_PLAY.split("1: 2-0 L,")[0] + "1: 2-0 L")
    assert held(hand, 1) == names("5-3 6-3 6-6")
    assert hand.view(0).counts == (2, 3, 2)
    play(hand, THREE_PLAY.split("1: 2-0 L,")[1] + THREE_LAST)
    assert held(hand, 1) == names("5-3 6-6") and hand.pips(1) == 20


def test_B3_pass_only_with_an_empty_boneyard() -> None:
    """B3: ALL_SIXES after 6-6: seat 1 may not pass while the boneyard holds tiles; after each of the 14
    draws (none fits) his only move is to draw; then, the boneyard empty and seat 0 still able to play,
    the round goes on, he may not draw any more, and passes."""
    hand = play(hand_of(ALL_SIXES, ALL_SIXES_BONEYARD), "0: 6-6")
    for k in range(14):
        assert hand.legal_moves == (DRAW,), k
        assert_rejected(hand, "1: pass")
        play(hand, "1: draw")
        assert hand.turn == 1 and hand.end is None
    assert hand.boneyard == [] and hand.legal_moves == (PASS,)
    assert_rejected(hand, "1: draw")
    play(hand, "1: pass")
    assert hand.turn == 0 and hand.view(0).public["passes"] == 1
    assert_rejected(hand, "0: pass")
    play(hand, "0: 6-5 L")
    assert hand.turn == 1 and {"5-5 L", "5-0 L", "5-4 L"} <= legal(hand)


def test_B3_no_draw_nor_pass_while_holding_a_fitting_tile() -> None:
    """B3: DOUBLES after 6-6: seat 1 holds 6-5, so drawing and passing are refused; after 6-5 L (ends 5, 6)
    seat 0 holds 5-5, so he may not draw or pass either."""
    hand = play(hand_of(DOUBLES, DOUBLES_BONEYARD), "0: 6-6")
    assert legal(hand) == {"6-5 L", "6-5 R"}
    assert_rejected(hand, "1: draw")
    assert_rejected(hand, "1: pass")
    play(hand, "1: 6-5 L")
    assert legal(hand) == {"5-5 L"}
    assert_rejected(hand, "0: draw")
    assert_rejected(hand, "0: pass")


def test_B3_draws_only_in_turn_and_after_the_lead() -> None:
    """B3: nobody draws before the lead, nor out of turn (THREE_TRANCA after 6-6 it is seat 2's draw)."""
    hand = hand_of(THREE_TRANCA, THREE_TRANCA_BONEYARD)
    assert_rejected(hand, "1: draw")
    assert_rejected(hand, "2: draw")
    play(hand, "1: 6-6")
    assert_rejected(hand, "0: draw")
    assert_rejected(hand, "1: draw")


def test_B3_boneyard_is_drawn_out_even_when_no_tile_can_fit() -> None:
    """B3: ZERO after ZERO_PLAY: ends (0, 0) and all seven 0s on the table, so no tile in any hand or in
    the boneyard can fit. Seat 0 must still draw, one tile at a time, all 14 tiles; the round goes on
    until the last one."""
    hand = play(hand_of(ZERO, ZERO_BONEYARD), ZERO_PLAY)
    assert ends(hand) == (0, 0) and hand.end is None and hand.turn == 0
    for k in range(13):
        assert hand.legal_moves == (DRAW,), k
        play(hand, "0: draw")
        assert hand.end is None and hand.turn == 0
    assert len(hand.tiles(0)) == 2 + 13 and len(hand.boneyard) == 1
    play(hand, "0: draw")
    assert hand.boneyard == [] and hand.end == "tranca"


# -- B4 round end ------------------------------------------------------------------------------------


def test_B4_domino_wins_even_when_it_also_blocks() -> None:
    """B4: BATIDA_BLOCK: seat 1's last tile, 6-2 L, also leaves ends (6, 6) with every 6 on the table, so
    nobody could play on. He went out: a batida won by seat 1 (54), not a tranca (which seat 0 or seat 2,
    17 each, would have won)."""
    hand = play(hand_of(BATIDA_BLOCK), BATIDA_BLOCK_PLAY)
    assert hand.end is None and held(hand, 1) == {"6-2"}
    play(hand, BATIDA_BLOCK_LAST)
    assert ends(hand) == (6, 6)
    assert not any(t.has(6) for s in range(4) for t in hand.tiles(s))
    assert hand.end == "batida" and hand.winner == 1
    assert hand.scores == [Score(25, 1, "batida", 54, 1)]


def test_B4_blocked_round_detected_after_the_play_no_passes_played_out() -> None:
    """B4: TRANCA_LOWEST: after 9 plays (ends 6, 0) seat 1 holds 6-0 and the round goes on; his 6-0 R
    leaves ends (6, 6) with all 6s on the table and no boneyard: the round is blocked at once, nobody
    passes, and no further move is accepted."""
    hand = play(hand_of(TRANCA_LOWEST), TRANCA_PLAY.rsplit(",", 1)[0])
    assert hand.end is None and hand.turn == 1 and ends(hand) == (6, 0)
    play(hand, "1: 6-0 R")
    assert hand.end == "tranca" and len(hand.history) == 10
    assert all(hand.legal_moves_for(s) == [] for s in range(4))
    assert hand.scores == [Score(10, 1, "tranca", 82, 1)]
    for text in ("2: pass", "2: 2-2 L", "0: pass"):
        assert_rejected(hand, text)


def test_B4_blocked_by_a_play_once_the_boneyard_is_empty() -> None:
    """B4: THREE_TRANCA: seat 1 draws the last tile, 6-0, which fits: the boneyard is empty but he can play,
    so the round is not blocked. Ends are (6, 0): 6-0 L would leave (0, 0) and seat 0 holds 0s: play goes on. 6-0 R
    leaves ends (6, 6), every 6 on the table: blocked by that play. Seat 0 wins with 11 and scores
    38 + 41 = 79; the score is caused by seat 1's play, action 17."""
    hand = play(hand_of(THREE_TRANCA, THREE_TRANCA_BONEYARD), THREE_TRANCA_PLAY)
    assert hand.boneyard == [] and hand.end is None and ends(hand) == (6, 0)
    play(hand, "1: 6-0 L")
    assert hand.end is None and hand.turn == 2 and ends(hand) == (0, 0)
    hand.pop()
    play(hand, THREE_TRANCA_LAST)
    assert hand.end == "tranca" and ends(hand) == (6, 6)
    assert [hand.pips(s) for s in range(3)] == [11, 38, 41]
    assert hand.winner == 0
    assert hand.scores == [Score(17, 1, "tranca", 79, 0)]
    assert hand.points == [79, 0, 0]


def test_B4_blocked_after_the_draw_that_empties_the_boneyard() -> None:
    """B4: ZERO: the 14th draw (action 24, by seat 0) empties the boneyard and nobody fits: the round is
    blocked by that draw. The blocker for the tie-break is seat 1, who made the last play; no tie here:
    seat 0 holds 3-1 4-2 and all 14 drawn tiles (10 + 106 = 116), seat 1 4-1 3-2 (10): seat 1 wins 116."""
    hand = play(hand_of(ZERO, ZERO_BONEYARD), ZERO_PLAY + ", 0: draw" * 14)
    assert hand.end == "tranca" and len(hand.history) == 24
    assert [hand.pips(s) for s in range(2)] == [116, 10]
    assert hand.winner == 1
    assert hand.scores == [Score(24, 0, "tranca", 116, 1)]
    assert hand.points == [0, 116]
    assert_rejected(hand, "1: pass")


def test_B4_blocked_by_a_draw_the_blocker_is_who_made_the_last_play() -> None:
    """B4: DRAWN_TIE: seat 0's 6-5 R closes the ends but one tile is left in the boneyard, so the round
    goes on; seat 1 draws it (2-2, no fit) and the round is blocked by that draw. Seats 0 and 1 tie at 14:
    seat 0 made the last play, so he is the blocker, and seat 1 wins 72. The score is caused by seat 1's
    draw (action 19)."""
    hand = play(hand_of(DRAWN_TIE, DRAWN_TIE_BONEYARD), DRAWN_TIE_PLAY.rsplit(",", 1)[0])
    assert ends(hand) == (6, 6) and len(hand.boneyard) == 1
    assert hand.end is None and hand.turn == 1 and hand.legal_moves == (DRAW,)
    play(hand, "1: draw")
    assert hand.end == "tranca" and hand.boneyard == []
    assert [hand.pips(s) for s in range(3)] == [14, 14, 58]
    assert hand.history[-2] == (0, Move.parse("6-5 R"))
    assert hand.winner == 1
    assert hand.scores == [Score(19, 1, "tranca", 72, 1)]
    assert hand.points == [0, 72, 0]


def test_B4_lowest_hand_sum_wins_a_blocked_round() -> None:
    """B4: the lowest sum wins even when it is the blocker's: TRANCA_LOWEST sums [27, 8, 26, 29], seat 1
    blocked and wins 82. The same deal moved one seat on (seat 2 blocks with 8) gives 82 to seat 2."""
    hand = play(hand_of(TRANCA_LOWEST), TRANCA_PLAY)
    assert hand.winner == 1 and hand.points == [0, 82, 0, 0]
    hand = play(hand_of(shift(TRANCA_LOWEST, 1)), shift_actions(TRANCA_PLAY, 1))
    assert hand.history[-1][0] == 2
    assert hand.winner == 2 and hand.points == [0, 0, 82, 0]


def test_B4_blocked_round_tie_goes_to_player_who_did_not_block() -> None:
    """B4: TRANCA_TIE_BLOCKER: seats 1 (the blocker, holding 0-0) and 2 tie at 20: seat 2 wins 70. Moved
    two seats on, the blocker is seat 3 and seat 0 wins."""
    hand = play(hand_of(TRANCA_TIE_BLOCKER), TRANCA_PLAY)
    assert "0-0" in held(hand, 1)
    assert hand.winner == 2 and hand.scores == [Score(10, 1, "tranca", 70, 2)]
    hand = play(hand_of(shift(TRANCA_TIE_BLOCKER, 2)), shift_actions(TRANCA_PLAY, 2))
    assert hand.winner == 0 and hand.scores == [Score(10, 3, "tranca", 70, 0)]


def test_B4_still_tied_the_lowest_tile_of_the_low_order_wins() -> None:
    """B4: TRANCA_TIE_LOW_TILE: seats 2 and 3 tie at 21 and neither blocked; seat 2's 0-2 comes before
    seat 3's 1-1 in the low order (though 1-1 has the same pips and is the lower double): seat 2 wins 69.
    With seats 2 and 3's leftovers swapped (and their played tiles kept), seat 3 wins."""
    hand = play(hand_of(TRANCA_TIE_LOW_TILE), TRANCA_PLAY)
    assert hand.winner == 2 and hand.points == [0, 0, 69, 0]
    s0, s1, s2, s3 = TRANCA_TIE_LOW_TILE
    swapped = (s0, s1, s2[:8] + s3[8:], s3[:8] + s2[8:])
    hand = play(hand_of(swapped), TRANCA_PLAY)
    assert "2-0" in held(hand, 3) and "1-1" in held(hand, 2)
    assert hand.winner == 3 and hand.points == [0, 0, 0, 69]


def test_B4_three_way_tie_the_blocker_drops_out_then_the_lowest_tile() -> None:
    """B4: TRANCA_THREE_WAY: seats 1, 2, 3 tie at 20. Seat 1 blocked (and holds 0-0): he drops out. Seat 3's
    0-1 comes before seat 2's 0-2: seat 3 wins 30 + 20 + 20 = 70."""
    hand = play(hand_of(TRANCA_THREE_WAY), TRANCA_PLAY)
    assert [hand.pips(s) for s in range(4)] == [30, 20, 20, 20]
    assert hand.winner == 3
    assert hand.scores == [Score(10, 1, "tranca", 70, 3)]


# -- B5 round points ---------------------------------------------------------------------------------


def test_B5_batida_scores_every_other_players_pips_and_nobody_else_scores() -> None:
    """B5: the player who goes out scores the pips left in all the other hands; the boneyard counts for
    nobody. 4 players, BATIDA_BLOCK: 17 + 17 + 20 = 54. 3 players, THREE: 6 + 20 = 26 (28 pips left in
    the boneyard). 2 players, DOUBLES: 14 (12 tiles left in the boneyard)."""
    hand = play(hand_of(BATIDA_BLOCK), BATIDA_BLOCK_PLAY + BATIDA_BLOCK_LAST)
    assert hand.points == [0, 54, 0, 0]

    hand = play(hand_of(THREE, THREE_BONEYARD), THREE_PLAY + THREE_LAST)
    assert [hand.pips(s) for s in range(3)] == [6, 20, 0]
    assert sum(Tile.from_index(t).pips for t in hand.boneyard) == 28
    assert hand.end == "batida" and hand.winner == 2
    assert hand.scores == [Score(22, 2, "batida", 26, 2)]
    assert hand.points == [0, 0, 26]

    hand = play(hand_of(DOUBLES, DOUBLES_BONEYARD), DOUBLES_PLAY + ", " + DOUBLES_LAST)
    assert len(hand.boneyard) == 12
    assert hand.scores == [Score(15, 0, "batida", 14, 0)]
    assert hand.points == [14, 0]


def test_B5_tranca_winner_scores_every_other_players_pips_and_nobody_else_scores() -> None:
    """B5: the winner of a blocked round scores the sum of the other hands, his own not deducted:
    TRANCA_LOWEST 27 + 26 + 29 = 82 to seat 1 (who holds 8); THREE_TRANCA 38 + 41 = 79 to seat 0 (who
    holds 11); ZERO 116 to seat 1 (who holds 10)."""
    hand = play(hand_of(TRANCA_LOWEST), TRANCA_PLAY)
    assert hand.points == [0, 82, 0, 0] and len(hand.scores) == 1
    hand = play(hand_of(THREE_TRANCA, THREE_TRANCA_BONEYARD), THREE_TRANCA_PLAY + THREE_TRANCA_LAST)
    assert hand.points == [79, 0, 0] and len(hand.scores) == 1
    hand = play(hand_of(ZERO, ZERO_BONEYARD), ZERO_PLAY + ", 0: draw" * 14)
    assert hand.points == [0, 116] and len(hand.scores) == 1


def test_B5_scores_are_undone_with_the_round_end() -> None:
    """B5: taking back the last action (pop) of a finished round removes its score and its winner; playing
    it again gives the same result."""
    hand = play(hand_of(THREE, THREE_BONEYARD), THREE_PLAY)
    before = state(hand)
    play(hand, THREE_LAST)
    assert hand.winner == 2 and hand.points == [0, 0, 26]
    hand.pop()
    assert state(hand) == before and hand.winner is None and hand.scores == []
    play(hand, THREE_LAST)
    assert hand.points == [0, 0, 26]

    hand = play(hand_of(ZERO, ZERO_BONEYARD), ZERO_PLAY + ", 0: draw" * 14)
    hand.pop()
    assert hand.end is None and hand.winner is None and hand.points == [0, 0]
    assert len(hand.boneyard) == 1 and len(hand.tiles(0)) == 15 and hand.legal_moves == (DRAW,)


# -- B6 match ----------------------------------------------------------------------------------------


def test_B6_default_target_is_100() -> None:
    """B6: default target 100. TRANCA_TIE_BLOCKER (seat 2 +70), TRANCA_THREE_WAY (seat 3 +70): [0, 0, 70, 70],
    nobody at 100, a new round is due. TRANCA_TIE_LOW_TILE (seat 2 +69): 139, seat 2 wins."""
    m = Match(variants.get("individual"), players=4)
    assert m.options["target"] == 100
    play_in_match(m, TRANCA_TIE_BLOCKER, TRANCA_PLAY)
    play_in_match(m, TRANCA_THREE_WAY, TRANCA_PLAY)
    assert m.totals == [0, 0, 70, 70] and m.winner is None and m.needs_deal()
    play_in_match(m, TRANCA_TIE_LOW_TILE, TRANCA_PLAY)
    assert m.totals == [0, 0, 139, 70]
    assert m.winner == 2 and m.is_over() and not m.needs_deal()


def test_B6_target_50_one_round_can_end_the_match() -> None:
    """B6 option target 50: TRANCA_LOWEST gives seat 1 82 ≥ 50: the match ends after one round."""
    m = Match(variants.get("individual"), players=4, options={"target": 50})
    play_in_match(m, TRANCA_LOWEST, TRANCA_PLAY)
    assert m.totals == [0, 82, 0, 0] and m.winner == 1


def test_B6_target_200_checked_only_at_a_rounds_end() -> None:
    """B6 option target 200 (3 players): THREE_TRANCA gives seat 0 79 a round. After two rounds 158; in the
    third round nothing is decided while it is played (seat 0 still 158 before the blocking play); the
    blocking play brings him to 237 and ends the match. Taking it back reopens the match."""
    m = Match(variants.get("individual"), players=3, options={"target": 200})
    for _ in range(2):
        play_in_match(m, THREE_TRANCA, THREE_TRANCA_PLAY + THREE_TRANCA_LAST, THREE_TRANCA_BONEYARD)
    assert m.totals == [158, 0, 0] and m.winner is None
    hand = play_in_match(m, THREE_TRANCA, THREE_TRANCA_PLAY, THREE_TRANCA_BONEYARD)
    assert hand.end is None and m.totals == [158, 0, 0] and m.winner is None
    [(seat, move)] = actions(THREE_TRANCA_LAST)
    m.push(move, seat)
    assert m.totals == [237, 0, 0] and m.winner == 0
    m.pop()
    assert m.totals == [158, 0, 0] and m.winner is None and not m.needs_deal()
    m.push(move, seat)
    assert m.winner == 0


def test_B6_reaching_the_target_exactly_ends_the_match() -> None:
    """B6 option target 200 (2 players): ZERO gives seat 1 116; DOUBLES moved one seat on gives seat 1
    14 a round (seat 1 holds the doubles and goes out). 116 + 5 × 14 = 186: the match goes on; the sixth
    DOUBLES round brings him to exactly 200, and he wins."""
    m = Match(variants.get("individual"), players=2, options={"target": 200})
    play_in_match(m, ZERO, ZERO_PLAY + ", 0: draw" * 14, ZERO_BONEYARD)
    assert m.totals == [0, 116]
    for _ in range(5):
        play_in_match(m, shift(DOUBLES, 1), shift_actions(DOUBLES_PLAY + ", " + DOUBLES_LAST, 1, 2), DOUBLES_BONEYARD)
    assert m.totals == [0, 186] and m.winner is None and m.needs_deal()
    play_in_match(m, shift(DOUBLES, 1), shift_actions(DOUBLES_PLAY + ", " + DOUBLES_LAST, 1, 2), DOUBLES_BONEYARD)
    assert m.totals == [0, 200] and m.winner == 1


def test_B6_nothing_is_played_after_the_match_ends() -> None:
    """B6: once a player has won, no round is dealt and no move is accepted."""
    m = Match(variants.get("individual"), players=4, options={"target": 50})
    play_in_match(m, TRANCA_LOWEST, TRANCA_PLAY)
    assert m.winner == 1
    with pytest.raises(IllegalMoveError):
        m.deal(*dealt(TRANCA_LOWEST))
    with pytest.raises(IllegalMoveError):
        m.push(PASS, 2)
    assert len(m.hands) == 1 and m.totals == [0, 82, 0, 0]


def test_B6_target_must_be_a_positive_integer() -> None:
    """B6: the target is a table option (50, 100 or 200 at the tables); a non-positive or non-integer
    target is refused."""
    for target in (50, 100, 200):
        assert Match(variants.get("individual"), players=2, options={"target": target}).options["target"] == target
    for bad in (0, -100, "100", 100.0, True, None):
        with pytest.raises(MoveError):
            Match(variants.get("individual"), players=2, options={"target": bad})


# -- views -------------------------------------------------------------------------------------------


def test_view_hides_other_hands_and_the_boneyard() -> None:
    """A seat's view never shows another seat's tiles nor the boneyard's. DOUBLES and DOUBLES_TWIN differ only
    in seat 1's hidden tiles and in the boneyard (seat 1 even draws a different first tile): seat 0's
    view is the same in both after every action until the round ends, and it names no tile but his own
    and those on the table. Spectators see no hand at all."""
    one = hand_of(DOUBLES, DOUBLES_BONEYARD)
    two = hand_of(DOUBLES_TWIN, DOUBLES_TWIN_BONEYARD)
    for seat, move in actions(DOUBLES_PLAY):
        one.push(move, seat)
        two.push(move, seat)
        assert held(one, 1) != held(two, 1)
        assert one.view(0) == two.view(0)
        assert one.view(None) == two.view(None)
        view = one.view(0)
        table = {p.tile for p in one.layout.placed()}
        assert tiles_in(view) <= set(one.tiles(0)) | table
        assert view.tiles == one.tiles(0) and view.revealed is None
    assert one.view(None).tiles == () and one.view(None).legal_moves == ()
    assert one.view(1) != two.view(1)  # seat 1 sees his own tiles


def test_view_shows_counts_and_that_someone_drew_but_not_what() -> None:
    """The number of tiles each seat holds, the boneyard's size and each draw (who, not which tile) are
    public; the drawer alone sees the tile. DOUBLES: after 6-6 and 6-5 L the counts are (6, 6); after 5-5 L
    seat 1's two draws make them (5, 7) then (5, 8) and the boneyard 13 then 12. Only seat 1's view lists 4-2 and
    5-4 as drawn."""
    hand = play(hand_of(DOUBLES, DOUBLES_BONEYARD), "0: 6-6, 1: 6-5 L")
    assert hand.view(0).counts == (6, 6) and hand.view(0).boneyard == 14
    play(hand, "0: 5-5 L, 1: draw")
    assert hand.view(0).counts == (5, 7) and hand.view(0).boneyard == 13
    play(hand, "1: draw")
    view = hand.view(0)
    assert view.counts == (5, 8) and view.boneyard == 12
    assert view.history[-2:] == ((1, DRAW), (1, DRAW))
    assert view.drawn == () and hand.view(None).drawn == ()
    assert hand.view(1).drawn == tuple(tiles("4-2 5-4"))
    assert {"4-2", "5-4"} <= {str(t) for t in hand.view(1).tiles}
    assert not {Tile.parse("4-2"), Tile.parse("5-4")} & tiles_in(view)


def test_view_round_end_reveals_the_hands_not_the_boneyard() -> None:
    """When a round is counted every hand is shown (the score is the sum of them); the boneyard stays
    hidden: DOUBLES after 0-0: seat 0's view shows seat 1's 3-1 4-0 4-2 and only the boneyard's size."""
    hand = play(hand_of(DOUBLES, DOUBLES_BONEYARD), DOUBLES_PLAY + ", " + DOUBLES_LAST)
    view = hand.view(0)
    assert view.revealed is not None
    assert {str(t) for t in view.revealed[1]} == names("3-1 4-0 4-2")
    assert view.boneyard == 12
    assert not tiles_in(view) & {Tile.from_index(t) for t in hand.boneyard}
