"""``capicua replay RECORD.json [--json]``: check a game record and show every hand's scoring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from capicua.cli.common import fail, read_file
from capicua.rules import variants
from capicua.rules.record import Record, RecordError, replay, summary

__all__ = ["replay_command"]


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
    text = read_file(record_file)
    try:
        record = Record.loads(text)
        match = replay(record)
    except RecordError as exc:
        raise fail(f"{record_file}: {exc}") from None
    result = summary(match)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    print_table(record, result)


def print_table(record: Record, result: dict[str, Any]) -> None:
    console = Console()
    if variants.get(record.variant).partnerships:
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
