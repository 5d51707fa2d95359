"""What people see of a tournament: its page (settings, teams, rounds with their boards and tables,
standings with every tie-break column, each team's history) and the standings as CSV or JSON.

Nothing here decides anything; it reads the tournament's rows and the live tables (who has sat down).
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from capicua.service.errors import ServiceError
from capicua.service.exports import csv_text
from capicua.service.identity import Identity
from capicua.service.store.schema import PairingRow, TournamentRow, TournamentTeamRow
from capicua.service.tournaments.context import REFEREE, role_of
from capicua.service.tournaments.swiss import MET, Result, Standing, draw_ticket, late_entry_open

if TYPE_CHECKING:
    from capicua.service.tournaments.director import Tournaments

__all__ = [
    "STANDINGS_COLUMNS",
    "listing",
    "standings_csv",
    "standings_lines",
    "standings_of",
    "summary",
    "tournament_page",
]

#: The standings' columns, in the order of C10's tie-breaks.
STANDINGS_COLUMNS = (
    "place",
    "team",
    "name",
    "players",
    "played",
    "wins",
    "losses",
    "difference",
    "points_for",
    "points_against",
    "head_to_head",
    "draw",
    "byes",
    "status",
)


def _iso(at: dt.datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def summary(t: TournamentRow, teams: int | None = None) -> dict[str, Any]:
    """A tournament as lists show it."""
    return {
        "id": t.id,
        "name": t.name,
        "game": t.game,
        "mode": t.mode,
        "status": t.status,
        "rounds": t.rounds,
        "current_round": t.current_round,
        "starts_at": _iso(t.starts_at),
        "teams": teams,
    }


async def listing(director: Tournaments, status: str | None = None) -> list[dict[str, Any]]:
    """The tournaments (those of ``status``, or all), the latest start first, as lists show them."""
    store = director.ctx.store
    rows = await store.tournaments(None if status is None else [status])
    counts = await store.registered_counts([t.id for t in rows])
    return [summary(t, counts.get(t.id, 0)) for t in rows]


def standings_lines(
    t: TournamentRow,
    ranked: Sequence[Standing],
    teams: Sequence[TournamentTeamRow],
    names: dict[str, str],
    results: dict[int, list[Result]],
) -> list[dict[str, Any]]:
    """The standings, one line a team, with every tie-break column: ``head_to_head`` is ``won``, ``lost``
    or ``level`` when exactly two teams are tied on wins, difference and points for and they met; ``draw``
    is the seeded draw's ticket (the lower ranks first)."""
    by_team = {x.team: x for x in teams}

    def key(s: Standing) -> tuple[int, int, int]:
        return s.wins, s.difference, s.points_for

    def won(team: int, other: int) -> int:
        return sum(r.won for r in results.get(team, []) if r.opponent == other and r.kind in MET)

    h2h: dict[int, str] = {}
    for _, group in itertools.groupby(ranked, key=key):
        tied = list(group)
        if len(tied) == 2 and tied[1].team in tied[0].opponents:
            a, b = tied[0].team, tied[1].team
            wa, wb = won(a, b), won(b, a)
            h2h[a], h2h[b] = ("level", "level") if wa == wb else ("won", "lost") if wa > wb else ("lost", "won")
    lines = []
    for s in ranked:
        row = by_team[s.team]
        lines.append(
            {
                "place": s.place,
                "team": s.team,
                "name": row.name,
                "players": [names.get(row.player_a, "?"), names.get(row.player_b, "?")],
                "played": s.wins + s.losses,
                "wins": s.wins,
                "losses": s.losses,
                "difference": s.difference,
                "points_for": s.points_for,
                "points_against": s.points_against,
                "head_to_head": h2h.get(s.team),
                "draw": draw_ticket(t.id, s.team),
                "byes": s.byes,
                "status": row.status,
            }
        )
    return lines


def standings_csv(lines: Sequence[dict[str, Any]]) -> str:
    """The standings as CSV (one header line, then a line a team; players joined by " & "), written by
    :func:`~capicua.service.exports.csv_text`: a team's or a player's name that begins like a formula is
    made text; the numbers (place, points, a negative difference) are the server's own and stay numbers."""
    rows = ([" & ".join(line[c]) if c == "players" else line[c] for c in STANDINGS_COLUMNS] for line in lines)
    return csv_text(STANDINGS_COLUMNS, rows)


def _history(team: int, mine: Sequence[Result], boards: dict[tuple[int, int], PairingRow]) -> list[dict[str, Any]]:
    """A team's rounds: opponent, result, points, and its table (to watch or replay)."""
    out = []
    for r in mine:
        board = boards.get((r.round, team))
        out.append(
            {
                "round": r.round,
                "opponent": r.opponent,
                "kind": r.kind,
                "won": r.won,
                "points_for": r.points_for,
                "points_against": r.points_against,
                "board": None if board is None else board.board,
                "table": None if board is None else board.table_id,
                "met": r.kind in MET,
            }
        )
    return out


async def tournament_page(director: Tournaments, tournament_id: str, who: Identity | None) -> dict[str, Any]:
    """Everything the tournament's page shows, for ``who`` (his team, his board, what he may do)."""
    snap = await director.read(tournament_id)
    t, teams, boards, referees = snap.t, snap.teams, snap.boards, snap.referees
    ranked, results = snap.ranking(), snap.results()
    ids = [t.organiser, *(p for x in teams for p in (x.player_a, x.player_b)), *(r.player_id for r in referees)]
    names = await director.ctx.accounts.names(list(dict.fromkeys(ids)))
    by_round_team = {(b.round, x): b for b in boards for x in (b.team_a, b.team_b) if x is not None}
    seated = await _seated(director, t, [b for b in boards if b.round == t.current_round])
    me = None if who is None else who.id
    mine = next((x for x in teams if me in (x.player_a, x.player_b) and x.status != "withdrawn"), None)
    my_board = None if mine is None else by_round_team.get((t.current_round, mine.team))
    refereed = role_of(t.game) == REFEREE
    named = [{"id": r.player_id, "name": names.get(r.player_id), "boards": list(r.boards)} for r in referees]
    referee_boards: list[int] | str | None = None  # the boards I referee, or (no table referee) enter results of
    if me == t.organiser:
        referee_boards = "all"
    else:
        for r in referees:
            if r.player_id == me:
                referee_boards = "all" if not r.boards else list(r.boards)
    return {
        **summary(t, sum(1 for x in teams if x.status == "registered")),
        "round_count": t.rounds,  # the summary's ``rounds``: below, ``rounds`` lists the rounds paired
        "organiser": {"id": t.organiser, "name": names.get(t.organiser)},
        "options": t.options,
        "registration_opens": _iso(t.registration_opens),
        "registration_closes": _iso(t.registration_closes),
        "registration_open": _registration_open(t, director.ctx.clock),
        "no_show_grace": t.no_show_grace,
        "auto_pair": t.auto_pair,
        "round_started_at": _iso(t.round_started_at),
        "teams": [
            {
                "team": x.team,
                "name": x.name,
                "players": [
                    {"id": x.player_a, "name": names.get(x.player_a)},
                    {"id": x.player_b, "name": names.get(x.player_b)},
                ],
                "status": x.status,
                "entered_round": x.entered_round,
                "no_shows": x.no_shows,
                "history": _history(x.team, results.get(x.team, []), by_round_team),
            }
            for x in teams
        ],
        "rounds": [
            {
                "round": r,
                "boards": [_board(b, seated.get(b.table_id or "")) for b in group],
            }
            for r, group in itertools.groupby(boards, key=lambda b: b.round)
        ],
        "standings": standings_lines(t, ranked, teams, names, results),
        # Those the organiser named for some boards: table referees (C8) where the game has them, else result
        # helpers, who only enter over-the-board results (role_of).
        "referees": named if refereed else [],
        "helpers": [] if refereed else named,
        "forbidden": [list(p) for p in snap.forbidden],
        "me": {
            "team": None if mine is None else mine.team,
            "invited": [x.team for x in teams if x.player_b == me and x.status == "invited"],
            "board": None if my_board is None else my_board.board,
            "table": None if my_board is None else my_board.table_id,
            "organiser": me is not None and me == t.organiser,
            "referee": referee_boards if refereed else None,
            "helper": None if refereed else referee_boards,
        },
    }


def _board(b: PairingRow, seated: list[bool] | None) -> dict[str, Any]:
    return {
        "board": b.board,
        "team_a": b.team_a,
        "team_b": b.team_b,
        "table": b.table_id,
        "status": b.status,
        "kind": b.kind,
        "winner": b.winner,
        "points": [b.points_a, b.points_b],
        "seated": seated,  # the table's seats taken (checked in), while it waits for its players
        "hands": list(b.hands),
    }


async def _seated(director: Tournaments, t: TournamentRow, boards: Sequence[PairingRow]) -> dict[str, list[bool]]:
    """Who has sat down at the round's open tables, wherever they run."""
    out = {}
    for b in boards:
        if b.table_id is None or b.status == "done":
            continue
        try:
            status, players = await director.ctx.seats(b.table_id)
        except ServiceError:  # its node away for a moment: the page shows nobody seated there
            continue
        if status == "open":
            out[b.table_id] = [player is not None for player in players]
    return out


def _registration_open(t: TournamentRow, clock: Callable[[], dt.datetime]) -> bool:
    now = clock()
    opens, closes = t.registration_opens, t.registration_closes
    if t.status == "finished" or (opens is not None and now < opens) or (closes is not None and now >= closes):
        return False
    return t.status == "registration" or late_entry_open(t.current_round, t.rounds or 0)


async def standings_of(director: Tournaments, tournament_id: str) -> list[dict[str, Any]]:
    """The standings now, as :func:`standings_lines` writes them (the CSV and JSON exports)."""
    snap = await director.read(tournament_id)
    names = await director.ctx.accounts.names([p for x in snap.teams for p in (x.player_a, x.player_b)])
    return standings_lines(snap.t, snap.ranking(), snap.teams, names, snap.results())
