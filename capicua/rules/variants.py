"""The games, by name: the one place that lists them (like python-chess's ``find_variant``).

>>> from capicua.rules import variants
>>> variants.get("individual").player_counts
(2, 3, 4)
>>> variants.names()
('amazonense', 'individual', 'dominousa')
>>> variants.get("chess")
Traceback (most recent call last):
...
capicua.rules.variants.UnknownVariant: unknown variant 'chess' (known: amazonense, individual, dominousa)
"""

from __future__ import annotations

from capicua.rules.amazonense import Amazonense
from capicua.rules.dominousa import Dominousa
from capicua.rules.individual import Individual
from capicua.rules.moves import MoveError
from capicua.rules.variant import Variant

__all__ = ["VARIANTS", "UnknownVariant", "all_variants", "get", "names"]


class UnknownVariant(MoveError):
    """A game name that is not one of ours."""


#: Every game, by name, in the order people meet them.
VARIANTS: dict[str, Variant] = {v.name: v for v in (Amazonense(), Individual(), Dominousa())}


def get(name: str) -> Variant:
    """The game called ``name``."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise UnknownVariant(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None


def names() -> tuple[str, ...]:
    return tuple(VARIANTS)


def all_variants() -> tuple[Variant, ...]:
    return tuple(VARIANTS.values())
