"""docs/architecture.md says where things are: its lists of routers, CLI modules and subcommands are the code's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer

from capicua.cli import app as cli_app
from capicua.web import app as web_app

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text()


def _modules(folder: str, leave_out: set[str]) -> set[str]:
    return {p.stem for p in (ROOT / folder).glob("*.py")} - leave_out


def _layout_line(prefix: str) -> str:
    """The lines of the layout sketch that hold ``prefix`` (``routes/``, ``cli/``)."""
    block = DOC.split("```")[3]  # the second code block: the layout of the package
    return "\n".join(line for line in block.splitlines() if prefix in line)


def test_the_router_list_is_the_apps_routers() -> None:
    routers = _modules("capicua/web/routes", {"__init__", "common"})
    included = {m.__name__.rsplit(".", 1)[-1] for m in web_app.ROUTERS}
    assert routers == included, "a module in routes/ that the app does not include, or the other way round"
    listed = set(_layout_line("routes/").split("routes/", 1)[1].split())
    assert listed == routers, f"the layout sketch's routes/ list: {sorted(listed)} v {sorted(routers)}"
    web = DOC.split("## Web (`web/`)", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(\w+)\.py`", web.split("and the websocket", 1)[0]))
    assert routers <= named, f"the Web section names the routers: missing {sorted(routers - named)}"


def _subcommands(command: Any, path: tuple[str, ...] = ()) -> list[str]:
    out = []
    for name, sub in getattr(command, "commands", {}).items():
        if hasattr(sub, "commands"):
            out += _subcommands(sub, (*path, name))
        else:
            out.append(" ".join((*path, name)))
    return out


def test_the_cli_list_is_the_commands_modules_and_subcommands() -> None:
    modules = _modules("capicua/cli", {"__main__"})
    listed = {m.removesuffix(".py") for m in _layout_line("cli/").split()[1:] if m.endswith(".py")}
    assert listed == modules, f"the layout sketch's cli/ list: {sorted(listed)} v {sorted(modules)}"
    section = DOC.split("## CLI (`cli/`)", 1)[1]
    commands = _subcommands(typer.main.get_command(cli_app))
    assert len(commands) >= 7
    for words in commands:
        assert f"`capicua {words}`" in section, f"the CLI section does not name capicua {words}"
