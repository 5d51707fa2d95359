"""C10: the Swiss system of tournaments of pairs — standings, tie-breaks, byes, late entry, withdrawal,
no-shows, awards, and the pairing of a round (no rematches while avoidable, score groups 1v2 3v4, floats
to the nearest group, forbidden pairs), checked against a brute force on small fields.

The pairing tests build standings by hand where only what ``pair_round`` reads matters: a team's wins,
byes and opponents, and its place in the list."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capicua.service.tournaments import swiss
from capicua.service.tournaments.swiss import (
    Pairing,
    PairingCosts,
    Result,
    Standing,
    check_pairing,
    default_rounds,
    late_entry_open,
    no_show,
    no_show_withdrawals,
    pair_round,
    standings,
)

IDS = ("open-2026", "copa-manaus", "t1", "t2", "x")


def line(team: int, wins: int, opponents: Sequence[int] = (), byes: int = 0, losses: int = 1) -> Standing:
    """A standing as the pairing reads it (its points do not matter there)."""
    return Standing(team, wins, losses, 0, 0, 0, byes, tuple(opponents), 0)


def ticket(tournament_id: str, team: int) -> bytes:
    return hashlib.sha256(f"{tournament_id}:{team}".encode()).digest()


def order(results: dict[int, list[Result]], tournament_id: str = "open-2026") -> list[int]:
    return [s.team for s in standings(results, tournament_id)]


def won(round_no: int, opponent: int, points_for: int = 200, points_against: int = 100) -> Result:
    return Result(round_no, opponent, True, points_for, points_against)


def lost(round_no: int, opponent: int, points_for: int = 100, points_against: int = 200) -> Result:
    return Result(round_no, opponent, False, points_for, points_against)


# --- standings ----------------------------------------------------------------------------------------------


def test_C10_standings_rank_by_wins_then_difference_then_points_for() -> None:
    """10: 2 wins. 11 and 12: 1 win, +50 each; 11 has 300 for, 12 has 250. 13: 1 win, 0. 14: no win."""
    results = {
        14: [lost(1, 90, 190, 200), lost(2, 91, 150, 200)],
        13: [won(1, 92, 200, 0), lost(2, 93, 0, 200)],
        12: [won(1, 94, 200, 100), lost(2, 95, 50, 100)],
        11: [won(1, 96, 200, 50), lost(2, 97, 100, 200)],
        10: [won(1, 98, 200, 100), won(2, 99, 200, 190)],
    }
    for tournament_id in IDS:  # no draw is involved: the same order whatever the id
        assert order(results, tournament_id) == [10, 11, 12, 13, 14]
    first, second, third = standings(results, "open-2026")[:3]
    assert first == Standing(10, 2, 0, 400, 290, 110, 0, (98, 99), 1)
    assert (second.difference, second.points_for, second.place) == (50, 300, 2)
    assert (third.difference, third.points_for, third.place) == (50, 250, 3)


def test_C10_head_to_head_breaks_a_tie_of_exactly_two_teams_that_met() -> None:
    """1 and 2: one win each, 350-350: tied after points for; the winner of their match ranks first, for
    every tournament id (the draw is not reached)."""
    results = {1: [won(1, 2, 200, 150), lost(2, 8, 150, 200)], 2: [lost(1, 1, 150, 200), won(2, 9, 200, 150)]}
    assert {tuple(order(results, i)) for i in IDS} == {(1, 2)}
    reversed_ = {1: [lost(1, 2, 150, 200), won(2, 8, 200, 150)], 2: [won(1, 1, 200, 150), lost(2, 9, 150, 200)]}
    assert {tuple(order(reversed_, i)) for i in IDS} == {(2, 1)}


def test_C10_head_to_head_counts_the_meetings_won_and_a_level_one_goes_to_the_draw() -> None:
    """Met twice, tied at 2 wins and 700-700: 1 won both → 1 first. One each: level → the seeded draw."""
    twice = {
        1: [won(1, 2, 200, 150), won(2, 2, 200, 150), lost(3, 8, 150, 200), lost(4, 8, 150, 200)],
        2: [lost(1, 1, 150, 200), lost(2, 1, 150, 200), won(3, 9, 200, 150), won(4, 9, 200, 150)],
    }
    assert {tuple(order(twice, i)) for i in IDS} == {(1, 2)}
    level = {
        1: [won(1, 2, 200, 150), lost(2, 2, 150, 200)],
        2: [lost(1, 1, 150, 200), won(2, 1, 200, 150)],
    }
    for tournament_id in IDS:
        assert order(level, tournament_id) == sorted([1, 2], key=lambda t: ticket(tournament_id, t))
    assert {tuple(order(level, i)) for i in IDS} == {(1, 2), (2, 1)}  # the draw does go both ways


def test_C10_no_head_to_head_for_three_tied_teams_nor_after_a_no_show() -> None:
    """Three teams tied (1 beat 2, 2 beat 3, 3 beat 1, all 200-150): the draw orders them. Two teams tied
    whose only 'match' was a no-show never met: the draw again."""
    cycle = {
        1: [won(1, 2, 200, 150), lost(2, 3, 150, 200)],
        2: [lost(1, 1, 150, 200), won(3, 3, 200, 150)],
        3: [won(2, 1, 200, 150), lost(3, 2, 150, 200)],
    }
    for tournament_id in IDS:
        assert order(cycle, tournament_id) == sorted(cycle, key=lambda t: ticket(tournament_id, t))
    # an id whose draw puts 2 before 1 although 1 beat 2: the head-to-head is not applied among three
    against = next(i for i in (f"t{k}" for k in range(100)) if ticket(i, 2) < ticket(i, 1))
    assert order(cycle, against).index(2) < order(cycle, against).index(1)

    forfeit = {1: [no_show(1, 2, 1)[1], lost(2, 8, 0, 200)], 2: [no_show(1, 2, 1)[2], won(2, 9, 200, 0)]}
    assert {s.team: s.opponents for s in standings(forfeit, "x")} == {1: (8,), 2: (9,)}
    for tournament_id in IDS:
        assert order(forfeit, tournament_id) == sorted([1, 2], key=lambda t: ticket(tournament_id, t))


def test_C10_the_seeded_draw_is_reproducible_and_differs_with_the_tournament() -> None:
    """Eight teams with nothing played: the draw alone orders them, by sha256 of "{id}:{team}"."""
    results: dict[int, list[Result]] = {team: [] for team in range(1, 9)}
    first = order(results, "t1")
    assert first == sorted(results, key=lambda t: ticket("t1", t))
    assert order(dict(reversed(list(results.items()))), "t1") == first  # not the mapping's order
    assert order(results, "t1") == first  # every time
    assert order(results, "t2") != first
    assert [s.place for s in standings(results, "t1")] == list(range(1, 9))


def test_standings_refuse_two_results_in_one_round_and_a_team_against_itself() -> None:
    with pytest.raises(ValueError, match="two results in one round"):
        standings({1: [won(1, 2), lost(1, 3)]}, "x")
    with pytest.raises(ValueError, match="itself"):
        standings({1: [won(1, 1)]}, "x")


# --- byes, late entry, withdrawal, no-shows, awards ---------------------------------------------------------


def test_C10_a_bye_counts_as_a_win_200_0() -> None:
    bye = Result.bye(2)
    assert (bye.won, bye.points_for, bye.points_against, bye.opponent, bye.kind) == (True, 200, 0, None, "bye")
    (s,) = standings({7: [lost(1, 8, 120, 200), bye]}, "x")
    assert (s.wins, s.losses, s.points_for, s.points_against, s.difference, s.byes, s.opponents) == (
        1,
        1,
        320,
        200,
        120,
        1,
        (8,),
    )
    with pytest.raises(ValueError, match="200-0"):
        Result(2, None, True, 100, 0, "bye")


def test_C10_the_bye_goes_to_the_lowest_ranked_team_without_one() -> None:
    """Five teams; 5 (last) had a bye: it goes to 4. The other four pair 1v2, 3v5."""
    ranked = [line(1, 2), line(2, 2), line(3, 1), line(4, 1), line(5, 1, byes=1)]
    pairing = pair_round(3, ranked, [1, 2, 3, 4, 5], [], random.Random(1))
    assert pairing.bye == 4
    assert pairing.pairs == ((1, 2), (3, 5))


def test_C10_when_every_team_had_a_bye_the_lowest_ranked_of_those_with_the_fewest_gets_it() -> None:
    everyone = [line(1, 2, byes=1), line(2, 1, byes=1), line(3, 1, byes=1)]
    assert pair_round(4, everyone, [1, 2, 3], [], random.Random(1)).bye == 3
    twice = [line(1, 2, byes=1), line(2, 1, byes=1), line(3, 1, byes=2)]
    assert pair_round(4, twice, [1, 2, 3], [], random.Random(1)).bye == 2


def simulate(teams: int, rounds: int, seed: int) -> tuple[dict[int, list[Result]], list[Pairing]]:
    """A whole tournament: every round paired by pair_round, random winners."""
    rng = random.Random(seed)
    results: dict[int, list[Result]] = {team: [] for team in range(1, teams + 1)}
    pairings = []
    for round_no in range(1, rounds + 1):
        pairing = pair_round(round_no, standings(results, "sim"), list(results), [], rng)
        pairings.append(pairing)
        for a, b in pairing.pairs:
            points = rng.randrange(200)
            if rng.random() < 0.5:
                a, b = b, a
            results[a].append(won(round_no, b, 200, points))
            results[b].append(lost(round_no, a, points, 200))
        if pairing.bye is not None:
            results[pairing.bye].append(Result.bye(round_no))
    return results, pairings


@pytest.mark.parametrize("teams", [3, 5, 7, 9])
def test_C10_a_team_gets_at_most_one_bye(teams: int) -> None:
    """As many rounds as teams: every team has the bye exactly once, never twice."""
    for seed in range(5):
        _, pairings = simulate(teams, teams, seed)
        byes = [p.bye for p in pairings]
        assert sorted(b for b in byes if b is not None) == list(range(1, teams + 1))


def test_C10_late_entry_missed_rounds_are_losses_0_0() -> None:
    """Team 9 enters in round 3: rounds 1 and 2 are losses 0-0; its difference is untouched; it is paired."""
    results = {
        1: [won(1, 2), won(2, 3)],
        2: [lost(1, 1), won(2, 4)],
        3: [won(1, 4), lost(2, 1)],
        4: [lost(1, 3), lost(2, 2)],
        9: [Result.missed(1), Result.missed(2)],
    }
    late = next(s for s in standings(results, "x") if s.team == 9)
    assert (late.wins, late.losses, late.points_for, late.points_against, late.difference) == (0, 2, 0, 0, 0)
    pairing = pair_round(3, standings(results, "x"), [1, 2, 3, 4, 9], [], random.Random(1))
    assert check_pairing(pairing, [1, 2, 3, 4, 9], []) == []
    assert 9 in {t for pair in pairing.pairs for t in pair} | {pairing.bye}
    with pytest.raises(ValueError, match="0-0"):
        Result(1, None, False, 0, 50, "missed")


def test_C10_late_entry_is_open_until_half_the_rounds_are_paired() -> None:
    assert [late_entry_open(paired, 6) for paired in range(5)] == [True, True, True, False, False]
    assert [late_entry_open(paired, 7) for paired in range(5)] == [True, True, True, True, False]


def test_C10_a_withdrawn_team_is_not_paired_again_and_its_results_stand() -> None:
    """The leader after two rounds withdraws: round 3 pairs the seven others; it keeps its line."""
    results, _ = simulate(8, 2, seed=3)
    before = standings(results, "sim")
    gone = before[0]
    active = [t for t in results if t != gone.team]
    for seed in range(10):
        pairing = pair_round(3, before, active, [], random.Random(seed))
        assert gone.team not in {t for pair in pairing.pairs for t in pair} | {pairing.bye}
    for a, b in pairing.pairs:
        results[a].append(won(3, b))
        results[b].append(lost(3, a))
    assert pairing.bye is not None
    results[pairing.bye].append(Result.bye(3))
    after = {s.team: s for s in standings(results, "sim")}
    assert (after[gone.team].wins, after[gone.team].difference, after[gone.team].opponents) == (
        gone.wins,
        gone.difference,
        gone.opponents,
    )
    assert check_pairing(Pairing(4, ((gone.team, active[0]),)), active, []) != []


def test_C10_a_no_show_loses_0_200_and_a_second_one_withdraws_the_team() -> None:
    first, second = no_show(1, absent=3, present=4), no_show(2, absent=3, present=5)
    assert first[3] == Result(1, 4, False, 0, 200, "forfeit")
    assert first[4] == Result(1, 3, True, 200, 0, "forfeit")
    results = {3: [first[3], second[3]], 4: [first[4]], 5: [second[5]], 6: [no_show(1, 6, 7)[6]]}
    lines = {s.team: s for s in standings(results, "x")}
    assert (lines[3].wins, lines[3].difference, lines[4].wins, lines[4].difference) == (0, -400, 1, 200)
    assert no_show_withdrawals(results) == {3}  # 6 has one no-show only
    # a no-show is not a meeting: the two teams may still be paired
    assert lines[4].opponents == ()
    with pytest.raises(ValueError, match="no-show"):
        Result(1, 4, True, 150, 0, "forfeit")


def test_C10_an_award_is_a_win_with_the_points_both_teams_had() -> None:
    """The referee awards the match to 1 while it trails 80-120 (C8): a win, 80 for, 120 against."""
    results = {1: [Result(1, 2, True, 80, 120, "award")], 2: [Result(1, 1, False, 120, 80, "award")]}
    lines = {s.team: s for s in standings(results, "x")}
    assert (lines[1].wins, lines[1].points_for, lines[1].points_against, lines[1].difference) == (1, 80, 120, -40)
    assert (lines[2].wins, lines[2].losses, lines[2].difference) == (0, 1, 40)
    assert order(results) == [1, 2]
    assert lines[1].opponents == (2,)  # they met: no rematch


# --- pairing ------------------------------------------------------------------------------------------------


def test_C10_no_rematch_where_a_greedy_walk_would_rematch() -> None:
    """A walk down the list pairs 1v2, 3v4 and is left with 5v6, who met. The matching pairs 3v5, 4v6."""
    ranked = [line(1, 2), line(2, 2), line(3, 1), line(4, 1), line(5, 1, [6]), line(6, 1, [5])]
    pairing = pair_round(3, ranked, [1, 2, 3, 4, 5, 6], [], random.Random(1))
    assert pairing == Pairing(3, ((1, 2), (3, 5), (4, 6)), None)


def test_C10_a_rematch_when_it_is_unavoidable() -> None:
    """Four teams after three rounds have all met: round 4 pairs the closest in the standings again."""
    results = {
        1: [won(1, 2), won(2, 3), won(3, 4)],
        2: [lost(1, 1), won(2, 4), won(3, 3)],
        3: [won(1, 4), lost(2, 1), lost(3, 2)],
        4: [lost(1, 3), lost(2, 2), lost(3, 1)],
    }
    ranked = standings(results, "x")
    assert [s.team for s in ranked] == [1, 2, 3, 4]
    assert pair_round(4, ranked, [1, 2, 3, 4], [], random.Random(1)).pairs == ((1, 2), (3, 4))
    # after two rounds the one pairing left without a rematch is taken
    two = {team: mine[:2] for team, mine in results.items()}
    assert pair_round(3, standings(two, "x"), [1, 2, 3, 4], [], random.Random(1)).pairs == ((1, 4), (2, 3))


def test_C10_within_a_score_group_1st_plays_2nd_and_3rd_plays_4th() -> None:
    ranked = [line(t, 2 if t <= 4 else 1) for t in range(1, 9)]
    assert pair_round(3, ranked, range(1, 9), [], random.Random(1)).pairs == ((1, 2), (3, 4), (5, 6), (7, 8))


def test_C10_an_odd_group_floats_its_last_team_to_the_top_of_the_nearest_group() -> None:
    """Groups of 3 (2 wins), 4 (1 win) and 3 (no win): 3 floats to 4, then 7 to 8."""
    wins = [2, 2, 2, 1, 1, 1, 1, 0, 0, 0]
    ranked = [line(t, w) for t, w in enumerate(wins, start=1)]
    pairing = pair_round(3, ranked, range(1, 11), [], random.Random(1))
    assert pairing.pairs == ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10))
    # a float goes one group down: 3 (2 wins) v 4 (1 win), not v 5 (no win)
    ranked = [line(t, w) for t, w in enumerate([2, 2, 2, 1, 0, 0], start=1)]
    assert pair_round(3, ranked, range(1, 7), [], random.Random(1)).pairs == ((1, 2), (3, 4), (5, 6))


def test_C10_a_float_goes_to_the_nearest_group_not_over_two() -> None:
    """Wins 3 2 2 1 1 0; 1 has met 2, 2 has met 4. 1 (alone at 3 wins) floats to 3 (2 wins): 1v3, 2v5, 4v6,
    three floats of one group each — not 1v4 (a float over two groups), 2v3, 5v6, though closer in places."""
    wins, met = [3, 2, 2, 1, 1, 0], {1: [2], 2: [1, 4], 4: [2]}
    ranked = [line(t, w, met.get(t, ())) for t, w in enumerate(wins, start=1)]
    assert pair_round(3, ranked, range(1, 7), [], random.Random(1)).pairs == ((1, 3), (2, 5), (4, 6))


def test_C10_equal_scores_come_before_closer_places() -> None:
    """Wins 2 2 1 1 1 0; 3 has met 4 and 5. 1v2, 3v6, 4v5 (one float, places 1+9+1 apart²) beats
    1v3, 2v4, 5v6 (three floats, though only 4+4+1 apart²)."""
    wins, met = [2, 2, 1, 1, 1, 0], {3: [4, 5], 4: [3], 5: [3]}
    ranked = [line(t, w, met.get(t, ())) for t, w in enumerate(wins, start=1)]
    assert pair_round(3, ranked, range(1, 7), [], random.Random(1)).pairs == ((1, 2), (3, 6), (4, 5))


def test_C10_forbidden_pairs_are_never_paired_even_at_the_price_of_a_rematch() -> None:
    ranked = [line(t, 1) for t in (1, 2, 3, 4)]
    assert pair_round(2, ranked, [1, 2, 3, 4], [frozenset({1, 2})], random.Random(1)).pairs == ((1, 3), (2, 4))
    # 1 may play only 4, whom it met: the rematch it is
    ranked = [line(1, 1, [4]), line(2, 1), line(3, 1), line(4, 1, [1])]
    forbidden = [frozenset({1, 2}), frozenset({1, 3})]
    assert pair_round(2, ranked, [1, 2, 3, 4], forbidden, random.Random(1)).pairs == ((1, 4), (2, 3))
    with pytest.raises(ValueError, match=r"forbidden pairs leave team\(s\) 1, 2 without an opponent"):
        pair_round(2, ranked[:2], [1, 2], [frozenset({1, 2})], random.Random(1))


def test_C10_round_1_is_a_random_draw() -> None:
    results: dict[int, list[Result]] = {team: [] for team in range(1, 7)}
    ranked = standings(results, "x")
    draws = [pair_round(1, ranked, list(results), [], random.Random(seed)) for seed in range(300)]
    assert draws[0] == pair_round(1, ranked[::-1], list(results), [], random.Random(0))  # reproducible
    met = {frozenset(pair) for d in draws for pair in d.pairs}
    assert len(met) == 15  # every pair of the six is drawn some time
    assert all(check_pairing(d, list(results), []) == [] for d in draws)
    five = [s.team for s in ranked[:5]]
    odd = [pair_round(1, ranked[:5], five, [], random.Random(seed)).bye for seed in range(100)]
    assert set(odd) == {s.team for s in ranked[:5]}  # anyone may draw the bye
    forbidden = [frozenset({1, 2}), frozenset({3, 4})]
    for seed in range(100):
        draw = pair_round(1, ranked, list(results), forbidden, random.Random(seed))
        assert check_pairing(draw, list(results), forbidden) == []


def test_pair_round_refuses_a_team_missing_from_the_standings() -> None:
    with pytest.raises(ValueError, match=r"teams \[3\] are to be paired but are not in the standings"):
        pair_round(2, [line(1, 1), line(2, 0)], [1, 2, 3], [], random.Random(1))
    with pytest.raises(ValueError, match="numbered from 1"):
        pair_round(0, [line(1, 1), line(2, 0)], [1, 2], [], random.Random(1))


def test_C10_large_fields_pair_on_the_nearest_and_find_the_complete_graphs_optimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """150 teams (more than COMPLETE_UP_TO): each round on the sparse graph costs what the complete graph's
    optimum costs, and no round rematches."""
    results, pairings = simulate(150, 8, seed=5)
    assert len(results) > swiss.COMPLETE_UP_TO
    replay: dict[int, list[Result]] = {team: [] for team in results}
    for pairing in pairings:
        ranked = standings(replay, "sim")
        lines = {s.team: s for s in ranked}
        assert not any(b in lines[a].opponents for a, b in pairing.pairs)
        if pairing.round > 1:
            costs = PairingCosts(ranked, results)
            with monkeypatch.context() as patch:
                patch.setattr(swiss, "COMPLETE_UP_TO", 10_000)
                complete = pair_round(pairing.round, ranked, results, [], random.Random(0))
            assert costs.of(pairing) == costs.of(complete)
        for team, mine in results.items():
            replay[team] = [r for r in mine if r.round <= pairing.round]


# --- the brute force ----------------------------------------------------------------------------------------


def pairings(teams: list[int]) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    """Every pairing of ``teams`` (a bye for one of them if they are odd)."""

    def perfect(rest: list[int]) -> Iterator[list[tuple[int, int]]]:
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for k, other in enumerate(others):
            for tail in perfect(others[:k] + others[k + 1 :]):
                yield [(first, other), *tail]

    if len(teams) % 2 == 0:
        for pairs in perfect(teams):
            yield pairs, None
    else:
        for k, bye in enumerate(teams):
            for pairs in perfect(teams[:k] + teams[k + 1 :]):
                yield pairs, bye


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Standing], list[int], list[frozenset[int]], int]:
    """A small field after a few random rounds (random pairings, random winners, byes), some teams
    withdrawn, a few forbidden pairs."""
    teams = draw(st.integers(2, 12))
    played = draw(st.integers(1, 6))
    rng = draw(st.randoms(use_true_random=False))
    results: dict[int, list[Result]] = {team: [] for team in range(1, teams + 1)}
    for round_no in range(1, played + 1):
        order = list(results)
        rng.shuffle(order)
        if teams % 2:
            results[order.pop()].append(Result.bye(round_no))
        for a, b in zip(order[::2], order[1::2], strict=True):
            points = rng.randrange(200)
            results[a].append(won(round_no, b, 200, points))
            results[b].append(lost(round_no, a, points, 200))
    active = draw(st.lists(st.sampled_from(list(results)), min_size=1, unique=True))
    pairs = st.tuples(st.sampled_from(list(results)), st.sampled_from(list(results))).filter(lambda p: p[0] != p[1])
    forbidden = [frozenset(p) for p in draw(st.lists(pairs, max_size=3))]
    return standings(results, "h"), sorted(active), forbidden, played + 1


def brute_force(
    ranked: list[Standing], active: list[int], forbidden: list[frozenset[int]], round_no: int
) -> list[tuple[int, Pairing]]:
    costs = PairingCosts(ranked, active)
    out = []
    for pairs, bye in pairings(active):
        candidate = Pairing(round_no, tuple(pairs), bye)
        if not any(frozenset(p) in forbidden for p in pairs):
            out.append((costs.of(candidate), candidate))
    return out


def flaws(pairing: Pairing, ranked: list[Standing]) -> tuple[int, int]:
    """(byes the bye's team already had, rematches): what C10 keeps out while it can, the first worse."""
    lines = {s.team: s for s in ranked}
    byes = 0 if pairing.bye is None else lines[pairing.bye].byes
    return byes - min(lines[t].byes for t in lines), sum(b in lines[a].opponents for a, b in pairing.pairs)


@settings(max_examples=200, deadline=None)
@given(histories())
def test_C10_the_pairing_is_the_brute_force_optimum(
    field: tuple[list[Standing], list[int], list[frozenset[int]], int],
) -> None:
    """On fields up to 12 teams: the pairing costs the least any pairing costs, it repeats a bye or a
    meeting no more than the best pairing must, and where no pairing avoids the forbidden pairs it says so."""
    ranked, active, forbidden, round_no = field
    candidates = brute_force(ranked, active, forbidden, round_no)
    if not candidates:
        with pytest.raises(ValueError, match="forbidden"):
            pair_round(round_no, ranked, active, forbidden, random.Random(0))
        return
    pairing = pair_round(round_no, ranked, active, forbidden, random.Random(0))
    assert check_pairing(pairing, active, forbidden) == []
    costs = PairingCosts(ranked, active)
    assert costs.of(pairing) == min(cost for cost, _ in candidates)
    mine = [s for s in ranked if s.team in active]
    assert flaws(pairing, mine) == min(flaws(c, mine) for _, c in candidates)
    places = [s.team for s in mine]
    boards = [min(places.index(a), places.index(b)) for a, b in pairing.pairs]
    assert boards == sorted(boards)  # board order: by the better-placed team
    assert all(places.index(a) < places.index(b) for a, b in pairing.pairs)


@settings(max_examples=100, deadline=None)
@given(histories())
def test_C10_widening_the_sparse_graph_finds_a_pairing_without_rematches_when_there_is_one(
    field: tuple[list[Standing], list[int], list[frozenset[int]], int],
) -> None:
    """The large-field path on small fields (every team linked to 1 neighbour, then 2, 4…): still no
    rematch or repeated bye that a brute force can avoid."""
    ranked, active, forbidden, round_no = field
    candidates = brute_force(ranked, active, forbidden, round_no)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(swiss, "COMPLETE_UP_TO", 1)
        patch.setattr(swiss, "NEAREST", 1)
        if not candidates:
            with pytest.raises(ValueError, match="forbidden"):
                pair_round(round_no, ranked, active, forbidden, random.Random(0))
            return
        pairing = pair_round(round_no, ranked, active, forbidden, random.Random(0))
    assert check_pairing(pairing, active, forbidden) == []
    mine = [s for s in ranked if s.team in active]
    assert flaws(pairing, mine) == min(flaws(c, mine) for _, c in candidates)


# --- check_pairing, rounds, results -------------------------------------------------------------------------


def test_check_pairing_finds_each_kind_of_problem() -> None:
    active, forbidden = [1, 2, 3, 4, 5], [frozenset({1, 2})]
    assert check_pairing(Pairing(2, ((1, 3), (2, 4)), bye=5), active, forbidden) == []
    assert check_pairing(Pairing(2, ((1, 3), (2, 4)), bye=1), active, forbidden) == [
        "team 1 is in the pairing twice",
        "team 5 is missing",
    ]
    assert check_pairing(Pairing(2, ((1, 2), (3, 4)), bye=5), active, forbidden) == [
        "teams 1 and 2 are a forbidden pair"
    ]
    assert check_pairing(Pairing(2, ((1, 3), (2, 9), (4, 4)), bye=5), active, forbidden) == [
        "team 4 is in the pairing twice",
        "team 4 is paired with itself",
        "team 9 is not active (withdrawn or not registered)",
    ]
    assert check_pairing(Pairing(2, ((1, 3),), bye=None), active, forbidden) == [
        "team 2 is missing",
        "team 4 is missing",
        "team 5 is missing",
    ]


def test_C10_default_rounds_is_ceil_log2_of_the_teams() -> None:
    assert [default_rounds(n) for n in (2, 3, 4, 5, 16, 17, 64, 65, 1000, 1024, 1025)] == [
        1,
        2,
        2,
        3,
        4,
        5,
        6,
        7,
        10,
        10,
        11,
    ]
    assert default_rounds(1) == 1
    with pytest.raises(ValueError):
        default_rounds(-1)


def test_results_refuse_what_c10_does_not_count() -> None:
    with pytest.raises(ValueError, match="one of played"):
        Result(1, 2, True, 200, 0, "draw")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs an opponent"):
        Result(1, None, True, 200, 0)
    with pytest.raises(ValueError, match="has no opponent"):
        Result(1, 2, True, 200, 0, "bye")
    with pytest.raises(ValueError, match="negative"):
        Result(1, 2, True, 200, -20)
    with pytest.raises(ValueError, match="numbered from 1"):
        Result(0, 2, True, 200, 0)
