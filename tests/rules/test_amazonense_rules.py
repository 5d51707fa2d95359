"""Dominó Amazonense: one test per rule sentence of the seed, and tests for each decision A1–A10.

The seed is ``shared/seeds/amazonense.pt.txt``; the decisions are section A of
``shared/rules/README.md``. Tests named ``test_seed_…`` quote the sentence they check; tests named
``test_A<n>_…`` check decision A<n>. Every hand is dealt by hand (all 28 tiles, each once) and played
with explicit actions written as in records (``"<seat>: <move>"``).

Not tested here, covered by issue 'ratings':
- "Quem tem conta ganha ou perde rating a cada partida: vencer duplas mais fortes rende mais, e galos,
  batidas e pontos nas pontas dão bônus."
- "O ranking semanal soma os pontos ganhos de segunda a domingo; os 3 primeiros ganham medalha de ouro,
  prata ou bronze."
Also not here: the away marking after two timeouts in a row and the bot for away seats (A10), which
belong to the service layer, not to the rules engine.

Counts below follow A2: an arm with tiles counts its outer pip (both halves if the outer tile is a
double); the spinner counts both halves while W or E is empty; an empty N/S arm counts 0.
"""

from __future__ import annotations

from typing import Any

import pytest

from capicua.rules import (
    ANNOUNCE,
    DRAW,
    GALO,
    KEEP,
    PASS,
    REDEAL,
    AmazonenseHand,
    IllegalMoveError,
    Match,
    Move,
    MoveError,
    Score,
    Tile,
    variants,
)
from capicua.rules.moves import format_action, parse_action
from tests.rules.helpers import deal, shift

# -- helpers ---------------------------------------------------------------------------------------


def actions(text: str) -> list[tuple[int, Move]]:
    """Parse ``"0: 6-6, 1: 6-3 W"`` (commas or newlines between actions)."""
    out = []
    for item in text.replace("\n", ",").split(","):
        if item.strip():
            seat, move = parse_action(item)
            assert seat is not None and isinstance(move, Move)
            out.append((seat, move))
    return out


def shift_actions(text: str, k: int) -> str:
    """The same actions made by the seats ``k`` places on (to replay a :func:`shift`-ed deal)."""
    return ", ".join(format_action((seat + k) % 4, move) for seat, move in actions(text))


def hand_of(seats: tuple[str, ...], opener: int | None = None) -> AmazonenseHand:
    return AmazonenseHand(deal(*seats), opener=opener)


def play(hand: AmazonenseHand, text: str) -> AmazonenseHand:
    for seat, move in actions(text):
        hand.push(move, seat)
    return hand


def play_in_match(match: Match, seats: tuple[str, ...], text: str) -> AmazonenseHand:
    """Deal ``seats`` as the match's next hand and play ``text`` through ``match.push``."""
    hand = match.deal(deal(*seats))
    assert isinstance(hand, AmazonenseHand)
    for seat, move in actions(text):
        match.push(move, seat)
    return hand


def state(hand: AmazonenseHand) -> Any:
    """Everything an illegal move must leave unchanged."""
    return (
        repr(hand),
        list(hand.points),
        len(hand.history),
        list(hand.scores),
        hand.turn,
        hand.end,
        [hand.legal_moves_for(s) for s in range(4)],
    )


def assert_rejected(hand: AmazonenseHand, text: str) -> None:
    """``text`` (``"<seat>: <move>"``) raises IllegalMoveError and changes nothing."""
    before = state(hand)
    [(seat, move)] = actions(text)
    with pytest.raises(IllegalMoveError):
        hand.push(move, seat)
    assert state(hand) == before


def scores_at(hand: AmazonenseHand, action: int) -> list[Score]:
    return [s for s in hand.scores if s.action == action]


def legal(hand: AmazonenseHand, seat: int | None = None) -> set[str]:
    return {str(m) for m in hand.legal_moves_for(hand.turn if seat is None else seat)}


# -- deals -----------------------------------------------------------------------------------------

#: The example record of shared/spec/records.md.
RECORD_DEAL = (
    "6-6 5-5 4-2 3-1 0-0 6-1 3-2",
    "6-3 5-4 4-4 2-1 0-1 5-0 2-2",
    "6-2 6-5 4-3 1-1 0-2 5-3 4-0",
    "3-3 6-4 5-2 6-0 5-1 4-1 3-0",
)
RECORD_PLAY = "0: 6-6, 1: 6-3 W, 2: 6-2 E, 3: 3-3 W"

#: Seat 0 holds every 6; seat 1 holds no 5 and no 6; the 5s are with seat 2.
GALO_DEAL = (
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
    "0-0 1-0 1-1 2-0 2-1 2-2 3-0",
    "5-5 5-4 5-3 5-2 5-1 5-0 3-1",
    "4-4 4-3 4-2 4-1 4-0 3-3 3-2",
)

#: Seat 0 holds every 5 (for a 5-5 lead by the player who made the last batida).
FIVES_DEAL = (
    "5-5 5-4 5-3 5-2 5-1 5-0 6-5",
    "6-6 6-4 6-3 6-2 6-1 6-0 4-4",
    "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
    "3-0 2-2 2-1 2-0 1-1 1-0 0-0",
)

#: Seat 3 ends up holding the last three 0s while every end shows 0 (a right galo mid-hand).
GALO_MID_DEAL = (
    "6-6 6-3 3-3 2-1 3-1 6-4 6-5",
    "6-0 1-0 1-1 4-4 3-2 4-1 4-2",
    "6-1 2-0 2-2 5-5 4-3 5-1 5-2",
    "6-2 3-0 0-0 4-0 5-0 5-3 5-4",
)
GALO_MID_PLAY = "0: 6-6, 1: 6-0 W, 2: 6-1 E, 3: 6-2 N, 0: 6-3 S, 1: 1-0 E, 2: 2-0 N"

# Tranca deals. They share TRANCA_PLAY: 12 tiles, 3 by each seat, no pass:
#   6-6 | 6-0 W, 6-1 E, 6-2 N, 6-3 S | 1-0 E, 2-0 N, 3-0 S, 0-0 W | 4-0 E, 5-4 E, 5-0 E
# counts 12 | 12, 1, 3, 6 | 5 (team 1 +5), 3, 0, 0 | 4, 5 (team 0 +5), 0.
# After 5-0 E every end shows 0 and all seven 0s are on the table: tranca. The 16 tiles left in the
# hands (1-1 2-1 2-2 3-1 3-2 3-3 4-1 4-2 4-3 4-4 5-1 5-2 5-3 5-5 6-4 6-5, 102 pips) are split
# differently in each deal to give different tranca results.
TRANCA_PLAY = (
    "0: 6-6, 1: 6-0 W, 2: 6-1 E, 3: 6-2 N, 0: 6-3 S, 1: 1-0 E, 2: 2-0 N, 3: 3-0 S,"
    " 0: 0-0 W, 1: 4-0 E, 2: 5-4 E, 3: 5-0 E"
)
#: Left in hand: 0: 1-1 2-1 3-1 4-1 (14), 2: 2-2 3-2 3-3 4-2 (21) → team 0 35;
#: 1: 4-3 4-4 5-1 5-2 (28), 3: 5-3 5-5 6-4 6-5 (39) → team 1 67. Team 0 scores 65.
TRANCA_65 = (
    "6-6 6-3 0-0 1-1 2-1 3-1 4-1",
    "6-0 1-0 4-0 4-3 4-4 5-1 5-2",
    "6-1 2-0 5-4 2-2 3-2 3-3 4-2",
    "6-2 3-0 5-0 5-3 5-5 6-4 6-5",
)
#: Left in hand: 0: 2-1 3-1 6-4 6-5 (28), 2: 1-1 2-2 3-3 5-3 (20) → team 0 48;
#: 1: 3-2 4-1 4-2 4-3 (23), 3: 4-4 5-1 5-2 5-5 (31) → team 1 54. Team 0 scores 50.
TRANCA_50 = (
    "6-6 6-3 0-0 2-1 3-1 6-4 6-5",
    "6-0 1-0 4-0 3-2 4-1 4-2 4-3",
    "6-1 2-0 5-4 1-1 2-2 3-3 5-3",
    "6-2 3-0 5-0 4-4 5-1 5-2 5-5",
)
#: Left in hand: 0: 2-1 3-1 6-4 6-5 (28), 2: 1-1 2-2 4-3 5-5 (23) → team 0 51;
#: 1: 3-2 3-3 4-1 4-2 (22), 3: 4-4 5-1 5-2 5-3 (29) → team 1 51. Nobody scores the tranca.
TRANCA_EVEN = (
    "6-6 6-3 0-0 2-1 3-1 6-4 6-5",
    "6-0 1-0 4-0 3-2 3-3 4-1 4-2",
    "6-1 2-0 5-4 1-1 2-2 4-3 5-5",
    "6-2 3-0 5-0 4-4 5-1 5-2 5-3",
)

#: Seat 1 is dealt five doubles (0-0 1-1 2-2 3-3 4-4); seat 0 holds 6-6.
KEEP_DEAL = (
    "6-6 6-3 3-0 2-1 3-1 3-2 4-1",
    "6-0 0-0 4-0 1-1 2-2 3-3 4-4",
    "6-1 1-0 5-4 4-2 4-3 5-1 5-2",
    "6-2 2-0 5-0 5-3 5-5 6-4 6-5",
)
#: keep (team 1 +50), then a tranca like TRANCA_PLAY: 6-6 | 6-0 W, 6-1 E, 6-2 N, 6-3 S | 0-0 W,
#: 1-0 E (0+0+2+3 = 5, team 0), 2-0 N, 3-0 S | 4-0 W, 5-4 W (5, team 0), 5-0 W: every end 0, tranca.
#: Left: 0: 2-1 3-1 3-2 4-1 (17), 2: 4-2 4-3 5-1 5-2 (26) → 43; 1: 1-1 2-2 3-3 4-4 (20),
#: 3: 5-3 5-5 6-4 6-5 (39) → 59. Team 0 scores 55. The hand scores [65, 50].
KEEP_PLAY = (
    "1: keep, 0: 6-6, 1: 6-0 W, 2: 6-1 E, 3: 6-2 N, 0: 6-3 S, 1: 0-0 W, 2: 1-0 E, 3: 2-0 N,"
    " 0: 3-0 S, 1: 4-0 W, 2: 5-4 W, 3: 5-0 W"
)

#: Seat 2 is dealt six doubles, 6-6 among them.
SIX_DOUBLES_DEAL = (
    "0-0 6-4 6-3 6-2 6-1 6-0 5-4",
    "5-3 5-2 5-1 5-0 4-3 4-2 4-1",
    "6-6 5-5 4-4 3-3 2-2 1-1 6-5",
    "4-0 3-2 3-1 3-0 2-1 2-0 1-0",
)

#: Seat 0 is dealt exactly four doubles: 6-6 5-5 4-4 3-3.
DOUBLES_4_DEAL = (
    "6-6 5-5 4-4 3-3 2-1 1-0 2-0",
    "6-5 5-4 6-2 4-3 6-0 4-0 4-1",
    "6-4 5-3 4-2 6-1 5-0 5-1 5-2",
    "6-3 0-0 1-1 2-2 3-0 3-1 3-2",
)
#: Seat 0 plays his four doubles as his first four tiles (actions 2, 6, 10, 14), never passing.
DOUBLES_4_PLAY = (
    "0: announce, 0: 6-6, 1: 6-5 W, 2: 6-4 E, 3: 6-3 N, 0: 5-5 W, 1: 6-2 S, 2: 5-1 W, 3: 1-1 W,"
    " 0: 3-3 N, 1: 4-1 W, 2: 5-2 S, 3: 3-0 N, 0: 4-4 E"
)

#: Nobody but seats 2 and 3 holds a double; seat 2's are 6-6 5-5 4-4, seat 3's 3-3 2-2 1-1 0-0.
NO_DOUBLE_DEAL = (
    "6-5 6-4 6-3 6-2 6-1 6-0 5-4",
    "5-3 5-2 5-1 5-0 4-3 4-2 4-1",
    "6-6 5-5 4-4 4-0 3-2 3-1 3-0",
    "3-3 2-2 1-1 0-0 2-1 2-0 1-0",
)
NO_DOUBLE_PLAY = "2: 6-6, 3: pass, 0: 6-3 W, 1: 4-3 W"
#: Seat 0 holds no double; seat 1 holds five (6-6 5-5 4-4 3-3 2-2).
REDEAL_DEAL = (
    "6-5 6-4 6-3 6-2 6-1 6-0 5-4",
    "6-6 5-5 4-4 3-3 2-2 5-3 5-2",
    "1-1 0-0 5-1 5-0 4-3 4-2 4-1",
    "4-0 3-2 3-1 3-0 2-1 2-0 1-0",
)

#: Seat 3 leads 6-6 and goes out with 5-5 at action 25 (see test_A7_…).
BATIDA_DOUBLE_DEAL = (
    "6-1 6-0 5-2 5-1 4-4 3-3 3-0",
    "6-4 6-2 5-4 4-3 4-2 4-0 1-1",
    "6-5 6-3 5-3 4-1 3-2 2-1 0-0",
    "6-6 5-5 5-0 3-1 2-2 2-0 1-0",
)
BATIDA_DOUBLE_PLAY = """
    3: 6-6, 0: 6-1 W, 1: 1-1 W, 2: 2-1 W,
    3: 2-0 W, 0: 6-0 W, 1: 6-4 E, 2: 6-5 S,
    3: 5-0 S, 0: 3-0 S, 1: 4-0 E, 2: 6-3 W,
    3: 3-1 S, 0: 5-1 S, 1: 6-2 N, 2: 0-0 E,
    3: 1-0 E, 0: 5-2 S, 1: 4-2 S, 2: 3-2 W,
    3: 2-2 N, 0: 4-4 S, 1: 5-4 S, 2: 4-1 E,
"""
BATIDA_DOUBLE_LAST = "3: 5-5 S"

#: Seat 3 leads 6-6 and goes out with 2-1 at action 25 while his opponents hold 0-0 and 1-1.
BATIDA_ZERO_DEAL = (
    "6-4 5-3 5-2 4-4 4-3 2-0 0-0",
    "6-3 6-1 5-1 5-0 4-2 4-1 3-3",
    "6-2 6-0 5-5 5-4 4-0 1-1 1-0",
    "6-6 6-5 3-2 3-1 3-0 2-2 2-1",
)
BATIDA_ZERO_PLAY = """
    3: 6-6, 0: 6-4 W, 1: 6-1 E, 2: 6-2 N,
    3: 2-2 N, 0: 5-2 N, 1: 5-1 E, 2: 4-0 W,
    3: 6-5 E, 0: 5-3 N, 1: 6-3 S, 2: 6-0 E,
    3: 3-2 S, 0: 2-0 E, 1: 4-2 E, 2: 5-4 E,
    3: 3-0 W, 0: 4-3 N, 1: 3-3 W, 2: 5-5 E,
    3: 3-1 W, 0: 4-4 N, 1: 4-1 N, 2: 1-0 N,
"""
BATIDA_ZERO_LAST = "3: 2-1 W"


#: Every scripted hand of this file, as (deal, opener, actions).
SCRIPTED_HANDS: list[tuple[tuple[str, ...], int | None, str]] = [
    (RECORD_DEAL, None, RECORD_PLAY),
    (GALO_DEAL, None, "0: 6-6, 1: pass, 2: pass, 3: pass, 0: 6-2 W, 1: 2-2 W, 2: 5-2 W"),
    (GALO_DEAL, None, "0: 6-6 galo, 0: 6-5 W galo, 1: pass"),
    (GALO_DEAL, None, "0: 6-6 galo, 0: 6-5 W, 0: galo, 1: pass"),
    (shift(GALO_DEAL, 1), None, "1: 6-6, 2: pass"),
    (GALO_MID_DEAL, None, GALO_MID_PLAY + ", 3: 3-0 S galo, 3: 0-0 W, 3: galo, 3: 5-0 E"),
    (FIVES_DEAL, 0, "0: 5-5 galo"),
    (DOUBLES_4_DEAL, None, DOUBLES_4_PLAY),
    (KEEP_DEAL, None, KEEP_PLAY),
    (TRANCA_65, None, TRANCA_PLAY),
    (TRANCA_50, None, TRANCA_PLAY),
    (TRANCA_EVEN, None, TRANCA_PLAY),
    (NO_DOUBLE_DEAL, 0, NO_DOUBLE_PLAY),
    (BATIDA_DOUBLE_DEAL, None, BATIDA_DOUBLE_PLAY + BATIDA_DOUBLE_LAST),
    (BATIDA_DOUBLE_DEAL, None, BATIDA_DOUBLE_PLAY + "3: 5-5 S galo"),
    (BATIDA_ZERO_DEAL, None, BATIDA_ZERO_PLAY + BATIDA_ZERO_LAST),
]


def before_batida_double() -> AmazonenseHand:
    """BATIDA_DOUBLE_DEAL played up to seat 3's last tile (points [55, 40])."""
    return play(hand_of(BATIDA_DOUBLE_DEAL), BATIDA_DOUBLE_PLAY)


def match_after_batida() -> Match:
    """A match whose first hand ended with seat 3's batida (totals [55, 90])."""
    m = Match(variants.get("amazonense"))
    play_in_match(m, BATIDA_DOUBLE_DEAL, BATIDA_DOUBLE_PLAY + BATIDA_DOUBLE_LAST)
    assert m.hand.end == "batida" and m.totals == [55, 90] and m.needs_deal()
    return m


def match_at_150_150() -> Match:
    """Four tranca hands: [70, 5], [5, 70], [70, 5], [5, 70] → totals [150, 150]."""
    m = Match(variants.get("amazonense"))
    for k in (0, 1, 0, 1):
        play_in_match(m, shift(TRANCA_65, k), shift_actions(TRANCA_PLAY, k))
    assert m.totals == [150, 150] and m.winner is None
    return m


def match_tied_at_200() -> tuple[Match, AmazonenseHand]:
    """Hands [5, 70], [5, 70], [55, 5], [65, 50] → [130, 195]; then TRANCA_65 [70, 5] → [200, 200]."""
    m = Match(variants.get("amazonense"))
    play_in_match(m, shift(TRANCA_65, 1), shift_actions(TRANCA_PLAY, 1))
    play_in_match(m, shift(TRANCA_65, 1), shift_actions(TRANCA_PLAY, 1))
    play_in_match(m, TRANCA_50, TRANCA_PLAY)
    play_in_match(m, KEEP_DEAL, KEEP_PLAY)
    assert m.totals == [130, 195] and m.winner is None
    last = play_in_match(m, TRANCA_65, TRANCA_PLAY)
    return m, last


# -- A mesa: the table ------------------------------------------------------------------------------


def test_seed_partnerships_28_tiles_points_counted_in_fives() -> None:
    """'O dominó do Amazonas é jogado em duplas, com 28 pedras (duplo-seis) e pontos contados de 5 em 5.'

    Teams are seats 0+2 and 1+3. A deal must hold each of the 28 double-six tiles exactly once.
    Every score of every scripted hand of this file (tables, passes, galos, doubles, batidas,
    trancas, no-double) is a positive multiple of 5, and so is every team's total.
    """
    hand = hand_of(RECORD_DEAL)
    assert [hand.team(s) for s in range(4)] == [0, 1, 0, 1]
    twice = deal(*RECORD_DEAL)
    twice[3][0] = Tile.parse("6-6")  # 6-6 twice, 3-3 missing
    with pytest.raises(MoveError):
        AmazonenseHand(twice)

    kinds = set()
    for seats, opener, text in SCRIPTED_HANDS:
        hand = play(hand_of(seats, opener), text)
        assert all(s.points > 0 and s.points % 5 == 0 for s in hand.scores)
        assert all(p % 5 == 0 for p in hand.points)
        kinds |= {s.kind for s in hand.scores}
    assert kinds == {
        "table",
        "pass",
        "galo",
        "galo-wrong",
        "doubles-4",
        "doubles-5",
        "no-double",
        "batida",
        "batida-double",
        "tranca",
    }


def test_seed_first_team_to_200_wins() -> None:
    """'Ganha a dupla que chegar primeiro a 200 pontos.'

    TRANCA_65 three times: [70, 5] → [140, 10] (not over) → [210, 15]: team 0 wins, the match is
    over, no further deal or move is accepted.
    """
    m = Match(variants.get("amazonense"))
    assert m.options["target"] == 200
    play_in_match(m, TRANCA_65, TRANCA_PLAY)
    play_in_match(m, TRANCA_65, TRANCA_PLAY)
    assert m.totals == [140, 10] and m.winner is None and m.needs_deal()
    play_in_match(m, TRANCA_65, TRANCA_PLAY)
    assert m.totals == [210, 15]
    assert m.winner == 0 and m.is_over() and not m.needs_deal()
    with pytest.raises(IllegalMoveError):
        m.deal(deal(*TRANCA_65))
    with pytest.raises(IllegalMoveError):
        m.push(PASS, 0)


def test_seed_four_players_partners_face_each_other_turn_passes_clockwise() -> None:
    """'4 jogadores em 2 duplas: parceiros sentam frente a frente e a vez passa no sentido horário.'

    RECORD_PLAY: the turn goes 0 → 1 → 2 → 3 → 0. 6-3 W by seat 1 (3 + 12 = 15) scores for team 1;
    6-2 E by seat 2 (3 + 2 = 5) scores for team 0, the team of seat 0 sitting opposite.
    """
    hand = hand_of(RECORD_DEAL)
    turns = [hand.turn]
    for seat, move in actions(RECORD_PLAY):
        hand.push(move, seat)
        turns.append(hand.turn)
    assert turns == [0, 1, 2, 3, 0]
    assert hand.scores == [Score(2, 1, "table", 15, 1), Score(3, 2, "table", 5, 0)]
    assert hand.points == [5, 15]


def test_seed_seven_tiles_each_no_boneyard() -> None:
    """'Cada jogador recebe 7 pedras; não há monte para comprar.'

    A deal of 7 tiles a seat is required; a match refuses a boneyard; a player who cannot play
    passes (GALO_DEAL after 6-6: seat 1 has no 6) and may not draw.
    """
    hand = hand_of(RECORD_DEAL)
    assert [len(hand.tiles(s)) for s in range(4)] == [7, 7, 7, 7]
    short = deal(*RECORD_DEAL)
    short[0] = short[0][:6]
    with pytest.raises(MoveError):
        AmazonenseHand(short)
    m = Match(variants.get("amazonense"))
    six_each = [d[:6] for d in deal(*RECORD_DEAL)]
    rest = [d[6] for d in deal(*RECORD_DEAL)]
    with pytest.raises(MoveError):
        m.deal(six_each, boneyard=rest)
    assert m.hands == []

    hand = play(hand_of(GALO_DEAL), "0: 6-6")
    assert hand.legal_moves == (PASS,)
    assert_rejected(hand, "1: draw")
    assert DRAW not in hand.legal_moves


def test_seed_first_hand_led_by_holder_of_6_6() -> None:
    """'Na 1ª mão sai quem tem a carroça de sena (6-6).'

    RECORD_DEAL moved two seats on: seat 2 holds 6-6 (and 5-5, 0-0). In the match's first hand seat 2
    is to play and 6-6 is his only move; 6-6 alone counts 12 (no score).
    """
    m = Match(variants.get("amazonense"))
    hand = m.deal(deal(*shift(RECORD_DEAL, 2)))
    assert isinstance(hand, AmazonenseHand)
    assert hand.turn == 2 and hand.legal_moves == (Move.parse("6-6"),)
    assert_rejected(hand, "2: 5-5")
    assert_rejected(hand, "0: 1-1")
    m.push(Move.parse("6-6"), 2)
    assert hand.layout.count() == 12 and hand.scores == [] and hand.turn == 3


def test_seed_batida_player_leads_any_double_else_other_team_scores_20() -> None:
    """'Nas seguintes, quem bateu sai com qualquer carroça; se não tiver carroça, a dupla adversária
    ganha 20 pontos.'

    Hand 1 (BATIDA_DOUBLE) ends with seat 3's batida. Hand 2 = RECORD_DEAL: seat 3 leads, with his only
    double 3-3 (6-6 is seat 0's and may not lead). Other match, hand 2 = NO_DOUBLE_DEAL moved 3 seats
    on: seat 3 and seat 0 hold no double, so team 0 (the other team of seat 3) scores 20 at the lead,
    which seat 1 makes with 6-6 (12, no table score).
    """
    m = match_after_batida()
    hand = m.deal(deal(*RECORD_DEAL))
    assert isinstance(hand, AmazonenseHand)
    assert hand.turn == 3 and hand.legal_moves == (Move.parse("3-3"),)
    assert_rejected(hand, "0: 6-6")

    m = match_after_batida()
    hand = m.deal(deal(*shift(NO_DOUBLE_DEAL, 3)))
    assert isinstance(hand, AmazonenseHand)
    assert hand.turn == 1
    m.push(Move.parse("6-6"), 1)
    assert hand.scores == [Score(1, None, "no-double", 20, 0)]
    assert hand.points == [20, 0] and m.totals == [75, 90]


def test_seed_lead_double_opens_four_ends() -> None:
    """'Jogo nas 4 pontas: a carroça de saída abre 4 pontas.'

    RECORD_DEAL: 6-6, 6-3 W, 6-2 E; now N and S are open on the spinner's 6 as well: four ends
    W 3, E 2, N 6, S 6. Seat 3 may put 6-4 or 6-0 on N or on S.
    """
    hand = play(hand_of(RECORD_DEAL), "0: 6-6, 1: 6-3 W, 2: 6-2 E")
    assert dict(hand.layout.ends) == {0: 3, 1: 2, 2: 6, 3: 6}
    assert {"6-4 N", "6-4 S", "6-0 N", "6-0 S"} <= legal(hand)
    play(hand, "3: 6-4 N, 0: 6-1 S")
    assert [len(arm) for arm in hand.layout.arms] == [1, 1, 1, 1]


def test_seed_first_two_tiles_go_on_the_long_sides() -> None:
    """'As duas primeiras pedras encostam nos lados compridos dela; só depois abrem as pontas de cima
    e de baixo.'

    RECORD_DEAL after 6-6: seat 1 may play 6-3 on W or E only; N is not open. After 6-3 W, seat 2's
    moves are on W (3) or E (6) only. N and S open after 6-2 E.
    """
    hand = play(hand_of(RECORD_DEAL), "0: 6-6")
    assert legal(hand) == {"6-3 W", "6-3 E"}
    assert_rejected(hand, "1: 6-3 N")
    play(hand, "1: 6-3 W")
    assert legal(hand) == {"4-3 W", "5-3 W", "6-2 E", "6-5 E"}
    assert_rejected(hand, "2: 6-2 S")
    play(hand, "2: 6-2 E")
    assert {"6-4 N", "6-4 S"} <= legal(hand)


def test_seed_only_a_player_without_fitting_tile_may_pass() -> None:
    """'Só pode passar quem não tem pedra que encaixe.'

    RECORD_DEAL after 6-6: seat 1 holds 6-3, so his pass is refused. GALO_DEAL after 6-6: seat 1 holds
    no 6, so pass is his only move.
    """
    hand = play(hand_of(RECORD_DEAL), "0: 6-6")
    assert PASS not in hand.legal_moves
    assert_rejected(hand, "1: pass")
    hand = play(hand_of(GALO_DEAL), "0: 6-6")
    assert hand.legal_moves == (PASS,)
    play(hand, "1: pass")
    assert hand.turn == 2


def test_seed_each_move_has_40_seconds() -> None:
    """'Cada jogada tem 40 segundos.' The table option move_seconds is 40 by default (A10)."""
    assert Match(variants.get("amazonense")).options["move_seconds"] == 40


# -- Pontuação: scoring ------------------------------------------------------------------------------


def test_seed_pontas_multiple_of_5_scores_the_sum() -> None:
    """'Pontas: se, depois da sua jogada, a soma das pontas abertas for múltiplo de 5 (5, 10, 15…), sua
    dupla ganha a soma.'

    RECORD_PLAY: 6-6 alone 12 (no); 6-3 W: 3 + 12 = 15 → team 1 scores 15; 6-2 E: 3 + 2 = 5 → team 0
    scores 5; 3-3 W: 6 + 2 = 8 (no).
    """
    hand = play(hand_of(RECORD_DEAL), RECORD_PLAY)
    assert hand.scores == [Score(2, 1, "table", 15, 1), Score(3, 2, "table", 5, 0)]
    assert hand.points == [5, 15]


def test_seed_double_on_an_end_counts_double() -> None:
    """'Carroça na ponta conta dobrado.'

    RECORD_PLAY: after 3-3 on W the ends are W 3-3, E 2: 6 + 2 = 8, not 3 + 2 = 5, so seat 3 scores
    nothing. GALO_DEAL: 6-6, three passes, 6-2 W, 2-2 W: W counts 4, plus the spinner 12 (E empty) = 16.
    """
    hand = play(hand_of(RECORD_DEAL), RECORD_PLAY)
    assert hand.layout.count() == 8
    assert scores_at(hand, 4) == []
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 1: pass, 2: pass, 3: pass, 0: 6-2 W, 1: 2-2 W")
    assert hand.layout.count() == 16


def test_seed_batida_scores_opponents_hands_rounded_down_to_5() -> None:
    """'Batida: quem bate (joga a última pedra) ganha a soma das pedras que sobraram na mão dos dois
    adversários, arredondada para baixo de 5 em 5.'

    BATIDA_DOUBLE: seat 3 goes out; his opponents hold 3-3 (seat 0, 6) and 5-3 (seat 2, 8): 14 → 10.
    His partner's 4-3 does not count.
    """
    hand = play(before_batida_double(), BATIDA_DOUBLE_LAST)
    assert hand.end == "batida"
    assert Score(25, 3, "batida", 10, 1) in hand.scores


def test_seed_batida_with_a_double_scores_20_more() -> None:
    """'Batida com carroça: bater com uma carroça vale 20 pontos a mais.'

    BATIDA_DOUBLE: seat 3's last tile is 5-5, a double: batida-double 20 for team 1. BATIDA_ZERO:
    the last tile is 2-1: no such score.
    """
    hand = play(before_batida_double(), BATIDA_DOUBLE_LAST)
    assert Score(25, 3, "batida-double", 20, 1) in hand.scores
    hand = play(hand_of(BATIDA_ZERO_DEAL), BATIDA_ZERO_PLAY + BATIDA_ZERO_LAST)
    assert hand.end == "batida"
    assert all(s.kind != "batida-double" for s in hand.scores)


def test_seed_galo_is_called_before_or_right_after_playing() -> None:
    """'Galo (50 pontos): antes ou logo depois de jogar, você canta GALO.'

    GALO_DEAL, seat 0 holds every 6. With the play: '6-6 galo' → galo 50 (action 1). Right after it:
    '6-6' then 'galo' → galo 50 (action 2). Not later: once seat 1 has passed, seat 0's galo is refused.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6 galo")
    assert hand.scores == [Score(1, 0, "galo", 50, 0)]
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 0: galo")
    assert hand.scores == [Score(2, 0, "galo", 50, 0)]
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 1: pass")
    assert_rejected(hand, "0: galo")


def test_seed_right_galo_scores_50_and_the_caller_plays_again() -> None:
    """'Se nenhum dos outros 3 tiver pedra que encaixe e você ainda tiver jogada, sua dupla ganha 50 e
    você joga de novo.'

    GALO_MID_DEAL after GALO_MID_PLAY: ends W 0, E 0, N 0, S 3. Seat 3 plays 3-0 S with galo: every end
    shows 0; the 0s left (0-0, 4-0, 5-0) are all seat 3's → right: team 1 +50, and seat 3 plays again.
    """
    hand = play(hand_of(GALO_MID_DEAL), GALO_MID_PLAY)
    play(hand, "3: 3-0 S galo")
    assert scores_at(hand, 8) == [Score(8, 3, "galo", 50, 1)]
    assert hand.turn == 3 and hand.legal_moves
    assert hand.points == [0, 55]


def test_seed_wrong_galo_gives_50_to_the_opponents() -> None:
    """'Galo errado dá 50 para a dupla adversária.'

    GALO_DEAL: '6-6 galo' is right (+50 team 0); then '6-5 W galo': W shows 5 and seat 2 holds 5s →
    wrong: team 1 +50, and play goes on with seat 1.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6 galo, 0: 6-5 W galo")
    assert scores_at(hand, 2) == [Score(2, 0, "galo-wrong", 50, 1)]
    assert hand.points == [50, 50] and hand.turn == 1


def test_seed_first_pass_after_a_play_gives_20_to_the_other_team() -> None:
    """'Passe: o primeiro a passar depois de uma jogada dá 20 pontos para a dupla adversária.'

    GALO_DEAL: 6-6 by seat 0; seat 1 (no 6) passes → 20 for team 0, the passer's opponents.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 1: pass")
    assert hand.scores == [Score(2, 1, "pass", 20, 0)]
    assert hand.points == [20, 0]


def test_seed_four_announced_doubles_played_without_passing_score_40() -> None:
    """'Carroças na mão: 4 carroças anunciadas no início e jogadas sem passar valem 40.'

    DOUBLES_4_DEAL: seat 0 announces 6-6 5-5 4-4 3-3 and plays them at actions 2, 6, 10 and 14
    without a pass: 40 for team 0 with the fourth (4-4 E: 4 + 8 + 0 + 5 = 17, no table score).
    """
    hand = play(hand_of(DOUBLES_4_DEAL), DOUBLES_4_PLAY)
    assert scores_at(hand, 14) == [Score(14, 0, "doubles-4", 40, 0)]


def test_seed_five_doubles_may_ask_redeal_or_score_50() -> None:
    """'Com 5 ou mais, dá para pedir nova distribuição; se não pedir, a dupla ganha 50.'

    KEEP_DEAL: seat 1 holds 0-0 1-1 2-2 3-3 4-4. Redeal → the hand ends as 'redeal', nothing scored.
    Keep → team 1 scores 50 and seat 0 leads 6-6.
    """
    hand = hand_of(KEEP_DEAL)
    play(hand, "1: redeal")
    assert hand.end == "redeal" and hand.points == [0, 0] and hand.scores == []
    hand = play(hand_of(KEEP_DEAL), "1: keep")
    assert hand.scores == [Score(1, 1, "doubles-5", 50, 1)]
    assert hand.turn == 0 and hand.legal_moves == (Move.parse("6-6"),)


# -- Tranca -----------------------------------------------------------------------------------------


def test_seed_tranca_when_nobody_not_even_the_last_player_fits() -> None:
    """'A mão tranca quando ninguém, nem quem jogou por último, tem pedra que encaixe.'

    GALO_DEAL after 6-6: nobody else holds a 6 but seat 0 does → not a tranca (three passes follow).
    TRANCA_65 after 5-0 E: every end is 0 and no 0 is left in any hand, seat 3's included → tranca.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 1: pass, 2: pass, 3: pass")
    assert hand.end is None and hand.turn == 0
    hand = play(hand_of(TRANCA_65), TRANCA_PLAY)
    assert hand.end == "tranca"
    assert not any(hand.can_play(s) for s in range(4))


def test_seed_tranca_each_team_sums_its_partners_hands() -> None:
    """'Cada dupla soma os pontos das pedras que sobraram na mão dos dois parceiros.'

    TRANCA_65: team 0 = 14 (seat 0: 1-1 2-1 3-1 4-1) + 21 (seat 2: 2-2 3-2 3-3 4-2) = 35; team 1 =
    28 (seat 1: 4-3 4-4 5-1 5-2) + 39 (seat 3: 5-3 5-5 6-4 6-5) = 67. The score is 67 → 65, not one
    seat's count (39 → 35) nor anything else.
    """
    hand = play(hand_of(TRANCA_65), TRANCA_PLAY)
    assert [hand.pips(s) for s in range(4)] == [14, 28, 21, 39]
    assert scores_at(hand, 12) == [Score(12, 3, "tranca", 65, 0)]


def test_seed_tranca_lower_sum_scores_the_other_sum_rounded_down() -> None:
    """'A dupla com a menor soma ganha a soma da outra, arredondada para baixo de 5 em 5.'

    TRANCA_50: team 0 48 < team 1 54 → team 0 scores 54 → 50. The same deal moved one seat on
    (teams swapped): team 1 48 < team 0 54 → team 1 scores 50.
    """
    hand = play(hand_of(TRANCA_50), TRANCA_PLAY)
    assert scores_at(hand, 12) == [Score(12, 3, "tranca", 50, 0)]
    assert hand.points == [55, 5]
    hand = play(hand_of(shift(TRANCA_50, 1)), shift_actions(TRANCA_PLAY, 1))
    assert scores_at(hand, 12) == [Score(12, 0, "tranca", 50, 1)]
    assert hand.points == [5, 55]


def test_seed_tranca_equal_sums_score_nothing() -> None:
    """'Se as somas forem iguais, ninguém pontua.'

    TRANCA_EVEN: 51 against 51 → no tranca score; only the two table scores of 5 remain.
    """
    hand = play(hand_of(TRANCA_EVEN), TRANCA_PLAY)
    assert hand.end == "tranca"
    assert scores_at(hand, 12) == []
    assert hand.points == [5, 5]


def test_seed_hand_after_tranca_starts_with_holder_of_6_6() -> None:
    """'A mão seguinte começa com quem tem a carroça de sena.'

    Hand 1 TRANCA_65 (tranca, seat 3 played last). Hand 2 = RECORD_DEAL moved one seat on: seat 1
    holds 6-6 and must lead it, though he also holds 5-5 and 0-0.
    """
    m = Match(variants.get("amazonense"))
    play_in_match(m, TRANCA_65, TRANCA_PLAY)
    hand = m.deal(deal(*shift(RECORD_DEAL, 1)))
    assert isinstance(hand, AmazonenseHand)
    assert hand.opener is None and hand.turn == 1 and hand.legal_moves == (Move.parse("6-6"),)


# -- Placar: the match ------------------------------------------------------------------------------


def test_seed_score_checked_at_hand_end_the_hand_past_200_goes_to_the_end() -> None:
    """'O placar é conferido ao fim de cada mão: a mão em que alguém passa de 200 vai até o fim.'

    Four tranca hands give [150, 150]. Hand 5 = KEEP_DEAL: seat 1 keeps → [150, 200] in the middle
    of the hand: no winner, the hand goes on, action after action, to its tranca, where the match is
    decided.
    """
    m = match_at_150_150()
    hand = m.deal(deal(*KEEP_DEAL))
    m.push(KEEP, 1)
    assert m.totals == [150, 200]
    assert m.winner is None and not m.is_over() and not m.needs_deal()
    assert hand.legal_moves == (Move.parse("6-6"),)
    rest = actions(KEEP_PLAY)[1:]
    for seat, move in rest[:-1]:
        m.push(move, seat)
        assert m.winner is None and hand.end is None
    m.push(rest[-1][1], rest[-1][0])
    assert hand.end == "tranca" and m.winner is not None


def test_seed_with_200_or_more_the_higher_score_wins() -> None:
    """'Se alguma dupla tiver 200 pontos ou mais, vence a que tiver mais pontos.'

    [150, 150], then KEEP_DEAL [65, 50]: team 1 reached 200 first (keep), but at the end of the hand
    it is [215, 200] and team 0, higher, wins.
    """
    m = match_at_150_150()
    play_in_match(m, KEEP_DEAL, KEEP_PLAY)
    assert m.totals == [215, 200]
    assert m.winner == 0 and m.is_over()


def test_seed_tie_at_200_or_more_leads_to_an_extra_hand() -> None:
    """'Desempate: empate com 200 ou mais leva a uma mão extra; vence quem fizer mais pontos nela.'

    [130, 195] then TRANCA_65 [70, 5] → [200, 200]: no winner, a new hand is needed. The extra hand
    TRANCA_65 moved one seat on scores [5, 70] → [205, 270]: team 1 wins.
    """
    m, _ = match_tied_at_200()
    assert m.totals == [200, 200]
    assert m.winner is None and m.needs_deal()
    play_in_match(m, shift(TRANCA_65, 1), shift_actions(TRANCA_PLAY, 1))
    assert m.totals == [205, 270] and m.winner == 1


def test_seed_tie_again_plays_another_hand() -> None:
    """'Se empatar de novo, joga-se outra.'

    [200, 200]; extra hand TRANCA_EVEN scores [5, 5] → [205, 205]: still no winner; the next hand
    TRANCA_65 [70, 5] → [275, 210]: team 0 wins.
    """
    m, _ = match_tied_at_200()
    play_in_match(m, TRANCA_EVEN, TRANCA_PLAY)
    assert m.totals == [205, 205] and m.winner is None and m.needs_deal()
    play_in_match(m, TRANCA_65, TRANCA_PLAY)
    assert m.totals == [275, 210] and m.winner == 0


# -- A1 layout --------------------------------------------------------------------------------------


def test_A1_only_W_and_E_open_until_both_hold_a_tile() -> None:
    """A1: after the lead only W and E are open; W may grow before E holds a tile.

    RECORD_DEAL: 6-6 → ends W 6, E 6. 6-3 W, then seat 2 extends W with 5-3 (W 5): N and S are still
    closed for seat 3, whose 6-4/6-0 may go on E only.
    """
    hand = play(hand_of(RECORD_DEAL), "0: 6-6")
    assert dict(hand.layout.ends) == {0: 6, 1: 6}
    play(hand, "1: 6-3 W, 2: 5-3 W")
    assert dict(hand.layout.ends) == {0: 5, 1: 6}
    assert legal(hand) == {"5-2 W", "5-1 W", "6-4 E", "6-0 E"}
    assert_rejected(hand, "3: 6-4 N")
    assert_rejected(hand, "3: 6-0 S")


def test_A1_N_and_S_open_once_W_and_E_hold_tiles() -> None:
    """A1: once W and E each hold a tile, N and S open on the spinner's pip.

    RECORD_DEAL: 6-6, 6-3 W, 6-2 E → ends W 3, E 2, N 6, S 6.
    """
    hand = play(hand_of(RECORD_DEAL), "0: 6-6, 1: 6-3 W, 2: 6-2 E")
    assert dict(hand.layout.ends) == {0: 3, 1: 2, 2: 6, 3: 6}
    play(hand, "3: 6-0 S")
    assert dict(hand.layout.ends) == {0: 3, 1: 2, 2: 6, 3: 0}


def test_A1_later_double_lies_crosswise_and_does_not_branch() -> None:
    """A1: 3-3 on W (RECORD_PLAY) sits at the end of W; W still shows 3, there are still 4 ends.

    Seat 0 then plays 6-1 on N: ends W 3-3, E 2, N 1, S empty: 6 + 2 + 1 + 0 = 9.
    """
    hand = play(hand_of(RECORD_DEAL), RECORD_PLAY + ", 0: 6-1 N")
    assert dict(hand.layout.ends) == {0: 3, 1: 2, 2: 1, 3: 6}
    assert [str(p) for p in hand.layout.placed(0)] == ["6-3", "3-3"]
    assert hand.layout.count() == 6 + 2 + 1 + 0


# -- A2 table count ---------------------------------------------------------------------------------


def test_A2_spinner_alone_counts_both_halves_5_5_scores_10() -> None:
    """A2: the spinner alone counts both halves: 5-5 led by the last batida's player counts 10.

    FIVES_DEAL, opener seat 0: 5-5 → 10 → team 0 scores 10 (action 1).
    """
    hand = play(hand_of(FIVES_DEAL, opener=0), "0: 5-5")
    assert hand.layout.count() == 10
    assert hand.scores == [Score(1, 0, "table", 10, 0)]


def test_A2_spinner_counts_while_W_or_E_is_empty() -> None:
    """A2: 6-6 with 6-3 on W counts 12 + 3 = 15 → team 1 scores 15 (RECORD_DEAL, action 2)."""
    hand = play(hand_of(RECORD_DEAL), "0: 6-6, 1: 6-3 W")
    assert hand.layout.count() == 15
    assert hand.scores == [Score(2, 1, "table", 15, 1)]


def test_A2_spinner_stops_counting_once_W_and_E_hold_tiles_empty_N_S_count_0() -> None:
    """A2: after 6-2 E the count is W 3 + E 2 = 5 (spinner no more, N and S empty 0) → team 0 5."""
    hand = play(hand_of(RECORD_DEAL), "0: 6-6, 1: 6-3 W, 2: 6-2 E")
    assert hand.layout.count() == 5
    assert scores_at(hand, 3) == [Score(3, 2, "table", 5, 0)]


def test_A2_double_at_the_end_of_an_arm_counts_both_halves() -> None:
    """A2: DOUBLES_4_PLAY, 5-5 on W at action 6: W 10 + E 4 + N 3 + S 0 = 17 (not 5 + 4 + 3 = 12).

    Then 6-2 S 19; 5-1 W turns W to 1: 1 + 4 + 3 + 2 = 10 → team 0 (seat 2) scores 10.
    """
    hand = play(hand_of(DOUBLES_4_DEAL), "0: 6-6, 1: 6-5 W, 2: 6-4 E, 3: 6-3 N, 0: 5-5 W")
    assert hand.layout.count() == 17 and hand.scores == []
    play(hand, "1: 6-2 S, 2: 5-1 W")
    assert hand.scores == [Score(7, 2, "table", 10, 0)]


def test_A2_count_of_zero_scores_nothing() -> None:
    """A2: only a positive multiple of 5 scores: TRANCA_PLAY's 3-0 S (action 8) makes every end 0."""
    hand = play(hand_of(TRANCA_65), TRANCA_PLAY)
    assert scores_at(hand, 8) == [] and scores_at(hand, 9) == []


# -- A3 lead ----------------------------------------------------------------------------------------


def test_A3_hand_1_holder_of_6_6_must_lead_it() -> None:
    """A3: hand 1 (opener None): seat 0 holds 6-6, 5-5 and 0-0 and may lead only 6-6."""
    hand = hand_of(RECORD_DEAL)
    assert hand.turn == 0 and hand.legal_moves == (Move.parse("6-6"),)
    assert_rejected(hand, "0: 5-5")
    assert_rejected(hand, "0: 4-2")
    assert_rejected(hand, "1: 4-4")


def test_A3_batida_player_leads_any_double_of_his() -> None:
    """A3: after seat k's batida, seat k leads any double of his (RECORD_DEAL).

    Opener 0 may lead 0-0, 5-5 or 6-6 (not 4-2); opener 1 leads 2-2 or 4-4 (seat 0's 6-6 may not);
    the lead 0-0 counts 0 and scores nothing.
    """
    hand = hand_of(RECORD_DEAL, opener=0)
    assert hand.turn == 0 and legal(hand) == {"0-0", "5-5", "6-6"}
    assert_rejected(hand, "0: 4-2")
    play(hand, "0: 0-0")
    assert hand.layout.count() == 0 and hand.scores == [] and hand.turn == 1
    hand = hand_of(RECORD_DEAL, opener=1)
    assert hand.turn == 1 and legal(hand) == {"2-2", "4-4"}
    assert_rejected(hand, "0: 6-6")


def test_A3_opener_without_double_other_team_scores_20_lead_passes_in_turn_order() -> None:
    """A3: opener 0 holds no double; nor does seat 1; seat 2 is the first in turn order with one.

    NO_DOUBLE_DEAL, opener 0: seat 2 is to lead any of 4-4, 5-5, 6-6; nothing is scored before the
    lead. Seat 2 leads 5-5: team 1 (the other team of seat 0) scores 20 (no-double, action 1, no
    seat) and team 0 scores the table 10.
    """
    hand = hand_of(NO_DOUBLE_DEAL, opener=0)
    assert hand.turn == 2 and legal(hand) == {"4-4", "5-5", "6-6"}
    assert hand.points == [0, 0]
    assert_rejected(hand, "0: 6-5")
    play(hand, "2: 5-5")
    assert hand.scores == [Score(1, None, "no-double", 20, 1), Score(1, 2, "table", 10, 0)]
    assert hand.points == [10, 20] and hand.turn == 3


def test_A3_no_double_20_is_scored_once_at_the_lead() -> None:
    """A3: the 20 comes with the lead, once: undoing the lead takes it back; later actions add none.

    NO_DOUBLE_DEAL, opener 0: 2: 6-6 (12, team 1 +20); 3: pass (no 6: team 0 +20); 0: 6-3 W
    (3 + 12 = 15, team 0); 1: 4-3 W (4 + 12 = 16) → [35, 20].
    """
    hand = play(hand_of(NO_DOUBLE_DEAL, opener=0), "2: 6-6")
    assert hand.scores == [Score(1, None, "no-double", 20, 1)]
    hand.pop()
    assert hand.scores == [] and hand.points == [0, 0] and hand.turn == 2
    play(hand, NO_DOUBLE_PLAY)
    assert hand.scores == [
        Score(1, None, "no-double", 20, 1),
        Score(2, 3, "pass", 20, 0),
        Score(3, 0, "table", 15, 0),
    ]
    assert hand.points == [35, 20]


def test_A3_match_after_batida_the_batida_player_leads() -> None:
    """A3: the match passes the batida's seat to the next hand: seat 3 opens, with 3-3 (RECORD_DEAL)."""
    m = match_after_batida()
    hand = m.deal(deal(*RECORD_DEAL))
    assert isinstance(hand, AmazonenseHand)
    assert hand.opener == 3 and hand.turn == 3 and legal(hand) == {"3-3"}


def test_A3_match_after_tranca_holder_of_6_6_leads_whatever_the_sums() -> None:
    """A3: after a tranca with equal sums (TRANCA_EVEN, nobody scored it) the holder of 6-6 leads it.

    Hand 2 = RECORD_DEAL moved two seats on: seat 2 holds 6-6, 5-5, 0-0 and must lead 6-6.
    """
    m = Match(variants.get("amazonense"))
    play_in_match(m, TRANCA_EVEN, TRANCA_PLAY)
    assert m.totals == [5, 5]
    hand = m.deal(deal(*shift(RECORD_DEAL, 2)))
    assert isinstance(hand, AmazonenseHand)
    assert hand.opener is None and hand.turn == 2 and hand.legal_moves == (Move.parse("6-6"),)


def test_A3_redealt_hand_keeps_the_lead_rule_and_the_20_is_scored_once() -> None:
    """A3 + A6: a redealt hand keeps the lead rule of the hand it replaces.

    Hand 1 BATIDA_DOUBLE: seat 3 goes out ([55, 90]). Hand 2 = REDEAL_DEAL moved 3 seats on: seat 3
    has no double, seat 0 has five; seat 0 asks a redeal before any lead: no 20 is scored. Hand 3 =
    NO_DOUBLE_DEAL moved 3 seats on: still opened by seat 3 (no double), seat 0 none, seat 1 leads
    6-6; team 0 scores the 20 now, once → [75, 90].
    """
    m = match_after_batida()
    redealt = m.deal(deal(*shift(REDEAL_DEAL, 3)))
    assert isinstance(redealt, AmazonenseHand)
    assert redealt.opener == 3 and redealt.turn == 0
    m.push(REDEAL, 0)
    assert redealt.end == "redeal" and redealt.points == [0, 0] and m.needs_deal()
    hand = m.deal(deal(*shift(NO_DOUBLE_DEAL, 3)))
    assert isinstance(hand, AmazonenseHand)
    assert hand.opener == 3 and hand.turn == 1
    m.push(Move.parse("6-6"), 1)
    assert hand.scores == [Score(1, None, "no-double", 20, 0)]
    assert m.totals == [75, 90]


# -- A4 passing -------------------------------------------------------------------------------------


def test_A4_pass_only_without_fitting_tile() -> None:
    """A4: RECORD_DEAL after 6-6, 6-3 W: seat 2 holds 4-3, 5-3 (W 3) and 6-2, 6-5 (E 6): no pass."""
    hand = play(hand_of(RECORD_DEAL), "0: 6-6, 1: 6-3 W")
    assert_rejected(hand, "2: pass")
    assert_rejected(hand, "3: pass")


def test_A4_first_pass_after_a_play_gives_20_to_the_team_that_made_it() -> None:
    """A4: GALO_DEAL: 6-6 by seat 0, seat 1 (no 6) passes → 20 for team 0. GALO_DEAL moved one seat on:
    seat 1 holds every 6 and leads 6-6, seat 2 (no 6) passes → 20 for team 1, the team of the play,
    although the passer's partner made no play at all.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 1: pass")
    assert hand.scores == [Score(2, 1, "pass", 20, 0)]
    hand = play(hand_of(shift(GALO_DEAL, 1)), "1: 6-6, 2: pass")
    assert hand.scores == [Score(2, 2, "pass", 20, 1)]
    assert hand.points == [0, 20] and hand.turn == 3


def test_A4_further_passes_before_the_next_play_give_nothing() -> None:
    """A4: GALO_DEAL: 6-6, then seats 1, 2, 3 pass: only the first scores (20 to team 0); after seat 0's
    next play (6-5 W, 5 + 12 = 17) seat 1's pass is again a first pass: +20 to team 0.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 1: pass, 2: pass, 3: pass")
    assert hand.scores == [Score(2, 1, "pass", 20, 0)]
    assert hand.turn == 0
    play(hand, "0: 6-5 W, 1: pass")
    assert hand.scores == [Score(2, 1, "pass", 20, 0), Score(6, 1, "pass", 20, 0)]
    assert hand.points == [40, 0]


# -- A5 galo ----------------------------------------------------------------------------------------


def test_A5_right_galo_with_a_play_scores_50_and_the_caller_plays_again() -> None:
    """A5: GALO_MID_DEAL (see test_seed_right_galo_…): 3-0 S galo is right → team 1 +50, seats 0, 1, 2
    are skipped. Seat 3 plays 0-0 W (count 0) and calls galo right after it: right again (4-0 and 5-0
    are still only his) → +50. Then 5-0 E: 0 + 5 + 0 + 0 = 5, a table score as usual → +5, and the
    turn goes to seat 0. Team 1: 5 (action 6) + 50 + 50 + 5 = 110. No pass score at all.
    """
    hand = play(hand_of(GALO_MID_DEAL), GALO_MID_PLAY + ", 3: 3-0 S galo")
    assert hand.turn == 3
    assert all(hand.legal_moves_for(s) == [] for s in (0, 1, 2))
    play(hand, "3: 0-0 W")
    assert hand.turn == 0 and hand.legal_moves_for(3) == [GALO]
    play(hand, "3: galo, 3: 5-0 E")
    assert hand.scores[1:] == [
        Score(8, 3, "galo", 50, 1),
        Score(10, 3, "galo", 50, 1),
        Score(11, 3, "table", 5, 1),
    ]
    assert hand.points == [0, 110] and hand.turn == 0
    assert all(s.kind != "pass" for s in hand.scores)


def test_A5_right_galo_with_the_lead_table_points_count_as_usual() -> None:
    """A5: the lead may carry galo. FIVES_DEAL, opener 0 (all seven 5s are his): 5-5 galo → table 10 and
    galo 50 for team 0; seat 0 plays again.
    """
    hand = play(hand_of(FIVES_DEAL, opener=0), "0: 5-5 galo")
    assert hand.scores == [Score(1, 0, "table", 10, 0), Score(1, 0, "galo", 50, 0)]
    assert hand.points == [60, 0] and hand.turn == 0


def test_A5_galo_called_separately_right_after_the_play() -> None:
    """A5: GALO_DEAL: 6-6, then seat 0 (not the seat to act) pushes GALO before seat 1 acts → right,
    50 for team 0 at action 2; seat 0 plays again. ``move.with_galo()`` works too.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6")
    assert hand.legal_moves_for(0) == [GALO]
    hand.push(GALO, 0)
    assert hand.scores == [Score(2, 0, "galo", 50, 0)] and hand.turn == 0
    assert_rejected(hand, "0: galo")  # one call per play
    hand = hand_of(GALO_DEAL)
    hand.push(Move.parse("6-6").with_galo(), 0)
    assert hand.scores == [Score(1, 0, "galo", 50, 0)]


def test_A5_galo_only_by_the_last_player_before_the_next_one_acts() -> None:
    """A5: RECORD_DEAL after 6-6, 6-3 W: seat 0 did not make the last play; seat 2 is to act, not to
    call. GALO_DEAL after 6-6, 1 pass: the window is closed for seat 0.
    """
    hand = play(hand_of(RECORD_DEAL), "0: 6-6, 1: 6-3 W")
    assert_rejected(hand, "0: galo")
    assert_rejected(hand, "2: galo")
    assert_rejected(hand, "3: galo")
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 1: pass")
    assert hand.legal_moves_for(0) == []
    assert_rejected(hand, "0: galo")
    assert_rejected(hand, "1: galo")


def test_A5_wrong_galo_gives_50_to_opponents() -> None:
    """A5: GALO_DEAL: 6-6 galo (right, +50 team 0), 6-5 W (5 + 12 = 17), then galo called apart: seat 2
    holds 5s → wrong: team 1 +50; play goes on normally with seat 1.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6 galo, 0: 6-5 W, 0: galo")
    assert scores_at(hand, 3) == [Score(3, 0, "galo-wrong", 50, 1)]
    assert hand.points == [50, 50] and hand.turn == 1 and hand.legal_moves == (PASS,)


def test_A5_wrong_galo_then_pass_still_scores_the_pass_20() -> None:
    """A5 + A4: GALO_DEAL: 6-6 galo (+50 team 0), 6-5 W galo (wrong: +50 team 1); seat 1 has no 5 or 6
    and passes: still the first pass after that play → +20 team 0. Seat 2 then plays a 5. The same
    when the wrong galo is called apart, right after 6-5 W.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6 galo, 0: 6-5 W galo, 1: pass")
    assert hand.scores == [
        Score(1, 0, "galo", 50, 0),
        Score(2, 0, "galo-wrong", 50, 1),
        Score(3, 1, "pass", 20, 0),
    ]
    assert hand.points == [70, 50] and hand.turn == 2
    hand = play(hand_of(GALO_DEAL), "0: 6-6 galo, 0: 6-5 W, 0: galo, 1: pass")
    assert scores_at(hand, 3) == [Score(3, 0, "galo-wrong", 50, 1)]
    assert scores_at(hand, 4) == [Score(4, 1, "pass", 20, 0)]


def test_A5_unclaimed_galo_situation_is_scored_by_A4_only() -> None:
    """A5: GALO_DEAL: 6-6 without galo; nobody else has a 6 → seats 1, 2, 3 pass: 20 for team 0 (first
    pass) and nothing more; seat 0 plays again.
    """
    hand = play(hand_of(GALO_DEAL), "0: 6-6, 1: pass, 2: pass, 3: pass")
    assert hand.scores == [Score(2, 1, "pass", 20, 0)]
    assert hand.points == [20, 0] and hand.turn == 0


def test_A5_galo_on_a_batida_is_wrong() -> None:
    """A5: BATIDA_DOUBLE, seat 3 goes out with '5-5 S galo': he has no play left → wrong, team 0 +50,
    on top of team 1's table 20, batida 10 and double 20: [55 + 50, 40 + 50] = [105, 90].
    """
    hand = play(before_batida_double(), "3: 5-5 S galo")
    assert hand.end == "batida"
    assert scores_at(hand, 25) == [
        Score(25, 3, "table", 20, 1),
        Score(25, 3, "batida", 10, 1),
        Score(25, 3, "batida-double", 20, 1),
        Score(25, 3, "galo-wrong", 50, 0),
    ]
    assert hand.points == [105, 90]


def test_A5_lone_galo_after_a_hand_ending_play_is_refused() -> None:
    """A5: the call on a hand-ending play can only ride on the play ('5-5 S galo', above): once the
    batida has ended the hand, a separate 'galo' is refused and the score stays [55, 90]."""
    hand = play(before_batida_double(), "3: 5-5 S")
    before = (list(hand.points), len(hand.history), hand.end)
    assert hand.legal_moves_for(3) == []
    with pytest.raises(IllegalMoveError, match="hand is over"):
        hand.push(GALO, 3)
    assert (hand.points, len(hand.history), hand.end) == before
    assert hand.points == [55, 90]


def test_A5_galo_on_a_tranca_is_wrong() -> None:
    """A5: TRANCA_65's last play '5-0 E galo' blocks the hand: nobody has a play → wrong, team 0 +50 on
    top of its tranca 65: [5 + 65 + 50, 5] = [120, 5].
    """
    hand = play(hand_of(TRANCA_65), TRANCA_PLAY.replace("3: 5-0 E", "3: 5-0 E galo"))
    assert hand.end == "tranca"
    assert scores_at(hand, 12) == [Score(12, 3, "tranca", 65, 0), Score(12, 3, "galo-wrong", 50, 0)]
    assert hand.points == [120, 5]


# -- A6 doubles in hand ------------------------------------------------------------------------------


def test_A6_four_doubles_announced_and_played_without_passing_score_40() -> None:
    """A6: DOUBLES_4_DEAL/PLAY. Counts: 12, 17, 9, 12, 17 (5-5 W), 19, 10 (5-1 W, team 0 +10), 11,
    14 (3-3 N), 16, 19, 13, 17 (4-4 E). The fourth double (4-4, action 14) gives team 0 40 → [50, 0].
    """
    hand = play(hand_of(DOUBLES_4_DEAL), DOUBLES_4_PLAY)
    assert hand.scores == [Score(8, 2, "table", 10, 0), Score(14, 0, "doubles-4", 40, 0)]
    assert hand.points == [50, 0]


def test_A6_four_doubles_not_announced_score_nothing() -> None:
    """A6: the same play without the announcement: no 40 (only the table 10) → [10, 0]."""
    hand = play(hand_of(DOUBLES_4_DEAL), DOUBLES_4_PLAY.replace("0: announce, ", ""))
    assert hand.scores == [Score(7, 2, "table", 10, 0)]


def test_A6_announced_doubles_broken_by_a_pass_score_nothing() -> None:
    """A6: DOUBLES_4_DEAL announced; 6-6, 6-5 W, 6-4 E, 6-3 N, 5-5 W (#2), 5-4 E (E 5), 5-3 N (N 5:
    10 + 5 + 5 + 0 = 20, team 0); every end is 5 or 6 → seat 3 passes (+20 team 0) and so does seat 0
    (nothing). 6-2 S, 4-2 S (S 4), seat 3 passes again (+20 team 0); seat 0 plays 4-4 S (#3); 4-3 S,
    5-1 W, 1-1 W (2 + 5 + 5 + 3 = 15, team 1); seat 0 plays 3-3 S, his 4th double: no 40.
    """
    hand = play(
        hand_of(DOUBLES_4_DEAL),
        "0: announce, 0: 6-6, 1: 6-5 W, 2: 6-4 E, 3: 6-3 N, 0: 5-5 W, 1: 5-4 E, 2: 5-3 N, 3: pass,"
        " 0: pass, 1: 6-2 S, 2: 4-2 S, 3: pass, 0: 4-4 S, 1: 4-3 S, 2: 5-1 W, 3: 1-1 W, 0: 3-3 S",
    )
    assert hand.scores == [
        Score(8, 2, "table", 20, 0),
        Score(9, 3, "pass", 20, 0),
        Score(13, 3, "pass", 20, 0),
        Score(17, 3, "table", 15, 1),
    ]
    assert hand.history[-1] == (0, Move.parse("3-3 S"))
    assert not any(t.is_double for t in hand.tiles(0))


def test_A6_announce_only_before_the_first_play_by_the_4_doubles_player() -> None:
    """A6: DOUBLES_4_DEAL: seat 0 may announce (once) before the lead; seat 1 (one double) may not;
    after the lead nobody may. NO_DOUBLE_DEAL (opener 0): seat 3 holds 4 doubles and announces
    before seat 2's lead, out of turn; the turn stays with seat 2.
    """
    hand = hand_of(DOUBLES_4_DEAL)
    assert legal(hand) == {"6-6", "announce"}
    assert_rejected(hand, "1: announce")
    play(hand, "0: announce")
    assert hand.turn == 0 and hand.scores == []
    assert_rejected(hand, "0: announce")
    hand = play(hand_of(DOUBLES_4_DEAL), "0: 6-6")
    assert_rejected(hand, "0: announce")
    hand = hand_of(NO_DOUBLE_DEAL, opener=0)
    assert hand.legal_moves_for(3) == [ANNOUNCE]
    hand.push(ANNOUNCE, 3)
    assert hand.turn == 2


def test_A6_five_doubles_keep_scores_50() -> None:
    """A6: KEEP_DEAL, seat 1 keeps his five doubles → team 1 +50 at once; the hand is then played:
    [65, 50] (see KEEP_PLAY).
    """
    hand = play(hand_of(KEEP_DEAL), "1: keep")
    assert hand.scores == [Score(1, 1, "doubles-5", 50, 1)] and hand.points == [0, 50]
    play(hand, KEEP_PLAY.replace("1: keep, ", ""))
    assert hand.end == "tranca" and hand.points == [65, 50]


def test_A6_five_doubles_redeal_ends_the_hand() -> None:
    """A6: KEEP_DEAL, seat 1 asks a redeal: end 'redeal', nothing scored, no move left. In a match the
    next hand is dealt and, as hand 1 was opened by 6-6, the holder of 6-6 leads it again.
    """
    m = Match(variants.get("amazonense"))
    hand = m.deal(deal(*KEEP_DEAL))
    m.push(REDEAL, 1)
    assert hand.end == "redeal" and hand.scores == [] and m.totals == [0, 0]
    assert all(hand.legal_moves_for(s) == [] for s in range(4))
    assert m.needs_deal() and m.winner is None
    nxt = m.deal(deal(*shift(RECORD_DEAL, 2)))
    assert isinstance(nxt, AmazonenseHand)
    assert nxt.opener is None and nxt.turn == 2 and nxt.legal_moves == (Move.parse("6-6"),)


def test_A6_five_doubles_must_decide_before_the_first_play() -> None:
    """A6: KEEP_DEAL: seat 1 (five doubles) acts first: REDEAL or KEEP; seat 0 may not lead 6-6 yet.
    After keep the choice is over and seat 0 leads.
    """
    hand = hand_of(KEEP_DEAL)
    assert hand.turn == 1 and hand.legal_moves == (REDEAL, KEEP)
    assert hand.legal_moves_for(0) == []
    assert_rejected(hand, "0: 6-6")
    assert_rejected(hand, "1: 0-0")
    assert_rejected(hand, "1: announce")
    assert_rejected(hand, "2: keep")
    play(hand, "1: keep")
    assert_rejected(hand, "1: redeal")
    assert_rejected(hand, "1: keep")
    assert hand.turn == 0


def test_A6_six_doubles_also_choose() -> None:
    """A6: '5 or more': SIX_DOUBLES_DEAL, seat 2 holds six doubles and 6-6; he must choose before his
    own lead; keep → team 0 +50, then he leads 6-6.
    """
    hand = hand_of(SIX_DOUBLES_DEAL)
    assert hand.turn == 2 and hand.legal_moves == (REDEAL, KEEP)
    assert_rejected(hand, "2: 6-6")
    play(hand, "2: keep, 2: 6-6")
    assert hand.scores == [Score(1, 2, "doubles-5", 50, 0)] and hand.turn == 3


# -- A7 batida --------------------------------------------------------------------------------------


def test_A7_batida_table_score_plus_opponents_rounded_plus_20_for_a_double() -> None:
    """A7: BATIDA_DOUBLE. Before the last play: points [55, 40]; seat 3 holds only 5-5; ends W 2 (3-2),
    E 4 (4-1), N 2-2 (4), S 5 (5-4). 5-5 on S: 2 + 4 + 4 + 10 = 20 → table 20; opponents 3-3 + 5-3 =
    14 → 10; a double → +20. Team 1: 40 + 20 + 10 + 20 = 90.
    """
    hand = before_batida_double()
    assert hand.points == [55, 40] and hand.legal_moves == (Move.parse("5-5 S"),)
    play(hand, BATIDA_DOUBLE_LAST)
    assert hand.end == "batida"
    assert scores_at(hand, 25) == [
        Score(25, 3, "table", 20, 1),
        Score(25, 3, "batida", 10, 1),
        Score(25, 3, "batida-double", 20, 1),
    ]
    assert hand.points == [55, 90]
    assert all(hand.legal_moves_for(s) == [] for s in range(4))


def test_A7_batida_hand_count_zero_scores_nothing() -> None:
    """A7: BATIDA_ZERO. Seat 3 goes out with 2-1 on W: ends W 2, E 5-5 (10), N 0, S 2 = 14 (no table);
    opponents hold 0-0 + 1-1 = 2 → 0: no batida entry; 2-1 is no double. The hand ends with [30, 10].
    """
    hand = play(hand_of(BATIDA_ZERO_DEAL), BATIDA_ZERO_PLAY)
    assert hand.points == [30, 10]
    play(hand, BATIDA_ZERO_LAST)
    assert hand.end == "batida"
    assert scores_at(hand, 25) == []
    assert hand.points == [30, 10]


# -- A8 tranca --------------------------------------------------------------------------------------


def test_A8_tranca_is_detected_immediately_after_the_play() -> None:
    """A8: TRANCA_65: the hand ends with 5-0 E (action 12): no pass is played, nobody may act, and
    the only scores are the two tables and the tranca: [5 + 65, 5] = [70, 5].
    """
    hand = play(hand_of(TRANCA_65), TRANCA_PLAY)
    assert hand.end == "tranca" and len(hand.history) == 12
    assert all(hand.legal_moves_for(s) == [] for s in range(4))
    assert_rejected(hand, "0: pass")
    assert hand.scores == [
        Score(6, 1, "table", 5, 1),
        Score(11, 2, "table", 5, 0),
        Score(12, 3, "tranca", 65, 0),
    ]
    assert hand.points == [70, 5]


def test_A8_lower_team_scores_the_other_sum_rounded_down() -> None:
    """A8: TRANCA_65 moved one seat on: team 1 holds 35, team 0 67 → team 1 scores 65: [5, 70]."""
    hand = play(hand_of(shift(TRANCA_65, 1)), shift_actions(TRANCA_PLAY, 1))
    assert scores_at(hand, 12) == [Score(12, 0, "tranca", 65, 1)]
    assert hand.points == [5, 70]


def test_A8_equal_sums_score_nothing() -> None:
    """A8: TRANCA_EVEN: 51 = 51 → no tranca entry; the hand still ends as a tranca: [5, 5]."""
    hand = play(hand_of(TRANCA_EVEN), TRANCA_PLAY)
    assert hand.end == "tranca"
    assert [s.kind for s in hand.scores] == ["table", "table"]


# -- A9 match ---------------------------------------------------------------------------------------


def test_A9_match_is_decided_only_when_a_hand_ends() -> None:
    """A9: the tie hand of match_tied_at_200: before it [130, 195]; its action 6 (1-0 E, team 1 +5)
    puts team 1 at 200 while team 0 has 130: no winner mid-hand.
    """
    m = Match(variants.get("amazonense"))
    play_in_match(m, shift(TRANCA_65, 1), shift_actions(TRANCA_PLAY, 1))
    play_in_match(m, shift(TRANCA_65, 1), shift_actions(TRANCA_PLAY, 1))
    play_in_match(m, TRANCA_50, TRANCA_PLAY)
    play_in_match(m, KEEP_DEAL, KEEP_PLAY)
    assert m.totals == [130, 195]
    m.deal(deal(*TRANCA_65))
    for seat, move in actions(TRANCA_PLAY)[:6]:
        m.push(move, seat)
    assert m.totals == [130, 200]
    assert m.winner is None and not m.is_over() and not m.needs_deal()


def test_A9_higher_score_wins() -> None:
    """A9: [150, 150], then KEEP_DEAL: [150, 200] after the keep, [215, 200] at the end → team 0."""
    m = match_at_150_150()
    play_in_match(m, KEEP_DEAL, KEEP_PLAY)
    assert m.totals == [215, 200] and m.winner == 0


def test_A9_tie_at_200_plays_extra_hands_until_one_team_scores_more() -> None:
    """A9: [200, 200] → extra hand [5, 5] (tied again) → extra hand [70, 5]: team 0 wins [275, 210]."""
    m, last = match_tied_at_200()
    assert last.points == [70, 5] and m.totals == [200, 200] and m.winner is None
    play_in_match(m, TRANCA_EVEN, TRANCA_PLAY)
    assert m.totals == [205, 205] and m.winner is None
    play_in_match(m, TRANCA_65, TRANCA_PLAY)
    assert m.totals == [275, 210] and m.winner == 0


# -- A10 clock --------------------------------------------------------------------------------------


def test_A10_timeout_is_a_pass_when_that_is_the_only_move() -> None:
    """A10: GALO_DEAL after 6-6: seat 1 has no 6; his timeout move is a pass (+20 team 0)."""
    hand = play(hand_of(GALO_DEAL), "0: 6-6")
    move = hand.timeout_move(1)
    assert move == PASS
    hand.push(move, 1)
    assert hand.scores == [Score(2, 1, "pass", 20, 0)]


@pytest.mark.parametrize(("seats", "opener", "text"), SCRIPTED_HANDS)
def test_A10_timeout_move_is_always_legal(seats: tuple[str, ...], opener: int | None, text: str) -> None:
    """A10: at every position of these hands the timeout move of the seat to act is one of its legal
    moves (never a galo call or an announcement), and making it on a copy is accepted.
    """

    def check(hand: AmazonenseHand) -> None:
        if hand.end is None:
            t = hand.timeout_move(hand.turn)
            assert t in hand.legal_moves and not t.galo and t not in (GALO, ANNOUNCE)
            hand.copy().push(t, hand.turn)

    hand = hand_of(seats, opener)
    for seat, move in actions(text):
        check(hand)
        hand.push(move, seat)
    check(hand)


def test_A10_timeout_with_five_doubles_keeps() -> None:
    """A10: KEEP_DEAL: seat 1's timeout before the lead is KEEP (a legal move, 50 for his team)."""
    hand = hand_of(KEEP_DEAL)
    assert hand.timeout_move(1) == KEEP


def test_A10_move_clock_is_a_40_second_table_option() -> None:
    """A10: 40 seconds a move by default; a table may set another value."""
    assert Match(variants.get("amazonense")).options["move_seconds"] == 40
    assert Match(variants.get("amazonense"), options={"move_seconds": 60}).options["move_seconds"] == 60
