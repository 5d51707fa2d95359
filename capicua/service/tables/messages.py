"""The frames a table sends, and the events and views inside them, as typed models.

Each model is a ``TypedDict``: a frame is built by calling its model (``ActionEvent(kind="action", …)``), which
mypy checks field by field, and is a plain dict at run time, so that building one for every seat of every event
costs nothing more than the dict it always was, and orjson writes it as fast. A key that a frame may leave out is
``NotRequired`` (``auto`` on an action, the abandoning ``seat`` on an end, a missed event's ``state``). The
JSON Schema of every frame is exported from these models with pydantic (``capicua.web.protocol.frame_schema``),
written into docs/protocol.md, and checked against every frame the tests receive.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

__all__ = [
    "Abandoned",
    "ActionEvent",
    "AwayEvent",
    "BoardEntry",
    "ChatFrame",
    "Clock",
    "DealEvent",
    "EndEvent",
    "EventFrame",
    "HandOutcome",
    "HandView",
    "MatchOutcomeView",
    "MovedFrame",
    "NameEvent",
    "SeatEvent",
    "SeatInfo",
    "StartEvent",
    "StateFrame",
    "SyncedFrame",
    "TableEvent",
    "TableFrame",
    "TableSummary",
    "TableView",
]


# -- the events: the public part of each, the same for everybody ------------------------------------------
class SeatEvent(TypedDict):
    """Somebody sat down (``name``), left (``name`` and ``bot`` null), or a bot sat down."""

    kind: Literal["seat"]
    seat: int
    name: str | None
    bot: str | None


class StartEvent(TypedDict):
    """A match started (the first, or a rematch): its number at the table. Its deal follows."""

    kind: Literal["start"]
    match: int


class DealEvent(TypedDict):
    """A hand was dealt (its number in the match); who holds what is only in each seat's state."""

    kind: Literal["deal"]
    hand: int


class ActionEvent(TypedDict):
    """An action in record notation with its seat (null for ``-: time`` and a referee's decision)."""

    kind: Literal["action"]
    seat: int | None
    action: str
    timeout: bool  # the table moved because the seat's clock ran out (A10)
    auto: NotRequired[Literal[True]]  # a forced pass: the table passed for him


class NameEvent(TypedDict):
    kind: Literal["name"]
    seat: int
    name: str


class AwayEvent(TypedDict):
    """A10: the seat is played by a bot (two timeouts in a row), or its player is back."""

    kind: Literal["away"]
    seat: int
    away: bool


class MatchOutcomeView(TypedDict):
    """How a match was decided (:class:`capicua.rules.outcome.MatchOutcome`): its termination (``target``,
    ``time``, ``award``, ``abandon``; ``forfeit`` for a tournament's board decided unplayed), the winning side or
    seat, the match's totals (empty when no match was played)."""

    termination: str
    winner: int | None
    totals: list[int]


class EndEvent(TypedDict):
    """The match is over: its number, the winner, how (``outcome.termination``), who abandoned (``seat``) and
    why (``reason``: ``resign``, ``timeouts`` at a rated table, ``deserted``: the last person left a casual table)."""

    kind: Literal["end"]
    match: int
    winner: int | None
    how: str | None
    seat: NotRequired[int | None]
    reason: NotRequired[Literal["resign", "timeouts", "deserted"]]
    outcome: MatchOutcomeView


TableEvent = SeatEvent | StartEvent | DealEvent | ActionEvent | NameEvent | AwayEvent | EndEvent


# -- the table as a seat sees it -------------------------------------------------------------------------
class SeatInfo(TypedDict):
    name: str | None
    bot: str | None
    away: bool
    empty: bool
    kind: Literal["person", "bot", "empty"]
    rating: dict[str, Any] | None
    bot_account: bool
    kept_for: NotRequired[str]  # C10: the account an empty seat of a tournament's table is kept for


class TableSummary(TypedDict):
    """The table as the lobby shows it (also each frame's ``state.table``)."""

    id: str
    variant: str
    players: int
    options: dict[str, Any]
    private: bool
    rated: bool
    tournament: str | None
    status: str  # open, playing, finished
    seats: list[SeatInfo]
    match: int
    n: int
    totals: list[int] | None
    hand: int | None
    waiting: bool
    autostart: int | None  # seconds from the last seat taken to the match starting by itself; null: never
    starts_at: str | None  # when the match starts by itself (UTC ISO), counting down now; else null
    invite: NotRequired[str]  # to its owner, in the HTTP answer that created it
    watchers: NotRequired[int]  # the HTTP API's summaries only


class HandOutcome(TypedDict):
    """How a hand ended (:class:`capicua.rules.outcome.Outcome`)."""

    termination: str
    winner: int | None
    seat: int | None


class HandView(TypedDict):
    """A seat's view of the hand in play, from the engine's view of that seat (never the full state filtered)."""

    hand: int
    variant: str
    partnerships: bool
    calls: list[str]
    table_count: bool
    seat: int | None
    tiles: list[str]
    counts: list[int]
    boneyard: int
    layout: dict[str, Any]
    turn: int | None
    history: list[str]
    scores: list[dict[str, Any]]
    points: list[int]
    end: str | None
    legal: list[str]
    revealed: list[list[str]] | None
    outcome: HandOutcome | None
    public: dict[str, Any]
    drawn: list[str]


class BoardEntry(TypedDict):
    """A hand on the public scoreboard."""

    end: str | None
    outcome: HandOutcome | None
    points: list[int]
    scores: list[dict[str, Any]]


class Clock(TypedDict):
    seat: int | None
    deadline: str | None
    match_ends: str | None
    next_deal: str | None


class Abandoned(TypedDict):
    """A match that ended because a seat left it (the ``end`` event's ``seat`` and ``reason``)."""

    seat: int | None
    reason: Literal["resign", "timeouts", "deserted"] | None


class TableView(TypedDict):
    """What one seat (``seat`` null: a spectator) may see of the table after event ``n``."""

    table: TableSummary
    seat: int | None
    n: int
    hand: HandView | None
    totals: NotRequired[list[int]]
    winner: NotRequired[int | None]
    hands: NotRequired[list[BoardEntry]]
    clock: NotRequired[Clock]
    abandoned: NotRequired[Abandoned]


# -- the frames --------------------------------------------------------------------------------------------
class EventFrame(TypedDict):
    """Event ``n`` of a table and the receiver's view after it (``state``: left out of the older events replayed
    to a reconnecting client)."""

    type: Literal["event"]
    table: str
    n: int
    event: TableEvent
    state: NotRequired[TableView]


class StateFrame(TypedDict):
    """The receiver's whole view of a table (sent when he subscribes from too far back, or from nothing)."""

    type: Literal["state"]
    table: str
    n: int
    state: TableView


class SyncedFrame(TypedDict):
    """The subscriber is up to date at event ``n``."""

    type: Literal["synced"]
    table: str
    n: int


class ChatFrame(TypedDict):
    """Somebody at the table said something: a quick message's id (``preset``) or a ``text``."""

    type: Literal["chat"]
    table: str
    seat: int
    name: str | None
    preset: str | None
    text: str | None
    at: str


class MovedFrame(TypedDict):
    """This node no longer runs the table (another node took it over, or this one is shutting down): the
    subscription has ended; subscribe again, through any node, with the last event number seen."""

    type: Literal["moved"]
    table: str


TableFrame = EventFrame | StateFrame | SyncedFrame | ChatFrame | MovedFrame

# Every model refuses keys it does not declare, nested ones included: pydantic reads this (a ConfigDict, as a
# plain dict) when it checks a frame or exports the schema, which then says additionalProperties: false.
for _model in (
    SeatEvent, StartEvent, DealEvent, ActionEvent, NameEvent, AwayEvent, MatchOutcomeView, EndEvent, SeatInfo,
    TableSummary, HandOutcome, HandView, BoardEntry, Clock, TableView, EventFrame, StateFrame, SyncedFrame, ChatFrame,
    MovedFrame,
):  # fmt: skip
    setattr(_model, "__pydantic_config__", {"extra": "forbid"})  # noqa: B010 (a TypedDict body holds only fields)
