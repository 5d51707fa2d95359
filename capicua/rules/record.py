"""Game records (``capicua-record/1``): read, write, replay.

The format is the contract of ``shared/spec/records.md``, documented in full in
``docs/records.md``. A record is plain JSON; :class:`Record` is its typed
form. One walk over a record, :func:`walk`, runs it through the engine with every
check and yields each step; :func:`replay` (the match it reaches), :func:`replay_steps`
(snapshots for replay viewers) and :func:`summary` (the JSON that ``capicua replay
--json`` prints) are built on it.

>>> from capicua.rules.match import Match
>>> m = Match(variants.get("amazonense"), seed=3)
>>> _ = m.deal()
>>> m.push(m.hand.legal_moves[0])
>>> rec = Record.from_match(m, ["Ana", "Bia", "Caio", "Davi"])
>>> rec.hands[0].actions == [f"{m.hand.leader}: 6-6"]
True
>>> again = Record.loads(rec.dumps())
>>> summary(replay(again))["finished"]
False
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from capicua.rules import variants
from capicua.rules.match import Match
from capicua.rules.moves import Action, MoveError, format_action
from capicua.rules.tiles import TILES, Tile, TileError

__all__ = [
    "FORMAT",
    "Record",
    "RecordError",
    "RecordHand",
    "Step",
    "new_match",
    "replay",
    "replay_steps",
    "summary",
    "walk",
]

FORMAT = "capicua-record/1"


#: Longest action text an error quotes (a longer one is cut, ending in …), and longest reason it gives.
SHOWN_TEXT = 40
SHOWN_REASON = 200


def _cut(text: str, length: int) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


class RecordError(MoveError):
    """A record that is malformed or holds an illegal action: every failure of reading a record or of
    walking it through the engine is one of these (a :class:`~capicua.rules.moves.MoveError`, the engine's
    error), naming the step that failed.

    ``hand`` and ``action`` are 1-based (``None`` when the problem is not in one); ``text`` is the action's
    text, cut to :data:`SHOWN_TEXT` characters (and ``reason`` to :data:`SHOWN_REASON`), so that an error
    about a huge action stays short.

    >>> str(RecordError("not a move", 2, 5, "0: " + "x" * 100))
    "hand 2, action 5 ('0: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'): not a move"
    """

    def __init__(self, reason: str, hand: int | None = None, action: int | None = None, text: str = "") -> None:
        self.reason = reason = _cut(reason, SHOWN_REASON)
        self.hand = hand
        self.action = action
        self.text = text = _cut(text, SHOWN_TEXT)
        where = []
        if hand is not None:
            where.append(f"hand {hand}")
        if action is not None:
            where.append(f"action {action}" + (f" ({text!r})" if text else ""))
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)

    def __reduce__(self) -> tuple[Any, ...]:  # the same error out of a worker process
        return type(self), (self.reason, self.hand, self.action, self.text)


@dataclass
class RecordHand:
    """One hand of a record: the deal, the boneyard in drawing order, the actions."""

    deal: list[list[Tile]]
    boneyard: list[Tile] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "deal": [[str(t) for t in seat] for seat in self.deal],
            "boneyard": [str(t) for t in self.boneyard],
            "actions": list(self.actions),
        }
        out.update(self.extra)
        return out


@dataclass
class Record:
    """A whole match as data."""

    variant: str
    players: list[str]
    hands: list[RecordHand]
    options: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    # -- JSON -------------------------------------------------------------------------
    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Parse a record; raise :class:`RecordError` naming what is wrong."""
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"format must be {FORMAT!r}, got {data.get('format')!r}")
        variant = data.get("variant")
        if not isinstance(variant, str):
            raise RecordError("variant must be a string")
        try:
            variants.get(variant)
        except MoveError as exc:
            raise RecordError(str(exc)) from None
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("options must be an object")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or not players:
            raise RecordError("players must be a non-empty list of names")
        raw_hands = data.get("hands")
        if not isinstance(raw_hands, list):
            raise RecordError("hands must be a list")
        hands = [_hand_from_json(h, i + 1) for i, h in enumerate(raw_hands)]
        known = {"format", "variant", "options", "players", "hands"}
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(variant=variant, players=list(players), hands=hands, options=dict(options), extra=extra)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(self.players),
            "hands": [h.to_json() for h in self.hands],
        }
        out.update(self.extra)
        return out

    def dumps(self) -> str:
        """The record as JSON text: one line per action, deals kept compact."""
        return _pretty(self.to_json())

    @classmethod
    def from_match(cls, match: Match, players: list[str] | None = None) -> Record:
        """The record of a match (finished or not)."""
        names = players or [f"Player {i + 1}" for i in range(match.players)]
        hands = []
        for h in match.hands:
            hands.append(
                RecordHand(
                    deal=[[TILES[t] for t in _indices(m)] for m in h.deal],
                    boneyard=[TILES[t] for t in h.boneyard_order],
                    actions=[format_action(seat, move) for seat, move in h.history],
                    extra=dict(h.record_extra()),
                )
            )
        return cls(variant=match.variant.name, players=names, hands=hands, options=dict(match.options))


def _indices(mask: int) -> list[int]:
    return [t for t in range(28) if mask >> t & 1]


def _tile_list(value: Any, what: str, hand: int) -> list[Tile]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of tiles", hand)
    out = []
    for item in value:
        if not isinstance(item, str):
            raise RecordError(f"{what}: {item!r} is not a tile", hand)
        try:
            out.append(Tile.parse(item))
        except TileError as exc:
            raise RecordError(f"{what}: {exc}", hand) from None
    return out


def _hand_from_json(data: Any, number: int) -> RecordHand:
    if not isinstance(data, dict):
        raise RecordError("a hand is a JSON object", number)
    deal = data.get("deal")
    if not isinstance(deal, list):
        raise RecordError("deal must be a list of the seats' tiles", number)
    tiles = [_tile_list(seat, f"deal of seat {i}", number) for i, seat in enumerate(deal)]
    boneyard = _tile_list(data.get("boneyard", []), "boneyard", number)
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("actions must be a list of strings", number)
    extra = {k: v for k, v in data.items() if k not in ("deal", "boneyard", "actions")}
    return RecordHand(deal=tiles, boneyard=boneyard, actions=list(actions), extra=extra)


@dataclass(frozen=True)
class Step:
    """One step of a walk over a record: right after hand ``hand``'s deal (``action`` None) or
    after its action number ``action`` (both 1-based), with the match as it then stands."""

    match: Match
    hand: int
    action: int | None = None
    text: str | None = None
    seat: int | None = None
    move: Action | None = None


def new_match(record: Record) -> Match:
    """The match a record is played in, before its first deal."""
    try:
        return Match(variants.get(record.variant), players=len(record.players), options=record.options)
    except MoveError as exc:
        raise RecordError(str(exc)) from None


def walk(record: Record, match: Match | None = None) -> Iterator[Step]:
    """Run a record through the engine (on ``match``, by default :func:`new_match`), yielding a
    :class:`Step` after each deal and each action.

    Every reader of a record walks it with this one loop, so all of them check it the same way:
    the first problem raises :class:`RecordError`, naming hand and action (whatever the engine refuses:
    a seat that does not exist, text that is no action, an illegal move, a bad deal). The match in the steps
    is one object that keeps changing: read what you need of it at each step.
    """
    if match is None:
        match = new_match(record)
    for hn, rh in enumerate(record.hands, start=1):
        if not match.needs_deal():
            if match.is_over():
                raise RecordError("the match was already over", hn)
            raise RecordError("the previous hand is not finished, yet another hand follows", hn)
        try:
            match.deal(rh.deal, rh.boneyard, rh.extra)
        except (MoveError, TileError) as exc:
            raise RecordError(f"bad deal: {exc}", hn) from None
        yield Step(match, hn)
        for an, text in enumerate(rh.actions, start=1):
            try:
                seat, move = match.parse_action(text)
                match.push(move, seat)
            except (MoveError, TileError) as exc:
                raise RecordError(str(exc), hn, an, text) from None
            yield Step(match, hn, an, text, seat, move)


def replay(record: Record) -> Match:
    """Run a record through the engine and return the match it reaches.

    Raises :class:`RecordError` on the first problem, naming hand and action.
    """
    match = new_match(record)
    for _ in walk(record, match):
        pass
    return match


def replay_steps(data: dict[str, Any]) -> dict[str, Any]:
    """A record replayed step by step: after each deal and each action, the layout, every hand,
    the hand's scores and the match totals (for replay viewers; the match is over, so nothing
    is hidden). Raises :class:`RecordError` as :func:`replay` does."""
    record = Record.from_json(data)
    steps: list[dict[str, Any]] = []
    match = new_match(record)
    for step in walk(record, match):
        hand = match.hand
        steps.append(
            {
                "hand": step.hand,
                "action": step.text,
                "layout": hand.layout.snapshot(),
                "hands": [[str(t) for t in hand.tiles(s)] for s in range(hand.seats)],
                "boneyard": len(hand.boneyard),
                "turn": None if hand.end is not None else hand.turn,
                "scores": [s._asdict() for s in hand.scores],
                "points": list(hand.points),
                "totals": match.totals,
                "end": hand.end,
            }
        )
    return {"variant": record.variant, "players": record.players, "winner": match.winner, "steps": steps}


def summary(match: Match) -> dict[str, Any]:
    """The JSON of ``capicua replay --json`` (shared/spec/records.md)."""
    hands = []
    for hn, h in enumerate(match.hands, start=1):
        hands.append(
            {
                "end": h.end or "open",
                "points": list(h.points),
                "scoring": [
                    {"hand": hn, "action": s.action, "seat": s.seat, "kind": s.kind, "points": s.points, "to": s.to}
                    for s in h.scores
                ],
            }
        )
    return {"hands": hands, "totals": match.totals, "winner": match.winner, "finished": match.is_over()}


def _pretty(obj: dict[str, Any]) -> str:
    """JSON with one hand's deal per line and one action per line."""
    lines = ["{"]
    keys = list(obj)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if key == "hands":
            lines.append('  "hands": [')
            for j, hand in enumerate(obj["hands"]):
                lines.append("    {")
                hkeys = list(hand)
                for k, hk in enumerate(hkeys):
                    hcomma = "," if k < len(hkeys) - 1 else ""
                    value = hand[hk]
                    if hk in ("deal", "actions") and value:
                        lines.append(f"      {json.dumps(hk)}: [")
                        for n, item in enumerate(value):
                            icomma = "," if n < len(value) - 1 else ""
                            lines.append(f"        {json.dumps(item, ensure_ascii=False)}{icomma}")
                        lines.append(f"      ]{hcomma}")
                    else:
                        lines.append(f"      {json.dumps(hk)}: {json.dumps(value, ensure_ascii=False)}{hcomma}")
                lines.append("    }" + ("," if j < len(obj["hands"]) - 1 else ""))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(obj[key], ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
