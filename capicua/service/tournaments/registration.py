"""A tournament before and around its rounds: the organiser creates it and changes its settings, keeps
teams apart; teams of two accounts register (one invites, the other accepts), withdraw, or enter late until
half the rounds are paired (C10)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

from capicua.rules import variants
from capicua.rules.variant import OptionError
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity
from capicua.service.store.schema import TournamentRow, TournamentTeamRow
from capicua.service.tournaments.context import MAX_ROUNDS, MODES, Context, account_only, organised
from capicua.service.tournaments.swiss import late_entry_open

__all__ = ["Registration"]


class Registration:
    """Creating tournaments, their settings, and their teams' entries; ``advance`` moves a tournament on
    (a change of rounds, a withdrawal may end a round or the tournament)."""

    def __init__(self, ctx: Context, advance: Callable[[str], Awaitable[None]]) -> None:
        self.ctx = ctx
        self.advance = advance

    # -- the organiser ------------------------------------------------------------------------
    async def create(
        self,
        who: Identity,
        name: str,
        game: str,
        starts_at: dt.datetime,
        rounds: int | None = None,
        options: dict[str, Any] | None = None,
        mode: str = "online",
        registration_opens: dt.datetime | None = None,
        registration_closes: dt.datetime | None = None,
        no_show_grace: int = 300,
        auto_pair: bool = True,
    ) -> TournamentRow:
        """A new tournament in registration. Its tables play ``game`` with ``options`` (the game's own, strict
        mode on by default where the game has it); ``rounds`` None: ceil(log2(teams)) at the start."""
        account_only(who, "organise a tournament")
        try:
            variant = variants.get(game)
        except ValueError as exc:
            raise ServiceError("bad-variant", str(exc)) from None
        if not (variant.partnerships and 4 in variant.player_counts):
            raise ServiceError("bad-options", f"tournaments are of pairs: {variant.title} is not a partnership game")
        given = dict(options or {})
        if variant.option("strict") is not None:
            given.setdefault("strict", True)  # C9: on in competitions
        try:
            checked = variant.check_options(given)
        except (OptionError, ValueError) as exc:
            raise ServiceError("bad-options", str(exc)) from None
        if mode not in MODES:
            raise ServiceError("bad-options", f"a tournament is played {' or '.join(MODES)}, not {mode!r}")
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise ServiceError("bad-options", f"rounds are 1 to {MAX_ROUNDS}")
        if not 0 <= no_show_grace <= 3600:
            raise ServiceError("bad-options", "the no-show grace is 0 to 3600 seconds")
        opens = registration_opens or self.ctx.clock()
        if starts_at < opens:
            raise ServiceError("bad-options", "the tournament cannot start before its registration opens")
        if registration_closes is not None and registration_closes < opens:
            raise ServiceError("bad-options", "the registration cannot close before it opens")
        return await self.ctx.store.create(
            {
                "name": name,
                "game": variant.name,
                "organiser": who.id,
                "mode": mode,
                "rounds": rounds,
                "options": checked,
                "starts_at": starts_at,
                "registration_opens": opens,
                "registration_closes": registration_closes,
                "no_show_grace": no_show_grace,
                "auto_pair": auto_pair,
                "status": "registration",
                "current_round": 0,
            }
        )

    async def change(self, who: Identity, tournament_id: str, **changes: Any) -> TournamentRow:
        """The organiser changes a setting: ``name``, ``rounds`` (more, or fewer but not fewer than are
        paired), ``starts_at`` (before the start), ``no_show_grace``, ``auto_pair``."""
        async with self.ctx.lock(tournament_id):
            t = organised(who, await self.ctx.get(tournament_id))
            if t.status == "finished":
                raise ServiceError("closed", "the tournament is over")
            fields = {k: v for k, v in changes.items() if v is not None}
            if "rounds" in fields and not max(1, t.current_round) <= fields["rounds"] <= MAX_ROUNDS:
                raise ServiceError("bad-options", f"rounds are {max(1, t.current_round)} to {MAX_ROUNDS} now")
            if "starts_at" in fields and t.status != "registration":
                raise ServiceError("started", "the tournament has started")
            if "no_show_grace" in fields and not 0 <= fields["no_show_grace"] <= 3600:
                raise ServiceError("bad-options", "the no-show grace is 0 to 3600 seconds")
            if fields:
                await self.ctx.store.update(t.id, {}, **fields)
        if "rounds" in fields or "auto_pair" in fields:
            await self.advance(tournament_id)
        return await self.ctx.get(tournament_id)

    async def forbid(self, who: Identity, tournament_id: str, a: int, b: int, forbidden: bool = True) -> None:
        """Keep teams ``a`` and ``b`` apart (teammates from one club), or no longer."""
        snap = await self.ctx.read(tournament_id, every_round=False)
        organised(who, snap.t)
        if a == b:
            raise ServiceError("invalid", "a team is never paired with itself")
        snap.team(a)
        snap.team(b)
        await self.ctx.store.forbid(tournament_id, a, b, forbidden)

    # -- teams ----------------------------------------------------------------------------------
    async def register(
        self, who: Identity, tournament_id: str, partner: str, name: str | None = None
    ) -> TournamentTeamRow:
        """``who`` registers a team with the account ``partner`` (a username), who is invited to accept."""
        account_only(who, "play a tournament")
        other = await self.ctx.accounts.by_username(partner)
        if other is None:
            raise ServiceError("not-found", f"no account {partner!r}")
        if other.id == who.id:
            raise ServiceError("invalid", "a team is two players: invite your partner")
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id, every_round=False)
            self._check_entry(snap.t)
            busy = {p for x in snap.teams if x.status in ("invited", "registered") for p in (x.player_a, x.player_b)}
            if who.id in busy or other.id in busy:
                raise ServiceError("registered", "one of you is in a team of this tournament already")
            names = await self.ctx.accounts.names([who.id, other.id])
            label = (name or "").strip() or f"{names.get(who.id, who.name)} & {names.get(other.id, partner)}"
            return await self.ctx.store.add_team(
                snap.t.id,
                {
                    "name": label[:64],
                    "player_a": who.id,
                    "player_b": other.id,
                    "status": "invited",
                    "entered_round": 1,
                    "no_shows": 0,
                },
            )

    async def accept(self, who: Identity, tournament_id: str, team: int) -> TournamentTeamRow:
        """The invited partner accepts: the team is registered (after the start: a late entry, C10)."""
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id, every_round=False)
            t, row = snap.t, snap.team(team)
            if row.player_b != who.id:
                raise ServiceError("forbidden", "only the invited partner accepts")
            if row.status != "invited":
                raise ServiceError("registered", f"this team is {row.status}")
            self._check_entry(t)
            fields = {"status": "registered", "entered_round": t.current_round + 1 if t.status == "running" else 1}
            if await self.ctx.store.update_team(t.id, team, {"status": "invited"}, **fields):
                return snap.with_team(team, **fields).team(team)
        return await self._team(tournament_id, team)

    async def withdraw(self, who: Identity, tournament_id: str, team: int) -> TournamentTeamRow:
        """A player of the team, or the organiser, withdraws it: it is not paired again; its results stand."""
        async with self.ctx.lock(tournament_id):
            snap = await self.ctx.read(tournament_id, every_round=False)
            t, row = snap.t, snap.team(team)
            if who.id not in (row.player_a, row.player_b, t.organiser):
                raise ServiceError("forbidden", "only the team's players or the organiser withdraw it")
            if row.status == "withdrawn":
                return row
            await self.ctx.store.update_team(t.id, team, {"status": row.status}, status="withdrawn")
        await self.advance(tournament_id)  # the last team but one gone: the tournament may be over
        return await self._team(tournament_id, team)

    async def _team(self, tournament_id: str, team: int) -> TournamentTeamRow:
        for row in await self.ctx.store.teams(tournament_id):
            if row.team == team:
                return row
        raise ServiceError("not-found", f"no team {team} in this tournament")

    def _check_entry(self, t: TournamentRow) -> None:
        """Registration: from its opening to its closing time, if any, and (C10) until half the rounds are paired."""
        now = self.ctx.clock()
        if t.status == "finished" or now < t.registration_opens:
            raise ServiceError("closed", "registration is not open")
        closes = t.registration_closes
        if closes is not None and now >= closes:
            raise ServiceError("closed", "registration has closed")
        if t.status == "running" and not late_entry_open(t.current_round, t.rounds or 0):
            raise ServiceError("closed", "late entry ends once half the rounds are paired (C10)")
