"""Guided first hands ("mão guiada"): a fixed deal per game, played against scripted bots, with a prompt for
each of the learner's decisions (issue 22, item 4).

A lesson is data (``<game>.json`` beside this module): the game (and how many play), the learner's seat, the
table options it wants, the deal (and the boneyard, in drawing order), and the script: every action of the
hand in order (``do``, in record notation). The learner's steps add what he is asked (``prompt``, in pt-BR,
es and en), the moves the lesson wants (``want``) and what to say when he picks another legal move
(``wrong``); a bot's step may add a ``note`` that explains what it just did. ``facts`` name every number a
text states (``count``: the table count after the action, ``before``: the count before it, ``points``: what
the learner's side scores by it, ``boneyard``: the tiles in the boneyard before it, ``tiles``: those in the
player's hand before it, ``pips``: the pips of the tile played, or the points of one kind of score:
``pass``, ``galo``, ``batida``…; at the end, ``total``, ``target`` and ``minutes``):
``tests/bots/test_lessons.py`` replays the script through the engine and checks each of them.

The bots at a lesson's table are :class:`ScriptedBot` (spec ``lesson:<game>``): each plays its seat's next
action of the script while the hand follows it, and plays as the greedy bot once it does not (a later hand,
or a learner who went his own way). What the client gets (:meth:`Lesson.public`) holds neither the deal nor
the bots' moves to come: only the learner's prompts, in the order he acts, and the notes by the action
they follow.

>>> lesson = get("amazonense")
>>> lesson.game, lesson.seat, len(lesson.deal), lesson.script[0].do
('amazonense', 0, 4, '0: 6-6')
>>> names()
('amazonense', 'dominousa', 'individual')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from capicua.bots.base import Bot
from capicua.bots.simple import GreedyBot
from capicua.rules.hand import SeatView
from capicua.rules.moves import Move, format_action

__all__ = ["Lesson", "ScriptedBot", "Step", "get", "names"]

#: The languages of a lesson's texts, in the order each text lists them.
LANGUAGES = ("pt-BR", "es", "en")


@dataclass(frozen=True)
class Step:
    """One action of a lesson's script."""

    do: str  #: the action, ``<seat>: <move>``, as the hand's history writes it
    want: tuple[str, ...] = ()  #: the learner's step: the moves it accepts (``do``'s move among them)
    prompt: tuple[str, ...] = ()  #: the learner's step: what he is asked, one text a language
    wrong: tuple[dict[str, Any], ...] = ()  #: ``{"moves": [...], "facts": {...}, "text": [...]}``
    note: tuple[str, ...] = ()  #: a bot's step: what it just did, one text a language
    facts: dict[str, int] = field(default_factory=dict)

    @property
    def seat(self) -> int:
        return int(self.do.split(":")[0])

    @property
    def move(self) -> str:
        return self.do.split(": ", 1)[1]


@dataclass(frozen=True)
class Lesson:
    game: str
    seat: int  #: the learner's seat
    options: dict[str, Any]  #: the table options the lesson is played with (with ``lesson`` itself)
    deal: tuple[tuple[str, ...], ...]
    script: tuple[Step, ...]
    end: dict[str, Any]  #: ``{"facts": {...}, "text": [...]}``: said once the hand is over
    boneyard: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    players: int | None = None  #: how many play (None: the game's usual number)

    def follows(self, history: list[str] | tuple[str, ...]) -> bool:
        """Whether a hand's actions so far (record notation) are the start of the script."""
        return len(history) <= len(self.script) and all(a == s.do for a, s in zip(history, self.script, strict=False))

    def public(self) -> dict[str, Any]:
        """What the learner's client gets: his prompts in the order he acts (``steps[k]``: his k-th action of
        the hand), the notes by the number of actions after which they are said, and the end. No tile of
        another seat, no move to come."""
        steps = []
        notes = []
        for n, step in enumerate(self.script, start=1):
            if step.seat == self.seat:
                wrong = [{"moves": list(w["moves"]), "text": list(w["text"])} for w in step.wrong]
                steps.append({"want": list(step.want), "prompt": list(step.prompt), "wrong": wrong})
            elif step.note:
                notes.append({"after": n, "text": list(step.note)})
        return {
            "game": self.game,
            "seat": self.seat,
            "languages": list(LANGUAGES),
            "steps": steps,
            "notes": notes,
            "end": {"text": list(self.end["text"])},
        }


def _step(data: dict[str, Any]) -> Step:
    return Step(
        do=data["do"],
        want=tuple(data.get("want", ())),
        prompt=tuple(data.get("prompt", ())),
        wrong=tuple(data.get("wrong", ())),
        note=tuple(data.get("note", ())),
        facts=dict(data.get("facts", {})),
    )


@cache
def names() -> tuple[str, ...]:
    """The games that have a lesson."""
    files = resources.files(__package__)
    return tuple(sorted(p.name.removesuffix(".json") for p in files.iterdir() if p.name.endswith(".json")))


@cache
def get(name: str) -> Lesson:
    """The lesson of game ``name`` (ValueError: none)."""
    if name not in names():
        raise ValueError(f"no lesson for {name!r} (lessons: {', '.join(names())})")
    data = json.loads(resources.files(__package__).joinpath(f"{name}.json").read_text(encoding="utf-8"))
    options = {**data.get("options", {}), "lesson": name}
    return Lesson(
        game=data["game"],
        seat=data["seat"],
        options=options,
        deal=tuple(tuple(hand) for hand in data["deal"]),
        script=tuple(_step(s) for s in data["script"]),
        end=data["end"],
        boneyard=tuple(data.get("boneyard", ())),
        extra=dict(data.get("extra", {})),
        players=data.get("players"),
    )


class ScriptedBot(Bot):
    """A lesson's bot: its seat's next action of the script while the hand follows it; else the greedy bot's
    move (so a hand off the script, or a later one, is still played)."""

    name = "lesson"

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.fallback = GreedyBot()

    def act(self, view: SeatView) -> Move | None:
        history = [format_action(seat, move) for seat, move in view.history]
        script = self.lesson.script
        if self.lesson.follows(history) and len(history) < len(script) and view.seat is not None:
            step = script[len(history)]
            if step.seat != view.seat:  # another seat acts next in the script: an optional call is declined,
                return None if view.turn != view.seat else self.fallback.act(view)  # a required move made
            move = Move.parse(step.move)
            if move in view.legal_moves or move.without_galo() in view.legal_moves:
                return move
        return self.fallback.act(view)
