"""Tune the ``heuristic`` bot's weights by self-play: coordinate descent in duplicate matches.

    python bench/tune_heuristic.py [--game amazonense] [--players N] [--pairs 150] [--sweeps 2] [--seed 0]
                                   [--start FILE.json] [--out FILE.json]

It starts from the weights the bot ships (``capicua.bots.heuristic.DEFAULT_WEIGHTS`` for the game's layout, or
``--start``'s) and calls them *the best*. A sweep goes through the weights one at a time; for each it tries a
few other values (0, half, one and a half, twice the current one; 1 for a weight at 0) as a *candidate*: the
best with that one weight changed. The candidate plays ``--pairs`` duplicate pairs against the best (every
seed's deals twice, the seats swapped, both sides the same bot but for the weights), all candidates of a step
on the same seeds. The step's best candidate replaces the best when it scored more points than the best over
its matches by at least two standard errors of the mean point margin a match and won more than half of them.
Each sweep draws fresh seeds, so a weight accepted on one sweep's deals is tried again on other deals.

Every candidate prints a row (the weight, its value, matches, the candidate's wins, its win rate with a Wilson
95 % interval, the mean point margin a match and its z), then whether the step moved the best. At the end the
best weights print as a ``Weights(...)`` to paste into ``DEFAULT_WEIGHTS`` and, with ``--out``, as JSON.
A last row plays the best against ``greedy`` (the goal of issue 23: ≥ 65 % in Amazonense).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from capicua.bots.base import Bot
from capicua.bots.driver import play_match
from capicua.bots.heuristic import DEFAULT_WEIGHTS, HeuristicBot, Weights
from capicua.bots.registry import make_bot
from capicua.rules import variants
from capicua.rules.match import Match

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bots import wilson  # bench/bots.py, next to this file


@dataclass
class Duel:
    """Matches of A against B in duplicate, from A's side."""

    matches: int = 0
    wins: int = 0
    margins: list[int] | None = None

    def add(self, won: bool, margin: int) -> None:
        self.matches += 1
        self.wins += won
        if self.margins is None:
            self.margins = []
        self.margins.append(margin)

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    def margin(self) -> tuple[float, float]:
        """The mean point margin a match (A's points minus B's) and its z (mean / standard error)."""
        xs = self.margins or []
        n = len(xs)
        if n < 2:
            return 0.0, 0.0
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1)
        se = math.sqrt(var / n)
        return mean, (mean / se if se else 0.0)


def match_of(a: Bot, b: Bot, game: str, players: int | None, seed: int, a_even: bool) -> tuple[bool, int]:
    """One match, A on the even seats when ``a_even``: whether A won, and A's points minus B's."""
    match = Match(variants.get(game), players=players, seed=seed)
    side = [0 if (s % 2 == 0) == a_even else 1 for s in range(match.players)]
    play_match(match, [a if side[s] == 0 else b for s in range(match.players)])
    totals, winner = match.totals, match.winner
    assert winner is not None
    if match.variant.partnerships:
        team = 0 if a_even else 1
        return winner == team, totals[team] - totals[1 - team]
    ours = sum(p for s, p in enumerate(totals) if side[s] == 0)
    theirs = sum(p for s, p in enumerate(totals) if side[s] == 1)
    return side[winner] == 0, ours - theirs


def duel(a: Bot, b: Bot, game: str, players: int | None, pairs: int, seed: int) -> Duel:
    d = Duel()
    for i in range(pairs):
        for a_even in (True, False):
            b.reseed(seed + i)
            d.add(*match_of(a, b, game, players, seed + i, a_even))
    return d


def candidates(value: float) -> list[float]:
    if value == 0:
        return [1.0]
    return sorted({0.0, round(value * 0.5, 3), round(value * 1.5, 3), round(value * 2.0, 3)} - {value})


def row(step: str, name: str, value: float, d: Duel, note: str = "") -> str:
    lo, hi = wilson(d.wins, d.matches)
    mean, z = d.margin()
    return (
        f"{step:>5} {name:<13} {value:>7.3f} {d.matches:>5} {d.wins:>5} {d.win_rate:>7.1%} "
        f"{lo:>6.1%}–{hi:<6.1%} {mean:>+8.1f} {z:>+6.2f}  {note}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="amazonense", choices=("amazonense", "dominousa", "individual"))
    parser.add_argument("--players", type=int, default=None, help="players, for individual play")
    parser.add_argument("--pairs", type=int, default=150, help="duplicate pairs a candidate plays (default 150)")
    parser.add_argument("--sweeps", type=int, default=2, help="passes over every weight (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--only", nargs="+", choices=Weights.names(), help="tune these weights only")
    parser.add_argument("--start", type=Path, default=None, help="start from these weights (JSON)")
    parser.add_argument("--out", type=Path, default=None, help="write the best weights here (JSON)")
    parser.add_argument("--final", type=int, default=300, help="pairs of the last row, best vs greedy (default 300)")
    args = parser.parse_args(argv)
    layout = variants.get(args.game).layout
    best = DEFAULT_WEIGHTS[layout]
    if args.start is not None:
        best = Weights(**json.loads(args.start.read_text()))
    names = args.only or Weights.names()
    print(f"$ python bench/tune_heuristic.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    print(f"{args.game} ({layout} weights), {args.pairs} pairs a candidate, start: {best}")
    print(
        f"{'step':>5} {'weight':<13} {'value':>7} {'games':>5} {'wins':>5} {'win %':>7} {'95 % CI':^13} "
        f"{'margin':>8} {'z':>6}"
    )
    t0 = time.perf_counter()
    seed = args.seed
    step = 0
    for sweep in range(args.sweeps):
        for name in names:
            step += 1
            current = getattr(best, name)
            champion = HeuristicBot(best)
            tried: list[tuple[float, float, Duel]] = []
            for value in candidates(current):
                d = duel(HeuristicBot(best.with_(**{name: value})), champion, args.game, args.players, args.pairs, seed)
                _, z = d.margin()
                tried.append((z, value, d))
                print(row(str(step), name, value, d), flush=True)
            z, value, d = max(tried, key=lambda x: x[0])
            if z >= 2.0 and d.win_rate > 0.5:
                best = best.with_(**{name: value})
                print(f"{'':>5} {name:<13} {current:g} -> {value:g} (z {z:+.2f}, {d.win_rate:.1%})", flush=True)
            else:
                print(f"{'':>5} {name:<13} stays {current:g}", flush=True)
            seed += args.pairs
        print(f"sweep {sweep + 1} done, {time.perf_counter() - t0:.0f} s: {best}", flush=True)
    final = duel(HeuristicBot(best), make_bot("greedy"), args.game, args.players, args.final, 10**6)
    print(row("final", "vs greedy", 0.0, final))
    print(f"{time.perf_counter() - t0:.0f} s")
    print(f"{layout}: {best!r}")
    if args.out is not None:
        args.out.write_text(json.dumps(best.as_dict(), indent=2) + "\n")


if __name__ == "__main__":
    main()
