"""How hands and matches end: the structured outcomes (python-chess's ``Outcome`` and ``Termination``).

A finished hand has an :class:`Outcome` (how it ended, who won it); a finished match a
:class:`MatchOutcome`. The values of the terminations are the words records and replays use.

>>> Outcome(Termination.DOMINO, winner=1, seat=3).termination.value
'batida'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["MatchOutcome", "MatchTermination", "Outcome", "Termination"]


class Termination(enum.StrEnum):
    """How a hand ended. The values are the words records and replays use (``end``)."""

    DOMINO = "batida"  #: a player went out (A7, B4, C3): batida / dominó
    BLOCKED = "tranca"  #: nobody can play (A8, B4, C4): tranca / tranque
    ANNULLED = "annulled"  #: a tied tranque (C4) or a referee's annulment (C8)
    AWARDED = "awarded"  #: a referee awarded the match during the hand (C8)
    REDEAL = "redeal"  #: a player with 5 or more doubles asked for a new deal (A6)


@dataclass(frozen=True)
class Outcome:
    """How a hand ended and who won it.

    ``winner`` is the side (team in partnerships, seat otherwise) the hand went to, or
    ``None`` when it went to nobody (a tranca with equal sums, an annulled hand, a redeal).
    ``seat`` is the seat whose action ended it (who went out, who made the blocking play or
    draw), ``None`` for the referee.
    """

    termination: Termination
    winner: int | None
    seat: int | None


class MatchTermination(enum.StrEnum):
    """How a match was decided."""

    TARGET = "target"  #: a side had the target at a hand's end, ahead (A9, B6, C5)
    TIME = "time"  #: the match clock had run out and a hand's end left a side ahead (C5)
    AWARD = "award"  #: a table referee awarded it (C8)
    #: a player left the match (resigned) or let his clock run out three times in a row at a rated table:
    #: his side lost it (decided by the platform, not by the rules: the record says who)
    ABANDON = "abandon"


@dataclass(frozen=True)
class MatchOutcome:
    """A finished match: how it was decided, the winning side, the final totals."""

    termination: MatchTermination
    winner: int
    totals: tuple[int, ...]
