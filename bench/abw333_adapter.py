"""Our bots against abw333's ``dominoes`` AI, in abw333's own game: a ``Series`` to 200.

    pip install -e '.[bench]'        # abw333's dominoes
    python bench/abw333_adapter.py [--bot expert:50] [--team 0] [--seed 0]

abw333's game and ours, side by side (read from ``dominoes`` 6.1):

- Game. Both are 4-player partnership block dominoes on a line with the double-six set, 7 tiles a seat, no
  boneyard; seats 0 and 2 against 1 and 3; play goes 0, 1, 2, 3. Dominousa (C1, C3, C4) is the same game.
- Who leads. abw333's first game is led by the holder of 6-6, and ``Game.new`` lays it at once (so nobody
  chooses it). Later games are led, with any tile, by the seat that dominoed, or that blocked the game if
  his team won the block; on a tied block the previous leader leads again; on a lost block the next seat.
  (Dominousa draws for the first lead and then rotates it, C2.) The mirror hand is opened with
  ``leader=game.starting_player``; Dominousa lets the leader lead any tile, so a 6-6 lead is one of its moves.
- Board ends. abw333's ``Board`` keeps dominoes left to right: the left end is ``board[0].first``, the right
  end ``board[-1].second``; ``(domino, True)`` plays on the left. A lead lies as the ``Domino`` object was
  given: ``first`` at the left, ``second`` at the right (abw333's own dominoes are dealt as ``Domino(i, j)``
  with ``i <= j``). So left = our L, right = our R, and a lead ``Domino(a, b)`` is our lead written ``a-b``
  (``Move.play(tile, None, reversed=a < b)``). Our bot's lead ``a-b`` goes back as ``(Domino(a, b), True)``.
- Passes. abw333 passes by itself: ``make_move`` skips the seats that cannot play and records each pass as
  ``None`` in ``game.moves`` (the passes are dropped when the game ends blocked). The mirror replays
  ``game.moves`` from ``starting_player`` in turn order, pushing ``PASS`` for each ``None``. Our bot is asked
  only on its turn, which in abw333 always has a play (a seat with none has been passed already).
- Scoring. The same. Domino: the team scores the pips left in all hands (C3). Blocked: the team with fewer
  pips scores both teams' pips; equal, nobody scores (abw333 0 points, Dominousa C4 annuls the hand).
  abw333 plays until a team has ``target_score`` (200) or more; one team scores per game, so no ties.
- Equal ends. When both ends show the same number abw333's ``valid_moves`` lists a tile once, on the left; its
  ``Board`` takes it on either end, so our bot's ``R`` is played as ``(domino, False)`` as it chose.

Checks, each raising ``MirrorError`` (never skipped, not ``assert``): before our bot is asked, the mirror's
turn, every seat's hand and the open ends L/R equal abw333's (``board.left_end()``/``right_end()``), and the
tiles our engine lets the seat play are those of abw333's ``valid_moves``; our bot's move must be one of
``view.legal_moves`` and become one of abw333's valid moves.

abw333's AI. ``players.probabilistic_alphabeta`` is its strongest player: it deals the hidden tiles in every way
the public facts allow (its own hand, hand sizes, the voids shown by passes), runs a full alpha-beta search
on each, and prefers the move most often best. Its default (every possible deal, from the first move) is out of
reach: 21 hidden tiles make about 4·10^8 deals, and one full search from the first move takes about 3 s here.
So it runs as abw333's players compose (players.py: "Players may be applied one after another"):
``bota_gorda`` (heaviest tile first) orders the moves, then, once ``tiles`` or fewer tiles are left in the
hands, ``probabilistic_alphabeta`` re-ranks them (a stable sort, so ties stay heaviest first) on ``samples``
random possible deals, or on every possible deal when there are at most ``samples`` of them (the exhaustive,
default form). A search over 20 tiles takes about 30 ms, so a decision there is about 1 s.

Seeds: ``random`` (abw333 deals and samples with the global generator) is seeded from ``seed`` and the game
number before each game, so game ``g`` of seed ``s`` has the same deal whichever team our bot is on
(duplicate deals); who leads after the first game depends on the results.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

from capicua.bots.base import Bot
from capicua.bots.registry import make_bot
from capicua.rules.dominousa import DominousaHand
from capicua.rules.moves import LEAD_REVERSED, PASS, Move
from capicua.rules.tiles import Tile, mask_of

try:
    import dominoes
    from dominoes import players as abw333_players
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "bench/abw333_adapter.py needs the PyPI package `dominoes` (abw333): pip install -e '.[bench]'"
    ) from exc

__all__ = ["TARGET", "Abw333Player", "MirrorError", "mirror_hand", "play_series", "to_abw333"]

TARGET = 200
#: probabilistic_alphabeta runs once this many tiles or fewer are left in the hands (about 1 s a decision at 20).
SEARCH_TILES = 20
#: possible deals it searches per decision (all of them when there are no more than this).
SEARCH_SAMPLES = 32


class MirrorError(RuntimeError):
    """Our mirror of the abw333 game disagrees with abw333's game."""


class Abw333Player:
    """abw333's strongest AI as its players compose: ``bota_gorda``, then ``probabilistic_alphabeta``.

    A player in abw333's sense: called with the game, it reorders ``game.valid_moves`` best first.
    """

    def __init__(self, tiles: int = SEARCH_TILES, samples: int = SEARCH_SAMPLES) -> None:
        self.tiles = tiles
        self.samples = samples
        self.sampled = abw333_players.probabilistic_alphabeta(sample_size=samples)
        self.exhaustive = abw333_players.probabilistic_alphabeta()
        self.__name__ = f"bota_gorda+probabilistic_alphabeta(<={tiles} tiles, {samples} deals)"

    def __call__(self, game: Any) -> None:
        abw333_players.bota_gorda(game)
        if sum(len(h) for h in game.hands) > self.tiles:
            return
        if possible_deals(game) <= self.samples:
            self.exhaustive(game)
        else:
            self.sampled(game)


def possible_deals(game: Any) -> int:
    """How many ways the hidden tiles split among the other hands (before the voids rule some out)."""
    sizes = [len(h) for s, h in enumerate(game.hands) if s != game.turn]
    count = math.factorial(sum(sizes))
    for k in sizes:
        count //= math.factorial(k)
    return count


def tile_of(domino: Any) -> Tile:
    return Tile(domino.first, domino.second)


def from_abw333(move: tuple[Any, bool], lead: bool) -> Move:
    """abw333's ``(domino, left)`` as our move; a lead lies ``first`` at L and ``second`` at R."""
    domino, left = move
    tile = tile_of(domino)
    if lead:
        return Move.play(tile, None, reversed=domino.first < domino.second)
    return Move.play(tile, "L" if left else "R")


def to_abw333(move: Move, lead: bool) -> tuple[Any, bool]:
    """Our play as abw333's ``(domino, left)``; our lead ``a-b`` (a at L) is ``Domino(a, b)`` on the left."""
    tile = move.tile
    if tile is None or not move.is_play or move.galo:
        raise MirrorError(f"{move} is not a play abw333 knows")
    if lead:
        if not move.is_lead:
            raise MirrorError(f"{move} is not a lead, but the board is empty")
        if move.end_code == LEAD_REVERSED:
            return dominoes.Domino(tile.low, tile.high), True
        return dominoes.Domino(tile.high, tile.low), True
    if move.end not in ("L", "R"):
        raise MirrorError(f"{move} is not played on L or R")
    return dominoes.Domino(tile.high, tile.low), move.end == "L"


def mirror_hand(game: Any, deal: list[list[Tile]]) -> DominousaHand:
    """Our Dominousa hand at the same point as abw333's ``game``: the same deal, leader and moves.

    Raises :class:`MirrorError` unless the turn, every hand and both open ends agree with abw333's.
    """
    hand = DominousaHand(deal, leader=game.starting_player, strict=False)
    seat = game.starting_player
    for i, move in enumerate(game.moves):
        if hand.turn != seat:
            raise MirrorError(f"move {i} of {game.moves}: abw333 has seat {seat} to move, ours {hand.turn}")
        hand.push(PASS if move is None else from_abw333(move, lead=i == 0), seat)
        seat = dominoes.game.next_player(seat)
    check_mirror(hand, game)
    return hand


def check_mirror(hand: DominousaHand, game: Any) -> None:
    if hand.end is not None or game.result is not None:
        raise MirrorError(f"the mirror ended ({hand.end}) while abw333's game is {game.result}")
    if hand.turn != game.turn:
        raise MirrorError(f"abw333 has seat {game.turn} to move, the mirror seat {hand.turn}")
    for s in range(4):
        if hand.hands[s] != mask_of(tile_of(d) for d in game.hands[s]):
            raise MirrorError(f"seat {s}: abw333 holds {game.hands[s]}, the mirror {list(hand.tiles(s))}")
    if game.board:
        theirs = (game.board.left_end(), game.board.right_end())
        ours = (hand.layout.left, hand.layout.right)
        if ours != theirs:
            raise MirrorError(f"open ends: abw333 has L/R {theirs} ({game.board}), the mirror {ours} {hand.layout!r}")
    elif hand.layout.first is not None:
        raise MirrorError(f"abw333's board is empty, the mirror has {hand.layout!r}")
    ours_tiles = {m.tile for m in hand.legal_moves if m.tile is not None}
    theirs_tiles = {tile_of(d) for d, _ in game.valid_moves}
    if ours_tiles != theirs_tiles:
        raise MirrorError(f"seat {game.turn} may play {sorted(ours_tiles)} in the mirror, {game.valid_moves} in abw333")


def our_move(bot: Bot, game: Any, deal: list[list[Tile]]) -> tuple[tuple[Any, bool], float]:
    """Ask ``bot`` (it sees only the seat's view of the mirror) for abw333's seat to move; its move and time."""
    hand = mirror_hand(game, deal)
    seat = game.turn
    view = hand.view(seat)
    t0 = time.perf_counter()
    move = bot.act(view)
    elapsed = time.perf_counter() - t0
    if move is None or move not in view.legal_moves:
        raise MirrorError(f"{bot} at seat {seat} answered {move}, not one of {list(view.legal_moves)}")
    lead = not game.board
    domino, left = to_abw333(move, lead)
    valid = [(d, lf) for d, lf in game.valid_moves if d == domino]
    if not valid:
        raise MirrorError(f"{move} is not one of abw333's valid moves {game.valid_moves}")
    if not lead:
        end = game.board.left_end() if left else game.board.right_end()
        if end not in domino:
            raise MirrorError(f"{move}: {domino} does not fit abw333's {'left' if left else 'right'} end {end}")
    # Check the translation back: our move, as abw333 will record it, is our move again.
    if from_abw333((domino, left), lead) is not move:
        raise MirrorError(f"{move} does not survive the round trip through abw333 ({domino}, {left})")
    return (domino, left), elapsed


def _reseed(seed: int, game_no: int) -> None:
    random.seed(f"abw333 series {seed} game {game_no}")


def play_series(
    bot_spec: str,
    our_team: int,
    seed: int,
    *,
    target: int = TARGET,
    tiles: int = SEARCH_TILES,
    samples: int = SEARCH_SAMPLES,
) -> dict[str, Any]:
    """Play one abw333 ``Series`` to ``target``: ``bot_spec`` on seats ``our_team`` and ``our_team + 2``,
    abw333's AI on the other two.

    Returns ``won`` (our team reached the target), ``points`` (ours, theirs), ``games``, ``blocked`` and
    ``tied`` games, ``move_times`` (our bot's seconds per decision) and ``abw333_times`` (abw333's).
    """
    if our_team not in (0, 1):
        raise ValueError(f"our_team is 0 (seats 0 and 2) or 1 (seats 1 and 3), not {our_team}")
    ours = {our_team, our_team + 2}
    bots = {s: make_bot(bot_spec, seed * 10 + s) for s in sorted(ours)}
    abw333 = Abw333Player(tiles, samples)
    _reseed(seed, 0)
    series = dominoes.Series(target_score=target)
    move_times: list[float] = []
    abw333_times: list[float] = []
    blocked = tied = 0
    game = series.games[-1]
    while game is not None:
        # The deal, taken before anyone plays (abw333's Hand objects shrink as the game goes). The first
        # game's 6-6 is already laid by Game.new: it goes back into its holder's hand.
        deal = [[tile_of(d) for d in h] for h in game.hands]
        if game.moves:
            # abw333 may also have skipped the seats that cannot answer the 6-6 (recorded as None).
            if game.moves[0] is None or any(m is not None for m in game.moves[1:]):
                raise MirrorError(f"a new game with moves {game.moves}")
            deal[game.starting_player].append(tile_of(game.moves[0][0]))
        while game.result is None:
            if game.turn in ours:
                move, elapsed = our_move(bots[game.turn], game, deal)
                move_times.append(elapsed)
            else:
                t0 = time.perf_counter()
                abw333(game)
                abw333_times.append(time.perf_counter() - t0)
                move = game.valid_moves[0]
            game.make_move(*move)
        if not game.result.won:
            blocked += 1
            tied += game.result.points == 0
        _reseed(seed, len(series.games))
        game = series.next_game()
    scores = series.scores
    return {
        "bot": bot_spec,
        "abw333": abw333.__name__,
        "our_team": our_team,
        "seed": seed,
        "won": scores[our_team] >= target,
        "points": (scores[our_team], scores[1 - our_team]),
        "games": len(series.games),
        "blocked": blocked,
        "tied": tied,
        "move_times": move_times,
        "abw333_times": abw333_times,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert:50", help="our bot (default expert:50)")
    parser.add_argument("--team", type=int, default=0, choices=(0, 1), help="our team (default 0: seats 0 and 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tiles", type=int, default=SEARCH_TILES, help="abw333 searches from this many tiles left")
    parser.add_argument("--samples", type=int, default=SEARCH_SAMPLES, help="possible deals abw333 searches")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    r = play_series(args.bot, args.team, args.seed, tiles=args.tiles, samples=args.samples)
    ms = [1000 * t for t in r["move_times"]]
    theirs = [1000 * t for t in r["abw333_times"]]
    print(
        f"{r['bot']} (team {r['our_team']}) vs abw333 {r['abw333']}, seed {r['seed']}: "
        f"{'won' if r['won'] else 'lost'} {r['points'][0]}-{r['points'][1]} in {r['games']} games "
        f"({r['blocked']} blocked, {r['tied']} tied)\n"
        f"our moves: {len(ms)}, mean {sum(ms) / max(len(ms), 1):.1f} ms, max {max(ms, default=0):.1f} ms; "
        f"abw333 moves: {len(theirs)}, mean {sum(theirs) / max(len(theirs), 1):.1f} ms, "
        f"max {max(theirs, default=0):.1f} ms; {time.perf_counter() - t0:.1f} s"
    )


if __name__ == "__main__":
    main()
