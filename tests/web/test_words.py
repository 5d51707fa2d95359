"""The client's words: every text in the three languages, and every key the client asks for exists."""

from __future__ import annotations

import ast
import json
import re
import tempfile
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


def _codes_in_source() -> set[str]:
    """Every error code the server's code can send, read from the code itself (its syntax tree): the first
    argument of a ``ServiceError``, a ``ProtocolError`` or an error's ``super().__init__``, the ``code=`` of an
    ``Error`` frame, and the ``"error"`` of a JSON body or the ``"code"`` of an error frame written by hand."""
    codes: set[str] = set()
    root = STATIC.parents[2]

    def text(node: ast.AST | None) -> str | None:
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in ("ServiceError", "ProtocolError") or (
                    name == "__init__" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call)
                ):
                    if node.args and (code := text(node.args[0])) is not None:
                        codes.add(code)
                if name == "Error":
                    codes |= {c for k in node.keywords if k.arg == "code" and (c := text(k.value)) is not None}
            elif isinstance(node, ast.Dict):
                items = {text(k): v for k, v in zip(node.keys, node.values, strict=True) if text(k) is not None}
                if (code := text(items.get("error"))) is not None:
                    codes.add(code)
                if text(items.get("type")) == "error" and (code := text(items.get("code"))) is not None:
                    codes.add(code)
    return codes


def test_every_error_code_the_server_can_send_has_words_in_the_three_languages() -> None:
    """Issue 22, item 7: every error a page shows comes from a code with a translated message. The codes are
    the service's (``CODES``), those the OpenAPI description says an HTTP error carries, the plain HTTP
    statuses' and every code the server's source sends (websocket frames included), walked from the code, not
    listed by hand; each has ``error_<code>`` in pt-BR, es and en, the pt-BR and es words not the English."""
    from capicua.service.errors import CODES
    from capicua.web.errors import HTTP_CODES
    from tests.web.test_openapi_fuzz import new_app

    words = json.loads((STATIC / "words.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as data:
        document = new_app(Path(data)).openapi()
    described = set(document["components"]["schemas"]["ErrorOut"]["properties"]["error"]["enum"])
    source = _codes_in_source()
    assert {"malformed-json", "unknown-type", "too-large", "too-fast", "not-found", "invalid"} <= source  # it reads
    codes = set(CODES) | described | set(HTTP_CODES.values()) | source
    assert set(CODES) <= described  # (the description names every code of the service)
    missing = sorted(code for code in codes if f"error_{code}" not in words)
    assert not missing, missing
    untranslated = sorted(
        (code, lang)
        for code in codes
        for lang, k in (("pt-BR", 0), ("es", 1))
        if words[f"error_{code}"][k].strip().lower() == words[f"error_{code}"][2].strip().lower()
    )
    assert not untranslated, untranslated


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
