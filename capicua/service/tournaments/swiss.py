"""C10: the Swiss system of tournaments of pairs, as pure functions: the standings and each round's pairing.

A team (a pair of players) is an int id; its results are one :class:`Result` a round: a match played, a
bye, a no-show (forfeit), a match a referee awarded (C8), or a round it missed by entering late.
:func:`standings` ranks the teams: matches won, then point difference, then points for, then the match
between exactly two tied teams, then a draw seeded from the tournament's id. :func:`pair_round` pairs a
round: round 1 by a random draw, later rounds by a minimum-cost perfect matching (rustworkx's blossom
algorithm) that keeps rematches and repeated byes out while it can, gives the bye to the lowest-ranked team
without one, pairs each score group 1st v 2nd, 3rd v 4th, and floats a team that cannot be paired in its
group to the nearest group (:class:`PairingCosts` says exactly what is minimised). :func:`check_pairing`
lists what is wrong with an organiser's hand-made pairing.

>>> results = {
...     1: [Result(1, 2, True, 200, 150)],
...     2: [Result(1, 1, False, 150, 200)],
...     3: [Result(1, 4, True, 200, 90)],
...     4: [Result(1, 3, False, 90, 200)],
...     5: [Result.bye(1)],
... }
>>> ranked = standings(results, "open-2026")
>>> [(s.place, s.team, s.wins, s.difference) for s in ranked]
[(1, 5, 1, 200), (2, 3, 1, 110), (3, 1, 1, 50), (4, 2, 0, -50), (5, 4, 0, -110)]
>>> pair_round(2, ranked, active=[1, 2, 3, 4, 5], forbidden=[], rng=random.Random(7))
Pairing(round=2, pairs=((5, 1), (3, 2)), bye=4)

Team 4 has the bye (the lowest-ranked without one); 1 and 2 have met, so the score group 5, 3, 1 cannot
pair 5 v 3 and float 1 to 2: the least costly pairing without a rematch floats 3 instead.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Literal, get_args

import rustworkx as rx

__all__ = [
    "BYE_POINTS",
    "COMPLETE_UP_TO",
    "FORFEIT_POINTS",
    "KINDS",
    "MET",
    "NEAREST",
    "NO_SHOW_GRACE",
    "NO_SHOW_LIMIT",
    "Kind",
    "Pairing",
    "PairingCosts",
    "Result",
    "Standing",
    "check_pairing",
    "default_rounds",
    "draw_ticket",
    "late_entry_open",
    "no_show",
    "no_show_withdrawals",
    "pair_round",
    "standings",
]

#: A bye counts as a win by this score to nothing (for the ranking only: no match is played).
BYE_POINTS = 200
#: A no-show loses by nothing to this; its opponent wins by this to nothing.
FORFEIT_POINTS = 200
#: The default grace after a round's tables start; a team not seated by then has not shown (a tournament setting).
NO_SHOW_GRACE = timedelta(minutes=5)
#: This many no-shows withdraw a team.
NO_SHOW_LIMIT = 2
#: Fields of at most this many teams are paired on the complete graph at once.
COMPLETE_UP_TO = 64
#: Larger fields first connect each team to this many teams either side of it in the standings (doubled
#: until a pairing without rematches and repeated byes is found; at last the complete graph).
NEAREST = 16

Kind = Literal["played", "bye", "forfeit", "award", "missed"]
#: What a round's result can be: played; a bye; a no-show (the absent team loses 0-200, its opponent wins
#: 200-0); a match a referee awarded (C8); a round a late entrant missed (a loss 0-0).
KINDS: tuple[Kind, ...] = get_args(Kind)
#: The kinds in which two teams sat at a table together: they have met (no rematch; the head-to-head).
#: A no-show's two teams never sat down, so they may be paired again.
MET: frozenset[Kind] = frozenset({"played", "award"})


@dataclass(frozen=True)
class Result:
    """One team's result in one round, as the standings count it.

    ``opponent`` is None for a bye and a missed round. An award (C8) is a win for the awarded team with the
    points both teams had when it was awarded, whatever they were.

    >>> Result.bye(3)
    Result(round=3, opponent=None, won=True, points_for=200, points_against=0, kind='bye')
    >>> Result(2, 7, True, 120, 150, "award").won
    True
    """

    round: int
    opponent: int | None
    won: bool
    points_for: int
    points_against: int
    kind: Kind = "played"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a result is one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.round < 1:
            raise ValueError("rounds are numbered from 1")
        if self.points_for < 0 or self.points_against < 0:
            raise ValueError("points cannot be negative")
        if (self.opponent is None) != (self.kind in ("bye", "missed")):
            raise ValueError(f"a {self.kind} result {'has no' if self.opponent is not None else 'needs an'} opponent")
        score = (self.won, self.points_for, self.points_against)
        if self.kind == "bye" and score != (True, BYE_POINTS, 0):
            raise ValueError(f"a bye is a win {BYE_POINTS}-0")
        if self.kind == "missed" and score != (False, 0, 0):
            raise ValueError("a missed round is a loss 0-0")
        if self.kind == "forfeit" and score not in ((True, FORFEIT_POINTS, 0), (False, 0, FORFEIT_POINTS)):
            raise ValueError(
                f"a no-show is a loss 0-{FORFEIT_POINTS} for the absent team, a win {FORFEIT_POINTS}-0 for the other"
            )

    @classmethod
    def bye(cls, round_no: int) -> Result:
        """A bye: a win 200-0 for the ranking."""
        return cls(round_no, None, True, BYE_POINTS, 0, "bye")

    @classmethod
    def missed(cls, round_no: int) -> Result:
        """A round a late entrant missed: a loss 0-0 (the difference is unchanged)."""
        return cls(round_no, None, False, 0, 0, "missed")


def no_show(round_no: int, absent: int, present: int) -> dict[int, Result]:
    """Both results of a no-show: the absent team loses 0-200, its opponent wins 200-0.

    >>> [(team, r.won, r.points_for, r.points_against) for team, r in no_show(2, absent=4, present=9).items()]
    [(4, False, 0, 200), (9, True, 200, 0)]
    """
    return {
        absent: Result(round_no, present, False, 0, FORFEIT_POINTS, "forfeit"),
        present: Result(round_no, absent, True, FORFEIT_POINTS, 0, "forfeit"),
    }


def no_show_withdrawals(results: Mapping[int, Sequence[Result]]) -> set[int]:
    """The teams a second no-show withdraws (they are not paired again; their results stand).

    >>> no_show_withdrawals({4: [no_show(1, 4, 9)[4], no_show(2, 4, 8)[4]], 9: [no_show(1, 4, 9)[9]]})
    {4}
    """
    return {
        team for team, mine in results.items() if sum(r.kind == "forfeit" and not r.won for r in mine) >= NO_SHOW_LIMIT
    }


def late_entry_open(rounds_paired: int, rounds: int) -> bool:
    """Whether a team may still enter: until half of the tournament's ``rounds`` have been paired. A late
    entrant's missed rounds are :meth:`Result.missed` (losses 0-0).

    >>> [late_entry_open(paired, rounds=5) for paired in range(4)]
    [True, True, True, False]
    """
    return 2 * rounds_paired < rounds


def default_rounds(teams: int) -> int:
    """The default number of rounds, ceil(log2(teams)), at least 1 (the organiser may set more).

    >>> [default_rounds(n) for n in (1, 2, 3, 8, 9, 100, 1000)]
    [1, 1, 2, 3, 4, 7, 10]
    """
    if teams < 0:
        raise ValueError("a number of teams cannot be negative")
    return max(1, (teams - 1).bit_length())


@dataclass(frozen=True)
class Standing:
    """A team's line in the standings; ``opponents`` are the teams it met (:data:`MET`), in round order."""

    team: int
    wins: int
    losses: int
    points_for: int
    points_against: int
    difference: int
    byes: int
    opponents: tuple[int, ...]
    #: 1 for the leader; every place is a different one (the seeded draw breaks every tie).
    place: int


def _draw(tournament_id: str, team: int) -> bytes:
    """The seeded draw's ticket of a team: the lower ticket ranks first."""
    return hashlib.sha256(f"{tournament_id}:{team}".encode()).digest()


def draw_ticket(tournament_id: str, team: int) -> str:
    """A team's ticket in the seeded draw, as the standings show it (the lower ticket ranks first).

    >>> draw_ticket("open-2026", 5)
    '7d84d210'
    """
    return _draw(tournament_id, team).hex()[:8]


def _won_against(mine: Iterable[Result], other: int) -> int:
    """How many of the matches a team met ``other`` in it won."""
    return sum(r.won for r in mine if r.opponent == other and r.kind in MET)


def standings(results: Mapping[int, Sequence[Result]], tournament_id: str) -> list[Standing]:
    """The C10 standings of every team in ``results`` (a team with no result yet is in them too, at zero).

    Order: matches won, then difference (points for − against), then points for; then, when exactly two
    teams are still tied and they met, the one that won more of their matches; then the seeded draw (the
    sha256 of ``f"{tournament_id}:{team}"``: the same for the same tournament, every time).
    """
    lines: dict[int, Standing] = {}
    for team, mine in results.items():
        rounds = [r.round for r in mine]
        if len(set(rounds)) != len(rounds):
            raise ValueError(f"team {team} has two results in one round")
        if any(r.opponent == team for r in mine):
            raise ValueError(f"team {team} cannot play itself")
        points_for = sum(r.points_for for r in mine)
        points_against = sum(r.points_against for r in mine)
        wins = sum(r.won for r in mine)
        lines[team] = Standing(
            team=team,
            wins=wins,
            losses=len(mine) - wins,
            points_for=points_for,
            points_against=points_against,
            difference=points_for - points_against,
            byes=sum(r.kind == "bye" for r in mine),
            opponents=tuple(
                r.opponent for r in sorted(mine, key=lambda r: r.round) if r.opponent is not None and r.kind in MET
            ),
            place=0,
        )

    def score(team: int) -> tuple[int, int, int]:
        s = lines[team]
        return -s.wins, -s.difference, -s.points_for

    ordered: list[int] = []
    for _, group in itertools.groupby(sorted(lines, key=lambda t: (score(t), _draw(tournament_id, t))), key=score):
        tied = list(group)
        if len(tied) == 2:
            first, second = tied
            if _won_against(results[second], first) > _won_against(results[first], second):
                tied = [second, first]
        ordered.extend(tied)
    return [replace(lines[team], place=place) for place, team in enumerate(ordered, start=1)]


@dataclass(frozen=True)
class Pairing:
    """A round's pairing: the pairs in board order (board 1, the top pair by the standings, first; in a pair
    the better-placed team first) and the team with the bye, if any."""

    round: int
    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None


class PairingCosts:
    """What :func:`pair_round` minimises, for the teams of one round (``active``, in the standings' order).

    With the teams at positions 0..n−1 (only the teams being paired count), a pair at positions i < j costs

        score × (wins_i − wins_j)² + (j − i)²  (+ rematch, if they met)

    and the bye to the team at position i costs ``place × (n − 1 − i)`` (+ ``repeat_bye`` × its byes). Each
    weight is larger than everything the terms below it can add up to over a whole pairing, so of two
    pairings the better is the one with fewer repeated byes, then fewer rematches, then the bye on a
    lower-ranked team, then closer scores (the squares make two floats of one group each better than one
    float over two groups: floats go to the nearest group), then closer places — within a score group
    that is 1st v 2nd, 3rd v 4th, and its last team is the one that floats, to the top of the next group.

    >>> costs = PairingCosts([Standing(t, w, 0, 0, 0, 0, 0, (), t) for t, w in ((1, 1), (2, 1), (3, 0))], [1, 2, 3])
    >>> costs.pair(1, 2), costs.pair(1, 3) - costs.pair(2, 3)
    (1, 3)
    """

    def __init__(self, ranked: Sequence[Standing], active: Collection[int]) -> None:
        wanted = set(active)
        order = [s for s in ranked if s.team in wanted]
        missing = wanted - {s.team for s in order}
        if missing:
            raise ValueError(f"teams {sorted(missing)} are to be paired but are not in the standings")
        self.order: tuple[Standing, ...] = tuple(order)
        self.position = {s.team: i for i, s in enumerate(order)}
        n = len(order)
        pairs = (n + 1) // 2  # the bye is a pair too
        gap = max(s.wins for s in order) - min(s.wins for s in order) if order else 0
        below = pairs * (n - 1) ** 2  # the most that distances add up to
        self.score = below + 1
        below += pairs * self.score * gap**2
        self.place = below + 1
        below += self.place * max(n - 1, 0)
        self.rematch = below + 1
        below += pairs * self.rematch
        self.repeat_bye = below + 1

    def met(self, a: int, b: int) -> bool:
        """Whether teams ``a`` and ``b`` have met (:data:`MET`)."""
        return b in self.order[self.position[a]].opponents

    def pair(self, a: int, b: int) -> int:
        """The cost of pairing teams ``a`` and ``b``."""
        i, j = sorted((self.position[a], self.position[b]))
        gap = self.order[i].wins - self.order[j].wins
        return self.score * gap * gap + (j - i) ** 2 + (self.rematch if self.met(a, b) else 0)

    def bye(self, team: int) -> int:
        """The cost of giving ``team`` the bye."""
        i = self.position[team]
        return self.place * (len(self.order) - 1 - i) + self.repeat_bye * self.order[i].byes

    def of(self, pairing: Pairing) -> int:
        """The cost of a whole pairing."""
        return sum(self.pair(a, b) for a, b in pairing.pairs) + (0 if pairing.bye is None else self.bye(pairing.bye))


def _bans(forbidden: Collection[frozenset[int]]) -> dict[int, set[int]]:
    bans: dict[int, set[int]] = {}
    for pair in forbidden:
        if len(pair) != 2:
            raise ValueError(f"a forbidden pair is two teams, not {sorted(pair)}")
        a, b = pair
        bans.setdefault(a, set()).add(b)
        bans.setdefault(b, set()).add(a)
    return bans


def _match(costs: PairingCosts, bans: Mapping[int, set[int]], width: int, clean: bool) -> list[tuple[int, int]]:
    """A maximum matching of least cost (positions; ``n`` stands for the bye) on the graph of pairs at most
    ``width`` apart, never a forbidden one; ``clean``: no rematch and no bye to a team with more than the
    fewest byes either."""
    order, n = costs.order, len(costs.order)
    edges: list[tuple[int, int, int]] = []
    for i, s in enumerate(order):
        banned = bans.get(s.team, ())
        for j in range(i + 1, min(n, i + width + 1)):
            t = order[j].team
            if t not in banned and not (clean and t in s.opponents):
                edges.append((i, j, costs.pair(s.team, t)))
    if n % 2:
        fewest = min(s.byes for s in order)
        edges.extend((i, n, costs.bye(s.team)) for i, s in enumerate(order) if not (clean and s.byes > fewest))
    if not edges:
        return []
    top = max(cost for _, _, cost in edges) + 1  # maximising top − cost over the matchings of most pairs
    graph: rx.PyGraph[int, int] = rx.PyGraph()
    graph.add_nodes_from(range(n + n % 2))
    graph.add_edges_from([(i, j, top - cost) for i, j, cost in edges])
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sorted((min(pair), max(pair)) for pair in matching)


def _widths(n: int) -> list[int]:
    """How far apart in the standings two teams of a field of ``n`` may be, try after try."""
    if n <= COMPLETE_UP_TO:
        return [n]
    widths = [NEAREST]
    while widths[-1] * 2 < n - 1:
        widths.append(widths[-1] * 2)
    return [*widths, n]


def pair_round(
    round_no: int,
    ranked: Sequence[Standing],
    active: Collection[int],
    forbidden: Collection[frozenset[int]],
    rng: random.Random,
) -> Pairing:
    """Pair round ``round_no`` of the teams in ``active`` (registered and not withdrawn, late entrants
    included; each must be in ``ranked``, the standings). ``forbidden``: pairs the organiser keeps apart
    (teammates of one club): never paired, whatever else it costs.

    Round 1, or any round in which no active team has a result yet: a random draw (``rng``): the teams are
    shuffled and paired 1st v 2nd, 3rd v 4th of the shuffled order (the odd one out, last, gets the bye),
    moved as little as forbidden pairs require. Later rounds: the pairing of least :class:`PairingCosts`:
    no rematch and no repeated bye while a pairing without them exists; the bye (an odd number of teams) to
    the lowest-ranked team without one — if every team has had one, to the lowest-ranked of those with
    the fewest; score groups paired 1st v 2nd, 3rd v 4th, and floats to the nearest group.

    Fields of more than :data:`COMPLETE_UP_TO` teams connect each team to the :data:`NEAREST` teams either
    side of it in the standings, doubling that until a pairing without rematches and repeated byes is found (the
    least costly one on that graph); when no such pairing exists at all, the rematches and repeated byes
    are kept as few as possible on the complete graph. Raises ValueError when the forbidden pairs leave no
    pairing at all.
    """
    if round_no < 1:
        raise ValueError("rounds are numbered from 1")
    costs = PairingCosts(ranked, active)
    if all(s.wins + s.losses == 0 for s in costs.order):
        drawn = sorted(costs.order, key=lambda s: s.team)
        rng.shuffle(drawn)
        costs = PairingCosts(drawn, active)
    bans = _bans(forbidden)
    n = len(costs.order)
    vertices = n + n % 2
    for width in _widths(n):
        matching = _match(costs, bans, width, clean=True)
        if 2 * len(matching) == vertices:
            break
    else:
        matching = _match(costs, bans, n, clean=False)
        if 2 * len(matching) < vertices:
            left = sorted(set(range(n)) - {v for pair in matching for v in pair})
            raise ValueError(
                f"round {round_no} cannot be paired: the forbidden pairs leave team(s) "
                f"{', '.join(str(costs.order[i].team) for i in left)} without an opponent"
            )
    teams = [s.team for s in costs.order]
    return Pairing(
        round=round_no,
        pairs=tuple((teams[i], teams[j]) for i, j in matching if j < n),
        bye=next((teams[i] for i, j in matching if j == n), None),
    )


def check_pairing(pairing: Pairing, active: Collection[int], forbidden: Collection[frozenset[int]]) -> list[str]:
    """What is wrong with a (hand-made) pairing: a team twice, a team paired with itself, a team that is not
    active, a forbidden pair, an active team missing. An empty list: nothing.

    >>> check_pairing(Pairing(3, ((1, 2), (3, 1)), bye=None), active=[1, 2, 3, 4], forbidden=[frozenset({1, 2})])
    ['team 1 is in the pairing twice', 'teams 1 and 2 are a forbidden pair', 'team 4 is missing']
    """
    wanted, banned = set(active), {frozenset(p) for p in forbidden}
    seated = [t for pair in pairing.pairs for t in pair] + ([] if pairing.bye is None else [pairing.bye])
    problems = [
        f"team {t} is in the pairing {'twice' if n == 2 else f'{n} times'}" for t, n in Counter(seated).items() if n > 1
    ]
    problems += [f"team {a} is paired with itself" for a, b in pairing.pairs if a == b]
    problems += [
        f"team {t} is not active (withdrawn or not registered)" for t in dict.fromkeys(seated) if t not in wanted
    ]
    problems += [
        f"teams {a} and {b} are a forbidden pair" for a, b in pairing.pairs if frozenset((a, b)) in banned and a != b
    ]
    problems += [f"team {t} is missing" for t in sorted(wanted - set(seated))]
    return problems
