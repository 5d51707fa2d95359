"""Finished matches: a table's records, a record file, a record step by step, a player's history."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Response

from capicua.web.deps import Caller, PlatformDep
from capicua.web.errors import refusals
from capicua.web.routes.common import ROUTED, Invite, PlayerId, RecordId, TableId, router, steps_response

__all__ = ["routes"]

routes = router("records")


@routes.get("/api/tables/{table_id}/records", responses=refusals(403, *ROUTED))
async def table_records(
    table_id: TableId, platform: PlatformDep, who: Caller, invite: Invite = None
) -> list[dict[str, Any]]:
    """The finished matches of a table (a private table's need its invite: they name its players)."""
    await platform.router.call(table_id, "summary", who, invite=invite)  # may the caller see it?
    rows = await platform.records.of_table(table_id)
    return [
        {
            "id": r.id,
            "match": r.match_no,
            "variant": r.variant,
            "players": r.players,
            "winner": r.winner,
            "ratings": await platform.ratings.changes_of_match(f"{r.table_id}/{r.match_no}"),
        }
        for r in rows
    ]


async def _record(platform: PlatformDep, record_id: int) -> dict[str, Any]:
    row = await platform.records.get(record_id)
    return {"table": row.table_id, "match": row.match_no, "record": row.record}


@routes.get("/api/records/{record_id}", responses=refusals(404))
async def record_file(record_id: RecordId, platform: PlatformDep) -> Response:
    """A finished match as a `capicua-record/1` file (`capicua replay` reads it)."""
    row = await _record(platform, record_id)
    return Response(
        json.dumps(row["record"], ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="capicua-{row["table"]}-{row["match"]}.json"'},
    )


@routes.get("/api/records/{record_id}/steps", responses=refusals(404))
async def record_steps(record_id: RecordId, platform: PlatformDep) -> Response:
    """A finished match step by step, for the replay viewer: after each action, the table, every
    hand (the match is over: all of them are shown), the scores and the totals."""
    return await steps_response((await _record(platform, record_id))["record"])


@routes.get("/api/players/{player_id}/matches")
async def player_matches(player_id: PlayerId, platform: PlatformDep) -> list[dict[str, Any]]:
    """A player's finished matches, newest first (his profile's match history), with the rating change of
    each rated one."""
    rows = await platform.records.of_player(player_id)
    changes = {c["match"]: c for c in await platform.ratings.changes_of_player(player_id)}
    return [
        {
            "id": r.id,
            "table": r.table_id,
            "variant": r.variant,
            "players": r.players,
            "seat": seat,
            "winner": r.winner,
            "finished_at": r.finished_at.isoformat(),
            "rating": changes.get(f"{r.table_id}/{r.match_no}"),
        }
        for r, seat in rows
    ]
