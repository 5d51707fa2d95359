"""``capicua record random``: complete random match records, reproducible from a seed."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from capicua.cli.common import VARIANT_HELP, fail, game_options, get_variant
from capicua.rules.moves import MoveError
from capicua.rules.randomgame import random_record

__all__ = ["app"]

app = typer.Typer(help="Make game records.", no_args_is_help=True)


@app.command("random")
def record_random(
    variant: Annotated[str, typer.Option(help=VARIANT_HELP)] = "amazonense",
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same record.")] = 0,
    players: Annotated[int | None, typer.Option(help="Number of players, where the variant allows a choice.")] = None,
    target: Annotated[int | None, typer.Option(help="Points to win (default: the variant's).")] = None,
    strict: Annotated[
        bool | None, typer.Option("--strict", help="Dominousa strict mode (C9): fined actions appear too.")
    ] = None,
) -> None:
    """Print a complete random match record (every kind of action), reproducible from the seed."""
    game = get_variant(variant)
    options = game_options(game, players, target=target, strict=strict)
    try:
        record = random_record(variant, seed=seed, players=players, options=options)
    except MoveError as exc:
        raise fail(str(exc), 2) from None
    sys.stdout.write(record.dumps())
