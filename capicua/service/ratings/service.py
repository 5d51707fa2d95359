"""Ratings per game type (D1–D5): a listener of the bus that rates every rated match once, and the
leaderboards, weekly rankings, medals and profiles built from what it stored.

- Amazonense and Dominousa: openskill's Plackett-Luce over the two teams (``model.py``); in Amazonense the
  D3 bonus of each player's own galos, batidas and table points is its own line of his change.
- Individual: the zero-sum ranking points of B7/B8/D5 (``points.py``), the 24-hour limit on farming one
  opponent read from the stored matches.
- A match is rated exactly once, whatever happens: its changes are written in one transaction with a
  unique (match, player) index, so the end of a match published again after a crash changes nothing.
- D4: a week closes once (a row per game and week), at start-up too for the weeks that ended while the
  platform was down, and every minute while it runs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from capicua.rules import variants
from capicua.rules.record import Record, replay
from capicua.service.bus import Bus, MatchEnded
from capicua.service.errors import ServiceError
from capicua.service.ratings.model import (
    PROVISIONAL_SIGMA,
    SCALE,
    Skill,
    amazonense_bonus,
    display,
    provisional,
    rate_teams,
)
from capicua.service.ratings.points import WINDOW, ranking_flows
from capicua.service.ratings.weekly import WeekChange, medalists, standings, week_bounds, week_start
from capicua.service.store import RatingChangeRow, RatingRow, RatingStore

__all__ = ["INACTIVE_AFTER", "INDIVIDUAL_PROVISIONAL_GAMES", "TIMEZONE", "Ratings"]

#: D4: the platform's time zone, by default (a setting: capicua serve --timezone).
TIMEZONE = "America/Sao_Paulo"
#: Individual ranking points have no uncertainty: a player is provisional for his first rated matches.
INDIVIDUAL_PROVISIONAL_GAMES = 10
#: Players who have not played a rated match of a game for this long leave its all-time leaderboard.
INACTIVE_AFTER = dt.timedelta(days=30)
#: An individual player's ranking points before his first rated match.
START = 1500.0


@dataclass(frozen=True)
class SeatStats:
    """D3: what a player scored himself in a match."""

    galos: int = 0
    batidas: int = 0
    table_points: int = 0


def tally_stats(tally: list[dict[str, tuple[int, int]]], went_out: list[int]) -> list[SeatStats]:
    """Each seat's own galos (right ones), batidas and table points, from the match's tally and the hands he
    went out in (D3: a batida counts whether or not it scored)."""
    seats = zip(tally, went_out, strict=True)
    return [SeatStats(t.get("galo", (0, 0))[0], out, t.get("table", (0, 0))[1]) for t, out in seats]


def seat_stats(record: dict[str, Any]) -> list[SeatStats]:
    """Each seat's own galos (right ones), batidas and table points, from the match's record (when the
    event came without its tally)."""
    match = replay(Record.from_json(record))
    return tally_stats(match.tally(), match.went_out())


def _skill(row: RatingRow | None) -> Skill:
    if row is None or row.mu is None or row.sigma is None:
        return Skill()
    return Skill(row.mu, row.sigma)


class Ratings:
    """The ratings service of one platform."""

    def __init__(
        self,
        store: RatingStore,
        names: Callable[[list[str]], Any],
        timezone: str = TIMEZONE,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self.store = store
        self._names = names  # async: player ids -> {id: name}
        self.tz = ZoneInfo(timezone)
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))

    def attach(self, bus: Bus) -> Ratings:
        bus.subscribe(MatchEnded.topic, self.on_match_ended)
        return self

    # -- rating a match ------------------------------------------------------------------------------------
    async def on_match_ended(self, event: MatchEnded) -> None:
        """D1: only rated matches (account holders only, no bots) change ratings; each once."""
        if not event.rated or any(p is None for p in event.player_ids):
            return
        if await self.store.applied(event.match_id):
            return  # rated already (its end was published again after a crash)
        players = [p for p in event.player_ids if p is not None]
        game = variants.get(event.variant)
        at = event.at or self.clock()
        current = await self.store.ratings(players, event.variant)
        rate = {"teams": self._rate_teams, "points": self._rate_points}[game.rating]
        changes, rows = await rate(event, players, current, at)
        await self.store.apply(changes, rows)

    async def _rate_teams(
        self, event: MatchEnded, players: list[str], current: dict[str, RatingRow], at: dt.datetime
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        winner = event.outcome.winner
        before = [_skill(current.get(p)) for p in players]
        after = rate_teams([[before[0], before[2]], [before[1], before[3]]], winner)
        stats = [SeatStats()] * 4
        if variants.get(event.variant).rating_bonus:  # D3
            if event.tally is not None and event.went_out is not None:
                stats = tally_stats(event.tally, event.went_out)
            else:
                stats = seat_stats(event.record)
        changes, rows = [], []
        for seat, player in enumerate(players):
            new = after[seat % 2][seat // 2]
            won = seat % 2 == winner
            s = stats[seat]
            # D3 (games whose table count scores): his own galos, batidas, table points; none if he abandoned
            bonus = 0.0 if seat == event.abandoned_by else amazonense_bonus(s.galos, s.batidas, s.table_points)
            mu = new.mu + bonus / SCALE
            old_rating, delta = display(before[seat].mu), display(new.mu) - display(before[seat].mu)
            changes.append(self._change(event, player, seat, at, won, old_rating, delta, bonus))
            rows.append(self._row(player, event.variant, display(mu), mu, new.sigma, current.get(player), won, at))
        return changes, rows

    async def _rate_points(
        self, event: MatchEnded, players: list[str], current: dict[str, RatingRow], at: dt.datetime
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        winner_seat = event.outcome.winner
        winner = players[winner_seat]
        points = {p: row.rating if (row := current.get(p)) is not None else START for p in players}
        repeats: dict[str, int] = {}
        if len(players) == 2:  # B8: the same two players within 24 hours
            loser = players[1 - winner_seat]
            repeats[loser] = await self.store.meetings(winner, loser, event.variant, at - WINDOW, 2)
        flows = ranking_flows(points, winner, repeats)
        changes, rows = [], []
        for seat, player in enumerate(players):
            won = seat == winner_seat
            changes.append(self._change(event, player, seat, at, won, points[player], float(flows[player]), 0.0))
            rating = points[player] + flows[player]
            rows.append(self._row(player, event.variant, rating, None, None, current.get(player), won, at))
        return changes, rows

    @staticmethod
    def _change(
        event: MatchEnded, player: str, seat: int, at: dt.datetime, won: bool, before: float, delta: float, bonus: float
    ) -> dict[str, Any]:
        return {
            "match_id": event.match_id,
            "player_id": player,
            "game": event.variant,
            "seat": seat,
            "at": at,
            "won": won,
            "before": before,
            "delta": delta,
            "bonus": bonus,
            "after": before + delta + bonus,
            "abandoned": seat == event.abandoned_by,
        }

    @staticmethod
    def _row(
        player: str,
        game: str,
        rating: float,
        mu: float | None,
        sigma: float | None,
        old: RatingRow | None,
        won: bool,
        at: dt.datetime,
    ) -> dict[str, Any]:
        games, wins = (old.games, old.wins) if old is not None else (0, 0)
        return {
            "player_id": player,
            "game": game,
            "rating": rating,
            "mu": mu,
            "sigma": sigma,
            "games": games + 1,
            "wins": wins + won,
            "updated_at": at,
        }

    # -- what people see ----------------------------------------------------------------------------------
    @staticmethod
    def is_provisional(row: RatingRow) -> bool:
        if row.sigma is not None:
            return provisional(row.sigma)
        return row.games < INDIVIDUAL_PROVISIONAL_GAMES

    def rating_json(self, row: RatingRow) -> dict[str, Any]:
        return {
            "game": row.game,
            "rating": round(row.rating),
            "provisional": self.is_provisional(row),
            "games": row.games,
            "wins": row.wins,
            "last_played": row.updated_at.isoformat(),
        }

    async def rating_of(self, player_id: str, game: str) -> dict[str, Any] | None:
        """A player's rating in ``game`` (None before his first rated match of it)."""
        row = (await self.store.ratings([player_id], game)).get(player_id)
        return None if row is None else self.rating_json(row)

    async def leaderboard(self, game: str, limit: int = 100) -> list[dict[str, Any]]:
        """All-time: the best established players, active in the last 30 days."""
        since = self.clock() - INACTIVE_AFTER
        rows = await self.store.leaderboard(game, since, PROVISIONAL_SIGMA, INDIVIDUAL_PROVISIONAL_GAMES, limit)
        names = await self._names([r.player_id for r in rows])
        return [
            {"place": k + 1, "player": r.player_id, "name": names.get(r.player_id), **self.rating_json(r)}
            for k, r in enumerate(rows)
        ]

    def this_week(self) -> dt.date:
        return week_start(self.clock(), self.tz)

    async def week(self, game: str, week: dt.date | None = None) -> dict[str, Any]:
        """D4: a week's ranking (this week's, live, by default) and, for a closed week, its medals; ``invalid``
        for a week that does not fit the calendar (9999-12-27's ends in the year 10000)."""
        week = week or self.this_week()
        try:
            begin, end = week_bounds(week, self.tz)
        except OverflowError:
            raise ServiceError(
                "invalid",
                f"the week of Monday {week.isoformat()} does not fit the calendar: in UTC it must begin and end "
                "within the years 1 to 9999",
            ) from None
        rows = await self.store.changes_between(game, begin, end)
        ranked = standings(WeekChange(r.player_id, r.at, r.delta + r.bonus, r.won) for r in rows)
        names = await self._names([s.player_id for s in ranked])
        medals = {m.player_id: m.place for m in await self.store.medals(game, week)}
        return {
            "game": game,
            "week": week.isoformat(),
            "begins": begin.isoformat(),
            "ends": end.isoformat(),
            "closed": week in await self.store.closed_weeks(game),
            "standings": [
                {
                    "place": k + 1,
                    "player": s.player_id,
                    "name": names.get(s.player_id),
                    "score": round(s.score, 1),
                    "wins": s.wins,
                    "matches": s.matches,
                    "medal": medals.get(s.player_id),
                }
                for k, s in enumerate(ranked)
            ],
        }

    async def close_weeks(self) -> int:
        """D4: close every week that has ended and is not closed yet, in every game; how many were closed."""
        now = self.clock()
        closed = 0
        for game in variants.names():
            first = await self.store.first_change(game)
            if first is None:
                continue
            done = await self.store.closed_weeks(game)
            week = week_start(first, self.tz)
            while week_bounds(week, self.tz)[1] <= now:
                if week not in done:
                    begin, end = week_bounds(week, self.tz)
                    rows = await self.store.changes_between(game, begin, end)
                    ranked = standings(WeekChange(r.player_id, r.at, r.delta + r.bonus, r.won) for r in rows)
                    medals = [(k + 1, s.player_id, s.score) for k, (_, s) in enumerate(medalists(ranked))]
                    closed += await self.store.close_week(game, week, medals)
                week += dt.timedelta(days=7)
        return closed

    async def profile(self, player_id: str) -> dict[str, Any]:
        """A player's ratings per game, his medals, and each game's rating history."""
        rows = await self.store.ratings_of(player_id)
        medals = await self.store.medals_of(player_id)
        history: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            changes = await self.store.changes_of(player_id, row.game)
            history[row.game] = [self._history_point(c) for c in changes]
        return {
            "player": player_id,
            "ratings": [self.rating_json(r) for r in sorted(rows, key=lambda r: variants.names().index(r.game))],
            "medals": [
                {"game": m.game, "week": m.week_start.isoformat(), "place": m.place, "score": round(m.score, 1)}
                for m in medals
            ],
            "history": history,
        }

    @staticmethod
    def _history_point(c: RatingChangeRow) -> dict[str, Any]:
        return {
            "match": c.match_id,
            "at": c.at.isoformat(),
            "before": round(c.before, 1),
            "delta": round(c.delta, 1),
            "bonus": round(c.bonus, 1),
            "after": round(c.after, 1),
            "won": c.won,
            "abandoned": c.abandoned,
        }

    async def changes_of_player(self, player_id: str) -> list[dict[str, Any]]:
        """Every rated match of a player, in every game, oldest first."""
        return [{"game": c.game, **self._history_point(c)} for c in await self.store.changes_of(player_id)]

    async def changes_of_match(self, match_id: str) -> list[dict[str, Any]]:
        """What a rated match did to each player (the result screen)."""
        return [
            {"seat": c.seat, "player": c.player_id, **self._history_point(c)}
            for c in await self.store.applied(match_id)
        ]
