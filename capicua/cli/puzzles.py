"""``capicua puzzles make``: puzzles from finished public matches in the store and from expert self-play."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from capicua.cli.common import fail, get_variant

if TYPE_CHECKING:
    from capicua.bots.puzzles import Criteria, Found
    from capicua.service.store import Store

__all__ = ["app"]

app = typer.Typer(help="Puzzles from real hands (docs/puzzles.md).", no_args_is_help=True)

DataDir = Annotated[Path, typer.Option(help="Where the SQLite database lives (as for capicua serve).")]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(envvar="CAPICUA_DATABASE_URL", help="e.g. postgresql+asyncpg://user@host/db (default: SQLite)."),
]


@app.command("make")
def make(
    from_store: Annotated[
        bool, typer.Option("--from-store/--no-store", help="Draw puzzles from the store's finished public matches.")
    ] = True,
    games: Annotated[int, typer.Option("--games", min=0, help="At most this many stored matches, latest first.")] = 50,
    self_play: Annotated[int, typer.Option("--self-play", min=0, help="Expert self-play matches to draw from.")] = 0,
    variant: Annotated[str, typer.Option("--variant", help="The game of the self-play matches.")] = "amazonense",
    worlds: Annotated[
        int, typer.Option("--worlds", min=8, max=4000, help="Worlds each decision is weighed in (issue 23: 400).")
    ] = 400,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help="First self-play seed (match i plays seed+i); the worlds' seed.")
    ] = 0,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
) -> None:
    """Weigh every decision of the matches drawn, keep those where one move is clearly best as puzzles.

    A decision is a puzzle when its best move is best in 90 % of the worlds dealt from the seat's view and
    10 expected points ahead of the next play, or when the seat can place every unseen tile and an exact search
    decides. Each puzzle is kept with its source (the record and the decision, or the self-play seed); one
    kept before is not added twice.
    """
    from capicua.bots.puzzles import Criteria
    from capicua.service.store import Store, StoreError, default_url

    get_variant(variant)
    if not data_dir.is_dir() and database_url is None:
        raise fail(f"no data directory {data_dir} (the platform's, as capicua serve --data-dir)", 2)
    criteria = Criteria(worlds=worlds)

    async def body() -> tuple[int, int, int]:
        store = Store(database_url or default_url(data_dir))
        await store.open()
        try:
            return await _make(store, criteria, from_store, games, self_play, variant, seed)
        finally:
            await store.close()

    try:
        matches, found, added = asyncio.run(body())
    except StoreError as exc:
        raise fail(str(exc)) from None
    Console().print(f"{matches} matches weighed: {found} puzzles found, {added} new kept.", highlight=False)


async def _make(
    store: Store, criteria: Criteria, from_store: bool, games: int, self_play: int, variant: str, seed: int
) -> tuple[int, int, int]:
    from capicua.bots.puzzles import puzzles_of_record
    from capicua.bots.puzzles import self_play as play
    from capicua.rules.record import Record, RecordError
    from capicua.service.puzzles import PUZZLE_START
    from capicua.service.store.puzzles import NewPuzzle

    sources: list[tuple[str, int, Record | None]] = []
    if from_store and games:
        for row in await store.puzzles.public_records(games):
            try:
                sources.append(("record", row.id, Record.from_json(row.record)))
            except RecordError:
                continue
    sources += [("self-play", seed + i, None) for i in range(self_play)]
    matches = found_total = added = 0
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        overall = bar.add_task("matches", total=len(sources))
        decisions: TaskID = bar.add_task("decisions", total=None)
        for kind, ident, record in sources:
            if record is None:
                bar.update(decisions, description=f"self-play {ident}", completed=0, total=None)
                record = play(variant, ident)
            else:
                bar.update(decisions, description=f"record {ident}", completed=0, total=None)

            def progress(done: int, total: int) -> None:
                bar.update(decisions, completed=done, total=total)

            try:
                found: list[Found] = puzzles_of_record(record, criteria, seed=seed, progress=progress)
            except RecordError:
                continue
            matches += 1
            found_total += len(found)
            for f in found:
                key = f"r{ident}:{f.decision}" if kind == "record" else f"s{ident}:{record.variant}:{f.decision}"
                new = NewPuzzle(
                    key=key,
                    variant=record.variant,
                    source=kind,
                    record_id=ident if kind == "record" else None,
                    seed=ident if kind == "self-play" else None,
                    decision=f.decision,
                    hand=f.hand,
                    action=f.action,
                    themes=f.puzzle.themes,
                    data=f.puzzle.to_json(),
                )
                if await store.puzzles.add(new, PUZZLE_START) is not None:
                    added += 1
            bar.advance(overall)
    return matches, found_total, added
