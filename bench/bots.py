"""Bot strength: the expert against the greedy bot in each game, and against abw333's AI in abw333's game.

    pip install -e '.[bench]'        # abw333's dominoes
    python bench/bots.py [--pairs 200] [--budget 50] [--workers N] [--only NAME]

Rows (``--only`` takes a row's name):

- ``dominousa``, ``amazonense``, ``individual``: ``expert:BUDGET`` against ``greedy`` in Dominousa, Dominó
  Amazonense and 2-player individual play, matches to each variant's target, ``--pairs`` duplicate pairs each
  (2 × pairs matches: the same deals with the seats swapped), through ``capicua.bots.arena.run_arena``.
- ``abw333``: ``expert:BUDGET`` against abw333's ``probabilistic_alphabeta`` (see ``bench/abw333_adapter.py``)
  in abw333's own ``Series`` to 200: 2 × pairs series, our bot on team 0 and then on team 1 for each seed.

Win rates are of matches (series), with Wilson 95 % intervals; Elo is the difference the win rate implies;
points are per hand (per game for abw333), ours - theirs; times are our bot's, per decision. A goal passes on the
point estimate of the win rate (and for abw333 on the move times too).
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, JustifyMethod
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from capicua.bots.arena import run_arena

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abw333_adapter import SEARCH_SAMPLES, SEARCH_TILES, TARGET, play_series


@dataclass(frozen=True)
class ArenaRow:
    name: str
    label: str
    variant: str
    players: int | None
    goal: float


ARENA_ROWS = (
    ArenaRow("dominousa", "Dominousa", "dominousa", None, 0.85),
    ArenaRow("amazonense", "Amazonense", "amazonense", None, 0.75),
    ArenaRow("individual", "Individual, 2 players", "individual", 2, 0.70),
)
ABW333_NAME = "abw333"
ABW333_GOAL = 0.60
ABW333_MEAN_MS = 50.0
ABW333_MAX_MS = 1000.0
ROW_NAMES = (*(r.name for r in ARENA_ROWS), ABW333_NAME)


@dataclass
class Line:
    """One row of the table."""

    label: str
    opponent: str
    matches: int
    wins: int
    ours_per_hand: float
    theirs_per_hand: float
    mean_ms: float
    max_ms: float
    goal: str
    passed: bool
    seconds: float
    notes: list[str] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson 95 % interval of a win rate (as ``ArenaResult.interval``)."""
    if not n:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(win_rate: float) -> float:
    """Elo difference implied by a win rate, clamped at ±800 (as ``ArenaResult.elo``)."""
    p = min(max(win_rate, 1e-3), 1 - 1e-3)
    return max(-800.0, min(800.0, -400 * math.log10(1 / p - 1)))


def arena_line(row: ArenaRow, expert: str, pairs: int, seed: int, workers: int, advance: Callable[[int], None]) -> Line:
    t0 = time.perf_counter()
    result = run_arena(expert, "greedy", row.variant, row.players, {}, pairs, seed, workers, advance)
    s = result.summary()
    passed = result.win_rate >= row.goal
    return Line(
        label=row.label,
        opponent="greedy",
        matches=result.matches,
        wins=result.a_wins,
        ours_per_hand=s["a_points_per_hand"],
        theirs_per_hand=s["b_points_per_hand"],
        mean_ms=s["a_move_ms_mean"],
        max_ms=s["a_move_ms_max"],
        goal=f"≥ {row.goal:.0%}",
        passed=passed,
        seconds=time.perf_counter() - t0,
        notes=[f"{result.hands} hands"],
    )


def abw333_line(
    expert: str, pairs: int, seed: int, workers: int, advance: Callable[[int], None], tiles: int, samples: int
) -> Line:
    t0 = time.perf_counter()
    jobs = [(seed + i, team) for i in range(pairs) for team in (0, 1)]
    results: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [
            pool.submit(play_series, expert, team, s, target=TARGET, tiles=tiles, samples=samples) for s, team in jobs
        ]
        for future in as_completed(futures):
            results.append(future.result())
            advance(1)
    wins = sum(r["won"] for r in results)
    games = sum(r["games"] for r in results)
    ours = sum(r["points"][0] for r in results)
    theirs = sum(r["points"][1] for r in results)
    times = [t for r in results for t in r["move_times"]]
    theirs_times = [t for r in results for t in r["abw333_times"]]
    mean_ms = 1000 * sum(times) / len(times) if times else 0.0
    max_ms = 1000 * max(times, default=0.0)
    n = len(results)
    passed = n > 0 and wins / n >= ABW333_GOAL and mean_ms <= ABW333_MEAN_MS and max_ms <= ABW333_MAX_MS
    abw333_mean = 1000 * sum(theirs_times) / len(theirs_times) if theirs_times else 0.0
    return Line(
        label=f"abw333 Series to {TARGET}",
        opponent="probabilistic_alphabeta",
        matches=n,
        wins=wins,
        ours_per_hand=round(ours / games, 2) if games else 0.0,
        theirs_per_hand=round(theirs / games, 2) if games else 0.0,
        mean_ms=round(mean_ms, 2),
        max_ms=round(max_ms, 2),
        goal=f"≥ {ABW333_GOAL:.0%}, mean ≤ {ABW333_MEAN_MS:.0f} ms, max ≤ {ABW333_MAX_MS:.0f} ms",
        passed=passed,
        seconds=time.perf_counter() - t0,
        notes=[
            f"{games} games ({sum(r['blocked'] for r in results)} blocked)",
            f"abw333 {abw333_mean:.0f} ms mean, {1000 * max(theirs_times, default=0.0):.0f} ms max a move",
        ],
    )


def _advancer(progress: Progress, task: TaskID) -> Callable[[int], None]:
    def advance(k: int) -> None:
        progress.advance(task, k)

    return advance


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=200, help="duplicate pairs per row: 2 × pairs matches (200)")
    parser.add_argument("--budget", type=float, default=50, help="the expert's budget, ms a move (default 50)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--only", choices=ROW_NAMES, help="run this row only")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--abw333-tiles",
        type=int,
        default=SEARCH_TILES,
        help=f"abw333 searches from this many tiles left (default {SEARCH_TILES})",
    )
    parser.add_argument(
        "--abw333-samples",
        type=int,
        default=SEARCH_SAMPLES,
        help=f"possible deals abw333 searches (default {SEARCH_SAMPLES})",
    )
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    workers = args.workers or os.cpu_count() or 1
    budget = f"{args.budget:g}"
    expert = f"expert:{budget}"

    console = Console(width=None if sys.stdout.isatty() else 200)  # a file gets the whole table
    console.print(f"$ {shlex.join(getattr(sys, 'orig_argv', [sys.executable, *sys.argv]))}")
    console.print(f"{expert}, {args.pairs} pairs a row, {workers} workers, seed {args.seed}")
    rows = [r for r in ARENA_ROWS if args.only in (None, r.name)]
    lines: list[Line] = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        for row in rows:
            task = progress.add_task(f"{row.label}: {expert} vs greedy (pairs)", total=args.pairs)
            lines.append(arena_line(row, expert, args.pairs, args.seed, workers, _advancer(progress, task)))
            done = lines[-1]  # said at once too: a long run that stops later keeps what it measured
            progress.console.print(
                f"{done.label}: {done.wins}/{done.matches} = {done.win_rate:.1%}, "
                f"{done.mean_ms:.1f} / {done.max_ms:.1f} ms a move (mean / max)"
            )
        if args.only in (None, ABW333_NAME):
            task = progress.add_task(f"abw333: {expert} vs probabilistic_alphabeta (series)", total=2 * args.pairs)
            lines.append(
                abw333_line(
                    expert,
                    args.pairs,
                    args.seed,
                    workers,
                    _advancer(progress, task),
                    args.abw333_tiles,
                    args.abw333_samples,
                )
            )

    table = Table(title=f"{expert} — {args.pairs} pairs a row (2 × {args.pairs} matches)")
    headers: tuple[tuple[str, JustifyMethod], ...] = (
        ("game", "left"),
        ("opponent", "left"),
        ("matches", "right"),
        ("win rate", "right"),
        ("95 % CI", "right"),
        ("Elo", "right"),
        ("pts/hand ours / theirs", "right"),
        ("ms/move mean", "right"),
        ("ms/move max", "right"),
        ("goal", "left"),
        ("", "left"),
        ("time", "right"),
    )
    for name, justify in headers:
        table.add_column(name, justify=justify)
    for line in lines:
        lo, hi = wilson(line.wins, line.matches)
        table.add_row(
            line.label,
            line.opponent,
            str(line.matches),
            f"{line.win_rate:.1%}",
            f"{lo:.1%}–{hi:.1%}",
            f"{round(elo(line.win_rate)) + 0:+d}",
            f"{line.ours_per_hand:.2f} / {line.theirs_per_hand:.2f}",
            f"{line.mean_ms:.1f}",
            f"{line.max_ms:.1f}",
            line.goal,
            "[green]pass[/]" if line.passed else "[red]FAIL[/]",
            f"{line.seconds:.0f} s",
        )
    console.print(table)
    for line in lines:
        console.print(f"{line.label}: {'; '.join(line.notes)}")


if __name__ == "__main__":
    main()
