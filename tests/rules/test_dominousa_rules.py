"""Dominousa: one test per numbered rule sentence of the seed, and tests for each decision C1–C9.

The seed is ``shared/seeds/dominousa.es.txt`` (12 numbered rules); the decisions are section C of
``shared/rules/README.md``. Tests named ``test_seed_<n>_…`` quote the rule they check; tests named
``test_C<n>_…`` check decision C<n>. C10 (the Swiss system) belongs to the tournament layer and is not
tested here. Every hand is dealt by hand (all 28 tiles, each once) and played with explicit actions
written as in records: ``"<seat>: <move>"``, ``"-: time"`` for the table's clock and
``'ref(NAME): DECISION ARGS "REASON"'`` for a table referee.

Teams: seats 0+2 are team 0, seats 1+3 team 1. Fines go to the other team of the offender (C6).
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capicua.rules import CLAIM, PASS, TIME, IllegalMoveError, Match, Move, MoveError, Score, Tile, variants
from capicua.rules.dominousa import FINES, DominousaHand, lead_draw_winner
from capicua.rules.moves import Action, RefereeAction, format_action, parse_action
from capicua.rules.randomgame import random_action
from capicua.rules.record import Record, RecordError, replay, summary
from tests.rules.helpers import deal, shift
from tests.rules.test_properties import played_hands

# -- helpers ---------------------------------------------------------------------------------------


def actions(text: str) -> list[tuple[int | None, Action]]:
    """Parse ``"0: 6-6, 1: pass, -: time"`` (commas or newlines between actions).

    A referee's decision holds commas only inside its quoted reason, so it is written on its own line.
    """
    out: list[tuple[int | None, Action]] = []
    for line in text.split("\n"):
        line = line.strip().rstrip(",")
        if not line:
            continue
        items = [line] if line.startswith("ref(") else line.split(",")
        for item in items:
            if item.strip():
                out.append(parse_action(item))
    return out


def shift_actions(text: str, k: int) -> str:
    """The same actions made by the seats ``k`` places on (to replay a :func:`shift`-ed deal)."""
    lines = []
    for seat, move in actions(text):
        if isinstance(move, RefereeAction):
            if move.seat is not None:
                size = 4 if move.decision in ("fine", "touch") else 2  # score/award name a team
                move = dataclasses.replace(move, seat=(move.seat + k) % size)
            lines.append(format_action(None, move))
        else:
            lines.append(format_action(None if seat is None else (seat + k) % 4, move))
    return "\n".join(lines)


def hand_of(seats: tuple[str, ...], leader: int = 0, strict: bool = False) -> DominousaHand:
    return DominousaHand(deal(*seats), leader=leader, strict=strict)


def play(hand: DominousaHand, text: str) -> DominousaHand:
    for seat, move in actions(text):
        hand.push(move, seat)
    return hand


def deal_in_match(
    match: Match, seats: tuple[str, ...], leader: int, extra: dict[str, Any] | None = None
) -> DominousaHand:
    """Deal ``seats`` moved ``leader`` seats on as the match's next hand, checking who leads it."""
    hand = match.deal(deal(*shift(seats, leader)), (), extra)
    assert isinstance(hand, DominousaHand)
    assert hand.leader == leader and hand.turn == leader
    return hand


def push_all(match: Match, text: str, k: int = 0) -> None:
    """Push ``text`` through ``match.push``, made by the seats ``k`` places on."""
    for seat, move in actions(shift_actions(text, k)):
        match.push(move, seat)


def play_in_match(
    match: Match, seats: tuple[str, ...], text: str, leader: int, extra: dict[str, Any] | None = None
) -> DominousaHand:
    """Deal ``seats`` and play ``text`` (both written for a hand led by seat 0) led by ``leader``."""
    hand = deal_in_match(match, seats, leader, extra)
    push_all(match, text, leader)
    return hand


def leaders(match: Match) -> list[int]:
    """Who led each hand of ``match``."""
    hands = [h for h in match.hands if isinstance(h, DominousaHand)]
    assert len(hands) == len(match.hands)
    return [h.leader for h in hands]


def state(hand: DominousaHand) -> Any:
    """Everything a rejected action must leave unchanged."""
    return (
        repr(hand),
        list(hand.points),
        len(hand.history),
        list(hand.scores),
        hand.turn,
        hand.passes,
        hand.last,
        hand.end,
        hand.touched,
        hand.lead_losers,
        hand.time_up,
        [hand.legal_moves_for(s) for s in range(4)],
    )


def board(hand: DominousaHand) -> Any:
    """The position without the score sheet: what a fine that undoes the action leaves unchanged."""
    return (list(hand.hands), repr(hand.layout), hand.turn, hand.passes, hand.last, hand.end)


def one_action(text: str) -> tuple[int | None, Action]:
    [(seat, move)] = actions(text)
    return seat, move


def assert_rejected(hand: DominousaHand, text: str, message: str) -> None:
    """``text`` raises IllegalMoveError whose message holds ``message`` and changes nothing."""
    before = state(hand)
    seat, move = one_action(text)
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        hand.push(move, seat)
    assert state(hand) == before


def assert_fined(hand: DominousaHand, text: str, points: int) -> Score:
    """Strict mode: ``text`` is fined ``points`` to the offender's opponents, and undone (the tile
    stays in the hand, the turn does not move); only the history and the score sheet grow."""
    seat, move = one_action(text)
    assert seat is not None and isinstance(move, Move)
    assert hand.strict and hand.would_be_fined(move, seat)
    before, points_before, n = board(hand), list(hand.points), len(hand.history)
    hand.push(move, seat)
    fine = Score(n + 1, seat, "fine", points, 1 - seat % 2)
    assert hand.scores[-1] == fine
    assert board(hand) == before
    assert len(hand.history) == n + 1 and hand.history[-1] == (seat, move)
    expected = list(points_before)
    expected[fine.to] += points
    assert hand.points == expected
    return fine


def legal(hand: DominousaHand, seat: int | None = None) -> set[str]:
    return {str(m) for m in hand.legal_moves_for(hand.turn if seat is None else seat)}


def ref(text: str) -> RefereeAction:
    return RefereeAction.parse(text)


# -- deals -----------------------------------------------------------------------------------------

#: Seat 0 holds every 6, seat 1 the 5s, seat 2 the 4s and 3s, seat 3 the low tiles. After a 6-6 lead
#: nobody else holds a 6: seat 0 controls both ends (claim, jugada corrida).
SIXES = (
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
    "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
    "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
    "3-0 2-2 2-1 2-0 1-1 1-0 0-0",
)
#: Seat 0 goes out with his seventh 6 (action 25). Each pass is forced (no 6 and no matching end):
#: 6-6 | ends 6,6: 1, 2, 3 pass | 6-5 L (5,6) | 5-5 L (5,6) | 2, 3 pass | 6-4 R (5,4) | 5-4 L (4,4) |
#: 4-3 L (3,4) | 3-0 L (0,4) | 6-0 L (6,4) | 4-4 R (6,4) | 4-2 R (6,2) | 2-2 R (6,2) | 6-2 R (6,6) |
#: 1, 2, 3 pass | 6-3 L (3,6) | 5-3 L (5,6) | 2, 3 pass | 6-1 R (5,1): domino.
#: Left: seat 1 5-0 5-1 5-2 (18), seat 2 3-1 3-2 3-3 4-0 4-1 (24), seat 3 0-0 1-0 1-1 2-0 2-1 (8).
SIXES_DOMINO = """
    0: 6-6, 1: pass, 2: pass, 3: pass,
    0: 6-5 L, 1: 5-5 L, 2: pass, 3: pass,
    0: 6-4 R, 1: 5-4 L, 2: 4-3 L, 3: 3-0 L,
    0: 6-0 L, 1: 4-4 R, 2: 4-2 R, 3: 2-2 R,
    0: 6-2 R, 1: pass, 2: pass, 3: pass,
    0: 6-3 L, 1: 5-3 L, 2: pass, 3: pass,
"""
SIXES_DOMINO_LAST = "0: 6-1 R"

# Tranque deals. They share TRANQUE_PLAY, 10 plays and no pass, which lays every 0 on the line
#   0-1 1-2 2-0 0-3 3-4 4-0 0-0 0-5 5-6 6-0
# (lead 3-4 by seat 0, then R, L, R, L… alternately). After 6-0 R by seat 1 both ends show 0 and all
# seven 0s are out: nobody fits, tranque. The line holds 42 pips; the 18 tiles left in the hands
# (1-1 2-2 3-1 3-2 3-3 4-1 4-2 4-4 5-1 5-2 5-3 5-4 5-5 6-1 6-2 6-3 6-4 6-6) hold 126 and are split
# differently in each deal. Seats 0 and 1 keep 4 tiles, seats 2 and 3 keep 5.
TRANQUE_PLAY = """
    0: 3-4, 1: 4-0 R, 2: 0-3 L, 3: 0-0 R,
    0: 2-0 L, 1: 0-5 R, 2: 1-2 L, 3: 5-6 R,
    0: 0-1 L, 1: 6-0 R
"""
#: Left: seat 0 1-1 2-2 3-1 3-2 (15), seat 2 3-3 4-1 4-2 5-1 5-2 (30) → team 0 45;
#: seat 1 4-4 5-3 5-4 5-5 (35), seat 3 6-1 6-2 6-3 6-4 6-6 (46) → team 1 81. Team 0 scores 126.
TRANQUE_0 = (
    "4-3 2-0 1-0 1-1 2-2 3-1 3-2",
    "4-0 5-0 6-0 4-4 5-3 5-4 5-5",
    "3-0 2-1 3-3 4-1 4-2 5-1 5-2",
    "0-0 6-5 6-1 6-2 6-3 6-4 6-6",
)
#: Left: seat 0 4-4 5-3 5-4 5-5 (35), seat 2 6-1 6-2 6-3 6-4 6-6 (46) → team 0 81;
#: seat 1 1-1 2-2 3-1 3-2 (15), seat 3 3-3 4-1 4-2 5-1 5-2 (30) → team 1 45. Team 1 scores 126.
TRANQUE_1 = (
    "4-3 2-0 1-0 4-4 5-3 5-4 5-5",
    "4-0 5-0 6-0 1-1 2-2 3-1 3-2",
    "3-0 2-1 6-1 6-2 6-3 6-4 6-6",
    "0-0 6-5 3-3 4-1 4-2 5-1 5-2",
)
#: Left: seat 0 1-1 2-2 3-1 6-6 (22), seat 2 4-2 5-1 5-5 6-3 6-4 (41) → team 0 63;
#: seat 1 4-4 5-3 5-4 6-2 (33), seat 3 3-2 3-3 4-1 5-2 6-1 (30) → team 1 63. Tied: annulled.
TRANQUE_TIE = (
    "4-3 2-0 1-0 1-1 2-2 3-1 6-6",
    "4-0 5-0 6-0 4-4 5-3 5-4 6-2",
    "3-0 2-1 4-2 5-1 5-5 6-3 6-4",
    "0-0 6-5 3-2 3-3 4-1 5-2 6-1",
)


def tranque_until(n: int) -> str:
    """The first ``n`` actions of TRANQUE_PLAY."""
    return ", ".join(format_action(seat, move) for seat, move in actions(TRANQUE_PLAY)[:n])


def tranque_from(n: int) -> str:
    """TRANQUE_PLAY without its first ``n`` actions."""
    return ", ".join(format_action(seat, move) for seat, move in actions(TRANQUE_PLAY)[n:])


# -- 1. Duración del partido ------------------------------------------------------------------------


def test_seed_1_match_is_200_points_or_40_minutes_and_the_hand_in_progress_is_finished() -> None:
    """'Los partidos de dómino se juegan a doscientos (200) puntos o cuarenta (40) minutos, lo cual
    ocurra primero. Si los 40 minutos ocurren primero, la pareja con la mayor cantidad de puntos gana
    el partido. Sin embargo, la mano que se haya empezado se termina, aunque exceda de los 40 minutos.'

    The table options are 200 points and 40 minutes. TRANQUE_0 as hand 1: the clock runs out after
    the fourth play (``-: time``); the hand goes on to its tranque (team 0 scores 126) and only then
    is the match decided: team 0 wins with 126 < 200. No further hand may be dealt.
    """
    m = Match(variants.get("dominousa"))
    assert m.options["target"] == 200 and m.options["match_minutes"] == 40
    hand = deal_in_match(m, TRANQUE_0, 0)
    push_all(m, tranque_until(4) + ", -: time")
    assert hand.time_up and hand.end is None and m.winner is None
    assert hand.history[-1] == (None, TIME) and hand.turn == 0
    assert legal(hand) == {"2-0 L", "2-0 R", "1-0 L", "1-0 R"}  # the hand in progress goes on (ends 0, 0)
    push_all(m, tranque_from(4))
    assert hand.end == "tranca" and m.totals == [126, 0]
    assert m.winner == 0 and m.is_over()
    with pytest.raises(IllegalMoveError, match="the match is over"):
        m.deal(deal(*TRANQUE_0))


# -- 2. Salida --------------------------------------------------------------------------------------


def test_seed_2_highest_drawn_tile_leads_the_match_then_the_lead_rotates_in_turn_order() -> None:
    """'Para la salida inicial del partido, las fichas se barajean, cada jugador toma una ficha, y el
    jugador con la ficha más alta juega primero. Después de la salida inicial, las salidas en todas las
    manos serán de forma rotativa, de izquierda a derecha, empezando por el jugador contiguo al
    jugador que iniciara el partido.'

    The seats draw 6-5 (11), 3-3 (6), 6-6 (12), 0-1 (1): seat 2 leads hand 1 (TRANQUE_0 moved 2 seats
    on: team 0 scores 126). Hand 2 is led by seat 3 (TRANQUE_0 moved 3 on: team 1 scores 126), hand 3
    by seat 0 (TRANQUE_TIE: annulled), hand 4 by seat 1. Only the first hand carries the draw.
    """
    m = Match(variants.get("dominousa"))
    first = play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 2, {"lead_draw": ["6-5", "3-3", "6-6", "0-1"]})
    assert first.lead_draw == [Tile(6, 5), Tile(3, 3), Tile(6, 6), Tile(1, 0)]
    assert first.points == [126, 0]
    second = play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 3)
    assert second.points == [0, 126] and second.lead_draw is None
    play_in_match(m, TRANQUE_TIE, TRANQUE_PLAY, 0)
    deal_in_match(m, TRANQUE_0, 1)
    assert leaders(m) == [2, 3, 0, 1]
    assert m.totals == [126, 126] and m.winner is None


# -- 3. Colocación de fichas ------------------------------------------------------------------------


def test_seed_3_tiles_are_picked_up_unsorted_the_order_of_a_deal_does_not_matter() -> None:
    """'Después del barajeo, las fichas se recogen y colocan en el atril sin acomodarse.'

    Picking the tiles up without arranging them is a physical rule: the engine has nothing to check.
    What it must guarantee is that the order in which a seat's tiles are given does not matter:
    SIXES with every seat's tiles reversed (and with seat 2's rotated) is the same position, offers
    the same moves and plays the same domino (50 for team 0) as SIXES.
    """
    sorted_hand = hand_of(SIXES, strict=True)
    jumbled = [list(reversed(tiles)) for tiles in deal(*SIXES)]
    jumbled[2] = jumbled[2][3:] + jumbled[2][:3]
    unsorted_hand = DominousaHand(jumbled, leader=0, strict=True)
    assert repr(unsorted_hand) == repr(sorted_hand)
    assert unsorted_hand.deal == sorted_hand.deal
    assert [legal(unsorted_hand, s) for s in range(4)] == [legal(sorted_hand, s) for s in range(4)]
    for hand in (sorted_hand, unsorted_hand):
        play(hand, SIXES_DOMINO + SIXES_DOMINO_LAST)
    assert unsorted_hand.scores == sorted_hand.scores == [Score(25, 0, "batida", 50, 0)]


# -- 4. Comportamiento ------------------------------------------------------------------------------


@pytest.mark.parametrize("strict", [False, True])
def test_seed_4_comments_or_signals_are_fined_20_by_the_referee(strict: bool) -> None:
    """'Una vez comenzada la mano, no se permite hacer comentarios, gestos o movimientos para indicar
    alguna jugada. Las manos deben mantenerse debajo de la mesa. (Multa: 20 puntos)'

    Signals are for the table referee to see: he writes the fine (20 = FINES['behaviour']). SIXES after
    6-6 and seat 1's pass: seat 2 signals his partner; the referee fines seat 2, team 1 scores 20
    (action 3, caused by no player's move). Nothing else changes: seat 2 is still to play. In casual
    mode too: a referee's fine is not a rule-breaking move of a player.
    """
    assert FINES["behaviour"] == 20
    hand = play(hand_of(SIXES, strict=strict), "0: 6-6, 1: pass")
    before = board(hand)
    hand.push(ref('ref(Ana Ruiz): fine 2 20 "pointed at the 6-6 for his partner"'))
    assert hand.scores == [Score(3, None, "fine", 20, 1)]
    assert hand.points == [0, 20] and board(hand) == before and hand.turn == 2


# -- 5. Pase con ficha ------------------------------------------------------------------------------


def test_seed_5_pass_holding_a_playable_tile_is_fined_50_and_if_intentional_the_match_is_lost() -> None:
    """'La multa se aplica si un jugador – teniendo jugada – dice “paso” o indica que “pasa” en la
    jugada. (Multa: 50 puntos) Nota: Si en la opinión del Arbitro de Mesa el pase con ficha fue
    intencional, la pareja pierde el partido.'

    Strict match, TRANQUE_0: after 3-4 (ends 3, 4) seat 1 holds 4-0, 4-4, 5-4 (on 4) and 5-3 (on 3) yet
    says pass: team 0 scores 50 and the pass is cancelled (seat 1 still to play, no pass counted).
    The referee judges it intentional and awards the match to team 0: the match is over at once.
    """
    m = Match(variants.get("dominousa"), options={"strict": True})
    hand = deal_in_match(m, TRANQUE_0, 0)
    push_all(m, "0: 3-4")
    assert legal(hand) == {"4-0 R", "4-4 R", "5-4 R", "5-3 L"}
    assert_fined(hand, "1: pass", 50)
    assert hand.turn == 1 and hand.passes == 0 and m.winner is None
    m.push(ref('ref(Ana Ruiz): award 0 "seat 1 passed with 4-0 on purpose to let his partner lead the 4s"'))
    assert m.winner == 0 and m.is_over() and hand.end == "awarded"
    assert m.totals == [50, 0]  # the award decides, whatever the score
    with pytest.raises(IllegalMoveError, match="the match is over"):
        m.push(Move.parse("4-0 R"), 1)


# -- 6. Toque de ficha ------------------------------------------------------------------------------


def test_seed_6_touched_tile_is_played_at_the_first_opportunity_shown_face_up_until_then() -> None:
    """'Toque de Ficha: “Ficha tocada, ficha jugada”. Si no tiene jugada, la ficha se coloca boca arriba
    en la mesa. La ficha se juega a la primera oportunidad, sin importar si o no es conveniente para el
    jugador. Si el jugador gana o tranca con la ficha, los puntos no cuentan para la pareja. El jugador
    pierde su salida.'

    SIXES after 6-6: the referee records that seat 1 touched 5-0. It fits nothing (ends 6, 6), so it
    lies face up: every seat's view (and a spectator's) shows it. Seat 1 passes (no 6). After 6-5 L the
    L end shows 5: seat 1 holds six 5s but must play 5-0, although 5-5 would suit him better.
    He loses his next lead. (Domino, tranque and the lost lead through a match: the C7 tests.)
    """
    hand = play(hand_of(SIXES), "0: 6-6")
    hand.push(ref('ref(Ana Ruiz): touch 1 5-0 "dropped it face up while arranging his tiles"'))
    for seat in (0, 1, 2, 3, None):
        assert hand.view(seat).public["touched"] == [[], ["5-0"], [], []]
    assert hand.view(0).tiles == tuple(hand.tiles(0)) and Tile(5, 0) not in hand.view(0).tiles
    play(hand, "1: pass, 2: pass, 3: pass, 0: 6-5 L")
    assert hand.legal_moves == (Move.parse("5-0 L"),)
    assert_rejected(hand, "1: 5-5 L", "seat 1 must first play the touched tile 5-0 (C7)")
    play(hand, "1: 5-0 L")
    assert hand.view(2).public["touched"] == [[], [], [], []]
    assert hand.lead_losers == frozenset({1})


# -- 7. Jugada fuera de turno -----------------------------------------------------------------------


def test_seed_7_playing_out_of_turn_is_fined_20_whether_or_not_the_tile_fits() -> None:
    """'La multa se aplica si un jugador juega fuera de turno, sin importar si o no la ficha tiene
    jugada. (Multa: 20 puntos)'

    Strict, TRANQUE_0 after 3-4 (ends 3, 4), seat 1 to play. Seat 2 plays 3-0 L, which fits: team 1
    scores 20. Seat 3 plays 6-6 R, which fits nowhere: 20 again (not the 50 of a wrong play), now for
    team 0. Both tiles stay in their hands and seat 1 is still to play.
    """
    hand = play(hand_of(TRANQUE_0, strict=True), "0: 3-4")
    assert assert_fined(hand, "2: 3-0 L", 20) == Score(2, 2, "fine", 20, 1)
    assert assert_fined(hand, "3: 6-6 R", 20) == Score(3, 3, "fine", 20, 0)
    assert hand.points == [20, 20] and hand.turn == 1


# -- 8. Jugada equivocada ---------------------------------------------------------------------------


def test_seed_8_wrong_play_in_turn_is_fined_50() -> None:
    """'La multa se aplica si un jugador – en su turno – juega o intenta jugar una ficha que no tiene
    jugada por ninguno de los dos lados del cuadrante. (Multa: 50 puntos)'

    Strict, TRANQUE_0 after 3-4 (ends 3, 4): seat 1 tries 5-5, which fits neither end: team 0 scores
    50, 5-5 stays in his hand and he plays again (4-0 R, no fine).
    """
    hand = play(hand_of(TRANQUE_0, strict=True), "0: 3-4")
    assert assert_fined(hand, "1: 5-5 R", 50) == Score(2, 1, "fine", 50, 0)
    play(hand, "1: 4-0 R")
    assert hand.points == [50, 0] and hand.turn == 2 and repr(hand.layout) == "LineLayout('3-4 4-0')"


# -- 9. Jugada corrida ------------------------------------------------------------------------------


def test_seed_9_player_in_control_announces_or_waits_for_three_passes_else_fined_20() -> None:
    """'Cuando logra control sobre ambos lados del cuadrante, el jugador debe anunciar que nadie más
    tiene jugada o debe esperar a que los otros tres jugadores digan o indiquen que pasan antes de
    jugar. (Multa: 20 puntos)'

    SIXES, strict: after 6-6 nobody else holds a 6, seat 0 controls both ends.
    - He waits for the three passes, then plays 6-5 L: no fine.
    - He announces (claim) after seat 1's pass: the other passes are skipped, he plays: no fine.
    - He plays 6-5 L after seat 1's pass, without announcing: jugada corrida, team 1 scores 20 and the
      play stands (seat 1 is next).
    """
    waits = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass, 2: pass, 3: pass, 0: 6-5 L")
    announces = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass, 0: claim, 0: 6-5 L")
    for hand in (waits, announces):
        assert hand.scores == [] and hand.turn == 1 and repr(hand.layout) == "LineLayout('5-6 6-6')"

    runs = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass")
    play(runs, "0: 6-5 L")
    assert runs.scores == [Score(3, 0, "fine", 20, 1)]
    assert runs.turn == 1 and repr(runs.layout) == "LineLayout('5-6 6-6')"


# -- 10. Tranque ------------------------------------------------------------------------------------


def test_seed_10_tranque_fewer_pips_win_a_tie_annuls_the_hand_and_the_rotation_goes_on() -> None:
    """'En caso de tranque, todos los puntos sin jugar, de ambas parejas, se cuentan y la pareja con
    menos puntos gana el tranque. Si hubiese un empate de puntos entre las dos parejas, se anula la
    mano y continúa la rotación.'

    TRANQUE_0: team 0 holds 45, team 1 81; team 0 wins the tranque and scores all 126 unplayed pips.
    TRANQUE_TIE: 63 against 63: the hand is annulled, nobody scores, and in a match the next hand is
    led by the next seat (seat 1).
    """
    won = play(hand_of(TRANQUE_0), TRANQUE_PLAY)
    assert won.end == "tranca" and won.points == [126, 0]
    assert won.pips(0) + won.pips(2) == 45 and won.pips(1) + won.pips(3) == 81

    m = Match(variants.get("dominousa"))
    tied = play_in_match(m, TRANQUE_TIE, TRANQUE_PLAY, 0)
    assert tied.end == "annulled" and tied.scores == [] and m.totals == [0, 0]
    assert tied.pips(0) + tied.pips(2) == 63 == tied.pips(1) + tied.pips(3)
    assert deal_in_match(m, TRANQUE_0, 1).leader == 1


# -- 11. Posición de la ficha inicial ---------------------------------------------------------------


def test_seed_11_the_lead_lies_as_written_a_double_across_a_mixed_tile_either_way() -> None:
    """'La ficha inicial de la mano, si es un doble, se coloca de forma horizontal al jugador y, si se
    una piedra mixta, se coloca con el numero menor hacia el jugador.'

    How the tile faces the leader is physical; the engine records the lead on its line (C1): a lead
    written a-b lies with a at L and b at R. SIXES: seat 0 may lead 6-4 either way round ("4-6" puts
    the lower number first, as the rule lays it towards the player); both give a line with the ends 4
    and 6 and the same tiles fitting. A double has a single lead move and shows its number at both ends.
    """
    leads = hand_of(SIXES).legal_moves
    assert Move.parse("4-6") in leads and Move.parse("6-4") in leads
    assert [m for m in leads if m.tile == Tile(6, 6)] == [Move.parse("6-6")]

    low_first = play(hand_of(SIXES), "0: 4-6")
    high_first = play(hand_of(SIXES), "0: 6-4")
    assert repr(low_first.layout) == "LineLayout('4-6')" and low_first.layout.snapshot()["ends"] == {"L": 4, "R": 6}
    assert repr(high_first.layout) == "LineLayout('6-4')" and high_first.layout.snapshot()["ends"] == {"L": 6, "R": 4}
    assert legal(low_first) == {"5-4 L", "4-4 L"} and legal(high_first) == {"5-4 R", "4-4 R"}

    double = play(hand_of(SIXES), "0: 6-6")
    assert double.layout.snapshot()["ends"] == {"L": 6, "R": 6}


# -- 12. Árbitro de mesa ----------------------------------------------------------------------------


def test_seed_12_the_table_referee_decides_any_other_matter_and_it_is_recorded() -> None:
    """'Los Arbitros de Mesa tienen la potestad de decidir cualquier asunto que no estuviese incluido en
    estas reglas, y la decisión será considerada final.'

    A matter the rules do not cover (a tile flipped over by a spectator) is settled by the referee
    with a score correction: team 1 gets 10 (written with his name and reason; the points may be
    negative too: team 0 loses 5). The decisions stand in the hand's history as written.
    """
    hand = play(hand_of(TRANQUE_0, strict=True), "0: 3-4, 1: 4-0 R")
    hand.push(ref('ref(Ana Ruiz): score 1 10 "a spectator flipped over a tile of seat 1"'))
    hand.push(ref('ref(Ana Ruiz): score 0 -5 "team 0 argued with the referee"'))
    assert hand.scores == [Score(3, None, "referee", 10, 1), Score(4, None, "referee", -5, 0)]
    assert hand.points == [-5, 10] and hand.turn == 2
    assert [format_action(s, a) for s, a in hand.history[2:]] == [
        'ref(Ana Ruiz): score 1 10 "a spectator flipped over a tile of seat 1"',
        'ref(Ana Ruiz): score 0 -5 "team 0 argued with the referee"',
    ]


# -- C1 layout --------------------------------------------------------------------------------------


def test_C1_line_with_two_ends_lead_a_b_lies_a_at_L_and_b_at_R() -> None:
    """C1: SIXES, seat 0 leads 4-6: 4 at L, 6 at R. Seat 1 plays 5-4 on L: the line reads 5-4 4-6 with
    the ends 5 (L) and 6 (R); only L and R exist (W is refused) and any tile may lead.
    """
    hand = play(hand_of(SIXES), "0: 4-6")
    assert hand.layout.ends == ((4, 4), (5, 6))
    play(hand, "1: 5-4 L")
    assert repr(hand.layout) == "LineLayout('5-4 4-6')"
    assert hand.layout.snapshot() == {
        "shape": "line",
        "line": ["5-4", "4-6"],
        "lead": 1,
        "ends": {"L": 5, "R": 6},
        "count": 11,
    }
    assert_rejected(hand, "2: 4-3 W", "a line has only the ends L and R, not W")


def test_C1_doubles_lie_crosswise_and_never_branch() -> None:
    """C1: SIXES, 4-6 lead, then 4-4 L: the double lies across the L end, which still shows 4; there
    are still exactly two ends (4 and 6), and 4-3 L continues the line past it.
    """
    hand = play(hand_of(SIXES), "0: 4-6, 1: 4-4 L")
    assert hand.layout.ends == ((4, 4), (5, 6))
    assert repr(hand.layout) == "LineLayout('4-4 4-6')"
    play(hand, "2: 4-3 L")
    assert hand.layout.ends == ((4, 3), (5, 6))
    assert repr(hand.layout) == "LineLayout('3-4 4-4 4-6')"
    assert legal(hand) == {"3-0 L"}


# -- C2 lead ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("draw", "leader"),
    [
        (["6-5", "3-3", "6-6", "0-1"], 2),  # 11, 6, 12, 1: the highest total
        (["0-0", "4-2", "1-0", "5-0"], 1),  # 0, 6, 1, 5
        (["6-0", "3-3", "5-1", "4-2"], 1),  # 6 each: the double
        (["4-3", "6-1", "5-2", "1-1"], 1),  # 7, 7, 7, 2: no double, the higher half (6)
        (["5-0", "4-1", "3-2", "2-2"], 0),  # 5, 5, 5, 4: the higher half (5)
    ],
)
def test_C2_lead_draw_higher_total_then_the_double_then_the_higher_half(draw: list[str], leader: int) -> None:
    """C2: the highest drawn tile leads the first hand: higher pip total; equal totals: the double,
    then the tile with the higher half. Through a match: the first hand is led by that seat.
    """
    assert lead_draw_winner([Tile.parse(t) for t in draw]) == leader
    hand = Match(variants.get("dominousa")).deal(deal(*shift(SIXES, leader)), (), {"lead_draw": draw})
    assert hand.turn == leader and hand.legal_moves_for(leader)


def test_C2_lead_draw_must_be_four_different_tiles() -> None:
    """C2: a draw with a tile twice, with 3 tiles, or with a non-tile is refused; no hand is dealt."""
    m = Match(variants.get("dominousa"))
    for bad in (["6-6", "6-6", "1-0", "2-0"], ["6-6", "1-0", "2-0"], ["6-6", "1-0", "2-0", "7-7"]):
        with pytest.raises(MoveError):
            m.deal(deal(*SIXES), (), {"lead_draw": bad})
        assert m.hands == []
    with pytest.raises(MoveError, match="the same tile twice"):
        lead_draw_winner([Tile(6, 6), Tile(6, 6), Tile(1, 0), Tile(2, 0)])


def test_C2_without_a_lead_draw_seat_0_leads_the_first_hand() -> None:
    """C2 / records.md: a first hand without ``lead_draw`` is led by seat 0, and a hand built without a
    leader too."""
    hand = Match(variants.get("dominousa")).deal(deal(*SIXES))
    assert isinstance(hand, DominousaHand) and hand.leader == 0 and hand.turn == 0 and hand.lead_draw is None
    assert DominousaHand(deal(*SIXES)).turn == 0


def test_C2_lead_rotates_in_turn_order_over_every_hand_annulled_ones_included() -> None:
    """C2: the draw gives seat 3 the first lead (6-6). Hand 1 (TRANQUE_TIE, seat 3) and hand 2
    (TRANQUE_TIE, seat 0) are tied tranques, hand 3 (seat 1) is annulled by the referee after a fine
    (team 0 scores 20, the fine stands): the annulled hands count, hand 4 is led by seat 2 and hand 5
    by seat 3 again.
    """
    m = Match(variants.get("dominousa"))
    play_in_match(m, TRANQUE_TIE, TRANQUE_PLAY, 3, {"lead_draw": ["5-5", "6-5", "0-0", "6-6"]})
    play_in_match(m, TRANQUE_TIE, TRANQUE_PLAY, 0)
    annulled = deal_in_match(m, TRANQUE_0, 1)
    m.push(Move.parse("3-4"), 1)
    m.push(ref('ref(Ana Ruiz): fine 1 20 "showed his tiles"'))
    m.push(ref('ref(Ana Ruiz): annul "a tile was missing from the set"'))
    assert annulled.end == "annulled" and annulled.points == [20, 0]
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 2)
    deal_in_match(m, TRANQUE_0, 3)
    assert [h.end for h in m.hands] == ["annulled", "annulled", "annulled", "tranca", None]
    assert leaders(m) == [3, 0, 1, 2, 3]
    assert m.totals == [146, 0]


def test_C2_whoever_leads_may_lead_any_tile_either_way_round() -> None:
    """C2: SIXES, seat 0 leads: all his 7 tiles may lead, the 6 non-doubles either way round (13 moves).
    Seat 1 leading the same deal may lead 0-0 or 4-0, neither of them a double-six or his highest tile.
    Nobody else may lead.
    """
    hand = hand_of(SIXES)
    assert len(hand.legal_moves) == 13
    assert {m.tile for m in hand.legal_moves} == {Tile(6, k) for k in range(7)}
    assert all(hand.legal_moves_for(s) == [] for s in (1, 2, 3))
    other = hand_of(shift(SIXES, 2), leader=1)  # seat 1 holds the low tiles
    play(other, "1: 0-0")
    assert repr(other.layout) == "LineLayout('0-0')" and other.turn == 2
    play(hand_of(shift(SIXES, 2), leader=1), "1: 0-3")


# -- C3 domino --------------------------------------------------------------------------------------


def test_C3_domino_scores_the_pips_of_all_three_other_hands_partner_included() -> None:
    """C3: SIXES_DOMINO: seat 0 plays his seventh tile (6-1 R, action 25). Left: seat 1 18, seat 2 (his
    partner) 24, seat 3 8: team 0 scores 18 + 24 + 8 = 50. The hand is over, every hand is revealed.
    """
    hand = play(hand_of(SIXES), SIXES_DOMINO)
    assert hand.tiles(0) == (Tile(6, 1),) and hand.pips_left() == [7, 18, 24, 8]
    play(hand, SIXES_DOMINO_LAST)
    assert hand.end == "batida"
    assert hand.scores == [Score(25, 0, "batida", 50, 0)]
    assert hand.points == [50, 0]
    assert all(hand.legal_moves_for(s) == [] for s in range(4))
    assert_rejected(hand, "1: pass", "the hand is over (batida)")
    revealed = hand.view(1).revealed
    assert revealed is not None and revealed[2] == hand.tiles(2) and revealed[0] == ()


def test_C3_domino_by_a_team_1_player_scores_for_team_1() -> None:
    """C3: SIXES_DOMINO moved one seat on: seat 1 goes out, team 1 scores the same 50."""
    hand = play(hand_of(shift(SIXES, 1), leader=1), shift_actions(SIXES_DOMINO + SIXES_DOMINO_LAST, 1))
    assert hand.scores == [Score(25, 1, "batida", 50, 1)] and hand.points == [0, 50]


# -- C4 tranque -------------------------------------------------------------------------------------


def test_C4_tranque_is_detected_the_moment_nobody_fits_no_passes_are_played() -> None:
    """C4: TRANQUE_0: before the tenth play the ends are 0 and 6 and seat 1 holds 6-0; 6-0 R closes both
    ends on 0 with all seven 0s out. The hand ends at once (10 actions, no pass): nobody may act.
    """
    hand = play(hand_of(TRANQUE_0), tranque_until(9))
    assert hand.layout.ends == ((4, 0), (5, 6)) and hand.turn == 1
    play(hand, "1: 6-0 R")
    assert hand.end == "tranca" and len(hand.history) == 10
    assert hand.layout.ends == ((4, 0), (5, 0))
    assert all(hand.legal_moves_for(s) == [] for s in range(4))
    assert_rejected(hand, "2: pass", "the hand is over (tranca)")


@pytest.mark.parametrize(("seats", "pips", "winner"), [(TRANQUE_0, (45, 81), 0), (TRANQUE_1, (81, 45), 1)])
def test_C4_fewer_pips_scores_the_total_of_all_hands(
    seats: tuple[str, ...], pips: tuple[int, int], winner: int
) -> None:
    """C4: TRANQUE_0: team 0 45, team 1 81 → team 0 scores 45 + 81 = 126 (not the difference, not the
    other team's pips only). TRANQUE_1: team 1 45 → team 1 scores 126. The score is the blocker's
    action (seat 1, action 10).
    """
    hand = play(hand_of(seats), TRANQUE_PLAY)
    assert (hand.pips(0) + hand.pips(2), hand.pips(1) + hand.pips(3)) == pips
    assert hand.scores == [Score(10, 1, "tranca", 126, winner)]
    assert hand.points[winner] == 126 and hand.points[1 - winner] == 0


def test_C4_tied_tranque_annuls_the_hand_fines_made_in_it_stand() -> None:
    """C4: TRANQUE_TIE in strict mode with two fines on the way: after the lead seat 3 plays 0-0 out of
    turn (team 0 +20), then seat 1 passes holding 4-0 (team 0 +50). The tied tranque (63 = 63) annuls
    the hand: no tranque score, but the 70 points of fines stand.
    """
    hand = play(hand_of(TRANQUE_TIE, strict=True), "0: 3-4")
    assert_fined(hand, "3: 0-0 R", 20)
    assert_fined(hand, "1: pass", 50)
    play(hand, tranque_from(1))
    assert hand.end == "annulled"
    assert [s.kind for s in hand.scores] == ["fine", "fine"] and hand.points == [70, 0]
    assert all(hand.legal_moves_for(s) == [] for s in range(4))
    # The hands were counted (63 = 63), so everybody sees them, as after any tranque.
    revealed = hand.view(2).revealed
    assert revealed is not None and revealed[0] == hand.tiles(0)


def test_C4_tied_tranque_annuls_the_hand_and_rotation_continues() -> None:
    """C4 / C2: a match: hand 1 TRANQUE_0 led by seat 0 (team 0 126), hand 2 TRANQUE_TIE led by seat 1
    (annulled, no score), hand 3 is led by seat 2: the annulled hand took its turn in the rotation.
    """
    m = Match(variants.get("dominousa"))
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 0)
    tied = play_in_match(m, TRANQUE_TIE, TRANQUE_PLAY, 1)
    assert tied.end == "annulled" and tied.points == [0, 0] and m.totals == [126, 0]
    assert m.winner is None and m.needs_deal()
    assert deal_in_match(m, TRANQUE_0, 2).leader == 2


# -- C5 match ---------------------------------------------------------------------------------------


def test_C5_first_team_to_200_at_a_hands_end_wins() -> None:
    """C5: tranques of 126: [126, 0] (seat 0 leads), [126, 126] (seat 1), [252, 126] (seat 2): team 0
    reaches 200 at the end of hand 3 and wins; no further hand.
    """
    m = Match(variants.get("dominousa"))
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 0)
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 1)
    assert m.totals == [126, 126] and m.winner is None
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 2)
    assert m.totals == [252, 126] and m.winner == 0 and not m.needs_deal()


def test_C5_time_then_the_hand_in_progress_is_finished_and_the_higher_score_wins() -> None:
    """C5: hand 1 TRANQUE_0: [126, 0]. Hand 2 (seat 1 leads TRANQUE_1 moved one on, so team 0 has the
    fewer pips) gets ``-: time`` right after its lead: the match is not decided then, the hand is
    played to its tranque (team 0 +126) and only then the higher score wins: [252, 0], team 0.
    """
    m = Match(variants.get("dominousa"))
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 0)
    hand = deal_in_match(m, TRANQUE_1, 1)
    push_all(m, tranque_until(1) + ", -: time", 1)
    assert hand.time_up and m.winner is None and hand.end is None and hand.turn == 2
    push_all(m, tranque_from(1), 1)
    assert m.totals == [252, 0] and m.winner == 0


def test_C5_time_with_equal_scores_plays_more_hands_until_one_team_leads_at_a_hands_end() -> None:
    """C5: time is called in hand 1 (TRANQUE_TIE, annulled): [0, 0], equal, so the match goes on. Hand 2
    (TRANQUE_TIE, seat 1) is annulled too: still [0, 0], no winner. Hand 3 (TRANQUE_0 moved two on,
    seat 2 leads, team 0 126) ends with team 0 ahead: team 0 wins at once, below 200.
    """
    m = Match(variants.get("dominousa"))
    play_in_match(m, TRANQUE_TIE, tranque_until(3) + ", -: time, " + tranque_from(3), 0)
    assert m.hands[0].end == "annulled" and m.totals == [0, 0] and m.winner is None and m.needs_deal()
    play_in_match(m, TRANQUE_TIE, TRANQUE_PLAY, 1)
    assert m.totals == [0, 0] and m.winner is None and m.needs_deal()
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 2)
    assert m.totals == [126, 0] and m.winner == 0


def test_C5_time_is_called_once_and_only_by_the_table() -> None:
    """C5 / records.md: ``time`` is written ``-: time`` (a seat may not call it) and comes at most once a
    match: a second time in the same hand, or in a later hand, is refused and changes nothing.
    """
    m = Match(variants.get("dominousa"))
    hand = deal_in_match(m, TRANQUE_TIE, 0)
    with pytest.raises(IllegalMoveError, match="time is called by the table"):
        m.push(TIME, 0)
    push_all(m, "0: 3-4, -: time")
    assert_rejected(hand, "-: time", "time is called once a match (C5)")
    push_all(m, tranque_from(1))
    assert hand.end == "annulled" and m.winner is None
    later = deal_in_match(m, TRANQUE_TIE, 1)
    assert_rejected(later, "-: time", "time is called once a match (C5)")
    assert later.view(None).public["time_up"] is True


def test_C5_fines_never_end_a_match_mid_hand_it_is_decided_at_the_hands_end() -> None:
    """C5: hand 1 TRANQUE_1: [0, 126]. In hand 2 (seat 1 leads TRANQUE_0 moved one on, team 1 has
    fewer pips) the referee fines seat 1 210 points: team 0 has 210 ≥ 200 in the middle of the hand,
    yet nobody has won and play goes on. At the hand's end team 1 scores 126: [210, 252], team 1 wins.
    """
    m = Match(variants.get("dominousa"), options={"strict": True})
    play_in_match(m, TRANQUE_1, TRANQUE_PLAY, 0)
    hand = deal_in_match(m, TRANQUE_0, 1)
    push_all(m, tranque_until(4), 1)
    m.push(ref('ref(Ana Ruiz): fine 1 210 "repeated signals after two warnings"'))
    assert m.totals == [210, 126] and m.winner is None and not m.is_over() and hand.end is None
    push_all(m, tranque_from(4), 1)
    assert hand.end == "tranca" and m.totals == [210, 252] and m.winner == 1


def test_C5_tie_at_200_or_more_plays_on_until_one_team_leads() -> None:
    """C5: [126, 126] after two hands. Hand 3 (TRANQUE_TIE, seat 2) holds two referee fines of 100, one
    each way: [226, 226] and the tranque is tied, so the tie at 200+ plays on. Hand 4 (seat 3 leads
    TRANQUE_0 moved three on: team 1 has fewer pips) gives team 1 126: [226, 352], team 1 wins.
    """
    m = Match(variants.get("dominousa"))
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 0)
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 1)
    deal_in_match(m, TRANQUE_TIE, 2)
    push_all(m, tranque_until(2), 2)
    m.push(ref('ref(Ana Ruiz): fine 0 100 "insulted an opponent"'))
    m.push(ref('ref(Ana Ruiz): fine 1 100 "insulted an opponent"'))
    push_all(m, tranque_from(2), 2)
    assert m.hands[2].end == "annulled" and m.totals == [226, 226] and m.winner is None and m.needs_deal()
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 3)
    assert m.totals == [226, 352] and m.winner == 1


# -- C6 fines ---------------------------------------------------------------------------------------


def test_C6_fine_amounts() -> None:
    """C6: behaviour 20, pass with a playable tile 50, out of turn 20, wrong play 50, jugada corrida 20,
    wrong claim 20 (a behaviour fine)."""
    assert FINES == {
        "behaviour": 20,
        "pass-with-tile": 50,
        "out-of-turn": 20,
        "wrong-play": 50,
        "jugada-corrida": 20,
        "wrong-claim": 20,
    }


def test_C6_out_of_turn_play_fined_20_the_tile_returns_and_the_turn_is_unchanged() -> None:
    """C6: strict, TRANQUE_0 after 3-4, seat 1 to play: seat 2 plays 3-0 L (it fits): team 1 +20, the
    line is still 3-4, 3-0 is back in seat 2's hand, seat 1 still plays. Later, in his turn, seat 2
    plays 3-0 L as usual. ``pop`` takes the fine back.
    """
    hand = play(hand_of(TRANQUE_0, strict=True), "0: 3-4")
    before = state(hand)
    assert_fined(hand, "2: 3-0 L", 20)
    assert Tile(3, 0) in hand.tiles(2) and repr(hand.layout) == "LineLayout('3-4')" and hand.turn == 1
    # the undone play, written "L" in the history, laid nothing left of the lead (the client draws from this)
    assert hand.layout.snapshot()["lead"] == 0
    assert hand.pop() == one_action("2: 3-0 L")
    assert state(hand) == before
    assert_fined(hand, "2: 3-0 L", 20)
    play(hand, "1: 4-0 R, 2: 3-0 L")
    assert repr(hand.layout) == "LineLayout('0-3 3-4 4-0')" and hand.points == [0, 20]
    assert hand.layout.snapshot()["lead"] == 1


def test_C6_out_of_turn_lead_fined_20() -> None:
    """C6 / C9: before the lead, seat 3 leads 3-0 although seat 0 is the leader: out of turn, team 0
    +20, nothing on the table, seat 0 still leads."""
    hand = hand_of(SIXES, strict=True)
    assert assert_fined(hand, "3: 3-0", 20) == Score(1, 3, "fine", 20, 0)
    assert hand.layout.empty and hand.turn == 0 and len(hand.legal_moves) == 13


def test_C6_wrong_play_fined_50_in_strict_mode_the_same_player_acts() -> None:
    """C6: strict, TRANQUE_0 after 3-4 (ends 3, 4): seat 1 plays 5-5 on R, then 6-0 written without an
    end; neither fits: team 0 +50 each time, the tiles go back, seat 1 still acts and plays 5-3 L."""
    hand = play(hand_of(TRANQUE_0, strict=True), "0: 3-4")
    assert_fined(hand, "1: 5-5 R", 50)
    assert_fined(hand, "1: 6-0", 50)
    assert hand.points == [100, 0] and hand.turn == 1
    play(hand, "1: 5-3 L")
    assert repr(hand.layout) == "LineLayout('5-3 3-4')" and hand.turn == 2


def test_C6_pass_with_a_playable_tile_fined_50_and_the_pass_is_cancelled() -> None:
    """C6: strict, SIXES_DOMINO up to seat 0's 6-5 L (ends 5, 6): seat 1 holds five 5s and says pass:
    team 0 +50; the pass does not count (no pass recorded in ``passes``, seat 1 still to play), and a
    second pass is fined again. Then he plays 5-5 L and seat 2 passes for real.
    """
    hand = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass, 2: pass, 3: pass, 0: 6-5 L")
    assert hand.passes == 0
    assert assert_fined(hand, "1: pass", 50) == Score(6, 1, "fine", 50, 0)
    assert assert_fined(hand, "1: pass", 50) == Score(7, 1, "fine", 50, 0)
    assert hand.turn == 1 and hand.passes == 0 and hand.legal_moves_for(1)
    play(hand, "1: 5-5 L, 2: pass")
    assert hand.passes == 1 and hand.turn == 3 and hand.points == [100, 0]


def test_C6_jugada_corrida_fined_20_and_the_play_stands() -> None:
    """C6: strict, SIXES: 6-6, then seat 1 and seat 2 pass; seat 0 (the last to play, holding the only
    6s) plays 6-5 L before seat 3 has passed, without announcing: team 1 +20, the play stands (the line
    is 5-6 6-6, seat 1 is next).
    """
    hand = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass, 2: pass")
    assert hand.turn == 3 and hand.claim_is_right(0)
    assert hand.would_be_fined(Move.parse("6-5 L"), 0)
    play(hand, "0: 6-5 L")
    assert hand.scores == [Score(4, 0, "fine", 20, 1)]
    assert repr(hand.layout) == "LineLayout('5-6 6-6')" and Tile(6, 5) not in hand.tiles(0)
    assert hand.turn == 1 and hand.last == 0


def test_C6_right_claim_skips_the_passes_and_the_claimer_plays_on() -> None:
    """C6: SIXES, casual mode: after 6-6 only seat 0 may claim (nobody else holds a 6); the claim skips
    all three passes: seat 0 plays 6-5 L at once. Nothing is scored. The claim is in the history.
    """
    hand = play(hand_of(SIXES), "0: 6-6")
    assert CLAIM in hand.legal_moves_for(0) and all(CLAIM not in hand.legal_moves_for(s) for s in (1, 2, 3))
    play(hand, "0: claim")
    assert hand.turn == 0 and hand.history[-1] == (0, CLAIM)
    play(hand, "0: 6-5 L")
    assert hand.scores == [] and hand.turn == 1 and len(hand.history) == 3


def test_C6_wrong_claim_fined_20_and_nothing_else_changes() -> None:
    """C6: strict, SIXES after 6-6, three passes and 6-5 L (ends 5, 6): seat 1 holds 5s, so seat 0's
    claim is wrong: team 1 +20, seat 1 still to play. A claim by seat 2, who did not make the last
    play, is wrong too: team 1 +20 again.
    """
    hand = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass, 2: pass, 3: pass, 0: 6-5 L")
    assert not hand.claim_is_right(0)
    assert assert_fined(hand, "0: claim", 20) == Score(6, 0, "fine", 20, 1)
    assert assert_fined(hand, "2: claim", 20) == Score(7, 2, "fine", 20, 1)
    assert hand.turn == 1 and hand.points == [0, 40]


@pytest.mark.parametrize(
    ("seats", "before", "offence", "points"),
    [
        (TRANQUE_0, "0: 3-4", "2: 3-0 L", 20),  # out of turn
        (TRANQUE_0, "0: 3-4", "1: 5-5 R", 50),  # wrong play
        (TRANQUE_0, "0: 3-4", "1: pass", 50),  # pass with 4-0
        (SIXES, "0: 6-6, 1: pass", "0: 6-5 L", 20),  # jugada corrida
        (SIXES, "0: 6-6, 1: pass, 2: pass, 3: pass, 0: 6-5 L", "0: claim", 20),  # wrong claim
    ],
)
@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_C6_fines_go_to_the_opposing_team(
    seats: tuple[str, ...], before: str, offence: str, points: int, k: int
) -> None:
    """C6: each fine, committed by each seat in turn (the deal and the actions moved ``k`` seats on):
    the points go to the team that did not commit it, never to the offender's partner."""
    hand = play(hand_of(shift(seats, k), leader=k, strict=True), shift_actions(before, k))
    [(seat, move)] = actions(shift_actions(offence, k))
    assert seat is not None
    hand.push(move, seat)
    fine = hand.scores[-1]
    assert fine.kind == "fine" and fine.points == points and fine.seat == seat
    assert fine.to == 1 - seat % 2 and hand.points[seat % 2] == 0


# -- C7 touched tile --------------------------------------------------------------------------------


def test_C7_touched_tile_must_be_played_at_the_first_opportunity_it_fits() -> None:
    """C7: SIXES, casual and strict: after 6-6 the referee records seat 1's 4-4 as touched. It does not
    fit (6, 6): seat 1 passes. After 6-5 L (ends 5, 6) it still does not fit, and seat 1 may play any
    5 (5-5 L). After 6-4 R (ends 5, 4) it fits: 4-4 R is his only move; 5-4 on either end is refused,
    even in strict mode (ignoring a touched tile is not one of the fined actions of C9).
    """
    for strict in (False, True):
        hand = play(hand_of(SIXES, strict=strict), "0: 6-6")
        hand.push(ref('ref(Ana Ruiz): touch 1 4-4 "let it fall on the table"'))
        play(hand, "1: pass, 2: pass, 3: pass, 0: 6-5 L")
        assert "5-5 L" in legal(hand)
        play(hand, "1: 5-5 L, 2: pass, 3: pass, 0: 6-4 R")
        assert legal(hand) == {"4-4 R"}
        assert_rejected(hand, "1: 5-4 R", "seat 1 must first play the touched tile 4-4 (C7)")
        assert_rejected(hand, "1: 5-4 L", "seat 1 must first play the touched tile 4-4 (C7)")
        assert not hand.would_be_fined(Move.parse("5-4 L"), 1)
        play(hand, "1: 4-4 R")
        assert hand.scores == [] and hand.turn == 2


def test_C7_touched_tile_of_the_leader_before_the_lead_must_lead() -> None:
    """C7: SIXES, the referee records seat 0's 6-0 as touched before the lead. The lead is the first
    opportunity (any tile fits it): 6-0 (either way round) is the only lead, 6-6 is refused.
    """
    hand = hand_of(SIXES)
    hand.push(ref('ref(Ana Ruiz): touch 0 6-0 "showed it while picking up his tiles"'))
    assert legal(hand) == {"6-0", "0-6"}
    assert_rejected(hand, "0: 6-6", "seat 0 must first play the touched tile 6-0 (C7)")
    play(hand, "0: 0-6")
    assert repr(hand.layout) == "LineLayout('0-6')"


def test_C7_touched_tile_face_up_is_visible_in_every_seats_view() -> None:
    """C7: TRANQUE_0 after 3-4: the referee records seat 3's 6-6 as touched (it fits nowhere). Every seat
    and a spectator see it among the public facts, while seat 3's other tiles stay hidden (counts only).
    """
    hand = play(hand_of(TRANQUE_0), "0: 3-4")
    hand.push(ref('ref(Ana Ruiz): touch 3 6-6 "turned it over"'))
    for seat in (0, 1, 2, 3, None):
        view = hand.view(seat)
        assert view.public["touched"] == [[], [], [], ["6-6"]]
        assert view.counts == (6, 7, 7, 7) and view.revealed is None
    assert hand.touched[3] == Tile(6, 6).mask


def test_C7_domino_with_the_touched_tile_scores_nothing() -> None:
    """C7: SIXES_DOMINO. Seat 0's 6-1 is recorded as touched before his last turn (it fits R: he would
    play it anyway): his domino with it ends the hand but team 0 scores nothing (it would be 50).
    Another run: his 6-4 is touched after 6-5 L and played at his next turn (6-4 R, the first
    opportunity); his later domino with 6-1 is not made with the touched tile and scores 50.
    """
    hand = play(hand_of(SIXES), SIXES_DOMINO)
    hand.push(ref('ref(Ana Ruiz): touch 0 6-1 "showed it to his partner"'))
    play(hand, SIXES_DOMINO_LAST)
    assert hand.end == "batida" and hand.scores == [] and hand.points == [0, 0]
    assert hand.lead_losers == frozenset({0})

    hand = hand_of(SIXES)
    for n, (seat, move) in enumerate(actions(SIXES_DOMINO + SIXES_DOMINO_LAST)):
        hand.push(move, seat)
        if n == 4:  # after 0: 6-5 L
            hand.push(ref('ref(Ana Ruiz): touch 0 6-4 "showed it to his partner"'))
    assert hand.end == "batida" and hand.scores == [Score(26, 0, "batida", 50, 0)]


def test_C7_tranque_with_the_touched_tile_scores_nothing_for_his_team() -> None:
    """C7: TRANQUE_1 (team 1 has fewer pips). After seat 1's 0-5 R (action 6) the referee records his
    6-0 as touched; at his next turn (ends 0, 6) 6-0 is all he may play, and 6-0 R makes the tranque:
    team 1 would score 126, but not with the touched tile. With TRANQUE_0 the same touched tranque is
    won by team 0, which is not the toucher's team: team 0 scores its 126 as usual.
    """
    for seats, points in ((TRANQUE_1, [0, 0]), (TRANQUE_0, [126, 0])):
        hand = play(hand_of(seats), tranque_until(6))
        hand.push(ref('ref(Ana Ruiz): touch 1 6-0 "knocked it over"'))
        play(hand, "2: 1-2 L, 3: 5-6 R, 0: 0-1 L")
        assert legal(hand) == {"6-0 L", "6-0 R"}
        play(hand, "1: 6-0 R")
        assert hand.end == "tranca" and hand.points == points


def test_C7_touched_tile_player_loses_his_next_lead_the_next_seat_leads() -> None:
    """C7: a match led by seat 0 (no draw). In hand 1 (TRANQUE_0) seat 1's 6-0 is touched: hand 2
    should be his (rotation 0 → 1), so the next seat, seat 2, leads it. Another match: in hand 1 seat
    3's 6-6 is touched; his next lead is hand 4 (hands 2 and 3, tied tranques, are led by seats 1 and
    2 as usual), and seat 0 leads it instead.
    """
    m = Match(variants.get("dominousa"))
    hand = deal_in_match(m, TRANQUE_0, 0)
    push_all(m, tranque_until(6))
    m.push(ref('ref(Ana Ruiz): touch 1 6-0 "knocked it over"'))
    push_all(m, tranque_from(6))
    assert hand.end == "tranca" and hand.lead_losers == frozenset({1})
    second = deal_in_match(m, TRANQUE_0, 2)
    assert second.leader == 2 and second.turn == 2 and second.legal_moves_for(1) == []

    m = Match(variants.get("dominousa"))
    hand = deal_in_match(m, TRANQUE_0, 0)
    push_all(m, "0: 3-4")
    m.push(ref('ref(Ana Ruiz): touch 3 6-6 "turned it over"'))
    push_all(m, tranque_from(1))
    assert hand.lead_losers == frozenset({3})
    play_in_match(m, TRANQUE_TIE, TRANQUE_PLAY, 1)
    play_in_match(m, TRANQUE_TIE, TRANQUE_PLAY, 2)
    assert deal_in_match(m, TRANQUE_0, 0).leader == 0  # seat 3's lead (hand 4) goes to seat 0


def test_C7_in_control_with_a_touched_tile_random_play_makes_no_jugada_corrida_with_another() -> None:
    """C7: strict, SIXES after 6-6 and seat 1's pass: seat 0 controls both ends (6, 6) and the referee
    records his 6-3 as touched. A jugada corrida stands only with 6-3 (fined 20); 6-5 L, or any other
    6, is refused (C7 applies to a jugada corrida too, in strict mode too), and ``is_legal`` says so.
    The random play of the property tests (``random_action``) makes jugadas corridas: over many
    random streams every action it picks here is one the engine accepts, the corrida with 6-3 among
    them (it once picked any of seat 0's 6s, which C7 refuses).
    """
    hand = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass")
    hand.push(ref('ref(Ana Ruiz): touch 0 6-3 "showed it to his partner"'))
    assert hand.turn == 2 and hand.claim_is_right(0)
    assert_rejected(hand, "0: 6-5 L", "seat 0 must first play the touched tile 6-3 (C7)")
    assert not hand.is_legal(Move.parse("6-5 L"), 0)
    assert hand.is_legal(Move.parse("6-3 L"), 0) and hand.is_legal(Move.parse("6-3 R"), 0)
    picked = set()
    for seed in range(300):
        probe = hand.copy()
        seat, move = random_action(probe, random.Random(seed))
        probe.push(move, seat)  # IllegalMoveError: random play picked an action C7 refuses
        picked.add(format_action(seat, move))
    assert {"0: 6-3 L", "0: 6-3 R"} & picked  # the jugada corrida is still made, with the touched tile


# -- C8 referee -------------------------------------------------------------------------------------


def test_C8_referee_fine_goes_to_the_opposing_team_any_amount() -> None:
    """C8: the referee may apply any fine: 50 to seat 3 gives team 0 50; 30 to seat 0 gives team 1 30.
    A fine must be positive and name a seat 0..3; refused ones change nothing."""
    hand = play(hand_of(TRANQUE_0), "0: 3-4")
    hand.push(ref('ref(Ana Ruiz): fine 3 50 "intentional pass, first offence"'))
    hand.push(ref('ref(Ana Ruiz): fine 0 30 "slow play after a warning"'))
    assert hand.scores == [Score(2, None, "fine", 50, 0), Score(3, None, "fine", 30, 1)]
    assert hand.points == [50, 30]
    assert_rejected(hand, 'ref(Ana Ruiz): fine 4 20 "x"', "there is no seat 4")
    assert_rejected(hand, 'ref(Ana Ruiz): fine 2 0 "x"', "the points must be positive")
    assert_rejected(hand, 'ref(Ana Ruiz): score 2 10 "x"', "the side is team 0 or 1")
    assert_rejected(hand, 'ref(Ana Ruiz): touch 1 6-6 "x"', "seat 1 does not hold 6-6")


def test_C8_referee_corrects_a_score() -> None:
    """C8: after TRANQUE_0's tranque ([126, 0]) the referee corrects team 0 by -6 (a tile miscounted):
    the correction is its own ``referee`` score, [120, 0]; a correction of 0 is refused."""
    m = Match(variants.get("dominousa"))
    hand = play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 0)
    m.push(ref('ref(Ana Ruiz): score 0 -6 "the 3-3 was counted twice"'))
    assert hand.scores[-1] == Score(11, None, "referee", -6, 0)
    assert hand.points == [120, 0] and m.totals == [120, 0]
    assert_rejected(hand, 'ref(Ana Ruiz): score 0 0 "nothing"', "the correction must not be 0")


def test_C8_referee_annuls_the_hand_in_play() -> None:
    """C8: TRANQUE_0 after four plays: the referee annuls the hand (a misdeal found): it ends as
    ``annulled`` with no score; nobody may play on; an annulled hand cannot be annulled again."""
    hand = play(hand_of(TRANQUE_0), tranque_until(4))
    hand.push(ref('ref(Ana Ruiz): annul "seat 2 was dealt 8 tiles"'))
    assert hand.end == "annulled" and hand.scores == [] and len(hand.history) == 5
    assert all(hand.legal_moves_for(s) == [] for s in range(4))
    assert_rejected(hand, "0: 2-0 L", "the hand is over (annulled)")
    assert_rejected(hand, 'ref(Ana Ruiz): annul "again"', "nothing to annul")


def test_C8_referee_awards_the_match() -> None:
    """C8: hand 1 TRANQUE_0 gives team 0 126; in hand 2 the referee awards the match to team 1 (team 0
    walked away from the table): team 1 wins whatever the score, and nothing more is accepted."""
    m = Match(variants.get("dominousa"))
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 0)
    hand = deal_in_match(m, TRANQUE_0, 1)
    m.push(ref('ref(Ana Ruiz): award 1 "team 0 left the table"'))
    assert m.winner == 1 and m.totals == [126, 0] and hand.end == "awarded" and hand.awarded == 1
    with pytest.raises(IllegalMoveError, match="the match is over"):
        m.push(ref('ref(Ana Ruiz): fine 1 20 "late"'))
    with pytest.raises(IllegalMoveError):
        hand.push(ref('ref(Ana Ruiz): award 0 "changed his mind"'))


def test_C8_every_decision_is_recorded_with_the_referees_name_and_reason() -> None:
    """C8 / records.md: a strict match recorded and replayed.

    Hand 1 (the draw gives seat 0 the lead): TRANQUE_0 with an out-of-turn play (team 1 +20), a
    referee fine on seat 2 (team 1 +20), a touched tile (seat 3's 6-6, never fitting), a score
    correction (team 0 -6): [126 - 6, 40] = [120, 40]. Hand 2 (seat 1): a fine on seat 3 (team 0 +50),
    then the referee annuls it: [50, 0]. Hand 3 (seat 2): the table calls time, the referee awards the
    match to team 1. The record holds each decision as written, with the referee's name and reason,
    and replays to the same scores, ends, leaders and winner; only the first hand holds the draw.
    """
    m = Match(variants.get("dominousa"), options={"strict": True})
    deal_in_match(m, TRANQUE_0, 0, {"lead_draw": ["6-6", "5-5", "4-4", "3-3"]})
    push_all(m, "0: 3-4, 2: 3-0 L")
    decisions = [
        'ref(Juan Pérez): fine 2 20 "signalled his partner"',
        'ref(Juan Pérez): touch 3 6-6 "dropped it face up"',
        'ref(Juan Pérez): score 0 -6 "a table point counted twice, \\"by mistake\\""',
    ]
    for text in decisions:
        m.push(ref(text))
    push_all(m, tranque_from(1))
    assert m.hands[0].points == [120, 40]
    deal_in_match(m, TRANQUE_TIE, 1)
    push_all(m, "0: 3-4, 1: 4-0 R", 1)
    decisions += [
        'ref(Juan Pérez): fine 3 50 "looked at the tiles of seat 2"',
        'ref(Juan Pérez): annul "the set was short"',
    ]
    m.push(ref(decisions[-2]))
    m.push(ref(decisions[-1]))
    deal_in_match(m, TRANQUE_0, 2)
    push_all(m, "0: 3-4, -: time", 2)
    decisions.append('ref(Juan Pérez): award 1 "team 0 refused to play on"')
    m.push(ref(decisions[-1]))
    assert m.totals == [170, 40] and m.winner == 1

    record = Record.from_match(m, ["Ana", "Beto", "Carla", "Dani"])
    text = record.dumps()
    written = [a for h in record.hands for a in h.actions if a.startswith("ref(")]
    assert written == decisions
    assert "-: time" in record.hands[2].actions and "2: 3-0 L" in record.hands[0].actions
    assert record.hands[0].extra == {"lead_draw": ["6-6", "5-5", "4-4", "3-3"]}
    assert record.hands[1].extra == {} and record.hands[2].extra == {}
    again = replay(Record.loads(text))
    assert summary(again) == summary(m)
    assert leaders(again) == [0, 1, 2]
    assert [h.end for h in again.hands] == ["tranca", "annulled", "awarded"]
    assert again.winner == 1
    assert [s.kind for s in again.hands[0].scores] == ["fine", "fine", "referee", "tranca"]


def test_C8_decision_made_after_a_hand_ended_replays_from_the_record() -> None:
    """C8: after TRANQUE_0's tranque the referee fines seat 3 for an insult and corrects a score. The
    engine accepts both (the hand stays a tranca: [146 - 6, 0]); the record of the match must replay.
    """
    m = Match(variants.get("dominousa"))
    play_in_match(m, TRANQUE_0, TRANQUE_PLAY, 0)
    m.push(ref('ref(Juan Pérez): fine 3 20 "insulted seat 0 while counting"'))
    m.push(ref('ref(Juan Pérez): score 0 -6 "miscount"'))
    assert m.totals == [140, 0] and m.hand.end == "tranca"
    again = replay(Record.loads(Record.from_match(m).dumps()))
    assert summary(again) == summary(m)


def test_C8_referee_decisions_must_be_well_formed() -> None:
    """C8: a decision names the referee, uses a known decision with its arguments, and gives a reason."""
    for bad in (
        'ref(): fine 2 20 "no name"',
        "ref(Juan): fine 2 20",
        'ref(Juan): fine 2 20 ""',
        'ref(Juan): expel 2 "unknown decision"',
        'ref(Juan): fine 2 "missing points"',
        'ref(Juan): touch 2 7-7 "no such tile"',
        'ref(Juan): fine 2 20 "unclosed',
        'Juan: fine 2 20 "no ref()"',
    ):
        with pytest.raises(MoveError):
            RefereeAction.parse(bad)


# -- C9 strict mode ---------------------------------------------------------------------------------

CASUAL_REJECTIONS = [
    (TRANQUE_0, "0: 3-4", "2: 3-0 L", "not seat 2's turn: seat 1 is to play"),  # out of turn, fits
    (TRANQUE_0, "0: 3-4", "3: 6-6 R", "not seat 3's turn: seat 1 is to play"),  # out of turn, fits nowhere
    (SIXES, "", "3: 3-0", "not seat 3's turn: seat 0 is to play"),  # out-of-turn lead
    (TRANQUE_0, "0: 3-4", "1: 5-5 R", "5-5 does not fit the R end (4)"),  # wrong play
    (TRANQUE_0, "0: 3-4", "1: 5-5", "5-5 fits no end"),  # wrong play, no end written
    (TRANQUE_0, "0: 3-4", "1: pass", "seat 1 holds a fitting tile and may not pass"),  # pass with a tile
    (SIXES, "0: 6-6, 1: pass", "0: 6-5 L", "not seat 0's turn: seat 2 is to play"),  # jugada corrida
    (SIXES, "0: 6-6, 1: pass, 2: pass, 3: pass, 0: 6-5 L", "0: claim", "wrong claim"),  # wrong claim
    (SIXES, "0: 6-6, 1: pass", "3: claim", "wrong claim"),  # claim by a seat that did not play last
]


@pytest.mark.parametrize(("seats", "before", "action", "message"), CASUAL_REJECTIONS)
def test_C9_casual_mode_rejects_every_fined_action_with_a_clear_error(
    seats: tuple[str, ...], before: str, action: str, message: str
) -> None:
    """C9: at a casual table (strict off, the default) each action that strict mode fines is refused
    with an error saying why, and nothing changes (not even the history or the score sheet). The
    same action at a strict table is one that would be fined.
    """
    assert Match(variants.get("dominousa")).options["strict"] is False
    casual = play(hand_of(seats), before)
    assert not casual.strict
    assert_rejected(casual, action, message)
    seat, move = one_action(action)
    assert seat is not None and isinstance(move, Move) and not casual.is_legal(move, seat)
    strict = play(hand_of(seats, strict=True), before)
    assert strict.would_be_fined(move, seat) and strict.is_legal(move, seat)


@pytest.mark.parametrize(
    ("before", "action", "message"),
    [
        ("0: 3-4", "1: 3-3 L", "seat 1 does not hold 3-3"),  # in turn, a tile he does not hold
        ("0: 3-4", "2: 6-6 R", "not seat 2's turn"),  # out of turn, a tile he does not hold
        ("", "0: 3-0", "seat 0 does not hold 3-0"),  # a lead he does not hold
        ("0: 3-4", "1: 4-0 L", "4-0 does not fit the L end (3)"),  # fits R, written on L
        ("0: 3-4", "1: 5-3 R", "5-3 does not fit the R end (4)"),  # fits L, written on R
        ("0: 3-4", "1: 4-0 W", "a line has only the ends L and R, not W"),
        ("0: 3-4", "1: 4-0 R galo", "galo is not a call of"),
        ("0: 3-4", "2: pass", "not seat 2's turn"),
        ("", "0: 3-4 L", "4-3 is the lead: it takes no end"),
    ],
)
def test_C9_strict_mode_still_rejects_actions_that_cannot_be_understood(before: str, action: str, message: str) -> None:
    """C9: even at a strict table, TRANQUE_0: a tile the player does not hold, a fitting tile written
    with an end it does not fit (or an end a line does not have), and the like are refused, not fined:
    nothing changes."""
    hand = play(hand_of(TRANQUE_0, strict=True), before)
    seat, move = one_action(action)
    assert seat is not None and isinstance(move, Move) and not hand.would_be_fined(move, seat)
    assert_rejected(hand, action, message)


def test_C9_malformed_text_is_rejected() -> None:
    """C9: text that is not an action is refused before it reaches the table, and a record holding it
    does not replay (the error names hand 1, action 2)."""
    for bad in ("6-4 X", "7-0 L", "6-4 L R", "", "paso", "6 4"):
        with pytest.raises(MoveError):
            Move.parse(bad)
    for bad in ("6-4 L", "x: pass", "12: pass"):
        with pytest.raises(MoveError):
            parse_action(bad)
    m = Match(variants.get("dominousa"), options={"strict": True})
    play_in_match(m, TRANQUE_0, "0: 3-4", 0)
    record = Record.from_match(m)
    record.hands[0].actions.append("1: 4-0 Q")
    with pytest.raises(RecordError, match=r"hand 1, action 2 .*unknown end"):
        replay(record)


def test_C9_strict_is_a_table_option_and_a_casual_record_with_a_fined_action_is_invalid() -> None:
    """C9 / records.md: ``strict`` is false by default and must be a boolean. The same record with an
    out-of-turn play replays at a strict table (fined 20, team 1) and is invalid at a casual one."""
    assert Match(variants.get("dominousa"), options={"strict": True}).options["strict"] is True
    with pytest.raises(MoveError, match="strict"):
        Match(variants.get("dominousa"), options={"strict": "yes"})
    m = Match(variants.get("dominousa"), options={"strict": True})
    play_in_match(m, TRANQUE_0, "0: 3-4, 2: 3-0 L, 1: 4-0 R", 0)
    record = Record.from_match(m)
    assert summary(replay(record))["hands"][0]["scoring"] == [
        {"hand": 1, "action": 2, "seat": 2, "kind": "fine", "points": 20, "to": 1}
    ]
    record.options["strict"] = False
    with pytest.raises(RecordError, match=r"hand 1, action 2 .*not seat 2's turn"):
        replay(record)


def test_C9_pass_without_a_playable_tile_is_never_fined() -> None:
    """C9 / C6: strict, SIXES after 6-6: seat 1 holds no 6; his pass is a pass, not a fine."""
    hand = play(hand_of(SIXES, strict=True), "0: 6-6")
    assert hand.legal_moves == (PASS,) and not hand.would_be_fined(PASS, 1)
    play(hand, "1: pass")
    assert hand.scores == [] and hand.passes == 1 and hand.turn == 2


def test_C9_fitting_tile_pushed_without_its_end_is_refused_with_a_true_reason() -> None:
    """C9: TRANQUE_0 after 3-4 (ends 3, 4): seat 1's 4-0 fits R. Pushed without its end it is refused
    (the end must be said, or resolved as ``parse_move`` does: 4-0 R), and the error must not claim
    that it fits no end. Nothing changes.
    """
    for strict in (False, True):
        hand = play(hand_of(TRANQUE_0, strict=strict), "0: 3-4")
        assert hand.parse_move("4-0", 1) == Move.parse("4-0 R")
        before = state(hand)
        with pytest.raises(IllegalMoveError) as error:
            hand.push(Move.parse("4-0"), 1)
        assert state(hand) == before
        assert "fits no end" not in str(error.value)


# -- C6 / C7 / C9 clarifications (strict mode) ----------------------------------------------------------


@pytest.mark.parametrize("written", ["3-0 L", "3-0 R", "3-0", "0-3", "3-0 W", "3-3 L", "5-1 R"])
def test_C9_a_play_out_of_turn_is_fined_20_and_undone_whatever_end_it_names_or_omits(written: str) -> None:
    """C9 clarification: TRANQUE_0 after 3-4 (ends 3, 4), seat 1 to play: seat 2 plays out of turn. On
    an end it fits, an end it does not fit, no end, an end a line does not have, or a tile that fits no
    end: each is fined 20 and undone; its end is not checked, it is undone anyway."""
    hand = play(hand_of(TRANQUE_0, strict=True), "0: 3-4")
    assert_fined(hand, f"2: {written}", 20)
    assert repr(hand.layout) == "LineLayout('3-4')" and hand.turn == 1


#: SIXES until both ends are 4 (6-6, 6-5 L, 5-5 L, 6-4 R, 5-4 L), seat 2 to play: seat 1 still holds 4-4, which
#: fits both ends, and seat 2 holds 4s (so seat 1 is in no jugada corrida).
SIXES_FOURS = "0: 6-6, 1: pass, 2: pass, 3: pass, 0: 6-5 L, 1: 5-5 L, 2: pass, 3: pass, 0: 6-4 R, 1: 5-4 L"


def test_C9_a_play_out_of_turn_fitting_both_ends_is_fined_without_being_asked_its_end() -> None:
    """C9 clarification: SIXES_FOURS, seat 1 plays 4-4 out of turn and writes no end. It fits both ends, but
    its end is never asked for ("fits more than one end: say which"): read as the live table and records read
    actions, it is fined 20 and undone. At a casual table it is refused for what it is: out of turn."""
    hand = play(hand_of(SIXES, strict=True), SIXES_FOURS)
    assert hand.turn == 2 and not hand.play_stands_out_of_turn(1)
    assert hand.parse_move("4-4", 1) == Move.parse("4-4")  # left as written
    assert assert_fined(hand, "1: 4-4", 20) == Score(11, 1, "fine", 20, 0)
    casual = play(hand_of(SIXES), SIXES_FOURS)
    with pytest.raises(IllegalMoveError, match="not seat 1's turn"):
        casual.push(casual.parse_move("4-4", 1), 1)
    m = Match(variants.get("dominousa"), options={"strict": True})
    play_in_match(m, SIXES, SIXES_FOURS, 0)
    seat, move = m.parse_action("1: 4-4")
    m.push(move, seat)
    m.push(m.parse_move("4-3 L", 2), 2)  # the hand goes on: seat 2 plays
    record = Record.from_match(m)
    assert record.hands[0].actions[-2:] == ["1: 4-4", "2: 4-3 L"]
    replayed = summary(replay(record))["hands"][0]
    assert replayed["scoring"] == [{"hand": 1, "action": 11, "seat": 1, "kind": "fine", "points": 20, "to": 0}]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_C9_any_play_out_of_turn_is_fined_20_and_undone_however_it_is_written(seed: int) -> None:
    """C9 clarification, over random strict hands: a seat that is not to act (and whose play would not stand
    as a jugada corrida) plays a tile he holds, written with L, R or no end, read as the table reads it: it is
    fined 20 to the other team and undone, never refused for its end."""
    for hand, rng in played_hands("dominousa-strict", None, seed, max_hands=2):
        assert isinstance(hand, DominousaHand)
        seat = rng.choice([s for s in range(4) if s != hand.turn])
        if hand.play_stands_out_of_turn(seat) or not hand.hands[seat]:
            continue
        written = f"{rng.choice(hand.tiles(seat))} {rng.choice(['', 'L', 'R'])}".strip()
        trial = hand.copy()
        assert isinstance(trial, DominousaHand)
        before = board(trial)
        trial.push(trial.parse_move(written, seat), seat)
        assert board(trial) == before, written
        assert trial.scores[-1] == Score(len(trial.history), seat, "fine", 20, 1 - seat % 2), written


def test_C9_a_jugada_corrida_fitting_both_ends_still_says_its_end() -> None:
    """C6: a jugada corrida stands, so where it goes matters. SIXES after 6-6 and two passes: seat 0 (the only
    6s) plays on before seat 3 passes; 6-5 fits both ends (6 and 6), so he must say which."""
    hand = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass, 2: pass")
    assert hand.turn == 3 and hand.play_stands_out_of_turn(0)
    with pytest.raises(IllegalMoveError, match="fits more than one end"):
        hand.parse_move("6-5", 0)
    assert hand.parse_move("6-5 L", 0) == Move.parse("6-5 L")


@pytest.mark.parametrize("written", ["3-0", "0-3", "3-0 L", "3-0 R"])
def test_C9_before_the_lead_any_seat_but_the_leader_playing_is_out_of_turn(written: str) -> None:
    """C9 clarification: SIXES, seat 0 leads: seat 3 plays before him, with or without an end: 20 to
    team 0, nothing on the table, seat 0 still leads."""
    hand = hand_of(SIXES, strict=True)
    assert assert_fined(hand, f"3: {written}", 20) == Score(1, 3, "fine", 20, 0)
    assert hand.layout.empty and hand.turn == 0


def test_C9_the_leader_passing_before_the_lead_passes_with_a_playable_tile_fined_50() -> None:
    """C9 clarification: before the lead every tile of the leader is playable: his pass is fined 50
    (C6) and cancelled: he still leads. Outside strict mode it is refused."""
    hand = hand_of(SIXES, strict=True)
    assert assert_fined(hand, "0: pass", 50) == Score(1, 0, "fine", 50, 1)
    assert hand.turn == 0 and hand.layout.empty
    play(hand, "0: 6-6")
    assert repr(hand.layout) == "LineLayout('6-6')"
    assert_rejected(hand_of(SIXES), "0: pass", "not been led")


@pytest.mark.parametrize(
    ("before", "claim"),
    [
        ("", "0: claim"),  # before the lead, by the leader
        ("", "2: claim"),  # before the lead, by another seat
        ("0: 6-6, 1: pass, 2: pass, 3: pass", "0: claim"),  # by the seat to act (the others have passed)
        ("0: 6-6", "1: claim"),  # by the seat to act, who did not make the last play
    ],
)
def test_C9_a_claim_by_the_seat_to_act_or_before_the_lead_is_a_wrong_claim_fined_20(before: str, claim: str) -> None:
    """C9 clarification: a claim by any seat other than the one that made the hand's latest play, the
    seat to act included, and any claim before the lead, is wrong: 20 in strict mode, refused outside it."""
    strict = play(hand_of(SIXES, strict=True), before)
    seat, move = one_action(claim)
    assert isinstance(move, Move) and seat is not None and not strict.claim_is_right(seat)
    assert_fined(strict, claim, 20)
    assert_rejected(play(hand_of(SIXES), before), claim, "wrong claim")


def test_C7_a_jugada_corrida_with_another_tile_while_a_touched_tile_fits_is_refused() -> None:
    """C7 clarification, strict mode: SIXES after 6-6 and seat 1's pass, seat 0 controls both ends; the
    referee records his 6-1 as touched. A jugada corrida with 6-5 is refused (his touched 6-1 fits):
    nothing changes. With the touched tile itself it is a jugada corrida: fined 20, the play stands."""
    hand = play(hand_of(SIXES, strict=True), "0: 6-6, 1: pass")
    hand.push(ref('ref(Ana Ruiz): touch 0 6-1 "showed it to his partner"'))
    assert hand.claim_is_right(0)
    assert not hand.would_be_fined(Move.parse("6-5 L"), 0)
    assert_rejected(hand, "0: 6-5 L", "touched tile 6-1")
    assert hand.would_be_fined(Move.parse("6-1 L"), 0)
    play(hand, "0: 6-1 L")
    assert hand.scores[-1] == Score(4, 0, "fine", 20, 1) and repr(hand.layout) == "LineLayout('1-6 6-6')"


def test_C9_outside_strict_mode_claim_is_offered_only_when_it_is_right() -> None:
    """C9 clarification: at a casual table ``claim`` is in a seat's moves only when it is right; in strict
    mode the player who made the last play is offered it while the others have still to pass, right or
    wrong (whether it is right depends on tiles he may not see)."""
    right = play(hand_of(SIXES), "0: 6-6")  # nobody else holds a 6
    assert CLAIM in right.public_moves_for(0) and all(CLAIM not in right.public_moves_for(s) for s in (1, 2, 3))
    wrong = play(hand_of(TRANQUE_0), "0: 3-4")  # seat 1 holds 4-0
    assert all(CLAIM not in wrong.public_moves_for(s) for s in range(4))
    strict = play(hand_of(TRANQUE_0, strict=True), "0: 3-4")
    assert CLAIM in strict.public_moves_for(0) and CLAIM not in strict.public_moves_for(1)
