"""Engine speed: random hands and matches per second on one core.

    python bench/engine.py [--seconds 2] [--runs 3]

Each row is the median of ``--runs`` runs of about ``--seconds`` each, in this
one process (one core). The harness is the same shape for every row: deal
(shuffle), then uniformly random entries of ``legal_moves`` until the hand ends,
then the payoff (the hand's points). "Random" plays never call galo: galo is a
call riding on a play, not an entry of ``legal_moves``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from capicua.rules.amazonense import AmazonenseHand
from capicua.rules.match import Match, shuffled_deal


def amazonense_hands(n: int, seed: int) -> int:
    """Play ``n`` random Amazonense hands (each opened on 6-6); return the actions made."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    for _ in range(n):
        deal, _ = shuffled_deal(rng, 4)
        hand = AmazonenseHand.from_masks(deal)
        push = hand.push
        while hand.end is None:
            push(choice(hand.legal_moves))
            actions += 1
        _payoff = hand.points
    return actions


def amazonense_matches(n: int, seed: int) -> int:
    """Play ``n`` random Amazonense matches to 200 through ``Match``; return the hands played."""
    rng = random.Random(seed)
    choice = rng.choice
    hands = 0
    for _ in range(n):
        match = Match("amazonense", seed=rng.getrandbits(32))
        while not match.is_over():
            if match.needs_deal():
                match.deal()
                hands += 1
            match.push(choice(match.hand.legal_moves))
    return hands


def rate(fn: Callable[[int, int], int], seconds: float, runs: int) -> tuple[float, float]:
    """Median items per second over ``runs`` runs, and the mean of the returned counter per item."""
    # Calibrate the batch size to about ``seconds``.
    n = 1
    while True:
        t0 = time.perf_counter()
        fn(n, 12345)
        dt = time.perf_counter() - t0
        if dt > 0.2:
            break
        n *= 2
    n = max(1, int(n * seconds / dt))
    rates, per = [], []
    for r in range(runs):
        t0 = time.perf_counter()
        counter = fn(n, r)
        dt = time.perf_counter() - t0
        rates.append(n / dt)
        per.append(counter / n)
    return statistics.median(rates), statistics.mean(per)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run (default 2)")
    parser.add_argument("--runs", type=int, default=3, help="runs per row; the median is shown (default 3)")
    args = parser.parse_args(argv)

    console = Console()
    table = Table(title=f"capicua engine, one core, median of {args.runs} — Python {platform.python_version()}")
    table.add_column("what")
    table.add_column("per second", justify="right")
    table.add_column("detail", justify="right")
    hands, actions = rate(amazonense_hands, args.seconds, args.runs)
    table.add_row("Amazonense random hands", f"{hands:,.0f}", f"{actions:.1f} actions/hand")
    matches, per = rate(amazonense_matches, args.seconds, args.runs)
    table.add_row("Amazonense random matches to 200", f"{matches:,.0f}", f"{per:.1f} hands/match")
    console.print(table)
    console.print(f"{sys.implementation.name} {platform.python_version()} on {platform.machine()}", style="dim")


if __name__ == "__main__":
    main()
