"""Engine speed: random hands and matches per second on one core, side by side with peer engines.

    pip install -e '.[bench]'        # the peers: abw333's dominoes, OpenSpiel
    python bench/engine.py [--seconds 1.5] [--runs 3] [--no-peers]

Each row is the median of ``--runs`` runs of about ``--seconds`` each, in this one
process pinned to one core. The harness has the same shape for every row, ours
and the peers': deal (shuffle), then uniformly random entries of ``legal_moves``
until the hand ends, then read the payoff. Random play never calls galo (a call
that rides on a play, not an entry of ``legal_moves``) and makes no fined or
referee actions.

The comparison rows are 4-player partnership block hands: Dominousa without
fines for capicua, each peer's default partnership game for the peers (see
``bench/peers.py`` for how they differ: who leads, passes as actions).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from capicua.rules import variants
from capicua.rules.amazonense import AmazonenseHand
from capicua.rules.dominousa import DominousaHand
from capicua.rules.individual import IndividualHand
from capicua.rules.match import Match, shuffled_deal

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers import PEERS


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


def dominousa_hands(n: int, seed: int) -> int:
    """Play ``n`` random Dominousa hands (casual: no fines), the lead rotating; return the actions."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    for i in range(n):
        deal, _ = shuffled_deal(rng, 4)
        hand = DominousaHand.from_masks(deal, leader=i & 3)
        push = hand.push
        while hand.end is None:
            push(choice(hand.legal_moves))
            actions += 1
        _payoff = hand.points
    return actions


def individual_hands(players: int) -> Callable[[int, int], int]:
    def run(n: int, seed: int) -> int:
        rng = random.Random(seed)
        choice = rng.choice
        actions = 0
        for _ in range(n):
            deal, boneyard = shuffled_deal(rng, players)
            hand = IndividualHand.from_masks(deal, boneyard)
            push = hand.push
            while hand.end is None:
                push(choice(hand.legal_moves))
                actions += 1
            _payoff = hand.points
        return actions

    run.__name__ = f"individual_{players}p_hands"
    return run


def matches(variant: str, players: int | None = None) -> Callable[[int, int], int]:
    """Random matches through ``Match`` (dealing, leads, match end); the counter is hands played."""

    def run(n: int, seed: int) -> int:
        rng = random.Random(seed)
        choice = rng.choice
        hands = 0
        for _ in range(n):
            match = Match(variants.get(variant), players=players, seed=rng.getrandbits(32))
            while not match.is_over():
                if match.needs_deal():
                    match.deal()
                    hands += 1
                match.push(choice(match.hand.legal_moves))
        return hands

    return run


def rate(fn: Callable[[int, int], int], seconds: float, runs: int) -> tuple[float, float]:
    """Median items per second over ``runs`` runs, and the mean counter per item."""
    n = 1
    while True:  # calibrate the batch to about ``seconds``
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
    parser.add_argument("--seconds", type=float, default=1.5, help="length of one run (default 1.5)")
    parser.add_argument("--runs", type=int, default=3, help="runs per row; the median is shown (default 3)")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer engines")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    rows: list[tuple[str, Callable[[int, int], int], str]] = [
        ("Amazonense random hands", amazonense_hands, "actions/hand"),
        ("Amazonense random matches to 200", matches("amazonense"), "hands/match"),
        ("Individual 2 players, random rounds", individual_hands(2), "actions/round"),
        ("Individual 3 players, random rounds", individual_hands(3), "actions/round"),
        ("Individual 4 players, random rounds", individual_hands(4), "actions/round"),
        ("Individual 2 players, random matches to 100", matches("individual", 2), "rounds/match"),
        ("Dominousa random hands (no fines)", dominousa_hands, "actions/hand"),
        ("Dominousa random matches to 200", matches("dominousa"), "hands/match"),
    ]
    peers = {} if args.no_peers else PEERS
    console = Console()
    results: dict[str, tuple[float, float]] = {}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("benchmarking", total=len(rows) + len(peers))
        for label, fn, _ in rows:
            progress.update(task, description=label)
            results[label] = rate(fn, args.seconds, args.runs)
            progress.advance(task)
        for label, fn in peers.items():
            progress.update(task, description=label)
            results[label] = rate(fn, args.seconds, args.runs)
            progress.advance(task)

    where = f"CPython {platform.python_version()} on {platform.machine()}, one core, median of {args.runs}"
    table = Table(title=f"capicua engine — {where}")
    table.add_column("what")
    table.add_column("per second", justify="right")
    table.add_column("detail", justify="right")
    for label, _, unit in rows:
        speed, per = results[label]
        table.add_row(label, f"{speed:,.0f}", f"{per:.1f} {unit}")
    console.print(table)

    ours_label = "Dominousa random hands (no fines)"
    ours = results[ours_label][0]
    versus = Table(title="4-player partnership block hands, random play, side by side")
    versus.add_column("engine")
    versus.add_column("hands/s", justify="right")
    versus.add_column("actions/hand", justify="right")
    versus.add_column("capicua ÷ engine", justify="right")
    versus.add_row("capicua (Dominousa, no fines)", f"{ours:,.0f}", f"{results[ours_label][1]:.1f}", "1.00")
    for label in peers:
        speed, per = results[label]
        versus.add_row(label, f"{speed:,.0f}", f"{per:.1f}", f"{ours / speed:.2f}")
    if not peers:
        versus.add_row("(peers not installed: pip install -e '.[bench]')", "", "", "")
    console.print(versus)


if __name__ == "__main__":
    main()
