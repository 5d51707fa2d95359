"""A tournament's stored boards as the Swiss system counts them: each team's :class:`~.swiss.Result` a round.

A board (``PairingRow``) holds both teams' result at once: ``winner`` (a team, or None when neither won:
both absent), ``points_a`` and ``points_b`` (what each scored: a match's totals, a bye's 200, a no-show's
200 for the team that came). A late entrant's rounds before it entered are :meth:`~.swiss.Result.missed`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from capicua.service.store.schema import PairingRow, TournamentTeamRow
from capicua.service.tournaments.swiss import FORFEIT_POINTS, Kind, Result

__all__ = ["board_results", "results_by_team"]

#: How a board's ``kind`` counts for the standings (an abandoned or a time-limited match is a match played).
_KIND: dict[str, Kind] = {
    "played": "played",
    "abandon": "played",
    "board": "played",
    "award": "award",
    "forfeit": "forfeit",
    "bye": "bye",
}


def board_results(board: PairingRow) -> dict[int, Result]:
    """The result of each team of a finished board.

    >>> row = PairingRow(round=2, board=1, team_a=3, team_b=7, status="done", kind="played", winner=7,
    ...                  points_a=120, points_b=205)
    >>> board_results(row)[3]
    Result(round=2, opponent=7, won=False, points_for=120, points_against=205, kind='played')
    >>> both_absent = PairingRow(round=1, board=2, team_a=1, team_b=2, status="done", kind="forfeit",
    ...                          winner=None, points_a=0, points_b=0)
    >>> [(r.won, r.points_for, r.points_against) for r in board_results(both_absent).values()]
    [(False, 0, 200), (False, 0, 200)]
    """
    if board.status != "done" or board.kind is None:
        return {}
    kind = _KIND[board.kind]
    if board.team_b is None:
        return {board.team_a: Result.bye(board.round)}
    a, b = board.team_a, board.team_b
    if kind == "forfeit":
        # the team that did not show loses 0-200 (each of two absent teams does: nobody wins)
        return {
            team: Result(board.round, other, board.winner == team, *_forfeit(board.winner == team))
            for team, other in ((a, b), (b, a))
        }
    return {
        a: Result(board.round, b, board.winner == a, board.points_a, board.points_b, kind),
        b: Result(board.round, a, board.winner == b, board.points_b, board.points_a, kind),
    }


def _forfeit(won: bool) -> tuple[int, int, Kind]:
    return (FORFEIT_POINTS, 0, "forfeit") if won else (0, FORFEIT_POINTS, "forfeit")


def results_by_team(teams: Sequence[TournamentTeamRow], boards: Iterable[PairingRow]) -> dict[int, list[Result]]:
    """Every registered (or withdrawn) team's results in round order, its missed rounds included."""
    out: dict[int, list[Result]] = {t.team: [] for t in teams if t.status in ("registered", "withdrawn")}
    for board in boards:
        for team, result in board_results(board).items():
            if team in out:
                out[team].append(result)
    for t in teams:
        if t.team in out:
            out[t.team].extend(Result.missed(r) for r in range(1, t.entered_round))
            out[t.team].sort(key=lambda r: r.round)
    return out
