"""A match: hands played one after another until the variant's end (A9, B6, C5).

The match is a state machine too: ``deal`` starts the next hand (from given
tiles, or shuffled by the match's own seeded generator), ``push``/``pop`` act on
the hand in play, and ``outcome`` (with ``winner``) is set when a hand ends with
the match decided. What differs between games is asked of ``match.variant``, the
:class:`~capicua.rules.variant.Variant` the match is made from (``variants.get(name)``).

>>> from capicua.rules import variants

>>> m = Match(variants.get("amazonense"), seed=7)
>>> hand = m.deal()
>>> while not m.is_over():
...     if m.needs_deal():
...         _ = m.deal()
...     m.push(m.hand.timeout_move(m.hand.turn))
>>> m.winner in (0, 1), max(m.totals) >= 200, m.outcome.termination
(True, True, <MatchTermination.TARGET: 'target'>)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from capicua.rules.hand import Hand, IllegalMoveError
from capicua.rules.moves import Action, Move, MoveError, RefereeAction, parse_action
from capicua.rules.outcome import MatchOutcome, Termination
from capicua.rules.tiles import Tile, mask_of
from capicua.rules.variant import Variant

__all__ = ["Match", "shuffled_deal"]


_BIT = tuple(1 << t for t in range(28))


def shuffled_deal(rng: random.Random, players: int) -> tuple[list[int], list[int]]:
    """Shuffle the 28 tiles: 7 for each seat, as a bitmask, and the rest in drawing order.

    >>> deal, boneyard = shuffled_deal(random.Random(1), 2)
    >>> [m.bit_count() for m in deal], len(boneyard)
    ([7, 7], 14)
    """
    # The tiles are drawn one at a time, each uniformly from those left, so their order is a
    # uniform permutation: seat 0 gets the first 7, seat 1 the next 7, ..., the boneyard the rest
    # in the order drawn. The draws come from one 160-bit number read in mixed radix: 28! < 2**98,
    # so the bias is below 2**-62, and it costs half of random.shuffle's 27 draws. The 27 draws
    # are written out: a loop costs a quarter more, and the deal is a tenth of a random hand.
    r = rng.getrandbits(160)
    t = list(range(28))
    pop = t.pop
    r, j = divmod(r, 28)
    x0 = pop(j)
    r, j = divmod(r, 27)
    x1 = pop(j)
    r, j = divmod(r, 26)
    x2 = pop(j)
    r, j = divmod(r, 25)
    x3 = pop(j)
    r, j = divmod(r, 24)
    x4 = pop(j)
    r, j = divmod(r, 23)
    x5 = pop(j)
    r, j = divmod(r, 22)
    x6 = pop(j)
    r, j = divmod(r, 21)
    x7 = pop(j)
    r, j = divmod(r, 20)
    x8 = pop(j)
    r, j = divmod(r, 19)
    x9 = pop(j)
    r, j = divmod(r, 18)
    x10 = pop(j)
    r, j = divmod(r, 17)
    x11 = pop(j)
    r, j = divmod(r, 16)
    x12 = pop(j)
    r, j = divmod(r, 15)
    x13 = pop(j)
    r, j = divmod(r, 14)
    x14 = pop(j)
    r, j = divmod(r, 13)
    x15 = pop(j)
    r, j = divmod(r, 12)
    x16 = pop(j)
    r, j = divmod(r, 11)
    x17 = pop(j)
    r, j = divmod(r, 10)
    x18 = pop(j)
    r, j = divmod(r, 9)
    x19 = pop(j)
    r, j = divmod(r, 8)
    x20 = pop(j)
    r, j = divmod(r, 7)
    x21 = pop(j)
    r, j = divmod(r, 6)
    x22 = pop(j)
    r, j = divmod(r, 5)
    x23 = pop(j)
    r, j = divmod(r, 4)
    x24 = pop(j)
    r, j = divmod(r, 3)
    x25 = pop(j)
    r, j = divmod(r, 2)
    x26 = pop(j)
    x27 = t[0]
    bit = _BIT
    masks = [
        bit[x0] | bit[x1] | bit[x2] | bit[x3] | bit[x4] | bit[x5] | bit[x6],
        bit[x7] | bit[x8] | bit[x9] | bit[x10] | bit[x11] | bit[x12] | bit[x13],
        bit[x14] | bit[x15] | bit[x16] | bit[x17] | bit[x18] | bit[x19] | bit[x20],
        bit[x21] | bit[x22] | bit[x23] | bit[x24] | bit[x25] | bit[x26] | bit[x27],
    ]
    if players == 4:
        return masks, []
    order = [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16, x17, x18, x19, x20]
    order += (x21, x22, x23, x24, x25, x26, x27)
    return masks[:players], order[players * 7 :]


class Match:
    """A match of one variant, hand after hand."""

    def __init__(
        self,
        variant: Variant,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
    ) -> None:
        if not isinstance(variant, Variant):
            raise TypeError(f"a match is made from a Variant (variants.get(name)), not {variant!r}")
        self.variant = variant
        self.players = self.variant.check_players(players)
        self.options = self.variant.options(options)
        self.rng = random.Random(seed)
        self.hands: list[Hand] = []
        #: How the match was decided, once it is (see ``Variant.outcome``).
        self.outcome: MatchOutcome | None = None
        #: The winning side (team or seat) once the match is decided: ``outcome.winner``.
        self.winner: int | None = None
        #: (k, the totals of the first k hands): see ``totals``.
        self._settled: tuple[int, list[int]] = (0, [0] * self.variant.sides(self.players))

    @property
    def hand(self) -> Hand:
        """The hand in play (or the last one)."""
        if not self.hands:
            raise IllegalMoveError("no hand has been dealt yet")
        return self.hands[-1]

    @property
    def totals(self) -> list[int]:
        """Points per team (partnerships) or per seat, over all hands.

        The hands before the last one no longer change (``pop`` forgets this sum), so their
        sum is kept and only the last hand's points are added to it.
        """
        settled, totals = self._settled
        if settled < len(self.hands) - 1:
            totals = totals[:]
            for h in self.hands[settled:-1]:
                for i, p in enumerate(h.points):
                    totals[i] += p
            settled = len(self.hands) - 1
            self._settled = (settled, totals)
        out = totals[:]
        if self.hands:
            for i, p in enumerate(self.hands[-1].points):
                out[i] += p
        return out

    def is_over(self) -> bool:
        return self.winner is not None

    def needs_deal(self) -> bool:
        """Whether the next step is dealing a hand."""
        return self.winner is None and (not self.hands or self.hands[-1].end is not None)

    def shuffle(self) -> tuple[list[int], list[int]]:
        """A random deal (one bitmask per seat) and boneyard (tile indices in drawing order)."""
        return shuffled_deal(self.rng, self.players)

    def deal(
        self,
        deal: Sequence[Sequence[Tile | int]] | None = None,
        boneyard: Sequence[Tile | int] = (),
        extra: dict[str, Any] | None = None,
    ) -> Hand:
        """Start the next hand with ``deal`` (or a shuffled one) and return it.

        ``extra`` holds a record hand's other fields (such as Dominousa's ``lead_draw``).
        """
        if not self.needs_deal():
            raise IllegalMoveError("the match is over" if self.winner is not None else "a hand is in play")
        if deal is None:
            masks, boneyard = self.shuffle()
            extra = {**self.variant.random_extra(self), **(extra or {})}
        else:
            if len(deal) != self.players:
                raise MoveError(f"the deal must have {self.players} hands, got {len(deal)}")
            for seat, tiles in enumerate(deal):
                if len(set(tiles)) != len(tiles):
                    raise MoveError(f"seat {seat} was dealt the same tile twice")
            masks = [mask_of(tiles) for tiles in deal]
        if len(set(boneyard)) != len(boneyard):
            raise MoveError("the boneyard holds the same tile twice")
        order = [t if isinstance(t, int) else t.index for t in boneyard]
        hand = self.variant.new_hand(self, masks, order, extra or {})
        self.hands.append(hand)
        return hand

    def parse_action(self, text: str) -> tuple[int | None, Action]:
        """Read an action line of a record (``<seat>: <move>``, ``-: time``, ``ref(…): …``) in the
        context of the hand in play: the seat must exist, and a play written without its end gets
        the one end it fits. Raises MoveError (nothing changes).

        >>> from capicua.rules import variants
        >>> m = Match(variants.get("amazonense"), seed=3)
        >>> _ = m.deal()
        >>> m.parse_action("7: pass")
        Traceback (most recent call last):
        ...
        capicua.rules.moves.MoveError: there is no seat 7
        """
        seat, action = parse_action(text)
        if seat is not None and not 0 <= seat < self.players:
            raise MoveError(f"there is no seat {seat}")
        if isinstance(action, Move):
            action = self.resolve(action, seat)
        return seat, action

    def parse_move(self, text: str, seat: int | None) -> Move:
        """Read a move of ``seat`` (``None``: the table, for ``time``), resolved as :meth:`parse_action`
        resolves one. Raises MoveError for text that is not a move, IllegalMoveError for a move
        this position cannot take.

        >>> from capicua.rules import variants
        >>> m = Match(variants.get("dominousa"), seed=3)
        >>> _ = m.deal()
        >>> m.parse_move("pass", 0)
        Move.parse('pass')
        """
        return self.resolve(Move.parse(text), seat)

    def resolve(self, move: Move, seat: int | None) -> Move:
        """``move`` with its end filled in where the hand in play allows one end only."""
        hand = self.hand
        if hand.end is not None:
            # Only a referee decides anything once a hand has ended (C8).
            raise IllegalMoveError(f"the hand was already over ({hand.end})")
        return hand.resolve(move, hand.turn if seat is None else seat)

    def push(self, move: Action, seat: int | None = None) -> None:
        """Make a move in the hand in play; decide the match when the hand ends."""
        if self.winner is not None:
            raise IllegalMoveError("the match is over")
        if isinstance(move, RefereeAction) and not self.variant.referee:
            raise IllegalMoveError(f"{self.variant.title} has no table referee (C8)")
        hand = self.hand
        hand.push(move, seat)
        if hand.end is not None:
            self._decide()

    def _decide(self) -> None:
        self.outcome = outcome = self.variant.outcome(self)
        self.winner = None if outcome is None else outcome.winner

    def pop(self) -> tuple[int | None, Action]:
        """Undo the last action, going back into the previous hand when needed."""
        while self.hands and not self.hands[-1].history:
            self.hands.pop()
            self._settled = (0, [0] * len(self._settled[1]))  # the hand before may change now
        if not self.hands:
            raise IndexError("pop from a match with no actions")
        action = self.hands[-1].pop()
        if self.hands[-1].end is not None:
            self._decide()
        else:
            self.outcome = self.winner = None
        return action

    def tally(self) -> list[dict[str, tuple[int, int]]]:
        """What each seat's own actions scored over the match, by kind: (how many scores, how many points).

        >>> from capicua.rules import variants
        >>> m = Match(variants.get("amazonense"), seed=1)
        >>> _ = m.deal()
        >>> m.push(m.hand.legal_moves[0])
        >>> m.tally()[m.hand.leader]
        {}
        """
        out: list[dict[str, tuple[int, int]]] = [{} for _ in range(self.players)]
        for hand in self.hands:
            for score in hand.scores:
                if score.seat is not None:
                    count, points = out[score.seat].get(score.kind, (0, 0))
                    out[score.seat][score.kind] = (count + 1, points + score.points)
        return out

    def went_out(self) -> list[int]:
        """How many hands each seat ended by playing his last tile (A7, B4, C3: batida / dominó), whether or
        not that scored (opponents with fewer than 5 pips, a touched tile's domino) (D3).

        >>> from capicua.rules.randomgame import random_match
        >>> m = random_match("amazonense", seed=3)
        >>> sum(m.went_out()) == sum(h.end is Termination.DOMINO for h in m.hands)
        True
        """
        out = [0] * self.players
        for hand in self.hands:
            outcome = hand.outcome()
            if outcome is not None and outcome.termination is Termination.DOMINO and outcome.seat is not None:
                out[outcome.seat] += 1
        return out

    @property
    def time_called(self) -> bool:
        """Whether the match clock has run out (C5; only games with a match clock have one)."""
        return self.variant.time_called(self)

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        return () if self.needs_deal() else self.hand.legal_moves

    def __repr__(self) -> str:
        state = f"winner={self.winner}" if self.winner is not None else f"hand {len(self.hands)}"
        return f"<Match {self.variant.name} {state} totals={self.totals}>"
