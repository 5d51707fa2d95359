"""Hands played on a line (C1): what individual play and Dominousa share.

A :class:`LineHand` lays tiles on the two ends L and R, passes, and, when the
variant has a boneyard, draws (B3). The variant subclasses decide who leads,
what the lead may be, and how a domino or a blocked hand scores; Dominousa adds
its fines and referee on top (``dominousa.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from capicua.rules.hand import Hand, IllegalMoveError, Score
from capicua.rules.layout import LineLayout
from capicua.rules.moves import DRAW, LEAD, LEAD_REVERSED, MOVES, PASS, PLAY_CODES, Move
from capicua.rules.tiles import HIGH, IS_DOUBLE, LOW, TILES, Tile, indices_of, pips_of

__all__ = ["LineHand"]

_PASS_CODE = PASS.code
_DRAW_CODE = DRAW.code
_HALVES = tuple((HIGH[t], LOW[t]) for t in range(28))
_new_score = tuple.__new__


_NEXT_SEAT = {n: tuple((s + 1) % n for s in range(n)) for n in (2, 3, 4)}
_LEADS = tuple(
    (MOVES[t << 4 | LEAD << 1],) if IS_DOUBLE[t] else (MOVES[t << 4 | LEAD << 1], MOVES[t << 4 | LEAD_REVERSED << 1])
    for t in range(28)
)


def lead_moves(mask: int) -> list[Move]:
    """Every lead of the tiles in ``mask``: a non-double may lie either way round (C1)."""
    moves: list[Move] = []
    for t in indices_of(mask):
        moves += _LEADS[t]
    return moves


class LineHand(Hand):
    """Shared state machine of the line games. Subclasses set the rules."""

    layout: LineLayout

    def __init__(
        self,
        deal: Sequence[int],
        boneyard: Sequence[int] = (),
        leader: int = 0,
        lead_mask: int | None = None,
    ) -> None:
        self.seats = n = len(deal)
        bone_mask = 0
        for t in boneyard:
            bone_mask |= 1 << t
        self.deal = self.check_deal(deal, bone_mask, 7)
        if bone_mask.bit_count() != len(boneyard):
            raise IllegalMoveError("the boneyard holds the same tile twice")
        self.hands = list(self.deal)
        self.boneyard_order = tuple(boneyard)
        self.n_boneyard = len(boneyard)
        self.drawn = 0
        self.plain = True  # no seat is limited in what it may play (see _restrict)
        self.next_seat = _NEXT_SEAT[n]
        self.layout = LineLayout()
        if not 0 <= leader < self.seats:
            raise IllegalMoveError(f"the leader must be a seat 0..{self.seats - 1}")
        self.leader = leader
        self.lead_mask = self.deal[leader] if lead_mask is None else lead_mask
        self.turn = leader
        self.last = -1  # seat of the last play
        self.passes = 0  # passes since the last play
        self.end: str | None = None
        self.points = [0] * (2 if self.partnerships else self.seats)
        self.scores: list[Score] = []
        self._stack: list[tuple[Any, ...]] = []

    # -- facts ------------------------------------------------------------------------
    @property
    def boneyard(self) -> list[int]:  # type: ignore[override]
        """The tiles still in the boneyard, in drawing order (hidden from every seat)."""
        return list(self.boneyard_order[self.drawn :])

    @property
    def history(self) -> list[tuple[int | None, Any]]:  # type: ignore[override]
        return [(entry[0], entry[1]) for entry in self._stack]

    @property
    def started(self) -> bool:
        return self.layout.first is not None

    def can_play(self, seat: int) -> bool:
        return bool(self.hands[seat] & self.layout.fit_mask) if self.started else True

    def nobody_can_play(self) -> bool:
        fit = self.layout.fit_mask
        return not any(h & fit for h in self.hands)

    # -- moves ------------------------------------------------------------------------
    @property
    def legal_moves(self) -> list[Move]:
        layout = self.layout
        if self.end is None and layout.first is not None:
            hand = self.hands[self.turn]
            if hand & layout.fit_mask:
                (left_mask, left_plays), (right_mask, right_plays) = layout.plays  # plays_for, inlined
                left, right = hand & left_mask, hand & right_mask
                if left and right:
                    moves = [*left_plays[left], *right_plays[right]]
                else:
                    moves = list(left_plays[left] if left else right_plays[right])
                return moves if self.plain else self._restrict(self.turn, moves)
            return [DRAW] if self.drawn < self.n_boneyard else [PASS]
        return self.legal_moves_for(self.turn)

    def legal_moves_for(self, seat: int) -> list[Move]:
        if self.end is not None or seat != self.turn:
            return []
        if self.layout.first is None:
            return lead_moves(self.hands[seat] & self.lead_mask)
        hand = self.hands[seat]
        if hand & self.layout.fit_mask:
            return self._restrict(seat, self.layout.plays_for(hand))
        return [DRAW] if self.drawn < self.n_boneyard else [PASS]

    def _restrict(self, seat: int, plays: list[Move]) -> list[Move]:
        """Hook: narrow a seat's plays when ``plain`` is off (Dominousa's touched tile, C7)."""
        return plays

    def push(self, move: Any, seat: int | None = None) -> None:
        code = move.code
        if code >= PLAY_CODES or self.end is not None:
            turn = self.turn
            if (
                code == _PASS_CODE
                and self.end is None
                and (seat is None or seat == turn)
                and self.layout.first is not None
                and not self.hands[turn] & self.layout.fit_mask
                and self.drawn == self.n_boneyard
            ):
                # Hot path: a pass by the seat to act, which has nothing to play nor to draw.
                self._save(turn, move)
                self.passes += 1
                self.turn = self.next_seat[turn]
                return
            self._push_word(move, seat)
            return
        if seat is None:
            seat = self.turn
        tile = code >> 4
        end = (code >> 1) & 7
        hands = self.hands
        layout = self.layout
        verdict: bool | str = True
        if not (
            seat == self.turn
            and not code & 1
            and hands[seat] >> tile & 1
            and 3 < end < 6
            and layout.open_pip[end] in _HALVES[tile]
            and (self.plain or self._may_play(seat, tile))
        ):
            verdict = self._check_play(seat, tile, end, move)
            if verdict is False:
                return  # handled otherwise (Dominousa strict mode fined it and took it back)
        self._stack.append(
            (seat, move, layout.ends, self.turn, self.passes, self.last, self.end, len(self.scores), self.drawn)
        )
        if verdict is not True:
            self._fine(seat, str(verdict))  # a play that stands but is fined (jugada corrida)
        hands[seat] ^= 1 << tile
        if end >= LEAD:
            layout.lead(tile, end == LEAD_REVERSED)
        else:
            layout.play(tile, end)
        self.last = seat
        self.passes = 0
        if not hands[seat]:
            self._domino(seat, tile)
            return
        if self.drawn == self.n_boneyard:
            fit = layout.fit_mask
            for h in hands:
                if h & fit:
                    break
            else:
                self._blocked(seat)
                return
        self.turn = self.next_seat[seat]

    def _fine(self, seat: int, kind: str) -> None:
        """Hook: score a fine for a play that stands."""
        raise NotImplementedError

    def _may_play(self, seat: int, tile: int) -> bool:
        """Hook: whether ``seat`` may play ``tile`` now beyond fitting (C7)."""
        return True

    def _check_play(self, seat: int, tile: int, end: int, move: Move) -> bool | str:
        """Judge a play the fast check did not pass: raise the reason it is not allowed,
        return True to apply it (a valid lead), False when it was handled otherwise, or
        the name of a fine to score with it while it stands."""
        if move.galo:
            raise IllegalMoveError("galo is called only in Dominó Amazonense")
        if seat != self.turn:
            raise IllegalMoveError(f"not seat {seat}'s turn: seat {self.turn} is to play")
        if not self.hands[seat] >> tile & 1:
            raise IllegalMoveError(f"seat {seat} does not hold {TILES[tile]}")
        if self.layout.first is None:
            if end < LEAD:
                raise IllegalMoveError(f"{TILES[tile]} is the lead: it takes no end")
            if not self.lead_mask >> tile & 1:
                raise IllegalMoveError(self._lead_error(tile))
            if end == LEAD_REVERSED and IS_DOUBLE[tile]:
                raise IllegalMoveError(f"{TILES[tile]} is a double: it lies the same either way")
            return True
        if end >= LEAD:
            fitting = [e for e, pip in self.layout.ends if pip in _HALVES[tile]]
            if fitting:
                raise IllegalMoveError(f"say on which end {TILES[tile]} goes (L or R)")
            raise IllegalMoveError(f"{TILES[tile]} fits no end")
        if end < 4:
            raise IllegalMoveError(f"a line has only the ends L and R, not {move.end}")
        pip = self.layout.open_pip[end]
        if pip not in _HALVES[tile]:
            raise IllegalMoveError(f"{TILES[tile]} does not fit the {move.end} end ({pip})")
        raise IllegalMoveError(self._may_not_play_reason(seat, tile))

    def _lead_error(self, tile: int) -> str:
        return f"{TILES[tile]} may not lead this hand"

    def _may_not_play_reason(self, seat: int, tile: int) -> str:
        return f"seat {seat} may not play {TILES[tile]} now"

    def _push_word(self, move: Any, seat: int | None) -> None:
        """push() for everything but a play; ``seat`` None means the seat to act."""
        if self.end is not None:
            raise IllegalMoveError(f"the hand is over ({self.end})")
        if seat is None:
            seat = self.turn
        code = move.code
        if code == _PASS_CODE:
            self._pass(seat)
        elif code == _DRAW_CODE:
            self._draw(seat)
        else:
            raise IllegalMoveError(f"{move} is not a move of {self.variant}")

    def _save(self, seat: int | None, move: Any) -> None:
        self._stack.append(
            (seat, move, self.layout.ends, self.turn, self.passes, self.last, self.end, len(self.scores), self.drawn)
        )

    def _pass(self, seat: int) -> None:
        if seat != self.turn:
            raise IllegalMoveError(f"not seat {seat}'s turn: seat {self.turn} is to play")
        if not self.started:
            raise IllegalMoveError("the hand has not been led yet")
        if self.hands[seat] & self.layout.fit_mask:
            raise IllegalMoveError(f"seat {seat} holds a fitting tile and may not pass")
        if self.drawn < self.n_boneyard:
            raise IllegalMoveError(f"seat {seat} must draw from the boneyard, not pass (B3)")
        self._save(seat, PASS)
        self.passes += 1
        self.turn = self.next_seat[seat]

    def _draw(self, seat: int) -> None:
        if seat != self.turn:
            raise IllegalMoveError(f"not seat {seat}'s turn: seat {self.turn} is to play")
        if self.drawn == self.n_boneyard:
            raise IllegalMoveError("the boneyard is empty")
        if not self.started:
            raise IllegalMoveError("nobody draws before the lead")
        if self.hands[seat] & self.layout.fit_mask:
            raise IllegalMoveError(f"seat {seat} holds a fitting tile and may not draw (B3)")
        self._save(seat, DRAW)
        tile = self.boneyard_order[self.drawn]
        self.drawn += 1
        self.hands[seat] |= 1 << tile
        if self.drawn == self.n_boneyard and self.nobody_can_play():
            self._blocked(self.last)

    def pop(self) -> tuple[int | None, Any]:
        if not self._stack:
            raise IndexError("pop from an empty hand")
        seat, move, _, self.turn, self.passes, self.last, self.end, n_scores, drawn = self._stack.pop()
        for score in self.scores[n_scores:]:
            self.points[score.to] -= score.points
        del self.scores[n_scores:]
        if drawn != self.drawn:  # undo a draw
            self.drawn = drawn
            self.hands[seat] ^= 1 << self.boneyard_order[drawn]
        code = move.code
        # A play that was only fined (strict mode) left its tile in the hand.
        if code < PLAY_CODES and not self.hands[seat] >> (code >> 4) & 1:
            self.hands[seat] |= 1 << (code >> 4)
            end = (code >> 1) & 7
            if end >= LEAD:
                self.layout.unlead()
            else:
                self.layout.unplay(end)
        self._undo_extra(seat, move)
        return seat, move

    def _undo_extra(self, seat: int | None, move: Any) -> None:
        """Hook: undo variant state kept outside the stack entry."""

    def _score(self, kind: str, points: int, to: int, seat: int | None) -> None:
        if points:
            self.scores.append(_new_score(Score, (len(self._stack), seat, kind, points, to)))
            self.points[to] += points

    # -- what variants decide -----------------------------------------------------------
    def _domino(self, seat: int, tile: int) -> None:
        raise NotImplementedError

    def _blocked(self, blocker: int) -> None:
        raise NotImplementedError

    def copy(self) -> LineHand:
        c = type(self).__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.hands = self.hands[:]
        c.points = self.points[:]
        c.scores = self.scores[:]
        c._stack = self._stack[:]
        c.layout = self.layout.copy()
        self._copy_extra(c)
        return c

    def _copy_extra(self, c: Any) -> None:
        """Hook: copy variant state that is mutable."""

    def timeout_move(self, seat: int) -> Move:
        """The move the table makes when the clock runs out: the only move, or the
        heaviest tile (fewest pips left to lose), first end in L, R order."""
        moves = self.legal_moves_for(seat)
        if not moves:
            raise IllegalMoveError(f"seat {seat} has nothing to do now")
        return max(moves, key=lambda m: (m.tile.pips if m.tile else -1, -m.code))

    def drawn_by(self, seat: int) -> list[Tile]:
        order = self.boneyard_order
        return [TILES[order[e[8]]] for e in self._stack if e[0] == seat and e[1] is DRAW]

    def pips_left(self) -> list[int]:
        return [pips_of(h) for h in self.hands]

    def fitting(self, seat: int) -> bool:
        return bool(self.hands[seat] & self.layout.fit_mask)
