"""Matches between two bot configurations, in duplicate, on all cores.

Duplicate format: every deal sequence is played twice with the seats swapped
(configuration A on the even seats, then on the odd ones), so the luck of the
deal cancels out. Each match gets its own seed; its deals come from the match's
generator, so both matches of a pair see the same deals.

Move times are measured per decision twice: the CPU time of the thread that
decided (``time.thread_time``, what a searching bot's budget counts, so the
figures do not depend on what else the machine runs) and the wall-clock time.

>>> result = run_arena("greedy", "random", "dominousa", pairs=2, workers=1)
>>> result.matches, 0.0 <= result.win_rate <= 1.0
(4, True)
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from capicua.bots.base import Bot
from capicua.bots.driver import play_match
from capicua.bots.registry import make_bot
from capicua.rules import variants
from capicua.rules.match import Match

__all__ = ["ArenaResult", "MatchResult", "duplicate_match", "run_arena"]


@dataclass
class MatchResult:
    """One match: who won, and per configuration its points, hands and move times."""

    a_won: bool
    points: tuple[int, int]  # points scored by A's side and B's side
    hands: int
    move_times: tuple[list[float], list[float]]  # CPU seconds, per decision of a seat on its turn, for A and B
    wall_times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # their wall-clock s
    #: A's points less B's, by the kind of score that made them (``table``, ``pass``, ``galo``, ``batida``…):
    #: where a configuration wins its matches. The kinds add up to ``points[0] - points[1]``.
    by_kind: dict[str, int] = field(default_factory=dict)


def duplicate_match(
    a: str,
    b: str,
    variant: str,
    players: int | None,
    options: dict[str, Any],
    seed: int,
    a_even: bool,
    make: Callable[[str, int | None], Bot] = make_bot,
    prepare: Callable[[Match, list[Bot]], None] | None = None,
) -> MatchResult:
    """Play one match: configuration ``a`` on the even seats when ``a_even``, else on the odd ones (``make``
    builds a bot from a spec and a seed: the registry's, unless a bench tries a configuration of its own;
    ``prepare`` is given the match and its bots before play: the bench's reference that sees every hand,
    bench/oracle.py, is handed the match there)."""
    match = Match(variants.get(variant), players=players, options=options, seed=seed)
    side = [0 if (s % 2 == 0) == a_even else 1 for s in range(match.players)]
    bots = [make(a if side[s] == 0 else b, seed * 10 + s) for s in range(match.players)]
    if prepare is not None:
        prepare(match, bots)
    times: tuple[list[float], list[float]] = ([], [])
    walls: tuple[list[float], list[float]] = ([], [])
    marks: list[float] = []  # the wall clock when each decision started and ended

    def clock() -> float:  # the driver reads it just before and just after each decision
        marks.append(time.perf_counter())
        return time.thread_time()

    def timed(seat: int, seconds: float, own_turn: bool) -> None:
        wall = marks[-1] - marks[-2]
        marks.clear()
        if own_turn:
            times[side[seat]].append(seconds)
            walls[side[seat]].append(wall)

    play_match(match, bots, timer=timed, clock=clock)
    totals = match.totals
    winner = match.winner
    assert winner is not None
    if match.variant.partnerships:
        a_team = 0 if a_even else 1
        points = (totals[a_team], totals[1 - a_team])
        a_won = winner == a_team
    else:
        points = (
            sum(p for s, p in enumerate(totals) if side[s] == 0),
            sum(p for s, p in enumerate(totals) if side[s] == 1),
        )
        a_won = side[winner] == 0
    by_kind: dict[str, int] = {}
    for hand in match.hands:
        for score in hand.scores:  # ``to`` is a team in partnerships (seat t plays for team t), else a seat
            by_kind[score.kind] = by_kind.get(score.kind, 0) + (score.points if side[score.to] == 0 else -score.points)
    return MatchResult(a_won, points, len(match.hands), times, walls, by_kind)


def _pair(args: tuple[str, str, str, int | None, dict[str, Any], int]) -> tuple[MatchResult, MatchResult]:
    a, b, variant, players, options, seed = args
    return (
        duplicate_match(a, b, variant, players, options, seed, a_even=True),
        duplicate_match(a, b, variant, players, options, seed, a_even=False),
    )


@dataclass
class ArenaResult:
    a: str
    b: str
    variant: str
    players: int | None
    pairs: int
    matches: int = 0
    a_wins: int = 0
    hands: int = 0
    a_points: int = 0
    b_points: int = 0
    a_times: list[float] = field(default_factory=list, repr=False)
    b_times: list[float] = field(default_factory=list, repr=False)
    a_walls: list[float] = field(default_factory=list, repr=False)
    b_walls: list[float] = field(default_factory=list, repr=False)

    def add(self, r: MatchResult) -> None:
        self.matches += 1
        self.a_wins += r.a_won
        self.hands += r.hands
        self.a_points += r.points[0]
        self.b_points += r.points[1]
        self.a_times += r.move_times[0]
        self.b_times += r.move_times[1]
        self.a_walls += r.wall_times[0]
        self.b_walls += r.wall_times[1]

    @property
    def win_rate(self) -> float:
        return self.a_wins / self.matches if self.matches else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson 95 % interval of A's match win rate."""
        n = self.matches
        if not n:
            return (0.0, 1.0)
        p = self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    @property
    def elo(self) -> float:
        """Elo difference of A over B implied by the win rate (clamped at ±800)."""
        p = min(max(self.win_rate, 1e-3), 1 - 1e-3)
        return max(-800.0, min(800.0, -400 * math.log10(1 / p - 1)))

    def summary(self) -> dict[str, Any]:
        lo, hi = self.interval()
        data = {k: v for k, v in asdict(self).items() if k not in ("a_times", "b_times", "a_walls", "b_walls")}
        data.update(
            win_rate=round(self.win_rate, 4),
            win_rate_95=[round(lo, 4), round(hi, 4)],
            elo=round(self.elo, 1),
            a_points_per_hand=round(self.a_points / self.hands, 2) if self.hands else 0.0,
            b_points_per_hand=round(self.b_points / self.hands, 2) if self.hands else 0.0,
            a_move_ms_mean=round(1000 * _mean(self.a_times), 2),
            a_move_ms_max=round(1000 * max(self.a_times, default=0.0), 2),
            b_move_ms_mean=round(1000 * _mean(self.b_times), 2),
            b_move_ms_max=round(1000 * max(self.b_times, default=0.0), 2),
            a_wall_ms_mean=round(1000 * _mean(self.a_walls), 2),
            a_wall_ms_max=round(1000 * max(self.a_walls, default=0.0), 2),
            b_wall_ms_mean=round(1000 * _mean(self.b_walls), 2),
            b_wall_ms_max=round(1000 * max(self.b_walls, default=0.0), 2),
        )
        return data


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def run_arena(
    a: str,
    b: str,
    variant: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    pairs: int = 100,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``pairs`` duplicate pairs (2 × pairs matches) of ``a`` against ``b``."""
    for spec in (a, b):
        make_bot(spec)  # fail early on a bad spec
    result = ArenaResult(a, b, variant, players, pairs)
    jobs = [(a, b, variant, players, dict(options or {}), seed + i) for i in range(pairs)]
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        outcomes: Iterator[tuple[MatchResult, MatchResult]] = map(_pair, jobs)
        for first, second in outcomes:
            result.add(first)
            result.add(second)
            if progress:
                progress(1)
        return result
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for first, second in pool.map(_pair, jobs):
            result.add(first)
            result.add(second)
            if progress:
                progress(1)
    return result
