"""The one error type of the service layer: a refusal with a code.

Every request the platform refuses (a table that does not exist, a seat that is taken, an
illegal move, a wrong password) raises :class:`ServiceError` with a code from :data:`CODES`.
The web layer maps each code to an HTTP status in one place (``capicua/web/errors.py``) and
sends it as it is over the websocket; clients translate the code.
"""

from __future__ import annotations

import math

__all__ = [
    "CODES",
    "Elsewhere",
    "ServiceError",
]

#: Every code, with what it means.
CODES: dict[str, str] = {
    "invalid": "a request whose fields are missing, of the wrong type or out of range",
    "unauthorized": "no identity, or a wrong username or password",
    "forbidden": "the caller may not do this (a private table without its invite, another's table)",
    "not-found": "no such table, record or player",
    "bad-variant": "a game we do not have",
    "bad-options": "a table option the game does not have, or a combination it does not allow",
    "bad-seat": "a seat number the table does not have",
    "full": "no seat is free",
    "taken": "that seat, or that username, is taken",
    "bad-username": "a username that is not 3 to 24 letters, digits, '.', '_' or '-' of one alphabet",
    "wrong-password": "the current password given to change it is not the account's",
    "api-token": "an API token is for playing (docs/bots.md): it does not open the rest of the account",
    "started": "the match has started (or this is only possible before it)",
    "seats-empty": "the match cannot start with an empty seat",
    "not-finished": "the match is still on",
    "not-seated": "the caller does not sit at this table",
    "not-playing": "no match is being played at this table",
    "malformed": "text that is not an action",
    "illegal": "an action the position does not allow (nothing changed)",
    "stale": "the table moved on while the action was being decided",
    "unavailable": "the action could not be saved, or the server is shutting down: nothing changed, try again",
    "moved": "another server runs the table now: nothing changed; subscribe again and resend",
    "elsewhere": "another server runs the table (and this one cannot reach it: no Redis)",
    "unknown": "the server running the table did not answer in time: the action may have been made; send it again "
    "with the same ref",
    "accounts-only": "rated tables are for account holders (D1): no guests, no bots",
    "not-paused": "no pause between hands to skip (a hand is in play, or the match is over)",
    "chat-closed": "free text is not said during a hand of a strict match (quick messages are)",
    "too-fast": "too many messages: one a second",
    "reserved": "a tournament table's seat kept for another player",
    "one-match": "a tournament's table plays one match: no rematch, no second start",
    "no-referee": "this game has no table referee (C8)",
    "closed": "registration is not open (not yet, or no longer: C10's late entry ends when half the rounds are paired)",
    "registered": "the player is in a team of this tournament already",
    "too-few": "a tournament needs at least two teams to start",
    "round-open": "the round in play has boards without a result (or no round is in play)",
    "bad-pairing": "a pairing by hand that does not pair every active team exactly once",
    "playban": "rated play is closed to the caller for a while: he abandoned rated matches (docs/operations.md, "
    '"Conduct"); ``retry_after`` says when it opens',
    "banned": "a moderator closed this account (until the date the message says, or for good)",
    "muted": "a moderator muted this account: it says nothing at tables for now",
}


class ServiceError(Exception):
    """A request the platform refuses; ``code`` is one of :data:`CODES`, ``message`` says why in words."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        #: Seconds until the same request may be granted (a rate limit, a playban); None: not a matter of time.
        self.retry_after = retry_after

    @property
    def seconds(self) -> int | None:
        """``retry_after`` in whole seconds, as ``Retry-After`` says them (at least 1), or None."""
        return None if self.retry_after is None else max(1, math.ceil(self.retry_after))

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"


class Elsewhere(ServiceError):
    """The table is run by another node, alive: ``node`` (the router forwards the request there)."""

    def __init__(self, table_id: str, node: str) -> None:
        super().__init__("elsewhere", f"table {table_id!r} runs on the server {node!r}")
        self.node = node
