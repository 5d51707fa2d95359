"""Personal API tokens: ``cap_<id>_<secret>``, shown once when made; the store keeps only a SHA-256 digest.

A token is 144 random bits, so a fast digest is enough (a password's slow hash is there for low-entropy
secrets); it identifies its account on every request (``Authorization: Bearer cap_…``) until revoked.

>>> token = make_token("Ab3dEf9h")
>>> token.startswith("cap_Ab3dEf9h_") and len(token) == 37
True
>>> len(digest(token)), digest(token) == digest(token)
(64, True)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Callable
from typing import Any

from capicua.service.conduct import is_banned
from capicua.service.errors import ServiceError
from capicua.service.identity import Identity, clean_name
from capicua.service.store import TokenStore
from capicua.service.store.schema import ApiTokenRow

__all__ = ["PREFIX", "ApiTokens", "describe", "digest", "make_token"]

PREFIX = "cap_"
#: How often a token's ``last_used_at`` is written at most (it is shown to its owner).
TOUCH_EVERY = dt.timedelta(minutes=1)
#: Live tokens an account may hold.
MAX_TOKENS = 20


def make_token(token_id: str) -> str:
    return f"{PREFIX}{token_id}_{secrets.token_urlsafe(18)}"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def describe(row: ApiTokenRow) -> dict[str, Any]:
    """A token as its owner sees it listed: never the token itself, nor its digest."""
    return {
        "id": row.id,
        "label": row.label,
        "created_at": _iso(row.created_at),
        "last_used_at": _iso(row.last_used_at),
        "revoked": row.revoked_at is not None,
    }


def _iso(at: dt.datetime | None) -> str | None:
    return None if at is None else at.isoformat()


class ApiTokens:
    """Making, listing, revoking and checking personal API tokens."""

    def __init__(self, store: TokenStore, clock: Callable[[], dt.datetime] | None = None) -> None:
        self.store = store
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self._touched: dict[str, dt.datetime] = {}

    async def create(self, who: Identity, label: str | None) -> tuple[ApiTokenRow, str]:
        """A new token of ``who``'s account: its row, and the token itself (shown this once)."""
        if who.guest:
            raise ServiceError("accounts-only", "API tokens are for accounts: sign up first")
        live = [t for t in await self.store.of_account(who.id) if t.revoked_at is None]
        if len(live) >= MAX_TOKENS:
            raise ServiceError("invalid", f"an account holds at most {MAX_TOKENS} live tokens: revoke one")
        token_id = secrets.token_urlsafe(6).replace("_", "x")
        token = make_token(token_id)
        row = await self.store.add(token_id, who.id, digest(token), clean_name(label, 64) or "token")
        return row, token

    async def tokens(self, who: Identity) -> list[ApiTokenRow]:
        if who.guest:
            raise ServiceError("accounts-only", "API tokens are for accounts")
        return await self.store.of_account(who.id)

    async def revoke(self, who: Identity, token_id: str) -> None:
        if not await self.store.revoke(who.id, token_id):
            raise ServiceError("not-found", f"you have no live token {token_id!r}")

    async def authenticate(self, token: str) -> Identity | None:
        """The account of a live token (marked ``api_token``: it opens only the bot API), or None."""
        if not token.startswith(PREFIX) or len(token) > 128:
            return None
        found = await self.store.by_digest(digest(token))
        if found is None:
            return None
        row, account = found
        now = self.clock()
        if is_banned(account, now):  # a moderator closed the account: its programs stop too
            return None
        last = self._touched.get(row.id)
        if last is None or now - last >= TOUCH_EVERY:
            self._touched[row.id] = now
            await self.store.touch(row.id, now)
        return Identity(account.id, account.name, guest=False, bot=bool(account.bot), api_token=True)
