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


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data_dir: Annotated[Path, typer.Option(help="Where the SQLite database and the secret live.")] = Path("data"),
    database_url: Annotated[
        str | None,
        typer.Option(envvar="CAPICUA_DATABASE_URL", help="e.g. postgresql+asyncpg://user@host/db (default: SQLite)."),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before it moves, on average (each wait is 0.5 to 1.5 times it).")
    ] = 0.4,
    ws_deflate: Annotated[
        bool,
        typer.Option(help="Compress websocket frames (permessage-deflate): less traffic, more server CPU a frame."),
    ] = False,
) -> None:
    """Start the platform: HTTP API, websocket and static files in one process."""
    import asyncio
    import socket

    import uvicorn

    from capicua.service.identity import load_secret
    from capicua.service.store import Store, StoreError, default_url
    from capicua.service.tables import TableConfig
    from capicua.web.app import create_app

    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _fail(f"cannot use the data directory {data_dir}: {exc}") from None
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise _fail(
                f"cannot listen on {host}:{port}: {exc.strerror} (is another server running? try --port)"
            ) from None
    url = database_url or default_url(data_dir)
    store = Store(url)

    async def check() -> None:
        await store.open()  # reachable? schema up to date? (the app opens it again in its own loop)
        await store.engine.dispose()

    try:
        asyncio.run(check())
    except StoreError as exc:
        raise _fail(str(exc)) from None
    app_ = create_app(store, load_secret(data_dir), TableConfig(bot_delay=bot_delay))
    Console(stderr=True).print(f"capicua on http://{host}:{port}  (database: {url.split('://')[0]}, data: {data_dir})")
    uvicorn.run(app_, host=host, port=port, log_level="warning", ws_max_size=65536, ws_per_message_deflate=ws_deflate)


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


SCORE_WORDS = {
    "table": "pontas (table count)",
    "pass": "passe (first pass after a play)",
    "galo": "galo",
    "galo-wrong": "galo errado (wrong galo)",
    "doubles-4": "4 carroças",
    "doubles-5": "5+ carroças",
    "no-double": "sem carroça (no double to lead)",
    "batida": "batida / dominó",
    "batida-double": "batida de carroça",
    "tranca": "tranca / tranque",
    "fine": "multa (fine)",
    "referee": "árbitro (referee)",
}


def _board(view: Any) -> str:
    lay = view.layout
    if lay["shape"] == "spinner":
        if not lay["spinner"]:
            return "(empty table)"
        arms = lay["arms"]
        lines = [
            f"        N: {' '.join(arms['N']) or '·'}",
            f"  {' '.join(reversed(arms['W'])) or '·'} ← W [{lay['spinner']}] E → {' '.join(arms['E']) or '·'}",
            f"        S: {' '.join(arms['S']) or '·'}",
        ]
        ends = "  ".join(f"{k}={v}" for k, v in lay["ends"].items())
        return "\n".join(lines) + f"\n  open ends: {ends}   count: {lay['count']}"
    if not lay["line"]:
        return "(empty table)"
    return "  " + " ".join(lay["line"]) + f"\n  ends: L={lay['ends']['L']} R={lay['ends']['R']}"


@app.command("play")
def play_command(
    variant: Annotated[str, typer.Option(help=f"One of: {', '.join(VARIANTS)}.")] = "amazonense",
    players: Annotated[int | None, typer.Option(help="Individual: 2, 3 or 4 players.")] = None,
    bot: Annotated[str, typer.Option(help="The bots' level: random, greedy, expert or expert:MS.")] = "expert",
    seat: Annotated[int, typer.Option(help="Your seat (0 leads the turn order).")] = 0,
    target: Annotated[int | None, typer.Option(help="Points to win (default: the variant's).")] = None,
    strict: Annotated[bool, typer.Option(help="Dominousa strict mode (C9).")] = False,
    seed: Annotated[int | None, typer.Option(help="Seed for the deals.")] = None,
) -> None:
    """Play a whole match in the terminal against bots.

    Your tiles and your legal actions are numbered: type the number (add g to call galo with a
    play in Amazonense, e.g. 3g). q quits.
    """
    from capicua.bots.arena import make_bot
    from capicua.rules.match import Match
    from capicua.rules.moves import ANNOUNCE, CLAIM, GALO

    if variant not in VARIANTS:
        raise _fail(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})", 2)
    options: dict[str, Any] = {}
    if target is not None:
        options["target"] = target
    if strict:
        options["strict"] = True
    try:
        make_bot(bot)
        match = Match(variant, players=players, options=options, seed=seed)
    except (ValueError, MoveError) as exc:
        raise _fail(str(exc), 2) from None
    if not 0 <= seat < match.players:
        raise _fail(f"--seat must be 0..{match.players - 1}", 2)
    console = Console(highlight=False)
    bots = {s: make_bot(bot, s) for s in range(match.players) if s != seat}
    sides = "teams 0 (seats 0+2) and 1 (seats 1+3)" if match.variant.partnerships else "each seat for himself"
    console.print(f"[bold]{variant}[/] — you are seat {seat}; {sides}; bots: {bot}")

    def ask(prompt: str) -> str:
        try:
            return input(prompt).strip().lower()
        except EOFError:
            raise typer.Exit(0) from None

    def announce_scores(hand: Any, before: int) -> None:
        for sc in hand.scores[before:]:
            who = f"team {sc.to}" if match.variant.partnerships else f"seat {sc.to}"
            console.print(f"   [green]+{sc.points} {who}[/]: {SCORE_WORDS.get(sc.kind, sc.kind)}")

    while not match.is_over():
        if match.needs_deal():
            hand = match.deal()
            console.rule(f"hand {len(match.hands)} — score {match.totals}")
        hand = match.hand
        view = hand.view(seat)
        mine = list(view.legal_moves)
        optional = [m for m in mine if m in (GALO, ANNOUNCE, CLAIM)]
        acted = False
        if optional and view.turn != seat:
            word = optional[0].kind
            if ask(f"{word}? [y/N] ") == "y":
                before = len(hand.scores)
                match.push(optional[0], seat)
                console.print(f"you: {optional[0]}")
                announce_scores(hand, before)
                continue
        if view.turn == seat and mine:
            console.print(_board(view))
            tiles = " ".join(str(t) for t in view.tiles)
            counts = " ".join(f"{s}:{c}" for s, c in enumerate(view.counts))
            console.print(f"  your tiles: {tiles}    tiles held: {counts}    boneyard: {view.boneyard}")
            for i, move in enumerate(mine, start=1):
                console.print(f"  [bold]{i}[/] {move}")
            while True:
                answer = ask("your move: ")
                if answer == "q":
                    raise typer.Exit(0)
                galo = answer.endswith("g")
                number = answer.rstrip("g")
                if number.isdigit() and 1 <= int(number) <= len(mine):
                    move = mine[int(number) - 1]
                    if galo and (variant != "amazonense" or not move.is_play):
                        console.print("  galo goes with a play, in Amazonense")
                        continue
                    chosen = move.with_galo() if galo else move
                    break
                console.print(f"  type a number from 1 to {len(mine)}")
            before = len(hand.scores)
            match.push(chosen, seat)
            console.print(f"you: {chosen}")
            announce_scores(hand, before)
            acted = True
        else:
            for k in range(1, match.players + 1):
                s = (hand.turn + k) % match.players
                if s == seat:
                    continue
                action = bots[s].act(hand.view(s))
                if action is not None:
                    before = len(hand.scores)
                    match.push(action, s)
                    console.print(f"seat {s}: {action}")
                    announce_scores(hand, before)
                    acted = True
                    break
        if not acted and not optional:
            raise _fail(f"nobody can act in {hand!r}")
        if hand.end is not None:
            console.print(f"[bold]hand over: {hand.end}[/] — score {match.totals}")
    winner = match.winner
    who = f"team {winner}" if match.variant.partnerships else f"seat {winner}"
    console.print(f"[bold]Match over: {who} wins[/] {match.totals}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
