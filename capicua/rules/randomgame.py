"""Random matches that anyone can reproduce from a seed: test material.

Every kind of action a variant has shows up: plays on every end, passes, galo
calls right and wrong (with the play and after it), announcements, redeal or
keep. The table here sees every hand (it is not a player), so it can make the
right galo calls often enough to exercise them.

>>> rec = random_record("amazonense", seed=1)
>>> rec.variant, len(rec.players)
('amazonense', 4)
>>> random_record("amazonense", seed=1) == rec
True
"""

from __future__ import annotations

import random
from typing import Any

from capicua.rules import variants
from capicua.rules.hand import Hand
from capicua.rules.match import Match
from capicua.rules.moves import ANNOUNCE, CLAIM, GALO, KEEP, PASS, REDEAL, TIME, Action, Move, RefereeAction
from capicua.rules.record import Record
from capicua.rules.tiles import tiles_of

__all__ = ["random_action", "random_match", "random_record"]


def _galo_would_be_right(hand: Hand, seat: int, move: Move) -> bool:
    probe = hand.copy()
    probe.push(move, seat)
    return probe.end is None and getattr(probe, "galo_is_right")(seat)  # noqa: B009


def _dominousa_extra(hand: Any, rng: random.Random) -> tuple[int | None, Action] | None:
    """Now and then: a claim, the clock, a referee decision, or (strict) a fined action."""
    if hand.end is not None or not hand.started:
        return None
    r = rng.random()
    seat = rng.randrange(4)
    if r < 0.002 and not (hand.time_called or hand.time_up):
        return None, TIME
    if r < 0.006:
        decision = rng.choice(("fine", "score", "touch", "touch", "annul"))
        if decision == "fine":
            return None, RefereeAction("Rivera", "fine", seat, 20, None, "comment during the hand")
        if decision == "score":
            return None, RefereeAction("Rivera", "score", seat % 2, rng.choice((-10, 5, 10)), None, "count corrected")
        if decision == "annul":
            return None, RefereeAction("Rivera", "annul", None, None, None, "tiles exposed in the shuffle")
        tiles = list(tiles_of(hand.hands[seat]))
        return None, RefereeAction("Rivera", "touch", seat, None, rng.choice(tiles), "tile shown to the table")
    if not hand.strict or r > 0.08:
        return None
    turn = hand.turn
    if r < 0.02 and hand.fitting(turn):
        return turn, PASS  # pass holding a playable tile: 50
    if r < 0.04:
        return (turn + rng.randrange(1, 4)) % 4, CLAIM  # right or wrong
    held = list(tiles_of(hand.hands[seat]))
    tile = rng.choice(held)
    for move in (Move.play(tile, "L"), Move.play(tile, "R"), Move.play(tile)):
        if hand.would_be_fined(move, seat):
            return seat, move
    return None


def random_action(hand: Hand, rng: random.Random) -> tuple[int | None, Action]:
    """A random legal action of any seat, weighted so that every kind appears."""
    if hand.variant == "dominousa":
        extra = _dominousa_extra(hand, rng)
        if extra is not None:
            return extra
        last = getattr(hand, "last", -1)
        if last >= 0 and last != hand.turn and getattr(hand, "claim_is_right")(last) and rng.random() < 0.5:  # noqa: B009
            if getattr(hand, "strict", False) and rng.random() < 0.3:
                # only the plays that stand: C7 refuses a jugada corrida with another tile while a
                # touched tile of his fits (in strict mode too); would_be_fined applies it
                stands = getattr(hand, "would_be_fined")  # noqa: B009
                corridas = [m for m in hand.layout.plays_for(hand.hands[last]) if stands(m, last)]
                if corridas:
                    return last, rng.choice(corridas)  # jugada corrida: stands, fined 20
            return last, CLAIM
    for seat in range(hand.seats):
        if seat == hand.turn:
            continue
        for move in hand.legal_moves_for(seat):
            if move is ANNOUNCE and rng.random() < 0.5:
                return seat, move
            if move is GALO:
                right = getattr(hand, "galo_is_right")(seat)  # noqa: B009
                if rng.random() < (0.7 if right else 0.01):
                    return seat, move
    seat = hand.turn
    moves = hand.legal_moves
    if REDEAL in moves:
        return seat, rng.choice((REDEAL, KEEP))
    if ANNOUNCE in moves and rng.random() < 0.5:
        return seat, ANNOUNCE
    plays = [m for m in moves if m is not ANNOUNCE] or moves
    move = rng.choice(plays)
    if move.is_play and hasattr(hand, "galo_is_right"):
        if _galo_would_be_right(hand, seat, move):
            if rng.random() < 0.3:
                move = move.with_galo()
        elif rng.random() < 0.02:
            move = move.with_galo()
    return seat, move


def random_match(
    variant: str = "amazonense",
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    max_hands: int = 1000,
) -> Match:
    """A complete random match (or ``max_hands`` hands of it)."""
    rng = random.Random(seed)
    match = Match(variants.get(variant), players=players, options=options, seed=rng.getrandbits(64))
    while not match.is_over() and len(match.hands) <= max_hands:
        if match.needs_deal():
            if len(match.hands) == max_hands:
                break
            match.deal()
        seat, move = random_action(match.hand, rng)
        match.push(move, seat)
    return match


def random_record(
    variant: str = "amazonense",
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
) -> Record:
    """The record of :func:`random_match`."""
    match = random_match(variant, seed, players, options)
    names = [f"Bot {i + 1}" for i in range(match.players)]
    return Record.from_match(match, names)
