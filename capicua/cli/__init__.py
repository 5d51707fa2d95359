"""The ``capicua`` command: one module per subcommand.

``replay`` (check and show a game record), ``record random`` (random match records),
``serve`` (the platform), ``play`` (a match in the terminal against bots) and ``arena``
(bots against bots, in duplicate), ``analyse`` (every decision of a record weighed), ``bot run``
(a bot account played over the bot API), ``admin`` (the moderators and their log),
``puzzles make`` (puzzles from real hands).
"""

from __future__ import annotations

import typer

from capicua.cli import admin, analyse, arena, bot, play, puzzles, record, replay, serve

__all__ = ["app", "main"]

app = typer.Typer(
    help="capicua: dominoes the way Brazil and Latin America play (Amazonense, individual, Dominousa).",
    no_args_is_help=True,
    add_completion=False,
)
app.command("replay")(replay.replay_command)
app.command("analyse")(analyse.analyse_command)
app.add_typer(record.app, name="record")
app.command("serve")(serve.serve_command)
app.command("arena")(arena.arena_command)
app.command("play")(play.play_command)
app.add_typer(bot.app, name="bot")
app.add_typer(admin.app, name="admin")
app.add_typer(puzzles.app, name="puzzles")


def main() -> None:
    app()
