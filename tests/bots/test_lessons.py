"""The guided hands (capicua/bots/lessons): each lesson's script replayed through the engine. Every action is
legal where it stands, each learner step's wanted moves are legal there (and the script's own move is one of
them), each "wrong" move is legal too, and every number a prompt, a note or the end states is one the engine
computes (``facts``); the scripted bots play the script, and once the hand leaves it they still play."""

from __future__ import annotations

import re
from typing import Any

import pytest

from capicua.bots.lessons import LANGUAGES, Lesson, ScriptedBot, Step, get, names
from capicua.bots.registry import make_bot
from capicua.rules import variants
from capicua.rules.hand import Hand
from capicua.rules.match import Match
from capicua.rules.moves import PLAY_CODES, Move
from capicua.rules.tiles import PIPS, TILES, Tile

LESSONS = names()
TILE = re.compile(r"\b(\d)-(\d)\b")
#: A tile (6-2), a placeholder ({s1}) or a sum of pips (4 + 4): not numbers a text states.
NOT_A_NUMBER = re.compile(r"\d-\d|\{s\d\}")


def dealt(lesson: Lesson) -> Match:
    match = Match(variants.get(lesson.game), lesson.players, options=dict(lesson.options))
    deal = [[Tile.parse(t) for t in hand] for hand in lesson.deal]
    match.deal(deal, [Tile.parse(t) for t in lesson.boneyard], lesson.extra)
    return match


def facts_of(match: Match, lesson: Lesson, move: Move, seat: int) -> dict[str, int]:
    """What the engine says of ``move`` by ``seat`` now: the table counts before and after, the points the
    learner's side scores by it, and each kind of score it makes."""
    hand = match.hand
    before = hand.layout.count()
    boneyard = len(getattr(hand, "boneyard", ()))  # the tiles in the morto before it
    tiles = hand.hands[seat].bit_count()  # the tiles in the player's hand before it
    n = len(hand.scores)
    pips = PIPS[move.code >> 4] if move.code < PLAY_CODES else 0  # a play's tile, as pips
    match.push(move, seat)
    made = hand.scores[n:]
    out = {"before": before, "count": hand.layout.count(), "boneyard": boneyard, "tiles": tiles, "pips": pips}
    out["points"] = sum(s.points for s in made if s.to == side_of(match, lesson.seat))
    for s in made:
        out[s.kind] = out.get(s.kind, 0) + s.points
    match.pop()
    return out


def side_of(match: Match, seat: int) -> int:
    return seat & 1 if match.variant.partnerships else seat


def stated_numbers(text: str) -> set[int]:
    """The numbers of 7 or more a text states (pips, 0 to 6, are tiles' halves and counts of tiles)."""
    return {int(n) for n in re.findall(r"\d+", NOT_A_NUMBER.sub(" ", text)) if int(n) >= 7}


def check_texts(texts: tuple[str, ...] | list[str], *facts: dict[str, int], where: str) -> None:
    """One text a language, each stating no number but the facts' (of the step, and of a wrong move)."""
    assert len(texts) == len(LANGUAGES), f"{where}: one text a language ({', '.join(LANGUAGES)})"
    values = {v for f in facts for v in f.values()}
    for text in texts:
        assert text.strip(), where
        assert stated_numbers(text) <= values, f"{where}: {text!r} states a number not in {facts}"


def named_tiles(*texts: Any) -> set[Tile]:
    return {Tile(int(a), int(b)) for text in texts for a, b in TILE.findall(repr(text))}


def visible(match: Match, seat: int) -> set[Tile]:
    """What ``seat`` sees of the tiles: his hand (dealt or drawn) and those on the table."""
    view = match.hand.view(seat)
    return set(view.tiles) | {TILES[t] for t in match.hand.layout.tiles()}


def check_facts(declared: dict[str, int], computed: dict[str, int], where: str) -> None:
    for name, value in declared.items():
        assert computed.get(name, 0) == value, f"{where}: {name} is {computed.get(name, 0)}, the lesson says {value}"


@pytest.mark.parametrize("name", LESSONS)
def test_the_script_replays_through_the_engine_and_every_number_is_true(name: str) -> None:
    lesson = get(name)
    assert lesson.game == name
    match = dealt(lesson)
    hand = match.hand
    learner_steps = 0
    for k, step in enumerate(lesson.script):
        where = f"{name} step {k + 1} ({step.do})"
        seat, move = match.parse_action(step.do)
        assert seat == step.seat and isinstance(move, Move)
        assert str(move) == step.move, f"{where}: write it as the history does: {move}"
        assert hand.is_legal(move, seat), f"{where}: not legal here"
        if seat == lesson.seat:
            learner_steps += 1
            assert step.prompt, f"{where}: the learner's step needs a prompt"
            assert step.move in step.want, f"{where}: the script's move must be one the lesson wants"
            for text in step.want:
                assert hand.is_legal(match.parse_move(text, seat), seat), f"{where}: wanted {text} is not legal"
                check_facts(step.facts, facts_of(match, lesson, match.parse_move(text, seat), seat), f"{where} {text}")
            check_texts(step.prompt, step.facts, where=where)
            seen = visible(match, seat)  # a prompt names no tile the learner cannot see
            assert named_tiles(step.prompt, step.wrong) <= seen, f"{where}: {named_tiles(step.prompt) - seen}"
            for wrong in step.wrong:
                for text in wrong["moves"]:
                    other = match.parse_move(text, seat)
                    assert hand.is_legal(other, seat) and text not in step.want, f"{where}: wrong {text}"
                    check_facts(wrong["facts"], facts_of(match, lesson, other, seat), f"{where} wrong {text}")
                check_texts(wrong["text"], step.facts, wrong["facts"], where=f"{where} wrong")
        else:
            assert not step.prompt and not step.want, f"{where}: only the learner is prompted"
            if step.note:
                check_texts(step.note, step.facts, where=where)
            check_facts(step.facts, facts_of(match, lesson, move, seat), where)
        match.push(move, seat)
        if step.note:  # said once the bot's action is on the table
            seen = visible(match, lesson.seat)
            assert named_tiles(step.note) <= seen, f"{where}: the note names {named_tiles(step.note) - seen}"
    assert learner_steps >= 5
    assert hand.end is not None, "the script plays the hand to its end"
    end = lesson.end
    check_texts(end["text"], end["facts"], where=f"{name} end")
    computed = {"total": match.totals[side_of(match, lesson.seat)]}
    computed["target"] = match.options["target"]
    computed["minutes"] = match.options.get("match_minutes", 0)  # C5: the match clock, where the game has one
    check_facts(end["facts"], computed, f"{name} end")


def test_the_amazonense_lesson_shows_the_plays_that_matter() -> None:
    """Pontas in multiples of 5 on every learner play, a carroça at an arm's end, a pass that gives 20, a
    right galo, and a batida with a double that wins the match."""
    lesson = get("amazonense")
    match = dealt(lesson)
    for step in lesson.script:
        seat, move = match.parse_action(step.do)
        match.push(move, seat)
    hand = match.hand
    kinds = {(s.kind, s.to) for s in hand.scores}
    assert {("pass", 0), ("galo", 0), ("batida", 0), ("batida-double", 0)} <= kinds
    learner_tables = [s for s in hand.scores if s.seat == lesson.seat and s.kind == "table"]
    assert len(learner_tables) == sum(1 for s in lesson.script[1:] if s.seat == lesson.seat)
    assert match.is_over() and match.winner == 0


def bots_play(lesson: Lesson, match: Match, learner: list[str]) -> list[str]:
    """The hand played by scripted bots, the learner making the moves given (then his first legal one)."""
    bots = {s: make_bot(f"lesson:{lesson.game}") for s in range(match.players) if s != lesson.seat}
    made: list[str] = []
    hand: Hand = match.hand
    while hand.end is None:
        seat = hand.turn
        if seat == lesson.seat:
            move = match.parse_move(learner.pop(0), seat) if learner else hand.legal_moves_for(seat)[0]
        else:
            chosen = bots[seat].act(hand.view(seat))
            assert chosen is not None
            move = chosen
        match.push(move, seat)
        made.append(f"{seat}: {move}")
    return made


@pytest.mark.parametrize("name", LESSONS)
def test_the_scripted_bots_play_the_script(name: str) -> None:
    lesson = get(name)
    learner = [s.move for s in lesson.script if s.seat == lesson.seat]
    assert bots_play(lesson, dealt(lesson), learner) == [s.do for s in lesson.script]


@pytest.mark.parametrize("name", LESSONS)
def test_off_the_script_the_bots_still_play_the_hand_out(name: str) -> None:
    lesson = get(name)
    match = dealt(lesson)
    first: Step = next(s for s in lesson.script[1:] if s.seat == lesson.seat)
    learner = [lesson.script[0].move]
    made = bots_play(lesson, match, learner + [w for w in first.wrong[0]["moves"][:1]] if first.wrong else learner)
    assert match.hand.end is not None and len(made) > 4


def test_the_client_gets_no_hidden_tile_and_no_move_to_come() -> None:
    lesson = get("amazonense")
    public: dict[str, Any] = lesson.public()
    text = repr(public)
    assert "deal" not in public and "script" not in public
    for step in lesson.script:
        if step.seat != lesson.seat:
            assert step.do not in text
    assert len(public["steps"]) == sum(1 for s in lesson.script if s.seat == lesson.seat)
    assert isinstance(make_bot("lesson:amazonense"), ScriptedBot)
    with pytest.raises(ValueError):
        make_bot("lesson:chess")
