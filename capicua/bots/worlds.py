"""What a seat knows, and possible worlds consistent with it.

Everything here reads a :class:`~capicua.rules.hand.SeatView` and nothing else:
the seat's own tiles, the table, the public history with the open ends before
each action, scores, tile counts, touched tiles, and the tiles the seat itself
drew. From that, :func:`knowledge` works out which tiles are unseen and which
numbers each other seat is known to lack (voids revealed by passes, draws, right
galos and right claims), and :func:`sample_world` deals the unseen tiles at
random under those constraints, rebuilds the hand from its public setup and
replays the public history on it. A world whose replay does not reproduce the
view exactly (scores, turn, counts) is thrown away, so every world returned is
one the seat cannot tell from the real one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from capicua.rules import variants
from capicua.rules.hand import Hand, SeatView
from capicua.rules.moves import ANNOUNCE, CLAIM, DRAW, KEEP, PASS, REDEAL, Move, MoveError
from capicua.rules.tiles import ALL_TILES_MASK, DOUBLE_MASK, NUMBER_MASK, TILES, Tile

__all__ = ["Knowledge", "knowledge", "nobody_else_can_play", "sample_world"]


@dataclass
class Knowledge:
    """What ``seat`` knows about the hidden tiles."""

    seat: int
    unseen: int  # tiles whose place the seat does not know
    held: list[int]  # tiles known to be in each seat's hand (own hand, exposed, taken back)
    need: list[int]  # how many unseen tiles each seat holds
    boneyard: int  # how many tiles the boneyard holds
    voids: list[int] = field(default_factory=list)  # per seat: mask of the tiles he cannot hold
    played: list[int] = field(default_factory=list)  # per seat: tiles he laid on the table
    #: A6: seats known to hold a number of doubles: seat -> (fewest, most) unseen doubles he holds.
    doubles: dict[int, tuple[int, int]] = field(default_factory=dict)


def _pips_mask(ends: tuple[tuple[int, int], ...]) -> int:
    m = 0
    for _, pip in ends:
        m |= NUMBER_MASK[pip]
    return m


def knowledge(view: SeatView) -> Knowledge:
    """Work out what ``view.seat`` knows: unseen tiles, known holdings and voids."""
    assert view.seat is not None, "a spectator has no hand to reason from"
    me, n = view.seat, view.seats
    on_table = view.on_table
    held = [0] * n
    for t in view.tiles:
        held[me] |= t.mask
    for s, tiles in enumerate(view.public.get("touched", [])):  # C7: face up on the table
        for text in tiles:
            held[s] |= Tile.parse(text).mask
    played = [0] * n
    voids = [0] * n
    fined = {sc.action for sc in view.scores if sc.kind == "fine"}
    galo_right = {sc.action for sc in view.scores if sc.kind == "galo"}
    history = view.history
    ends_before = view.ends_before
    current_ends = tuple((0, pip) for pip in view.layout["ends"].values()) if view.layout.get("ends") else ()
    last_actor: list[object] = [None] * n
    for i, (seat, move) in enumerate(history):
        if not isinstance(move, Move) or seat is None:
            continue
        ends = ends_before[i]
        after = ends_before[i + 1] if i + 1 < len(history) else current_ends
        if move.is_play:
            assert move.tile is not None
            bit = move.tile.mask
            if on_table & bit:
                played[seat] |= bit
            elif seat != me:
                held[seat] |= bit  # a fined play: the tile went back to his hand (C6)
            if (i + 1) in galo_right:
                for other in range(n):
                    if other != seat:
                        voids[other] |= _pips_mask(after)
        elif move is PASS and (i + 1) not in fined:
            voids[seat] |= _pips_mask(ends)
        elif move is DRAW:
            # He had nothing for these ends, nor had the tiles he drew before the one that fitted.
            # Tiles drawn in a later sequence may carry them: keep only the latest sequence's ends.
            if last_actor[seat] is not DRAW:
                voids[seat] = 0
            voids[seat] |= _pips_mask(ends)
        elif move is CLAIM and (i + 1) not in fined and seat is not None:
            for other in range(n):
                if other != seat:
                    voids[other] |= _pips_mask(ends)
        last_actor[seat] = move
    for s in range(n):
        played[s] &= ~held[s]
    doubles: dict[int, tuple[int, int]] = {}
    _doubles_facts(view, held, played, voids, doubles)
    known = on_table
    for h in held:
        known |= h
    unseen = ALL_TILES_MASK & ~known
    need = [max(0, view.counts[s] - held[s].bit_count()) for s in range(n)]
    need[me] = 0
    return Knowledge(me, unseen, held, need, view.boneyard, voids, played, doubles)


def _doubles_facts(
    view: SeatView, held: list[int], played: list[int], voids: list[int], doubles: dict[int, tuple[int, int]]
) -> None:
    """A3: seats passed over for the lead after a batida hold no double (a hand opened by the seat
    that went out: its setup names an ``opener``); A6: an announcement means exactly 4 doubles, a
    keep or redeal 5 or more."""
    opener = view.setup.get("opener")
    leader = view.public.get("leader")
    if opener is not None and leader is not None:
        seat = opener
        while seat != leader:
            voids[seat] |= DOUBLE_MASK
            seat = (seat + 1) % view.seats
    for seat, move in view.history:
        if seat is None or seat == view.seat:
            continue
        if move in (ANNOUNCE, KEEP, REDEAL):
            known = ((held[seat] | played[seat]) & DOUBLE_MASK).bit_count()
            if move is ANNOUNCE:
                doubles[seat] = (4 - known, 4 - known)
            else:
                doubles[seat] = (max(0, 5 - known), 7)


def nobody_else_can_play(k: Knowledge, fit: int, seat: int, seats: int) -> bool:
    """Certain from what ``seat`` knows: no other seat can hold a tile in ``fit``."""
    for other in range(seats):
        if other == seat:
            continue
        if k.held[other] & fit:
            return False
        if k.need[other] and (k.unseen & fit & ~k.voids[other]):
            return False
    return True


def _deal_unseen(k: Knowledge, rng: random.Random) -> tuple[list[int], list[int]] | None:
    """Give each seat ``need`` unseen tiles it may hold; the rest go to the boneyard (random order)."""
    tiles = [t for t in range(28) if k.unseen >> t & 1]
    rng.shuffle(tiles)
    seats = [s for s in range(len(k.need)) if k.need[s]]
    need = list(k.need)
    hands = [0] * len(need)
    voids = list(k.voids)
    for seat, (fewest, most) in k.doubles.items():  # A6 first: who holds how many doubles
        doubles = [t for t in tiles if DOUBLE_MASK >> t & 1 and not voids[seat] >> t & 1]
        count = rng.randint(fewest, min(most, len(doubles), need[seat]))
        if count < fewest:
            return None
        for t in doubles[:count]:
            hands[seat] |= 1 << t
            tiles.remove(t)
        need[seat] -= count
        if count == most:
            voids[seat] |= DOUBLE_MASK
    # Most constrained tiles first: those fewer seats can hold.
    tiles.sort(key=lambda t: sum(1 for s in seats if not voids[s] >> t & 1))
    boneyard: list[int] = []
    room = k.boneyard
    for t in tiles:
        options = [s for s in seats if need[s] and not voids[s] >> t & 1]
        if room:
            options.append(-1)
        if not options:
            return None
        # Weight by room left, so that counts fill evenly.
        weights = [need[s] if s >= 0 else room for s in options]
        pick = rng.choices(options, weights)[0]
        if pick < 0:
            boneyard.append(t)
            room -= 1
        else:
            hands[pick] |= 1 << t
            need[pick] -= 1
    if any(need) or room:
        return None
    rng.shuffle(boneyard)
    return hands, boneyard


def sample_world(view: SeatView, rng: random.Random, k: Knowledge | None = None, tries: int = 200) -> Hand | None:
    """A hand the seat cannot tell from the real one, or None if none was found in ``tries``."""
    if k is None:
        k = knowledge(view)
    variant = variants.get(view.variant)
    me = k.seat
    my_draws = [t.index for t in view.drawn]
    for _ in range(tries):
        dealt = _deal_unseen(k, rng)
        if dealt is None:
            continue
        hidden, rest = dealt
        current = [k.held[s] | hidden[s] for s in range(view.seats)]
        order = _draw_order(view, current, k, my_draws, rng)
        if order is None:
            continue
        drawn_by = [0] * view.seats
        for seat, t in order:
            drawn_by[seat] |= 1 << t
        deal = [(current[s] | k.played[s]) & ~drawn_by[s] for s in range(view.seats)]
        if any(m.bit_count() != 7 for m in deal):
            continue
        try:
            hand = variant.hand_from_setup(deal, [t for _, t in order] + rest, view.setup)
            for actor, action in view.history:
                hand.push(action, actor)
        except (MoveError, ValueError):
            continue
        if hand.turn == view.turn and tuple(hand.scores) == view.scores and hand.hands[me] == current[me]:
            return hand
    return None


def _draw_order(
    view: SeatView, current: list[int], k: Knowledge, my_draws: list[int], rng: random.Random
) -> list[tuple[int, int]] | None:
    """Which tile each public ``draw`` took, in order: the seat's own draws as he saw them; for
    the others, the tile they played right after a run of draws, and before it tiles of theirs
    that fit none of the ends they drew on."""
    history = view.history
    order: list[tuple[int, int]] = []
    used = 0
    mine = iter(my_draws)
    for i, (seat, move) in enumerate(history):
        if move is not DRAW or seat is None:
            continue
        if seat == k.seat:
            order.append((seat, next(mine)))
            used |= 1 << order[-1][1]
            continue
        nxt = history[i + 1] if i + 1 < len(history) else None
        if nxt is not None and nxt[0] == seat and isinstance(nxt[1], Move) and nxt[1].is_play:
            assert nxt[1].tile is not None
            t = nxt[1].tile.index  # the drawn tile that fitted, played at once (B3)
        else:
            blocked = _pips_mask(view.ends_before[i])
            pool = (current[seat] | k.played[seat]) & ~used & ~blocked
            if not pool:
                return None
            candidates = [x for x in range(28) if pool >> x & 1]
            t = rng.choice(candidates)
        if used >> t & 1:
            return None
        used |= 1 << t
        order.append((seat, t))
    return order


def describe(k: Knowledge) -> str:
    """A readable summary (for debugging bots)."""
    voids = ", ".join(
        f"{s}: no {''.join(str(p) for p in range(7) if k.voids[s] & NUMBER_MASK[p] == NUMBER_MASK[p])}"
        for s in range(len(k.voids))
        if k.voids[s]
    )
    unseen = " ".join(str(TILES[t]) for t in range(28) if k.unseen >> t & 1)
    return f"unseen: {unseen}; need {k.need}; boneyard {k.boneyard}; voids {voids or '-'}"
