"""The games as classes: the registry, their table options, structured outcomes, the one record walker."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capicua.rules import (
    CLAIM,
    DRAW,
    GALO,
    IllegalMoveError,
    Match,
    MatchTermination,
    MoveError,
    OptionError,
    Termination,
    variants,
)
from capicua.rules.dominousa import DominousaHand
from capicua.rules.moves import RefereeAction
from capicua.rules.randomgame import random_match, random_record
from capicua.rules.record import Record, RecordError, replay, replay_steps, walk
from capicua.rules.variant import MOVE_SECONDS, Option

GAMES = [("amazonense", None), ("individual", 2), ("individual", 3), ("individual", 4), ("dominousa", None)]


# -- the registry and what a game says of itself ------------------------------------------------------------------
def test_registry_finds_each_game_by_name_and_refuses_others() -> None:
    assert variants.names() == ("amazonense", "individual", "dominousa")
    assert [v.name for v in variants.all_variants()] == list(variants.names())
    for name in variants.names():
        assert variants.get(name).name == name
        assert variants.get(name) is variants.get(name)  # one instance a game
    for bad in ("chess", "", "Amazonense", None, 3):
        with pytest.raises(MoveError, match="unknown variant"):
            variants.get(bad)  # type: ignore[arg-type]


def test_each_game_says_what_the_layers_above_need() -> None:
    a, i, d = (variants.get(n) for n in variants.names())
    assert (a.partnerships, i.partnerships, d.partnerships) == (True, False, True)
    assert (a.player_counts, i.player_counts, d.player_counts) == ((4,), (2, 3, 4), (4,))
    assert a.calls >= {GALO} and GALO not in i.calls | d.calls
    assert DRAW in i.calls and CLAIM in d.calls and CLAIM not in a.calls
    assert (a.table_count, i.table_count, d.table_count) == (True, False, False)  # A2 scores only in Amazonense
    assert (a.layout, i.layout, d.layout) == ("spinner", "line", "line")
    assert a.match_clock(a.defaults) is None and i.match_clock(i.defaults) is None
    assert d.match_clock(d.defaults) == 40.0  # C5
    assert d.match_clock({**d.defaults, "match_minutes": 25}) == 25.0


def test_describe_lists_options_with_types_defaults_limits_and_rules() -> None:
    described = {v["name"]: v for v in (g.describe() for g in variants.all_variants())}
    amazonense = {o["name"]: o for o in described["amazonense"]["options"]}
    assert amazonense["target"] == {
        "name": "target",
        "type": "integer",
        "default": 200,
        "rule": "A9",
        "help": "points to win the match",
        "minimum": 1,
    }
    individual = {o["name"]: o for o in described["individual"]["options"]}
    assert individual["target"]["default"] == 100 and individual["target"]["rule"] == "B6"
    assert individual["lead"]["type"] == "choice" and individual["lead"]["choices"] == ["highest", "winner"]
    dominousa = {o["name"]: o for o in described["dominousa"]["options"]}
    assert dominousa["strict"]["type"] == "boolean" and dominousa["strict"]["default"] is False
    assert dominousa["match_minutes"]["default"] == 40 and described["dominousa"]["match_clock"] is True
    for game in described.values():
        assert {o["name"] for o in game["options"]} >= {"target", "move_seconds", "pause_seconds", "auto_pass"}
        assert game["calls"] == sorted(game["calls"])


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("amazonense", {"strict": True}, "strict is not an option of Dominó Amazonense"),
        ("amazonense", {"lead": "winner"}, "lead is not an option of Dominó Amazonense"),
        ("dominousa", {"lead": "winner"}, "lead is not an option of Dominousa"),
        ("individual", {"match_minutes": 10}, "match_minutes is not an option of Dominó individual"),
        ("dominousa", {"strict": "yes"}, "strict must be true or false"),
        ("dominousa", {"strict": 1}, "strict must be true or false"),
        ("individual", {"target": "100"}, "target must be a positive integer"),
        ("individual", {"target": 100.0}, "target must be a positive integer"),
        ("individual", {"target": True}, "target must be a positive integer"),
        ("individual", {"target": 0}, "target must be a positive integer"),
        ("individual", {"lead": "lowest"}, "lead must be 'highest' or 'winner'"),
        ("dominousa", {"move_seconds": 4}, "move_seconds must be an integer from 5 to 600"),
        ("dominousa", {"match_minutes": 601}, "match_minutes must be an integer from 1 to 600"),
    ],
)
def test_a_table_takes_only_its_games_options_and_only_right_values(
    game: str, options: dict[str, Any], words: str
) -> None:
    with pytest.raises(OptionError, match=words):
        variants.get(game).check_options(options)


TABLE = {"move_seconds": 40, "pause_seconds": 6, "auto_pass": True}


def test_options_are_filled_with_the_games_defaults() -> None:
    assert variants.get("amazonense").check_options({}) == {"target": 200, **TABLE}
    individual = variants.get("individual").check_options({"target": 50})
    assert individual == {"target": 50, "lead": "highest", **TABLE}
    dominousa = variants.get("dominousa").check_options({"match_minutes": 30})
    assert dominousa == {"target": 200, "strict": False, "match_minutes": 30, **TABLE}


def test_C6_C9_in_strict_mode_the_table_never_passes_for_a_player() -> None:
    """A pass is the player's own act in strict mode (a pass with a playable tile is fined 50): forced
    passes are off there, even when asked for."""
    dominousa = variants.get("dominousa")
    assert dominousa.check_options({"strict": True})["auto_pass"] is False
    assert dominousa.check_options({"strict": True, "auto_pass": True})["auto_pass"] is False
    assert dominousa.check_options({"auto_pass": False})["auto_pass"] is False
    assert Match(variants.get("dominousa"), options={"strict": True}).options["auto_pass"] is False


def test_table_settings_are_options_of_every_game() -> None:
    for game in variants.all_variants():
        names = [o.name for o in game.option_specs]
        assert names[-3:] == ["move_seconds", "pause_seconds", "auto_pass"]
        pause = game.option("pause_seconds")
        assert pause is not None and (pause.minimum, pause.maximum, pause.default) == (0, 30, 6)
        assert pause.to_json()["rule"] is None  # a setting of the table, not a rule
    with pytest.raises(OptionError, match=r"option pause_seconds must be an integer from 0 to 30, got 31$"):
        variants.get("amazonense").check_options({"pause_seconds": 31})


def test_a_record_may_carry_options_other_tools_added() -> None:
    """shared/spec/records.md: "Others may be added": a record keeps them; a new table may not."""
    assert variants.get("amazonense").options({"house_rule": 1})["house_rule"] == 1
    assert Match(variants.get("amazonense"), options={"house_rule": 1}).options["house_rule"] == 1


@given(st.one_of(st.text(), st.floats(), st.booleans(), st.none(), st.integers(-(10**20), 10**20)))
def test_an_integer_option_never_coerces(value: Any) -> None:
    ok = type(value) is int and 5 <= value <= 600
    if ok:
        assert MOVE_SECONDS.check(value) == value
    else:
        with pytest.raises(OptionError):
            MOVE_SECONDS.check(value)


def test_player_counts_are_the_games() -> None:
    assert variants.get("individual").check_players(None) == 4
    assert variants.get("individual").check_players(3) == 3
    for game, bad in (("individual", 5), ("individual", 1), ("amazonense", 2), ("dominousa", 3)):
        with pytest.raises(OptionError, match="is played by"):
            variants.get(game).check_players(bad)
        with pytest.raises(MoveError):
            Match(variants.get(game), players=bad)


def test_a_variant_pickles_as_itself() -> None:
    import pickle

    for game in variants.all_variants():
        assert pickle.loads(pickle.dumps(game)) is game
    assert isinstance(Option("x", int, 1, "A1", "x").to_json(), dict)


# -- outcomes ---------------------------------------------------------------------------------------------------
def finished_hands(variant: str, players: int | None, seed: int) -> Match:
    return random_match(variant, seed=seed, players=players)


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_every_finished_hand_has_an_outcome_that_agrees_with_its_scores(
    game: tuple[str, int | None], seed: int
) -> None:
    variant, players = game
    match = finished_hands(variant, players, seed)
    sides = match.variant.sides(match.players)
    for hand in match.hands:
        outcome = hand.outcome()
        if hand.end is None:
            assert outcome is None
            continue
        assert outcome is not None and outcome.termination is hand.end
        assert outcome.winner is None or 0 <= outcome.winner < sides
        if outcome.seat is not None:
            assert 0 <= outcome.seat < match.players
        ending = [sc for sc in hand.scores if sc.kind in ("batida", "tranca")]
        if outcome.termination is Termination.DOMINO:
            assert outcome.seat is not None and outcome.winner == hand.team(outcome.seat)
            assert all(sc.to == outcome.winner for sc in ending if sc.kind == "batida")
        elif outcome.termination is Termination.BLOCKED and ending:
            assert ending[-1].to == outcome.winner  # the side the blocked hand's count went to
        elif outcome.termination in (Termination.ANNULLED, Termination.REDEAL):
            assert outcome.winner is None
    decided = match.outcome
    assert decided is not None and match.is_over()
    assert decided.winner == match.winner and list(decided.totals) == match.totals
    assert decided.termination in (MatchTermination.TARGET, MatchTermination.TIME, MatchTermination.AWARD)


def test_termination_values_are_the_records_words() -> None:
    assert [t.value for t in Termination] == ["batida", "tranca", "annulled", "awarded", "redeal"]
    assert str(Termination.DOMINO) == "batida" and f"{Termination.BLOCKED}" == "tranca"
    assert isinstance(Termination.DOMINO, str)


def _dominousa_in_play() -> tuple[Match, DominousaHand]:
    m = Match(variants.get("dominousa"), seed=11, options={"target": 200})
    hand = m.deal()
    assert isinstance(hand, DominousaHand)
    m.push(hand.legal_moves[0])
    return m, hand


def test_dominousa_referee_annulment_and_award_are_outcomes_with_no_seat() -> None:
    m, hand = _dominousa_in_play()
    m.push(RefereeAction("Ana Ruiz", "annul", reason="tiles shown in the shuffle"))
    outcome = hand.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner, outcome.seat) == (
        Termination.ANNULLED,
        None,
        None,
    )
    assert m.outcome is None and m.needs_deal()

    m, hand = _dominousa_in_play()
    m.push(RefereeAction("Ana Ruiz", "award", seat=1, reason="team 0 left the table"))
    outcome = hand.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner, outcome.seat) == (Termination.AWARDED, 1, None)
    assert m.outcome is not None and m.outcome.termination is MatchTermination.AWARD and m.winner == 1


def test_dominousa_time_decides_a_match_below_the_target() -> None:
    """C5: time called, the hand in progress finished, the higher score wins."""
    m = Match(variants.get("dominousa"), seed=5, options={"target": 10_000})
    m.deal()
    m.push(m.parse_action("-: time")[1], None)
    while not m.is_over():
        if m.needs_deal():
            m.deal()
        m.push(m.hand.timeout_move(m.hand.turn))
    assert m.outcome is not None and m.outcome.termination is MatchTermination.TIME
    assert max(m.totals) < 10_000 and m.time_called


def test_popping_undoes_the_outcome() -> None:
    m = random_match("individual", seed=3, players=2)
    assert m.outcome is not None
    m.pop()
    assert m.outcome is None and m.winner is None


# -- one action path, one walker ---------------------------------------------------------------------------------
def test_parse_action_checks_the_seat_and_resolves_the_end() -> None:
    m = Match(variants.get("dominousa"), seed=2)
    hand = m.deal()
    with pytest.raises(MoveError, match="there is no seat 7"):
        m.parse_action("7: pass")
    with pytest.raises(MoveError, match="not an action"):
        m.parse_action("pass")
    lead = hand.legal_moves[0]
    m.push(lead)
    seat = hand.turn
    fits = [mv for mv in hand.legal_moves if mv.is_play]
    one_end = next((mv for mv in fits if sum(x.tile == mv.tile for x in fits) == 1), None)
    if one_end is not None:
        assert one_end.tile is not None
        assert m.parse_action(f"{seat}: {one_end.tile}") == (seat, one_end)  # the one end it fits
        assert m.parse_move(str(one_end.tile), seat) is one_end


def test_parse_move_after_the_hand_ended_is_illegal() -> None:
    m = random_match("individual", seed=8, players=2, max_hands=1)
    assert m.hand.end is not None
    with pytest.raises(IllegalMoveError, match="already over"):
        m.parse_move("pass", 0)


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_walk_yields_each_deal_and_action_once(variant: str, players: int | None) -> None:
    record = random_record(variant, seed=4, players=players)
    steps = list(walk(record))
    assert len(steps) == len(record.hands) + sum(len(h.actions) for h in record.hands)
    assert [(s.hand, s.action) for s in steps if s.action is None] == [
        (k, None) for k in range(1, len(record.hands) + 1)
    ]
    texts = [s.text for s in steps if s.text is not None]
    assert texts == [a for h in record.hands for a in h.actions]
    assert steps[-1].match.is_over()


def test_replay_steps_checks_what_replay_checks() -> None:
    """The viewer's walk used to skip the checks: an action after a hand's end went through."""
    record = random_record("amazonense", seed=4)
    record.hands[0].actions.append(record.hands[0].actions[-1])
    for reader in (replay, lambda r: replay_steps(r.to_json())):
        with pytest.raises(RecordError, match="already over") as err:
            reader(record)
        assert err.value.hand == 1 and err.value.action == len(record.hands[0].actions)


def test_replay_steps_of_a_record_with_no_hands() -> None:
    record = Record("dominousa", ["a", "b", "c", "d"], [])
    assert replay_steps(record.to_json())["steps"] == [] and not replay(record).hands


def test_D1_D3_D5_each_game_declares_how_its_rated_matches_are_rated() -> None:
    """The ratings service asks the variant, never the game's name: the partnership games rate the two teams'
    skill (D2), Amazonense alone with the D3 bonus; individual play moves zero-sum ranking points (D5)."""
    declared = {v.name: (v.rating, v.rating_bonus) for v in variants.all_variants()}
    assert declared == {"amazonense": ("teams", True), "dominousa": ("teams", False), "individual": ("points", False)}
    assert all(v.describe()["rating"] == v.rating for v in variants.all_variants())
