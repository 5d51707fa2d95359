"""Perfect-information Monte Carlo over sampled worlds: what the ``pimc`` and ``expert`` bots share.

For one decision, :func:`evaluate` deals worlds the seat cannot tell from the real hand
(:func:`capicua.bots.worlds.sample_world`), and in each world plays every candidate move and finishes
the hand (:mod:`capicua.bots.sim`): with play-outs, or by exact search once few tiles are left. A
candidate's value is its mean over the worlds (weighted by :class:`~capicua.bots.inference.PlayModel`
when the caller asks for inference): the points of the rest of the hand, ours minus theirs.

Where galo is a call (A5), every play that might make one right is a candidate twice, plain and with
galo: in a world where the call is right it turns the first pass's 20 into 50 (+30, the rest of the hand
the same); wrong, it gives the other team 50.
"""

from __future__ import annotations

import math
import random
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from capicua.bots.base import CarefulBot, layout_of
from capicua.bots.inference import PlayModel
from capicua.bots.scorer import ScorerBot
from capicua.bots.sim import GREEDY, SpinnerWorld, TooBig, world_of
from capicua.bots.worlds import Knowledge, knowledge, sample_world
from capicua.rules import variants
from capicua.rules.hand import Hand, SeatView
from capicua.rules.moves import GALO, Move
from capicua.rules.tiles import NUMBER_MASK, PIPS, mask_of

__all__ = ["GALO_RIGHT", "GALO_WRONG", "Evaluation", "Settings", "candidates", "evaluate"]

GALO_RIGHT = 30  # 50 instead of the first pass's 20 (A4, A5)
GALO_WRONG = -50


@dataclass(frozen=True)
class Settings:
    """How worlds are played out."""

    policy: int = GREEDY  # the play-out policy (capicua.bots.sim)
    eps: float = 0.0  # share of random choices in play-outs
    playouts: int = 1  # play-outs per world and candidate
    exact_tiles: int = 10  # exact search once this many tiles or fewer are left (hands and boneyard)
    nodes: int = 20000  # an exact search's node budget (over it: play-outs)
    inference: PlayModel | None = None


@dataclass
class Evaluation:
    """Each candidate's results over the worlds played."""

    moves: list[Move]
    values: list[list[float]] = field(default_factory=list)  # per world, one value a candidate
    logw: list[float] = field(default_factory=list)  # per world, its log-weight
    exact: int = 0  # worlds searched exactly

    @property
    def worlds(self) -> int:
        return len(self.values)

    def weights(self) -> list[float]:
        if not self.logw:
            return []
        top = max(self.logw)
        return [math.exp(x - top) for x in self.logw]

    def means(self) -> list[float]:
        w = self.weights()
        total = sum(w) or 1.0
        return [sum(wi * v[i] for wi, v in zip(w, self.values, strict=True)) / total for i in range(len(self.moves))]

    def effective_worlds(self) -> float:
        """Kish's effective sample size of the weights."""
        w = self.weights()
        s2 = sum(x * x for x in w)
        return sum(w) ** 2 / s2 if s2 else 0.0

    def best(self) -> int:
        """The candidate with the best mean; equal means: the heaviest tile, then the first."""
        means = self.means()
        return max(range(len(self.moves)), key=lambda i: (round(means[i], 6), _weight(self.moves[i]), -i))

    def margin(self) -> tuple[float, float]:
        """The best mean's lead over the second, and the standard error of that difference."""
        n = self.worlds
        if n < 2 or len(self.moves) < 2:
            return (math.inf, 0.0)
        means = self.means()
        order = sorted(range(len(self.moves)), key=lambda i: -means[i])
        a, b = order[0], order[1]
        w = self.weights()
        total = sum(w)
        diffs = [v[a] - v[b] for v in self.values]
        mean = sum(wi * d for wi, d in zip(w, diffs, strict=True)) / total
        var = sum(wi * (d - mean) ** 2 for wi, d in zip(w, diffs, strict=True)) / total
        return (means[a] - means[b], math.sqrt(var / max(1.0, self.effective_worlds() - 1)))


def candidates(view: SeatView, moves: list[Move], k: Knowledge) -> list[Move]:
    """The moves to weigh: each play, and where galo is a call (A5) the same play with galo when the
    seat would still hold a fitting tile after it (else the call is surely wrong)."""
    out = list(moves)
    if GALO not in variants.get(view.variant).calls:
        return out
    layout = layout_of(view)
    mine = mask_of(view.tiles)
    for move in moves:
        if not move.is_play or move.tile is None:
            continue
        probe = layout.copy()
        if probe.empty:
            probe.lead(move.tile.index)
        else:
            probe.play(move.tile.index, move.end_code)
        fit = 0
        for _, pip in probe.ends:
            fit |= NUMBER_MASK[pip]
        if mine & ~move.tile.mask & fit:
            out.append(move.with_galo())
    return out


def evaluate(
    view: SeatView,
    moves: list[Move],
    rng: random.Random,
    settings: Settings,
    more: Callable[[Evaluation], bool],
    k: Knowledge | None = None,
    deal: Callable[[], Hand | None] | None = None,
) -> Evaluation:
    """Play ``moves`` (plays of the seat to act, galo twins included) in worlds until ``more`` says
    stop (it is asked after each world) or worlds cannot be found. ``deal`` gives each world (None: none found
    this time); by default :func:`~capicua.bots.worlds.sample_world` deals one from the view."""
    assert view.seat is not None
    seat = view.seat
    if k is None:
        k = knowledge(view)
    if deal is None:
        deal = partial(sample_world, view, rng, k, tries=100)
    ev = Evaluation(moves)
    misses = 0
    plain = [m.without_galo() if m.galo else m for m in moves]
    while True:
        world = deal()
        if world is None:
            misses += 1
            if misses >= 3:
                break
            continue
        logw = settings.inference.loglik(world) if settings.inference is not None else 0.0
        ev.values.append(_play(world, seat, moves, plain, rng, settings, ev))
        ev.logw.append(logw)
        if not more(ev):
            break
    return ev


def _play(
    world: Hand, seat: int, moves: list[Move], plain: list[Move], rng: random.Random, settings: Settings, ev: Evaluation
) -> list[float]:
    sim = world_of(world, seat)
    if not sim.supported:
        return [_engine_value(world, seat, m, rng, settings) for m in moves]
    codes = [sim.code_of(m) for m in plain]
    values: list[float] | None = None
    if sim.tiles_left() <= settings.exact_tiles:
        table: dict[object, tuple[int, int]] = {}
        try:
            values = [float(sim.exact(c, settings.nodes, table)) for c in codes]
            ev.exact += 1
        except TooBig:
            values = None
    if values is None:
        values = []
        n = settings.playouts
        for c in codes:
            total = 0
            for _ in range(n):
                total += sim.after(c, settings.policy, settings.eps, rng)
            values.append(total / n)
    if isinstance(sim, SpinnerWorld):
        for i, m in enumerate(moves):
            if m.galo:
                values[i] += GALO_RIGHT if sim.galo_right(codes[i]) else GALO_WRONG
    return values


def _engine_value(world: Hand, seat: int, move: Move, rng: random.Random, settings: Settings) -> float:
    """A world the sim does not play (a touched tile, C7): the engine plays it out, heaviest tile first."""
    probe = world.copy()
    before = list(probe.points)
    probe.push(move, seat)
    while probe.end is None:
        legal = probe.legal_moves
        if len(legal) > 1 and rng.random() >= settings.eps:
            choice = max(legal, key=lambda m: PIPS[m.code >> 4] if m.code < 448 else -1)
        else:
            choice = rng.choice(legal)
        probe.push(choice)
    delta = [p - q for p, q in zip(probe.points, before, strict=True)]
    if probe.partnerships:
        return float(delta[seat & 1] - delta[(seat & 1) ^ 1])
    return float(delta[seat] - max(d for s, d in enumerate(delta) if s != seat))


def _weight(move: Move) -> tuple[int, int]:
    if move.tile is None:
        return (-1, 0)
    return (move.tile.pips, move.tile.is_double)


class SearchingBot(CarefulBot):
    """A bot that weighs its candidates over worlds dealt from its view (:func:`evaluate`): a seeded
    generator, the last decision's evaluation kept (tests, analysis), and the scorer's move when no world
    could be dealt. A subclass says how (:meth:`plan`)."""

    searches = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.fallback = ScorerBot()
        self.last: Evaluation | None = None

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def choose(self, view: SeatView, required: list[Move]) -> Move:
        galo = GALO in variants.get(view.variant).calls
        if len(required) == 1 and not (required[0].is_play and galo):
            return required[0]  # nothing to weigh (where galo is called, a lone play may still carry it)
        settings, more = self.plan(view)  # first: a budget counts from here
        k = knowledge(view)
        moves = candidates(view, self.shortlist(view, required), k)
        ev = evaluate(view, moves, self.rng, settings, more, k, deal=self.dealer(view, k))
        self.last = ev
        if not ev.worlds:
            return self.fallback.choose(view, required)
        return moves[ev.best()]

    def shortlist(self, view: SeatView, required: list[Move]) -> list[Move]:
        """The moves worth searching (all of them here; a subclass may keep the likeliest)."""
        return required

    def dealer(self, view: SeatView, k: Knowledge) -> Callable[[], Hand | None] | None:
        """Where this decision's worlds come from: None, the worlds dealt from the view (``evaluate``'s own).
        Only the bench's reference that sees every hand says otherwise (bench/oracle.py); a player never."""
        return None

    @abstractmethod
    def plan(self, view: SeatView) -> tuple[Settings, Callable[[Evaluation], bool]]:
        """The search's settings for this decision, and whether to deal one more world."""
