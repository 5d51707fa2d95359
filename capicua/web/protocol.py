"""The websocket's messages, one typed model per kind, parsed once at the edge (docs/protocol.md).

A client sends JSON objects (:data:`CLIENT_MESSAGES`); :func:`parse` turns one text frame into its
model or a :class:`ProtocolError` with the error code the client gets back. Nothing reaches the
service layer unparsed: ids are ids, event numbers are numbers, and a ``ref`` is something the
server can echo back (an integer JavaScript can hold exactly, or a short text).

The server's frames (:data:`SERVER_FRAMES`) are modelled too; the tests check every frame a
client receives against them.

>>> parse('{"type": "subscribe", "table": "abc", "last": 3}')
Subscribe(ref=None, type='subscribe', table='abc', last=3, invite=None)
>>> parse('{"type": "action", "table": "abc", "action": 7}')
Traceback (most recent call last):
...
capicua.web.protocol.ProtocolError: action must be a move in record notation, e.g. '6-4 W'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from capicua.service.tables.chat import MAX_TEXT
from capicua.service.tables.messages import TableFrame

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_MESSAGE",
    "SERVER_FRAMES",
    "Action",
    "Chat",
    "ClientMessage",
    "Next",
    "Ping",
    "ProtocolError",
    "Ref",
    "Referee",
    "Subscribe",
    "TableId",
    "Unsubscribe",
    "parse",
    "safe_ref",
]

#: Largest websocket message a client may send (an action is a few dozen bytes).
MAX_MESSAGE = 4096
#: The largest integer a JavaScript client holds exactly.
JS_SAFE = 2**53 - 1

#: A table's id: what ``secrets.token_urlsafe`` makes.
TableId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="a table's id")]
#: Anything the client wants echoed in the reply to a message: an exact integer or a short text.
Ref = Annotated[
    Annotated[int, Field(ge=-JS_SAFE, le=JS_SAFE)] | Annotated[str, Field(max_length=64)] | None,
    Field(description="echoed in the ack or error that answers this message"),
]
Invite = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]


class ProtocolError(ValueError):
    """A message the server cannot take; ``code`` is the error frame's code."""

    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def _huge_integer(value: Any) -> Any:
    """An integer beyond 64 bits as the integer it is: orjson reads one as a float (all of them integral);
    a number written with a fraction (``5.0``, ``1.5``) stays a float, and the strict int refuses it."""
    if type(value) is float and value.is_integer() and abs(value) >= 2**63:
        return int(value)
    return value


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    ref: Ref = None


class Ping(_Message):
    """Answered by ``pong`` with the same ref."""

    type: Literal["ping"]


class Subscribe(_Message):
    """Watch a table (and play at it, if you sit there): its frames follow, from event ``last`` on."""

    type: Literal["subscribe"]
    table: TableId
    #: Any integer ≥ 0, however large: one beyond the table's ``n`` is answered ``synced`` (docs/protocol.md).
    last: Annotated[int, BeforeValidator(_huge_integer), Field(ge=0)] | None = None
    invite: Invite | None = None


class Unsubscribe(_Message):
    type: Literal["unsubscribe"]
    table: TableId


class Action(_Message):
    """Your move at a table, in record notation without the seat (``6-4 W``, ``pass``, ``galo``…)."""

    type: Literal["action"]
    table: TableId
    action: Annotated[str, Field(min_length=0, max_length=64)]


class Next(_Message):
    """Deal the next hand now, skipping the rest of the pause between hands (a player of the table)."""

    type: Literal["next"]
    table: TableId


class Chat(_Message):
    """Say something at a table: a quick message by its id (``preset``), or a ``text``."""

    type: Literal["chat"]
    table: TableId
    preset: Annotated[str, Field(pattern=r"^[a-z]{1,16}$")] | None = None
    text: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)] | None = None


class Referee(_Message):
    """A table referee's decision (C8), with its written reason: ``fine`` SEAT POINTS, ``score`` SIDE POINTS
    (a correction, may be negative), ``annul``, ``award`` SIDE, ``touch`` SEAT TILE (C7)."""

    type: Literal["referee"]
    table: TableId
    decision: Literal["fine", "score", "annul", "award", "touch"]
    seat: Annotated[int, Field(ge=0, le=3)] | None = None
    points: Annotated[int, Field(ge=-1000, le=1000)] | None = None
    tile: Annotated[str, Field(pattern=r"^[0-6]-[0-6]$")] | None = None
    reason: Annotated[str, Field(min_length=1, max_length=200)]


ClientMessage = Ping | Subscribe | Unsubscribe | Action | Next | Chat | Referee
#: Every kind a client may send, by its ``type``.
CLIENT_MESSAGES: dict[str, type[_Message]] = {
    "ping": Ping,
    "subscribe": Subscribe,
    "unsubscribe": Unsubscribe,
    "action": Action,
    "next": Next,
    "chat": Chat,
    "referee": Referee,
}
#: What each field must be, in the words of an error message.
FIELD_RULES = {
    "table": "a table's id",
    "last": "an event number",
    "invite": "an invite code",
    "action": "a move in record notation, e.g. '6-4 W'",
    "preset": "a quick message's id",
    "text": f"a text of 1 to {MAX_TEXT} characters",
    "decision": "one of fine, score, annul, award, touch",
    "seat": "a seat (or, for score and award, a side): 0 to 3",
    "points": "an integer from -1000 to 1000",
    "tile": "a tile, e.g. '6-4'",
    "reason": "the decision's written reason, 1 to 200 characters",
    "ref": "an integer of at most 53 bits or a text of at most 64 characters",
}


def safe_ref(value: Any) -> Any:
    """``value`` if it may be echoed back (see :data:`Ref`), else None."""
    if type(value) is int and -JS_SAFE <= value <= JS_SAFE:
        return value
    if type(value) is str and len(value) <= 64:
        return value  # orjson has refused unpaired surrogates already
    return None


def parse(text: str | bytes | None) -> ClientMessage:
    """One text frame as its message model; ProtocolError naming what is wrong otherwise."""
    if text is None or isinstance(text, bytes):
        raise ProtocolError("malformed-json", "send one JSON object per text message")
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise ProtocolError("too-large", f"messages are at most {MAX_MESSAGE} bytes")
    try:
        # orjson refuses what the server could not echo safely: NaN, Infinity, unpaired surrogates,
        # nesting deeper than 1024.
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise ProtocolError("malformed-json", "send one JSON object per message (this is not JSON)") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed-json", "send one JSON object per message")
    ref = safe_ref(data.get("ref"))
    kind = data.get("type")
    model = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError("unknown-type", f"unknown message type {kind!r}", ref)
    try:
        message: ClientMessage = model.model_validate(data)  # type: ignore[assignment]
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        if first["type"] == "extra_forbidden":
            raise ProtocolError("malformed", f"a {kind} message has no field {field!r}", ref) from None
        rule = FIELD_RULES.get(field)
        words = f"{field} must be {rule}" if rule else f"{field}: {first['msg']}"
        raise ProtocolError("malformed", words, ref) from None
    return message


# -- what the server sends -------------------------------------------------------------------------
# The table's frames are the service's models (capicua.service.tables.messages); the socket's own are here.
class Welcome(TypedDict):
    """The first frame of every connection: who the server takes you for (None: anonymous)."""

    type: Literal["welcome"]
    you: You | None


class You(TypedDict):
    id: str
    name: str


class Pong(TypedDict):
    type: Literal["pong"]
    ref: Ref


class Ack(TypedDict):
    """Your action was committed (it is durable) as event ``n``."""

    type: Literal["ack"]
    ref: Ref
    n: int


class Error(TypedDict):
    """Your message was refused; nothing changed. ``code`` is one of docs/protocol.md's error codes."""

    type: Literal["error"]
    code: str
    message: str
    ref: Ref


#: Every frame the server sends on ``/ws``.
ServerFrame = Welcome | Pong | Ack | Error | TableFrame

for _model in (Welcome, You, Pong, Ack, Error):
    setattr(_model, "__pydantic_config__", ConfigDict(extra="forbid"))  # noqa: B010 (as in messages.py)

#: Every frame the server sends, as one tagged union (by ``type``): it checks a frame (the tests check
#: every frame they receive) and exports the JSON Schema of them all (:func:`frame_schema`).
SERVER_FRAMES: TypeAdapter[Any] = TypeAdapter(Annotated[ServerFrame, Field(discriminator="type")])


def frame_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every frame the server sends, from the models themselves."""
    schema = SERVER_FRAMES.json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "capicua server frame", **schema}


#: Where docs/protocol.md holds the generated schema.
SCHEMA_BEGIN, SCHEMA_END = "<!-- frames-schema:begin -->", "<!-- frames-schema:end -->"


def schema_block() -> str:
    """The generated part of docs/protocol.md: the schema, as a JSON code block between its markers."""
    text = json.dumps(frame_schema(), indent=1, ensure_ascii=False)
    return f"{SCHEMA_BEGIN}\n```json\n{text}\n```\n{SCHEMA_END}"


def write_docs(path: Path) -> bool:
    """Write :func:`schema_block` into the doc at ``path`` between its markers; whether it changed."""
    doc = path.read_text(encoding="utf-8")
    start, end = doc.index(SCHEMA_BEGIN), doc.index(SCHEMA_END) + len(SCHEMA_END)
    new = doc[:start] + schema_block() + doc[end:]
    path.write_text(new, encoding="utf-8")
    return new != doc


if __name__ == "__main__":  # python -m capicua.web.protocol docs/protocol.md: the schema written into the doc
    import sys

    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/protocol.md")
    print(f"{target}: {'updated' if write_docs(target) else 'already up to date'}")
