"""``capicua arena A B``: duplicate matches between two bots, and who is stronger."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from capicua.cli.common import VARIANT_HELP, fail, game_options, get_variant
from capicua.rules.moves import MoveError

__all__ = ["arena_command"]


def arena_command(
    a: Annotated[
        str,
        typer.Argument(
            help="Bot A: random, greedy, heuristic, scorer, pimc[:N] (N worlds) or expert[:MS] (ms a move)."
        ),
    ],
    b: Annotated[str, typer.Argument(help="Bot B, the same way.")],
    variant: Annotated[str, typer.Option(help=VARIANT_HELP)] = "dominousa",
    players: Annotated[int | None, typer.Option(help="Individual: 2, 3 or 4 players.")] = None,
    pairs: Annotated[int, typer.Option(help="Duplicate deal pairs (2 matches each).")] = 100,
    seed: Annotated[int, typer.Option(help="First match seed.")] = 0,
    workers: Annotated[int | None, typer.Option(help="Processes (default: all cores).")] = None,
    target: Annotated[int | None, typer.Option(help="Points to win (default: the variant's).")] = None,
    strict: Annotated[bool | None, typer.Option("--strict", help="Dominousa strict mode (C9).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Play duplicate matches between two bots and report who is stronger.

    Every deal sequence is played twice with the seats swapped; A sits on the even seats first.
    """
    from capicua.bots.arena import run_arena
    from capicua.bots.registry import check_spec

    game = get_variant(variant)
    try:
        check_spec(a)
        check_spec(b)
    except ValueError as exc:
        raise fail(str(exc), 2) from None
    if pairs < 1:
        raise fail("--pairs must be at least 1", 2)
    options = game_options(game, players, target=target, strict=strict)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, disable=as_json) as progress:
        task = progress.add_task(f"{a} vs {b}, {variant}", total=pairs)
        try:
            result = run_arena(
                a, b, variant, players, options, pairs, seed, workers, lambda n: progress.advance(task, n)
            )
        except MoveError as exc:
            raise fail(str(exc), 2) from None
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
