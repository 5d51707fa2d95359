"""Accounts: sign up, log in, and a guest who signs up keeps his identity (and his matches).

Passwords are hashed with argon2 (argon2-cffi). A signed-in player gets the same
kind of signed token as a guest, marked as an account; the web layer also keeps
it in an HttpOnly session cookie.
"""

from __future__ import annotations

import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from capicua.service.identity import GuestIdentities, Identity
from capicua.service.store import Store

__all__ = ["AccountError", "Accounts"]

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,24}$")


class AccountError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Accounts:
    def __init__(self, store: Store, identities: GuestIdentities) -> None:
        self.store = store
        self.identities = identities
        self.hasher = PasswordHasher()

    async def sign_up(
        self, username: str, password: str, name: str | None = None, guest: Identity | None = None
    ) -> tuple[Identity, str]:
        """A new account (keeping the guest's id when a guest claims it); returns it and its token."""
        if not USERNAME.match(username or ""):
            raise AccountError("bad-username", "a username has 3 to 24 letters, digits, '.', '_' or '-'")
        if len(password or "") < 8:
            raise AccountError("bad-password", "a password has at least 8 characters")
        account_id = guest.id if guest is not None and guest.guest else f"a:{secrets.token_hex(8)}"
        display = (name or (guest.name if guest else None) or username).strip()[:32]
        ok = await self.store.add_account(account_id, username.lower(), display, self.hasher.hash(password))
        if not ok:
            raise AccountError("taken", f"the username {username!r} is taken")
        who = Identity(account_id, display, guest=False)
        return who, self.identities.token_for(who)

    async def log_in(self, username: str, password: str) -> tuple[Identity, str]:
        row = await self.store.account_by_username((username or "").lower())
        if row is None:
            self.hasher.hash(password or "x")  # same cost whether or not the user exists
            raise AccountError("bad-login", "wrong username or password")
        try:
            self.hasher.verify(row.password_hash, password or "")
        except (VerificationError, InvalidHashError):
            raise AccountError("bad-login", "wrong username or password") from None
        if self.hasher.check_needs_rehash(row.password_hash):
            await self.store.set_password_hash(row.id, self.hasher.hash(password))
        who = Identity(row.id, row.name, guest=False)
        return who, self.identities.token_for(who)
