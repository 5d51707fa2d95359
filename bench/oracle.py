"""The ceiling of the expert's search: the same bot shown every hand (a reference for the bench, never a player).

``oracle:MS`` is the expert (``capicua/bots/expert.py``: its shortlist, play-outs, exact endgames and budget of
``MS`` ms of CPU a move) whose every world is the real hand instead of one dealt from its seat's view. Nothing
else changes, so what it wins against a bot, beside what the expert wins against the same bot on the same
deals, says how much of the gap is the hidden tiles: an honest bot weighs worlds it cannot tell apart, the
oracle weighs the one that is. ``bench/bots.py --ceiling`` plays both (docs/benchmarks.md).

It reads the match it is handed (``prepare``, given to ``capicua.bots.arena.duplicate_match``): a bench's
device; no bot a person meets sees anything but its seat's view (``capicua.bots.base``).
"""

from __future__ import annotations

from collections.abc import Callable

from capicua.bots.base import Bot
from capicua.bots.expert import ExpertBot
from capicua.bots.registry import make_bot
from capicua.bots.worlds import Knowledge
from capicua.rules.hand import Hand, SeatView
from capicua.rules.match import Match

__all__ = ["OracleBot", "make", "prepare"]


class OracleBot(ExpertBot):
    """The expert, its worlds the real hand of the match it is handed."""

    name = "oracle"

    def __init__(self, budget_ms: float = 50, seed: int | None = None) -> None:
        super().__init__(budget_ms, seed)
        self.match: Match | None = None

    def dealer(self, view: SeatView, k: Knowledge) -> Callable[[], Hand | None]:
        assert self.match is not None, "an oracle is handed its match before play (prepare)"
        hand = self.match.hand
        assert view.seat is not None and hand.view(view.seat).tiles == view.tiles, "the match is not the view's"

        def deal() -> Hand:
            return hand.copy()

        return deal


def make(spec: str, seed: int | None = None) -> Bot:
    """``oracle`` or ``oracle:MS`` (50 ms by default), else the registry's bot of ``spec``."""
    name, _, arg = spec.partition(":")
    if name != "oracle":
        return make_bot(spec, seed)
    return OracleBot(float(arg) if arg else 50.0, seed)


def prepare(match: Match, bots: list[Bot]) -> None:
    """Hand the match to its oracles."""
    for bot in bots:
        if isinstance(bot, OracleBot):
            bot.match = match
