"""Swiss tournaments of pairs (C10) with table referees (C8): creating one, registering teams, the rounds,
check-in, pairing by hand, forbidden pairings, referees (or, in a game without them, result helpers),
over-the-board results, and the standings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Path, Query
from fastapi.responses import PlainTextResponse
from pydantic import Field

from capicua.rules import variants
from capicua.service.tournaments.director import HELPER, MAX_ROUNDS
from capicua.service.tournaments.view import listing, standings_csv, standings_of, tournament_page
from capicua.web.deps import Caller, PlatformDep, Who, limited
from capicua.web.errors import refusals
from capicua.web.routes.common import Moment, StrictModel, TeamName, TournamentName, Username, UsernamePath, router

__all__ = ["routes"]

routes = router("tournaments")

if TYPE_CHECKING:
    PairGame = str
else:  # the games played by pairs: those a tournament may play
    PairGame = Literal[tuple(n for n in variants.names() if variants.get(n).partnerships)]

TournamentId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="a tournament's id")]
TeamNo = Annotated[int, Path(ge=1, le=100_000, description="a team's number in its tournament")]
RoundNo = Annotated[int, Path(ge=1, le=MAX_ROUNDS, description="a round's number")]
BoardNo = Annotated[int, Path(ge=1, le=100_000, description="a board's (table's) number in its round")]
When = Moment
Team = Annotated[int, Field(ge=1, le=100_000)]
#: Most boards a referee is named for one by one (more: name him for every board).
REFEREE_BOARDS = 1000
#: Two teams at a board, team A first: a JSON array of two (a strict model takes no array as a tuple).
Pair = Annotated[list[Team], Field(min_length=2, max_length=2)]


class TournamentIn(StrictModel):
    name: TournamentName
    game: PairGame = "dominousa"
    starts_at: When
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS, description="default: ceil(log2(teams)) at the start")] | None = (
        None
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="the match rules, the game's table options (GET /api/variants): target, match_minutes, "
        "move_seconds, strict (on by default)…",
    )
    mode: Literal["online", "board"] = Field(
        default="online", description="online: the platform's tables; board: physical tables, referees enter results"
    )
    registration_opens: When | None = None
    registration_closes: When | None = Field(
        default=None, description="default: open until half the rounds are paired (C10's late entry)"
    )
    no_show_grace: Annotated[int, Field(ge=0, le=3600, description="seconds (C10)")] = 300
    auto_pair: bool = Field(default=True, description="pair the next round as soon as the last board ends")


class TournamentChange(StrictModel):
    name: TournamentName | None = None
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] | None = None
    starts_at: When | None = None
    no_show_grace: Annotated[int, Field(ge=0, le=3600)] | None = None
    auto_pair: bool | None = None


class TeamIn(StrictModel):
    partner: Username
    name: TeamName | None = Field(default=None, description="default (or blank): the players' names")


class PairingIn(StrictModel):
    pairs: list[Pair] | None = Field(
        default=None, description="board 1 first, team A first in each; absent: the Swiss system pairs the round"
    )
    bye: Team | None = None


class ManualPairingIn(StrictModel):
    pairs: list[Pair]
    bye: Team | None = None


class ForbidIn(StrictModel):
    a: Team
    b: Team
    forbidden: bool = True


class RefereeIn(StrictModel):
    boards: list[Annotated[int, Field(ge=1, le=100_000)]] = Field(
        default_factory=list,
        max_length=REFEREE_BOARDS,
        description="empty: every board; each at most the tournament's number of boards (half its teams)",
    )


class EntryIn(StrictModel):
    a: Annotated[int, Field(ge=0, le=1000, description="points to team A")]
    b: Annotated[int, Field(ge=0, le=1000, description="points to team B")]
    kind: Literal["hand", "fine"] = "hand"
    note: Annotated[str, Field(max_length=200)] = ""


class ResultIn(StrictModel):
    winner: Team | None = Field(default=None, description="the referee's decision when it is not the points'")
    absent: list[Team] | None = Field(default=None, description="teams that did not show (C10)")
    reason: Annotated[str, Field(max_length=200)] = ""


@routes.get("/api/tournaments")
async def list_tournaments(
    platform: PlatformDep,
    status: Annotated[Literal["registration", "running", "finished"] | None, Query()] = None,
) -> list[dict[str, Any]]:
    """Tournaments, the latest start first: those in registration, running, or finished."""
    return await listing(platform.tournaments, status)


@routes.post("/api/tournaments", status_code=201, dependencies=[limited("tournament")])
async def create_tournament(body: TournamentIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Create a tournament (any account): it opens for registration."""
    t = await platform.tournaments.create(
        who,
        body.name,
        body.game,
        body.starts_at,
        rounds=body.rounds,
        options=body.options,
        mode=body.mode,
        registration_opens=body.registration_opens,
        registration_closes=body.registration_closes,
        no_show_grace=body.no_show_grace,
        auto_pair=body.auto_pair,
    )
    return await tournament_page(platform.tournaments, t.id, who)


@routes.get("/api/tournaments/{tournament_id}", responses=refusals(404))
async def get_tournament(tournament_id: TournamentId, who: Caller, platform: PlatformDep) -> dict[str, Any]:
    """A tournament's page: settings, teams and their history, rounds and boards (with their tables and who
    has checked in), standings with every tie-break, referees, and what the caller may do (``me``)."""
    return await tournament_page(platform.tournaments, tournament_id, who)


@routes.patch("/api/tournaments/{tournament_id}", responses=refusals(403, 404, 409))
async def change_tournament(
    tournament_id: TournamentId, body: TournamentChange, who: Who, platform: PlatformDep
) -> dict[str, Any]:
    """The organiser changes its name, rounds, start time (before it starts), no-show grace or auto-pairing."""
    await platform.tournaments.change(who, tournament_id, **body.model_dump())
    return await tournament_page(platform.tournaments, tournament_id, who)


@routes.post(
    "/api/tournaments/{tournament_id}/teams",
    status_code=201,
    dependencies=[limited("register-team")],
    responses=refusals(403, 404, 409),
)
async def register(tournament_id: TournamentId, body: TeamIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Register a team: you and your partner (by username), who then accepts."""
    team = await platform.tournaments.register(who, tournament_id, body.partner, body.name)
    return {"team": team.team, "name": team.name, "status": team.status}


@routes.post(
    "/api/tournaments/{tournament_id}/teams/{team}/accept",
    dependencies=[limited("register-team")],
    responses=refusals(403, 404, 409),
)
async def accept(tournament_id: TournamentId, team: TeamNo, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """The invited partner accepts: the team is registered (after the start, a late entry)."""
    row = await platform.tournaments.accept(who, tournament_id, team)
    return {"team": row.team, "name": row.name, "status": row.status, "entered_round": row.entered_round}


@routes.post("/api/tournaments/{tournament_id}/teams/{team}/withdraw", responses=refusals(403, 404, 409))
async def withdraw(tournament_id: TournamentId, team: TeamNo, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """A player of the team, or the organiser, withdraws it (its results stand)."""
    row = await platform.tournaments.withdraw(who, tournament_id, team)
    return {"team": row.team, "name": row.name, "status": row.status}


@routes.post("/api/tournaments/{tournament_id}/start", responses=refusals(403, 404, 409))
async def start(tournament_id: TournamentId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """The organiser starts it now (else it starts at its time): round 1 is drawn."""
    await platform.tournaments.start(who, tournament_id)
    return await tournament_page(platform.tournaments, tournament_id, who)


@routes.post("/api/tournaments/{tournament_id}/checkin", responses=refusals(403, 404, 409))
async def check_in(tournament_id: TournamentId, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """Check in for the round in play: you sit at your seat of your board's table."""
    return await platform.tournaments.check_in(who, tournament_id)


@routes.post("/api/tournaments/{tournament_id}/rounds", responses=refusals(403, 404, 409))
async def pair_next(tournament_id: TournamentId, body: PairingIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """The organiser pairs the next round now: by the Swiss system, or by hand (``pairs``, ``bye``)."""
    pairs = None if body.pairs is None else [(a, b) for a, b in body.pairs]
    await platform.tournaments.pair_next(who, tournament_id, pairs, body.bye)
    return await tournament_page(platform.tournaments, tournament_id, who)


@routes.put("/api/tournaments/{tournament_id}/rounds/{round_no}", responses=refusals(403, 404, 409))
async def repair(
    tournament_id: TournamentId, round_no: RoundNo, body: ManualPairingIn, who: Who, platform: PlatformDep
) -> dict[str, Any]:
    """The organiser overrides the current round's pairing, while none of its matches has started."""
    await platform.tournaments.repair(who, tournament_id, [(a, b) for a, b in body.pairs], body.bye, round_no)
    return await tournament_page(platform.tournaments, tournament_id, who)


@routes.post("/api/tournaments/{tournament_id}/forbidden", responses=refusals(403, 404, 409))
async def forbid(tournament_id: TournamentId, body: ForbidIn, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """The organiser keeps two teams apart (teammates from one club), or no longer (``forbidden: false``)."""
    await platform.tournaments.forbid(who, tournament_id, body.a, body.b, body.forbidden)
    return {"forbidden": [list(p) for p in await platform.tournaments.forbidden(tournament_id)]}


@routes.put("/api/tournaments/{tournament_id}/referees/{username}", responses=refusals(403, 404, 409))
async def name_referee(
    tournament_id: TournamentId,
    username: UsernamePath,
    body: RefereeIn,
    who: Who,
    platform: PlatformDep,
) -> dict[str, Any]:
    """The organiser names a table referee (C8) for some boards (empty: all of them). Only in a game with a
    table referee (``GET /api/variants``' ``referee``); another game's tournament names result helpers
    (``…/helpers/{username}``): ``no-referee`` here."""
    await platform.tournaments.set_referee(who, tournament_id, username, body.boards)
    return {"referees": (await tournament_page(platform.tournaments, tournament_id, who))["referees"]}


@routes.delete("/api/tournaments/{tournament_id}/referees/{username}", responses=refusals(403, 404, 409))
async def remove_referee(
    tournament_id: TournamentId,
    username: UsernamePath,
    who: Who,
    platform: PlatformDep,
) -> dict[str, Any]:
    await platform.tournaments.set_referee(who, tournament_id, username, None)
    return {"referees": (await tournament_page(platform.tournaments, tournament_id, who))["referees"]}


@routes.put("/api/tournaments/{tournament_id}/helpers/{username}", responses=refusals(403, 404, 409))
async def name_helper(
    tournament_id: TournamentId,
    username: UsernamePath,
    body: RefereeIn,
    who: Who,
    platform: PlatformDep,
) -> dict[str, Any]:
    """The organiser names a result helper for some boards (empty: all of them), in a tournament played over
    the board of a game without a table referee (C8): he enters those boards' hands and results, and makes
    no decision (no fine, no award). A game with a table referee names referees instead (``invalid``)."""
    await platform.tournaments.set_referee(who, tournament_id, username, body.boards, role=HELPER)
    return {"helpers": (await tournament_page(platform.tournaments, tournament_id, who))["helpers"]}


@routes.delete("/api/tournaments/{tournament_id}/helpers/{username}", responses=refusals(403, 404, 409))
async def remove_helper(
    tournament_id: TournamentId,
    username: UsernamePath,
    who: Who,
    platform: PlatformDep,
) -> dict[str, Any]:
    await platform.tournaments.set_referee(who, tournament_id, username, None, role=HELPER)
    return {"helpers": (await tournament_page(platform.tournaments, tournament_id, who))["helpers"]}


@routes.post(
    "/api/tournaments/{tournament_id}/rounds/{round_no}/boards/{board}/entries", responses=refusals(403, 404, 409)
)
async def board_entry(
    tournament_id: TournamentId, round_no: RoundNo, board: BoardNo, body: EntryIn, who: Who, platform: PlatformDep
) -> dict[str, Any]:
    """Over the board: the board's referee (or result helper) enters a hand's points, or a fine (the points go
    to the fined team's opponents; only in a game with a table referee, else ``no-referee``)."""
    row = await platform.tournaments.board_entry(
        who, tournament_id, round_no, board, body.a, body.b, body.kind, body.note
    )
    return {"board": row.board, "points": [row.points_a, row.points_b], "hands": row.hands, "status": row.status}


@routes.post(
    "/api/tournaments/{tournament_id}/rounds/{round_no}/boards/{board}/result", responses=refusals(403, 404, 409)
)
async def board_result(
    tournament_id: TournamentId, round_no: RoundNo, board: BoardNo, body: ResultIn, who: Who, platform: PlatformDep
) -> dict[str, Any]:
    """Over the board: the referee (or result helper) ends the board (more points win; or the referee's
    decision: ``winner``, which a game without a table referee refuses, ``no-referee``; or a no-show:
    ``absent``). Final."""
    row = await platform.tournaments.board_result(
        who, tournament_id, round_no, board, body.winner, body.absent, body.reason
    )
    return {"board": row.board, "points": [row.points_a, row.points_b], "winner": row.winner, "kind": row.kind}


@routes.get("/api/tournaments/{tournament_id}/standings.json", responses=refusals(404))
async def standings_json(tournament_id: TournamentId, platform: PlatformDep) -> list[dict[str, Any]]:
    """The standings, a line a team, every tie-break column (C10)."""
    return await standings_of(platform.tournaments, tournament_id)


@routes.get(
    "/api/tournaments/{tournament_id}/standings.csv",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/csv": {}}}, **refusals(404)},
)
async def standings_as_csv(tournament_id: TournamentId, platform: PlatformDep) -> PlainTextResponse:
    """The standings as CSV."""
    lines = await standings_of(platform.tournaments, tournament_id)
    return PlainTextResponse(
        standings_csv(lines),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="standings-{tournament_id}.csv"'},
    )
