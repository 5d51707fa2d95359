"""Dominó Amazonense: 4 players in 2 partnerships, 4 ends, counts of 5 to 200.

Rule ids (A1…A10) refer to ``shared/rules/README.md``; ``docs/rules/amazonense.md``
explains each with examples.

>>> from capicua.rules.tiles import Tile
>>> deal = [["6-6", "5-5", "4-2", "3-1", "0-0", "6-1", "3-2"],
...         ["6-3", "5-4", "4-4", "2-1", "0-1", "5-0", "2-2"],
...         ["6-2", "6-5", "4-3", "1-1", "0-2", "5-3", "4-0"],
...         ["3-3", "6-4", "5-2", "6-0", "5-1", "4-1", "3-0"]]
>>> hand = AmazonenseHand([[Tile.parse(t) for t in d] for d in deal])
>>> hand.legal_moves
(Move.parse('6-6'),)
>>> hand.push(hand.parse_move("6-6")); hand.layout.count()
12
>>> hand.push(hand.parse_move("6-3 W")); hand.scores[-1]
Score(action=2, seat=1, kind='table', points=15, to=1)
>>> hand.push(hand.parse_move("6-2 E")); hand.points
[5, 15]
>>> hand.pop()
(2, Move.parse('6-2 E'))
>>> hand.points
[0, 15]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from capicua.rules.hand import Hand, IllegalMoveError, Score
from capicua.rules.layout import SpinnerLayout
from capicua.rules.moves import (
    ANNOUNCE,
    GALO,
    KEEP,
    LEAD,
    MOVES,
    PASS,
    PLAY_CODES,
    REDEAL,
    Action,
    Move,
    MoveError,
)
from capicua.rules.outcome import MatchOutcome, MatchTermination, Outcome, Termination
from capicua.rules.tiles import (
    DOUBLE_MASK,
    HIGH,
    IS_DOUBLE,
    LOW,
    PIPS,
    TILES,
    Tile,
    indices_of,
    mask_of,
    pips_of,
)
from capicua.rules.variant import TABLE_OPTIONS, MatchState, Option, Variant, target_option

__all__ = ["SIX_SIX", "Amazonense", "AmazonenseHand"]

SIX_SIX = 27  # tile index of 6-6
_PASS_CODE = PASS.code
_GALO_CODE = GALO.code
_ANNOUNCE_CODE = ANNOUNCE.code
_REDEAL_CODE = REDEAL.code
_KEEP_CODE = KEEP.code

_new_score = tuple.__new__  # builds a Score without the NamedTuple's Python-level __new__
#: _HALVES[tile]: the two pips of a tile, to test "does it fit this end?" with one ``in``.
_HALVES = tuple((HIGH[t], LOW[t]) for t in range(28))
_PASS_ONLY = (PASS,)
_pips = pips_of
_DOMINO = Termination.DOMINO
_BLOCKED = Termination.BLOCKED


class AmazonenseHand(Hand):
    """One hand of Dominó Amazonense.

    ``opener`` is how the previous hand ended (A3): ``None`` when the holder of
    6-6 leads it (first hand, after a tranca), or the seat that made the batida,
    who leads any double of his (or, holding none, gives 20 to the other team and
    the lead goes in turn order to the first seat holding a double).
    """

    variant = "amazonense"
    partnerships = True
    seats = 4
    layout: SpinnerLayout

    __slots__ = (
        "_stack",
        "announced",
        "boneyard",
        "deal",
        "decided",
        "doubles_played",
        "doubles_seat",
        "doubles_spoiled",
        "end",
        "galo_window",
        "hands",
        "last",
        "layout",
        "lead_mask",
        "leader",
        "no_double_team",
        "opener",
        "passes",
        "points",
        "scores",
        "turn",
    )

    def __init__(self, deal: Sequence[Sequence[Tile | int]], opener: int | None = None) -> None:
        self._start(self.check_deal([mask_of(d) for d in deal], 0, 7, [len(d) for d in deal]), opener)

    @classmethod
    def from_masks(cls, deal: Sequence[int], opener: int | None = None) -> AmazonenseHand:
        """A hand from the four seats' tile bitmasks (checked like any deal)."""
        hand = cls.__new__(cls)
        hand._start(cls.check_deal(deal, 0, 7), opener)
        return hand

    def _start(self, deal: tuple[int, ...], opener: int | None) -> None:
        self.deal = deal
        self.hands = list(deal)
        self.boneyard: list[int] = []
        self.opener = opener
        self.layout = SpinnerLayout()
        self.no_double_team: int | None = None
        if opener is None:
            self.leader = [m >> SIX_SIX & 1 for m in deal].index(1)
            self.lead_mask = 1 << SIX_SIX
        elif 0 <= opener < 4:
            self.leader = next(s % 4 for s in range(opener, opener + 4) if deal[s % 4] & DOUBLE_MASK)
            self.lead_mask = DOUBLE_MASK
            if self.leader != opener:
                self.no_double_team = (opener & 1) ^ 1
        else:
            raise IllegalMoveError(f"opener must be a seat 0..3, got {opener}")
        doubles = [(m & DOUBLE_MASK).bit_count() for m in deal]
        # At most one seat can hold 4 or more of the 7 doubles.
        self.doubles_seat: int | None = doubles.index(max(doubles)) if max(doubles) >= 4 else None
        self.announced = False
        self.decided = False
        self.doubles_played = 0
        self.doubles_spoiled = False
        self.passes = 0
        self.last = -1
        self.galo_window = False
        self.end: Termination | None = None
        self.points = [0, 0]
        self.scores: list[Score] = []
        self._stack: list[tuple[Any, ...]] = []
        self.turn = self._pre_play_turn()

    # -- facts ------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        """Whether the lead has been played."""
        return self.layout.spinner >= 0

    def _doubles_held(self) -> int:
        return 0 if self.doubles_seat is None else (self.deal[self.doubles_seat] & DOUBLE_MASK).bit_count()

    def _pre_play_turn(self) -> int:
        if self.doubles_seat is not None and self._must_decide(self.doubles_seat):
            return self.doubles_seat
        return self.leader

    def can_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a tile that fits an open end."""
        return bool(self.hands[seat] & self.layout.fit_mask)

    def galo_is_right(self, seat: int) -> bool:
        """A5: nobody but ``seat`` has a fitting tile, and ``seat`` still has one."""
        fit = self.layout.fit_mask
        h = self.hands
        return bool(h[seat] & fit) and not (
            h[(seat + 1) & 3] & fit or h[(seat + 2) & 3] & fit or h[(seat + 3) & 3] & fit
        )

    # -- moves ------------------------------------------------------------------------
    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The moves of the seat to act (``turn``)."""
        layout = self.layout
        if self.end is None and layout.spinner >= 0:
            # Hot path (the body of legal_moves_for for a seat to play after the lead).
            hand = self.hands[self.turn]
            if not hand & layout.fit_mask:
                return _PASS_ONLY
            moves: tuple[Move, ...] = ()
            for number_mask, plays in layout.plays:  # layout.plays_for(hand), inlined
                m = hand & number_mask
                if m:
                    moves += plays[m]
            return moves
        return tuple(self.legal_moves_for(self.turn))

    def legal_moves_for(self, seat: int) -> list[Move]:
        """Every move ``seat`` may make now.

        Plays are listed without a galo call: any of them may carry one
        (``move.with_galo()``), and right after his play the player may call
        :data:`GALO` on its own (A5).
        """
        if self.end is not None:
            return []
        if seat != self.turn:
            if not self.started:
                return [ANNOUNCE] if self._may_announce(seat) else []
            return [GALO] if self.galo_window and seat == self.last else []
        hand = self.hands[seat]
        if not self.started:
            if self._must_decide(seat):
                return [REDEAL, KEEP]
            moves = [MOVES[t << 4 | LEAD << 1] for t in indices_of(hand & self.lead_mask)]
            if self._may_announce(seat):
                moves.append(ANNOUNCE)
            return moves
        if not hand & self.layout.fit_mask:
            return [PASS]
        return self.layout.plays_for(hand)

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        """Whether ``push(move, seat)`` would be accepted (a play may carry galo)."""
        return move.without_galo() in self.legal_moves_for(self.turn if seat is None else seat)

    def _may_announce(self, seat: int) -> bool:
        return seat == self.doubles_seat and not self.announced and self._doubles_held() == 4

    def _must_decide(self, seat: int) -> bool:
        return seat == self.doubles_seat and not self.decided and self._doubles_held() >= 5

    def push(self, move: Action, seat: int | None = None) -> None:
        code = move.code
        if seat is None:
            seat = self.turn
        if code >= PLAY_CODES or self.end is not None:
            if code == _PASS_CODE and self.end is None:
                self._pass(seat)
            else:
                self._push_word(move, seat)
            return
        tile = code >> 4
        end = (code >> 1) & 7
        hands = self.hands
        layout = self.layout
        # The common case, a fitting play by the seat to act, is checked inline;
        # anything else goes through _check_play, which raises or accepts a lead.
        if not (seat == self.turn and hands[seat] >> tile & 1 and end < 4 and layout.open_pip[end] in _HALVES[tile]):
            self._check_play(seat, tile, end)
        self._stack.append(
            (
                seat,
                code,  # the move by its code: entries of plain values are left alone by the garbage collector
                layout.ends,
                self.turn,
                self.passes,
                self.last,
                self.galo_window,
                self.end,
                len(self.scores),
                self.doubles_played,
            )
        )
        hands[seat] ^= 1 << tile
        team = seat & 1
        if end == LEAD:
            count = layout.lead(tile)
            if self.no_double_team is not None:
                self._score("no-double", 20, self.no_double_team, None, action=1)
        else:
            count = layout.play(tile, end)
        if count % 5 == 0 and count:
            self.scores.append(_new_score(Score, (len(self._stack), seat, "table", count, team)))
            self.points[team] += count
        if seat == self.doubles_seat and self.announced and IS_DOUBLE[tile] and not self.doubles_spoiled:
            self.doubles_played += 1
            if self.doubles_played == 4:
                self._score("doubles-4", 40, team, seat)
        fit = layout.fit_mask
        if not hands[seat]:
            self.end = _DOMINO
            opp = team ^ 1
            self._score("batida", _round5(_pips(hands[opp]) + _pips(hands[opp + 2])), team, seat)
            if IS_DOUBLE[tile]:
                self._score("batida-double", 20, team, seat)
            if code & 1:
                self._score("galo-wrong", 50, opp, seat)
            return
        if not (hands[0] & fit or hands[1] & fit or hands[2] & fit or hands[3] & fit):
            self.end = _BLOCKED
            s0 = _pips(hands[0]) + _pips(hands[2])
            s1 = _pips(hands[1]) + _pips(hands[3])
            if s0 < s1:
                self._score("tranca", _round5(s1), 0, seat)
            elif s1 < s0:
                self._score("tranca", _round5(s0), 1, seat)
            if code & 1:
                self._score("galo-wrong", 50, team ^ 1, seat)
            return
        self.passes = 0
        self.last = seat
        self.turn = (seat + 1) & 3
        if code & 1:
            self.galo_window = False
            self._judge_galo(seat)
        else:
            self.galo_window = True

    def _push_word(self, move: Action, seat: int) -> None:
        """push() for everything but a play: pass, galo, announce, redeal, keep."""
        code = move.code
        if self.end is not None:
            raise IllegalMoveError(f"the hand is over ({self.end})")
        if code == _PASS_CODE:
            self._pass(seat)
        elif code == _GALO_CODE:
            self._galo(seat)
        elif code == _ANNOUNCE_CODE:
            self._announce(seat)
        elif code == _REDEAL_CODE or code == _KEEP_CODE:
            self._decide(seat, code == _REDEAL_CODE)
        else:
            raise IllegalMoveError(f"{move} is not a move of Dominó Amazonense")

    def _save(self, seat: int, move: Action) -> None:
        """Record a word move (pass, galo, announce, redeal, keep) with what it may change."""
        self._stack.append(
            (
                seat,
                move.code,
                self.layout.ends,
                self.turn,
                self.passes,
                self.last,
                self.galo_window,
                self.end,
                len(self.scores),
                self.doubles_played,
                self.doubles_spoiled,
                self.announced,
                self.decided,
            )
        )

    @property
    def history(self) -> list[tuple[int | None, Action]]:  # type: ignore[override]
        """The actions so far, as ``(seat, move)``."""
        return [(entry[0], MOVES[entry[1]]) for entry in self._stack]

    def pop(self) -> tuple[int | None, Action]:
        if not self._stack:
            raise IndexError("pop from an empty hand")
        saved = self._stack.pop()
        seat, move = saved[0], MOVES[saved[1]]
        self.turn, self.passes, self.last, self.galo_window, self.end, n_scores, self.doubles_played = saved[3:10]
        if len(saved) > 10:
            self.doubles_spoiled, self.announced, self.decided = saved[10:]
        for score in self.scores[n_scores:]:
            self.points[score.to] -= score.points
        del self.scores[n_scores:]
        code = move.code
        if code < PLAY_CODES:
            assert seat is not None
            self.hands[seat] |= 1 << (code >> 4)
            end = (code >> 1) & 7
            if end == LEAD:
                self.layout.unlead()
            else:
                self.layout.unplay(end)
        return seat, move

    def _score(self, kind: str, points: int, to: int, seat: int | None, action: int | None = None) -> None:
        if points:
            at = len(self._stack) if action is None else action
            self.scores.append(_new_score(Score, (at, seat, kind, points, to)))
            self.points[to] += points

    def _check_play(self, seat: int, tile: int, end: int) -> None:
        """Raise the reason a play is not allowed; return if it is a valid lead (or fits after all)."""
        if seat != self.turn:
            raise IllegalMoveError(f"not seat {seat}'s turn: seat {self.turn} is to play")
        if not self.hands[seat] >> tile & 1:
            raise IllegalMoveError(f"seat {seat} does not hold {TILES[tile]}")
        layout = self.layout
        if layout.spinner < 0:
            if self._must_decide(seat):
                raise IllegalMoveError(f"seat {seat} must first choose redeal or keep (A6)")
            if end != LEAD:
                raise IllegalMoveError(f"{TILES[tile]} is the lead: it takes no end")
            if not self.lead_mask >> tile & 1:
                need = "6-6" if self.opener is None else "a double"
                raise IllegalMoveError(f"the lead must be {need} (A3), not {TILES[tile]}")
            return
        if end > 3:
            raise IllegalMoveError(f"say on which end {TILES[tile]} goes (W, E, N or S)")
        pip = layout.open_pip[end]
        if pip < 0:
            raise IllegalMoveError(f"the {'WENS'[end]} end is not open yet (A1)")
        if pip not in _HALVES[tile]:
            raise IllegalMoveError(f"{TILES[tile]} does not fit the {'WENS'[end]} end ({pip})")

    def _judge_galo(self, seat: int) -> None:
        if self.galo_is_right(seat):
            self._score("galo", 50, seat & 1, seat)
            self.turn = seat  # the three turns are skipped
        else:
            self._score("galo-wrong", 50, (seat & 1) ^ 1, seat)

    def _pass(self, seat: int) -> None:
        if not self.started:
            raise IllegalMoveError("nobody passes before the lead")
        if seat != self.turn:
            raise IllegalMoveError(f"not seat {seat}'s turn: seat {self.turn} is to play")
        if self.hands[seat] & self.layout.fit_mask:
            raise IllegalMoveError(f"seat {seat} holds a fitting tile and may not pass (A4)")
        self._save(seat, PASS)
        self.passes += 1
        if self.passes == 1:
            self._score("pass", 20, self.last & 1, seat)
        if seat == self.doubles_seat:
            self.doubles_spoiled = True
        self.galo_window = False
        self.turn = (seat + 1) & 3

    def _galo(self, seat: int) -> None:
        if not (self.galo_window and seat == self.last):
            raise IllegalMoveError("galo is called only by the player who just played, before the next one acts (A5)")
        self._save(seat, GALO)
        self.galo_window = False
        self._judge_galo(seat)

    def _announce(self, seat: int) -> None:
        if self.started:
            raise IllegalMoveError("doubles are announced before the hand's first play (A6)")
        if seat != self.doubles_seat or self._doubles_held() != 4:
            raise IllegalMoveError(f"seat {seat} was not dealt exactly 4 doubles (A6)")
        if self.announced:
            raise IllegalMoveError("the 4 doubles were already announced")
        self._save(seat, ANNOUNCE)
        self.announced = True

    def _decide(self, seat: int, redeal: bool) -> None:
        word = "redeal" if redeal else "keep"
        if seat != self.doubles_seat or self._doubles_held() < 5:
            raise IllegalMoveError(f"{word} is for a player dealt 5 or more doubles (A6)")
        if self.decided or self.started:
            raise IllegalMoveError(f"seat {seat} already chose (A6)")
        self._save(seat, REDEAL if redeal else KEEP)
        self.decided = True
        if redeal:
            self.end = Termination.REDEAL
        else:
            self._score("doubles-5", 50, seat & 1, seat)
            self.turn = self.leader

    # -- other state-machine parts --------------------------------------------------
    def copy(self) -> AmazonenseHand:
        c = AmazonenseHand.__new__(AmazonenseHand)
        for name in AmazonenseHand.__slots__:
            setattr(c, name, getattr(self, name))
        c.hands = self.hands[:]
        c.points = self.points[:]
        c.scores = self.scores[:]
        c._stack = self._stack[:]
        c.layout = self.layout.copy()
        return c

    def timeout_move(self, seat: int) -> Move:
        """A10: the lowest-risk legal move.

        With 5+ doubles: ``keep`` (50 certain points). Otherwise a pass when it is the
        only move; else the play that scores most table points now, ties broken by
        the heaviest tile (fewest pips left to lose at a batida or tranca). Never galo.
        """
        moves = [m for m in self.legal_moves_for(seat) if not m.galo and m.code not in (_GALO_CODE, _ANNOUNCE_CODE)]
        if not moves:
            raise IllegalMoveError(f"seat {seat} has nothing to do now")
        if KEEP in moves:
            return KEEP
        if len(moves) == 1:
            return moves[0]

        def gain(m: Move) -> tuple[int, int, int]:
            self.push(m, seat)
            got = sum(s.points for s in self.scores if s.to == seat & 1) - sum(
                s.points for s in self.scores if s.to != seat & 1
            )
            self.pop()
            return (got, PIPS[m.code >> 4], -m.code)

        return max(moves, key=gain)

    def setup(self) -> dict[str, Any]:
        return {"opener": self.opener}

    def outcome(self) -> Outcome | None:
        """A7: the team that went out; A8: the team with the lower sum (equal sums: nobody); A6: a
        redeal goes to nobody."""
        if self.end is None:
            return None
        seat = self._stack[-1][0]
        if self.end is _DOMINO:
            return Outcome(_DOMINO, seat & 1, seat)
        if self.end is _BLOCKED:
            s0 = _pips(self.hands[0]) + _pips(self.hands[2])
            s1 = _pips(self.hands[1]) + _pips(self.hands[3])
            return Outcome(_BLOCKED, None if s0 == s1 else int(s1 < s0), seat)
        return Outcome(self.end, None, seat)

    def public_state(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "announced": self.doubles_seat if self.announced else None,
            "passes": self.passes,
            "last": None if self.last < 0 else self.last,
            "galo_window": self.galo_window,
        }


def _round5(n: int) -> int:
    return n - n % 5


class Amazonense(Variant):
    """Dominó Amazonense: 4 players in 2 partnerships, the 6-6 opens 4 ends, counts of 5 score, to 200."""

    name = "amazonense"
    title = "Dominó Amazonense"
    partnerships = True
    player_counts = (4,)
    option_specs: ClassVar[tuple[Option, ...]] = (target_option(200, "A9"), *TABLE_OPTIONS)
    calls = frozenset({GALO, ANNOUNCE, REDEAL, KEEP})
    table_count = True
    layout = "spinner"
    rating_bonus = True

    def new_hand(
        self,
        match: MatchState,
        deal: Sequence[int],
        boneyard: Sequence[int],
        extra: dict[str, Any],
    ) -> Hand:
        if boneyard:
            raise MoveError("Dominó Amazonense deals all 28 tiles: the boneyard must be empty")
        return AmazonenseHand.from_masks(deal, opener=self.opener(match.hands))

    @staticmethod
    def opener(previous: Sequence[Hand]) -> int | None:
        """A3: who opens the next hand: ``None`` (holder of 6-6) or the seat that made the batida.

        A redealt hand (A6) keeps the lead rule of the hand it replaces.
        """
        if not previous:
            return None
        last = previous[-1]
        assert isinstance(last, AmazonenseHand)
        if last.end is Termination.REDEAL:
            return last.opener
        outcome = last.outcome()
        if outcome is not None and outcome.termination is _DOMINO:
            return outcome.seat
        return None

    def hand_from_setup(self, deal: Sequence[int], boneyard: Sequence[int], setup: dict[str, Any]) -> Hand:
        return AmazonenseHand.from_masks(deal, opener=setup["opener"])

    def outcome(self, match: MatchState) -> MatchOutcome | None:
        """A9: with a team at the target or more, the higher score wins; a tie plays on."""
        t = match.totals
        if max(t) >= match.options["target"] and t[0] != t[1]:
            return MatchOutcome(MatchTermination.TARGET, 0 if t[0] > t[1] else 1, tuple(t))
        return None
