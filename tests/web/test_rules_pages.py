"""The rules pages ("Como jogar", issue 22 item 4): capicua/web/static/rules/<game>.json, one per game, each a
page in pt-BR, es and en with its examples. Each example is a record's opening: here every example is replayed
through the engine, the board drawn at each step must be the engine's, and every number a step's sentence
claims (a table count, a score, a boneyard's size, the hand's points) must be what the engine gives, in each
language's sentence."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from capicua.bots.registry import EXPERT_MS, LEVELS, make_bot, measured
from capicua.rules import variants

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "capicua" / "web" / "static" / "rules"
LANGS = ("pt-BR", "es", "en")
#: each page's own words, in each language (issue 22, item 4), looked for in its sections' text
WORDS = {
    "amazonense": {"pt-BR": ["galo", "pontas", "batida", "carroça", "passe"], "es": ["galo"], "en": ["galo"]},
    "individual": {"pt-BR": ["morto"], "en": ["boneyard"]},
    "dominousa": {"pt-BR": ["multa"], "es": ["multa", "tranque", "ficha tocada"], "en": ["fine"]},
}


def load_generator() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("rules_examples", str(ROOT / "scripts" / "rules-examples"))
    spec = importlib.util.spec_from_loader("rules_examples", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def pages() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(RULES.glob("*.json"))}


def test_every_game_has_a_page_and_every_page_is_a_game() -> None:
    assert set(pages()) == set(variants.names())
    for name, page in pages().items():
        assert page["game"] == name


@pytest.mark.parametrize("game", sorted(WORDS))
def test_each_page_is_in_three_languages_with_the_games_own_words(game: str) -> None:
    page = pages()[game]
    ids = [s["id"] for s in page["sections"]]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z][a-z-]*", i) for i in ids), ids
    examples = {e["id"] for e in page["examples"]}
    used = [x for s in page["sections"] for x in s.get("examples", [])]
    assert sorted(used) == sorted(examples)  # every example shown once, none missing
    for lang in LANGS:
        assert page["intro"][lang].strip()
        text = " ".join(" ".join([s["title"][lang], *s["body"][lang]]) for s in page["sections"]).lower()
        for s in page["sections"]:
            assert s["title"][lang].strip() and s["body"][lang], (s["id"], lang)
        for word in WORDS[game].get(lang, []):
            assert word in text, (game, lang, word)
        for e in page["examples"]:
            assert e["title"][lang].strip()
            assert all(step["text"][lang].strip() for step in e["steps"])


def test_the_boards_drawn_are_the_engines() -> None:
    """scripts/rules-examples writes each step's board from the engine: a file edited by hand, or an engine
    that changed, shows here."""
    gen = load_generator()
    for game, page in pages().items():
        for example in page["examples"]:
            drawn = [step["board"] for step in example["steps"]]
            assert drawn == gen.boards(example, game), (game, example["id"])


def numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", text)}


def test_every_claim_of_an_example_is_what_the_engine_gives() -> None:
    gen = load_generator()
    claims = Counter[str]()
    for game, page in pages().items():
        for example in page["examples"]:
            for step, board in zip(example["steps"], gen.boards(example, game), strict=True):
                says = step["says"]
                where = (game, example["id"], step["at"])
                stated: set[int] = set()
                if "scores" in says:
                    assert Counter(map(tuple, says["scores"])) == Counter(map(tuple, board["scored"])), where
                    stated |= {points for _, points, _ in says["scores"]}
                if "count" in says:
                    assert says["count"] == board["layout"]["count"], where
                    stated.add(says["count"])
                if "boneyard" in says:
                    assert says["boneyard"] == board["boneyard"], where
                    stated.add(says["boneyard"])
                if "points" in says:
                    assert says["points"] == board["points"], where
                    stated |= set(says["points"])
                if "touched" in says:
                    assert any(says["touched"] in tiles for tiles in board["touched"].values()), where
                claims.update(says.keys())
                for lang in LANGS:  # the sentence says the numbers it claims, in every language
                    assert stated <= numbers(step["text"][lang]), (where, lang, stated - numbers(step["text"][lang]))
    assert claims["scores"] >= 15 and claims["count"] >= 8  # the claims are many, not a token few


def test_the_costly_plays_each_have_an_example() -> None:
    """What costs newcomers points: pontas in fives, galo (right and wrong), the pass's 20, doubles, going out
    with a double; Dominousa's fines, the touched tile and the tranque."""
    kinds = {
        game: {k for e in page["examples"] for s in e["steps"] for k, _, _ in s["board"]["scored"]}
        for game, page in pages().items()
    }
    assert {"table", "pass", "galo", "galo-wrong", "doubles-5", "batida-double"} <= kinds["amazonense"]
    assert {"fine", "tranca"} <= kinds["dominousa"]
    touched = [s for e in pages()["dominousa"]["examples"] for s in e["steps"] if s["board"]["touched"]]
    assert touched
    drawn = [s for e in pages()["individual"]["examples"] for s in e["steps"] if s["board"]["action"] == "1: draw"]
    assert drawn


def test_every_rule_a_cost_links_to_is_a_section() -> None:
    """costs.js links a score a rule costs (a pass's 20, a wrong galo, a fine…) to a section of a rules page."""
    source = (ROOT / "capicua" / "web" / "static" / "js" / "costs.js").read_text(encoding="utf-8")
    found = re.search(r"export const COSTS = \{([^}]*)\}", source)
    assert found
    targets = dict(re.findall(r'"?([\w-]+)"?:\s*"([\w-]+)"', found.group(1)))
    assert set(targets) == {"pass", "galo-wrong", "no-double", "fine"}
    sections = {s["id"] for page in pages().values() for s in page["sections"]}
    assert set(targets.values()) <= sections
    assert "multas" in {s["id"] for s in pages()["dominousa"]["sections"]}
    assert {"passe", "galo", "saida"} <= {s["id"] for s in pages()["amazonense"]["sections"]}


# -- the bots' section: each level's strength as the bench measured it (issue 23, item 3) ---------------------------
def test_the_levels_strength_is_a_ladder_the_bench_measured() -> None:
    """capicua/bots/levels.json is what ``bench/bots.py --ladder … --levels`` wrote: each rung a level against the
    one below it (the registry's order), its interval the Wilson interval of its wins, the day and command that
    measured it, and Amazonense measured."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bots  # bench/bots.py
    finally:
        sys.path.remove(str(ROOT / "bench"))
    data = measured()

    def measures(command: str, rung: dict[str, Any]) -> bool:
        """The command ran the rung's row: a whole ladder (``--ladder``) or the row by name (``--rows``)."""
        row = f"ladder-{rung['level']}" + ("" if rung["game"] == "amazonense" else f"-{rung['game']}")
        args = command.split()
        ran = "--ladder" in args or ("--rows" in args and row in args)
        return "bench/bots.py" in args and "--levels" in args and ran

    assert any(measures(data["command"], rung) for rung in data["rungs"])  # the file's last run
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", data["measured"])
    order = [level.name for level in LEVELS]
    games = Counter(rung["game"] for rung in data["rungs"])
    assert games["amazonense"] == len(order) - 1  # every rung of the ladder in Amazonense
    for rung in data["rungs"]:
        assert rung["game"] in bots.GAMES
        assert order.index(rung["level"]) == order.index(rung["below"]) + 1, rung
        assert 0 <= rung["wins"] <= rung["matches"] and rung["matches"] >= 100, rung
        assert rung["win_rate"] == round(rung["wins"] / rung["matches"], 4)
        assert rung["ci95"] == [round(x, 4) for x in bots.wilson(rung["wins"], rung["matches"])]
        assert measures(rung["command"], rung), rung  # what measured it
        assert rung["players"] == bots.GAMES[rung["game"]][1]  # the seats, in a game of 2 to 4
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", rung["measured"]) and rung["measured"] <= data["measured"]


def test_the_pages_say_the_experts_time_at_the_tables() -> None:
    """The bots' section says how long the expert thought when measured, and how long it thinks at the tables:
    the registry's default, in every language's sentence."""
    words = json.loads((ROOT / "capicua" / "web" / "static" / "js" / "words.json").read_text(encoding="utf-8"))
    assert all(f"{EXPERT_MS:g} ms" in sentence for sentence in words["rules_bots_think"])
    assert make_bot("expert").budget * 1000 == EXPERT_MS


def test_the_bots_api_gives_each_level_its_measured_rungs(client: Any) -> None:
    answer = client.get("/api/bots")
    assert answer.status_code == 200
    levels = answer.json()
    assert [b["name"] for b in levels] == [level.name for level in LEVELS]
    rungs = measured()["rungs"]
    for b in levels:
        assert b["measured_on"] == measured()["measured"]
        assert [(m["game"], m["below"], m["win_rate"], m["measured_on"], m["players"]) for m in b["measured"]] == [
            (r["game"], r["below"], r["win_rate"], r["measured"], r["players"])
            for r in rungs
            if r["level"] == b["name"]
        ]
    assert levels[0]["measured"] == []  # the weakest has nobody below it
