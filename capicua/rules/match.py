"""A match: hands played one after another until the variant's end (A9, B6, C5).

The match is a state machine too: ``deal`` starts the next hand (from given
tiles, or shuffled by the match's own seeded generator), ``push``/``pop`` act on
the hand in play, and ``winner`` is set when a hand ends with the match decided.

>>> m = Match("amazonense", seed=7)
>>> hand = m.deal()
>>> while not m.is_over():
...     if m.needs_deal():
...         _ = m.deal()
...     m.push(m.hand.timeout_move(m.hand.turn))
>>> m.winner in (0, 1), max(m.totals) >= 200
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from capicua.rules.amazonense import AmazonenseHand
from capicua.rules.dominousa import DominousaHand, lead_draw_winner
from capicua.rules.hand import Hand, IllegalMoveError
from capicua.rules.individual import IndividualHand
from capicua.rules.moves import Action, Move, MoveError
from capicua.rules.tiles import TILES, Tile, TileError, mask_of

__all__ = ["VARIANTS", "Amazonense", "Match", "Variant", "get_variant"]


class Variant:
    """What distinguishes one game from another, as data and methods."""

    name: ClassVar[str]
    partnerships: ClassVar[bool]
    player_counts: ClassVar[tuple[int, ...]]
    defaults: ClassVar[dict[str, Any]]

    def options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """The table options with defaults filled in; unknown keys are kept."""
        opts = dict(self.defaults)
        opts.update(given or {})
        target = opts.get("target")
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise MoveError(f"option target must be a positive integer, got {target!r}")
        return opts

    def new_hand(
        self,
        match: Match,
        deal: Sequence[int],
        boneyard: Sequence[int],
        extra: dict[str, Any],
    ) -> Hand:
        """The next hand of ``match``: ``deal`` holds one tile bitmask per seat, ``boneyard``
        the undealt tile indices in drawing order, ``extra`` a record hand's other fields."""
        raise NotImplementedError

    def winner(self, match: Match) -> int | None:
        """The match winner once the current hand has ended, or ``None``."""
        raise NotImplementedError

    def random_extra(self, match: Match) -> dict[str, Any]:
        """Record fields a shuffled hand adds (Dominousa's lead draw)."""
        return {}

    def hand_from_setup(self, deal: Sequence[int], boneyard: Sequence[int], setup: dict[str, Any]) -> Hand:
        """A hand with this deal, opened as ``setup`` says (a ``SeatView.setup``): how a player
        builds a possible world from what he sees."""
        raise NotImplementedError

    def boneyard_size(self, players: int) -> int:
        """Every variant deals 7 tiles a seat (B1); the rest is the boneyard."""
        return 28 - 7 * players


class Amazonense(Variant):
    name = "amazonense"
    partnerships = True
    player_counts = (4,)
    defaults: ClassVar[dict[str, Any]] = {"target": 200, "move_seconds": 40}

    def new_hand(
        self,
        match: Match,
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
        if last.end == "redeal":
            assert isinstance(last, AmazonenseHand)
            return last.opener
        if last.end == "batida":
            seat = last.history[-1][0]
            assert seat is not None
            return seat
        return None

    def hand_from_setup(self, deal: Sequence[int], boneyard: Sequence[int], setup: dict[str, Any]) -> Hand:
        return AmazonenseHand.from_masks(deal, opener=setup["opener"])

    def winner(self, match: Match) -> int | None:
        """A9: with a team at the target or more, the higher score wins; a tie plays on."""
        t = match.totals
        if max(t) >= match.options["target"] and t[0] != t[1]:
            return 0 if t[0] > t[1] else 1
        return None


class Individual(Variant):
    name = "individual"
    partnerships = False
    player_counts = (2, 3, 4)
    defaults: ClassVar[dict[str, Any]] = {"target": 100, "lead": "highest", "move_seconds": 40}

    def options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        opts = super().options(given)
        if opts["lead"] not in ("highest", "winner"):
            raise MoveError(f"option lead must be 'highest' or 'winner' (B2), got {opts['lead']!r}")
        return opts

    def new_hand(
        self,
        match: Match,
        deal: Sequence[int],
        boneyard: Sequence[int],
        extra: dict[str, Any],
    ) -> Hand:
        """B2: the highest tile leads; with ``lead: winner`` the last round's winner leads any tile."""
        if len(boneyard) != self.boneyard_size(len(deal)):
            raise MoveError(f"with {len(deal)} players the boneyard holds {self.boneyard_size(len(deal))} tiles (B1)")
        leader = None
        if match.options["lead"] == "winner" and match.hands:
            leader = getattr(match.hands[-1], "winner", None)
        return IndividualHand.from_masks(deal, boneyard, leader)

    def hand_from_setup(self, deal: Sequence[int], boneyard: Sequence[int], setup: dict[str, Any]) -> Hand:
        return IndividualHand.from_masks(deal, boneyard, setup["leader"])

    def winner(self, match: Match) -> int | None:
        """B6: the first player at the target at a round's end wins (only round winners score)."""
        totals = match.totals
        best = max(totals)
        if best >= match.options["target"] and totals.count(best) == 1:
            return totals.index(best)
        return None


class Dominousa(Variant):
    name = "dominousa"
    partnerships = True
    player_counts = (4,)
    defaults: ClassVar[dict[str, Any]] = {"target": 200, "strict": False, "move_seconds": 40, "match_minutes": 40}

    def options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        opts = super().options(given)
        if not isinstance(opts["strict"], bool):
            raise MoveError(f"option strict must be true or false (C9), got {opts['strict']!r}")
        return opts

    def random_extra(self, match: Match) -> dict[str, Any]:
        """C2: on the first hand each player draws a tile to decide the lead."""
        if match.hands:
            return {}
        return {"lead_draw": [str(TILES[t]) for t in match.rng.sample(range(28), 4)]}

    def first_leader(self, first: Hand | None, extra: dict[str, Any]) -> tuple[int, list[Tile] | None]:
        """C2: the seat that drew the highest tile; seat 0 when the record has no draw."""
        draw = extra.get("lead_draw") if first is None else getattr(first, "lead_draw", None)
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
        match: Match,
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
                pending |= getattr(previous[k], "lead_losers", frozenset())
        hand = DominousaHand.from_masks(
            deal,
            leader=leader,
            strict=match.options["strict"],
            time_called=any(getattr(h, "time_up", False) for h in previous),
        )
        if not previous:
            hand.lead_draw = draw
        return hand

    def hand_from_setup(self, deal: Sequence[int], boneyard: Sequence[int], setup: dict[str, Any]) -> Hand:
        return DominousaHand.from_masks(deal, setup["leader"], setup["strict"], setup["time_called"])

    def winner(self, match: Match) -> int | None:
        """C5: 200 points, or the higher score once time has run out; equal plays on. C8: awards."""
        for h in match.hands:
            awarded = getattr(h, "awarded", None)
            if awarded is not None:
                return int(awarded)
        t = match.totals
        time_up = any(getattr(h, "time_up", False) for h in match.hands)
        if t[0] != t[1] and (max(t) >= match.options["target"] or time_up):
            return 0 if t[0] > t[1] else 1
        return None


VARIANTS: dict[str, Variant] = {v.name: v for v in (Amazonense(), Individual(), Dominousa())}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise MoveError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None


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
        variant: str | Variant = "amazonense",
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
    ) -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.players = players if players is not None else self.variant.player_counts[-1]
        if self.players not in self.variant.player_counts:
            counts = ", ".join(map(str, self.variant.player_counts))
            raise MoveError(f"{self.variant.name} is played by {counts} players, not {self.players}")
        self.options = self.variant.options(options)
        self.rng = random.Random(seed)
        self.hands: list[Hand] = []
        self.winner: int | None = None
        #: (k, the totals of the first k hands): see ``totals``.
        self._settled: tuple[int, list[int]] = (0, [0] * (2 if self.variant.partnerships else self.players))

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

    def push(self, move: Action, seat: int | None = None) -> None:
        """Make a move in the hand in play; decide the match when the hand ends."""
        if self.winner is not None:
            raise IllegalMoveError("the match is over")
        hand = self.hand
        hand.push(move, seat)
        if hand.end is not None:
            self.winner = self.variant.winner(self)

    def pop(self) -> tuple[int | None, Action]:
        """Undo the last action, going back into the previous hand when needed."""
        while self.hands and not self.hands[-1].history:
            self.hands.pop()
            self._settled = (0, [0] * len(self._settled[1]))  # the hand before may change now
        if not self.hands:
            raise IndexError("pop from a match with no actions")
        action = self.hands[-1].pop()
        self.winner = self.variant.winner(self) if self.hands[-1].end is not None else None
        return action

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        return () if self.needs_deal() else self.hand.legal_moves

    def __repr__(self) -> str:
        state = f"winner={self.winner}" if self.winner is not None else f"hand {len(self.hands)}"
        return f"<Match {self.variant.name} {state} totals={self.totals}>"
