"""Guided first hands ("mão guiada", issue 22 item 4): the games that have one, a lesson's prompts, and a
lesson's table (a private, casual table dealt the lesson's hand, with its scripted bots)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from capicua.bots import lessons
from capicua.web.deps import PlatformDep, Who, limited
from capicua.web.errors import refusals
from capicua.web.routes.common import router

__all__ = ["routes"]

routes = router("lessons")

if TYPE_CHECKING:
    LessonName = str
else:  # the games that have a lesson, as the schema's enum
    LessonName = Literal[lessons.names()]


@routes.get("/api/lessons")
async def list_lessons() -> list[str]:
    """The games that have a guided first hand."""
    return list(lessons.names())


@routes.get("/api/lessons/{game}", responses=refusals(422))
async def get_lesson(game: LessonName) -> dict[str, Any]:
    """What the learner's page shows of a lesson: his prompts in the order he acts (``steps[k]``: his k-th
    action of the hand; ``want``, the moves it asks for; ``wrong``, what to say of other legal moves), the
    notes said after the bots' actions (``after``: the number of actions of the hand), and the words at its
    end; each text in ``languages``' order. The deal and the bots' moves are not in it."""
    return lessons.get(game).public()


@routes.post("/api/lessons/{game}", status_code=201, dependencies=[limited("table")], responses=refusals(422, 503))
async def start_lesson(game: LessonName, who: Who, platform: PlatformDep) -> dict[str, Any]:
    """A guided first hand of ``game`` for the caller: a private, casual table (not in the lobby, never
    rated) that deals the lesson's hand, seats the caller at the lesson's seat and its scripted bots at the
    others, and starts at once. Its options carry ``lesson``. The answer is the table's summary, with its
    invite."""
    table = await platform.lessons.start(who, game)
    return table.summary(with_invite=True)
