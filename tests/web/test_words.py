"""The client's words: every text in the three languages, and every key the client asks for exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "capicua" / "web" / "static" / "js"


def test_every_text_is_in_portuguese_spanish_and_english() -> None:
    words = json.loads((STATIC / "words.json").read_text(encoding="utf-8"))
    assert words
    for key, texts in words.items():
        assert isinstance(texts, list) and len(texts) == 3 and all(isinstance(w, str) and w.strip() for w in texts), key


def test_every_key_the_client_names_has_words() -> None:
    words = json.loads((STATIC / "words.json").read_text(encoding="utf-8"))
    used: set[str] = set()
    for path in STATIC.rglob("*.js"):
        used |= set(re.findall(r"""\bt\(\s*["']([\w-]+)["']""", path.read_text(encoding="utf-8")))
    assert used and used <= set(words), sorted(used - set(words))


def test_every_error_code_of_the_service_has_words() -> None:
    from capicua.service.errors import CODES

    words = json.loads((STATIC / "words.json").read_text(encoding="utf-8"))
    missing = sorted(code for code in CODES if f"error_{code}" not in words)
    assert not missing, missing


def test_every_bot_level_has_a_players_name_and_the_engines_names_are_never_shown() -> None:
    """Issue 22, item 6: the levels are Iniciante / Fácil / Médio / Difícil / Mestre (es: Principiante … Maestro;
    en: Beginner … Master), weakest first as the ladder is; the bots' own names (random, greedy, heuristic,
    scorer, pimc, expert, guloso) are nowhere a player reads. Issue 23: Médio is the heuristic now."""
    from capicua.bots.registry import LEVELS

    words = json.loads((STATIC / "words.json").read_text(encoding="utf-8"))
    names = [words[f"level_{level.name}"] for level in LEVELS]
    assert names == [
        ["Iniciante", "Principiante", "Beginner"],
        ["Fácil", "Fácil", "Easy"],
        ["Médio", "Medio", "Medium"],
        ["Difícil", "Difícil", "Hard"],
        ["Mestre", "Maestro", "Master"],
    ]
    assert all(f"level_{level.name}_about" in words for level in LEVELS)
    assert [level.name for level in LEVELS][2] == "heuristic"
    engine = re.compile(r"\b(scorer|pimc|greedy|guloso|codicioso|heur[ií]stic[oa]?)\b", re.IGNORECASE)
    shown = [(key, w) for key, texts in words.items() for w in texts if engine.search(w)]
    assert shown == []
