"""The engine's instruction count for a fixed set of random matches: a comparison of two versions that load
cannot disturb (valgrind counts instructions, not seconds).

    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out python bench/engine_instructions.py dominousa
    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg0.out python bench/engine_instructions.py   # start-up only

Run it once with no game (the interpreter and the imports) and once per game; the game's count is the
difference. For another version, put a checkout of it first on ``PYTHONPATH``. Each game plays 20 matches to
its target (or 41 hands) of uniformly random legal moves, from seed 7.
"""

from __future__ import annotations

import random
import sys

from capicua.rules import variants
from capicua.rules.match import Match


def play(name: str, matches: int = 20, seed: int = 7) -> int:
    """Play ``matches`` random matches of ``name``; the number of actions played."""
    rng = random.Random(seed)
    game = variants.get(name)
    actions = 0
    for _ in range(matches):
        match = Match(game, players=4, options=game.check_options({}), seed=rng.getrandbits(32))
        while not match.is_over():
            if match.needs_deal():
                masks, boneyard = match.shuffle()
                deal = [[t for t in range(28) if mask >> t & 1] for mask in masks]
                match.deal(deal, list(boneyard), game.random_extra(match))
            hand = match.hand
            while hand.end is None:
                match.push(rng.choice(hand.legal_moves), hand.turn)
                actions += 1
            if len(match.hands) > 40:
                break
    return actions


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(name, play(name), "actions")
