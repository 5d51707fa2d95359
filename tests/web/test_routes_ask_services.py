"""The routes ask the services, never the store: no route module reads ``platform.store`` or imports
``capicua.service.store`` (the next step runs the services on several nodes; a route that reads the store
behind a service's back would miss what the service decides)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROUTES = Path(__file__).resolve().parents[2] / "capicua" / "web" / "routes"


def _reaches(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr == "store":
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("capicua.service.store"):
            found.append(f"{path.name}:{node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Import):
            found += [f"{path.name}:{node.lineno}: import {a.name}" for a in node.names if "service.store" in a.name]
    return found


@pytest.mark.parametrize("path", sorted(ROUTES.glob("*.py")), ids=lambda p: p.name)
def test_a_route_module_never_reaches_the_store(path: Path) -> None:
    assert _reaches(path) == []
