"""The bot interface: a seat's view in, an action (or nothing) out.

A bot is asked whenever the hand changes. It sees only a
:class:`~capicua.rules.hand.SeatView`: there is no way from it to the hidden
state. It answers with one of ``view.legal_moves`` (a play may carry a galo
call: ``move.with_galo()``), or ``None`` when it has nothing to do or declines
an optional call (galo after its play, announcing doubles, claiming).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from capicua.bots.worlds import knowledge, nobody_else_can_play
from capicua.rules.hand import SeatView
from capicua.rules.layout import LineLayout, SpinnerLayout
from capicua.rules.moves import ANNOUNCE, CLAIM, GALO, KEEP, PASS, Move
from capicua.rules.tiles import NUMBER_MASK, Tile, mask_of

__all__ = ["Bot", "CarefulBot", "fits_mask", "layout_of", "open_mask", "optional_moves"]

#: Moves a seat may make but never has to.
OPTIONAL = frozenset({GALO, ANNOUNCE, CLAIM})


def optional_moves(view: SeatView) -> list[Move]:
    return [m for m in view.legal_moves if m in OPTIONAL]


class Bot(ABC):
    """A player. Subclasses implement :meth:`act`."""

    name = "bot"
    #: Whether it searches (spends its time budget thinking): a server runs such bots off its event loop.
    searches: ClassVar[bool] = False
    #: Seconds a move a searching bot thinks (a server short of workers may lower it for a move).
    budget: float = 0.0

    @abstractmethod
    def act(self, view: SeatView) -> Move | None:
        """The action to take now, or None."""

    def required(self, view: SeatView) -> list[Move]:
        """The moves of a seat whose turn it is (not the optional calls)."""
        return [m for m in view.legal_moves if m not in OPTIONAL]

    def reseed(self, seed: int) -> None:  # noqa: B027 (a hook: bots without randomness have nothing to do)
        """Start the bot's random choices afresh from ``seed`` (a bot with none ignores it)."""

    def keep_or_redeal(self, view: SeatView) -> Move | None:
        """A6 with 5+ doubles: keep them (50 certain points)."""
        return KEEP if KEEP in view.legal_moves else None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def layout_of(view: SeatView) -> SpinnerLayout | LineLayout:
    """Rebuild the table's layout from a view's snapshot (public information)."""
    snap = view.layout
    if snap["shape"] == "spinner":
        spinner = SpinnerLayout()
        if snap["spinner"]:
            spinner.lead(Tile.parse(snap["spinner"]).index)
            for arm_index, name in enumerate("WENS"):
                for placed in snap["arms"][name]:
                    spinner.play(Tile.parse(placed).index, arm_index)
        return spinner
    line = LineLayout()
    tiles = snap["line"]
    if tiles:
        # Rebuild from the lead outwards is not needed for the ends: a line's open ends are its
        # two outer pips; lay the tiles left to right from the leftmost.
        first = tiles[0]
        a, b = (int(x) for x in first.split("-"))
        line.lead(Tile(a, b).index, reversed=a < b)
        for placed in tiles[1:]:
            line.play(Tile.parse(placed).index, 5)
    return line


def open_mask(view: SeatView) -> int:
    """The tiles that fit some open end of the view's table."""
    m = 0
    for pip in view.layout["ends"].values():
        m |= NUMBER_MASK[pip]
    return m


def fits_mask(layout: SpinnerLayout | LineLayout) -> int:
    """The tiles that fit some open end of ``layout``."""
    m = 0
    for _, pip in layout.ends:
        m |= NUMBER_MASK[pip]
    return m


class CarefulBot(Bot):
    """A bot that announces 4 doubles, keeps 5 or more, claims only when certain, and
    leaves the rest of its turn to :meth:`choose`."""

    def act(self, view: SeatView) -> Move | None:
        if view.seat is None or view.end is not None:
            return None
        if ANNOUNCE in view.legal_moves:
            return ANNOUNCE
        keep = self.keep_or_redeal(view)
        if keep is not None:
            return keep
        if CLAIM in view.legal_moves:
            fit = open_mask(view)
            unseen = fit & ~view.on_table & ~mask_of(view.tiles)
            if unseen and not any(m is PASS or m is CLAIM for _, m in view.history):
                return None  # nobody has shown a void yet: any other seat may hold an unseen fitting tile
            certain = nobody_else_can_play(knowledge(view), fit, view.seat, view.seats)
            return CLAIM if certain else None
        if view.turn != view.seat:
            return None  # galo is decided with the play
        required = self.required(view)
        if not required:
            return None
        return self.choose(view, required)

    @abstractmethod
    def choose(self, view: SeatView, moves: list[Move]) -> Move:
        """The move for a seat whose turn it is, among ``moves`` (a play may carry galo)."""
