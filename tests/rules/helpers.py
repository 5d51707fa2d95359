"""Helpers shared by the rules tests: deals written as text."""

from __future__ import annotations

from capicua.rules import Tile


def deal(*seats: str) -> list[list[Tile]]:
    """Four seats' tiles from strings like ``"6-6 5-5 4-2 3-1 0-0 6-1 3-2"``; checks the 28 tiles."""
    hands = [[Tile.parse(t) for t in seat.split()] for seat in seats]
    tiles = [t for h in hands for t in h]
    assert len(hands) == 4 and all(len(h) == 7 for h in hands)
    assert len(set(tiles)) == 28
    return hands


def shift(seats: tuple[str, ...], k: int) -> tuple[str, ...]:
    """The same deal with every seat's tiles moved ``k`` seats on (seat s's tiles go to seat s+k)."""
    return tuple(seats[(s - k) % 4] for s in range(4))
