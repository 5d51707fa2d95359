"""Accounts: sign up, log in, and a guest who signs up keeps his identity (and his matches).

Passwords are hashed with argon2 (argon2-cffi). A signed-in player gets the same
kind of signed token as a guest, marked as an account; the web layer also keeps
it in an HttpOnly session cookie.
"""

from __future__ import annotations

import asyncio
import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from capicua.service.errors import ServiceError
from capicua.service.identity import GuestIdentities, Identity, clean_name
from capicua.service.store import AccountStore

__all__ = ["Accounts"]

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,24}$")


class Accounts:
    """Sign up and log in, behind the same signed tokens as guests."""

    def __init__(self, store: AccountStore, identities: GuestIdentities) -> None:
        self.store = store
        self.identities = identities
        self.hasher = PasswordHasher()

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
        if not USERNAME.match(username or ""):
            raise ServiceError("invalid", "a username has 3 to 24 letters, digits, '.', '_' or '-'")
        if len(password or "") < 8:
            raise ServiceError("invalid", "a password has at least 8 characters")
        account_id = guest.id if guest is not None and guest.guest and not bot else f"a:{secrets.token_hex(8)}"
        display = clean_name(name) or (guest.name if guest else None) or username
        if bot:
            display = clean_name(name) or username
        ok = await self.store.add(account_id, username.lower(), display, await self._hash(password), bot=bot)
        if not ok:
            raise ServiceError("taken", f"the username {username!r} is taken")
        who = Identity(account_id, display, guest=False, bot=bot)
        return who, self.identities.token_for(who)

    async def _hash(self, password: str) -> str:
        """argon2 is slow on purpose (about 0.1 s): it runs in a thread, off the event loop the tables share."""
        return await asyncio.to_thread(self.hasher.hash, password)

    async def log_in(self, username: str, password: str) -> tuple[Identity, str]:
        row = await self.store.by_username((username or "").lower())
        if row is None:
            await self._hash(password or "x")  # same cost whether or not the user exists
            raise ServiceError("unauthorized", "wrong username or password")
        try:
            await asyncio.to_thread(self.hasher.verify, row.password_hash, password or "")
        except (VerificationError, InvalidHashError):
            raise ServiceError("unauthorized", "wrong username or password") from None
        if self.hasher.check_needs_rehash(row.password_hash):
            await self.store.set_password_hash(row.id, await self._hash(password))
        who = Identity(row.id, row.name, guest=False, bot=bool(row.bot))
        return who, self.identities.token_for(who)
