"""What a game is, beyond its hand: the base of every variant, its table options, and outcomes.

A variant (one class per game, in the game's own module, found by name through
:mod:`capicua.rules.variants`) says everything the layers above need to know of a
game: who plays it and how many, whether partners score together, its table options
with their defaults and limits, which calls its players have, whether a match clock
runs, how the next hand opens and when a match is won. Callers ask the variant
instead of comparing game names, as python-chess's ``find_variant`` callers ask the
board class.

How a hand or a match ended is in :mod:`capicua.rules.outcome` (re-exported here). A variant's methods read the
match they decide through :class:`MatchState`, the part of a match they need, so that no game module depends on
:mod:`capicua.rules.match`: the games know only the base classes, the registry (:mod:`capicua.rules.variants`)
lists them, and a :class:`~capicua.rules.match.Match` is made from a variant.

>>> from capicua.rules import variants
>>> v = variants.get("dominousa")
>>> v.partnerships, v.match_clock(v.options(None)), sorted(m.kind for m in v.calls)
(True, 40.0, ['claim'])
>>> v.options({"strict": "yes"})
Traceback (most recent call last):
...
capicua.rules.variant.OptionError: option strict must be true or false (C9), got 'yes'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from capicua.rules.moves import Move, MoveError
from capicua.rules.outcome import MatchOutcome, MatchTermination, Outcome, Termination

if TYPE_CHECKING:
    from capicua.rules.hand import Hand

__all__ = [
    "AUTO_PASS",
    "MOVE_SECONDS",
    "PAUSE_SECONDS",
    "TABLE_OPTIONS",
    "MatchOutcome",
    "MatchState",
    "MatchTermination",
    "Option",
    "OptionError",
    "Outcome",
    "Termination",
    "Variant",
    "target_option",
]


class MatchState(Protocol):
    """What a variant reads of the match it decides (a :class:`~capicua.rules.match.Match` is one)."""

    @property
    def players(self) -> int: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def hands(self) -> list[Hand]: ...

    @property
    def totals(self) -> list[int]: ...

    @property
    def rng(self) -> random.Random: ...


class OptionError(MoveError):
    """A table option that the game does not have, or a value it does not take."""


@dataclass(frozen=True)
class Option:
    """One table option of a game: its type, default and limits, and the rule that asks for it.

    >>> MOVE_SECONDS.check(30), MOVE_SECONDS.to_json()["minimum"]
    (30, 5)
    >>> MOVE_SECONDS.check(True)
    Traceback (most recent call last):
    ...
    capicua.rules.variant.OptionError: option move_seconds must be an integer from 5 to 600 (A10), got True
    """

    name: str
    type: type  #: int, bool or str (a choice)
    default: Any
    rule: str  #: the rule id it comes from; "" for a setting of the table, not of the rules
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> Any:
        """``value`` if this option takes it (no coercion: ``"2"`` is not ``2``); else OptionError."""
        rule = f" ({self.rule})" if self.rule else ""
        if self.type is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name} must be true or false{rule}, got {value!r}")
        elif self.type is int:
            low = self.minimum if self.minimum is not None else -(2**63)
            high = self.maximum if self.maximum is not None else 2**63 - 1
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise OptionError(f"option {self.name} must be {self._range()}{rule}, got {value!r}")
        elif value not in self.choices:
            choices = " or ".join(repr(c) for c in self.choices)
            raise OptionError(f"option {self.name} must be {choices}{rule}, got {value!r}")
        return value

    def _range(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f"an integer from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return "a positive integer" if self.minimum == 1 else f"an integer of at least {self.minimum}"
        return "an integer"

    def to_json(self) -> dict[str, Any]:
        """The option for clients (the variants endpoint, forms)."""
        kind = {bool: "boolean", int: "integer"}.get(self.type, "choice")
        data: dict[str, Any] = {"name": self.name, "type": kind, "default": self.default, "rule": self.rule or None}
        data["help"] = self.help
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        if self.choices:
            data["choices"] = list(self.choices)
        return data


def target_option(default: int, rule: str) -> Option:
    """The points a match is played to (A9, B6, C5): every game has it, with its own default."""
    return Option("target", int, default, rule, "points to win the match", minimum=1)


#: A10: the move clock, a table option of every game.
MOVE_SECONDS = Option("move_seconds", int, 40, "A10", "seconds a move", minimum=5, maximum=600)
#: How long the end of a hand stays on the table (every hand shown, the scores) before the next deal.
PAUSE_SECONDS = Option(
    "pause_seconds", int, 6, "", "seconds the end of a hand stays on the table before the next deal", 0, 30
)
#: Forced passes: when a player's only move is a pass, the table passes for him after a beat.
AUTO_PASS = Option("auto_pass", bool, True, "", "the table passes for a player whose only move is a pass")
#: The settings of every table, whatever its game: carried in its options (and its records) like the game's.
TABLE_OPTIONS = (MOVE_SECONDS, PAUSE_SECONDS, AUTO_PASS)


class Variant:
    """What distinguishes one game from another, as data and methods. One subclass per game,
    one instance of it in the registry (:mod:`capicua.rules.variants`)."""

    #: The name records and the API use.
    name: ClassVar[str]
    #: The game's name for people.
    title: ClassVar[str]
    #: Whether partners (seats 0+2 and 1+3) score together; scores then go to teams 0 and 1.
    partnerships: ClassVar[bool]
    #: How many may play it; the last is the default.
    player_counts: ClassVar[tuple[int, ...]]
    #: The numbers of players quick play offers, the usual one first (empty: the default, ``player_counts[-1]``).
    quick_counts: ClassVar[tuple[int, ...]] = ()
    #: The table options, in the order a form shows them.
    option_specs: ClassVar[tuple[Option, ...]]
    #: The word moves a player of this game may make besides playing and passing (galo, draw, claim…).
    calls: ClassVar[frozenset[Move]]
    #: Whether the table count scores (A2): players then want to see it.
    table_count: ClassVar[bool] = False
    #: The layout's shape: ``spinner`` (4 arms, A1) or ``line`` (2 ends, C1).
    layout: ClassVar[str] = "line"
    #: Whether a table referee's decisions (C8: ``ref(NAME): …`` actions) are part of the game.
    referee: ClassVar[bool] = False
    _one: ClassVar[Variant]
    #: How its rated matches change ratings (D1, D2): ``teams``, the skill of two partnerships (openskill), or
    #: ``points``, zero-sum ranking points from each loser to the single winner (B7, D5).
    rating: ClassVar[str] = "teams"
    #: D3: whether a player's own galos, batidas and table points add a bonus to his rating change.
    rating_bonus: ClassVar[bool] = False

    def __new__(cls) -> Variant:
        """One instance per game, in every process (unpickling makes the class's own again)."""
        made = cls.__dict__.get("_one")
        if made is None:
            made = super().__new__(cls)
            cls._one = made
        return made

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (type(self), ())

    @property
    def defaults(self) -> dict[str, Any]:
        """Every option's default."""
        return {o.name: o.default for o in self.option_specs}

    def option(self, name: str) -> Option | None:
        return next((o for o in self.option_specs if o.name == name), None)

    def options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The table options with defaults filled in, each value checked (OptionError).

        Keys this game does not know are kept as they are: records may carry options
        other tools added (shared/spec/records.md). What a table may be created with is
        :meth:`check_options`.
        """
        opts = self.defaults
        for key, value in (given or {}).items():
            spec = self.option(key)
            opts[key] = spec.check(value) if spec is not None else value
        return opts

    def check_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """:meth:`options` for a new table: an option of another game is refused."""
        for key in given:
            if self.option(key) is None:
                raise OptionError(f"{key} is not an option of {self.title}")
        return self.options(given)

    def check_players(self, players: int | None) -> int:
        """How many play: ``players``, or the game's usual number (None); OptionError if it cannot be."""
        if players is None:
            return self.player_counts[-1]
        if players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise OptionError(f"{self.name} is played by {counts} players, not {players}")
        return players

    def sides(self, players: int) -> int:
        """How many sides score: 2 teams, or every seat."""
        return 2 if self.partnerships else players

    def abandon_winner(self, match: MatchState, seat: int) -> int:
        """The side that wins when ``seat`` abandons the match: the other team in partnerships; else the
        player ahead among the others (the first in turn order after him on equal points)."""
        if self.partnerships:
            return (seat & 1) ^ 1
        totals = match.totals
        others = [(seat + k) % match.players for k in range(1, match.players)]
        return max(others, key=lambda s: (totals[s], -others.index(s)))

    def match_clock(self, options: Mapping[str, Any]) -> float | None:
        """Minutes the match may last (C5), or None: no match clock."""
        return None

    def time_called(self, match: MatchState) -> bool:
        """Whether the match clock has run out (``-: time`` was written)."""
        return False

    def new_hand(
        self,
        match: MatchState,
        deal: Sequence[int],
        boneyard: Sequence[int],
        extra: dict[str, Any],
    ) -> Hand:
        """The next hand of ``match``: ``deal`` holds one tile bitmask per seat, ``boneyard``
        the undealt tile indices in drawing order, ``extra`` a record hand's other fields."""
        raise NotImplementedError

    def outcome(self, match: MatchState) -> MatchOutcome | None:
        """The match's outcome once the current hand has ended, or ``None`` while it goes on."""
        raise NotImplementedError

    def random_extra(self, match: MatchState) -> dict[str, Any]:
        """Record fields a shuffled hand adds (Dominousa's lead draw)."""
        return {}

    def hand_from_setup(self, deal: Sequence[int], boneyard: Sequence[int], setup: dict[str, Any]) -> Hand:
        """A hand with this deal, opened as ``setup`` says (a ``SeatView.setup``): how a player
        builds a possible world from what he sees."""
        raise NotImplementedError

    def boneyard_size(self, players: int) -> int:
        """Every variant deals 7 tiles a seat (B1); the rest is the boneyard."""
        return 28 - 7 * players

    def describe(self) -> dict[str, Any]:
        """The game for clients: what the variants endpoint lists and forms are built from."""
        return {
            "name": self.name,
            "title": self.title,
            "partnerships": self.partnerships,
            "players": list(self.player_counts),
            "quick_players": list(self.quick_counts or self.player_counts[-1:]),
            "options": [o.to_json() for o in self.option_specs],
            "calls": sorted(m.kind for m in self.calls),
            "table_count": self.table_count,
            "layout": self.layout,
            "referee": self.referee,
            "rating": self.rating,
            "match_clock": self.match_clock(self.defaults) is not None,
        }

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"
