"""What follows an action at a table: the next deal (after the pause between hands), the match's end
(published on the bus, then written), the clocks and the bots restarted; and the moves the table makes
itself: a timeout move (A10), a forced pass, ``-: time`` (C5)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
from typing import TYPE_CHECKING

from capicua.rules.moves import PASS, format_action
from capicua.rules.record import Record
from capicua.rules.tiles import TILES
from capicua.rules.variant import MatchOutcome, MatchTermination
from capicua.service.bus import MatchEnded, MatchStarted

if TYPE_CHECKING:
    from capicua.service.tables.table import Table

__all__ = ["ABANDON_AFTER_TIMEOUTS", "MatchFlow"]

#: At a rated table, this many timeout moves in a row are an abandonment (the published limit).
ABANDON_AFTER_TIMEOUTS = 3
#: The longest wait between two tries of a follow-up that failed.
RETRY_MAX = 60.0

log = logging.getLogger("capicua.tables")


class MatchFlow:
    """The match's progress at one table. Every method runs with the table's lock held, but those that
    a timer starts (they take it themselves)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def begin(self) -> None:
        t = self.table
        data: dict[str, object] = {"seed": secrets.randbits(32), "match": t.state.match_no + 1}
        if t.state.match_no:  # a rematch: the ratings as the last match left them
            data["ratings"] = [await t.seat_rating(s.player) for s in t.state.seats]
        await t.commit("start", data)
        await self.deal()
        self.restart()
        ids = [s.player for s in t.state.seats]
        await t.service.bus.publish(MatchStarted(t.id, t.state.match_no, t.state.variant, ids))

    async def deal(self) -> None:
        match = self.table.state.match
        assert match is not None
        masks, boneyard = match.shuffle()
        extra = match.variant.random_extra(match)
        deal = [[str(TILES[t]) for t in range(28) if m >> t & 1] for m in masks]
        await self.table.commit("deal", {"deal": deal, "boneyard": [str(TILES[t]) for t in boneyard], "extra": extra})

    def restart(self, grace: float = 0.0) -> None:
        """Restart the move clock for the seat to act, and let bots (and away seats) move."""
        t = self.table
        t.clocks.restart(t.log.n, grace)
        t.bots.schedule(t.log.n)

    def stop(self) -> None:
        self.table.clocks.cancel()
        self.table.bots.cancel()

    async def after_action(self) -> None:
        """Once a hand or the match is over: the match's end, or the next deal (after the pause)."""
        t = self.table
        match = t.state.match
        assert match is not None
        if match.is_over():
            await self.end()
            return
        if match.needs_deal():
            if t.clocks.hold(self.deal_after_pause):
                return  # everybody sees how the hand ended; then the next deal (or a player's "next")
            await self.deal()
        self.restart()

    async def follow_up(self) -> None:
        """What an action that ended a hand or the match sets off (:meth:`after_action_locked`), in the
        background, tried again while it fails: a listener of the match's end that cannot do its work now
        (the database away for a moment) holds the end back, it never loses it, and the table does not wait
        for a restart to finish its match."""
        delay = self.table.service.config.retry_after
        while True:
            try:
                await self.after_action_locked()
                return
            except Exception:
                log.exception("table %s: what follows the last action failed; again in %.0f s", self.table.id, delay)
            await asyncio.sleep(delay)
            delay = min(2 * delay, RETRY_MAX)

    async def after_action_locked(self) -> None:
        t = self.table
        async with t.lock:
            match = t.state.match  # whatever came first (the match clock, another task) may have done it
            if t.status == "playing" and match is not None and (match.is_over() or match.needs_deal()):
                await self.after_action()

    async def deal_after_pause(self) -> None:
        t = self.table
        async with t.lock:
            match = t.state.match
            if t.status == "playing" and match is not None and match.needs_deal() and t.clocks.holding:
                await self.deal_now()

    async def deal_now(self) -> None:
        """The pause between hands is over (or a player skipped it): deal."""
        self.table.clocks.release()
        await self.deal()
        self.restart()

    async def end(self, abandoned_by: int | None = None) -> None:
        """Publish the match's end (its listeners save the record, rate it…), then commit ``end``.

        ``abandoned_by``: the seat that left the match (or, at a rated table, let his clock run out three
        times in a row): his side loses it, as the variant says (``Variant.abandon_winner``)."""
        t = self.table
        match = t.state.match
        assert match is not None
        seats = t.state.seats
        names = [s.name or f"seat {k}" for k, s in enumerate(seats)]
        ids = [s.player for s in seats]
        record = Record.from_match(match, names)
        record.extra["table"] = t.id
        record.extra["player_ids"] = ids  # for players' match history
        data: dict[str, object]
        if abandoned_by is None:
            assert match.outcome is not None
            outcome = match.outcome
            data = {"winner": match.winner, "how": outcome.termination.value}
        else:
            winner = match.variant.abandon_winner(match, abandoned_by)
            outcome = MatchOutcome(MatchTermination.ABANDON, winner, tuple(match.totals))
            data = {"winner": winner, "how": outcome.termination.value, "seat": abandoned_by}
            record.extra["result"] = {"how": "abandon", "seat": abandoned_by, "winner": winner}
        # Rated: accounts only (no server bot, no guest at a rated table); a bot account among people only
        # where the table says so (bots_rated).
        mixed = any(s.bot_account for s in seats) and not all(s.bot_account for s in seats)
        rated = t.state.rated and all(seat.kind == "person" for seat in seats) and (t.state.bots_rated or not mixed)
        event = MatchEnded(
            t.id,
            t.state.match_no,
            t.state.variant,
            outcome,
            names,
            ids,
            record.to_json(),
            rated=rated,
            abandoned_by=abandoned_by,
            at=dt.datetime.now(dt.UTC),
            tally=match.tally(),
            went_out=match.went_out(),
        )
        await t.service.bus.publish(event)
        await t.commit("end", data)
        self.stop()

    async def timed_out(self, n: int, seat: int, why: str) -> None:
        """A10: the seat's time ran out (``timeout``): the table moves for it; twice in a row: away. A
        bot's watchdog (``watchdog``) moves for it without counting; a forced pass (``auto``) is the pass."""
        t = self.table
        async with t.lock:
            match = t.state.match
            if t.log.n != n or match is None or match.is_over():
                return
            hand = match.hand
            if hand.end is not None or hand.turn != seat:
                return
            if why == "auto":
                if t.pace.forced_pass(seat) is None:
                    return  # no longer forced (the table's state moved on)
                data = {"action": format_action(seat, PASS), "timeout": False, "auto": True}
                await t.commit("action", data, (seat, PASS))
                await self.after_action()
                return
            move = hand.timeout_move(seat)
            state = t.state.seats[seat]
            counts = why == "timeout"
            state.timeouts += counts
            await t.commit("action", {"action": format_action(seat, move), "timeout": True}, (seat, move))
            if counts and t.state.rated:
                # A rated match is never played by a bot: no stand-in; the third timeout in a row is an
                # abandonment, and his side loses the match.
                if state.timeouts >= ABANDON_AFTER_TIMEOUTS and not match.is_over():
                    await self.end(abandoned_by=seat)
                    return
            elif counts and state.timeouts >= 2 and not state.away:
                await t.commit("away", {"seat": seat, "away": True})
            await self.after_action()

    async def time_up(self) -> None:
        """C5: when the match time runs out, the table writes ``-: time`` (once)."""
        t = self.table
        async with t.lock:
            match = t.state.match
            if match is None or match.is_over() or t.status != "playing" or match.time_called:
                return
            await t.act_parsed(t.state.parse("time", None), by_player=False)
