"""Swiss pairing speed (C10): whole simulated tournaments of pairs, every round paired by ``pair_round``.

    python bench/swiss.py [--teams 100 1000 5000] [--rounds N] [--seed 1]

Each field is one tournament of ``--rounds`` rounds (default ceil(log2(teams)), C10's default). Every team
has a hidden strength; a match is won by the stronger team with the logistic odds of the difference (a
strength of 1 more wins three times in four), 200 to a random score below 200; an odd team out has the bye.
Before each round the standings are computed (``standings``) and the round is paired (``pair_round``, on
the standings and the teams' histories); both are timed, in this one process. The table shows the pairing's
seconds per round (mean and the slowest round), the standings' mean, the rematches paired (a large field
can always avoid them: the figure must be 0) and the floats per round (pairs of teams with different
numbers of wins). The goal: under 1 s per round at 1,000 teams.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from capicua.service.tournaments.swiss import Result, default_rounds, pair_round, standings

#: The goal the table is read against.
GOAL_TEAMS, GOAL_SECONDS = 1000, 1.0


@dataclass(frozen=True)
class Row:
    teams: int
    rounds: int
    pairing: list[float]
    standings: list[float]
    rematches: int
    floats: list[int]


def play(strength: float, other: float, rng: random.Random) -> tuple[bool, int, int]:
    """One match, from the first team's side: won, points for, points against."""
    won = rng.random() < 1.0 / (1.0 + 3.0 ** (other - strength))
    loser = rng.randrange(0, 200)
    return (True, 200, loser) if won else (False, loser, 200)


def tournament(teams: int, rounds: int, seed: int) -> Row:
    """Simulate one tournament; time its standings and pairings."""
    rng = random.Random(seed)
    strength = {team: rng.gauss(0.0, 1.0) for team in range(1, teams + 1)}
    results: dict[int, list[Result]] = {team: [] for team in strength}
    pairing_s, standings_s, floats = [], [], []
    rematches = 0
    for round_no in range(1, rounds + 1):
        t0 = time.perf_counter()
        ranked = standings(results, f"bench-{seed}")
        t1 = time.perf_counter()
        pairing = pair_round(round_no, ranked, strength, (), rng)
        t2 = time.perf_counter()
        standings_s.append(t1 - t0)
        pairing_s.append(t2 - t1)
        line = {s.team: s for s in ranked}
        rematches += sum(b in line[a].opponents for a, b in pairing.pairs)
        floats.append(sum(line[a].wins != line[b].wins for a, b in pairing.pairs))
        for a, b in pairing.pairs:
            won, points_for, points_against = play(strength[a], strength[b], rng)
            results[a].append(Result(round_no, b, won, points_for, points_against))
            results[b].append(Result(round_no, a, not won, points_against, points_for))
        if pairing.bye is not None:
            results[pairing.bye].append(Result.bye(round_no))
    return Row(teams, rounds, pairing_s, standings_s, rematches, floats)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--teams", type=int, nargs="+", default=[100, 1000, 5000], help="field sizes")
    parser.add_argument("--rounds", type=int, default=None, help="rounds a tournament (default ceil(log2(teams)))")
    parser.add_argument("--seed", type=int, default=1, help="the simulation's seed (default 1)")
    args = parser.parse_args(argv)

    console = Console()
    rows = []
    for teams in args.teams:
        rounds = args.rounds or default_rounds(teams)
        with console.status(f"{teams} teams, {rounds} rounds"):
            rows.append(tournament(teams, rounds, args.seed))

    where = f"CPython {platform.python_version()} on {platform.machine()}"
    table = Table(
        title=f"capicua Swiss pairing (C10) — {where}",
        caption="per round: the mean (max s: the slowest)\n"
        f"goal: under {GOAL_SECONDS:g} s a round at {GOAL_TEAMS:,} teams",
    )
    for column in ("teams", "rounds", "pairing s", "max s", "standings s", "rematches", "floats"):
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(
            f"{row.teams:,}",
            str(row.rounds),
            f"{statistics.mean(row.pairing):.3f}",
            f"{max(row.pairing):.3f}",
            f"{statistics.mean(row.standings):.3f}",
            str(row.rematches),
            f"{statistics.mean(row.floats):.1f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
