"""Who is who: one interface for guests now and accounts later.

A guest gets a generated name and a signed token; the server keeps nothing
about guests. Accounts (a later issue) plug in behind the same interface.

>>> ids = GuestIdentities("test-secret")
>>> who, token = ids.new_guest(seed=1)
>>> ids.authenticate(token) == who
True
>>> ids.authenticate(token + "x") is None
True
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from itsdangerous import BadSignature, URLSafeSerializer

__all__ = ["GuestIdentities", "Identity", "IdentityProvider", "load_secret"]

_NAMES = (
    "Tucunaré", "Pirarucu", "Tambaqui", "Jaraqui", "Boto", "Arara", "Tucano", "Sucuri", "Jabuti", "Curió",
    "Sabiá", "Capivara", "Onça", "Mapinguari", "Cupuaçu", "Açaí", "Guaraná", "Tapioca", "Bodó", "Matrinxã",
)  # fmt: skip


@dataclass(frozen=True)
class Identity:
    id: str
    name: str
    guest: bool = True


class IdentityProvider(Protocol):
    def authenticate(self, token: str) -> Identity | None: ...


class GuestIdentities:
    """Guests: a generated name and a token signed with the server's secret."""

    def __init__(self, secret: str) -> None:
        self.signer = URLSafeSerializer(secret, salt="capicua-guest")

    def new_guest(self, name: str | None = None, seed: int | None = None) -> tuple[Identity, str]:
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        if not name:
            name = f"{rng.choice(_NAMES)} {rng.randrange(100, 1000)}"
        name = name.strip()[:32]
        suffix = secrets.token_hex(8) if seed is None else f"{rng.getrandbits(64):016x}"
        who = Identity(id=f"g:{suffix}", name=name)
        return who, self.token_for(who)

    def token_for(self, who: Identity) -> str:
        """A signed token for a guest or an account."""
        return self.signer.dumps({"id": who.id, "name": who.name, "guest": who.guest})

    def authenticate(self, token: str) -> Identity | None:
        try:
            data = self.signer.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not isinstance(data.get("name"), str):
            return None
        return Identity(id=data["id"], name=data["name"], guest=bool(data.get("guest", True)))


def load_secret(data_dir: Path) -> str:
    """The server's signing secret: kept in the data directory, made once."""
    path = data_dir / "secret.key"
    if path.exists():
        return path.read_text().strip()
    secret = secrets.token_urlsafe(32)
    path.write_text(secret)
    path.chmod(0o600)
    return secret
