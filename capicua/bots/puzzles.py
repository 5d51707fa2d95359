"""Puzzles from real hands ("Desafios"): the decisions where one move is clearly best, from the seat's view.

A *decision* is what the hand review weighs (:mod:`capicua.bots.analysis`): the seat to act with two or more
candidate moves (a play with galo counts apart, A5). :func:`judge` weighs a decision's candidates over
worlds dealt from that seat's view (:func:`capicua.bots.worlds.sample_world`, weighted by
:class:`~capicua.bots.inference.PlayModel`), exactly as the review does, and keeps it as a puzzle only when

- **over worlds**: the best move is best in at least ``share`` (90 %) of ``worlds`` (400) worlds, counted
  plainly and weighted by the inference alike, and its expected points are ahead of the second-best move's by
  at least ``margin`` (10 points); or
- **determined**: what the seat can infer places every unseen tile (:func:`determined`: counts and known
  voids leave each tile one possible holder, and no boneyard order is unknown), so every world is the same
  one: then an exact alpha-beta search of that world decides, and the best move must lead the second by at
  least ``exact_margin`` (5 points: one scoring step of Amazonense).

Moves that are the same in substance (the same tile, the same galo call, the same table points and the same
open numbers after it, only a different arm) are one answer: any of them solves the puzzle, and the margin
is to the best move outside them. A position whose best move depends on a tile the seat cannot see is never a
puzzle: in the worlds where that tile lies elsewhere another move is best, and the share falls under 90 %.

Only the seat's view goes in (the real hand never does), and the random numbers are seeded from ``seed`` and
the view, so the same decision is judged the same way. :func:`themes` tags a puzzle (docs/puzzles.md):

- ``galo``: the answer calls galo (A5);
- ``pontas``: the answer scores table points (the open ends' count is a positive multiple of 5, A2);
- ``passe``: after the answer the next seat has no tile for the open ends in at least ``share`` of the worlds,
  and no boneyard to draw from: he passes (A4's 20 in Amazonense);
- ``batida``: the answer is the seat's last tile, or its last but one (the hand is decided by how it goes out,
  A7, C3);
- ``tranca``: after the answer no tile off the table fits an open end: the hand is locked (A8, C4);
- ``bloqueio``: after the answer every open number is one the next seat is known to lack (he passed or drew
  on it), and the hand is not locked;
- ``contagem``: the position is determined by counting (every unseen tile placed), or the answer opens a
  number whose every tile off the table is in the seat's own hand (he alone can play on it).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from capicua.bots.analysis import positions_of, settings_of
from capicua.bots.base import layout_of
from capicua.bots.inference import PlayModel
from capicua.bots.search import GALO_RIGHT, GALO_WRONG, Settings, _engine_value
from capicua.bots.sim import SpinnerWorld, TooBig, world_of
from capicua.bots.worlds import Knowledge, knowledge, sample_world
from capicua.rules.hand import Hand, SeatView
from capicua.rules.layout import SpinnerLayout
from capicua.rules.moves import Move
from capicua.rules.record import Record
from capicua.rules.tiles import ALL_TILES_MASK, NUMBER_MASK

__all__ = [
    "THEMES",
    "Criteria",
    "Puzzle",
    "determined",
    "judge",
    "puzzles_of_record",
    "self_play",
    "themes",
]

THEMES = ("galo", "pontas", "passe", "batida", "tranca", "bloqueio", "contagem")

#: Exact search of a determined position: the node budget (over it, the position is not a puzzle).
EXACT_NODES = 400_000


@dataclass(frozen=True)
class Criteria:
    """When a decision is a puzzle. The defaults are issue 23's; tests pass smaller ``worlds``."""

    worlds: int = 400  # worlds dealt from the seat's view
    share: float = 0.9  # the best move is best in at least this share of them
    margin: float = 10.0  # and ahead of the second by this many expected points
    exact_margin: float = 5.0  # a determined position: the exact best leads the second by this much
    playouts: int = 4  # play-outs a world and candidate (the review's 2 is noisier)
    screen: int = 32  # first this many worlds: a decision far from the bar is dropped early
    exact_nodes: int = EXACT_NODES


@dataclass
class PuzzleMove:
    """A candidate: its expected points (the seat's side minus the other) and the share of worlds it was best in."""

    move: str
    points: float
    best_share: float


@dataclass
class Puzzle:
    """A decision that is a puzzle, with everything needed to pose it (``view``: the seat's view as JSON, what
    a bot receives: no hidden tile) and to explain it."""

    variant: str
    seat: int
    view: dict[str, Any]
    answers: list[str]  # the right moves (the same in substance); the first is the one shown
    moves: list[PuzzleMove]  # every candidate, best first
    method: str  # "worlds" or "exact"
    worlds: int
    share: float  # of the worlds, those in which an answer was best (1.0 for an exact one)
    margin: float  # expected points of the answer over the best other move
    themes: list[str]
    facts: dict[str, float] = field(default_factory=dict)  # the numbers behind the themes (for "why")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        d = dict(data)
        d["moves"] = [PuzzleMove(**m) for m in d["moves"]]
        return cls(**d)

    def points_of(self, move: str) -> float | None:
        return next((m.points for m in self.moves if m.move == move), None)


# -- what the seat can infer ----------------------------------------------------------------------------------


def determined(view: SeatView, k: Knowledge | None = None) -> bool:
    """Whether what the seat knows places every unseen tile: each has one possible holder once counts and
    voids are propagated, and there is no boneyard whose order is unknown."""
    if k is None:
        k = knowledge(view)
    if k.doubles:
        return False  # A6 facts are counts of doubles: left to the worlds
    if k.unseen and k.boneyard:
        return False
    need = list(k.need)
    left = k.unseen
    while left:
        progress = False
        for t in range(28):
            if not left >> t & 1:
                continue
            holders = [s for s in range(len(need)) if need[s] and not k.voids[s] >> t & 1]
            if not holders:
                return False  # no world at all
            if len(holders) == 1:
                need[holders[0]] -= 1
                left &= ~(1 << t)
                progress = True
        for s in range(len(need)):
            if not need[s]:
                continue
            could = [t for t in range(28) if left >> t & 1 and not k.voids[s] >> t & 1]
            if len(could) == need[s]:  # he must hold every tile he could
                for t in could:
                    left &= ~(1 << t)
                need[s] = 0
                progress = True
        if not progress:
            return False
    return not any(need)


# -- weighing -------------------------------------------------------------------------------------------------


def _seed_of(seed: int, view: SeatView) -> int:
    text = json.dumps(view.to_json(), sort_keys=True, ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(f"puzzle {seed}\n{text}".encode()).digest()[:8], "big")


def _values(
    world: Hand, seat: int, moves: list[Move], settings: Settings, rng: random.Random, exact: bool
) -> list[float]:
    """Each candidate's points in ``world``: the plain plays played out once each (or searched exactly), a
    galo twin the same result with the call's +30 or -50 (common numbers: the call is all that differs)."""
    sim = world_of(world, seat)
    plain = [m.without_galo() if m.galo else m for m in moves]
    distinct = list(dict.fromkeys(plain))
    if not sim.supported:
        got = {m: _engine_value(world, seat, m, rng, settings) for m in distinct}
        return [got[p] for p in plain]
    codes = {m: sim.code_of(m) for m in distinct}
    got = {}
    if exact:
        table: dict[object, tuple[int, int]] = {}
        for m in distinct:
            got[m] = float(sim.exact(codes[m], settings.nodes, table))  # TooBig: the caller's
    else:
        for m in distinct:
            got[m] = (
                sum(sim.after(codes[m], settings.policy, settings.eps, rng) for _ in range(settings.playouts))
                / settings.playouts
            )
    out = [got[p] for p in plain]
    if isinstance(sim, SpinnerWorld):
        for i, m in enumerate(moves):
            if m.galo:
                out[i] += GALO_RIGHT if sim.galo_right(codes[plain[i]]) else GALO_WRONG
    return out


def _after(view: SeatView, move: Move) -> tuple[SpinnerLayout | Any, int]:
    """The layout after ``move`` and the table points it scores (A2; 0 on a line)."""
    probe = layout_of(view).copy()
    assert move.tile is not None
    if probe.empty:
        count = probe.lead(move.tile.index)
    else:
        count = probe.play(move.tile.index, move.end_code)
    points = count if isinstance(probe, SpinnerLayout) and count > 0 and count % 5 == 0 else 0
    return probe, points


def _fit_of(layout: Any) -> int:
    fit = 0
    for _, pip in layout.ends:
        fit |= NUMBER_MASK[pip]
    return fit


def _groups(view: SeatView, moves: list[Move]) -> list[int]:
    """For each move, the index of the first move the same in substance (same tile, same call, same points,
    the same open numbers after it)."""
    keys: dict[tuple[Any, ...], int] = {}
    out = []
    for i, m in enumerate(moves):
        layout, points = _after(view, m)
        key = (m.tile, m.galo, points, tuple(sorted(pip for _, pip in layout.ends)))
        out.append(keys.setdefault(key, i))
    return out


def judge(view: SeatView, moves: list[Move], criteria: Criteria = Criteria(), seed: int = 0) -> Puzzle | None:
    """The puzzle this decision makes (``moves``: its candidates, galo twins included), or None."""
    assert view.seat is not None
    if len(moves) < 2:
        return None
    seat = view.seat
    k = knowledge(view)
    rng = random.Random(_seed_of(seed, view))
    base = settings_of(view)
    settings = Settings(
        policy=base.policy,
        eps=base.eps,
        playouts=criteria.playouts,
        exact_tiles=0,
        nodes=criteria.exact_nodes,
        inference=None,
    )
    groups = _groups(view, moves)
    if determined(view, k):
        world = sample_world(view, rng, k)
        if world is None:
            return None
        try:
            values = _values(world, seat, moves, settings, rng, exact=True)
        except TooBig:
            return None
        return _verdict(view, moves, groups, [values], [0.0], criteria, k, [world], "exact")
    model = PlayModel(view)
    rows: list[list[float]] = []
    logw: list[float] = []
    worlds: list[Hand] = []
    misses = 0
    while len(rows) < criteria.worlds:
        world = sample_world(view, rng, k, tries=100)
        if world is None:
            misses += 1
            if misses >= 3:
                break
            continue
        logw.append(model.loglik(world))
        rows.append(_values(world, seat, moves, settings, rng, exact=False))
        worlds.append(world)
        if len(rows) == criteria.screen and criteria.screen < criteria.worlds:
            if _far(moves, groups, rows, logw, criteria):
                return None
    if len(rows) < criteria.worlds:
        return None  # worlds could not be dealt: too little to decide on
    return _verdict(view, moves, groups, rows, logw, criteria, k, worlds, "worlds")


@dataclass
class _Stats:
    means: list[float]
    best: int
    answer: list[int]  # the moves the same in substance as the best
    margin: float  # the best's expected points over the best other play's
    share: float  # of the worlds, those where an answer was best (the lower of plain and weighted counts)
    per_move: list[float]  # of the worlds, those where each move was best


def _stats(moves: list[Move], groups: list[int], rows: list[list[float]], logw: list[float]) -> _Stats | None:
    top = max(logw)
    w = [math.exp(x - top) for x in logw]
    total = sum(w)
    n = len(moves)
    means = [sum(wi * r[i] for wi, r in zip(w, rows, strict=True)) / total for i in range(n)]
    best = max(range(n), key=lambda i: (round(means[i], 6), -i))
    answer = [i for i in range(n) if groups[i] == groups[best]]
    # A plain answer is measured against the other plays (its own galo twin, a call surely wrong, would make
    # every such decision a puzzle); an answer with galo against its plain twin too (the puzzle is the call).
    others = [
        i
        for i in range(n)
        if groups[i] != groups[best]
        and (moves[best].galo or not (moves[i].galo and _same_play(moves, groups, i, answer)))
    ]
    if not others:
        return None  # one play to make: the only question was a call surely wrong
    margin = means[best] - max(means[i] for i in others)
    best_in: list[bool] = []
    per_move = [0.0] * n
    for r in rows:
        high = max(r)
        best_in.append(max(r[i] for i in answer) >= max(r[i] for i in others))
        for i in range(n):
            if r[i] >= high - 1e-9:
                per_move[i] += 1
    plain_share = sum(best_in) / len(rows)
    weighted_share = sum(wi for wi, b in zip(w, best_in, strict=True) if b) / total
    return _Stats(means, best, answer, margin, min(plain_share, weighted_share), [x / len(rows) for x in per_move])


def _far(moves: list[Move], groups: list[int], rows: list[list[float]], logw: list[float], criteria: Criteria) -> bool:
    """After the first worlds: so far from the bar (a generous cut) that the rest are not worth dealing."""
    st = _stats(moves, groups, rows, logw)
    return st is None or st.share < criteria.share - 0.25 or st.margin < criteria.margin / 2


def _verdict(
    view: SeatView,
    moves: list[Move],
    groups: list[int],
    rows: list[list[float]],
    logw: list[float],
    criteria: Criteria,
    k: Knowledge,
    worlds: list[Hand],
    method: str,
) -> Puzzle | None:
    st = _stats(moves, groups, rows, logw)
    if st is None:
        return None
    need = criteria.exact_margin if method == "exact" else criteria.margin
    if st.margin < need or (method == "worlds" and st.share < criteria.share):
        return None
    means, best = st.means, st.best
    order = sorted(range(len(moves)), key=lambda i: (-round(means[i], 6), i))
    found, facts = themes(view, moves[best], k, worlds, criteria.share, determined_=method == "exact")
    facts["margin"] = round(st.margin, 1)
    return Puzzle(
        variant=view.variant,
        seat=view.seat or 0,
        view=view.to_json(),
        answers=[str(moves[best])] + [str(moves[i]) for i in st.answer if i != best],
        moves=[PuzzleMove(str(moves[i]), round(means[i], 2), round(st.per_move[i], 3)) for i in order],
        method=method,
        worlds=len(rows),
        share=round(st.share, 3),
        margin=round(st.margin, 2),
        themes=found,
        facts=facts,
    )


def _same_play(moves: list[Move], groups: list[int], i: int, answer: list[int]) -> bool:
    """Whether move ``i`` (a galo call) is an answer's play with the call added."""
    plain = moves[i].without_galo()
    return any(groups[moves.index(plain)] == groups[a] for a in answer if plain in moves)


def themes(
    view: SeatView, answer: Move, k: Knowledge, worlds: list[Hand], share: float = 0.9, determined_: bool = False
) -> tuple[list[str], dict[str, float]]:
    """The themes of a puzzle whose answer is ``answer`` (see the module's docstring), and their numbers."""
    assert view.seat is not None and answer.tile is not None
    seat, n = view.seat, view.seats
    found: list[str] = []
    facts: dict[str, float] = {}
    layout, points = _after(view, answer)
    fit = _fit_of(layout)
    on_table = view.on_table | answer.tile.mask
    mine_after = sum(t.mask for t in view.tiles) & ~answer.tile.mask
    nxt = (seat + 1) % n
    if answer.galo:
        found.append("galo")
    if points:
        found.append("pontas")
        facts["points"] = points
    if worlds and view.boneyard == 0 and view.counts[nxt]:
        passes = sum(1 for wld in worlds if not wld.hands[nxt] & fit) / len(worlds)
        facts["pass_share"] = round(passes, 3)
        if passes >= share:
            found.append("passe")
    if len(view.tiles) <= 2:
        found.append("batida")
        facts["tiles"] = len(view.tiles)
    locked = not (fit & ALL_TILES_MASK & ~on_table)
    if locked:
        found.append("tranca")
    else:
        rest = fit & ~on_table & ~mine_after  # the tiles for the open numbers that others may hold
        if rest and view.counts[nxt] and not rest & ~k.voids[nxt]:
            found.append("bloqueio")
    owned = [
        pip
        for pip in sorted({pip for _, pip in layout.ends})
        if NUMBER_MASK[pip] & ~on_table and not NUMBER_MASK[pip] & ~on_table & ~mine_after
    ]
    if determined_ or owned:
        found.append("contagem")
        if owned:
            facts["number"] = owned[0]
    return found, facts


# -- records --------------------------------------------------------------------------------------------------


@dataclass
class Found:
    """A puzzle found in a record: which decision (0-based, in the review's order) and where."""

    decision: int
    hand: int
    action: int
    step: int
    puzzle: Puzzle


def puzzles_of_record(
    record: Record,
    criteria: Criteria = Criteria(),
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[Found]:
    """Every decision of ``record`` that is a puzzle (raises RecordError for a record that does not replay)."""
    positions, _ = positions_of(record, with_real=False)
    out: list[Found] = []
    if progress is not None:
        progress(0, len(positions))
    for i, pos in enumerate(positions):
        p = judge(pos.view, pos.moves, criteria, seed)
        if p is not None:
            out.append(Found(i, pos.hand, pos.action, pos.step, p))
        if progress is not None:
            progress(i + 1, len(positions))
    return out


#: Self-play: the expert at a fixed number of worlds a move (its time budget out of reach), so that a seed
#: gives the same match on any machine and a puzzle's source can be played again.
SELF_PLAY_WORLDS = 48
SELF_PLAY_TARGET = 100


def self_play(variant: str, seed: int, worlds: int = SELF_PLAY_WORLDS, target: int = SELF_PLAY_TARGET) -> Record:
    """A match of four experts (two in a two-player game) from ``seed``: the same match for the same seed."""
    from capicua.bots.driver import play_match
    from capicua.bots.expert import ExpertBot
    from capicua.rules import variants
    from capicua.rules.match import Match

    game = variants.get(variant)
    players = 4 if 4 in game.player_counts else max(game.player_counts)
    match = Match(game, players=players, seed=seed, options={"target": target})
    play_match(match, [ExpertBot(budget_ms=1000, max_worlds=worlds, seed=seed * 10 + s) for s in range(players)])
    return Record.from_match(match, [f"expert {s + 1}" for s in range(players)])
