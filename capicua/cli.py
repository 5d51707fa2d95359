"""The ``capicua`` command.

Subcommands: ``replay`` (check and show a game record), ``record random``
(random match records for testing). Later issues add ``serve``, ``play`` and
``arena``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from capicua.rules.match import VARIANTS
from capicua.rules.moves import MoveError
from capicua.rules.randomgame import random_record
from capicua.rules.record import Record, RecordError, replay, summary

app = typer.Typer(
    help="capicua: dominoes the way Brazil and Latin America play (Amazonense, individual, Dominousa).",
    no_args_is_help=True,
    add_completion=False,
)
record_app = typer.Typer(help="Make game records.", no_args_is_help=True)
app.add_typer(record_app, name="record")


def _fail(message: str, code: int = 1) -> typer.Exit:
    Console(stderr=True).print(f"[bold red]capicua:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


@app.command("replay")
def replay_command(
    record_file: Annotated[
        Path, typer.Argument(metavar="RECORD.json", help="A capicua-record/1 file ('-' for stdin).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the replay as JSON (shared/spec/records.md).")] = False,
) -> None:
    """Replay a game record through the rules engine and show every hand's scoring.

    An illegal action or a malformed record exits with status 1 and names the hand,
    the action and the reason; an unfinished record replays fine (finished: false).
    """
    try:
        text = sys.stdin.read() if str(record_file) == "-" else record_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(f"cannot read {record_file}: {exc}", 2) from None
    try:
        record = Record.loads(text)
        match = replay(record)
    except RecordError as exc:
        raise _fail(f"{record_file}: {exc}") from None
    result = summary(match)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    _print_table(record, result)


def _print_table(record: Record, result: dict[str, Any]) -> None:
    console = Console()
    partnerships = VARIANTS[record.variant].partnerships
    if partnerships:
        sides = [f"{record.players[0]} & {record.players[2]}", f"{record.players[1]} & {record.players[3]}"]
        short = ["team 0", "team 1"]
    else:
        sides = list(record.players)
        short = [f"seat {i}" for i in range(len(sides))]
    table = Table(title=f"{record.variant} — {', '.join(record.players)}")
    table.add_column("hand", justify="right")
    table.add_column("end")
    for label, side in zip(short, sides, strict=True):
        table.add_column(f"{label}\n{side}", justify="right")
    table.add_column("scoring")
    running = [0] * len(sides)
    for n, hand in enumerate(result["hands"], start=1):
        running = [a + b for a, b in zip(running, hand["points"], strict=True)]
        reasons = ", ".join(f"{s['kind']} {s['points']}→{s['to']}" for s in hand["scoring"])
        cells = [f"{p} ({t})" for p, t in zip(hand["points"], running, strict=True)]
        table.add_row(str(n), hand["end"], *cells, reasons or "—")
    console.print(table)
    totals = " – ".join(f"{side} {t}" for side, t in zip(sides, result["totals"], strict=True))
    if result["finished"]:
        console.print(f"Winner: [bold]{sides[result['winner']]}[/]  ({totals})")
    else:
        console.print(f"Not finished  ({totals})")


@record_app.command("random")
def record_random(
    variant: Annotated[str, typer.Option(help=f"One of: {', '.join(VARIANTS)}.")] = "amazonense",
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same record.")] = 0,
    players: Annotated[int | None, typer.Option(help="Number of players, where the variant allows a choice.")] = None,
    target: Annotated[int | None, typer.Option(help="Points to win (default: the variant's).")] = None,
    strict: Annotated[bool, typer.Option(help="Dominousa strict mode (C9): fined actions appear too.")] = False,
) -> None:
    """Print a complete random match record (every kind of action), reproducible from the seed."""
    if variant not in VARIANTS:
        raise _fail(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})", 2)
    counts = VARIANTS[variant].player_counts
    if players is not None and players not in counts:
        raise _fail(f"{variant} is played by {', '.join(map(str, counts))} players", 2)
    options: dict[str, Any] = {}
    if target is not None:
        options["target"] = target
    if strict:
        if variant != "dominousa":
            raise _fail("--strict is a Dominousa option (C9)", 2)
        options["strict"] = True
    try:
        record = random_record(variant, seed=seed, players=players, options=options)
    except MoveError as exc:
        raise _fail(str(exc), 2) from None
    sys.stdout.write(record.dumps())


@app.command("arena")
def arena_command(
    a: Annotated[str, typer.Argument(help="Bot A: random, greedy, expert or expert:MS (ms a move).")],
    b: Annotated[str, typer.Argument(help="Bot B, the same way.")],
    variant: Annotated[str, typer.Option(help=f"One of: {', '.join(VARIANTS)}.")] = "dominousa",
    players: Annotated[int | None, typer.Option(help="Individual: 2, 3 or 4 players.")] = None,
    pairs: Annotated[int, typer.Option(help="Duplicate deal pairs (2 matches each).")] = 100,
    seed: Annotated[int, typer.Option(help="First match seed.")] = 0,
    workers: Annotated[int | None, typer.Option(help="Processes (default: all cores).")] = None,
    target: Annotated[int | None, typer.Option(help="Points to win (default: the variant's).")] = None,
    strict: Annotated[bool, typer.Option(help="Dominousa strict mode (C9).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Play duplicate matches between two bots and report who is stronger.

    Every deal sequence is played twice with the seats swapped; A sits on the even seats first.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from capicua.bots.arena import make_bot, run_arena

    if variant not in VARIANTS:
        raise _fail(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})", 2)
    try:
        make_bot(a)
        make_bot(b)
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    if pairs < 1:
        raise _fail("--pairs must be at least 1", 2)
    options: dict[str, Any] = {}
    if target is not None:
        options["target"] = target
    if strict:
        options["strict"] = True
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, disable=as_json) as progress:
        task = progress.add_task(f"{a} vs {b}, {variant}", total=pairs)
        try:
            result = run_arena(
                a, b, variant, players, options, pairs, seed, workers, lambda n: progress.advance(task, n)
            )
        except MoveError as exc:
            raise _fail(str(exc), 2) from None
    data = result.summary()
    if as_json:
        typer.echo(json.dumps(data))
        return
    lo, hi = data["win_rate_95"]
    table = Table(title=f"{a} vs {b} — {variant}, {result.matches} matches ({pairs} duplicate pairs)")
    table.add_column("")
    table.add_column(a, justify="right")
    table.add_column(b, justify="right")
    table.add_row("matches won", f"{result.a_wins}", f"{result.matches - result.a_wins}")
    table.add_row("win rate (95 % CI)", f"{data['win_rate']:.1%} ({lo:.1%}–{hi:.1%})", f"{1 - data['win_rate']:.1%}")
    table.add_row("points per hand", f"{data['a_points_per_hand']:.2f}", f"{data['b_points_per_hand']:.2f}")
    table.add_row(
        "mean / max ms a move",
        f"{data['a_move_ms_mean']:.1f} / {data['a_move_ms_max']:.0f}",
        f"{data['b_move_ms_mean']:.1f} / {data['b_move_ms_max']:.0f}",
    )
    Console().print(table)
    Console().print(f"Elo difference ({a} − {b}): {data['elo']:+.0f}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
