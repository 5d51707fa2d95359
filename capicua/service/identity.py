"""Who is who: guests and the signed tokens of guests and accounts.

A guest gets a generated name and a signed token; the server keeps nothing
about guests. An account's session token is signed the same way and also carries
the account's session generation: :meth:`capicua.service.accounts.Accounts.authenticate`
checks it against the database, so ending the sessions ends such tokens.

>>> ids = GuestIdentities("test-secret")
>>> who, token = ids.new_guest(seed=1)
>>> ids.authenticate(token) == who
True
>>> ids.authenticate(token + "x") is None
True
>>> account = Identity("a:1", "Ana", guest=False)
>>> ids.authenticate(ids.token_for(account, 3)) is None  # an account needs its generation checked
True
>>> ids.decode(ids.token_for(account, 3)) == (account, 3)
True
"""

from __future__ import annotations

import os
import random
import secrets
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from itsdangerous import BadSignature, URLSafeSerializer

__all__ = [
    "SECRET_LENGTH",
    "GuestIdentities",
    "Identity",
    "IdentityProvider",
    "SecretError",
    "clean_name",
    "generated_name",
    "is_guest_id",
    "load_secret",
]

#: Longest name shown at a table.
NAME_LENGTH = 32

_NAMES = (
    "Tucunaré", "Pirarucu", "Tambaqui", "Jaraqui", "Boto", "Arara", "Tucano", "Sucuri", "Jabuti", "Curió",
    "Sabiá", "Capivara", "Onça", "Mapinguari", "Cupuaçu", "Açaí", "Guaraná", "Tapioca", "Bodó", "Matrinxã",
)  # fmt: skip


@dataclass(frozen=True)
class Identity:
    id: str
    name: str
    guest: bool = True
    #: A bot account: a program plays it over the bot API.
    bot: bool = False
    #: Who came with a personal API token (the bot API): the web layer opens only what docs/bots.md lists to
    #: it. Not part of who he is (the same account either way).
    api_token: bool = field(default=False, compare=False)


def clean_name(name: str | None, length: int = NAME_LENGTH) -> str | None:
    """A display name as people type it: trimmed, runs of spaces made one, at most ``length`` characters;
    None when nothing is left. A name with a control character (NUL, a newline…) or an unpaired
    surrogate is refused (ValueError): names are shown to everyone at a table.

    >>> clean_name("  Ana   Paula "), clean_name("   "), clean_name(None)
    ('Ana Paula', None, None)
    >>> clean_name("Ana" + chr(0))
    Traceback (most recent call last):
    ...
    ValueError: a name may not hold control characters ('\\x00')

    Every space is a space (a no-break one, an ideographic one: Unicode's Zs), made a plain one:

    >>> clean_name("Ana\u00a0Paula\u3000")
    'Ana Paula'
    """
    if name is None:
        return None
    for ch in name:
        if not (ch.isprintable() or unicodedata.category(ch) == "Zs") or 0xD800 <= ord(ch) <= 0xDFFF:
            raise ValueError(f"a name may not hold control characters ({ch!r})")
    return " ".join(name.split())[:length].strip() or None


class IdentityProvider(Protocol):
    def authenticate(self, token: str) -> Identity | None: ...


#: How a guest's id begins (an account's never does).
GUEST_PREFIX = "g:"


def is_guest_id(player_id: str) -> bool:
    """Whether ``player_id`` is a guest's (no account: no bot, no event stream)."""
    return player_id.startswith(GUEST_PREFIX)


def generated_name(rng: random.Random) -> str:
    """A name of the kind guests are given (an Amazonian word and a number): also the neutral name shown for an
    account whose name a moderator hid.

    >>> generated_name(random.Random(1))
    'Boto 682'
    """
    return f"{rng.choice(_NAMES)} {rng.randrange(100, 1000)}"


class GuestIdentities:
    """Guests: a generated name and a token signed with the server's secret."""

    def __init__(self, secret: str) -> None:
        self.signer = URLSafeSerializer(secret, salt="capicua-guest")

    def new_guest(self, name: str | None = None, seed: int | None = None) -> tuple[Identity, str]:
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        name = clean_name(name) or generated_name(rng)
        suffix = secrets.token_hex(8) if seed is None else f"{rng.getrandbits(64):016x}"
        who = Identity(id=f"{GUEST_PREFIX}{suffix}", name=name)
        return who, self.token_for(who)

    def token_for(self, who: Identity, generation: int = 0) -> str:
        """A signed token for a guest, or for an account's session of ``generation``."""
        data: dict[str, object] = {"id": who.id, "name": who.name, "guest": who.guest}
        if who.bot:
            data["bot"] = True
        if not who.guest:
            data["s"] = generation
        return self.signer.dumps(data)

    def decode(self, token: str) -> tuple[Identity, int] | None:
        """The identity a token was signed for, and its session generation (0 for a guest, or for a token
        made before accounts had generations); None if the signature is wrong."""
        try:
            data = self.signer.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not isinstance(data.get("name"), str):
            return None
        generation = data.get("s", 0)
        if not isinstance(generation, int):
            return None
        who = Identity(
            id=data["id"], name=data["name"], guest=bool(data.get("guest", True)), bot=bool(data.get("bot", False))
        )
        return who, generation

    def authenticate(self, token: str) -> Identity | None:
        """A guest, by his token alone; None for anything else (an account's token needs the database)."""
        decoded = self.decode(token)
        return decoded[0] if decoded is not None and decoded[0].guest else None


class SecretError(ValueError):
    """The signing secret given is unusable (the message says why)."""


#: The shortest signing secret taken from the environment or a file (a made one has 43 characters).
SECRET_LENGTH = 32


def load_secret(data_dir: Path, secret_file: Path | None = None) -> str:
    """The server's signing secret: ``CAPICUA_SECRET``, else the file ``secret_file``, else ``secret.key`` in the
    data directory, made once. Every node of one platform must use the same one (their guests, sessions and
    tokens are then good on all of them)."""
    given = os.environ.get("CAPICUA_SECRET")
    where = "CAPICUA_SECRET"
    if not given and secret_file is not None:
        where = str(secret_file)
        try:
            given = secret_file.read_text().strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise SecretError(f"cannot read the secret file {secret_file}: {exc}") from None
    if given is not None and given != "":
        if len(given) < SECRET_LENGTH:
            raise SecretError(f"the secret in {where} is {len(given)} characters: at least {SECRET_LENGTH} are needed")
        return given
    if secret_file is not None:
        raise SecretError(f"the secret file {secret_file} is empty")
    path = data_dir / "secret.key"
    if path.exists():
        return path.read_text().strip()
    secret = secrets.token_urlsafe(32)
    path.write_text(secret)
    path.chmod(0o600)
    return secret
