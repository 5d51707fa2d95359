"""What may be asked of a table, by name: the one list the HTTP routes, the websocket and the other nodes go
through, so that a request means the same on the node that runs the table and on one that forwards it.

Each operation takes the table service, the table, who asks (None: nobody signed in) and its arguments (JSON
values), and returns a JSON value. The checks are the table's own: an operation only names them. ``seats`` and
``forfeit`` are the tournaments' director's: no route of the web layer asks them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.tables import Table, TableService

__all__ = ["OPS", "Op"]

Op = Callable[[TableService, Table, Identity | None, dict[str, Any]], Awaitable[Any]]


def _signed(who: Identity | None) -> Identity:
    assert who is not None, "the web layer lets only a signed-in caller ask this"
    return who


async def summary(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    """The table's summary, if ``who`` may see it, and whether he may referee it (C8)."""
    table.check_entry(who, args.get("invite"))
    return {**table.summary(), "referee": who is not None and await table.may_referee(who)}


async def join(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    return {"seat": await table.join(_signed(who), args.get("seat"), args.get("invite"))}


async def leave(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    await table.leave(_signed(who))
    return {"ok": True}


async def bots(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    await table.fill_bots(_signed(who), args["level"])
    return table.summary()


async def start(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    await table.start(_signed(who))
    return table.summary()


async def resign(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    await table.resign(_signed(who))
    return table.summary()


async def rematch(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    await table.rematch(_signed(who))
    return table.summary()


async def referee_console(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    await tables.check_referee(table, _signed(who))
    return {"table": table.id, "variant": table.variant, "tournament": table.tournament_id}


async def referee(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    decision = (args["decision"], args.get("seat"), args.get("points"), args.get("tile"), args.get("reason", ""))
    return {"n": await table.referee(_signed(who), *decision)}


async def act(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    return {"n": await table.act(_signed(who), args["action"], args.get("ref"))}


async def next_hand(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    return {"n": await table.next_hand(_signed(who))}


async def seats(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    """For the tournaments' director: the table's status and who sits at each seat (a player's id, or None)."""
    return {"status": table.status, "players": [s.player for s in table.state.seats]}


async def forfeit(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    """For the tournaments' director: a board decided without a match (C10); the table closes unplayed."""
    await table.forfeit(args.get("winner"), args["reason"])
    return None


async def invitable(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    """Whether ``who`` may invite a bot to the table now, to ``seat`` (None: the first free one); what the
    invitation tells the bot about it."""
    state = table.state
    if who is None or (table.seat_of(who) is None and who.id != state.owner):
        raise ServiceError("forbidden", "only the table's players may invite a bot to it")
    if table.status != "open":
        raise ServiceError("started", "the match has started")
    if state.reserved is not None:
        raise ServiceError("reserved", "a tournament table's seats are kept for its players")
    seat = args.get("seat")
    if seat is not None and not (0 <= seat < state.players and state.seats[seat].empty):
        raise ServiceError("taken", f"seat {seat} is not free")
    if not any(s.empty for s in state.seats):
        raise ServiceError("full", "no seat is free")
    return {"variant": state.variant, "options": dict(state.options), "rated": state.rated, "invite": state.invite}


async def say(tables: TableService, table: Table, who: Identity | None, args: dict[str, Any]) -> Any:
    await table.say(who, args.get("preset"), args.get("text"))
    return None


#: Every operation, by name.
OPS: dict[str, Op] = {
    "summary": summary,
    "join": join,
    "leave": leave,
    "bots": bots,
    "start": start,
    "resign": resign,
    "rematch": rematch,
    "referee_console": referee_console,
    "referee": referee,
    "act": act,
    "next": next_hand,
    "say": say,
    "invitable": invitable,
    "seats": seats,
    "forfeit": forfeit,
}
