"""What the bots' tests share."""

from __future__ import annotations

import random

from capicua.rules import variants
from capicua.rules.match import Match
from capicua.rules.randomgame import random_action

#: A game to deal: its name, its player count (None: the game's own), its options.
Game = tuple[str, int | None, dict[str, object]]


def random_position(game: Game, seed: int, steps: int, rng: random.Random | None = None) -> Match:
    """A match of ``game`` dealt with ``seed``, then up to ``steps`` random actions of any kind (announcements,
    wrong galos, claims, fines...) drawn from ``rng`` (by default one seeded with ``seed``), stopping where the
    hand ends."""
    variant, players, options = game
    rng = rng or random.Random(seed)
    match = Match(variants.get(variant), players=players, options=options, seed=seed)
    hand = match.deal()
    for _ in range(steps):
        if hand.end is not None:
            break
        seat, action = random_action(hand, rng)
        hand.push(action, seat)
    return match
