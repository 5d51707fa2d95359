"""Puzzles from real hands, served and rated (docs/puzzles.md).

A solve is a game between the person and the puzzle, rated by Glicko-2 (the ``glicko2`` package) as lichess
rates its puzzles: a right move is a win for the person and a loss for the puzzle, a wrong one the other way
round; each side is rated by its rating before the solve. An account's first try at a puzzle counts (for him
and the puzzle); trying it again shows the answer and changes nothing. A guest's rating is his page's, for the
session: he sends it, gets the new one back, and the puzzle's rating does not move (a guest could send any
rating). The next puzzle is one of the few rated nearest the person that he has not tried.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import glicko2

from capicua.bots.puzzles import Puzzle
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store.puzzles import Glicko, PuzzleStore, day_index
from capicua.service.store.schema import PuzzleRow

__all__ = ["PUZZLE_START", "START", "Glicko", "Puzzles", "Solved", "rate", "why_of"]

#: A person's first puzzle rating, and a new puzzle's (Glicko-2's own start: 1500, 350, 0.06).
START = Glicko(1500.0, 350.0, 0.06)
PUZZLE_START = Glicko(1500.0, 350.0, 0.06)
#: The first reason a puzzle's themes give for its answer, in this order; "points" when none applies.
REASONS = ("galo", "tranca", "batida", "passe", "bloqueio", "pontas", "contagem")


def rate(person: Glicko, puzzle: Glicko, won: bool) -> tuple[Glicko, Glicko]:
    """Both sides' ratings after one solve (one game of a Glicko-2 rating period each)."""
    p = glicko2.Player(person.rating, person.rd, person.vol)
    q = glicko2.Player(puzzle.rating, puzzle.rd, puzzle.vol)
    p.update_player([puzzle.rating], [puzzle.rd], [1.0 if won else 0.0])
    q.update_player([person.rating], [person.rd], [0.0 if won else 1.0])
    return Glicko(p.rating, p.rd, p.vol), Glicko(q.rating, q.rd, q.vol)


def why_of(puzzle: Puzzle) -> dict[str, Any]:
    """One reason for the answer: a code the page words (``puzzle_why_<code>``) and its numbers."""
    facts = puzzle.facts
    code = next((c for c in REASONS if c in puzzle.themes), "points")
    numbers: dict[str, float] = {"margin": round(puzzle.margin), "share": round(100 * puzzle.share)}
    if code == "pontas":
        numbers["points"] = facts.get("points", 0)
    if code == "passe":
        numbers["pass"] = round(100 * facts.get("pass_share", 0))
    if code == "contagem" and "number" in facts:
        numbers["number"] = facts["number"]
    return {"code": code, "numbers": numbers}


@dataclass
class Solved:
    right: bool
    answer: str
    answers: list[str]
    moves: list[dict[str, Any]]
    why: dict[str, Any]
    rated: bool  # whether the ratings moved (an account's first try, or a guest's own rating)
    rating: Glicko  # the person's rating after it
    change: float
    puzzle_rating: float


def _glicko(row: Any) -> Glicko:
    return Glicko(row.rating, row.rd, row.vol)


def _check(g: Glicko | None) -> Glicko | None:
    """A guest's rating as his page sends it: refused when it is not one Glicko-2 could give."""
    if g is None:
        return None
    if not (0 < g.rating < 4000 and 0 < g.rd <= 500 and 0 < g.vol < 1) or any(map(math.isnan, (g.rating, g.rd, g.vol))):
        raise ServiceError("invalid", "a puzzle rating is rating 0–4000, rd 0–500, volatility 0–1")
    return g


class Puzzles:
    """The puzzle service: the next puzzle near a person's rating, the daily one, solving."""

    def __init__(
        self, store: PuzzleStore, rng: random.Random | None = None, today: Callable[[], dt.date] | None = None
    ) -> None:
        self.store = store
        self.rng = rng or random.Random()
        self.today = today or (lambda: dt.datetime.now(dt.UTC).date())

    async def rating(self, who: Identity | None, guest: Glicko | None = None) -> Glicko:
        """The person's puzzle rating: an account's kept one, a guest's as his page sends it, or the start."""
        if who is not None and not who.guest:
            row = await self.store.rating_of(who.id)
            return START if row is None else _glicko(row)
        return _check(guest) or START

    async def next(self, who: Identity | None, near: float | None, exclude: Sequence[int]) -> PuzzleRow:
        """A puzzle rated near ``near`` (a guest's rating, or streak mode's target; None: the person's own
        rating) that he has not tried (an account) nor seen (``exclude``)."""
        if near is None:
            near = (await self.rating(who)).rating
        account = who.id if who is not None and not who.guest else None
        rows = await self.store.near(near, account, exclude[-500:])
        if not rows:
            raise ServiceError("not-found", "no puzzle left to solve: all were tried, or none was made yet")
        return self.rng.choice(rows[:3])

    async def daily(self, today: dt.date | None = None) -> PuzzleRow:
        """The day's puzzle (the same for everybody all day)."""
        today = today or self.today()
        # Among the puzzles kept before the day began (UTC), so that puzzles made during the day do not change
        # it; all of them on the first day there are any.
        before: dt.datetime | None = dt.datetime.combine(today, dt.time(0), tzinfo=dt.UTC)
        count = await self.store.count(before)
        if not count:
            before = None
            count = await self.store.count()
        row = await self.store.nth(day_index(today, count), before) if count else None
        if row is None:
            raise ServiceError("not-found", "no puzzle was made yet (capicua puzzles make)")
        return row

    async def get(self, puzzle_id: int) -> PuzzleRow:
        row = await self.store.get(puzzle_id)
        if row is None:
            raise ServiceError("not-found", f"no puzzle {puzzle_id}")
        return row

    async def solve(self, puzzle_id: int, move: str, who: Identity | None, guest: Glicko | None = None) -> Solved:
        """Judge ``move`` (record notation, galo included) on a puzzle; rate the solve (see the module)."""
        row = await self.get(puzzle_id)
        puzzle = Puzzle.from_json(row.data)
        move = " ".join(move.split())
        if puzzle.points_of(move) is None:
            choices = ", ".join(m.move for m in puzzle.moves)
            raise ServiceError("invalid", f"{move!r} is not a move of this puzzle (one of: {choices})")
        right = move in puzzle.answers
        before = await self.rating(who, guest)
        theirs = _glicko(row)
        mine, its = rate(before, theirs, right)
        rated = True
        if who is not None and not who.guest:
            rated = await self.store.attempt(who.id, puzzle_id, move, right, mine, its, mine.rating - before.rating)
            if not rated:
                mine = before
        best = puzzle.moves[0].points
        return Solved(
            right=right,
            answer=puzzle.answers[0],
            answers=list(puzzle.answers),
            moves=[{"move": m.move, "points": m.points, "loss": round(best - m.points, 2)} for m in puzzle.moves],
            why=why_of(puzzle),
            rated=rated,
            rating=mine,
            change=round(mine.rating - before.rating, 1),
            puzzle_rating=round(its.rating if rated and who is not None and not who.guest else theirs.rating, 1),
        )
