"""Bot strength: the expert against the baselines (``heuristic``, ``pimc:24``, ``greedy``), side by side; the ladder.

    python bench/bots.py [--matches 400] [--budget 50] [--jobs 1] [--rows NAME ...] [--out FILE]
    python bench/bots.py --ladder [GAME ...] [--matches 600] [--minutes 30] [--levels FILE]
    python bench/bots.py --steps [--matches 600]
    python bench/bots.py --ceiling [--matches 600]
    pip install -e '.[bench]'        # abw333's dominoes, for the optional ``abw333`` row

Rows (``--rows`` picks some; the default is every row but the optional ones):

- ``amazonense-heuristic``: ``expert:BUDGET`` against ``heuristic`` in Dominó Amazonense (issue 23: ≥ 85 %, the
  whole 95 % interval above 80 %);
- ``dominousa-pimc``, ``amazonense-pimc``, ``individual-pimc``: against ``pimc:24`` in Dominousa (issue 23:
  ≥ 78 %), Amazonense (≥ 70 %, the interval above 65 %) and 2-player individual play (≥ 60 %);
- ``amazonense-greedy``: against ``greedy`` in Amazonense (goal ≥ 85 %);
- ``heuristic-greedy``: ``heuristic`` against ``greedy`` in Amazonense, the baseline check (issue 23: ≥ 65 %);
- optional: ``amazonense-scorer`` and ``scorer-greedy`` (issue 14's baseline, ``scorer``, which ``heuristic``
  replaced), ``dominousa-greedy``, ``individual-greedy`` (the expert against greedy in the line games),
  ``heuristic-greedy-dominousa``, ``heuristic-greedy-individual`` (the heuristic in the line games) and
  ``abw333`` (against abw333's ``probabilistic_alphabeta`` in abw333's own ``Series`` to 200, through
  ``bench/abw333_adapter.py``);
- the ladder (``--ladder [GAME ...]`` runs these four a game and nothing else; Amazonense unless games are
  named): each level people pick against the one below it, goal ≥ 60 % each: ``ladder-greedy`` (greedy over
  random), ``ladder-heuristic`` (heuristic over greedy), ``ladder-pimc`` (``pimc:24`` over heuristic),
  ``ladder-expert`` (``expert:BUDGET`` over ``pimc:24``); in Dominousa and individual play the same rows end
  in ``-dominousa`` and ``-individual``. ``--levels FILE`` writes the rungs measured as JSON: the rules pages'
  section on the bots shows ``capicua/bots/levels.json`` (GET /api/bots), written so;
- the expert a step at a time (``--steps`` runs these three and nothing else), each against ``heuristic`` in
  Amazonense on the same deals: ``step-issue14`` (as issue 14 left it: every play weighed, two play-outs a
  candidate with 15 % random choices), ``step-deterministic`` (one play-out, no random choice: every candidate
  meets the same world) and ``step-shortlist`` (the expert as it is: the worlds weigh the heuristic's three
  best plays);
- the ceiling (``--ceiling`` runs these four and nothing else), on the same deals: ``ceiling-expert`` and
  ``ceiling-oracle`` (``expert:BUDGET``, then the same bot shown every hand, ``oracle:BUDGET``: bench/oracle.py,
  against ``heuristic``), ``ceiling-expert-pimc`` and ``ceiling-oracle-pimc`` (the two against ``pimc:24``).
  What the oracle wins is about the most this search could win with the hidden tiles known: issue 23's goals
  measured against what can be had.

Every row plays ``--matches`` matches (rounded up to an even number) to each variant's target in duplicate:
every seed's deals twice, the seats swapped (``capicua.bots.arena.duplicate_match``; abw333: our bot on team 0,
then on team 1). The rows run side by side, interleaved pair by pair, so a run stopped early (Ctrl-C, or
``--minutes``) still has comparable rows, and the machine's load is the same for all of them. ``--out`` rewrites
a file with the table after every pair, so a long run keeps what it measured.

Win rates are of matches, with Wilson 95 % intervals. Move times are per decision of a seat on its turn, the
CPU time of the thread that decided (what the expert's budget counts: ``time.thread_time``), for each side; the
notes add the expert's wall-clock time. A goal passes on the point estimate of the win rate, and where it names
one (``CI > …``) on the lower end of its Wilson 95 % interval too.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import Console, JustifyMethod
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from capicua.bots.arena import duplicate_match
from capicua.bots.base import Bot
from capicua.bots.expert import ExpertBot
from capicua.bots.registry import LEVELS, make_bot

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle  # bench/oracle.py, beside this file


@dataclass(frozen=True)
class Row:
    name: str
    label: str  # the game
    a: str  # our side's spec, with {expert} for the expert under test
    b: str
    variant: str
    players: int | None
    goal: float | None  # the least win rate of A the row asks for
    optional: bool = False
    #: the expert's keyword arguments (``ExpertBot``) where the row tries it with a part taken away
    a_options: dict[str, Any] = field(default_factory=dict)
    floor: float | None = None  # where the goal asks it too: the least lower end of the 95 % interval


ROWS = (
    Row("amazonense-heuristic", "Amazonense", "{expert}", "heuristic", "amazonense", None, 0.85, floor=0.80),
    Row("dominousa-pimc", "Dominousa", "{expert}", "pimc:24", "dominousa", None, 0.78),
    Row("amazonense-pimc", "Amazonense", "{expert}", "pimc:24", "amazonense", None, 0.70, floor=0.65),
    Row("individual-pimc", "Individual, 2 players", "{expert}", "pimc:24", "individual", 2, 0.60),
    Row("amazonense-greedy", "Amazonense", "{expert}", "greedy", "amazonense", None, 0.85),
    Row("heuristic-greedy", "Amazonense", "heuristic", "greedy", "amazonense", None, 0.65),
    Row("amazonense-scorer", "Amazonense", "{expert}", "scorer", "amazonense", None, 0.80, optional=True),
    Row("scorer-greedy", "Amazonense", "scorer", "greedy", "amazonense", None, None, optional=True),
    Row("dominousa-greedy", "Dominousa", "{expert}", "greedy", "dominousa", None, 0.85, optional=True),
    Row("individual-greedy", "Individual, 2 players", "{expert}", "greedy", "individual", 2, 0.70, optional=True),
    Row("heuristic-greedy-dominousa", "Dominousa", "heuristic", "greedy", "dominousa", None, 0.50, optional=True),
    Row("heuristic-greedy-individual", "Individual, 2 players", "heuristic", "greedy", "individual", 2, 0.50, True),
    Row("abw333", "abw333 Series to 200", "{expert}", "probabilistic_alphabeta", "abw333", None, 0.60, optional=True),
)
#: The games a ladder may be measured in: (label, players).
GAMES: dict[str, tuple[str, int | None]] = {
    "amazonense": ("Amazonense", None),
    "dominousa": ("Dominousa", None),
    "individual": ("Individual, 2 players", 2),
}


def ladder(game: str) -> tuple[Row, ...]:
    """The levels people pick (``capicua.bots.registry.LEVELS``), each against the one below, in ``game`` (the
    rows of Amazonense are named ``ladder-LEVEL``, the others' ``ladder-LEVEL-GAME``)."""
    label, players = GAMES[game]
    rungs = (("greedy", "random"), ("heuristic", "greedy"), ("pimc", "heuristic"), ("{expert}", "pimc"))
    suffix = "" if game == "amazonense" else f"-{game}"
    return tuple(
        Row(f"ladder-{a.split(':')[0].strip('{}')}{suffix}", label, a, b, game, players, 0.60, optional=True)
        for a, b in rungs
    )


LADDER = ladder("amazonense")
#: Issue 23's expert a step at a time (``--steps`` runs these and nothing else), against ``heuristic`` in
#: Amazonense on the same deals: the expert as issue 14 left it (every play weighed, two play-outs a candidate
#: with 15 % random choices), the same with deterministic play-outs (one, no random choice: every candidate
#: meets the same world, common random numbers), and the expert as it is (the heuristic's shortlist).
_ALL_PLAYS = {"shortlist": {"spinner": 0}}
STEPS = (
    Row("step-issue14", "Amazonense", "{expert}", "heuristic", "amazonense", None, None, True, _ALL_PLAYS),
    Row(
        "step-deterministic",
        "Amazonense",
        "{expert}",
        "heuristic",
        "amazonense",
        None,
        None,
        True,
        {**_ALL_PLAYS, "eps": 0.0, "playouts": 1},
    ),
    Row("step-shortlist", "Amazonense", "{expert}", "heuristic", "amazonense", None, 0.85, True),
)
#: The expert beside the same bot shown every hand (bench/oracle.py), on the same deals.
CEILING = (
    Row("ceiling-expert", "Amazonense", "{expert}", "heuristic", "amazonense", None, 0.85, True),
    Row("ceiling-oracle", "Amazonense", "{oracle}", "heuristic", "amazonense", None, None, True),
    Row("ceiling-expert-pimc", "Amazonense", "{expert}", "pimc:24", "amazonense", None, 0.70, True),
    Row("ceiling-oracle-pimc", "Amazonense", "{oracle}", "pimc:24", "amazonense", None, None, True),
)
BY_NAME = {r.name: r for r in (*ROWS, *(r for game in GAMES for r in ladder(game)), *STEPS, *CEILING)}


@dataclass
class Outcome:
    """One match of a row, from A's side."""

    won: bool
    hands: int
    a_times: list[float]  # CPU seconds a decision
    b_times: list[float]
    a_walls: list[float]  # wall-clock seconds a decision (empty where not measured)
    by_kind: dict[str, int] = field(default_factory=dict)  # A's points less B's by kind of score (MatchResult's)


@dataclass
class Tally:
    row: Row
    a: str
    matches: int = 0
    wins: int = 0
    hands: int = 0
    a_times: list[float] = field(default_factory=list)
    b_times: list[float] = field(default_factory=list)
    a_walls: list[float] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)

    def add(self, o: Outcome) -> None:
        self.matches += 1
        self.wins += o.won
        self.hands += o.hands
        self.a_times += o.a_times
        self.b_times += o.b_times
        self.a_walls += o.a_walls
        for kind, points in o.by_kind.items():
            self.by_kind[kind] = self.by_kind.get(kind, 0) + points

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson 95 % interval of a win rate (as ``ArenaResult.interval``).

    >>> [round(x, 3) for x in wilson(320, 400)]
    [0.758, 0.836]
    """
    if not n:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_pair(row: Row, a: str, seed: int, abw333: tuple[int, int]) -> list[Outcome]:
    """The two matches of one seed: A on the even seats (team 0), then on the odd ones."""
    if row.variant == "abw333":
        from abw333_adapter import TARGET, play_series

        out = []
        for team in (0, 1):
            r: dict[str, Any] = play_series(a, team, seed, target=TARGET, tiles=abw333[0], samples=abw333[1])
            out.append(Outcome(bool(r["won"]), r["games"], r["move_times"], r["abw333_times"], []))
        return out
    make = _builder(row, a)
    results = tuple(
        duplicate_match(a, row.b, row.variant, row.players, {}, seed, a_even=even, make=make, prepare=oracle.prepare)
        for even in (True, False)
    )
    return [Outcome(r.a_won, r.hands, r.move_times[0], r.move_times[1], r.wall_times[0], r.by_kind) for r in results]


def _builder(row: Row, a: str) -> Callable[[str, int | None], Bot]:
    """How the row's bots are built: the registry's specs and ``oracle:MS`` (bench/oracle.py), the expert with the
    row's ``a_options``."""
    if not row.a_options:
        return oracle.make

    def make(spec: str, seed: int | None) -> Bot:
        bot = oracle.make(spec, seed)
        if spec != a or not isinstance(bot, ExpertBot):
            return bot
        return ExpertBot(bot.budget * 1000, seed, **row.a_options)

    return make


def _ms(xs: list[float]) -> str:
    if not xs:
        return "—"
    return f"{1000 * sum(xs) / len(xs):.1f} / {1000 * max(xs):.1f}"


def table_of(tallies: list[Tally], title: str) -> Table:
    table = Table(title=title)
    headers: tuple[tuple[str, JustifyMethod], ...] = (
        ("game", "left"),
        ("A", "left"),
        ("B", "left"),
        ("matches", "right"),
        ("A wins", "right"),
        ("win %", "right"),
        ("95 % CI", "right"),
        ("A ms mean / max", "right"),
        ("B ms mean / max", "right"),
        ("goal", "left"),
        ("", "left"),
    )
    for name, justify in headers:
        table.add_column(name, justify=justify)
    for t in tallies:
        lo, hi = wilson(t.wins, t.matches)
        if t.row.goal is None:
            goal, verdict = "baseline", ""
        else:
            goal = f"≥ {t.row.goal:.0%}" + ("" if t.row.floor is None else f", CI > {t.row.floor:.0%}")
            held = t.win_rate >= t.row.goal and (t.row.floor is None or lo > t.row.floor)
            verdict = "—" if not t.matches else ("pass" if held else "FAIL")
        table.add_row(
            t.row.label,
            f"{t.a} {t.row.name}" if t.row.name.startswith("step-") else t.a,  # the steps: one expert, several ways
            t.row.b,
            str(t.matches),
            str(t.wins),
            f"{t.win_rate:.1%}",
            f"{lo:.1%}–{hi:.1%}",
            _ms(t.a_times),
            _ms(t.b_times),
            goal,
            verdict,
        )
    return table


def notes_of(tallies: list[Tally]) -> list[str]:
    out = []
    for t in tallies:
        if not t.matches:
            continue
        unit = "games" if t.row.variant == "abw333" else "hands"
        wall = f"; A's wall clock {_ms(t.a_walls)} ms a move (mean / max)" if t.a_walls else ""
        out.append(f"{t.row.name}: {t.hands} {unit} ({t.hands / t.matches:.1f} a match){wall}")
        if t.by_kind:
            out.append(f"  {points_by_kind(t)}")
    return out


def points_by_kind(t: Tally) -> str:
    """Where A's matches are won: its points less B's a match, by kind of score, the largest first.

    >>> t = Tally(BY_NAME["ladder-greedy"], "greedy", matches=2, by_kind={"table": 90, "pass": -20, "galo": 0})
    >>> points_by_kind(t)
    'points a match, A less B: table +45.0 · pass -10.0 · galo +0.0'
    """
    kinds = sorted(t.by_kind.items(), key=lambda kv: (-abs(kv[1]), kv[0]))
    return "points a match, A less B: " + " · ".join(f"{k} {v / t.matches:+.1f}" for k, v in kinds)


class Stop(Exception):
    """SIGTERM: print what was measured and leave."""


def _worker_init() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a worker just ends; the parent prints the table
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=400, help="matches per row, even (default 400)")
    parser.add_argument("--budget", type=float, default=50, help="the expert's budget, ms a move (default 50)")
    parser.add_argument("--jobs", type=int, default=1, help="processes that play matches (default 1)")
    parser.add_argument(
        "--rows", nargs="+", choices=tuple(BY_NAME), help="these rows only (default: all but the optional)"
    )
    parser.add_argument(
        "--ladder",
        nargs="*",
        choices=tuple(GAMES),
        metavar="GAME",
        help="the ladder's rows: each level against the one below, in these games (default amazonense)",
    )
    parser.add_argument(
        "--levels",
        type=Path,
        default=None,
        help="write the ladder's rungs as JSON here (the rules pages' section on the bots reads it)",
    )
    parser.add_argument("--steps", action="store_true", help="the expert a step at a time, against heuristic")
    parser.add_argument("--ceiling", action="store_true", help="the expert beside the same bot shown every hand")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--minutes", type=float, default=None, help="stop starting pairs after this long")
    parser.add_argument("--out", type=Path, default=None, help="rewrite this file with the table after every pair")
    parser.add_argument("--abw333-tiles", type=int, default=None, help="abw333 searches from this many tiles left")
    parser.add_argument("--abw333-samples", type=int, default=None, help="possible deals abw333 searches")
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    pairs = (args.matches + 1) // 2
    expert = f"expert:{args.budget:g}"
    if sum(map(bool, (args.ladder is not None, args.steps, args.ceiling, args.rows))) > 1:
        parser.error("--ladder, --steps, --ceiling and --rows each pick the rows: give one of them")
    if args.ladder is not None:
        rows = [r for game in args.ladder or ["amazonense"] for r in ladder(game)]
    elif args.steps:
        rows = list(STEPS)
    elif args.ceiling:
        rows = list(CEILING)
    else:
        rows = [BY_NAME[n] for n in args.rows] if args.rows else [r for r in ROWS if not r.optional]
    abw333 = (0, 0)
    if any(r.variant == "abw333" for r in rows):
        from abw333_adapter import SEARCH_SAMPLES, SEARCH_TILES

        abw333 = (args.abw333_tiles or SEARCH_TILES, args.abw333_samples or SEARCH_SAMPLES)
    tallies = [Tally(r, r.a.format(expert=expert, oracle=f"oracle:{args.budget:g}")) for r in rows]
    for t in tallies:
        oracle.make(t.a)  # fail early on a bad spec
        if t.row.variant != "abw333":
            make_bot(t.row.b)

    # the command as anyone re-runs it: the interpreter named ``python`` (not this machine's path to its venv)
    argv = list(getattr(sys, "orig_argv", [sys.executable, *sys.argv]))
    command = shlex.join(["python", *argv[1:]])
    console = Console(width=None if sys.stdout.isatty() else 200)  # a file gets the whole table
    header = [
        f"$ {command}",
        f"{date.today().isoformat()}, CPython {sys.version.split()[0]}, {args.jobs} job(s), seed {args.seed}, "
        f"{2 * pairs} matches a row asked",
    ]
    for line in header:
        console.print(line, highlight=False)
    t0 = time.perf_counter()

    def title() -> str:
        return f"{expert} — matches to each game's target, in duplicate; {time.perf_counter() - t0:.0f} s"

    def save(final: bool) -> None:
        if args.out is None:
            return
        out = Console(file=io.StringIO(), width=200, record=True)
        for line in header:
            out.print(line, highlight=False)
        out.print(table_of(tallies, title()))
        for line in notes_of(tallies):
            out.print(line, highlight=False)
        out.print("finished" if final else "running…", highlight=False)
        args.out.write_text(out.export_text())

    # Pair i of every row before pair i + 1 of any: the rows side by side.
    jobs = [(i, t) for i in range(pairs) for t in tallies]
    deadline = None if args.minutes is None else t0 + 60 * args.minutes
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    stopped = ""
    with Progress(*columns, console=console) as progress, stopped_by_sigterm():
        tasks = {t.row.name: progress.add_task(f"{t.row.name}: {t.a} vs {t.row.b}", total=2 * pairs) for t in tallies}

        def record(t: Tally, outcomes: list[Outcome]) -> None:
            for o in outcomes:
                t.add(o)
            progress.advance(tasks[t.row.name], len(outcomes))
            save(False)

        def late() -> bool:
            return deadline is not None and time.perf_counter() >= deadline

        try:
            if args.jobs == 1:
                for i, t in jobs:
                    if late():
                        stopped = f"stopped after {args.minutes:g} minutes"
                        break
                    record(t, play_pair(t.row, t.a, args.seed + i, abw333))
            else:
                with ProcessPoolExecutor(max_workers=args.jobs, initializer=_worker_init) as pool:
                    queue = iter(jobs)
                    running: dict[Future[list[Outcome]], Tally] = {}

                    def submit() -> None:
                        nxt = next(queue, None)
                        if nxt is not None and not late():
                            i, t = nxt
                            running[pool.submit(play_pair, t.row, t.a, args.seed + i, abw333)] = t

                    for _ in range(args.jobs):
                        submit()
                    while running:
                        done, _ = wait(running, return_when=FIRST_COMPLETED)
                        for future in done:
                            record(running.pop(future), future.result())
                            submit()
                    if late():
                        stopped = f"stopped after {args.minutes:g} minutes"
        except (KeyboardInterrupt, Stop):
            stopped = "interrupted"
    console.print(table_of(tallies, title()))
    for line in notes_of(tallies):
        console.print(line, highlight=False)
    if stopped:
        console.print(f"{stopped}: the rows have the matches shown", highlight=False)
    save(True)
    if args.levels is not None:
        previous = json.loads(args.levels.read_text("utf-8")) if args.levels.exists() else None
        args.levels.write_text(levels_json(tallies, header[0].removeprefix("$ "), args.budget, previous) + "\n")


@contextmanager
def stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM raises :class:`Stop` inside the block (the table of what was played is still printed), and the
    handler before it is back after: a test that calls :func:`main` leaves its process as it found it."""

    def on_term(signum: int, frame: FrameType | None) -> None:
        raise Stop

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def levels_json(tallies: list[Tally], command: str, budget: float, previous: dict[str, Any] | None = None) -> str:
    """The ladder's rungs measured (rows ``ladder-…``), for the rules pages: each level's win rate against the
    level below, its 95 % interval and its matches, by game, and the expert's time a move where it played; each
    rung with the day and the command that measured it. The rungs of ``previous`` (the file as it was) that this
    run did not measure are kept, so one game's ladder, or one rung (``--rows ladder-greedy-individual``), can be
    measured at a time; the rungs come out by game, each game's levels weakest first."""
    today = date.today().isoformat()
    rungs = []
    for t in tallies:
        if not t.row.name.startswith("ladder-") or not t.matches:
            continue
        lo, hi = wilson(t.wins, t.matches)
        rungs.append(
            {
                "game": t.row.variant,
                "level": t.a.split(":")[0],
                "below": t.row.b.split(":")[0],
                "a": t.a,
                "b": t.row.b,
                "matches": t.matches,
                "wins": t.wins,
                "win_rate": round(t.win_rate, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "think_ms": budget if t.a == f"expert:{budget:g}" else None,  # the expert's CPU time a move
                "players": t.row.players,  # where the game is played by 2 to 4 (None: its own count)
                "measured": today,
                "command": command,
            }
        )
    measured = {(r["game"], r["level"]) for r in rungs}
    kept = []
    for old in (previous or {}).get("rungs", []):
        if (old["game"], old["level"]) not in measured:
            assert previous is not None
            # a rung of the first format (no day, command or seats of its own) gets them as this code writes them
            day, how = old.get("measured", previous["measured"]), old.get("command", previous["command"])
            seats = old.get("players", GAMES[old["game"]][1])
            kept.append({**old, "players": seats, "measured": day, "command": how})
    games = list(dict.fromkeys(r["game"] for r in kept + rungs))  # the file's order, then this run's new games
    levels = [level.name for level in LEVELS]
    every = sorted(kept + rungs, key=lambda r: (games.index(r["game"]), levels.index(r["level"])))
    data = {
        "measured": max((r["measured"] for r in every), default=today),  # the newest rung's day
        "command": command,
        "expert_ms": budget,
        "rungs": every,
    }
    return json.dumps(data, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
