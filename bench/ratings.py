"""Ratings: how well they find the hidden order of players, side by side with plain Elo and Glicko-2.

    python bench/ratings.py [--players 1000] [--matches 20000] [--postgres postgresql://postgres@127.0.0.1/postgres]

``--players`` accounts get a hidden strength each (normal, mean 0, standard deviation 1). Each game then plays
``--matches`` rated matches between players drawn at random: in the partnership games two random teams of two,
the first team winning with probability ``1 / (1 + exp(-(sum of its strengths - the other's)))``; in individual
play two players (B8's farming limit applies as on the platform). Every match goes through the platform's
ratings service, as a table's ``MatchEnded`` would (the store on SQLite in a temporary directory, and with
``--postgres`` on a fresh database of that server, dropped after), and the same matches, in the same order,
go through plain Elo (K = 32; a team's rating is its players' mean) and Glicko-2 (the ``glicko2`` package; a
player's opponents are the other team's players, one rating period a match).

Reported, per game and database: how well each system's ratings order the players as their hidden
strengths do (Spearman's rank correlation) after 20, 40 and all the matches a player has played on average;
in Amazonense, how much the D3 bonus raises the mean rating per 1,000 matches (each player's own galos,
batidas and table points are drawn at random, as often as in real matches); and the rating updates per
second of the platform's service (each one a transaction: the match's changes and the players' ratings).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import math
import random
import secrets
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import glicko2
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from capicua.rules.variant import MatchOutcome, MatchTermination
from capicua.service.bus import MatchEnded
from capicua.service.ratings.service import Ratings
from capicua.service.store import Store, default_url

GAMES = ("amazonense", "dominousa", "individual")
START = dt.datetime(2026, 11, 2, 12, 0, tzinfo=dt.UTC)  # a Monday


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


@dataclass
class Others:
    """Plain Elo and Glicko-2 on the same matches."""

    players: int
    elo: list[float] = field(init=False)
    glicko: list[glicko2.Player] = field(init=False)

    def __post_init__(self) -> None:
        self.elo = [1500.0] * self.players
        self.glicko = [glicko2.Player() for _ in range(self.players)]

    def play(self, sides: list[list[int]], winner: int) -> None:
        elo = [statistics.fmean(self.elo[p] for p in side) for side in sides]
        expected = 1 / (1 + 10 ** ((elo[1] - elo[0]) / 400))
        change = 32 * ((winner == 0) - expected)
        for p in sides[0]:
            self.elo[p] += change
        for p in sides[1]:
            self.elo[p] -= change
        before = [(g.getRating(), g.getRd()) for g in self.glicko]
        for k, side in enumerate(sides):
            others = sides[1 - k]
            for p in side:
                ratings = [before[o][0] for o in others]
                rds = [before[o][1] for o in others]
                self.glicko[p].update_player(ratings, rds, [float(k == winner)] * len(others))


def tally(rng: random.Random) -> dict[str, tuple[int, int]]:
    """A player's own scores in an Amazonense match, drawn as often as real matches have them."""
    galos = int(rng.random() < 0.35) + int(rng.random() < 0.08)
    batidas = int(rng.random() < 0.45) + int(rng.random() < 0.15)
    table = 5 * rng.choice(range(0, 25))
    return {"galo": (galos, 50 * galos), "batida": (batidas, 0), "table": (table // 10, table)}


async def run(game: str, url: str, args: argparse.Namespace, progress: Progress) -> dict[str, object]:
    rng = random.Random(f"{args.seed}-{game}")
    n = args.players
    strength = [rng.gauss(0, 1) for _ in range(n)]
    ids = [f"a:bench{k:05d}" for k in range(n)]
    store = Store(url)
    await store.open()
    clock = {"now": START}
    service = Ratings(store.ratings, store.accounts.names, clock=lambda: clock["now"])
    others = Others(n)
    bonus_total = 0.0
    seats = 2 if game == "individual" else 4
    checkpoints: dict[int, dict[str, float]] = {20: {}, 40: {}}  # matches a player, on average -> correlations
    task = progress.add_task(f"{game} on {url.split(':')[0]}", total=args.matches)
    spent = 0.0
    record = {"format": "capicua-record/1", "variant": game, "options": {}, "players": [], "hands": []}
    try:
        for k in range(args.matches):
            clock["now"] = START + dt.timedelta(minutes=7 * k)
            chosen = rng.sample(range(n), seats)
            if seats == 4:
                sides = [[chosen[0], chosen[2]], [chosen[1], chosen[3]]]
            else:
                sides = [[chosen[0]], [chosen[1]]]
            edge = sum(strength[p] for p in sides[0]) - sum(strength[p] for p in sides[1])
            winner = 0 if rng.random() < 1 / (1 + math.exp(-edge)) else 1
            totals = (0, 0)
            ended = MatchEnded(
                f"bench-{game}",
                k + 1,
                game,
                MatchOutcome(MatchTermination.TARGET, winner, totals),
                [ids[p] for p in chosen],
                [ids[p] for p in chosen],
                record,
                rated=True,
                at=clock["now"],
                tally=[tally(rng) for _ in chosen] if game == "amazonense" else None,
            )
            t0 = time.perf_counter()
            await service.on_match_ended(ended)
            spent += time.perf_counter() - t0
            if game == "amazonense":
                bonus_total += sum(c["bonus"] for c in await service.changes_of_match(ended.match_id))
            others.play(sides, winner)
            progress.advance(task)
            per_player = (k + 1) * seats / n
            for mark, got in checkpoints.items():
                if not got and per_player >= mark:
                    got.update(await correlations(service, game, ids, strength, others))
        final = await correlations(service, game, ids, strength, others)
    finally:
        await store.close()
    return {
        "game": game,
        "database": "PostgreSQL" if url.startswith("postgresql") else "SQLite",
        "per_player": args.matches * seats / n,
        "at_20": checkpoints[20],
        "at_40": checkpoints[40],
        "final": final,
        "inflation": bonus_total / n / (args.matches / 1000) if game == "amazonense" else None,
        "updates_per_second": args.matches / spent,
    }


async def correlations(
    service: Ratings, game: str, ids: list[str], strength: list[float], others: Others
) -> dict[str, float]:
    rows = await service.store.ratings(ids, game)
    ours = [rows[p].rating if p in rows else 1500.0 for p in ids]
    return {
        "capicua": spearman(strength, ours),
        "elo": spearman(strength, others.elo),
        "glicko2": spearman(strength, [g.getRating() for g in others.glicko]),
    }


async def _admin(dsn: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=1000, help="accounts with a hidden strength (1000)")
    parser.add_argument("--matches", type=int, default=20000, help="rated matches of each game (20000)")
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--postgres", metavar="DSN", help="also on this PostgreSQL server (a fresh database)")
    args = parser.parse_args()
    if args.players < 8 or args.matches < 1:
        parser.error("at least 8 players and 1 match")
    console = Console(width=None if sys.stdout.isatty() else 150)
    results = []
    with tempfile.TemporaryDirectory(prefix="capicua-ratings-") as tmp, Progress(console=console) as progress:
        urls = [default_url(Path(tmp))]
        database = None
        if args.postgres:
            database = f"capicua_bench_{secrets.token_hex(4)}"
            asyncio.run(_admin(args.postgres, f'CREATE DATABASE "{database}"'))
            urls.append(f"postgresql+asyncpg://{urlsplit(args.postgres).netloc}/{database}")
        try:
            for url in urls:
                for game in args.games:
                    results.append(asyncio.run(run(game, url, args, progress)))
        finally:
            if database is not None:
                asyncio.run(_admin(args.postgres, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))

    title = f"Ratings: {args.players} players, {args.matches} rated matches a game, Spearman vs hidden strength"
    table = Table(title=title)
    for name in ("game", "database", "matches/player", "capicua @20", "Elo @20", "Glicko-2 @20"):
        table.add_column(name, justify="right")
    for name in ("capicua @40", "Elo @40", "capicua", "Elo", "Glicko-2", "D3 inflation /1000", "updates/s"):
        table.add_column(name, justify="right")
    for r in results:
        a20, a40, fin = r["at_20"], r["at_40"], r["final"]
        assert isinstance(a20, dict) and isinstance(a40, dict) and isinstance(fin, dict)

        def f(d: dict[str, float], key: str) -> str:
            return f"{d[key]:.3f}" if key in d else "—"

        inflation = r["inflation"]
        table.add_row(
            str(r["game"]),
            str(r["database"]),
            f"{r['per_player']:.0f}",
            f(a20, "capicua"),
            f(a20, "elo"),
            f(a20, "glicko2"),
            f(a40, "capicua"),
            f(a40, "elo"),
            f(fin, "capicua"),
            f(fin, "elo"),
            f(fin, "glicko2"),
            "—" if inflation is None else f"+{inflation:.1f}",
            f"{r['updates_per_second']:,.0f}",
        )
    console.print(table)
    console.print(
        "@20, @40: when the players had played 20 and 40 matches on average; D3 inflation: the mean rating's "
        "rise per 1,000 matches from the Amazonense bonus."
    )


if __name__ == "__main__":
    main()
