"""Accounts: sign up, log in, sessions, and a guest who signs up keeps his identity (and his matches).

Passwords are hashed with argon2 (argon2-cffi). A signed-in player gets the same kind of signed token as a
guest, marked as an account and carrying the account's session generation; the web layer also keeps it in
an HttpOnly session cookie. :meth:`Accounts.authenticate` checks the generation against the database on
each request, so raising it (log out everywhere, a password change) ends every such token, on every server
that shares the database. Usernames are matched by one fold (:mod:`capicua.service.usernames`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from collections.abc import Awaitable, Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from capicua.service.conduct import is_banned
from capicua.service.errors import ServiceError
from capicua.service.identity import GuestIdentities, Identity, clean_name
from capicua.service.limits import Limits
from capicua.service.store import AccountStore
from capicua.service.store.schema import AccountRow
from capicua.service.usernames import check_username, username_key

__all__ = ["Accounts"]

#: Shortest password.
MIN_PASSWORD = 8


class Accounts:
    """Sign up and log in, behind the same signed tokens as guests."""

    def __init__(
        self,
        store: AccountStore,
        identities: GuestIdentities,
        limits: Limits | None = None,
        clock: Callable[[], dt.datetime] | None = None,
        ban_words: Callable[[str], Awaitable[str]] | None = None,
    ) -> None:
        self.store = store
        self.identities = identities
        self.hasher = PasswordHasher()
        #: Wrong passwords back off per account and per address (:meth:`Limits.login_failed`).
        self.limits = limits or Limits(enabled=False)
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        #: Why a banned account is closed, for its owner logging in (:meth:`Conduct.ban_words`).
        self.ban_words = ban_words

    async def names(self, account_ids: list[str]) -> dict[str, str]:
        """The display names of these accounts (those that exist)."""
        return await self.store.names(account_ids)

    async def bots(self) -> list[AccountRow]:
        """Every bot account, by username."""
        return await self.store.bots()

    async def sign_up(
        self,
        username: str,
        password: str,
        name: str | None = None,
        guest: Identity | None = None,
        bot: bool = False,
    ) -> tuple[Identity, str]:
        """A new account (keeping the guest's id when a guest claims it; a bot account never does); returns it
        and its token."""
        username = check_username(username)
        if len(password or "") < MIN_PASSWORD:
            raise ServiceError("invalid", f"a password has at least {MIN_PASSWORD} characters")
        account_id = guest.id if guest is not None and guest.guest and not bot else f"a:{secrets.token_hex(8)}"
        display = clean_name(name) or (guest.name if guest else None) or username
        if bot:
            display = clean_name(name) or username
        ok = await self.store.add(account_id, username, display, await self._hash(password), bot=bot)
        if not ok:
            if await self.store.by_username(username) is not None:
                raise ServiceError("taken", f"the username {username!r} is taken")
            if await self.store.by_id(account_id) is not None:
                raise ServiceError("taken", "this guest has an account already: log in")
            raise ServiceError("taken", f"the username {username!r} looks like one that is taken")
        who = Identity(account_id, display, guest=False, bot=bot)
        return who, self.identities.token_for(who, 0)

    async def _hash(self, password: str) -> str:
        """argon2 is slow on purpose (about 0.1 s): it runs in a thread, off the event loop the tables share."""
        return await asyncio.to_thread(self.hasher.hash, password)

    async def log_in(self, username: str, password: str, address: str = "local") -> tuple[Identity, str]:
        """The account's identity and a new session token, for the right password. A wrong one counts against
        the username (whether or not it exists: nobody learns which do) and the client's ``address``: past a few,
        each try waits longer (``429 too-fast``, docs/operations.md, "Rate limits")."""
        account = username_key(username or "")
        await self.limits.login_allowed(account, address)
        row = await self.store.by_username(username or "")
        if row is None:
            await self._hash(password or "x")  # same cost whether or not the user exists
            await self.limits.login_failed(account, address)
            raise ServiceError("unauthorized", "wrong username or password")
        try:
            await asyncio.to_thread(self.hasher.verify, row.password_hash, password or "")
        except (VerificationError, InvalidHashError):
            await self.limits.login_failed(account, address)
            raise ServiceError("unauthorized", "wrong username or password") from None
        await self.limits.login_succeeded(account)
        if is_banned(row, self.clock()):  # told only with the right password: nobody else learns of a ban
            words = await self.ban_words(row.id) if self.ban_words is not None else "a moderator closed it"
            raise ServiceError("banned", words)
        if self.hasher.check_needs_rehash(row.password_hash):
            await self.store.set_password_hash(row.id, await self._hash(password))
        who = Identity(row.id, row.name, guest=False, bot=bool(row.bot))
        return who, self.identities.token_for(who, row.session_generation)

    async def authenticate(self, token: str) -> Identity | None:
        """The caller of a signed token: a guest by its signature; an account only while the token's session
        generation is the account's (its sessions not ended since), with the account's name as it is now.
        A guest token whose id became an account's (he signed up keeping it) counts as one of the account's
        first sessions: it stops opening anything once the account's sessions are ended."""
        decoded = self.identities.decode(token)
        if decoded is None:
            return None
        who, generation = decoded
        row = await self.store.by_id(who.id)
        if who.guest:
            return who if row is None or row.session_generation == 0 else None
        if row is None or row.session_generation != generation or is_banned(row, self.clock()):
            return None
        return Identity(row.id, row.name, guest=False, bot=bool(row.bot))

    async def session_token(self, who: Identity) -> str:
        """A token of ``who``'s session as it is now (a guest's, or one of the account's live generation)."""
        if who.guest:
            return self.identities.token_for(who)
        row = await self.store.by_id(who.id)
        if row is None:
            raise ServiceError("not-found", "no such account")
        return self.identities.token_for(who, row.session_generation)

    async def end_sessions(self, who: Identity) -> None:
        """Log ``who``'s account out everywhere: every session token it has, this one too, opens nothing now."""
        self._account(who)
        if await self.store.end_sessions(who.id) is None:
            raise ServiceError("not-found", "no such account")

    async def change_password(self, who: Identity, current: str, new: str) -> tuple[Identity, str]:
        """A new password, given the current one: the account's other sessions end, and this one goes on under
        the new token returned."""
        self._account(who)
        if len(new or "") < MIN_PASSWORD:
            raise ServiceError("invalid", f"a password has at least {MIN_PASSWORD} characters")
        row = await self.store.by_id(who.id)
        if row is None:
            raise ServiceError("not-found", "no such account")
        try:
            await asyncio.to_thread(self.hasher.verify, row.password_hash, current or "")
        except (VerificationError, InvalidHashError):
            raise ServiceError("wrong-password", "the current password is not right") from None
        generation = await self.store.end_sessions(who.id, await self._hash(new))
        if generation is None:
            raise ServiceError("not-found", "no such account")
        renewed = Identity(row.id, row.name, guest=False, bot=bool(row.bot))
        return renewed, self.identities.token_for(renewed, generation)

    @staticmethod
    def _account(who: Identity) -> None:
        if who.guest:
            raise ServiceError("accounts-only", "guests have no sessions to end or password to change: sign up")
