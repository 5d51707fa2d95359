"""What the subcommands share: failing with a message, reading a record file, and game options from flags."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from capicua.rules import variants
from capicua.rules.variant import Variant

__all__ = ["VARIANT_HELP", "fail", "game_options", "get_variant", "read_file"]

VARIANT_HELP = f"One of: {', '.join(variants.names())}."


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``message`` on stderr; the exit to raise (1: the input was wrong, 2: the command line was)."""
    Console(stderr=True).print(f"[bold red]capicua:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def read_file(path: Path) -> str:
    """The text of ``path`` (``-``: standard input); a file that cannot be read exits with status 2."""
    try:
        return sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(f"cannot read {path}: {exc}", 2) from None


def get_variant(name: str) -> Variant:
    try:
        return variants.get(name)
    except ValueError as exc:
        raise fail(str(exc), 2) from None


def game_options(variant: Variant, players: int | None = None, **flags: Any) -> dict[str, Any]:
    """The game options the flags set (None: not given), checked by the game itself: a flag of
    another game (``--strict`` in Amazonense) is refused, with the game's own words."""
    if players is not None and players not in variant.player_counts:
        raise fail(f"{variant.name} is played by {', '.join(map(str, variant.player_counts))} players", 2)
    given = {name: value for name, value in flags.items() if value is not None}
    try:
        return variant.check_options(given)
    except ValueError as exc:
        raise fail(str(exc), 2) from None
