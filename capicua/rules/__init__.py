"""The rules engine: pure Python, no I/O.

>>> from capicua.rules import Match, Move
>>> m = Match(variants.get("amazonense"), seed=1)
>>> hand = m.deal()
>>> hand.legal_moves[0].tile
Tile.parse('6-6')
>>> variants.get("amazonense").partnerships
True
"""

from capicua.rules import variants
from capicua.rules.amazonense import AmazonenseHand
from capicua.rules.hand import Hand, IllegalMoveError, Score, SeatView
from capicua.rules.layout import LineLayout, SpinnerLayout
from capicua.rules.match import Match
from capicua.rules.moves import (
    ANNOUNCE,
    CLAIM,
    DRAW,
    GALO,
    KEEP,
    PASS,
    REDEAL,
    TIME,
    Move,
    MoveError,
    format_action,
    parse_action,
)
from capicua.rules.tiles import LOW_ORDER, START_ORDER, TILES, Tile, TileError
from capicua.rules.variant import (
    MatchOutcome,
    MatchTermination,
    Option,
    OptionError,
    Outcome,
    Termination,
    Variant,
)

__all__ = [
    "ANNOUNCE",
    "CLAIM",
    "DRAW",
    "GALO",
    "KEEP",
    "LOW_ORDER",
    "PASS",
    "REDEAL",
    "START_ORDER",
    "TILES",
    "TIME",
    "AmazonenseHand",
    "Hand",
    "IllegalMoveError",
    "LineLayout",
    "Match",
    "MatchOutcome",
    "MatchTermination",
    "Move",
    "MoveError",
    "Option",
    "OptionError",
    "Outcome",
    "Score",
    "SeatView",
    "SpinnerLayout",
    "Termination",
    "Tile",
    "TileError",
    "Variant",
    "format_action",
    "parse_action",
    "variants",
]
