"""Exact search speed: the searching bots' endgame alpha-beta (``capicua.bots.sim``), per world, side by side
with another version of it.

    python bench/search.py [--hands 40] [--runs 7] [--baseline FILE]
    git show REV:capicua/bots/sim.py > /tmp/sim_before.py; python bench/search.py --baseline /tmp/sim_before.py

The positions are every position of random hands (a seeded random match of each game, its legal moves played
at random) where the seat to act has a play and 8 to 16 tiles are left in the hands and the boneyard: the
range where the expert searches exactly. Each run searches every play of every position to its end (a node
budget of 200,000, beyond which a search counts as ``TooBig``), each position with one transposition table, as
the expert does. A row gives the best of ``--runs`` runs of CPU time (``time.process_time``), and the nodes a
second that makes. With ``--baseline``, the other module searches the same positions, run for run
interleaved with ours (the machine's load is then the same for both), it must find the same values, and the
last column is the ratio of the times (ours / baseline: below 1 is faster).
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import time
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from capicua.bots import sim
from capicua.rules import Match, variants
from capicua.rules.hand import Hand

#: (row name, game, players): one row per world the sim has (spinner; line, with and without a boneyard).
ROWS = [
    ("Amazonense (spinner)", "amazonense", 4),
    ("Dominousa (line)", "dominousa", 4),
    ("Individual, 2 (line, boneyard)", "individual", 2),
]
LOW, HIGH = 8, 16
BUDGET = 200_000


def positions(game: str, players: int, hands: int) -> list[Hand]:
    """The positions of ``hands`` random hands of ``game`` that an exact search would take."""
    rng = random.Random(f"{game}/{players}")
    out: list[Hand] = []
    dealt = 0
    match = Match(variants.get(game), players=players, seed=rng.getrandbits(32))
    while True:
        if match.is_over():
            match = Match(variants.get(game), players=players, seed=rng.getrandbits(32))
        if match.needs_deal():
            if dealt == hands:
                return out
            match.deal()
            dealt += 1
        hand = match.hand
        world = sim.world_of(hand, hand.turn)
        if world.supported and LOW <= world.tiles_left() <= HIGH and any(m.is_play for m in hand.legal_moves):
            out.append(hand.copy())
        moves = [m for m in hand.legal_moves if not m.galo]
        match.push(rng.choice(moves))


def search_all(module: ModuleType, hands: list[Hand]) -> tuple[list[int | None], float, int]:
    """Every play of every position searched to its end: the values, the CPU seconds, the nodes searched."""
    values: list[int | None] = []
    nodes = 0
    start = time.process_time()
    for hand in hands:
        world: Any = module.world_of(hand, hand.turn)
        table: dict[Any, tuple[int, int]] = {}
        for move in hand.legal_moves:
            if not move.is_play:
                continue
            try:
                values.append(world.exact(world.code_of(move), BUDGET, table))
                nodes += BUDGET - world._nodes[0]
            except module.TooBig:
                values.append(None)
                nodes += BUDGET
    return values, time.process_time() - start, nodes


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("baseline_sim", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=40, help="random hands a game (default 40)")
    parser.add_argument("--runs", type=int, default=7, help="runs a row; the best is shown (default 7)")
    parser.add_argument("--baseline", default=None, help="another version's capicua/bots/sim.py, run side by side")
    args = parser.parse_args()
    baseline = load(args.baseline) if args.baseline else None
    console = Console(width=None if Console().is_terminal else 132)
    console.print(f"{time.strftime('%Y-%m-%d')}, {platform.python_implementation()} {platform.python_version()}")
    table = Table(title=f"exact search: every play of positions with {LOW}-{HIGH} tiles left, best of {args.runs}")
    for column in ("world", "positions", "searches", "nodes", "ours s", "ours knodes/s"):
        table.add_column(column, justify="right")
    if baseline is not None:
        table.add_column("baseline s", justify="right")
        table.add_column("ratio", justify="right")
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("searching", total=len(ROWS) * args.runs)
        for name, game, players in ROWS:
            hands = positions(game, players, args.hands)
            ours, theirs = [], []
            for _ in range(args.runs):
                values, seconds, nodes = search_all(sim, hands)
                ours.append(seconds)
                if baseline is not None:
                    their_values, their_seconds, _ = search_all(baseline, hands)
                    if their_values != values:
                        raise SystemExit(f"{name}: the baseline finds other values")
                    theirs.append(their_seconds)
                progress.advance(task)
            best = min(ours)
            row = [name, str(len(hands)), str(len(values)), f"{nodes:,}", f"{best:.3f}", f"{nodes / best / 1000:.0f}"]
            if baseline is not None:
                row += [f"{min(theirs):.3f}", f"{best / min(theirs):.3f}"]
            table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    main()
