"""Puzzles from self-play: how many an hour of one core yields, and how often an answer changes when the puzzle is
checked again with other worlds (docs/puzzles.md; issue 23 asks for under 5 %).

    nice -n 10 python bench/puzzles.py [--matches 12] [--variant amazonense] [--worlds 400] [--seed 1000]

Each match is ``capicua puzzles make --self-play``'s: four experts at 48 worlds a move (a seed, the same match on
any machine), then every decision judged (``capicua.bots.puzzles.judge``: best in 90 % of 400 worlds and 10 points
ahead, or determined and searched exactly). The CPU time of this process (``time.process_time``: one core; a busy
machine makes it slower to the clock, not to this count) of both, playing and judging, gives the yield an hour.

Then each puzzle found is judged again from other worlds (another seed: the same view, every world dealt anew),
with the bar off, to read its best move there: the answer *changed* when that move is not one of the puzzle's
answers. The same re-check with the bar on says how many would still be made puzzles. The share is given with its
95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import platform
import time

from rich.console import Console
from rich.table import Table

from capicua.bots import analysis
from capicua.bots.puzzles import Criteria, judge, puzzles_of_record, self_play


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=12, help="self-play matches (default 12)")
    parser.add_argument("--variant", default="amazonense")
    parser.add_argument("--worlds", type=int, default=400, help="worlds a decision is judged in (default 400)")
    parser.add_argument("--seed", type=int, default=1000, help="first self-play seed")
    args = parser.parse_args()
    criteria = Criteria(worlds=args.worlds)
    console = Console()
    play_cpu = judge_cpu = 0.0
    decisions = 0
    found = []
    by_theme: dict[str, int] = {}
    exact = 0
    for i in range(args.matches):
        t0 = time.process_time()
        record = self_play(args.variant, args.seed + i)
        t1 = time.process_time()
        puzzles = puzzles_of_record(record, criteria, seed=0)
        t2 = time.process_time()
        play_cpu += t1 - t0
        judge_cpu += t2 - t1
        positions = analysis.positions_of(record, with_real=False)[0]
        decisions += len(positions)
        for f in puzzles:
            pos = positions[f.decision]
            found.append((f, pos))
            exact += f.puzzle.method == "exact"
            for theme in f.puzzle.themes:
                by_theme[theme] = by_theme.get(theme, 0) + 1
        console.print(
            f"match {i + 1}/{args.matches} (seed {args.seed + i}): {len(positions)} decisions, {len(puzzles)} puzzles, "
            f"play {t1 - t0:.1f} s, judge {t2 - t1:.1f} s CPU",
            highlight=False,
        )
    # Checked again: the same views, other worlds (seed 1), the bar off to read the best move, then on.
    t3 = time.process_time()
    changed = still = 0
    anyway = Criteria(worlds=args.worlds, share=0.0, margin=-1e9, exact_margin=-1e9, screen=args.worlds)
    for f, pos in found:
        again = judge(pos.view, pos.moves, anyway, seed=1)
        if again is None or again.answers[0] not in f.puzzle.answers:
            changed += 1
        if (p := judge(pos.view, pos.moves, criteria, seed=1)) is not None and p.answers[0] in f.puzzle.answers:
            still += 1
    recheck_cpu = time.process_time() - t3
    cpu = play_cpu + judge_cpu
    n = len(found)
    lo, hi = wilson(changed, n)
    table = Table(
        title=f"Puzzles from {args.variant} self-play ({platform.python_implementation()} {platform.python_version()})"
    )
    for column in (
        "matches",
        "decisions",
        "puzzles",
        "exact",
        "CPU s (play + judge)",
        "puzzles / CPU hour",
        "answer changed on re-check",
        "95 % interval",
        "still a puzzle",
    ):
        table.add_column(column, justify="right")
    table.add_row(
        str(args.matches),
        str(decisions),
        str(n),
        str(exact),
        f"{cpu:.0f} ({play_cpu:.0f} + {judge_cpu:.0f})",
        f"{3600 * n / cpu:.0f}" if cpu else "—",
        f"{changed}/{n} = {100 * changed / n:.1f} %" if n else "—",
        f"{100 * lo:.1f}–{100 * hi:.1f} %",
        f"{still}/{n}",
    )
    console.print(table)
    console.print(
        f"themes: {', '.join(f'{k} {v}' for k, v in sorted(by_theme.items(), key=lambda kv: -kv[1]))}; "
        f"re-check {recheck_cpu:.0f} s CPU; worlds {args.worlds}, share {criteria.share}, margin {criteria.margin}",
        highlight=False,
    )


if __name__ == "__main__":
    main()
