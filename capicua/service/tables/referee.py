"""C8: a table referee's decisions, as the web layer receives them (fields) and the engine takes them
(a :class:`~capicua.rules.moves.RefereeAction` written with the referee's name and reason).

>>> decision("Juan Pérez", "fine", seat=2, points=20, reason="a signal to his partner")
RefereeAction(referee='Juan Pérez', decision='fine', seat=2, points=20, tile=None, reason='a signal to his partner')
>>> decision("Juan", "touch", seat=1, reason="dropped it")
Traceback (most recent call last):
...
capicua.service.errors.ServiceError: referee touch takes 2 argument(s): 'ref(Juan): touch 1 "dropped it"'
"""

from __future__ import annotations

import json

from capicua.rules.moves import REFEREE_DECISIONS, MoveError, RefereeAction
from capicua.service.errors import ServiceError

__all__ = ["REFEREE_DECISIONS", "decision"]


def decision(
    referee: str,
    kind: str,
    seat: int | None = None,
    points: int | None = None,
    tile: str | None = None,
    reason: str = "",
) -> RefereeAction:
    """The decision ``kind`` (fine SEAT POINTS, score SIDE POINTS, annul, award SIDE, touch SEAT TILE) of
    ``referee``, with its written ``reason``; ServiceError ``malformed`` if its arguments do not fit."""
    if kind not in REFEREE_DECISIONS:
        raise ServiceError("malformed", f"a referee decides one of {', '.join(REFEREE_DECISIONS)}, not {kind!r}")
    name = referee.replace(")", "").replace("\n", " ").strip() or "referee"
    args = " ".join(str(a) for a in (seat, points, tile) if a is not None)
    text = f"ref({name}): {kind} {args} {json.dumps(reason, ensure_ascii=False)}"
    try:
        return RefereeAction.parse(text)
    except MoveError as exc:
        raise ServiceError("malformed", str(exc)) from None
