"""The architecture, checked: each layer imports only from the ones above it, and no game is known by
its name outside the engine (callers ask the variant)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "capicua"
#: Layer order: each may import from those before it only.
LAYERS = ["rules", "bots", "service", "web", "cli"]
GAME_NAMES = ("amazonense", "individual", "dominousa")


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "capicua" and parts[1] in LAYERS else None


def python_files(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_from_the_layers_above_it(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    wrong = []
    for path in python_files(layer):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                other = layer_of(name)
                if other is not None and other not in allowed:
                    wrong.append(f"{path.relative_to(ROOT)}: imports {name}")
    assert wrong == []


#: A game's name compared, in Python or JavaScript.
COMPARED = re.compile(
    r"""(==|!=|===|!==|\bis\b|\bin)\s*['"](%s)['"]|['"](%s)['"]\s*(==|!=|===|!==)""" % (("|".join(GAME_NAMES),) * 2)
)


def test_no_game_name_is_compared_outside_the_engine() -> None:
    sources = [p for layer in LAYERS[1:] for p in python_files(layer)]
    sources += sorted((ROOT / "web" / "static").rglob("*.js"))
    found = []
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if COMPARED.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


#: The longest a class and a function may be outside the engine (``rules/`` holds the games' long tables).
MAX_CLASS, MAX_FUNCTION = 350, 80


def test_no_class_or_function_outside_the_engine_is_too_long() -> None:
    long = []
    for layer in LAYERS[1:]:
        for path in python_files(layer):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    limit = MAX_CLASS
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    limit = MAX_FUNCTION
                else:
                    continue
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > limit:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.name} is {size} lines (> {limit})")
    assert long == []


def test_the_web_layer_asks_services_never_the_store_or_a_tables_state() -> None:
    """Routes and the websocket call the platform's services: no import of the store, no ``platform.store``,
    no reaching into a live table's state (``table.state``)."""
    reaching = re.compile(r"\bplatform\.store\b|\btables?\.state\b|\bt\.state\b")
    found = []
    for path in python_files("web"):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("capicua.service.store"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports {node.module}")
        for number, line in enumerate(text.splitlines(), start=1):
            if reaching.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
