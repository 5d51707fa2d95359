"""The browser client's modules (capicua/web/static/js, plain ES modules): no import circle among them, every
static file shipped in the package, docs/architecture.md naming every module, and the table store's own
unit tests under Node's test runner (tests/web/js/, skipped, saying why, where Node 20 is missing)."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "capicua" / "web" / "static"
JS = STATIC / "js"
#: `import … from "./x.js"` and `export … from "./x.js"`, over several lines too
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;"']*?\bfrom\s+["'](\.{1,2}/[^"']+)["']""", re.M)


def import_graph() -> dict[str, set[str]]:
    """Each module (its path under js/) → the modules it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(JS.rglob("*.js")):
        name = path.relative_to(JS).as_posix()
        graph[name] = set()
        for target in IMPORT.findall(path.read_text(encoding="utf-8")):
            resolved = (path.parent / target).resolve()
            if resolved.suffix == ".js":
                graph[name].add(resolved.relative_to(JS.resolve()).as_posix())
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each a path a → … → a (found by a depth-first walk)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the walk's path, 2: done
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                walk(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    return found


def test_the_import_graph_is_read() -> None:
    graph = import_graph()
    assert "views/table/decisions.js" in graph["views/table/history.js"]  # a module of the same folder
    assert "api.js" in graph["views/table/result.js"]  # and two folders up
    assert circles({"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}}) == [["a.js", "b.js", "c.js", "a.js"]]


def test_no_two_client_modules_import_each_other_even_through_others() -> None:
    """Issue 19: views/table/decisions.js and events.js imported each other; an import circle means a reader
    cannot tell which comes first, and a module may see the other's exports before they are set."""
    assert circles(import_graph()) == []


def test_every_module_imports_only_modules_that_exist() -> None:
    graph = import_graph()
    missing = sorted(f"{name} imports {t}" for name, targets in graph.items() for t in targets if t not in graph)
    assert missing == []


def test_every_static_file_is_in_the_package_data() -> None:
    """A bare ``pip install`` ships only what pyproject.toml's package data names: a new folder of the client
    must be added there, or the installed server answers 404 for its modules."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = project["tool"]["setuptools"]["package-data"]["capicua"]
    package = ROOT / "capicua"
    files = [p.relative_to(package).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    # a glob's `*` stops at a folder's `/` (setuptools' glob), fnmatch's does not
    shipped = [f for f in files if any(fnmatch.fnmatch(f, g) and f.count("/") == g.count("/") for g in globs)]
    assert sorted(set(files) - set(shipped)) == []


def test_the_architecture_names_every_client_module() -> None:
    """docs/architecture.md's web section lists the client's modules: each one named there (by its path under
    js/, or its file name within its folder's list), and none that is gone."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    web = text[text.index("## Web (`web/`)") :]
    web = web[: web.index("\n## ", 1)]
    named = set(re.findall(r"`([\w/.-]+\.js)`", web))
    modules = set(import_graph())
    unnamed = sorted(m for m in modules if m not in named and m.rsplit("/", 1)[-1] not in named)
    assert unnamed == []
    gone = sorted(n for n in named if n not in modules and not any(m.endswith("/" + n) for m in modules))
    assert gone == []


def node_version() -> tuple[int, ...] | None:
    node = shutil.which("node")
    if node is None:
        return None
    done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30)
    return tuple(int(x) for x in re.findall(r"\d+", done.stdout)[:2])


def test_the_table_store_under_nodes_test_runner() -> None:
    """tests/web/js/*.test.mjs: the store's apply(frame) and which parts of the table view it draws again; the
    table's layout (layout.js) for 1,000 random hands of each game at a phone's and a desktop's felt."""
    version = node_version()
    if version is None:
        pytest.skip("node is not installed: the client's JavaScript unit tests (tests/web/js) need Node 20.11 or later")
    if version < (20, 11):
        pytest.skip(f"node {'.'.join(map(str, version))} is too old for the client's tests (Node 20.11 or later)")
    tests = sorted(str(p) for p in (ROOT / "tests" / "web" / "js").glob("*.test.mjs"))
    assert tests
    node = str(shutil.which("node"))
    done = subprocess.run([node, "--test", *tests], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert re.search(r"^# pass [1-9]", done.stdout, re.M), done.stdout[-2000:]
    assert re.search(r"^# fail 0$", done.stdout, re.M), done.stdout[-2000:]
