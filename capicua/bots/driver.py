"""One loop that asks the seats in turn: the order every runner of bots follows.

After any change, the seats other than the one to act are asked first (they may have
an optional call: galo right after their play, announcing doubles, a claim), then the
seat to act; a seat with nothing to do is not asked, and the first that acts ends the
round of asking. The arena and ``capicua play`` drive whole matches with
:func:`play_match`; a table asks its bot seats in the same order with
:func:`candidates`, one at a time between its own waits.

>>> from capicua.bots.registry import make_bot
>>> from capicua.rules import Match
>>> from capicua.rules import variants
>>> m = Match(variants.get("individual"), players=2, seed=5)
>>> _ = play_match(m, [make_bot("greedy"), make_bot("random", 1)])
>>> m.is_over()
True
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Sequence
from typing import Protocol

from capicua.rules.hand import Hand, SeatView
from capicua.rules.match import Match
from capicua.rules.moves import Move, MoveError

__all__ = ["Player", "candidates", "next_action", "play_match"]


class Player(Protocol):
    """Anything that answers a seat's view with an action or nothing: a bot, a person at a terminal."""

    def act(self, view: SeatView) -> Move | None: ...


def ask_order(turn: int, players: int) -> Iterator[int]:
    """The seats other than the one to act, in turn order after it, then the one to act."""
    for k in range(1, players + 1):
        yield (turn + k) % players


def candidates(hand: Hand, seats: Container[int]) -> Iterator[int]:
    """The seats of ``seats`` to ask now, in asking order: those with something to do."""
    for seat in ask_order(hand.turn, hand.seats):
        if seat in seats and hand.public_moves_for(seat):
            yield seat


#: Told of each decision: the seat, the seconds it took, and whether it was that seat's turn.
DecisionTimer = Callable[[int, float, bool], None]


def next_action(
    hand: Hand,
    players: Sequence[Player | None],
    timer: DecisionTimer | None = None,
    clock: Callable[[], float] | None = None,
) -> tuple[int, Move] | None:
    """Ask the seats played by ``players`` (None: nobody to ask there) in turn; the first action."""
    for seat in candidates(hand, range(len(players))):
        player = players[seat]
        if player is None:
            continue
        view = hand.view(seat)
        if timer is not None and clock is not None:
            start = clock()
            move = player.act(view)
            timer(seat, clock() - start, view.turn == seat)
        else:
            move = player.act(view)
        if move is not None:
            return seat, move
    return None


def play_match(
    match: Match,
    players: Sequence[Player],
    on_deal: Callable[[Hand], None] | None = None,
    on_action: Callable[[int, Move, Hand], None] | None = None,
    timer: DecisionTimer | None = None,
    clock: Callable[[], float] | None = None,
) -> Match:
    """Play ``match`` to its end with one player a seat; ``on_deal``/``on_action`` hear of each step."""
    while not match.is_over():
        if match.needs_deal():
            hand = match.deal()
            if on_deal is not None:
                on_deal(hand)
        hand = match.hand
        chosen = next_action(hand, players, timer, clock)
        if chosen is None:
            raise RuntimeError(f"nobody acted in {hand!r}")
        seat, move = chosen
        try:
            match.push(move, seat)
        except MoveError as exc:
            raise RuntimeError(f"{players[seat]!r} at seat {seat} made an illegal move {move}: {exc}") from exc
        if on_action is not None:
            on_action(seat, move, hand)
    return match
