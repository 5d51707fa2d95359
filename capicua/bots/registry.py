"""The bots by name: levels and the specs that build them (``greedy``, ``pimc:24``, ``expert:50``…).

>>> make_bot("expert:50").budget
0.05
>>> make_bot("pimc:48").worlds
48
>>> [level.name for level in LEVELS]
['random', 'greedy', 'heuristic', 'pimc', 'expert']
>>> make_bot("scorer").name
'scorer'
>>> make_bot("grandmaster")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown bot 'grandmaster' (one of random, greedy, heuristic, pimc, expert, scorer, ...)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from capicua.bots.base import Bot
from capicua.bots.expert import ExpertBot
from capicua.bots.heuristic import HeuristicBot
from capicua.bots.lessons import ScriptedBot, get
from capicua.bots.pimc import PimcBot
from capicua.bots.scorer import ScorerBot
from capicua.bots.simple import GreedyBot, RandomBot

__all__ = ["EXPERT_MS", "LEVELS", "Level", "check_spec", "level_names", "make_bot", "measured"]


@dataclass(frozen=True)
class Level:
    """A bot level people can pick: its name, what it does, and how it is built from a spec's argument."""

    name: str
    summary: str
    build: Callable[[str, int | None], Bot]


#: The expert's CPU time a move at the tables (``expert``; ``expert:MS`` sets another).
EXPERT_MS = 200.0


def _expert(arg: str, seed: int | None) -> Bot:
    try:
        budget = float(arg) if arg else EXPERT_MS
    except ValueError:
        raise ValueError(f"bad expert budget {arg!r}: write expert:MILLISECONDS") from None
    if not 0 < budget <= 1000:
        raise ValueError("the expert's budget is 1 to 1000 ms a move")
    return ExpertBot(budget, seed)


def _pimc(arg: str, seed: int | None) -> Bot:
    try:
        worlds = int(arg) if arg else None
    except ValueError:
        raise ValueError(f"bad pimc world count {arg!r}: write pimc:WORLDS") from None
    if worlds is not None and not 1 <= worlds <= 1000:
        raise ValueError("pimc plays 1 to 1000 worlds a move")
    return PimcBot(worlds, seed)


def _no_argument(name: str, build: Callable[[int | None], Bot]) -> Callable[[str, int | None], Bot]:
    def make(arg: str, seed: int | None) -> Bot:
        if arg:
            raise ValueError(f"the {name} bot takes no argument, got {arg!r}")
        return build(seed)

    return make


#: The levels people pick, weakest first: the ladder ``bench/bots.py --ladder`` measures, each beating the one
#: below (the client names them Iniciante, Fácil, Médio, Difícil, Mestre).
LEVELS: tuple[Level, ...] = (
    Level("random", "plays any legal move", _no_argument("random", RandomBot)),
    Level(
        "greedy",
        "takes the most points now; else sheds a double, then its heaviest tile",
        _no_argument("greedy", lambda _: GreedyBot()),
    ),
    Level(
        "heuristic",
        "one ply: the points the move makes, less the reply it allows the next opponent; blocks with the "
        "voids passes showed, keeps tiles that fit, plays doubles early",
        _no_argument("heuristic", lambda _: HeuristicBot()),
    ),
    Level(
        "pimc",
        "plain PIMC: 24 possible deals a move (48 in Dominousa), greedy play-outs; pimc:N sets the count",
        _pimc,
    ),
    Level(
        "expert",
        "searches possible deals weighed by the others' plays, exactly near the end, 200 ms a move; "
        "expert:MS sets the time",
        _expert,
    ),
)


def _lesson(arg: str, seed: int | None) -> Bot:
    return ScriptedBot(get(arg))


#: Bots players are not offered: ``scorer``, the one-ply baseline of issue 14 (the most points a move makes at
#: once), which ``heuristic`` replaced as the middle level and the bench and the command line still build; and
#: a lesson's scripted bots (``lesson:<game>``), seated by the lesson's table itself.
OTHERS: tuple[Level, ...] = (
    Level(
        "scorer",
        "one ply: the most points the move makes at once (table count, galo, pass), else its heaviest tile",
        _no_argument("scorer", lambda _: ScorerBot()),
    ),
    Level("lesson", "plays a guided hand's script (capicua.bots.lessons)", _lesson),
)
_BY_NAME = {level.name: level for level in (*LEVELS, *OTHERS)}


@cache
def measured() -> dict[str, Any]:
    """Each level's strength as the bench measured it: ``levels.json`` beside this module, written by
    ``bench/bots.py --ladder GAME ... --levels capicua/bots/levels.json`` (``measured``: the day; ``command``;
    ``rungs``: a level against the one below in a game, its matches, wins, win rate and 95 % interval)."""
    return dict(json.loads(resources.files("capicua.bots").joinpath("levels.json").read_text("utf-8")))


def level_names() -> tuple[str, ...]:
    """The levels people may pick (a table's bots)."""
    return tuple(level.name for level in LEVELS)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec: ``random``, ``greedy``, ``heuristic``, ``scorer``, ``pimc`` (the game's worlds a move,
    :data:`capicua.bots.pimc.WORLDS`) or ``pimc:WORLDS``, ``expert`` or ``expert:MS`` (time budget per move);
    ``lesson:GAME``, a guided hand's scripted bot."""
    name, _, arg = spec.partition(":")
    level = _BY_NAME.get(name)
    if level is None:
        raise ValueError(f"unknown bot {spec!r} (one of {', '.join(_BY_NAME)}, or pimc:N, expert:MS)")
    return level.build(arg, seed)


def check_spec(spec: str) -> str:
    """``spec`` if it names a bot (ValueError otherwise)."""
    make_bot(spec)
    return spec
