"""What a table's events build: its seats, its match and its status.

Every change to a table is an event (``seat``, ``start``, ``deal``, ``action``, ``away``, ``end``),
and :meth:`TableState.apply` is the one function that applies them, live and when a table is
rebuilt from the store after a restart. It checks before it changes anything: an event the engine
refuses (an illegal action) raises and leaves the state as it was.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from capicua.rules import variants
from capicua.rules.match import Match
from capicua.rules.moves import Action
from capicua.rules.tiles import Tile
from capicua.rules.variant import Variant
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store import TableRow

__all__ = ["BOT_NAMES", "Seat", "TableState"]

#: The names bots sit down with (distinct at a table): fish, birds and fruits of the Amazon.
BOT_NAMES = (
    "Tambaqui", "Pirarucu", "Tucunaré", "Jaraqui", "Matrinxã", "Curimatã", "Aruanã", "Pacu",
    "Arara", "Tucano", "Sabiá", "Uirapuru", "Boto", "Jabuti", "Cupuaçu", "Bacaba",
)  # fmt: skip


@dataclass
class Seat:
    player: str | None = None  # identity id
    name: str | None = None
    bot: str | None = None  # bot level sitting here
    away: bool = False  # A10: two timeouts in a row: a bot plays until the player acts again
    timeouts: int = 0
    rating: dict[str, Any] | None = None  # the player's rating in this game when he sat down
    bot_account: bool = False  # a bot account: an outside program plays this seat over the bot API

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None

    @property
    def played_by_bot(self) -> bool:
        """A bot's seat, or a player's seat a bot stands in for (away)."""
        return self.bot is not None or self.away

    @property
    def kind(self) -> str:
        """``person``, ``bot`` or ``empty``."""
        return "empty" if self.empty else "bot" if self.bot is not None else "person"

    def json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bot": self.bot,
            "away": self.away,
            "empty": self.empty,
            "kind": self.kind,
            "rating": self.rating,
            "bot_account": self.bot_account,
        }


class TableState:
    """A table's settings (from its row) and what its events made of it."""

    def __init__(self, row: TableRow) -> None:
        self.id = row.id
        self.game: Variant = variants.get(row.variant)
        self.players = row.players
        self.options: dict[str, Any] = dict(row.options)
        self.private = row.private
        self.invite = row.invite
        self.owner = row.owner
        #: D1: a rated table: its matches change ratings (account holders only).
        self.rated = bool(row.rated)
        #: C10: a tournament's table: its seats are kept for the players paired there, one match is played.
        self.tournament_id: str | None = row.tournament_id
        self.reserved: list[str] | None = list(row.reserved) if row.reserved else None
        #: A rated table whose matches are rated with bot accounts among people too (else they are not).
        self.bots_rated = bool(row.bots_rated)
        self.reset()

    def reset(self) -> None:
        """Back to the state before the first event."""
        self.status = "open"
        self.seats = [Seat() for _ in range(self.players)]
        self.match: Match | None = None
        self.match_no = 0
        self.started_at: dt.datetime | None = None
        #: How the last match ended, when the platform ended it before the rules did (an abandonment).
        self.abandoned: dict[str, Any] | None = None

    @property
    def variant(self) -> str:
        return self.game.name

    @property
    def winner(self) -> int | None:
        """The last match's winner: the rules', or the side that did not abandon (or did show up)."""
        if self.abandoned is not None:
            return None if self.abandoned["winner"] is None else int(self.abandoned["winner"])
        return None if self.match is None else self.match.winner

    @property
    def free_text_closed(self) -> bool:
        """Dominousa rule 4, C6: no comments during a hand of a strict or a rated match."""
        return bool(self.options.get("strict")) or self.rated

    def seat_of(self, identity: Identity | None) -> int | None:
        if identity is None:
            return None
        for k, seat in enumerate(self.seats):
            if seat.player == identity.id:
                return k
        return None

    def may_enter(self, identity: Identity | None, invite: str | None) -> bool:
        """Whether ``identity`` (with ``invite``, if any) may see this table: a public table, or a
        private one with its invite, to its owner or to whoever sits at it."""
        if not self.private or (invite is not None and invite == self.invite):
            return True
        return identity is not None and (identity.id == self.owner or self.seat_of(identity) is not None)

    def check_entry(self, identity: Identity | None, invite: str | None) -> None:
        if not self.may_enter(identity, invite):
            raise ServiceError("forbidden", "this table is private: you need its invite link")

    def apply(self, kind: str, data: dict[str, Any], at: dt.datetime, parsed: Any = None) -> dict[str, Any]:
        """Apply one event; return its public description. Raises MoveError/ServiceError if invalid.

        ``parsed`` is an action the caller already parsed from ``data["action"]`` (the live path);
        events read back from the store are parsed here.
        """
        if kind == "seat":
            seat = self.seats[data["seat"]]
            seat.player, seat.name, seat.bot = data.get("player"), data.get("name"), data.get("bot")
            seat.rating = data.get("rating")
            seat.bot_account = bool(data.get("bot_account"))
            seat.away, seat.timeouts = False, 0
            return {"kind": "seat", "seat": data["seat"], "name": seat.name, "bot": seat.bot}
        if kind == "start":
            self.match = Match(self.game, players=self.players, options=self.options, seed=data["seed"])
            self.match_no = data["match"]
            for seat, rating in zip(self.seats, data.get("ratings") or [], strict=False):
                seat.rating = rating  # each match shows the ratings its players start it with
            self.abandoned = None
            self.status = "playing"
            self.started_at = at
            return {"kind": "start", "match": self.match_no}
        if kind == "deal":
            assert self.match is not None
            self.match.deal(
                [[_tile(t) for t in seat] for seat in data["deal"]],
                [_tile(t) for t in data["boneyard"]],
                data.get("extra") or {},
            )
            return {"kind": "deal", "hand": len(self.match.hands)}
        if kind == "action":
            assert self.match is not None
            seat_no, move = parsed if parsed is not None else self.match.parse_action(data["action"])
            self.match.push(move, seat_no)
            public = {
                "kind": "action",
                "seat": seat_no,
                "action": data["action"],
                "timeout": data.get("timeout", False),
            }
            if data.get("auto"):
                public["auto"] = True  # a forced pass: the table passed for him
            return public
        if kind == "name":
            self.seats[data["seat"]].name = data["name"]
            return {"kind": "name", "seat": data["seat"], "name": data["name"]}
        if kind == "away":
            seat = self.seats[data["seat"]]
            seat.away = data["away"]
            seat.timeouts = 0
            return {"kind": "away", "seat": data["seat"], "away": seat.away}
        if kind == "end":
            self.status = "finished"
            if data.get("how") in ("abandon", "forfeit"):
                # the platform decided (an abandonment; a tournament's no-show: no match was played)
                self.abandoned = {"winner": data["winner"], "seat": data.get("seat"), "how": data["how"]}
            public = {"kind": "end", "match": self.match_no, "winner": data.get("winner"), "how": data.get("how")}
            if "seat" in data:
                public["seat"] = data["seat"]  # who abandoned
            return public
        raise ServiceError("invalid", f"unknown event kind {kind!r}")

    def parse(self, text: str, seat: int | None) -> tuple[int | None, Action]:
        """A move of ``seat`` (None: the table) in record notation, resolved in the hand in play."""
        assert self.match is not None
        return seat, self.match.parse_move(text, seat)


def _tile(text: str) -> int:
    return Tile.parse(text).index
