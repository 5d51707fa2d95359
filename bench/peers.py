"""Peer engines for ``bench/engine.py``: random 4-player partnership block hands in other Python packages.

Each ``*_hands(n, seed)`` plays ``n`` random hands with the same harness shape as the capicua rows: deal a new
hand (shuffled by the peer itself, seeded from ``seed``), then a uniformly random legal move until the hand ends,
then read the payoff. It returns the actions made (moves, passes included where the peer models them).

Install the peers with ``pip install -e '.[bench]'``. ``PEERS`` holds only the peers whose package is installed.

- ``dominoes`` (abw333): pure Python. ``Game.new()`` deals with the global ``random`` module; by default seat 0
  leads with any tile. Passes are not in ``valid_moves``: ``make_move`` skips blocked seats itself and records
  each pass as ``None`` in ``game.moves``, so the count here includes them. The board is switched to the
  library's own ``SkinnyBoard`` (ends only; its public API, used by its search players for playouts), the
  fastest way through its public API.
- ``open_spiel`` ``python_team_dominoes``: a Python game behind the C++ ``pyspiel`` state API. The deal is 28
  chance nodes (one tile each, seats 0-3 in turn); seat 0 always leads with any tile; blocked seats are skipped,
  so passes are not actions and the count is plays only (the chance nodes are not counted).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from importlib import metadata
from typing import Any


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def abw333_hands(n: int, seed: int) -> int:
    """Play ``n`` random hands of abw333's ``dominoes``; return the moves made, passes included."""
    try:
        import dominoes
    except ImportError as exc:
        raise ImportError(
            "abw333_hands needs the PyPI package `dominoes` (abw333): pip install 'dominoes>=6.1'"
        ) from exc
    # The library shuffles with the global RNG; the harness draws its moves from it too.
    random.seed(seed)
    choice = random.choice
    new = dominoes.Game.new
    actions = 0
    for _ in range(n):
        game = new()
        game.skinny_board()
        make_move = game.make_move
        while game.result is None:
            make_move(*choice(game.valid_moves))
        actions += len(game.moves)
        _payoff = game.result.points
    return actions


@functools.cache
def _openspiel_game() -> Any:
    try:
        import pyspiel
        from open_spiel.python.games import team_dominoes  # noqa: F401  (registers python_team_dominoes)
    except ImportError as exc:
        raise ImportError(
            "openspiel_hands needs the PyPI package `open_spiel` (import pyspiel): pip install 'open_spiel>=2.0'"
        ) from exc
    return pyspiel.load_game("python_team_dominoes")


def openspiel_hands(n: int, seed: int) -> int:
    """Play ``n`` random hands of OpenSpiel's ``python_team_dominoes``; return the plays made."""
    new_state = _openspiel_game().new_initial_state
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    for _ in range(n):
        state = new_state()
        apply_action = state.apply_action
        while state.is_chance_node():
            # Every remaining tile has the same probability (1 / tiles left), so a uniform pick of the
            # outcomes is a sample of the chance distribution.
            apply_action(choice(state.chance_outcomes())[0])
        legal_actions = state.legal_actions
        while not state.is_terminal():
            apply_action(choice(legal_actions()))
            actions += 1
        _payoff = state.returns()
    return actions


PEERS: dict[str, Callable[[int, int], int]] = {}
if (_abw333 := _version("dominoes")) is not None:
    PEERS[f"dominoes (abw333) {_abw333}"] = abw333_hands
if (_openspiel := _version("open_spiel")) is not None:
    PEERS[f"open_spiel {_openspiel} python_team_dominoes"] = openspiel_hands
