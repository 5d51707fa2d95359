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
from capicua.rules.layout import LINE_OPEN, LineLayout
from capicua.rules.moves import DRAW, LEAD, LEAD_REVERSED, MOVES, PASS, PLAY_CODES, Move
from capicua.rules.outcome import Termination
from capicua.rules.tiles import (
    ALL_TILES_MASK,
    DOUBLE_MASK,
    HIGH,
    IS_DOUBLE,
    LOW,
    PIPS,
    TILES,
    Tile,
    indices_of,
    pips_of,
)

__all__ = ["LineHand"]

_PASS_CODE = PASS.code
_PASS_ONLY = (PASS,)
_DRAW_ONLY = (DRAW,)
_DRAW_CODE = DRAW.code
_HALVES = tuple((HIGH[t], LOW[t]) for t in range(28))
_new_score = tuple.__new__


#: By end code, the tiles a lead may be written with: any tile as written, a non-double reversed.
_LEAD_FIT = (0, 0, 0, 0, 0, 0, ALL_TILES_MASK, ALL_TILES_MASK ^ DOUBLE_MASK)
_NEXT_SEAT = {n: tuple((s + 1) % n for s in range(n)) for n in (2, 3, 4)}
_LEADS = tuple(
    (MOVES[t << 4 | LEAD << 1],) if IS_DOUBLE[t] else (MOVES[t << 4 | LEAD << 1], MOVES[t << 4 | LEAD_REVERSED << 1])
    for t in range(28)
)


def _action(entry: Any) -> Any:
    """The action an undo entry holds: a move's code, or the action itself (a referee's decision)."""
    return MOVES[entry] if type(entry) is int else entry


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
        self.held = sum(self.deal)  # every tile in some hand (the hands are disjoint)
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
        self.end: Termination | None = None
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
        return [(entry[0], _action(entry[1])) for entry in self._stack]

    @property
    def started(self) -> bool:
        return self.layout.first is not None

    def can_play(self, seat: int) -> bool:
        return bool(self.hands[seat] & self.layout.fit_mask) if self.started else True

    def nobody_can_play(self) -> bool:
        return not self.held & self.layout.fit_mask

    # -- moves ------------------------------------------------------------------------
    @property
    def legal_moves(self) -> tuple[Move, ...]:
        layout = self.layout
        fit = self.hands[self.turn] & layout.fit_mask  # 0 before the lead
        if fit and self.end is None and self.plain:  # the hot path: plays_for, inlined
            (left_mask, left_plays), (right_mask, right_plays) = layout.plays
            left, right = fit & left_mask, fit & right_mask
            if left and right:
                return left_plays[left] + right_plays[right]
            return left_plays[left] if left else right_plays[right]  # a precomputed tuple, as it is
        if self.end is None:
            if layout.first is None:
                if self.plain:
                    return tuple(lead_moves(self.hands[self.turn] & self.lead_mask))
            elif not fit:
                return _DRAW_ONLY if self.drawn < self.n_boneyard else _PASS_ONLY
        return tuple(self.legal_moves_for(self.turn))

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
        turn = self.turn
        hands = self.hands
        layout = self.layout
        tile = code >> 4
        # The hot path: the seat to act lays a tile it holds on an open end it fits. code_fit is 0
        # for galo, the lead codes, every end before the lead, and word moves (tile >= 28).
        if (
            (seat is not None and seat != turn)
            or not (hands[turn] & layout.code_fit[code & 15]) >> tile & 1
            or self.end is not None
            or not self.plain
        ):
            if (
                code == _PASS_CODE
                and (seat is None or seat == turn)
                and not hands[turn] & layout.fit_mask
                and layout.first is not None
                and self.end is None
                and self.drawn == self.n_boneyard
            ):  # a pass by the seat to act, which has nothing to play nor to draw
                self._stack.append((turn, code, layout.ends, turn, self.passes, self.last))
                self.passes += 1
                self.turn = self.next_seat[turn]
            else:
                self._push_other(move, seat, code)
            return
        seat = turn
        self._stack.append((seat, code, layout.ends, turn, self.passes, self.last))
        bit = 1 << tile
        hands[seat] ^= bit
        held = self.held = self.held ^ bit
        if not code & 2:  # L (LineLayout.play, inlined: the hot path)
            layout.lefts.append(tile)
            left = layout.left = PIPS[tile] - layout.left
            layout.ends, fit, layout.plays, layout.code_fit = LINE_OPEN[left * 7 + layout.right]
        else:
            layout.rights.append(tile)
            right = layout.right = PIPS[tile] - layout.right
            layout.ends, fit, layout.plays, layout.code_fit = LINE_OPEN[layout.left * 7 + right]
        layout.fit_mask = fit
        self.last = seat
        self.passes = 0
        if not hands[seat]:
            self._domino(seat, tile)
        elif not held & fit and self.drawn == self.n_boneyard:
            self._blocked(seat)
        else:
            self.turn = self.next_seat[seat]

    def _push_other(self, move: Any, seat: int | None, code: int) -> None:
        """push() for everything but a plain play or pass: leads, draws, words, and the actions
        to check (a fine, an error, a touched tile). ``seat`` None: the seat to act."""
        if code >= PLAY_CODES or self.end is not None:
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
            and (
                (hands[seat] & layout.code_fit[code & 15]) >> tile & 1  # held and fits that end
                or (layout.first is None and (hands[seat] & self.lead_mask & _LEAD_FIT[end]) >> tile & 1)
            )
            and (self.plain or self._may_play(seat, tile))
        ):
            verdict = self._check_play(seat, tile, end, move)
            if verdict is False:
                return  # handled otherwise (Dominousa strict mode fined it and took it back)
        self._save(seat, move)
        if verdict is not True:
            self._fine(seat, str(verdict))  # a play that stands but is fined (jugada corrida)
        bit = 1 << tile
        hands[seat] ^= bit
        self.held ^= bit
        if end >= LEAD:
            layout.lead(tile, end == LEAD_REVERSED)
        else:
            layout.play(tile, end)
        self.last = seat
        self.passes = 0
        if not hands[seat]:
            self._domino(seat, tile)
        elif not self.held & layout.fit_mask and self.drawn == self.n_boneyard:
            self._blocked(seat)
        else:
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
            raise IllegalMoveError(f"galo is not a call of {self.variant}")
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
        """Push the undo entry of an action: who, what (a move by its code), the open ends before it,
        and the scalars it may change. ``pop`` finds the rest: the scores by their action number, a
        draw by its move, the layout by the tile; ``end`` is None before any action but a referee's
        decision, which Dominousa keeps in its marks. Entries of ints only are left alone by Python's
        cyclic garbage collector (a server keeps thousands of hands)."""
        code = move.code if type(move) is Move else move
        self._stack.append((seat, code, self.layout.ends, self.turn, self.passes, self.last))

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
        self.held |= 1 << tile
        if self.drawn == self.n_boneyard and self.nobody_can_play():
            self._blocked(self.last)

    def pop(self) -> tuple[int | None, Any]:
        if not self._stack:
            raise IndexError("pop from an empty hand")
        seat, code, _, self.turn, self.passes, self.last = self._stack.pop()
        move = _action(code)
        self.end = None
        scores, action = self.scores, len(self._stack) + 1
        while scores and scores[-1].action == action:  # the scores this action made
            score = scores.pop()
            self.points[score.to] -= score.points
        if move is DRAW:
            self.drawn -= 1
            bit = 1 << self.boneyard_order[self.drawn]
            self.hands[seat] ^= bit
            self.held ^= bit
        code = move.code
        # A play that was only fined (strict mode) left its tile in the hand.
        if code < PLAY_CODES and not self.hands[seat] >> (code >> 4) & 1:
            self.hands[seat] |= 1 << (code >> 4)
            self.held |= 1 << (code >> 4)
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
        draws = [e[0] for e in self._stack if e[1] == _DRAW_CODE]  # the seat of each draw, in boneyard order
        return [TILES[order[i]] for i, s in enumerate(draws) if s == seat]

    def pips_left(self) -> list[int]:
        return [pips_of(h) for h in self.hands]

    def fitting(self, seat: int) -> bool:
        return bool(self.hands[seat] & self.layout.fit_mask)
