"""What a table's events build: its seats, its match and its status.

Every change to a table is an event (``seat``, ``start``, ``deal``, ``action``, ``name``, ``away``,
``end``), and :meth:`TableState.apply` is the one function that applies them, live and when a table is
rebuilt from the store after a restart. It checks before it changes anything: an event the engine
refuses (an illegal action) raises and leaves the state as it was. It does no I/O: what must follow
an event (its frame, the clocks, the bots, the next deal, a bus event) it returns as data
(:mod:`capicua.service.tables.follows`), and the table's runner carries that out.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from capicua.bots.registry import check_spec
from capicua.rules import variants
from capicua.rules.hand import IllegalMoveError
from capicua.rules.match import Match
from capicua.rules.moves import Action, MoveError
from capicua.rules.tiles import Tile
from capicua.rules.variant import Variant
from capicua.service.bus import MatchStarted
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store import TableRow
from capicua.service.tables.follows import (
    Abandon,
    AfterHand,
    Applied,
    Begin,
    Follow,
    Forget,
    MarkAway,
    Publish,
    Send,
    Stop,
    Turn,
)
from capicua.service.tables.messages import (
    ActionEvent,
    AwayEvent,
    DealEvent,
    EndEvent,
    MatchOutcomeView,
    NameEvent,
    SeatEvent,
    SeatInfo,
    StartEvent,
)

__all__ = ["ABANDON_AFTER_TIMEOUTS", "BOT_NAMES", "Seat", "TableState"]

#: At a rated table, this many timeout moves in a row are an abandonment (the published limit).
ABANDON_AFTER_TIMEOUTS = 3
SEND, TURN, AFTER_HAND, STOP, BEGIN = Send(), Turn(), AfterHand(), Stop(), Begin()

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
    def kind(self) -> Literal["person", "bot", "empty"]:
        """``person``, ``bot`` or ``empty``."""
        return "empty" if self.empty else "bot" if self.bot is not None else "person"

    def json(self, kept_for: str | None = None) -> SeatInfo:
        """The seat as frames show it; ``kept_for``: the account this empty seat is kept for (C10)."""
        info = SeatInfo(
            name=self.name,
            bot=self.bot,
            away=self.away,
            empty=self.empty,
            kind=self.kind,
            rating=self.rating,
            bot_account=self.bot_account,
        )
        if kept_for is not None and self.empty:
            info["kept_for"] = kept_for
        return info


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
        #: Issue 22, item 9: seconds from the last seat taken to the match starting by itself (None: never).
        self.autostart: int | None = row.autostart
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
        #: When the last free seat of the open table was taken (None: a seat is free, or the match is on).
        self.full_since: dt.datetime | None = None

    @property
    def starts_at(self) -> dt.datetime | None:
        """When the match starts by itself (``autostart``): that long after every seat was taken; None: not
        counting down (a seat is free, the match is on, or the table's players start it)."""
        if self.autostart is None or self.full_since is None or self.status != "open":
            return None
        return self.full_since + dt.timedelta(seconds=self.autostart)

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

    def deserted(self, present: set[int]) -> bool:
        """Whether nobody plays this casual table any more: each person's seat is away (A10: a bot stands in)
        and has no connection open (``present``: the seats that have one), only bots left to play on. Such a
        table ends (its last person abandoned it). Rated tables count abandonment by timeouts (D1, issue 12)
        and a tournament's board has its own rules, so neither ends this way."""
        if self.rated or self.tournament_id is not None or self.status != "playing":
            return False
        people = [k for k, s in enumerate(self.seats) if s.kind == "person" and not s.bot_account]
        return bool(people) and all(self.seats[k].away and k not in present for k in people)

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

    def apply(self, kind: str, data: dict[str, Any], at: dt.datetime, parsed: Any = None) -> Applied:
        """Apply one event; return its public description and what must follow it (:mod:`follows`, carried
        out by the runner). Raises MoveError/ServiceError, with nothing changed, if the event is invalid.

        ``parsed`` is an action the caller already parsed from ``data["action"]`` (the live path);
        events read back from the store are parsed here.
        """
        step = self._steps.get(kind)
        if step is None:
            raise ServiceError("invalid", f"unknown event kind {kind!r}")
        return step(self, data, at, parsed)

    def _seat(self, data: dict[str, Any], at: dt.datetime, parsed: Any) -> Applied:
        k = data["seat"]
        seat = self.seats[k]
        seat.player, seat.name, seat.bot = data.get("player"), data.get("name"), data.get("bot")
        seat.rating = data.get("rating")
        seat.bot_account = bool(data.get("bot_account"))
        seat.away, seat.timeouts = False, 0
        full = self.status == "open" and not any(s.empty for s in self.seats)
        self.full_since = (self.full_since or at) if full else None  # counted from the last seat taken
        follows: tuple[Follow, ...] = (SEND, Forget(k))
        if self.reserved is not None and self.status == "open" and not any(s.empty for s in self.seats):
            follows += (BEGIN,)  # a tournament's table starts once all four have sat down (C10)
        return Applied(SeatEvent(kind="seat", seat=k, name=seat.name, bot=seat.bot), follows)

    def _start(self, data: dict[str, Any], at: dt.datetime, parsed: Any) -> Applied:
        self.match_no = data["match"]
        self.match = Match(self.game, players=self.players, options=self.match_options(), seed=data["seed"])
        for seat, rating in zip(self.seats, data.get("ratings") or [], strict=False):
            seat.rating = rating  # each match shows the ratings its players start it with
        self.abandoned = None
        self.full_since = None
        self.status = "playing"
        self.started_at = at
        return Applied(StartEvent(kind="start", match=self.match_no), (SEND,))

    def match_options(self) -> dict[str, Any]:
        """The options of the table's match in play: the table's, but a lesson (its guided hand, dealt first:
        ``flow.deal_data``) is the first match's only; a rematch at a lesson's table is a match like any."""
        if self.match_no > 1 and "lesson" in self.options:
            return {k: v for k, v in self.options.items() if k != "lesson"}
        return self.options

    def _deal(self, data: dict[str, Any], at: dt.datetime, parsed: Any) -> Applied:
        match = self.match
        assert match is not None
        match.deal(
            [[_tile(t) for t in seat] for seat in data["deal"]],
            [_tile(t) for t in data["boneyard"]],
            data.get("extra") or {},
        )
        follows: tuple[Follow, ...] = (SEND, TURN)
        if len(match.hands) == 1:  # the match is on: the bot API tells the bot accounts seated here
            ids = [s.player for s in self.seats]
            follows += (Publish(MatchStarted(self.id, self.match_no, self.variant, ids)),)
        return Applied(DealEvent(kind="deal", hand=len(match.hands)), follows)

    def _action(self, data: dict[str, Any], at: dt.datetime, parsed: Any) -> Applied:
        match = self.match
        assert match is not None
        seat_no, move = parsed if parsed is not None else match.parse_action(data["action"])
        between_hands = match.needs_deal()  # a referee's decision may come between two hands (C8)
        match.push(move, seat_no)
        public = ActionEvent(kind="action", seat=seat_no, action=data["action"], timeout=data.get("timeout", False))
        if data.get("auto"):
            public["auto"] = True  # a forced pass: the table passed for him
        follows: tuple[Follow, ...] = (SEND,)
        if match.is_over() or (match.needs_deal() and not between_hands):
            follows += (AFTER_HAND,)
        elif not between_hands:
            follows += (TURN,)
        if seat_no is not None:
            follows += self._count_timeout(seat_no, bool(data.get("timeout")), bool(data.get("auto")))
        return Applied(public, follows)

    def _count_timeout(self, k: int, timeout: bool, auto: bool) -> tuple[Follow, ...]:
        """A10: a person's move the table made when his clock ran out counts; his own move starts the count
        again (a bot's, or a forced pass, neither). Two in a row at a casual table: a bot stands in for him;
        three at a rated one, which no bot plays: he abandoned the match."""
        seat = self.seats[k]
        if seat.played_by_bot or auto:
            return ()
        if not timeout:
            seat.timeouts = 0
            return ()
        seat.timeouts += 1
        assert self.match is not None
        if self.rated:
            over = self.match.is_over()
            return (Abandon(k),) if seat.timeouts >= ABANDON_AFTER_TIMEOUTS and not over else ()
        return (MarkAway(k),) if seat.timeouts >= 2 else ()

    def _name(self, data: dict[str, Any], at: dt.datetime, parsed: Any) -> Applied:
        self.seats[data["seat"]].name = data["name"]
        return Applied(NameEvent(kind="name", seat=data["seat"], name=data["name"]), (SEND,))

    def _away(self, data: dict[str, Any], at: dt.datetime, parsed: Any) -> Applied:
        seat = self.seats[data["seat"]]
        seat.away = data["away"]
        seat.timeouts = 0
        return Applied(AwayEvent(kind="away", seat=data["seat"], away=seat.away), (SEND, TURN))

    def _end(self, data: dict[str, Any], at: dt.datetime, parsed: Any) -> Applied:
        self.status = "finished"
        if data.get("how") in ("abandon", "forfeit"):
            # the platform decided (an abandonment; a tournament's no-show: no match was played)
            self.abandoned = {"winner": data["winner"], "seat": data.get("seat"), "how": data["how"]}
            self.abandoned["reason"] = data.get("reason")
        public = EndEvent(
            kind="end", match=self.match_no, winner=data.get("winner"), how=data.get("how"), outcome=self._outcome(data)
        )
        if "seat" in data:
            public["seat"] = data["seat"]  # who abandoned
        if data.get("reason"):
            public["reason"] = data["reason"]  # resign, timeouts, deserted
        return Applied(public, (SEND, STOP))

    def _outcome(self, data: dict[str, Any]) -> MatchOutcomeView:
        """How the match ended, as the rules decided it (``Match.outcome``), or as the platform did (an
        abandonment, a forfeit: the stored event says who won; the totals are the match's, if one was played)."""
        match = self.match
        if match is not None and match.outcome is not None and self.abandoned is None:
            o = match.outcome
            return MatchOutcomeView(termination=o.termination.value, winner=o.winner, totals=list(o.totals))
        totals = list(match.totals) if match is not None else []
        return MatchOutcomeView(termination=str(data.get("how")), winner=data.get("winner"), totals=totals)

    _steps: ClassVar[dict[str, Callable[[TableState, dict[str, Any], dt.datetime, Any], Applied]]] = {
        "seat": _seat,
        "start": _start,
        "deal": _deal,
        "action": _action,
        "name": _name,
        "away": _away,
        "end": _end,
    }

    # -- what a request may do (checked before its event is made) ---------------------------------
    def free_seat(self, who: Identity, seat: int | None) -> int:
        """The seat ``who`` sits down at (``seat``, or the first free one; his own at a tournament's table),
        or ServiceError saying why he may not."""
        if self.status != "open":
            raise ServiceError("started", "the match has started: you can watch it")
        if self.rated and who.guest:
            raise ServiceError("accounts-only", "rated tables are for account holders: sign up to sit here (D1)")
        free = [k for k, s in enumerate(self.seats) if s.empty]
        reserved = self.reserved
        if reserved is not None:
            if who.id not in reserved:
                raise ServiceError("reserved", "this tournament table's seats are kept for the teams paired here")
            if seat is not None and reserved[seat] != who.id:
                raise ServiceError("reserved", f"your seat at this table is {reserved.index(who.id)}")
            seat = reserved.index(who.id)
        if seat is None:
            if not free:
                raise ServiceError("full", "no seat is free")
            seat = free[0]
        if not 0 <= seat < self.players:
            raise ServiceError("bad-seat", f"seats are 0..{self.players - 1}")
        if seat not in free:
            raise ServiceError("taken", f"seat {seat} is taken")
        return seat

    def bot_seats(self, who: Identity | None, level: str, rng: random.Random) -> list[dict[str, Any]]:
        """The ``seat`` events that fill the empty seats with bots of ``level`` (``who`` asks: a player or the
        owner; None, the server), each with a name of its own: never one a player's could be mistaken for
        (the guest "Sabiá 914" gets no bot "Sabiá")."""
        try:
            check_spec(level)
        except ValueError as exc:
            raise ServiceError("bad-options", str(exc)) from None
        self._check_player(who, "call bots")
        if self.status != "open":
            raise ServiceError("started", "the match has started")
        if self.rated:
            raise ServiceError("accounts-only", "bots do not play rated matches (D1)")
        taken = {word for s in self.seats if s.name for word in (s.name, s.name.split()[0])}
        names = [name for name in BOT_NAMES if name not in taken]
        rng.shuffle(names)
        return [
            {"seat": k, "player": None, "name": names.pop() if names else f"{level} {k}", "bot": level}
            for k, seat in enumerate(self.seats)
            if seat.empty
        ]

    def check_leave(self, who: Identity) -> int:
        seat = self._seated(who, "you are not seated at this table")
        if self.status != "open":
            raise ServiceError("started", "you can leave only before the match starts")
        return seat

    def check_start(self, who: Identity | None) -> None:
        self._check_player(who, "start it")
        if self.status != "open":
            raise ServiceError("started", "the match has already started")
        if any(s.empty for s in self.seats):
            raise ServiceError("seats-empty", "every seat needs a player or a bot")

    def check_rematch(self, who: Identity) -> None:
        self._seated(who, "only the table's players may ask for a rematch", "forbidden")
        if self.status != "finished":
            raise ServiceError("not-finished", "the match is still on")
        if self.tournament_id is not None:
            raise ServiceError("one-match", "a tournament's table plays one match: no rematch")

    def check_next_hand(self, who: Identity, pausing: bool) -> None:
        """``who`` may skip the pause between two hands (``pausing``: the next deal waits for it)."""
        self._seated(who, "only the table's players may deal the next hand")
        match = self.match
        if self.status != "playing" or match is None or not match.needs_deal() or not pausing:
            raise ServiceError("not-paused", "there is no pause to skip: the hand is in play or the match is over")

    def check_resign(self, who: Identity) -> int:
        """The seat of ``who``, who may leave the match in play."""
        match = self.check_playing()
        seat = self._seated(who, "you are not seated at this table")
        if match.is_over():
            raise ServiceError("not-playing", "the match is over")
        return seat

    def action_of(self, who: Identity, text: str) -> tuple[int | None, Action]:
        """The action of ``who`` in record notation (his seat is implied), resolved in the hand in play."""
        self.check_playing()
        seat = self._seated(who, "spectators cannot act")
        try:
            return self.parse(text, seat)
        except IllegalMoveError as exc:
            raise ServiceError("illegal", str(exc)) from None
        except MoveError as exc:
            raise ServiceError("malformed", str(exc)) from None

    def check_referee(self, who: Identity) -> None:
        """C8: what refuses a referee's decision before the referee policy is asked (whether a match is in
        play is asked after it: who may not referee the table learns nothing of it)."""
        if not self.game.referee:
            raise ServiceError("no-referee", f"{self.game.title} has no table referee (C8)")
        if self.seat_of(who) is not None:
            raise ServiceError("forbidden", "a player at this table cannot referee it")

    def _seated(self, who: Identity, message: str, code: str = "not-seated") -> int:
        seat = self.seat_of(who)
        if seat is None:
            raise ServiceError(code, message)
        return seat

    def _check_player(self, who: Identity | None, what: str) -> None:
        if who is not None and self.seat_of(who) is None and who.id != self.owner:
            raise ServiceError("forbidden", f"only the table's players may {what}")

    def check_playing(self) -> Match:
        """The match in play, or ServiceError ``not-playing``."""
        if self.status != "playing" or self.match is None:
            raise ServiceError("not-playing", "no match is being played at this table")
        return self.match

    def parse(self, text: str, seat: int | None) -> tuple[int | None, Action]:
        """A move of ``seat`` (None: the table) in record notation, resolved in the hand in play."""
        assert self.match is not None
        return seat, self.match.parse_move(text, seat)


def _tile(text: str) -> int:
    return Tile.parse(text).index
