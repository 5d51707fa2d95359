"""Hand review: every decision of every seat of a record, weighed the way the expert weighs its own.

For each *decision* (a moment where the seat to act had two or more moves to choose from, a play and
the same play with a galo call counting as two, A5) :func:`analyse` builds that seat's
:class:`~capicua.rules.hand.SeatView` at that moment, deals worlds consistent with it
(:func:`capicua.bots.worlds.sample_world`) and plays every candidate move in every world
(:func:`capicua.bots.search.evaluate`): a move's *expected points* are its mean over the worlds, the
points of the rest of the hand, the seat's side minus the other side (in individual play: the seat's
points minus the best other seat's). Only the seat's view goes in, never the real hand: the analysis
has no hindsight. A play followed at once by its own ``galo`` call is one decision: the play with galo.

The move played *loses* what its expected points fall short of the best move's (never below 0), and
the loss is labelled with the thresholds below (points of expected loss in one decision). A player's
*accuracy* over a match is the mean, over his decisions, of ``100 · exp(-loss / ACCURACY_SCALE)``: a
decision that loses nothing counts 100, one that loses 15 points 37, one that loses 30 points 14.

Separately, and labelled so, the *open hands* evaluation replays the real hand with every tile known
(:func:`capicua.bots.sim.world_of` of the real hand): an exact alpha-beta search once few tiles are
left, else the mean of play-outs. It says what the best play was in hindsight, which the player could
not know: it never sets a label.

Results are deterministic: the random numbers of each decision are seeded from ``seed`` and the
seat's view at that moment (what the seat saw, so two deals that look the same to it get the same
worlds). ``docs/analysis.md`` describes all of it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from capicua.bots.base import OPTIONAL
from capicua.bots.inference import PlayModel
from capicua.bots.search import GALO_RIGHT, GALO_WRONG, Evaluation, Settings, candidates, evaluate
from capicua.bots.sim import GREEDY, SCORER, SpinnerWorld, TooBig, world_of
from capicua.bots.worlds import knowledge
from capicua.rules.hand import Hand, SeatView
from capicua.rules.moves import GALO, Move, MoveError
from capicua.rules.record import Record, new_match, walk

__all__ = [
    "ACCURACY_SCALE",
    "BLUNDER",
    "DEFAULT_WORLDS",
    "INACCURACY",
    "MISTAKE",
    "Analysis",
    "Decision",
    "MoveValue",
    "OpenHands",
    "PlayerSummary",
    "Position",
    "analyse",
    "analyse_part",
    "assemble",
    "count_decisions",
    "label_of",
    "measure",
    "positions_of",
    "settings_of",
]

#: Expected points lost in one decision from which it is an inaccuracy, a mistake, a blunder.
#: A point is a point of the game's score: in Amazonense every table count is a multiple of 5 and the
#: smallest score is 5, so 5 is one scoring step thrown away; 15 is the first pass's 20 nearly given
#: away; 30 is what a galo call adds to that pass (A5: 50 instead of 20) or a hand's worth of pips in
#: a line game.
INACCURACY = 5.0
MISTAKE = 15.0
BLUNDER = 30.0
#: A decision's accuracy is ``100 · exp(-loss / ACCURACY_SCALE)``.
ACCURACY_SCALE = 15.0
#: Worlds a decision is weighed in, unless asked otherwise.
DEFAULT_WORLDS = 48
#: The search settings: like the expert's (scorer play-outs in Amazonense, a share at random, exact
#: endgames), fixed here so that the analysis does not change when the bot's tuning does.
EXACT_LINE = 16
EXACT_SPINNER = 11
NODES = 30000
EPS = 0.15
PLAYOUTS = 2
#: Open hands: exact search once this many tiles or fewer are left (and within the node budget), else
#: the mean of this many play-outs.
OPEN_EXACT_LINE = 24
OPEN_EXACT_SPINNER = 15
OPEN_NODES = 40000
OPEN_PLAYOUTS = 16


def label_of(loss: float) -> str | None:
    """The word for a decision's loss: ``None`` (fine), ``inaccuracy``, ``mistake`` or ``blunder``.

    >>> [label_of(x) for x in (0, 4.9, 5, 15, 30)]
    [None, None, 'inaccuracy', 'mistake', 'blunder']
    """
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def accuracy_of(losses: list[float]) -> float:
    """A player's accuracy (0–100) over his decisions' losses (100 with no decision)."""
    if not losses:
        return 100.0
    return 100.0 * sum(math.exp(-x / ACCURACY_SCALE) for x in losses) / len(losses)


@dataclass
class MoveValue:
    """A candidate move (record notation, galo included) and its expected points."""

    move: str
    points: float


@dataclass
class OpenHands:
    """The best play with every hand known (hindsight, not what the seat could know)."""

    best: str
    moves: list[MoveValue]
    loss: float  # what the move played lost against that best, with all hands known
    exact: bool  # an exact search (else the mean of play-outs)


@dataclass
class Decision:
    """One decision of one seat."""

    step: int  # index in the record's steps (capicua.rules.record.replay_steps) of the position after the move
    hand: int  # 1-based
    action: int  # the move's 1-based action number in its hand
    seat: int
    played: str
    best: str
    moves: list[MoveValue]  # every candidate, best first
    loss: float
    label: str | None
    worlds: int
    open_hands: OpenHands | None = None

    def points_of(self, move: str) -> float:
        return next(m.points for m in self.moves if m.move == move)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        d = dict(data)
        d["moves"] = [MoveValue(**m) for m in d["moves"]]
        if d.get("open_hands") is not None:
            oh = dict(d["open_hands"])
            oh["moves"] = [MoveValue(**m) for m in oh["moves"]]
            d["open_hands"] = OpenHands(**oh)
        return cls(**d)


@dataclass
class PlayerSummary:
    seat: int
    name: str
    decisions: int
    mean_loss: float
    total_loss: float
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass
class Analysis:
    """A whole record's review."""

    variant: str
    players: list[str]
    worlds: int
    seed: int
    thresholds: dict[str, float]
    decisions: list[Decision]
    summary: list[PlayerSummary]
    steps: int  # how many steps the record has (deals and actions)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        decisions = [Decision.from_json(d) for d in data["decisions"]]
        return cls(
            variant=data["variant"],
            players=list(data["players"]),
            worlds=data["worlds"],
            seed=data["seed"],
            thresholds=dict(data["thresholds"]),
            decisions=decisions,
            summary=[PlayerSummary(**s) for s in data["summary"]],
            steps=data["steps"],
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)


@dataclass
class Position:
    """A decision found in the walk, before it is weighed (the puzzles' search starts from these too)."""

    step: int
    hand: int
    action: int
    seat: int
    view: SeatView
    moves: list[Move]
    played: Move
    real: Hand = field(repr=False)


def positions_of(record: Record, with_real: bool = True) -> tuple[list[Position], int]:
    """Every decision of the record, and the number of steps. Raises RecordError as ``walk`` does."""
    match = new_match(record)
    out: list[Position] = []
    index = -1
    for step in walk(record, match):
        index += 1
        hand = match.hand
        if hand.end is not None:
            continue
        actions = record.hands[step.hand - 1].actions
        nxt = step.action or 0
        if nxt >= len(actions):
            continue
        try:
            seat, move = match.parse_action(actions[nxt])
        except MoveError:
            continue  # not an action here: the walk's next step says so, naming it (RecordError)
        if seat is None or seat != hand.turn or not isinstance(move, Move) or not move.is_play:
            continue
        view = hand.view(seat)
        required = [m for m in view.legal_moves if m not in OPTIONAL and m.is_play]
        if not required:
            continue
        cands = [m for m in candidates(view, required, knowledge(view)) if m.is_play]
        played = move
        if not move.galo and nxt + 1 < len(actions):  # the play's own galo call, right after it (A5)
            after = actions[nxt + 1].split(":", 1)
            if len(after) == 2 and after[0].strip() == str(seat) and after[1].strip() == str(GALO):
                played = move.with_galo()
        if played not in cands:
            cands.append(played)
        if len(cands) < 2:
            continue
        out.append(
            Position(index + 1, step.hand, nxt + 1, seat, view, cands, played, hand.copy() if with_real else hand)
        )
    return out, index + 1


def count_decisions(record: Record) -> int:
    """How many decisions :func:`analyse` will weigh (for a progress bar)."""
    return measure(record)[0]


def measure(record: Record) -> tuple[int, int]:
    """The decisions :func:`analyse` will weigh and the record's steps, in one walk (every check of
    ``capicua replay``: raises RecordError for a record that does not replay)."""
    positions, steps = positions_of(record, with_real=False)
    return len(positions), steps


def _seed_of(seed: int, view: SeatView) -> int:
    text = json.dumps(view.to_json(), sort_keys=True, ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(f"{seed}\n{text}".encode()).digest()[:8], "big")


def settings_of(view: SeatView) -> Settings:
    """How the analysis plays a position's worlds (the puzzles' search weighs them the same way)."""
    spinner = view.layout.get("shape") == "spinner"
    return Settings(
        policy=SCORER if spinner else GREEDY,
        eps=EPS,
        playouts=PLAYOUTS,
        exact_tiles=EXACT_SPINNER if spinner else EXACT_LINE,
        nodes=NODES,
        inference=PlayModel(view),
    )


def _open_hands(real: Hand, seat: int, moves: list[Move], played: Move, rng: random.Random) -> OpenHands | None:
    sim = world_of(real, seat)
    if not sim.supported:
        return None
    plain = [m.without_galo() if m.galo else m for m in moves]
    codes = [sim.code_of(m) for m in plain]
    values: list[float] | None = None
    exact = False
    spinner = isinstance(sim, SpinnerWorld)
    if sim.tiles_left() <= (OPEN_EXACT_SPINNER if spinner else OPEN_EXACT_LINE):
        try:
            table: dict[object, tuple[int, int]] = {}
            values = [float(sim.exact(c, OPEN_NODES, table)) for c in codes]
            exact = True
        except TooBig:
            values = None
    if values is None:
        values = []
        for c in codes:
            total = sum(sim.after(c, SCORER if spinner else GREEDY, EPS, rng) for _ in range(OPEN_PLAYOUTS))
            values.append(total / OPEN_PLAYOUTS)
    if spinner:
        assert isinstance(sim, SpinnerWorld)
        for i, m in enumerate(moves):
            if m.galo:
                values[i] += GALO_RIGHT if sim.galo_right(codes[i]) else GALO_WRONG
    order = _order(moves, values)
    best = order[0]
    mine = values[moves.index(played)]
    return OpenHands(
        best=str(moves[best]),
        moves=[MoveValue(str(moves[i]), round(values[i], 2)) for i in order],
        loss=round(max(0.0, values[best] - mine), 2),
        exact=exact,
    )


def _order(moves: list[Move], values: list[float]) -> list[int]:
    """Best first; equal values: the heaviest tile, then the first listed (as the bots break ties)."""

    def key(i: int) -> tuple[float, int, int, int]:
        tile = moves[i].tile
        return (-round(values[i], 6), -(tile.pips if tile else -1), -(tile.is_double if tile else 0), i)

    return sorted(range(len(moves)), key=key)


def _weigh(pos: Position, worlds: int, seed: int, open_hands: bool) -> Decision | None:
    rng = random.Random(_seed_of(seed, pos.view))
    ev: Evaluation = evaluate(pos.view, pos.moves, rng, settings_of(pos.view), lambda e: e.worlds < worlds)
    if not ev.worlds:
        return None
    means = ev.means()
    order = _order(pos.moves, means)
    best = order[0]
    mine = pos.moves.index(pos.played)
    loss = max(0.0, means[best] - means[mine])
    if loss < 1e-9 or pos.moves[best] == pos.played:
        loss = 0.0
    return Decision(
        step=pos.step,
        hand=pos.hand,
        action=pos.action,
        seat=pos.seat,
        played=str(pos.played),
        best=str(pos.moves[best]),
        moves=[MoveValue(str(pos.moves[i]), round(means[i], 2)) for i in order],
        loss=round(loss, 2),
        label=label_of(round(loss, 2)),
        worlds=ev.worlds,
        open_hands=_open_hands(pos.real, pos.seat, pos.moves, pos.played, random.Random(rng.random()))
        if open_hands
        else None,
    )


def analyse(
    record: Record,
    worlds: int = DEFAULT_WORLDS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    open_hands: bool = True,
) -> Analysis:
    """Weigh every decision of ``record`` (see the module's docstring); ``progress(done, total)`` is told
    after each. Raises :class:`~capicua.rules.record.RecordError` for a record that does not replay."""
    if worlds < 1:
        raise ValueError("an analysis needs at least one world a decision")
    positions, steps = positions_of(record)
    total = len(positions)
    if progress is not None:
        progress(0, total)
    decisions: list[Decision] = []
    for n, pos in enumerate(positions, start=1):
        d = _weigh(pos, worlds, seed, open_hands)
        if d is not None:
            decisions.append(d)
        if progress is not None:
            progress(n, total)
    return assemble(record, decisions, worlds, seed, steps)


def analyse_part(record: Record, start: int, stop: int, worlds: int = DEFAULT_WORLDS, seed: int = 0) -> list[Decision]:
    """The decisions number ``start`` to ``stop`` (excluded) of :func:`analyse`, weighed the same way: a
    pool of workers shares an analysis out in parts, and :func:`assemble` puts them together."""
    positions = positions_of(record)[0][start:stop]
    return [d for d in (_weigh(p, worlds, seed, True) for p in positions) if d is not None]


def assemble(record: Record, decisions: list[Decision], worlds: int, seed: int, steps: int | None = None) -> Analysis:
    """The analysis of ``record`` made of its decisions (in order) with each player's summary."""
    if steps is None:
        steps = positions_of(record, with_real=False)[1]
    return Analysis(
        variant=record.variant,
        players=list(record.players),
        worlds=worlds,
        seed=seed,
        thresholds={"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER, "accuracy_scale": ACCURACY_SCALE},
        decisions=decisions,
        summary=_summary(record.players, decisions),
        steps=steps,
    )


def _summary(players: list[str], decisions: list[Decision]) -> list[PlayerSummary]:
    out = []
    for seat, name in enumerate(players):
        losses = [d.loss for d in decisions if d.seat == seat]
        labels = [d.label for d in decisions if d.seat == seat]
        total = sum(losses)
        out.append(
            PlayerSummary(
                seat=seat,
                name=name,
                decisions=len(losses),
                mean_loss=round(total / len(losses), 2) if losses else 0.0,
                total_loss=round(total, 2),
                accuracy=round(accuracy_of(losses), 1),
                inaccuracies=labels.count("inaccuracy"),
                mistakes=labels.count("mistake"),
                blunders=labels.count("blunder"),
            )
        )
    return out
