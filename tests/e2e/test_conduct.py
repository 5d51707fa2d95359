"""Conduct in the browser (issue 21): a player who left two rated matches sees his playban on his profile, with
the rule explained in his language; a moderator named by the operator (`capicua admin grant`) finds the
moderation page in the menu, sees the flags, and mutes the player from his profile with a reason that the log
shows. Screenshots at phone and desktop sizes for a person to look at."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import start_server
from tests.e2e.helpers import DESKTOP, PHONE, Account, call, log_in, new_page, rated_table, ratings_of, sign_up

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("e2e-conduct")
    proc, url = start_server(data, "--no-limits")
    yield url, data
    proc.terminate()
    proc.wait(10)


def grant(data: Path, who: Account) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "capicua.cli", "admin", "grant", who.username, "--reason", "club moderator",
         "--data-dir", str(data)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_a_playban_on_the_profile_and_a_moderator_acting_on_it(
    site: tuple[str, Path], browser: object, shots: Path
) -> None:
    server, data = site
    ana, bia, mod = sign_up(server, "Ana"), sign_up(server, "Bia"), sign_up(server, "Moderadora")
    for _ in range(2):  # Bia leaves two rated matches: a warning, then 15 minutes
        table = rated_table(server, [ana, bia], "individual", players=2)
        call(server, bia, "POST", f"/api/tables/{table}/resign")
        ratings_of(server, table)
    grant(data, mod)
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(browser, "pt-BR", **size)
        log_in(page, server, bia, f"/profile/{bia.id}")
        card = page.locator("#conduct")
        card.wait_for()
        text = card.inner_text()
        assert "Partidas valendo rating bloqueadas até" in text and "Abandonos nos últimos 7 dias: 2" in text
        assert "15 min" in text and "Mesas amistosas continuam abertas" in text
        assert page.locator("#moderation").count() == 0 and page.locator("#menu-admin").count() == 0
        card.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"playban-{label}.png"), full_page=True)
        assert page.errors == []
    page = new_page(browser, "es", **DESKTOP)
    log_in(page, server, bia, f"/profile/{bia.id}")
    assert "Partidas con rating cerradas hasta las" in page.locator("#conduct").inner_text()
    # The moderator: the page in his menu, the flags, and a mute from Bia's profile.
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_page(browser, "pt-BR", **size)
        log_in(page, server, mod, f"/profile/{bia.id}")
        panel = page.locator("#moderation")
        panel.wait_for()
        assert "Partidas valendo rating bloqueadas" in page.locator("#conduct").inner_text()  # he sees it too
        if label == "desktop":
            panel.locator("button[data-action=mute]").click()  # no reason: nothing is sent
            assert page.locator("#mod-reason:invalid").count() == 1
            page.fill("#mod-reason", "xingou na mesa")
            page.fill("#mod-hours", "2")
            panel.locator("button[data-action=mute]").click()
            page.locator("#moderation td", has_text="xingou na mesa").wait_for()
            assert "Silenciado até" in page.locator("#conduct").inner_text()
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"moderation-panel-{label}.png"), full_page=True)
        page.goto(server + "/#/admin")
        page.locator("#mod-playbans td a", has_text="Bia").wait_for()
        assert page.locator("#menu-admin").count() == 1
        assert (
            "Silenciar" in page.locator("#mod-log").inner_text()
            and "xingou na mesa" in page.locator("#mod-log").inner_text()
        )
        assert "Bia" in page.locator("#mod-sanctioned").inner_text()
        page.screenshot(path=str(shots / f"admin-{label}.png"), full_page=True)
        assert page.errors == []
    # Somebody else on the moderation page: told it is for moderators, and the server answers nothing.
    page = new_page(browser, "en", **DESKTOP)
    log_in(page, server, ana, "/admin")
    page.get_by_text("Only moderators see this page.").wait_for()
