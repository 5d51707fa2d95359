"""Puzzles from real hands (docs/puzzles.md): the next one near the person's rating, the daily one, solving.

A puzzle is posed as the seat saw it: its view (what a bot receives: its own tiles, the table, the public
history, the counts), and the moves to choose from in record notation, sorted (never best first). Nothing of its
source goes out before it is solved: a record's id would lead to the whole match, every hand open.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path, Query
from pydantic import BaseModel, Field

from capicua.bots.puzzles import Puzzle
from capicua.service.puzzles import Glicko, Solved
from capicua.web.deps import Caller, PlatformDep
from capicua.web.errors import refusals
from capicua.web.routes.common import StrictModel, router

__all__ = ["routes"]

routes = router("puzzles")

PuzzleId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a puzzle's id")]


class RatingOut(BaseModel):
    rating: float
    rd: float = Field(description="Glicko-2 rating deviation")
    vol: float = Field(description="Glicko-2 volatility")
    guest: bool = Field(description="a guest's: kept by his page for the session, not by the server")


class PuzzleOut(BaseModel):
    id: int
    variant: str
    seat: int = Field(description="the seat to play, whose view this is")
    position: dict[str, Any] = Field(
        description="the seat's view at the decision (as the bot API sends it: docs/bots.md): no hidden tile"
    )
    moves: list[str] = Field(description="the moves to choose from, record notation, galo included, sorted")
    rating: float = Field(description="the puzzle's Glicko-2 rating")
    plays: int = Field(description="people who tried it (accounts)")
    you: RatingOut


class MoveOut(BaseModel):
    move: str
    points: float = Field(description="expected points: the rest of the hand, the seat's side minus the other")
    loss: float = Field(description="points below the best move's")


class WhyOut(BaseModel):
    code: Literal["galo", "tranca", "batida", "passe", "bloqueio", "pontas", "contagem", "points"] = Field(
        description="the reason, worded by the page (puzzle_why_<code>)"
    )
    numbers: dict[str, float] = Field(description="its numbers: margin, share (%), points, pass (%), number")


class SourceOut(BaseModel):
    kind: Literal["record", "self-play"]
    record_id: int | None
    seed: int | None
    hand: int
    action: int


class SolveOut(BaseModel):
    right: bool
    answer: str = Field(description="the best move")
    answers: list[str] = Field(description="every move that solves it (the same play on another arm)")
    moves: list[MoveOut] = Field(description="every move, best first")
    why: WhyOut
    themes: list[str]
    method: Literal["worlds", "exact"]
    worlds: int
    share: float = Field(description="of the worlds, those in which the answer was best")
    rated: bool = Field(description="whether ratings moved: an account's first try, or a guest's own rating")
    change: float
    you: RatingOut
    puzzle_rating: float
    source: SourceOut


class GuestRatingIn(StrictModel):
    rating: float = Field(gt=0, lt=4000)
    rd: float = Field(gt=0, le=500)
    vol: float = Field(gt=0, lt=1)


class SolveIn(StrictModel):
    move: str = Field(min_length=1, max_length=24, description="a move of the puzzle's, e.g. '6-4 W' or '5-2 W galo'")
    rating: GuestRatingIn | None = Field(default=None, description="a guest's rating so far (his page keeps it)")


def _you(g: Glicko, guest: bool) -> RatingOut:
    return RatingOut(rating=round(g.rating, 1), rd=round(g.rd, 1), vol=round(g.vol, 6), guest=guest)


def _guest(who: Any) -> bool:
    return who is None or who.guest


def _out(row: Any, you: RatingOut) -> PuzzleOut:
    puzzle = Puzzle.from_json(row.data)
    return PuzzleOut(
        id=row.id,
        variant=row.variant,
        seat=puzzle.seat,
        position=puzzle.view,
        moves=sorted(m.move for m in puzzle.moves),
        rating=round(row.rating, 1),
        plays=row.plays,
        you=you,
    )


Exclude = Annotated[
    str | None,
    Query(pattern=r"^[0-9]{1,10}(,[0-9]{1,10}){0,499}$", description="puzzles seen this session, comma-separated ids"),
]
NearRating = Annotated[
    float | None, Query(gt=0, lt=4000, description="choose near this rating: a guest's own, or streak mode's target")
]


@routes.get("/api/puzzles/next", responses=refusals(404))
async def next_puzzle(
    platform: PlatformDep, who: Caller, exclude: Exclude = None, rating: NearRating = None
) -> PuzzleOut:
    """A puzzle rated near ``rating`` (a guest's own, which his page keeps, or streak mode's target), else near
    the caller's puzzle rating, that he has not tried (an account) nor seen this session (``exclude``); 404
    when none is left."""
    ids = [int(x) for x in exclude.split(",")] if exclude else []
    row = await platform.puzzles.next(who, rating, ids)
    guest = Glicko(rating, 350.0, 0.06) if rating is not None and _guest(who) else None
    return _out(row, _you(await platform.puzzles.rating(who, guest), _guest(who)))


@routes.get("/api/puzzles/daily", responses=refusals(404))
async def daily_puzzle(platform: PlatformDep, who: Caller) -> PuzzleOut:
    """The day's puzzle, the same for everybody (404 while none was made)."""
    row = await platform.puzzles.daily()
    return _out(row, _you(await platform.puzzles.rating(who), _guest(who)))


@routes.get("/api/puzzles/{puzzle_id}", responses=refusals(404))
async def get_puzzle(puzzle_id: PuzzleId, platform: PlatformDep, who: Caller) -> PuzzleOut:
    """A puzzle by its id, posed as its seat saw it."""
    row = await platform.puzzles.get(puzzle_id)
    return _out(row, _you(await platform.puzzles.rating(who), _guest(who)))


@routes.post("/api/puzzles/{puzzle_id}/solve", responses=refusals(404))
async def solve_puzzle(puzzle_id: PuzzleId, body: SolveIn, platform: PlatformDep, who: Caller) -> SolveOut:
    """Play a move: right or wrong, every move's expected points, one reason (a code and its numbers), the
    source, and the ratings. An account's first try moves his rating and the puzzle's (Glicko-2); a guest's
    rating is the one he sends, the new one comes back, the puzzle's stays. A move that is not one of the
    puzzle's is 422 and changes nothing."""
    guest = None if body.rating is None else Glicko(body.rating.rating, body.rating.rd, body.rating.vol)
    solved: Solved = await platform.puzzles.solve(puzzle_id, body.move, who, guest)
    row = await platform.puzzles.get(puzzle_id)
    puzzle = Puzzle.from_json(row.data)
    return SolveOut(
        right=solved.right,
        answer=solved.answer,
        answers=solved.answers,
        moves=[MoveOut(**m) for m in solved.moves],
        why=WhyOut(**solved.why),
        themes=puzzle.themes,
        method="exact" if puzzle.method == "exact" else "worlds",
        worlds=puzzle.worlds,
        share=puzzle.share,
        rated=solved.rated,
        change=solved.change,
        you=_you(solved.rating, _guest(who)),
        puzzle_rating=solved.puzzle_rating,
        source=SourceOut(
            kind="record" if row.source == "record" else "self-play",
            record_id=row.record_id,
            seed=row.seed,
            hand=row.hand,
            action=row.action,
        ),
    )
