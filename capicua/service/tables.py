"""Live tables: seats, matches, clocks and bots, with every change an event.

A :class:`Table` is the authority for one table. Everything that changes it is
an event (``seat``, ``start``, ``deal``, ``action``, ``away``, ``end``) applied
by one function, :meth:`Table._apply`, both live and when the table is rebuilt
from the store after a restart. Live, an event is committed to the store before
anybody hears of it. Each connection gets frames built from the engine's view
of its seat (:meth:`capicua.rules.hand.Hand.view`), never from the full state.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from capicua.bots.arena import make_bot
from capicua.bots.base import Bot
from capicua.bots.expert import ExpertBot
from capicua.rules.hand import Hand, SeatView
from capicua.rules.match import VARIANTS, Match
from capicua.rules.moves import Move, MoveError, format_action, parse_action
from capicua.rules.record import Record
from capicua.rules.tiles import TILES, Tile
from capicua.service.identity import Identity
from capicua.service.store import Store, StoredEvent, TableRow

__all__ = ["Seat", "Table", "TableError", "TableService", "view_json"]

log = logging.getLogger("capicua.tables")

#: Frames kept per table for clients that reconnect; older gaps get a full state.
REPLAY_WINDOW = 500
#: After a restart, a seat's move clock starts again with this much extra time.
GRACE_SECONDS = 10.0
#: Seconds a finished table nobody watches stays in memory (it is loaded again when asked for).
FORGET_AFTER = 600.0


class TableError(Exception):
    """A request the table refuses; ``code`` names the kind of problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Seat:
    player: str | None = None  # identity id
    name: str | None = None
    bot: str | None = None  # bot level sitting here
    away: bool = False  # A10: two timeouts in a row: a bot plays until the player acts again
    timeouts: int = 0

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None

    def json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "away": self.away, "empty": self.empty}


Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Subscriber:
    identity: Identity | None
    seat: int | None  # None: spectator
    send: Send
    closed: bool = False


@dataclass
class TableConfig:
    bot_delay: float = 0.4  # mean seconds before a bot moves (people like to see the table change), ±50 %
    bots_in_threads: bool = True
    #: Seconds after which an open table nobody started, watches or joined lately leaves memory (and the
    #: lobby); it is loaded again when its link is opened. A restart does not load such tables either.
    stale_open_after: float = 24 * 3600.0


class Table:
    """One table: the authority for its seats and match."""

    def __init__(self, service: TableService, row: TableRow) -> None:
        self.service = service
        self.store = service.store
        self.id = row.id
        self.variant = row.variant
        self.players = row.players
        self.options: dict[str, Any] = dict(row.options)
        self.private = row.private
        self.invite = row.invite
        self.owner = row.owner
        self.status = "open"
        self.seats = [Seat() for _ in range(row.players)]
        self.match: Match | None = None
        self.match_no = 0
        self.started_at: dt.datetime | None = None
        self.n = 0
        # The public part of the last events, as (n, its items): tuples of plain values, which Python's
        # cyclic garbage collector stops watching (a (n, dict) pair it would walk at every full collection).
        self.frames: deque[tuple[int, tuple[tuple[str, Any], ...]]] = deque(maxlen=REPLAY_WINDOW)
        self.subscribers: list[Subscriber] = []
        self.lock = asyncio.Lock()
        self.bots: dict[int, Bot] = {}
        # The move clock and the bots' turn are timers (cheap to set and cancel at every action) that
        # start a task only when they fire; the tasks are kept to be cancelled when the table moves on.
        self.clock_timer: asyncio.TimerHandle | None = None
        self.bot_timer: asyncio.TimerHandle | None = None
        self.clock_task: asyncio.Task[None] | None = None
        self.match_clock_task: asyncio.Task[None] | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self.deadline: dt.datetime | None = None
        self.touched = time.monotonic()  # the last event or (un)subscription: see TableService.forget_idle
        self.rng = random.Random(secrets.randbits(64))
        self._board: tuple[Match | None, list[dict[str, Any]]] = (None, [])  # see _scoreboard
        self._history: tuple[Hand | None, list[str]] = (None, [])  # see _history_text

    # -- information ---------------------------------------------------------------------
    @property
    def move_seconds(self) -> float:
        return float(self.options.get("move_seconds", 40))

    def seat_of(self, identity: Identity | None) -> int | None:
        if identity is None:
            return None
        for k, seat in enumerate(self.seats):
            if seat.player == identity.id:
                return k
        return None

    def summary(self, with_invite: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "private": self.private,
            "status": self.status,
            "seats": [s.json() for s in self.seats],
            "match": self.match_no,
            "n": self.n,
        }
        if with_invite and self.invite:
            data["invite"] = self.invite
        return data

    def state(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see now."""
        data: dict[str, Any] = {"table": self.summary(), "seat": seat, "n": self.n}
        match = self.match
        if match is None or not match.hands:
            data["hand"] = None
            return data
        hand = match.hand
        view = hand.view(seat)
        data["hand"] = view_json(view, hand_no=len(match.hands), history=self._history_text(hand, view))
        data["totals"] = match.totals
        data["winner"] = match.winner
        data["hands"] = self._scoreboard(match)
        match_ends = self._match_deadline()
        data["clock"] = {
            "seat": None if hand.end is not None else hand.turn,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "match_ends": match_ends.isoformat() if match_ends else None,
        }
        return data

    def _scoreboard(self, match: Match) -> list[dict[str, Any]]:
        """The public scoreboard, with the reason of every score: the hands before the last one no
        longer change, so their entries are built once per match."""
        if self._board[0] is not match:
            self._board = (match, [])
        done = self._board[1]
        while len(done) < len(match.hands) - 1:
            done.append(_board_entry(match.hands[len(done)]))
        return [*done, _board_entry(match.hand)]

    def _history_text(self, hand: Hand, view: SeatView) -> list[str]:
        """The hand's history in record notation (public), formatted once per action: a hand's
        history only grows on the server."""
        if self._history[0] is not hand:
            self._history = (hand, [])
        text = self._history[1]
        text.extend(format_action(s, m) for s, m in view.history[len(text) :])
        return text[:]

    # -- events ---------------------------------------------------------------------------
    def _apply(self, kind: str, data: dict[str, Any], at: dt.datetime) -> dict[str, Any]:
        """Apply one event; return its public description. Raises MoveError/TableError if invalid."""
        if kind == "seat":
            seat = self.seats[data["seat"]]
            seat.player, seat.name, seat.bot = data.get("player"), data.get("name"), data.get("bot")
            seat.away, seat.timeouts = False, 0
            self.bots.pop(data["seat"], None)
            return {"kind": "seat", "seat": data["seat"], "name": seat.name, "bot": seat.bot}
        if kind == "start":
            self.match = Match(self.variant, players=self.players, options=self.options, seed=data["seed"])
            self.match_no = data["match"]
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
            seat_no, move = parse_action(data["action"])
            if isinstance(move, Move):
                move = self.match.hand.resolve(move, self.match.hand.turn if seat_no is None else seat_no)
            self.match.push(move, seat_no)
            return {"kind": "action", "seat": seat_no, "action": data["action"], "timeout": data.get("timeout", False)}
        if kind == "away":
            seat = self.seats[data["seat"]]
            seat.away = data["away"]
            seat.timeouts = 0
            return {"kind": "away", "seat": data["seat"], "away": seat.away}
        if kind == "end":
            self.status = "finished"
            return {"kind": "end", "winner": data.get("winner"), "record": data.get("record")}
        raise TableError("bad-event", f"unknown event kind {kind!r}")

    async def _commit(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Validate by applying, then make the event durable, then broadcast it.

        The caller holds the lock. The engine refuses an invalid action before changing
        anything; if the store then fails, the table is rebuilt from what the store holds,
        so memory never runs ahead of what was committed.
        """
        public = self._apply(kind, data, dt.datetime.now(dt.UTC))
        try:
            # start and end change the table's status: stored with the event, so a restart loads the right tables
            status = self.status if kind in ("start", "end") else None
            await self.store.append(self.id, self.n + 1, kind, data, status=status)
        except Exception:
            log.exception("table %s: event %s not stored; rebuilding from the store", self.id, self.n + 1)
            await self._reload()
            raise TableError("unavailable", "the table could not save this action: try again") from None
        self.n += 1
        self.touched = time.monotonic()
        self._show_clock()
        await self._broadcast(public)
        return public

    async def _reload(self) -> None:
        self._cancel_clocks()
        self.seats = [Seat() for _ in range(self.players)]
        self.match, self.match_no, self.status, self.started_at, self.n = None, 0, "open", None, 0
        self.bots.clear()
        await self.replay(await self.store.events(self.id))

    async def replay(self, events: list[StoredEvent], resume: bool = False) -> None:
        """Rebuild the table from its stored events (after a restart).

        With ``resume``, a step a killed server left half done is finished: the deal of the next
        hand after an ended one, or the record and ``end`` of a finished match.
        """
        for ev in events:
            self._apply(ev.kind, ev.data, ev.at)
            self.n = ev.n
        if self.status == "playing":
            if resume and self.match is not None:
                if self.match.is_over():
                    await self._end_match()
                    return
                if self.match.needs_deal():
                    await self._deal()
            self._after_change(grace=GRACE_SECONDS)

    # -- frames ---------------------------------------------------------------------------
    async def _broadcast(self, public: dict[str, Any]) -> None:
        audiences: dict[int | None, dict[str, Any]] = {}
        for sub in list(self.subscribers):
            # The seat of a connection follows its player (join, leave), never the seat it once had.
            sub.seat = self.seat_of(sub.identity)
            if sub.seat not in audiences:
                audiences[sub.seat] = self.frame(public, sub.seat)
        self.frames.append((self.n, tuple(public.items())))
        for sub in list(self.subscribers):
            await self._send(sub, audiences[sub.seat])

    def frame(self, public: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"type": "event", "table": self.id, "n": self.n, "event": public, "state": self.state(seat)}

    async def _send(self, sub: Subscriber, frame: dict[str, Any]) -> None:
        if sub.closed:
            return
        try:
            await sub.send(frame)
        except Exception:
            sub.closed = True
            with contextlib.suppress(ValueError):
                self.subscribers.remove(sub)

    async def subscribe(self, sub: Subscriber, last: int | None) -> None:
        """Add a connection; send what it missed since event ``last`` (or its full state)."""
        async with self.lock:
            self.touched = time.monotonic()
            self.subscribers.append(sub)
            oldest = self.frames[0][0] if self.frames else self.n + 1
            if last is not None and last >= self.n:
                await self._send(sub, {"type": "synced", "table": self.id, "n": self.n})
            elif last is not None and last + 1 >= oldest:
                # The state attached to an old event is rebuilt for this seat only when sent:
                # missed events carry their public part and the seat's current state.
                for n, items in self.frames:
                    if n > last:
                        frame = {"type": "event", "table": self.id, "n": n, "event": dict(items)}
                        if n == self.n:
                            frame["state"] = self.state(sub.seat)
                        await self._send(sub, frame)
            else:
                await self._send(sub, {"type": "state", "table": self.id, "n": self.n, "state": self.state(sub.seat)})

    def unsubscribe(self, sub: Subscriber) -> None:
        self.touched = time.monotonic()
        sub.closed = True
        with contextlib.suppress(ValueError):
            self.subscribers.remove(sub)

    # -- requests -------------------------------------------------------------------------
    async def join(self, who: Identity, seat: int | None, invite: str | None) -> int:
        async with self.lock:
            if self.private and invite != self.invite and who.id != self.owner:
                raise TableError("forbidden", "this table is private: you need its invite link")
            current = self.seat_of(who)
            if current is not None:
                return current
            if self.status != "open":
                raise TableError("started", "the match has started: you can watch it")
            free = [k for k, s in enumerate(self.seats) if s.empty]
            if seat is None:
                if not free:
                    raise TableError("full", "no seat is free")
                seat = free[0]
            if not 0 <= seat < self.players:
                raise TableError("bad-seat", f"seats are 0..{self.players - 1}")
            if seat not in free:
                raise TableError("taken", f"seat {seat} is taken")
            await self._commit("seat", {"seat": seat, "player": who.id, "name": who.name})
            return seat

    async def leave(self, who: Identity) -> None:
        async with self.lock:
            seat = self.seat_of(who)
            if seat is None:
                raise TableError("not-seated", "you are not seated at this table")
            if self.status != "open":
                raise TableError("started", "you can leave only before the match starts")
            await self._commit("seat", {"seat": seat, "player": None, "name": None})

    async def fill_bots(self, who: Identity | None, level: str) -> None:
        make_bot(level)  # check the level
        async with self.lock:
            if who is not None and self.seat_of(who) is None and who.id != self.owner:
                raise TableError("forbidden", "only the table's players may call bots")
            if self.status != "open":
                raise TableError("started", "the match has started")
            for k, seat in enumerate(self.seats):
                if seat.empty:
                    await self._commit("seat", {"seat": k, "player": None, "name": f"bot {level}", "bot": level})

    async def start(self, who: Identity | None) -> None:
        async with self.lock:
            if who is not None and self.seat_of(who) is None and who.id != self.owner:
                raise TableError("forbidden", "only the table's players may start it")
            if self.status != "open":
                raise TableError("started", "the match has already started")
            if any(s.empty for s in self.seats):
                raise TableError("seats-empty", "every seat needs a player or a bot")
            await self._begin_match()

    async def rematch(self, who: Identity) -> None:
        async with self.lock:
            if self.seat_of(who) is None:
                raise TableError("forbidden", "only the table's players may ask for a rematch")
            if self.status != "finished":
                raise TableError("not-finished", "the match is still on")
            await self._begin_match()

    async def _begin_match(self) -> None:
        await self._commit("start", {"seed": secrets.randbits(32), "match": self.match_no + 1})
        await self._deal()
        self._after_change()

    async def _deal(self) -> None:
        match = self.match
        assert match is not None
        masks, boneyard = match.shuffle()
        extra = match.variant.random_extra(match)
        deal = [[str(TILES[t]) for t in range(28) if m >> t & 1] for m in masks]
        await self._commit("deal", {"deal": deal, "boneyard": [str(TILES[t]) for t in boneyard], "extra": extra})

    async def act(
        self,
        who: Identity | None,
        text: str,
        *,
        seat: int | None = None,
        timeout: bool = False,
        expect: int | None = None,
    ) -> int:
        """A player's action in record notation (his seat is implied). Returns the event number.

        ``expect``: the event number the action was decided at (bots): refused if the table moved on.
        """
        async with self.lock:
            if self.status != "playing" or self.match is None:
                raise TableError("not-playing", "no match is being played at this table")
            if expect is not None and self.n != expect:
                raise TableError("stale", "the table moved on while this action was being decided")
            if who is not None:
                seat = self.seat_of(who)
                if seat is None:
                    raise TableError("not-seated", "spectators cannot act")
            try:
                _, move = parse_action(f"{'-' if seat is None else seat}: {text}")
            except MoveError as exc:
                raise TableError("malformed", str(exc)) from None
            if not isinstance(move, Move):
                raise TableError("forbidden", "referee decisions are not taken over this connection")
            hand = self.match.hand
            try:
                move = hand.resolve(move, hand.turn if seat is None else seat)
                # The engine refuses an illegal action before changing anything.
                await self._commit("action", {"action": format_action(seat, move), "timeout": timeout})
            except MoveError as exc:
                raise TableError("illegal", str(exc)) from None
            if who is not None and seat is not None:
                await self._back(seat)
            n = self.n
            if self.match.is_over() or self.match.needs_deal():
                # The action is durable: its ack does not wait for the record or the next deal, which
                # follow under the lock (a restart finishes them too, see replay()).
                self._spawn(self._after_action_locked())
            else:
                self._after_change()
            return n

    async def _after_action_locked(self) -> None:
        async with self.lock:
            match = self.match  # whatever came first (the match clock, another task) may have done it
            if self.status == "playing" and match is not None and (match.is_over() or match.needs_deal()):
                await self._after_action()

    async def _back(self, seat: int) -> None:
        """The player acted himself: reset his timeouts, and take his seat back from the bot."""
        state = self.seats[seat]
        state.timeouts = 0
        if state.away:
            await self._commit("away", {"seat": seat, "away": False})

    async def _after_action(self) -> None:
        match = self.match
        assert match is not None
        if match.is_over():
            await self._end_match()
            return
        if match.needs_deal():
            await self._deal()
        self._after_change()

    async def _end_match(self) -> None:
        """Save the match's record (unless a killed server already did) and commit ``end``."""
        match = self.match
        assert match is not None
        saved = [r.id for r in await self.store.records(self.id) if r.match_no == self.match_no]
        if saved:
            record_id = saved[0]
        else:
            names = [s.name or f"seat {k}" for k, s in enumerate(self.seats)]
            record = Record.from_match(match, names)
            record.extra["table"] = self.id
            record.extra["player_ids"] = [s.player for s in self.seats]  # for players' match history
            record_id = await self.store.save_record(
                self.id, self.match_no, self.variant, names, match.winner, record.to_json()
            )
        await self._commit("end", {"winner": match.winner, "record": record_id})
        self._cancel_clocks()

    # -- clocks and bots ------------------------------------------------------------------
    def _show_clock(self) -> None:
        """Set ``deadline`` for the position just reached, before its frames are built: the move clock
        that :meth:`_after_change` starts next for the seat to act (none for a bot or an away seat)."""
        match = self.match
        self.deadline = None
        if match is None or not match.hands or match.is_over() or self.status != "playing":
            return
        hand = match.hand
        seat = self.seats[hand.turn]
        if hand.end is None and seat.bot is None and not seat.away:
            self.deadline = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=self.move_seconds)

    def _after_change(self, grace: float = 0.0) -> None:
        """Restart the move clock for the seat to act, and let bots (and away seats) move."""
        self._cancel_clocks(match_clock=False)
        match = self.match
        if match is None or match.is_over() or self.status != "playing":
            return
        hand = match.hand
        if hand.end is not None:
            return
        turn = hand.turn
        seat = self.seats[turn]
        loop = asyncio.get_running_loop()
        if seat.bot is None and not seat.away:
            seconds = self.move_seconds + grace
            self.deadline = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds)
            self.clock_timer = loop.call_later(seconds, self._clock_fired, self.n, turn, True)
        else:
            # A bot (or a bot standing in for an away player) has no clock to show, but a watchdog:
            # if its move never comes (a failing bot), the table makes the timeout move for it.
            self.deadline = None
            watchdog = max(self.move_seconds, 10.0) + grace
            self.clock_timer = loop.call_later(watchdog, self._clock_fired, self.n, turn, False)
        if any(self._played_by_bot(s) and hand.public_moves_for(s) for s in range(self.players)):
            # A bot takes between half and one and a half times bot_delay, like a person would not
            # always take the same time (and tables started together do not stay in step).
            delay = self.service.config.bot_delay * (0.5 + self.rng.random())
            self.bot_timer = loop.call_later(delay, self._bots_fired, self.n)
        if self.match_clock_task is None and self._match_deadline() is not None:
            self.match_clock_task = self._spawn(self._match_clock())

    def _played_by_bot(self, seat: int) -> bool:
        """A bot's seat, or a player's seat a bot stands in for (away)."""
        return self.seats[seat].bot is not None or self.seats[seat].away

    def _clock_fired(self, n: int, seat: int, counts: bool) -> None:
        self.clock_timer = None
        self.clock_task = self._spawn(self._clock(n, seat, counts))

    def _bots_fired(self, n: int) -> None:
        self.bot_timer = None
        self.bot_task = self._spawn(self._bots(n))

    def _cancel_clocks(self, match_clock: bool = True) -> None:
        for timer in (self.clock_timer, self.bot_timer):
            if timer is not None:
                timer.cancel()
        self.clock_timer = self.bot_timer = None
        current = asyncio.current_task()
        tasks = [self.clock_task, self.bot_task] + ([self.match_clock_task] if match_clock else [])
        for task in tasks:
            if task is not None and task is not current and not task.done():
                task.cancel()
        if match_clock:
            self.match_clock_task = None

    async def _clock(self, n: int, seat: int, counts: bool = True) -> None:
        """A10: the seat's time ran out: the table moves for it; twice in a row: away
        (``counts`` is off for bots: their timeouts are the watchdog's, not the player's)."""
        async with self.lock:
            match = self.match
            if self.n != n or match is None or match.is_over():
                return
            hand = match.hand
            if hand.end is not None or hand.turn != seat:
                return
            move = hand.timeout_move(seat)
            state = self.seats[seat]
            state.timeouts += counts
            await self._commit("action", {"action": format_action(seat, move), "timeout": True})
            if counts and state.timeouts >= 2 and not state.away:
                await self._commit("away", {"seat": seat, "away": True})
            await self._after_action()

    def _match_deadline(self) -> dt.datetime | None:
        minutes = self.options.get("match_minutes") if self.variant == "dominousa" else None
        if not minutes or self.started_at is None:
            return None
        return self.started_at + dt.timedelta(minutes=float(minutes))

    async def _match_clock(self) -> None:
        """C5: when the match time runs out, the table writes ``-: time`` (once)."""
        deadline = self._match_deadline()
        assert deadline is not None
        await asyncio.sleep(max(0.0, (deadline - dt.datetime.now(dt.UTC)).total_seconds()))
        async with self.lock:
            match = self.match
            if match is None or match.is_over() or self.status != "playing":
                return
            if any(getattr(h, "time_up", False) for h in match.hands):
                return
            await self._commit("action", {"action": "-: time", "timeout": False})
            await self._after_action()

    async def _bots(self, n: int) -> None:
        """Let the bots, and the bots standing in for away players, act (``bot_delay`` after event ``n``)."""
        if self.match is None or self.status != "playing":
            return
        hand = self.match.hand
        asked = [(hand.turn + k) % self.players for k in range(1, self.players + 1)]
        for seat in asked:
            # Each bot's view is built when it is asked (the first that acts ends this turn).
            async with self.lock:
                if self.n != n or self.match is None or self.match.hand is not hand or hand.end is not None:
                    return
                # a seat with nothing to do now (not his turn, no galo or claim to call) is not asked
                if not (self._played_by_bot(seat) and hand.public_moves_for(seat)):
                    continue
                view = hand.view(seat)
            bot = self._bot(seat)
            if self.service.config.bots_in_threads and isinstance(bot, ExpertBot):
                action = await asyncio.to_thread(bot.act, view)  # a search must not stall the loop
            else:
                action = bot.act(view)
            if action is None:
                continue
            try:
                await self.act(None, str(action), seat=seat, expect=n)
            except TableError as exc:
                if exc.code != "stale":  # a stale decision is dropped: a newer bot turn takes over
                    log.exception("table %s: bot at seat %s failed", self.id, seat)
            return  # act() set the bots' next turn for the new state: two would race on one view

    def _bot(self, seat: int) -> Bot:
        if seat not in self.bots:
            self.bots[seat] = make_bot(self.seats[seat].bot or "greedy", self.rng.getrandbits(32))
        return self.bots[seat]

    def schedule_bots_after(self, seconds: float, level: str) -> None:
        """Quick play: after ``seconds``, empty seats get bots and the match starts."""
        make_bot(level)

        async def later() -> None:
            await asyncio.sleep(seconds)
            if self.status != "open":
                return
            with contextlib.suppress(TableError):
                await self.fill_bots(None, level)
                await self.start(None)

        self.fill_task = self._spawn(later())

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Start a background task of this table (clock, bots…), known to the service so that
        shutting down can cancel it and wait for it."""
        task = asyncio.create_task(coro)
        self.service.tasks.add(task)
        task.add_done_callback(self.service.tasks.discard)
        return task

    def busy(self) -> bool:
        """Whether the table has work pending besides its clocks (quick play's bots_after timer)."""
        task = getattr(self, "fill_task", None)
        return task is not None and not task.done()

    def close(self) -> None:
        self._cancel_clocks()
        task = getattr(self, "fill_task", None)
        if task is not None:
            task.cancel()


class TableService:
    """All live tables of the server."""

    def __init__(self, store: Store, config: TableConfig | None = None) -> None:
        self.store = store
        self.config = config or TableConfig()
        self.tables: dict[str, Table] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    async def load(self) -> None:
        """Rebuild every table that was open or in play when the server stopped, and start letting go
        of idle finished tables every minute."""
        now = dt.datetime.now(dt.UTC)
        for row in await self.store.tables(["open", "playing"]):
            events = await self.store.events(row.id)
            created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=dt.UTC)
            last = events[-1].at if events else created
            if row.status == "open" and (now - last).total_seconds() > self.config.stale_open_after:
                continue  # never started, and untouched for long: loaded when its link is opened
            table = Table(self, row)
            await table.replay(events, resume=True)
            table.touched -= (now - last).total_seconds()
            self.tables[row.id] = table
        task = asyncio.create_task(self._housekeeping())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _housekeeping(self) -> None:
        while True:
            await asyncio.sleep(60)
            self.forget_idle()

    async def create(
        self,
        who: Identity,
        variant: str,
        players: int | None,
        options: dict[str, Any],
        private: bool,
    ) -> Table:
        if variant not in VARIANTS:
            raise TableError("bad-variant", f"unknown game {variant!r} (known: {', '.join(VARIANTS)})")
        try:
            probe = Match(variant, players=players, options=options)
        except MoveError as exc:
            raise TableError("bad-options", str(exc)) from None
        row = await self.store.create_table(variant, probe.players, probe.options, private, who.id)
        table = Table(self, row)
        self.tables[row.id] = table
        return table

    def get(self, table_id: str) -> Table:
        """A table in memory (open, in play, or finished not long ago); see :meth:`fetch`."""
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("not-found", f"no table {table_id!r}")
        return table

    async def fetch(self, table_id: str) -> Table:
        """A table, loaded from the store if it is not in memory: a finished table after a restart,
        or one that :meth:`forget_idle` let go."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = await self.store.table(table_id)
        if row is None:
            raise TableError("not-found", f"no table {table_id!r}")
        table = self.tables.get(table_id)  # loaded meanwhile by another request
        if table is None:
            table = Table(self, row)
            await table.replay(await self.store.events(row.id), resume=True)
            self.tables[row.id] = table
        return table

    def forget_idle(self, seconds: float = FORGET_AFTER) -> int:
        """Let go of finished tables nobody watches and nobody touched for ``seconds``, and of open
        tables untouched for ``config.stale_open_after`` (both are loaded again on demand); return how
        many. Memory then holds live tables, not history, and the lobby lists tables people use."""
        now = time.monotonic()
        limits = {"finished": seconds, "open": self.config.stale_open_after}
        idle = [
            t.id
            for t in self.tables.values()
            if t.status in limits
            and not t.subscribers
            and now - t.touched > limits[t.status]
            and not t.lock.locked()
            and not t.busy()
        ]
        for table_id in idle:
            self.tables.pop(table_id).close()
        return len(idle)

    def open_tables(self) -> list[Table]:
        return [t for t in self.tables.values() if not t.private and t.status in ("open", "playing")]

    def close(self) -> None:
        for table in self.tables.values():
            table.close()

    async def aclose(self, timeout: float = 10.0) -> None:
        """Stop every table's background work and wait until it has stopped, so that nothing is
        left half way through a database call when the store closes."""
        self.close()
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=timeout)


def _board_entry(hand: Hand) -> dict[str, Any]:
    return {"end": hand.end, "points": list(hand.points), "scores": [sc._asdict() for sc in hand.scores]}


def view_json(view: SeatView, hand_no: int = 1, history: list[str] | None = None) -> dict[str, Any]:
    """A seat's view as JSON: built from the engine's view only (``history``: the view's history,
    already in record notation)."""
    return {
        "hand": hand_no,
        "variant": view.variant,
        "seat": view.seat,
        "tiles": [str(t) for t in view.tiles],
        "counts": list(view.counts),
        "boneyard": view.boneyard,
        "layout": view.layout,
        "turn": view.turn,
        "history": [format_action(s, m) for s, m in view.history] if history is None else history,
        "scores": [s._asdict() for s in view.scores],
        "points": list(view.points),
        "end": view.end,
        "legal": [str(m) for m in view.legal_moves],
        "revealed": None if view.revealed is None else [[str(t) for t in h] for h in view.revealed],
        "public": view.public,
        "drawn": [str(t) for t in view.drawn],
    }


def _tile(text: str) -> int:
    return Tile.parse(text).index
