"""``capicua analyse RECORD.json [--json] [--worlds N]``: review every decision of a game record."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from capicua.bots.analysis import BLUNDER, DEFAULT_WORLDS, INACCURACY, MISTAKE, Analysis, analyse
from capicua.cli.common import fail, read_file
from capicua.rules.record import Record, RecordError

__all__ = ["analyse_command"]

STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def analyse_command(
    record_file: Annotated[
        Path, typer.Argument(metavar="RECORD.json", help="A capicua-record/1 file ('-' for stdin).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON (docs/analysis.md).")] = False,
    worlds: Annotated[
        int, typer.Option("--worlds", min=1, max=2000, help="Worlds each decision is weighed in.")
    ] = DEFAULT_WORLDS,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled worlds (same seed, same analysis).")] = 0,
) -> None:
    """Weigh every decision of every seat with the expert's evaluation, from what that seat knew then.

    Shows each decision's move, the best move and what it lost (an inaccuracy, a mistake, a blunder),
    then each player's accuracy. A malformed record exits with status 1.
    """
    text = read_file(record_file)
    try:
        record = Record.loads(text)
        with Progress(
            TextColumn("analysing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task("analyse", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = analyse(record, worlds=worlds, seed=seed, progress=progress)
    except RecordError as exc:
        raise fail(f"{record_file}: {exc}") from None
    if as_json:
        typer.echo(result.dumps())
        return
    print_analysis(result)


def print_analysis(result: Analysis) -> None:
    console = Console()
    table = Table(title=f"{result.variant} — {', '.join(result.players)} ({result.worlds} worlds a decision)")
    table.add_column("hand", justify="right")
    table.add_column("step", justify="right")
    table.add_column("seat")
    table.add_column("played")
    table.add_column("best")
    table.add_column("loss", justify="right")
    table.add_column("label")
    table.add_column("open hands")
    for d in result.decisions:
        style = STYLE.get(d.label or "", "")
        open_hands = "—"
        if d.open_hands is not None:
            open_hands = d.open_hands.best + ("" if d.open_hands.exact else " ~")
        table.add_row(
            str(d.hand),
            str(d.step),
            f"{d.seat} {result.players[d.seat]}",
            d.played,
            "=" if d.best == d.played else d.best,
            f"{d.loss:.1f}",
            f"[{style}]{d.label}[/]" if d.label else "",
            open_hands,
        )
    console.print(table)
    summary = Table(title="accuracy")
    for name in ("seat", "player", "decisions", "mean loss", "accuracy", "inaccuracies", "mistakes", "blunders"):
        summary.add_column(name, justify="left" if name == "player" else "right")
    for s in result.summary:
        summary.add_row(
            str(s.seat),
            s.name,
            str(s.decisions),
            f"{s.mean_loss:.1f}",
            f"{s.accuracy:.0f} %",
            str(s.inaccuracies),
            str(s.mistakes),
            str(s.blunders),
        )
    console.print(summary)
    console.print(
        f"Loss in expected points against the best move: inaccuracy ≥ {INACCURACY:g}, mistake ≥ {MISTAKE:g}, "
        f"blunder ≥ {BLUNDER:g}. Open hands (~: estimated) is hindsight, with every tile known.",
        highlight=False,
    )
