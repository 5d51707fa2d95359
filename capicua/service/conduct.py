"""Conduct: playbans for abandoning rated matches, and what moderators do (ban, mute, hide a name), each
action logged with its reason; the flags a moderator looks at.

**Playbans** (lichess has them too). Abandoning a rated match, by leaving it or by letting the clock run out
at a rated table until the table counts it an abandonment, is an *offence*: the rating change of that match
is marked ``abandoned`` (:mod:`capicua.service.ratings`), so the offences are read there, once per match,
whichever node ran it. Of the offences in the last :data:`MEMORY`, the latest sets the playban: the first is a
warning, the second closes the rated queues (rated quick play, sitting at a rated table, a rated rematch) for
15 minutes from it, the third for an hour, any later one for a day (:data:`LADDER`). A week without an offence
starts the count again; a moderator may lift it at once (the offences before count no more). Casual tables
stay open, and so does everything else.

>>> at = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)
>>> minute = dt.timedelta(minutes=1)
>>> playban([at], at + minute).until is None  # a first abandonment: a warning
True
>>> ban = playban([at, at + 10 * minute], at + 11 * minute)
>>> ban.count, ban.until - ban.at
(2, datetime.timedelta(seconds=900))
>>> playban([at, at + 10 * minute], at + 30 * minute).active(at + 30 * minute)  # 15 minutes went by
False
>>> playban([at - 8 * dt.timedelta(days=1)], at) is None  # older than a week: forgotten
True

**Moderation.** An account with the role ``admin`` (``capicua admin grant``) may ban an account (nothing opens
it: its sessions and API tokens stop, logging in is refused with the reason), mute it (it says nothing at
tables), hide its name (a neutral one is shown and it may not rename itself), lift a playban, and undo each of
these. Every action needs a reason and is written to the moderation log with who did it, when and until when.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from capicua.rules import variants
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity, generated_name
from capicua.service.ratings.points import FARM_LIMIT, WINDOW
from capicua.service.store.conduct import ConductStore
from capicua.service.store.schema import AccountRow, ModerationRow

__all__ = [
    "ACTIONS",
    "FOREVER",
    "LADDER",
    "MEMORY",
    "REASON_LENGTH",
    "Conduct",
    "Playban",
    "is_banned",
    "is_muted",
    "playban",
]

#: How long an abandonment counts towards the next playban.
MEMORY = dt.timedelta(days=7)
#: The playban of the 1st, 2nd, 3rd… abandonment within :data:`MEMORY` (the last one for every later one):
#: a warning, then 15 minutes, an hour, a day, from the abandonment.
LADDER = (dt.timedelta(0), dt.timedelta(minutes=15), dt.timedelta(hours=1), dt.timedelta(days=1))
#: A ban or a mute "for good".
FOREVER = dt.datetime(9999, 12, 31, tzinfo=dt.UTC)
#: The longest reason a moderator writes.
REASON_LENGTH = 500
#: Repeated pairings are looked for over this much time (the admin view's flags).
FLAGS_OVER = dt.timedelta(days=7)

#: What a moderator may do, with what it means (``hours``: how long a ban or a mute holds; none, for good).
ACTIONS: dict[str, str] = {
    "ban": "close the account: its sessions and API tokens stop, and logging in is refused with the reason",
    "unban": "open a banned account again",
    "mute": "the account says nothing at tables (neither text nor quick messages)",
    "unmute": "the account may speak again",
    "hide-name": "show a neutral name instead of the account's, and keep it from renaming itself",
    "show-name": "let the account choose its name again",
    "lift-playban": "end the account's playban now: the abandonments before count no more",
    "grant-admin": "make the account a moderator",
    "revoke-admin": "the account moderates no more",
}


@dataclass(frozen=True)
class Playban:
    """A player's standing after ``count`` abandonments within :data:`MEMORY`, the latest at ``at``: rated play
    is closed to him until ``until`` (None: the first one, a warning)."""

    count: int
    at: dt.datetime
    until: dt.datetime | None

    def active(self, now: dt.datetime) -> bool:
        return self.until is not None and now < self.until

    def json(self, now: dt.datetime) -> dict[str, Any]:
        return {
            "abandonments": self.count,
            "last": self.at.isoformat(),
            "until": None if self.until is None else self.until.isoformat(),
            "active": self.active(now),
            "minutes": None if self.until is None else round((self.until - self.at).total_seconds() / 60),
        }


def playban(abandonments: Sequence[dt.datetime], now: dt.datetime) -> Playban | None:
    """The standing a player's abandonments give him at ``now``: those of the last :data:`MEMORY` counted, the
    latest setting the playban by :data:`LADDER`; None when none is that recent."""
    recent = sorted(at for at in abandonments if now - MEMORY < at <= now)
    if not recent:
        return None
    last = recent[-1]
    wait = LADDER[min(len(recent), len(LADDER)) - 1]
    return Playban(len(recent), last, last + wait if wait else None)


def is_banned(row: AccountRow, now: dt.datetime) -> bool:
    """Whether a moderator's ban closes the account at ``now``."""
    return row.banned_until is not None and now < row.banned_until


def is_muted(row: AccountRow, now: dt.datetime) -> bool:
    return row.muted_until is not None and now < row.muted_until


def _until_words(until: dt.datetime | None) -> str:
    return "for good" if until is None or until >= FOREVER else f"until {until.isoformat(timespec='minutes')}"


class Conduct:
    """Playbans, moderation and the flags, over ``store``. ``renamed(who)`` is told when a moderator changed
    a name (the platform shows it at the tables of every node)."""

    def __init__(
        self,
        store: ConductStore,
        clock: Callable[[], dt.datetime] | None = None,
        renamed: Callable[[Identity], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self.renamed = renamed

    # -- playbans ------------------------------------------------------------------------------------------
    async def playban_of(self, player_id: str, row: AccountRow | None = None) -> Playban | None:
        """The player's standing now (``row``: his account, if the caller has read it already)."""
        now = self.clock()
        row = row or await self.store.account(player_id)
        since = now - MEMORY
        if row is not None and row.forgiven_at is not None:
            since = max(since, row.forgiven_at)
        return playban(await self.store.abandonments(player_id, since), now)

    async def check_rated(self, player_id: str) -> None:
        """Refuse (``playban``, with ``retry_after``) a player whose playban closes rated play now."""
        ban = await self.playban_of(player_id)
        now = self.clock()
        if ban is not None and ban.active(now):
            assert ban.until is not None
            minutes = round((ban.until - ban.at).total_seconds() / 60)
            raise ServiceError(
                "playban",
                f"you abandoned {ban.count} rated matches this week: rated play opens again "
                f"{_until_words(ban.until)} ({minutes} min from the last one; casual tables are open)",
                (ban.until - now).total_seconds(),
            )

    async def check_chat(self, player_id: str) -> None:
        """Refuse (``muted``) an account a moderator muted, or banned (a socket opened before the ban)."""
        row = await self.store.account(player_id)
        now = self.clock()
        if row is not None and is_muted(row, now):
            raise ServiceError("muted", f"a moderator muted this account {_until_words(row.muted_until)}")
        if row is not None and is_banned(row, now):
            raise ServiceError("banned", f"a moderator closed this account {_until_words(row.banned_until)}")

    async def ban_words(self, player_id: str) -> str:
        """Why and how long the account is closed, for its owner (logging in)."""
        row = await self.store.account(player_id)
        entries = [e for e in await self.store.log(player_id, 20) if e.action == "ban"]
        reason = entries[0].reason if entries else "no reason given"
        return f"a moderator closed this account {_until_words(row.banned_until if row else None)}: {reason}"

    # -- what a player (or a moderator) sees of him --------------------------------------------------------
    async def standing(self, player_id: str) -> dict[str, Any]:
        """A player's conduct as his profile shows it to him and to moderators: his playban (or warning) and the
        numbers behind it, and whether he is muted, banned or his name hidden."""
        now = self.clock()
        row = await self.store.account(player_id)
        ban = await self.playban_of(player_id, row)
        return {
            "playban": None if ban is None else ban.json(now),
            "ladder_minutes": [round(step.total_seconds() / 60) for step in LADDER],
            "memory_days": MEMORY.days,
            "muted_until": _moment(row.muted_until) if row is not None and is_muted(row, now) else None,
            "banned_until": _moment(row.banned_until) if row is not None and is_banned(row, now) else None,
            "name_hidden": bool(row is not None and row.name_hidden),
            "admin": bool(row is not None and row.role == "admin"),
        }

    # -- moderation ----------------------------------------------------------------------------------------
    async def is_admin(self, who: Identity | None) -> bool:
        if who is None or who.guest or who.api_token:
            return False
        row = await self.store.account(who.id)
        return row is not None and row.role == "admin" and not is_banned(row, self.clock())

    async def check_admin(self, who: Identity | None) -> None:
        if not await self.is_admin(who):
            raise ServiceError("forbidden", "moderators only")

    async def act(
        self, by: Identity | None, player_id: str, action: str, reason: str, hours: float | None = None
    ) -> dict[str, Any]:
        """A moderator's action on an account (``by`` None: the operator, from the command line), logged with
        ``reason``; what the account's standing is then."""
        if by is not None:
            await self.check_admin(by)
            if by.id == player_id:
                raise ServiceError("forbidden", "a moderator does not act on his own account")
        if action not in ACTIONS:
            raise ServiceError("invalid", f"action: one of {', '.join(ACTIONS)}")
        reason = " ".join((reason or "").split())
        if len(reason) < 3 or len(reason) > REASON_LENGTH:
            raise ServiceError("invalid", f"reason: every action says why, in 3 to {REASON_LENGTH} characters")
        if hours is not None and not 0 < hours <= 24 * 3650:
            raise ServiceError("invalid", "hours: more than 0, at most ten years (none: for good)")
        row = await self.store.account(player_id)
        if row is None:
            raise ServiceError("not-found", "no such account (guests are not moderated: they keep nothing)")
        now = self.clock()
        until = None
        changes: dict[str, Any]
        if action in ("ban", "mute"):
            until = now + dt.timedelta(hours=hours) if hours is not None else FOREVER
            changes = {"banned_until" if action == "ban" else "muted_until": until}
        elif action in ("unban", "unmute"):
            changes = {"banned_until" if action == "unban" else "muted_until": None}
        elif action == "hide-name":
            changes = {"name_hidden": True, "name": generated_name(random.Random(player_id))}
        elif action == "show-name":
            changes = {"name_hidden": False}
        elif action == "lift-playban":
            changes = {"forgiven_at": now}
        else:
            changes = {"role": "admin" if action == "grant-admin" else None}
        await self.store.moderate(player_id, changes, ModerationRow(
            at=now, by_id=None if by is None else by.id, player_id=player_id, action=action, reason=reason,
            until=until,
        ), end_sessions=action == "ban")  # fmt: skip
        if "name" in changes and self.renamed is not None:
            await self.renamed(Identity(row.id, changes["name"], guest=False, bot=bool(row.bot)))
        return await self.standing(player_id)

    async def check_rename(self, who: Identity) -> None:
        """Refuse a new name to an account whose name a moderator hid."""
        if who.guest:
            return
        row = await self.store.account(who.id)
        if row is not None and row.name_hidden:
            raise ServiceError("forbidden", "a moderator hid this account's name: it cannot be renamed for now")

    async def log(self, player_id: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
        """The moderation log, newest first (one account's, or everybody's), with the names."""
        rows = await self.store.log(player_id, limit)
        names = await self.store.names([r.player_id for r in rows] + [r.by_id for r in rows if r.by_id])
        return [
            {
                "at": r.at.isoformat(),
                "by": None if r.by_id is None else {"id": r.by_id, "name": names.get(r.by_id)},
                "player": {"id": r.player_id, "name": names.get(r.player_id)},
                "action": r.action,
                "reason": r.reason,
                "until": _moment(r.until),
            }
            for r in rows
        ]

    async def flags(self) -> dict[str, Any]:
        """What a moderator looks at: pairs of players who met in rated 2-player matches beyond the point where
        the 24-hour decay pays nothing (B8, D5), the players with a playban or a warning this week, and the
        accounts muted, banned or with their name hidden now."""
        now = self.clock()
        games = [name for name in variants.names() if variants.get(name).rating == "points"]
        matches = await self.store.two_player_matches(games, now - FLAGS_OVER - WINDOW)
        pairs: dict[tuple[str, ...], list[tuple[dt.datetime, str | None]]] = defaultdict(list)
        for _match_id, at, players in matches:
            key = tuple(sorted(p for p, _ in players))
            winner = next((p for p, won in players if won), None)
            pairs[key].append((at, winner))
        flagged: list[dict[str, Any]] = []
        for key, met in pairs.items():
            met.sort(key=lambda m: m[0])
            # A meeting beyond the decay: FARM_LIMIT earlier ones within the window before it (it paid nothing).
            beyond = [
                at
                for k, (at, _) in enumerate(met)
                if at >= now - FLAGS_OVER and sum(1 for other, _ in met[:k] if at - other <= WINDOW) >= FARM_LIMIT
            ]
            if beyond:
                recent = [(at, w) for at, w in met if at >= now - FLAGS_OVER]
                flagged.append({"players": list(key), "matches": len(recent), "beyond_decay": len(beyond),
                                "wins": {p: sum(1 for _, w in recent if w == p) for p in key},
                                "last": max(beyond).isoformat()})  # fmt: skip
        flagged.sort(key=lambda f: (-f["beyond_decay"], f["last"]))
        abandoners = await self.store.abandoners(now - MEMORY)
        playbans: list[dict[str, Any]] = []
        for player_id in abandoners:
            ban = await self.playban_of(player_id)
            if ban is not None:
                playbans.append({"player": player_id, **ban.json(now)})
        playbans.sort(key=lambda p: (-p["abandonments"], p["last"]))
        sanctioned = [
            {
                "player": row.id,
                "banned_until": _moment(row.banned_until) if is_banned(row, now) else None,
                "muted_until": _moment(row.muted_until) if is_muted(row, now) else None,
                "name_hidden": row.name_hidden,
            }
            for row in await self.store.sanctioned(now)
        ]
        ids = [p for f in flagged for p in f["players"]] + [p["player"] for p in playbans]
        names = await self.store.names(ids + [s["player"] for s in sanctioned])
        return {
            "repeated_pairings": flagged,
            "playbans": playbans,
            "sanctioned": sanctioned,
            "names": names,
            "farm_limit": FARM_LIMIT,
            "window_hours": round(WINDOW.total_seconds() / 3600),
            "over_days": FLAGS_OVER.days,
        }


def _moment(at: dt.datetime | None) -> str | None:
    return None if at is None else at.isoformat()
