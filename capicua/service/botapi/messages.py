"""The bot API's own frames (docs/bots.md), as typed models like the tables' (``tables/messages.py``): the
account's event stream carries invitations and the start and end of its matches; a seat's table stream carries
the table's frames, each with the seat's view (``view``, the engine's ``SeatView.to_json()``)."""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

__all__ = ["AccountEvent", "InvitationFrame", "Inviter", "TableFinish", "TableStart"]


class Inviter(TypedDict):
    id: str
    name: str


#: A person invites the bot account to a seat at his table (``from``, a keyword in Python: the functional form).
InvitationFrame = TypedDict(
    "InvitationFrame",
    {
        "type": Literal["invitation"],
        "id": str,
        "table": str,
        "seat": int | None,
        "variant": str,
        "options": dict[str, Any],
        "rated": bool,
        "from": Inviter,
    },
)


class TableStart(TypedDict):
    """A match starts at a table where the account sits."""

    type: Literal["tableStart"]
    table: str
    match: int
    variant: str
    seat: int


class TableFinish(TypedDict):
    """That match ended: the winner and how (the match outcome's termination)."""

    type: Literal["tableFinish"]
    table: str
    match: int
    winner: int | None
    how: str


#: What the account's event stream carries.
AccountEvent = InvitationFrame | TableStart | TableFinish
