"""Frames: what each seat (or a spectator) may see of a table, as JSON.

A seat's frame is built from the engine's view of that seat (:meth:`capicua.rules.hand.Hand.view`),
never by filtering the full state. The parts of a frame that no longer change (the scoreboard of
finished hands, the hand's history in record notation) are built once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from capicua.rules.hand import Hand, SeatView
from capicua.rules.match import Match
from capicua.rules.moves import format_action
from capicua.rules.variant import Outcome, Variant
from capicua.service.tables.messages import (
    Abandoned,
    BoardEntry,
    Clock,
    EventFrame,
    HandOutcome,
    HandView,
    TableEvent,
    TableSummary,
    TableView,
)
from capicua.service.tables.state import TableState

__all__ = ["Frames", "view_json"]


class Frames:
    """Builds one table's frames; ``n`` gives the last event's number, ``clock`` the move clock's deadline
    and the match clock's end."""

    def __init__(
        self,
        state: TableState,
        n: Callable[[], int],
        clock: Callable[[], tuple[dt.datetime | None, dt.datetime | None, dt.datetime | None]],
    ) -> None:
        self.table = state
        self._n = n
        self._clock = clock
        self._board: tuple[Match | None, list[BoardEntry]] = (None, [])  # see scoreboard
        self._history: tuple[Hand | None, list[str]] = (None, [])  # see history_text

    def summary(self, with_invite: bool = False) -> TableSummary:
        """The table as the lobby and the HTTP API show it."""
        t = self.table
        played = t.match is not None and bool(t.match.hands)
        data = TableSummary(
            id=t.id,
            variant=t.variant,
            players=t.players,
            options=t.options,
            private=t.private,
            rated=t.rated,
            tournament=t.tournament_id,
            status=t.status,
            seats=[s.json(t.reserved[k] if t.reserved else None) for k, s in enumerate(t.seats)],
            match=t.match_no,
            n=self._n(),
            # the lobby's view of a match: its score and hand, and whether a person waits for players
            totals=t.match.totals if played and t.match is not None else None,
            hand=len(t.match.hands) if played and t.match is not None else None,
            waiting=t.status == "open" and any(s.player for s in t.seats) and any(s.empty for s in t.seats),
            autostart=t.autostart,
            starts_at=None if (starts := t.starts_at) is None else starts.isoformat(),
        )
        if with_invite and t.invite:
            data["invite"] = t.invite
        return data

    def state(self, seat: int | None) -> TableView:
        """What ``seat`` (None: a spectator) may see now."""
        n = self._n()
        match = self.table.match
        if match is None or not match.hands:
            return TableView(table=self.summary(), seat=seat, n=n, hand=None)
        hand = match.hand
        view = hand.view(seat)
        deadline, match_ends, next_deal = self._clock()
        view_of = TableView(
            table=self.summary(),
            seat=seat,
            n=n,
            hand=view_json(view, match.variant, len(match.hands), self.history_text(hand, view)),
            totals=match.totals,
            winner=self.table.winner,
            hands=self.scoreboard(match),
            clock=Clock(
                seat=None if hand.end is not None else hand.turn,
                deadline=deadline.isoformat() if deadline else None,
                match_ends=match_ends.isoformat() if match_ends else None,
                next_deal=next_deal.isoformat() if next_deal else None,
            ),
        )
        gone = self.table.abandoned
        if gone is not None and gone["how"] == "abandon":
            view_of["abandoned"] = Abandoned(seat=gone["seat"], reason=gone.get("reason"))
        return view_of

    def event(self, public: TableEvent, seat: int | None) -> EventFrame:
        """The frame of the event just committed, for ``seat``."""
        return EventFrame(type="event", table=self.table.id, n=self._n(), event=public, state=self.state(seat))

    def scoreboard(self, match: Match) -> list[BoardEntry]:
        """The public scoreboard, with the reason of every score: the hands before the last one no
        longer change, so their entries are built once per match."""
        if self._board[0] is not match:
            self._board = (match, [])
        done = self._board[1]
        while len(done) < len(match.hands) - 1:
            done.append(_board_entry(match.hands[len(done)]))
        return [*done, _board_entry(match.hand)]

    def history_text(self, hand: Hand, view: SeatView) -> list[str]:
        """The hand's history in record notation (public), formatted once per action: a hand's
        history only grows on the server."""
        if self._history[0] is not hand:
            self._history = (hand, [])
        text = self._history[1]
        text.extend(format_action(s, m) for s, m in view.history[len(text) :])
        return text[:]


def _board_entry(hand: Hand) -> BoardEntry:
    """A hand on the public scoreboard: how it ended (``outcome``: the side it went to, the seat that ended it),
    its points and its scores."""
    outcome = hand.outcome() if hand.end is not None else None
    return BoardEntry(
        end=hand.end,
        outcome=None if outcome is None else _outcome_json(outcome),
        points=list(hand.points),
        scores=[sc._asdict() for sc in hand.scores],
    )


def _outcome_json(outcome: Outcome) -> HandOutcome:
    return HandOutcome(termination=outcome.termination.value, winner=outcome.winner, seat=outcome.seat)


def view_json(view: SeatView, game: Variant, hand_no: int = 1, history: list[str] | None = None) -> HandView:
    """A seat's view as JSON: built from the engine's view only (``history``: the view's history,
    already in record notation), with what the client needs to know of the game."""
    return HandView(
        hand=hand_no,
        variant=view.variant,
        partnerships=game.partnerships,
        calls=sorted(m.kind for m in game.calls),
        table_count=game.table_count,
        seat=view.seat,
        tiles=[str(t) for t in view.tiles],
        counts=list(view.counts),
        boneyard=view.boneyard,
        layout=view.layout,
        turn=view.turn,
        history=[format_action(s, m) for s, m in view.history] if history is None else history,
        scores=[s._asdict() for s in view.scores],
        points=list(view.points),
        end=view.end,
        legal=[str(m) for m in view.legal_moves],
        revealed=None if view.revealed is None else [[str(t) for t in h] for h in view.revealed],
        outcome=None if view.outcome is None else _outcome_json(view.outcome),
        public=view.public,
        drawn=[str(t) for t in view.drawn],
    )
