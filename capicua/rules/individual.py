"""Individual dominoes: 2, 3 or 4 players, each for himself, with a boneyard ("morto").

Rule ids (B1…B6) refer to ``shared/rules/README.md``; ``docs/rules/individual.md``
explains each with examples.

>>> from capicua.rules import Move, Tile
>>> t = Tile.parse
>>> deal = [[t(x) for x in "6-6 5-4 4-4 3-1 0-0 2-1 1-0".split()],
...         [t(x) for x in "6-5 6-4 5-5 2-0 3-0 4-1 1-1".split()]]
>>> rest = [t(x) for x in "6-3 6-2 6-1 6-0 5-3 5-2 5-1 5-0 4-3 4-2 4-0 3-3 3-2 2-2".split()]
>>> hand = IndividualHand(deal, rest)
>>> hand.leader, hand.legal_moves  # B2: 6-6 leads
(0, (Move.parse('6-6'),))
>>> hand.push(Move.parse("6-6")); hand.legal_moves
(Move.parse('6-4 L'), Move.parse('6-5 L'), Move.parse('6-4 R'), Move.parse('6-5 R'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from capicua.rules.hand import Hand
from capicua.rules.line import LineHand
from capicua.rules.moves import DRAW, MoveError
from capicua.rules.outcome import MatchOutcome, MatchTermination, Outcome, Termination
from capicua.rules.tiles import LOW_ORDER, START_ORDER, TILES, Tile, mask_of, pips_of
from capicua.rules.variant import TABLE_OPTIONS, MatchState, Option, Variant, target_option

__all__ = ["Individual", "IndividualHand", "highest_tile_holder"]

_START_INDEX = tuple(t.index for t in START_ORDER)
_LOW_RANK = {t.index: rank for rank, t in enumerate(LOW_ORDER)}


def highest_tile_holder(deal: Sequence[int]) -> tuple[int, int]:
    """B2: the seat holding the highest tile in the seed's start order, and that tile.

    >>> highest_tile_holder([Tile(5, 5).mask, Tile(6, 5).mask])  # 5-5 (index 20) beats 6-5
    (0, 20)
    """
    for t in _START_INDEX:
        for seat, mask in enumerate(deal):
            if mask >> t & 1:
                return seat, t
    raise ValueError("nobody holds a tile")


class IndividualHand(LineHand):
    """One round of individual dominoes (B1–B5).

    ``leader``: ``None`` for the default lead (B2: the holder of the highest tile
    in the start order leads that tile); a seat for the "winner leads" option, in
    which that seat leads any tile.
    """

    variant = "individual"
    partnerships = False

    def __init__(
        self,
        deal: Sequence[Sequence[Tile | int]],
        boneyard: Sequence[Tile | int] = (),
        leader: int | None = None,
    ) -> None:
        masks = [mask_of(d) for d in deal]
        order = [t if isinstance(t, int) else t.index for t in boneyard]
        self._init(masks, order, leader)

    @classmethod
    def from_masks(cls, deal: Sequence[int], boneyard: Sequence[int] = (), leader: int | None = None) -> IndividualHand:
        hand = cls.__new__(cls)
        hand._init(deal, boneyard, leader)
        return hand

    def _init(self, deal: Sequence[int], boneyard: Sequence[int], leader: int | None) -> None:
        if not 2 <= len(deal) <= 4:
            raise ValueError(f"individual dominoes is played by 2, 3 or 4 players, not {len(deal)}")
        self.lead_option = leader
        if leader is None:
            seat, tile = highest_tile_holder(deal)
            LineHand.__init__(self, deal, boneyard, seat, 1 << tile)
        else:
            LineHand.__init__(self, deal, boneyard, leader)
        self.winner: int | None = None

    def _lead_error(self, tile: int) -> str:
        lead = (
            next(TILES[t] for t in range(28) if self.lead_mask == 1 << t) if self.lead_mask.bit_count() == 1 else None
        )
        if lead is not None:
            return f"the round is led with {lead}, the highest tile in the start order (B2)"
        return f"seat {self.leader} leads this round"

    def _domino(self, seat: int, tile: int) -> None:
        """B4, B5: going out wins the round and scores every other player's pips."""
        self.end = Termination.DOMINO
        self.winner = seat
        self._score("batida", pips_of(self.held), seat, seat)

    def _blocked(self, blocker: int) -> None:
        """B4: lowest hand wins; tie: who did not block; still tied: the lowest tile (low order)."""
        self.end = Termination.BLOCKED
        sums = [pips_of(h) for h in self.hands]
        best = min(sums)
        tied = [s for s in range(self.seats) if sums[s] == best]
        if len(tied) > 1 and blocker in tied:
            tied.remove(blocker)
        if len(tied) > 1:
            tied.sort(key=lambda s: min(_LOW_RANK[t] for t in range(28) if self.hands[s] >> t & 1))
        winner = tied[0]
        self.winner = winner
        cause = self._stack[-1][0]  # the play, or the draw that emptied the boneyard
        self._score("tranca", sum(sums) - sums[winner], winner, cause)

    def _undo_extra(self, seat: int | None, move: object) -> None:
        if self.end is None:
            self.winner = None

    def setup(self) -> dict[str, Any]:
        return {"leader": self.lead_option, "boneyard": self.n_boneyard}

    def outcome(self) -> Outcome | None:
        """B4: the round goes to who went out, or to the lowest hand of a blocked round."""
        if self.end is None:
            return None
        return Outcome(self.end, self.winner, self._stack[-1][0])

    def public_state(self) -> dict[str, object]:
        return {"leader": self.leader, "last": None if self.last < 0 else self.last, "passes": self.passes}


#: B2: who leads a round.
LEAD_OPTION = Option(
    "lead",
    str,
    "highest",
    "B2",
    "who leads a round: the holder of the highest tile, or the last round's winner",
    choices=("highest", "winner"),
)


class Individual(Variant):
    """Individual dominoes: 2 to 4 players, each for himself, with a boneyard; to 100 by default."""

    name = "individual"
    title = "Dominó individual"
    partnerships = False
    player_counts = (2, 3, 4)
    #: Quick play offers what Brazilians mean by dominó individual: two players and the morto; three beside it.
    quick_counts = (2, 3)
    option_specs: ClassVar[tuple[Option, ...]] = (target_option(100, "B6"), LEAD_OPTION, *TABLE_OPTIONS)
    calls = frozenset({DRAW})
    rating = "points"

    def new_hand(
        self,
        match: MatchState,
        deal: Sequence[int],
        boneyard: Sequence[int],
        extra: dict[str, Any],
    ) -> Hand:
        """B2: the highest tile leads; with ``lead: winner`` the last round's winner leads any tile."""
        if len(boneyard) != self.boneyard_size(len(deal)):
            raise MoveError(f"with {len(deal)} players the boneyard holds {self.boneyard_size(len(deal))} tiles (B1)")
        leader = None
        if match.options["lead"] == "winner" and match.hands:
            outcome = match.hands[-1].outcome()
            leader = None if outcome is None else outcome.winner
        return IndividualHand.from_masks(deal, boneyard, leader)

    def hand_from_setup(self, deal: Sequence[int], boneyard: Sequence[int], setup: dict[str, Any]) -> Hand:
        return IndividualHand.from_masks(deal, boneyard, setup["leader"])

    def outcome(self, match: MatchState) -> MatchOutcome | None:
        """B6: the first player at the target at a round's end wins (only round winners score)."""
        totals = match.totals
        best = max(totals)
        if best >= match.options["target"] and totals.count(best) == 1:
            return MatchOutcome(MatchTermination.TARGET, totals.index(best), tuple(totals))
        return None
