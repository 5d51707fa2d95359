"""Hand reviews (docs/analysis.md): a finished match's or an uploaded record's decisions, weighed.

An analysis is started with a ``POST`` (``202``, with its progress; ``200`` when it is already done)
and followed with ``GET`` until its state is ``done``. It is computed once, in worker processes, and
kept: asking again reads it back. An upload is at most ``MAX_UPLOAD`` bytes (``413`` past it, before it is
read), and is read and replayed in a worker, as a record's steps are built in one: nothing that grows
with a record runs on the event loop.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path, Request, Response
from pydantic import BaseModel, Field

from capicua.service.analysis import MAX_UPLOAD, Progress
from capicua.web.deps import PlatformDep, limited
from capicua.web.errors import refusals
from capicua.web.routes.common import RecordId, router, steps_response
from capicua.web.routing import read_body

__all__ = ["routes"]

routes = router("analysis")

AnalysisKey = Annotated[
    str, Path(pattern=r"^(r[0-9]{1,19}|u[0-9a-f]{64})$", description="an analysis's key (r<record id>, u<digest>)")
]


class MoveValueOut(BaseModel):
    move: str = Field(description="a candidate move, in record notation (galo included)")
    points: float = Field(description="its expected points: the rest of the hand, the seat's side minus the other")


class OpenHandsOut(BaseModel):
    """Hindsight: the best play with every hand known (not what the seat could know)."""

    best: str
    moves: list[MoveValueOut]
    loss: float
    exact: bool = Field(description="an exact search (else the mean of play-outs)")


class DecisionOut(BaseModel):
    step: int = Field(description="index in the record's steps (GET /api/records/{id}/steps) after the move")
    hand: int
    action: int
    seat: int
    played: str
    best: str
    moves: list[MoveValueOut] = Field(description="every candidate, best first")
    loss: float = Field(description="expected points the move played lost against the best (never below 0)")
    label: Literal["inaccuracy", "mistake", "blunder"] | None
    worlds: int
    open_hands: OpenHandsOut | None


class PlayerSummaryOut(BaseModel):
    seat: int
    name: str
    decisions: int
    mean_loss: float
    total_loss: float
    accuracy: float = Field(description="the mean of 100·exp(-loss/accuracy_scale) over his decisions")
    inaccuracies: int
    mistakes: int
    blunders: int


class AnalysisOut(BaseModel):
    variant: str
    players: list[str]
    worlds: int
    seed: int
    thresholds: dict[str, float] = Field(description="inaccuracy, mistake, blunder (points of loss), accuracy_scale")
    decisions: list[DecisionOut]
    summary: list[PlayerSummaryOut]
    steps: int


class AnalysisStatus(BaseModel):
    key: str
    state: Literal["none", "running", "done", "failed"]
    done: int = Field(description="decisions weighed so far")
    total: int = Field(description="decisions to weigh")
    result: AnalysisOut | None = None
    error: str | None = None


def _out(progress: Progress, response: Response | None = None) -> AnalysisStatus:
    if response is not None and progress.state == "done":
        response.status_code = 200
    return AnalysisStatus(
        key=progress.key,
        state=progress.state,
        done=progress.done,
        total=progress.total,
        result=None if progress.result is None else AnalysisOut.model_validate(progress.result),
        error=progress.error,
    )


#: Asked for again once done: the analysis itself, 200.
DONE: dict[int | str, dict[str, Any]] = {200: {"model": AnalysisStatus, "description": "the analysis, done before"}}


@routes.post(
    "/api/records/{record_id}/analysis",
    status_code=202,
    dependencies=[limited("analysis")],
    responses={**DONE, **refusals(404)},
)
async def start_record_analysis(record_id: RecordId, platform: PlatformDep, response: Response) -> AnalysisStatus:
    """Start the analysis of a finished match (202 with its progress), or give it (200) if it is done."""
    return _out(await platform.analyses.of_record(record_id, start=True), response)


@routes.get("/api/records/{record_id}/analysis", responses=refusals(404))
async def record_analysis(record_id: RecordId, platform: PlatformDep) -> AnalysisStatus:
    """A finished match's analysis: its progress while it runs, the result once done (state ``none``: not
    started)."""
    return _out(await platform.analyses.of_record(record_id, start=False))


#: The upload's body, as OpenAPI describes it (the route reads it itself, in a worker).
_RECORD_BODY = {
    "requestBody": {
        "required": True,
        "description": f"a capicua-record/1 game record (docs/records.md), at most {MAX_UPLOAD} bytes of JSON",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


@routes.post(
    "/api/analysis", status_code=202, openapi_extra=_RECORD_BODY, dependencies=[limited("analysis")], responses=DONE
)
async def start_upload_analysis(request: Request, platform: PlatformDep, response: Response) -> AnalysisStatus:
    """Start the analysis of an uploaded record (202 with its key and progress; 200 if the same record was
    analysed before). A record that does not replay is refused (422, naming the step); one over
    ``MAX_UPLOAD`` bytes too (413)."""
    return _out(await platform.analyses.of_upload(await read_body(request, MAX_UPLOAD)), response)


@routes.get("/api/analysis/{key}", responses=refusals(404))
async def analysis_by_key(key: AnalysisKey, platform: PlatformDep) -> AnalysisStatus:
    """An analysis by its key: progress while it runs, the result once done."""
    return _out(await platform.analyses.of_key(key))


UploadKey = Annotated[str, Path(pattern=r"^u[0-9a-f]{64}$", description="an uploaded record's analysis key")]


@routes.get("/api/analysis/{key}/steps", responses=refusals(404))
async def upload_steps(key: UploadKey, platform: PlatformDep) -> Response:
    """An uploaded record step by step, for the replay viewer, as ``GET /api/records/{id}/steps`` gives a
    match played here (the record is kept beside its analysis)."""
    return await steps_response(await platform.analyses.upload(key))
