"""What a table does by itself, as data: the ``start`` of a match, the ``deal`` of a hand, and the match's end
(the ``end`` event, and the :class:`~capicua.service.bus.MatchEnded` its listeners get, with the record).

These are pure functions of the table's state; the runner (:mod:`capicua.service.tables.runner`) commits what
they return and publishes it.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from capicua.bots import lessons
from capicua.rules.match import Match
from capicua.rules.outcome import MatchOutcome, MatchTermination
from capicua.rules.record import Record
from capicua.rules.tiles import TILES
from capicua.service.bus import MatchEnded
from capicua.service.tables.state import ABANDON_AFTER_TIMEOUTS, TableState

__all__ = ["ABANDON_AFTER_TIMEOUTS", "deal_data", "match_end", "start_data"]


def start_data(state: TableState, ratings: list[dict[str, Any] | None] | None) -> dict[str, Any]:
    """The ``start`` event of the table's next match: its deal seed, and on a rematch the ratings as the last
    match left them."""
    data: dict[str, Any] = {"seed": secrets.randbits(32), "match": state.match_no + 1}
    if ratings is not None:
        data["ratings"] = ratings
    return data


def deal_data(match: Match) -> dict[str, Any]:
    """The ``deal`` event of the match's next hand: its shuffle comes from the match's seed, but for a lesson's
    table (the option ``lesson``, :mod:`capicua.bots.lessons`), whose first hand is the lesson's fixed deal."""
    name = match.options.get("lesson")
    if name is not None and not match.hands:
        lesson = lessons.get(name)
        return {"deal": [list(hand) for hand in lesson.deal], "boneyard": list(lesson.boneyard), "extra": lesson.extra}
    masks, boneyard = match.shuffle()
    extra = match.variant.random_extra(match)
    deal = [[str(TILES[t]) for t in range(28) if m >> t & 1] for m in masks]
    return {"deal": deal, "boneyard": [str(TILES[t]) for t in boneyard], "extra": extra}


def match_end(
    state: TableState, abandoned_by: int | None, at: dt.datetime, reason: str | None = None
) -> tuple[MatchEnded, dict[str, Any]]:
    """The match's end: what its listeners get (they save the record, rate it…), and the ``end`` event.

    ``abandoned_by``: the seat that left the match (or, at a rated table, let his clock run out three times
    in a row): his side loses it, as the variant says (``Variant.abandon_winner``). ``reason``: why he left it,
    ``resign`` (he said so), ``timeouts`` (a rated table's third timeout in a row) or ``deserted`` (a casual
    table's last person away and gone: see ``TableState.deserted``)."""
    match = state.match
    assert match is not None
    seats = state.seats
    names = [s.name or f"seat {k}" for k, s in enumerate(seats)]
    ids = [s.player for s in seats]
    record = Record.from_match(match, names)
    record.extra["table"] = state.id
    record.extra["player_ids"] = ids  # for players' match history
    record.extra["bots"] = [s.bot is not None or s.bot_account for s in seats]  # the replay's bot icons
    data: dict[str, Any]
    if abandoned_by is None:
        assert match.outcome is not None
        outcome = match.outcome
        data = {"winner": match.winner, "how": outcome.termination.value}
    else:
        winner = match.variant.abandon_winner(match, abandoned_by)
        outcome = MatchOutcome(MatchTermination.ABANDON, winner, tuple(match.totals))
        data = {"winner": winner, "how": outcome.termination.value, "seat": abandoned_by}
        record.extra["result"] = {"how": "abandon", "seat": abandoned_by, "winner": winner}
        if reason is not None:
            data["reason"] = reason
            record.extra["result"]["reason"] = reason
    # Rated: accounts only (no server bot, no guest at a rated table); a bot account among people only
    # where the table says so (bots_rated).
    mixed = any(s.bot_account for s in seats) and not all(s.bot_account for s in seats)
    rated = state.rated and all(seat.kind == "person" for seat in seats) and (state.bots_rated or not mixed)
    event = MatchEnded(
        state.id,
        state.match_no,
        state.variant,
        outcome,
        names,
        ids,
        record.to_json(),
        rated=rated,
        abandoned_by=abandoned_by,
        at=at,
        tally=match.tally(),
        went_out=match.went_out(),
    )
    return event, data
