"""Dominousa: Latin partnership dominoes under competition rules.

4 players in 2 partnerships on a line (C1), domino and tranque scoring (C3, C4),
fines (C6), touched tile (C7), a table referee (C8) and strict mode (C9), in
which rule-breaking actions are fined instead of rejected. Rule ids refer to
``shared/rules/README.md``; ``docs/rules/dominousa.md`` explains each.

>>> from capicua.rules import Move, Tile
>>> t = Tile.parse
>>> deal = [[t(x) for x in seat.split()] for seat in (
...     "6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
...     "4-3 4-2 4-1 4-0 3-3 3-2 3-1", "3-0 2-2 2-1 2-0 1-1 1-0 0-0")]
>>> hand = DominousaHand(deal, leader=0, strict=True)
>>> hand.push(Move.parse("6-6"))
>>> hand.push(Move.parse("3-0 R"), seat=3)  # out of turn: fined 20, the tile goes back
>>> hand.scores[-1], hand.turn, hand.hands[3] == hand.deal[3]
(Score(action=2, seat=3, kind='fine', points=20, to=0), 1, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from capicua.rules.hand import Hand, IllegalMoveError
from capicua.rules.line import LineHand
from capicua.rules.moves import CLAIM, LEAD, PASS, TIME, Action, Move, MoveError, RefereeAction
from capicua.rules.outcome import MatchOutcome, MatchTermination, Outcome, Termination
from capicua.rules.tiles import ALL_TILES_MASK, HIGH, LOW, TILES, Tile, TileError, mask_of, pips_of, tiles_of
from capicua.rules.variant import TABLE_OPTIONS, MatchState, Option, Variant, target_option

__all__ = ["FINES", "Dominousa", "DominousaHand", "lead_draw_winner"]

#: C6: the fines, in points to the opposing team.
FINES = {
    "behaviour": 20,
    "pass-with-tile": 50,
    "out-of-turn": 20,
    "wrong-play": 50,
    "jugada-corrida": 20,
    "wrong-claim": 20,
}

_CLAIM_CODE = CLAIM.code
_TIME_CODE = TIME.code
_PASS_CODE = PASS.code


def lead_draw_rank(tile: Tile) -> tuple[int, bool, int]:
    """C2: higher pip total; equal totals: the double, then the tile with the higher half."""
    return (tile.pips, tile.is_double, tile.high)


def lead_draw_winner(draw: Sequence[Tile]) -> int:
    """The seat whose drawn tile is highest (C2).

    >>> lead_draw_winner([Tile(6, 5), Tile(3, 3), Tile(6, 6), Tile(0, 1)])
    2
    >>> lead_draw_winner([Tile(6, 0), Tile(3, 3), Tile(5, 1), Tile(4, 2)])  # 6 each: the double
    1
    """
    if len(set(draw)) != len(draw):
        raise IllegalMoveError("the lead draw holds the same tile twice")
    return max(range(len(draw)), key=lambda s: lead_draw_rank(draw[s]))


class DominousaHand(LineHand):
    """One hand of Dominousa.

    ``leader`` leads any tile (C2). ``strict`` turns on C9. ``time_called``: the
    match clock already ran out in an earlier hand (C5: ``time`` comes once).
    """

    variant = "dominousa"
    partnerships = True

    strict = False
    time_called = False  # the match clock already ran out in an earlier hand
    # State that only referee actions, claims and the clock change; undone through _marks.
    touched: tuple[int, ...] = (0, 0, 0, 0)  # C7: tiles each seat must play at the first opportunity
    lead_losers: frozenset[int] = frozenset()  # C7: seats that lose their next lead
    time_up = False
    awarded: int | None = None
    lead_draw: list[Tile] | None = None  # C2: set on a match's first hand
    #: (action number, state before it) of each marked action, newest first, as a linked list
    #: ((mark, older), or None): a push adds one cell, and a copy of the hand shares the cells.
    _marks: tuple[tuple[int, tuple[Any, ...]], Any] | None = None

    def __init__(
        self,
        deal: Sequence[Sequence[Tile | int]],
        leader: int = 0,
        strict: bool = False,
        time_called: bool = False,
    ) -> None:
        self._init([mask_of(d) for d in deal], leader, strict, time_called)

    @classmethod
    def from_masks(
        cls, deal: Sequence[int], leader: int = 0, strict: bool = False, time_called: bool = False
    ) -> DominousaHand:
        hand = cls.__new__(cls)
        hand._init(deal, leader, strict, time_called)
        return hand

    def _init(self, deal: Sequence[int], leader: int, strict: bool, time_called: bool) -> None:
        if len(deal) != 4:
            raise IllegalMoveError(f"Dominousa is played by 4 players, not {len(deal)}")
        LineHand.__init__(self, deal, (), leader)
        if strict:
            self.strict = True
        if time_called:
            self.time_called = True
        # touched, lead_losers, time_up, awarded, lead_draw and _marks start as the class's values above
        # (a hand is made thousands of times a second in simulations); what changes them sets its own.

    # -- C7 touched tile ----------------------------------------------------------------
    def _must_play(self, seat: int) -> int:
        """The touched tiles ``seat`` must play now: those that fit (any tile fits the lead)."""
        fit = self.layout.fit_mask if self.layout.first is not None else ALL_TILES_MASK
        return self.hands[seat] & self.touched[seat] & fit

    def _restrict(self, seat: int, plays: list[Move]) -> list[Move]:
        must = self._must_play(seat)
        if must:
            return [m for m in plays if must >> (m.code >> 4) & 1]
        return plays

    def _may_play(self, seat: int, tile: int) -> bool:
        must = self._must_play(seat)
        return not must or bool(must >> tile & 1)

    def _may_not_play_reason(self, seat: int, tile: int) -> str:
        must = self._must_play(seat)
        touched = ", ".join(str(TILES[t]) for t in range(28) if must >> t & 1)
        return f"seat {seat} must first play the touched tile {touched} (C7)"

    # -- legal moves --------------------------------------------------------------------
    def claim_is_right(self, seat: int) -> bool:
        """C6: the claimer made the hand's latest play, it is not his turn (the others have still to pass),
        and nobody else holds a fitting tile (C9: any other claim is wrong, the seat to act's included)."""
        if not self.started or seat != self.last or seat == self.turn:
            return False
        fit = self.layout.fit_mask
        return not any(self.hands[s] & fit for s in range(4) if s != seat)

    def legal_moves_for(self, seat: int) -> list[Move]:
        moves = super().legal_moves_for(seat)
        if not self.plain and not self.started:
            moves = self._restrict(seat, moves)  # C7: a touched tile of the leader is his lead
        if self.end is None and seat != self.turn and self.claim_is_right(seat):
            moves.append(CLAIM)
        return moves

    def public_moves_for(self, seat: int) -> list[Move]:
        """C9: outside strict mode ``claim`` is offered only when it is right (it then shows nothing that
        the forced passes would not show at once). In strict mode it is offered to the player who made
        the last play while the others have still to pass, right or wrong: whether it is right depends
        on their tiles, which he may not see (a wrong one is fined)."""
        if not self.strict:
            return self.legal_moves_for(seat)
        moves = [m for m in self.legal_moves_for(seat) if m is not CLAIM]
        if self.end is None and self.started and seat == self.last and seat != self.turn:
            moves.append(CLAIM)
        return moves

    def is_legal(self, move: Action, seat: int | None = None) -> bool:
        """In strict mode fined actions are accepted too; see :meth:`would_be_fined`."""
        if isinstance(move, RefereeAction):
            return False
        if move in self.legal_moves_for(self.turn if seat is None else seat):
            return True
        return self.strict and self.would_be_fined(move, self.turn if seat is None else seat)

    def would_be_fined(self, move: Move, seat: int) -> bool:
        """Whether strict mode (C9) would accept ``move`` from ``seat`` with a fine."""
        if self.end is not None or not 0 <= seat < 4:
            return False
        if move.code == _CLAIM_CODE:
            return not self.claim_is_right(seat)  # C9: every wrong claim, before the lead and in turn too
        if move.code == _PASS_CODE:
            return seat == self.turn and self._holds_a_play(seat)
        if not move.is_play or move.galo:
            return False
        return self._fine_for_play(seat, move) is not None

    def _holds_a_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a tile he could play now (before the lead every tile leads)."""
        return not self.started or self.fitting(seat)

    def play_stands_out_of_turn(self, seat: int) -> bool:
        """C6: in strict mode, the player in control of both ends may play on (a jugada corrida, fined, the
        play stands); every other play out of turn is undone, so its end is never asked for (C9)."""
        return self.strict and seat == self.last and self.claim_is_right(seat)

    def _corrida(self, seat: int, tile: int, end: int) -> bool:
        """C6: a jugada corrida: the player in control of both ends plays on, on an end his tile fits,
        before the others have passed and without the announcement."""
        return seat == self.last and self.claim_is_right(seat) and end in (4, 5) and self.layout.fits(tile, end)

    def _fine_for_play(self, seat: int, move: Move) -> str | None:
        """The C6 fine a play by ``seat`` earns, or None (legal, or rejected outright)."""
        tile, end = move.code >> 4, move.end_code
        if not self.hands[seat] >> tile & 1:
            return None
        if seat != self.turn:
            if self._corrida(seat, tile, end):
                # C7: a jugada corrida with another tile while a touched tile of his fits is refused
                return "jugada-corrida" if self._may_play(seat, tile) else None
            # C9: a play out of turn is fined and undone whatever end it names or omits (before the
            # lead, any seat but the leader's is out of turn)
            return "out-of-turn"
        if not self.started:
            return None  # the leader's lead is no fine (a lead written with an end is refused)
        fits_any = any(pip in (HIGH[tile], LOW[tile]) for _, pip in self.layout.ends)
        if end < LEAD:
            if end not in (4, 5):
                return None
            if self.layout.open_pip[end] not in (HIGH[tile], LOW[tile]) and fits_any:
                return None  # a fitting tile with an end it does not fit: rejected (C9)
        elif fits_any:
            return None  # written without its end although it fits: say where
        if not fits_any:
            return "wrong-play"
        return None

    # -- pushing --------------------------------------------------------------------------
    def _check_play(self, seat: int, tile: int, end: int, move: Move) -> bool | str:
        if self.strict and not move.galo:
            if seat != self.turn and self._corrida(seat, tile, end) and not self._may_play(seat, tile):
                raise IllegalMoveError(self._may_not_play_reason(seat, tile))  # C7, in strict mode too
            fine = self._fine_for_play(seat, move)
            if fine == "jugada-corrida":
                return fine  # the play stands, fined
            if fine is not None:
                self._save(seat, move)
                self._score("fine", FINES[fine], (seat & 1) ^ 1, seat)
                return False  # the tile goes back; the turn does not change
        verdict = super()._check_play(seat, tile, end, move)
        if verdict is True and not self.started and not self._may_play(seat, tile):
            raise IllegalMoveError(self._may_not_play_reason(seat, tile))  # C7: lead the touched tile
        return verdict

    def _fine(self, seat: int, kind: str) -> None:
        self._score("fine", FINES[kind], (seat & 1) ^ 1, seat)

    def _pass(self, seat: int) -> None:
        # C9: a pass holding a playable tile, the leader's before the lead included, is fined and cancelled
        if self.strict and seat == self.turn and self._holds_a_play(seat):
            self._save(seat, PASS)
            self._score("fine", FINES["pass-with-tile"], (seat & 1) ^ 1, seat)
            return  # the pass is cancelled: the same player must play
        super()._pass(seat)

    def _push_word(self, move: Any, seat: int | None) -> None:
        if isinstance(move, RefereeAction):
            self._referee(move)
            return
        if self.end is not None:
            raise IllegalMoveError(f"the hand is over ({self.end})")
        if move.code == _TIME_CODE:
            if seat is not None:
                raise IllegalMoveError("time is called by the table, written '-: time' (C5)")
            self._time()
        elif move.code == _CLAIM_CODE:
            self._claim(self.turn if seat is None else seat)
        else:
            super()._push_word(move, seat)

    def _claim(self, seat: int) -> None:
        if not 0 <= seat < 4:
            raise IllegalMoveError(f"there is no seat {seat}")
        if self.claim_is_right(seat):
            self._save(seat, CLAIM)
            self.turn = seat  # the remaining passes are skipped
            return
        if not self.strict:
            if not self.started or seat == self.turn:
                raise IllegalMoveError(
                    "wrong claim: only the player who made the last play claims, before the others pass (C6)"
                )
            raise IllegalMoveError(f"wrong claim: seat {seat} did not make the last play or another seat can play")
        self._save(seat, CLAIM)
        self._score("fine", FINES["wrong-claim"], (seat & 1) ^ 1, seat)

    def _time(self) -> None:
        if self.time_called or self.time_up:
            raise IllegalMoveError("time is called once a match (C5)")
        self._mark()
        self._save(None, TIME)
        self.time_up = True

    def _mark(self) -> None:
        """Remember the referee/clock state before the action about to be pushed."""
        state = (self.touched, self.lead_losers, self.time_up, self.awarded, self.end, self.plain)
        self._marks = ((len(self._stack), state), self._marks)

    def _undo_extra(self, seat: int | None, move: Any) -> None:
        if self._marks is not None and self._marks[0][0] == len(self._stack):
            (_, (self.touched, self.lead_losers, self.time_up, self.awarded, self.end, self.plain)), self._marks = (
                self._marks
            )

    # -- C8 referee -----------------------------------------------------------------------
    def _referee(self, action: RefereeAction) -> None:
        decision = action.decision
        if self.awarded is not None:
            raise IllegalMoveError("the match was awarded")
        if decision in ("annul", "touch") and self.end is not None:
            raise IllegalMoveError(f"the hand is over ({self.end}): nothing to {decision}")
        seat = action.seat
        if decision in ("fine", "touch") and not (seat is not None and 0 <= seat < 4):
            raise IllegalMoveError(f"referee {decision}: there is no seat {seat}")
        if decision in ("score", "award") and not (seat is not None and 0 <= seat < 2):
            raise IllegalMoveError(f"referee {decision}: the side is team 0 or 1, not {seat}")
        if decision == "fine" and not (action.points and action.points > 0):
            raise IllegalMoveError("referee fine: the points must be positive")
        if decision == "score" and not action.points:
            raise IllegalMoveError("referee score: the correction must not be 0")
        if decision == "touch":
            assert seat is not None and action.tile is not None
            if not self.hands[seat] >> action.tile.index & 1:
                raise IllegalMoveError(f"referee touch: seat {seat} does not hold {action.tile}")
        self._mark()
        self._save(None, action)
        assert seat is not None or decision == "annul"
        if decision == "fine":
            assert seat is not None and action.points is not None
            self._score("fine", action.points, (seat & 1) ^ 1, None)
        elif decision == "score":
            assert seat is not None and action.points is not None
            self._score("referee", action.points, seat, None)
        elif decision == "annul":
            self.end = Termination.ANNULLED
        elif decision == "award":
            self.awarded = seat
            if self.end is None:
                self.end = Termination.AWARDED
        elif decision == "touch":
            assert seat is not None and action.tile is not None
            touched = list(self.touched)
            touched[seat] |= action.tile.mask
            self.touched = tuple(touched)
            self.plain = False
            self.lead_losers = self.lead_losers | {seat}

    # -- hand ends (C3, C4, C7) ---------------------------------------------------------
    def _touched_last(self, seat: int) -> bool:
        """C7: the play that ended the hand was a touched tile of ``seat``."""
        code = self._stack[-1][1]  # a play's code
        return bool(self.touched[seat] >> (code >> 4) & 1)

    def _domino(self, seat: int, tile: int) -> None:
        """C3: the team scores the pips left in all other hands (C7: not with a touched tile)."""
        self.end = Termination.DOMINO
        if not self.touched[seat] >> tile & 1:
            self._score("batida", pips_of(self.held), seat & 1, seat)

    def _blocked(self, blocker: int) -> None:
        """C4: fewer pips scores the total of all hands; equal: the hand is annulled."""
        s0 = pips_of(self.hands[0]) + pips_of(self.hands[2])
        s1 = pips_of(self.hands[1]) + pips_of(self.hands[3])
        if s0 == s1:
            self.end = Termination.ANNULLED
            return
        self.end = Termination.BLOCKED
        team = 0 if s0 < s1 else 1
        if (blocker & 1) == team and self._touched_last(blocker):
            return  # C7: a tranque made with a touched tile scores nothing for his team
        self._score("tranca", s0 + s1, team, blocker)

    def hands_counted(self) -> bool:
        """A tied tranque is counted too (C4), though annulled; a referee's annulment is not."""
        if self.end is Termination.ANNULLED:
            return bool(self._stack) and not isinstance(self._stack[-1][1], RefereeAction)
        return super().hands_counted()

    def outcome(self) -> Outcome | None:
        """C3: the team that went out; C4: the team with fewer pips (equal: annulled, nobody);
        C8: the awarded team. A referee's decision ends a hand with no seat."""
        end = self.end
        if end is None:
            return None
        entry = self._stack[-1] if self._stack else None
        seat = None if entry is None or isinstance(entry[1], RefereeAction) else entry[0]
        if end is Termination.DOMINO:
            assert seat is not None
            return Outcome(end, seat & 1, seat)
        if end is Termination.BLOCKED:
            s0 = pips_of(self.hands[0]) + pips_of(self.hands[2])
            s1 = pips_of(self.hands[1]) + pips_of(self.hands[3])
            return Outcome(end, int(s1 < s0), seat)
        return Outcome(end, self.awarded if end is Termination.AWARDED else None, seat)

    def setup(self) -> dict[str, Any]:
        return {"leader": self.leader, "strict": self.strict, "time_called": self.time_called}

    def public_state(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "last": None if self.last < 0 else self.last,
            "passes": self.passes,
            "strict": self.strict,
            "touched": [[str(t) for t in tiles_of(m & self.hands[s])] for s, m in enumerate(self.touched)],
            "time_up": self.time_up or self.time_called,
        }

    def record_extra(self) -> dict[str, Any]:
        return {} if self.lead_draw is None else {"lead_draw": [str(t) for t in self.lead_draw]}


#: C9: strict mode, on in competitions.
STRICT_OPTION = Option(
    "strict", bool, False, "C9", "strict mode: rule-breaking actions are fined (C6) instead of refused"
)
#: C5: the match clock.
MATCH_MINUTES = Option("match_minutes", int, 40, "C5", "minutes a match may last", minimum=1, maximum=600)


class Dominousa(Variant):
    """Dominousa: Latin partnership dominoes on a line, 200 points or 40 minutes, fines and a referee."""

    name = "dominousa"
    title = "Dominousa"
    partnerships = True
    player_counts = (4,)
    option_specs: ClassVar[tuple[Option, ...]] = (
        target_option(200, "C5"),
        STRICT_OPTION,
        MATCH_MINUTES,
        *TABLE_OPTIONS,
    )
    calls = frozenset({CLAIM})
    referee = True

    def options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """C9/C6: in strict mode a pass is the player's own act: the table never passes for him
        (``auto_pass`` is off there, whatever was asked)."""
        opts = super().options(given)
        if opts["strict"]:
            opts["auto_pass"] = False
        return opts

    def match_clock(self, options: Mapping[str, Any]) -> float | None:
        """C5: 40 minutes by default."""
        minutes = options.get("match_minutes")
        return float(minutes) if minutes else None

    def time_called(self, match: MatchState) -> bool:
        return any(_dominousa(h).time_up for h in match.hands)

    def random_extra(self, match: MatchState) -> dict[str, Any]:
        """C2: on the first hand each player draws a tile to decide the lead."""
        if match.hands:
            return {}
        return {"lead_draw": [str(TILES[t]) for t in match.rng.sample(range(28), 4)]}

    def first_leader(self, first: Hand | None, extra: dict[str, Any]) -> tuple[int, list[Tile] | None]:
        """C2: the seat that drew the highest tile; seat 0 when the record has no draw."""
        draw = extra.get("lead_draw") if first is None else _dominousa(first).lead_draw
        if draw is None:
            return 0, None
        if not isinstance(draw, list) or len(draw) != 4:
            raise MoveError("lead_draw must list the 4 tiles the seats drew (C2)")
        try:
            tiles = [t if isinstance(t, Tile) else Tile.parse(t) for t in draw]
        except (TileError, AttributeError):
            raise MoveError(f"lead_draw: not tiles: {draw!r}") from None
        return lead_draw_winner(tiles), tiles

    def new_hand(
        self,
        match: MatchState,
        deal: Sequence[int],
        boneyard: Sequence[int],
        extra: dict[str, Any],
    ) -> Hand:
        """C2: the lead rotates in turn order from the first leader; C7: a seat that touched
        a tile loses his next lead, which goes to the next seat; C5: ``time`` comes once."""
        if boneyard:
            raise MoveError("Dominousa deals all 28 tiles: the boneyard must be empty")
        previous = match.hands
        first, draw = self.first_leader(previous[0] if previous else None, extra)
        pending: set[int] = set()
        leader = first
        for k in range(len(previous) + 1):
            leader = (first + k) % 4
            if leader in pending:
                pending.discard(leader)
                leader = (leader + 1) % 4
            if k < len(previous):
                pending |= _dominousa(previous[k]).lead_losers
        hand = DominousaHand.from_masks(
            deal,
            leader=leader,
            strict=match.options["strict"],
            time_called=self.time_called(match),
        )
        if not previous:
            hand.lead_draw = draw
        return hand

    def hand_from_setup(self, deal: Sequence[int], boneyard: Sequence[int], setup: dict[str, Any]) -> Hand:
        return DominousaHand.from_masks(deal, setup["leader"], setup["strict"], setup["time_called"])

    def outcome(self, match: MatchState) -> MatchOutcome | None:
        """C5: 200 points, or the higher score once time has run out; equal plays on. C8: awards."""
        t = match.totals
        for h in match.hands:
            awarded = _dominousa(h).awarded
            if awarded is not None:
                return MatchOutcome(MatchTermination.AWARD, int(awarded), tuple(t))
        if t[0] == t[1]:
            return None
        winner = 0 if t[0] > t[1] else 1
        if max(t) >= match.options["target"]:
            return MatchOutcome(MatchTermination.TARGET, winner, tuple(t))
        if self.time_called(match):
            return MatchOutcome(MatchTermination.TIME, winner, tuple(t))
        return None


def _dominousa(hand: Hand) -> DominousaHand:
    assert isinstance(hand, DominousaHand)
    return hand
