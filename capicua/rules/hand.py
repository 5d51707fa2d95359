"""What every variant's hand shares: history, scores, undo, views.

A *hand* (mão / mano / rodada) is one deal played to its end. Each variant
module subclasses :class:`Hand` with its own layout and rules; the surface is
the same for all, on the model of python-chess's ``Board``: ``legal_moves``,
``push``, ``pop``, ``copy``, ``is_over``, plus ``view(seat)``, what one seat may
see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from capicua.rules.moves import END_NAMES, LEAD, PLAY_CODES, Action, Move, MoveError
from capicua.rules.outcome import Outcome, Termination
from capicua.rules.tiles import ALL_TILES_MASK, PIPS, TILES, Tile, mask_of, tiles_of

__all__ = ["Hand", "IllegalMoveError", "Score", "SeatView", "round_down_5"]


class IllegalMoveError(MoveError):
    """A well-formed move that the position does not allow; nothing was changed."""


class Score(NamedTuple):
    """One score: ``points`` to team or seat ``to``, caused by action ``action`` (1-based)."""

    action: int
    seat: int | None
    kind: str
    points: int
    to: int


def round_down_5(n: int) -> int:
    """Round down to a multiple of 5 (A7, A8).

    >>> round_down_5(24), round_down_5(25), round_down_5(4)
    (20, 25, 0)
    """
    return n - n % 5


@dataclass(frozen=True)
class SeatView:
    """What one seat may see of a hand, and nothing more.

    ``seat`` is ``None`` for a spectator. ``tiles`` is the seat's own hand; the
    other hands appear only as counts, until a hand that ends by batida/domino
    or tranca/tranque is counted, when ``revealed`` shows every hand. The
    boneyard appears only as its size.
    """

    variant: str
    seat: int | None
    seats: int
    tiles: tuple[Tile, ...]
    counts: tuple[int, ...]
    boneyard: int
    layout: dict[str, Any]
    turn: int | None
    history: tuple[tuple[int | None, Action], ...]
    #: The open ends as ``(end, pip)`` pairs just before each action of ``history`` (public).
    ends_before: tuple[tuple[tuple[int, int], ...], ...]
    scores: tuple[Score, ...]
    points: tuple[int, ...]
    end: Termination | None
    legal_moves: tuple[Move, ...]
    revealed: tuple[tuple[Tile, ...], ...] | None
    public: dict[str, Any]
    #: How the hand was opened (public): the variant hand's constructor arguments
    #: besides the deal, so a player can rebuild possible worlds (bots do).
    setup: dict[str, Any]
    #: The tiles this seat drew from the boneyard, in order (only he saw them).
    drawn: tuple[Tile, ...]
    #: Bitmask of the tiles lying on the table (public: the layout's tiles, as one int for bots).
    on_table: int = 0
    #: How the hand ended and who won it, once it has (public).
    outcome: Outcome | None = None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (tiles and actions in record notation): what a program playing a seat over the
        bot API receives; :meth:`from_json` reads it back into the same view.

        >>> from capicua.rules.match import Match
        >>> from capicua.rules import variants
        >>> m = Match(variants.get("dominousa"), seed=2)
        >>> hand = m.deal()
        >>> view = hand.view(hand.turn)
        >>> data = view.to_json()
        >>> data["seat"], data["tiles"], data["legal"][:3]
        (2, ['1-1', '4-0', '4-2', '5-0', '5-3', '6-0', '6-4'], ['1-1', '4-0', '0-4'])
        >>> SeatView.from_json(data) == view
        True
        """
        from capicua.rules.moves import format_action

        return {
            "variant": self.variant,
            "seat": self.seat,
            "seats": self.seats,
            "tiles": [str(t) for t in self.tiles],
            "counts": list(self.counts),
            "boneyard": self.boneyard,
            "layout": self.layout,
            "turn": self.turn,
            "history": [format_action(s, m) for s, m in self.history],
            "ends_before": [[list(pair) for pair in ends] for ends in self.ends_before],
            "scores": [s._asdict() for s in self.scores],
            "points": list(self.points),
            "end": None if self.end is None else self.end.value,
            "legal": [str(m) for m in self.legal_moves],
            "revealed": None if self.revealed is None else [[str(t) for t in h] for h in self.revealed],
            "public": self.public,
            "setup": self.setup,
            "drawn": [str(t) for t in self.drawn],
            "on_table": self.on_table,
            "outcome": None
            if self.outcome is None
            else {
                "termination": self.outcome.termination.value,
                "winner": self.outcome.winner,
                "seat": self.outcome.seat,
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatView:
        """A view from :meth:`to_json`'s JSON; MoveError (or ValueError) if it is not one."""
        from capicua.rules.moves import parse_action

        try:
            outcome = data["outcome"]
            return cls(
                variant=str(data["variant"]),
                seat=data["seat"],
                seats=int(data["seats"]),
                tiles=tuple(Tile.parse(t) for t in data["tiles"]),
                counts=tuple(int(c) for c in data["counts"]),
                boneyard=int(data["boneyard"]),
                layout=dict(data["layout"]),
                turn=data["turn"],
                history=tuple(parse_action(text) for text in data["history"]),
                ends_before=tuple(tuple((int(e), int(p)) for e, p in ends) for ends in data["ends_before"]),
                scores=tuple(Score(**s) for s in data["scores"]),
                points=tuple(int(p) for p in data["points"]),
                end=None if data["end"] is None else Termination(data["end"]),
                legal_moves=tuple(Move.parse(m) for m in data["legal"]),
                revealed=None
                if data["revealed"] is None
                else tuple(tuple(Tile.parse(t) for t in h) for h in data["revealed"]),
                public=dict(data["public"]),
                setup=dict(data["setup"]),
                drawn=tuple(Tile.parse(t) for t in data["drawn"]),
                on_table=int(data["on_table"]),
                outcome=None
                if outcome is None
                else Outcome(Termination(outcome["termination"]), outcome["winner"], outcome["seat"]),
            )
        except (KeyError, TypeError) as exc:
            raise MoveError(f"not a seat's view: {exc!r}") from None


class Hand:
    """Base class of a variant's hand state. Subclasses fill in the rules."""

    variant: ClassVar[str] = ""
    #: Scores go to teams (seat % 2) when True, to seats otherwise.
    partnerships: ClassVar[bool] = False

    seats: int
    hands: list[int]
    deal: tuple[int, ...]
    boneyard: list[int]
    #: The boneyard as dealt, in drawing order (tile indices).
    boneyard_order: tuple[int, ...] = ()
    turn: int
    end: Termination | None
    points: list[int]
    history: list[tuple[int | None, Action]]
    scores: list[Score]
    _stack: list[tuple[Any, ...]]
    layout: Any

    # -- what subclasses implement -------------------------------------------------
    def legal_moves_for(self, seat: int) -> list[Move]:
        """Every move ``seat`` may make now (empty when it is not his to act)."""
        raise NotImplementedError

    def push(self, move: Action, seat: int | None = None) -> None:
        """Make ``move`` for ``seat`` (default: the seat to act); raise on an illegal move."""
        raise NotImplementedError

    def pop(self) -> tuple[int | None, Action]:
        """Undo the last action and return it."""
        raise NotImplementedError

    def copy(self) -> Hand:
        raise NotImplementedError

    def timeout_move(self, seat: int) -> Move:
        """The move the table makes for ``seat`` when his clock runs out (A10)."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        """How the hand ended and who won it; ``None`` while it is in play."""
        raise NotImplementedError

    def record_extra(self) -> dict[str, Any]:
        """Fields this hand adds to its record entry (``lead_draw``…)."""
        return {}

    def public_state(self) -> dict[str, Any]:
        """Variant-specific public facts for views (announcements, passes…)."""
        return {}

    # -- shared ---------------------------------------------------------------------
    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The moves of the seat to act (``turn``), as an immutable tuple (the variants return their
        precomputed tuples as they are on the hot path); ``legal_moves_for`` builds a list."""
        return tuple(self.legal_moves_for(self.turn))

    def public_moves_for(self, seat: int) -> list[Move]:
        """The moves shown to ``seat``: ``legal_moves_for`` minus anything whose presence
        would tell him about hidden tiles (Dominousa's claim is offered whenever he may
        make it, right or wrong)."""
        return self.legal_moves_for(seat)

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        """Whether ``push(move, seat)`` would be accepted."""
        return move in self.legal_moves_for(self.turn if seat is None else seat)

    def is_over(self) -> bool:
        return self.end is not None

    def team(self, seat: int) -> int:
        """Who scores for ``seat``: its team in partnerships, the seat itself otherwise."""
        return seat & 1 if self.partnerships else seat

    def tiles(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds now."""
        return tuple(tiles_of(self.hands[seat]))

    def pips(self, seat: int) -> int:
        """Pips left in ``seat``'s hand."""
        m, total = self.hands[seat], 0
        while m:
            low = m & -m
            total += PIPS[low.bit_length() - 1]
            m ^= low
        return total

    def end_name(self, end_code: int) -> str | None:
        return END_NAMES[end_code]

    def parse_move(self, text: str, seat: int | None = None) -> Move:
        """Parse ``text`` in the context of this position, resolving a play written
        without its end when exactly one end fits (records may omit it then)."""
        move = Move.parse(text)
        return self.resolve(move, self.turn if seat is None else seat)

    def play_stands_out_of_turn(self, seat: int) -> bool:
        """Whether a play by ``seat``, who is not the seat to act, would stand (Dominousa's jugada corrida,
        C6): only then does its end matter. Any other play out of turn is refused, or in strict mode fined
        and undone whatever end it names or omits (C9)."""
        return False

    def resolve(self, move: Move, seat: int) -> Move:
        """The move with its end filled in, when it was omitted and one end fits. A play out of turn that
        cannot stand is left as it is: its end is never asked for (C9)."""
        if move.code >= PLAY_CODES or move.end_code < LEAD or self.layout.empty:
            return move
        if seat != self.turn and not self.play_stands_out_of_turn(seat):
            return move
        tile = move.code >> 4
        fitting = [end for end, pip in self.layout.ends if TILES[tile].has(pip)]
        # Equal pips on two ends give distinct layouts, so they stay ambiguous.
        if len(fitting) == 1:
            return move.with_end(fitting[0])
        if not fitting:
            return move  # a tile that fits no end: the variant decides (wrong play)
        ends = ", ".join(str(END_NAMES[e]) for e in fitting)
        raise IllegalMoveError(f"{TILES[tile]} fits more than one end ({ends}): say which")

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see (``None``: a spectator), built from public facts only."""
        revealed = None
        if self.hands_counted():
            revealed = tuple(self.tiles(s) for s in range(self.seats))
        return SeatView(
            variant=self.variant,
            seat=seat,
            seats=self.seats,
            tiles=() if seat is None else self.tiles(seat),
            counts=tuple(h.bit_count() for h in self.hands),
            boneyard=len(self.boneyard),
            layout=self.layout.snapshot(),
            turn=None if self.end is not None else self.turn,
            history=tuple(self.history),
            ends_before=tuple(self.ends_before()),
            scores=tuple(self.scores),
            points=tuple(self.points),
            end=self.end,
            legal_moves=() if seat is None else tuple(self.public_moves_for(seat)),
            revealed=revealed,
            public=self.public_state(),
            setup=self.setup(),
            drawn=() if seat is None else tuple(self.drawn_by(seat)),
            on_table=self.on_table(),
            outcome=None if self.end is None else self.outcome(),
        )

    def on_table(self) -> int:
        """Bitmask of the tiles on the table: in no hand and not in the boneyard."""
        out = mask_of(self.boneyard)
        for h in self.hands:
            out |= h
        return ALL_TILES_MASK ^ out

    def ends_before(self) -> list[tuple[tuple[int, int], ...]]:
        """The open ends just before each action so far."""
        return [entry[2] for entry in self._stack]

    def hands_counted(self) -> bool:
        """Whether the hand ended with every hand shown and counted (domino, blocked hand)."""
        return self.end is Termination.DOMINO or self.end is Termination.BLOCKED

    def setup(self) -> dict[str, Any]:
        """The public arguments the hand was built with, besides the deal (see ``SeatView.setup``)."""
        return {}

    def drawn_by(self, seat: int) -> list[Tile]:
        """The tiles ``seat`` drew, in order (private to that seat)."""
        return []

    @staticmethod
    def check_deal(deal: Sequence[int], boneyard: int, size: int, lengths: Sequence[int] = ()) -> tuple[int, ...]:
        """Check that the seats' bitmasks hold ``size`` tiles each and, with the
        boneyard mask, each of the 28 tiles exactly once; return them as a tuple."""
        union, total, ok = boneyard, boneyard.bit_count(), True
        for m in deal:
            union |= m
            n = m.bit_count()
            total += n
            ok = ok and n == size
        if ok and union == ALL_TILES_MASK and total == 28 and (not lengths or all(n == size for n in lengths)):
            return tuple(deal)
        seen = 0
        for seat, m in enumerate(deal):
            n = lengths[seat] if lengths else m.bit_count()
            if n != size or m.bit_count() != size:
                raise MoveError(f"seat {seat} must be dealt {size} different tiles, got {n}")
            if m & seen:
                raise MoveError(f"seat {seat} was dealt a tile dealt to another seat")
            seen |= m
        raise MoveError("the deal and the boneyard must hold each of the 28 tiles exactly once")

    def __repr__(self) -> str:
        hands = " ".join(f"{s}:[{' '.join(str(t) for t in self.tiles(s))}]" for s in range(self.seats))
        state = self.end or f"turn {self.turn}"
        return f"<{type(self).__name__} {state} {self.layout!r} {hands} points={self.points}>"
