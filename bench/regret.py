"""Decision regret: how far each bot's plays fall from the best play of the real deal (issue 23).

    python bench/regret.py [--matches 16] [--seed 90000] [--jobs 2] [--bots heuristic pimc:24 expert:50 ...]

``bench/bots.py`` measures strength in matches: 400 of them take minutes a row and still leave a 10-point
interval. This bench asks a narrower question, fast: given a decision, how good is the play a bot picks?

- **Positions**: every decision with two plays or more of the expert's seats in ``--matches`` pairs of
  Amazonense matches in duplicate, ``expert:50`` (``--budget``) against ``heuristic`` (the decisions the expert
  meets), with the real deal kept.
- **Truth**: each play's value in the real deal, from the seat's side: an exact search once 13 tiles or fewer
  are left (200,000 nodes at most), else the mean of 300 play-outs with the scorer's policy, 15 % of the choices
  random (the oracle's own model, given time to spare: ``capicua.bots.sim``).
- **Rows**: each bot decides every position from its seat's view (a fresh bot a position, seeded); its regret
  is the best play's value less the value of its play, in points of the hand. ``expert-worlds:N`` is the
  expert thinking to N worlds whatever the time (its asymptote). Two rows are bench devices that read the real
  deal, as ``bench/oracle.py`` does: ``oracle:MS`` weighs the real deal itself, ``near:MS`` the expert whose each
  world is, of 16 dealt from its view, the one with the fewest tiles in the wrong hand (what inference that
  placed the tiles far better than ours could give).

The truth is the oracle's model (every seat seeing every hand in the play-outs), so the oracle's row is
flattered and a bot that plays out its worlds otherwise is judged by a model not its own: the rows rank
decisions, not matches. Strength is still what ``bench/bots.py`` measures (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle import OracleBot  # bench/oracle.py, beside this file

from capicua.bots.arena import duplicate_match
from capicua.bots.base import Bot
from capicua.bots.expert import ExpertBot
from capicua.bots.registry import make_bot
from capicua.bots.sim import SCORER, TooBig, world_of
from capicua.bots.worlds import Knowledge, sample_world
from capicua.rules.hand import Hand, SeatView
from capicua.rules.match import Match
from capicua.rules.moves import Move

GAME = "amazonense"
BOTS = ["heuristic", "pimc:24", "expert:50", "expert-worlds:400", "near:50", "oracle:50"]
EXACT = 13  # tiles left from which the truth is searched exactly
NODES = 200_000
PLAYOUTS = 300
EPS = 0.15
NEAR = 16  # worlds dealt for each one a ``near`` bot keeps

#: A decision: the real deal at it, the seat to act and its plays (without galo calls).
Position = tuple[Hand, int, list[Move]]


BUDGET = 50  # the recording expert's ms a move (``--budget``)


class _Recorder(ExpertBot):
    """The expert, keeping each decision it meets with two plays or more (the match handed to it)."""

    def __init__(self, budget_ms: float, seed: int | None, out: list[Position]) -> None:
        super().__init__(budget_ms, seed)
        self.out = out
        self.match: Match | None = None

    def choose(self, view: SeatView, required: list[Move]) -> Move:
        plays = [m for m in required if m.is_play and not m.galo]
        if len(plays) > 1 and view.layout.get("spinner") is not None:  # the lead is A6's, not a choice
            assert self.match is not None and view.seat is not None
            self.out.append((self.match.hand.copy(), view.seat, plays))
        return super().choose(view, required)


def positions_of(seed: int, budget: float = BUDGET) -> list[Position]:
    """The expert's decisions in the duplicate pair of matches of ``seed`` against ``heuristic``."""
    out: list[Position] = []

    def make(spec: str, s: int | None) -> Bot:
        return _Recorder(budget, s, out) if spec == "recorder" else make_bot(spec, s)

    def prepare(match: Match, bots: list[Bot]) -> None:
        for bot in bots:
            if isinstance(bot, _Recorder):
                bot.match = match

    for even in (True, False):
        duplicate_match("recorder", "heuristic", GAME, None, {}, seed, even, make=make, prepare=prepare)
    return out


def truth(position: Position) -> list[float]:
    """Each play's value in the real deal (exact when few tiles are left, else the mean of the play-outs)."""
    hand, seat, plays = position
    world = world_of(hand, seat)
    rng = random.Random(1)
    values = []
    table: dict[Any, tuple[int, int]] = {}
    for move in plays:
        code = world.code_of(move)
        if world.tiles_left() <= EXACT:
            try:
                values.append(float(world.exact(code, NODES, table)))
                continue
            except TooBig:
                pass
        values.append(statistics.fmean(world.after(code, SCORER, EPS, rng) for _ in range(PLAYOUTS)))
    return values


class NearBot(ExpertBot):
    """The expert whose each world is, of ``NEAR`` dealt from its view, the nearest to the real deal (a bench
    device: it reads the deal it is handed). Its worlds are not weighed by the inference model: choosing them
    by nearness is its inference."""

    def __init__(self, budget_ms: float, seed: int | None) -> None:
        super().__init__(budget_ms, seed, inference=0.0)
        self.real: Hand | None = None

    def dealer(self, view: SeatView, k: Knowledge) -> Callable[[], Hand | None]:
        real = self.real
        assert real is not None

        def wrong(world: Hand) -> int:
            return sum((w ^ r).bit_count() for w, r in zip(world.hands, real.hands, strict=True))

        def deal() -> Hand | None:
            worlds = [w for w in (sample_world(view, self.rng, k, tries=100) for _ in range(NEAR)) if w is not None]
            return min(worlds, key=wrong) if worlds else None

        return deal


def bot_of(spec: str, seed: int, real: Hand) -> Bot:
    name, _, arg = spec.partition(":")
    if name == "expert-worlds":
        return ExpertBot(1000, seed, max_worlds=int(arg), adaptive=False)
    if name == "near":
        near = NearBot(float(arg or 50), seed)
        near.real = real
        return near
    if name == "oracle":
        oracle = OracleBot(float(arg or 50), seed)
        oracle.match = SimpleNamespace(hand=real)  # type: ignore[assignment]  # all it reads is the hand
        return oracle
    return make_bot(spec, seed)


def decide(args: tuple[str, int, Position, list[float]]) -> tuple[float, bool, float]:
    """One bot's play at one position: its regret, whether it is a best play, the CPU seconds it took."""
    spec, i, (hand, seat, plays), values = args
    bot = bot_of(spec, 1000 + i, hand)
    view = hand.view(seat)
    t0 = time.thread_time()
    move = bot.act(view)
    cpu = time.thread_time() - t0
    assert move is not None
    chosen = values[plays.index(move.without_galo() if move.galo else move)]
    best = max(values)
    return best - chosen, chosen == best, cpu


def _interval(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95 % interval."""
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=16, help="duplicate pairs of matches the positions come from")
    parser.add_argument("--seed", type=int, default=90000, help="the first pair's seed (default 90000)")
    parser.add_argument("--budget", type=float, default=BUDGET, help="the recording expert's ms a move (default 50)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--bots", nargs="+", default=BOTS, help=f"the rows (default: {' '.join(BOTS)})")
    args = parser.parse_args()
    console = Console(width=None if Console().is_terminal else 132)
    console.print(
        f"{time.strftime('%Y-%m-%d')}, {platform.python_implementation()} {platform.python_version()}, "
        f"{args.jobs} job(s), seeds {args.seed}–{args.seed + args.matches - 1}"
    )
    with Pool(args.jobs) as pool, Progress(console=console, transient=True) as progress:
        task = progress.add_task("positions", total=args.matches)
        found: list[Position] = []
        seeds = range(args.seed, args.seed + args.matches)
        for batch in pool.imap(partial(positions_of, budget=args.budget), seeds):
            found += batch
            progress.advance(task)
        task = progress.add_task("truth", total=len(found))
        values: list[list[float]] = []
        for v in pool.imap(truth, found, chunksize=4):
            values.append(v)
            progress.advance(task)
        spread = statistics.fmean(max(v) - min(v) for v in values)
        table = Table(
            title=f"{GAME}: {len(found)} decisions of expert:{args.budget:g} against heuristic; "
            f"the best play less the worst {spread:.1f} points on average"
        )
        first = args.bots[0]
        columns = (
            "bot",
            "regret a decision",
            "95 % CI",
            f"less than {first}'s (paired 95 % CI)",
            "best play",
            "CPU ms",
        )
        for column in columns:
            table.add_column(column, justify="left" if column == "bot" else "right")
        reference: list[float] = []
        for spec in args.bots:
            task = progress.add_task(spec, total=len(found))
            rows = []
            jobs = [(spec, i, p, v) for i, (p, v) in enumerate(zip(found, values, strict=True))]
            for r in pool.imap(decide, jobs, chunksize=4):
                rows.append(r)
                progress.advance(task)
            regret = [r[0] for r in rows]
            mean, half = _interval(regret)
            if not reference:
                reference = regret
                below = "—"
            else:
                gain, spread = _interval([a - b for a, b in zip(reference, regret, strict=True)])
                below = f"{gain:+.2f} ({gain - spread:+.2f}…{gain + spread:+.2f})"
            table.add_row(
                spec,
                f"{mean:.2f}",
                f"{mean - half:.2f}–{mean + half:.2f}",
                below,
                f"{100 * sum(r[1] for r in rows) / len(rows):.1f} %",
                f"{1000 * statistics.fmean(r[2] for r in rows):.1f}",
            )
    console.print(table)


if __name__ == "__main__":
    main()
