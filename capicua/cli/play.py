"""``capicua play``: a whole match in the terminal against bots."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console

from capicua.cli.common import VARIANT_HELP, fail, game_options, get_variant
from capicua.rules.hand import Hand, SeatView
from capicua.rules.moves import ANNOUNCE, CLAIM, GALO, Move

__all__ = ["TerminalPlayer", "play_command"]

#: The words players use for each kind of score (shared/spec/records.md lists the kinds).
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
OPTIONAL = (GALO, ANNOUNCE, CLAIM)


def board_text(view: SeatView) -> str:
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


class TerminalPlayer:
    """The person at the terminal, as a player the bots' driver can ask (a bot's interface)."""

    def __init__(self, console: Console, galo: bool) -> None:
        self.console = console
        self.galo = galo  # whether plays may carry galo in this game (A5)

    def ask(self, prompt: str) -> str:
        try:
            return input(prompt).strip().lower()
        except EOFError:
            raise typer.Exit(0) from None

    def act(self, view: SeatView) -> Move | None:
        mine = list(view.legal_moves)
        optional = [m for m in mine if m in OPTIONAL]
        if view.turn != view.seat:
            if optional and self.ask(f"{optional[0].kind}? [y/N] ") == "y":
                return optional[0]
            return None
        console = self.console
        console.print(board_text(view))
        tiles = " ".join(str(t) for t in view.tiles)
        counts = " ".join(f"{s}:{c}" for s, c in enumerate(view.counts))
        console.print(f"  your tiles: {tiles}    tiles held: {counts}    boneyard: {view.boneyard}")
        for i, move in enumerate(mine, start=1):
            console.print(f"  [bold]{i}[/] {move}")
        while True:
            answer = self.ask("your move: ")
            if answer == "q":
                raise typer.Exit(0)
            galo = answer.endswith("g")
            number = answer.rstrip("g")
            if number.isdigit() and 1 <= int(number) <= len(mine):
                move = mine[int(number) - 1]
                if galo and not (self.galo and move.is_play):
                    console.print("  galo is called with a play, and only where the game has it")
                    continue
                return move.with_galo() if galo else move
            console.print(f"  type a number from 1 to {len(mine)}")


def play_command(
    variant: Annotated[str, typer.Option(help=VARIANT_HELP)] = "amazonense",
    players: Annotated[int | None, typer.Option(help="Individual: 2, 3 or 4 players.")] = None,
    bot: Annotated[
        str, typer.Option(help="The bots' level: random, greedy, heuristic, pimc[:N] or expert[:MS].")
    ] = "expert",
    seat: Annotated[int, typer.Option(help="Your seat (0 leads the turn order).")] = 0,
    target: Annotated[int | None, typer.Option(help="Points to win (default: the variant's).")] = None,
    strict: Annotated[bool | None, typer.Option("--strict", help="Dominousa strict mode (C9).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deals.")] = None,
) -> None:
    """Play a whole match in the terminal against bots.

    Your tiles and your legal actions are numbered: type the number (add g to call galo with a
    play in Amazonense, e.g. 3g). q quits.
    """
    from capicua.bots.driver import play_match
    from capicua.bots.registry import make_bot
    from capicua.rules.match import Match

    game = get_variant(variant)
    options = game_options(game, players, target=target, strict=strict)
    try:
        make_bot(bot)
        match = Match(game, players=players, options=options, seed=seed)
    except ValueError as exc:
        raise fail(str(exc), 2) from None
    if not 0 <= seat < match.players:
        raise fail(f"--seat must be 0..{match.players - 1}", 2)
    console = Console(highlight=False)
    seated: list[Any] = [make_bot(bot, s) for s in range(match.players)]
    seated[seat] = TerminalPlayer(console, GALO in game.calls)
    sides = "teams 0 (seats 0+2) and 1 (seats 1+3)" if game.partnerships else "each seat for himself"
    console.print(f"[bold]{variant}[/] — you are seat {seat}; {sides}; bots: {bot}")

    def side(to: int) -> str:
        return f"team {to}" if game.partnerships else f"seat {to}"

    def dealt(hand: Hand) -> None:
        console.rule(f"hand {len(match.hands)} — score {match.totals}")

    def acted(who: int, move: Move, hand: Hand) -> None:
        console.print(f"{'you' if who == seat else f'seat {who}'}: {move}")
        for sc in hand.scores:
            if sc.action == len(hand.history):  # the scores this action made
                console.print(f"   [green]+{sc.points} {side(sc.to)}[/]: {SCORE_WORDS.get(sc.kind, sc.kind)}")
        if hand.end is not None:
            console.print(f"[bold]hand over: {hand.end}[/] — score {match.totals}")

    try:
        play_match(match, seated, on_deal=dealt, on_action=acted)
    except RuntimeError as exc:
        raise fail(str(exc)) from None
    assert match.winner is not None
    console.print(f"[bold]Match over: {side(match.winner)} wins[/] {match.totals}")
