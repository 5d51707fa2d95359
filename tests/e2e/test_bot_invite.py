"""A person seats a bot account at his table from the table's open panel (issue 14, part 3): the list of bot
accounts says which are online, the invitation goes to the bot's program (here the reference client,
``capicua bot run``, in its own process), and the bot sits at the free seat when it accepts."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

from tests.e2e.helpers import PASSWORD, call, http, log_in, make_table, new_page, sign_up, unique
from tests.web.server import CAPICUA


def bot_account(server: str) -> tuple[str, str]:
    """A new bot account and an API token for its program: (username, token)."""
    username = unique("boto")
    r = http.post(f"{server}/api/accounts", json={"username": username, "password": PASSWORD, "bot": True})
    assert r.status_code == 201, r.text
    login = http.post(f"{server}/api/login", json={"username": username, "password": PASSWORD}).json()
    r = http.post(
        f"{server}/api/me/tokens", json={"label": "e2e"}, headers={"Authorization": f"Bearer {login['token']}"}
    )
    assert r.status_code == 201, r.text
    return username, str(r.json()["token"])


def test_a_player_invites_an_online_bot_account_to_a_free_seat(browser: Any, server: str, shots: Path) -> None:
    username, token = bot_account(server)
    bot = subprocess.Popen(
        [*CAPICUA, "bot", "run", "--server", server, "--token", token, "--level", "greedy"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not any(b["online"] for b in http.get(f"{server}/api/bot/accounts").json() if b["username"] == username):
            assert time.monotonic() < deadline, "the bot's program did not connect"
            assert bot.poll() is None, bot.stdout.read() if bot.stdout else ""
            time.sleep(0.1)
        ana = sign_up(server, "Ana")
        page = new_page(browser, "pt-BR", 1280, 800)
        log_in(page, server, ana)
        page.wait_for_selector("#create")
        table = make_table(page, server, variant="dominousa", bots_after=None)
        page.wait_for_selector("#bot-account")
        online = page.eval_on_selector_all("#bot-account option:not([disabled])", "os => os.map(o => o.value)")
        assert username in online
        page.select_option("#bot-account", username)
        page.click("#invite-bot")
        # It sits where the program accepted: a seat the table's API now gives to the bot account.
        deadline = time.monotonic() + 30
        while True:
            seats = call(server, ana, "GET", f"/api/tables/{table}")["seats"]
            if any(s.get("bot_account") for s in seats):
                break
            assert time.monotonic() < deadline, "the bot did not accept"
            time.sleep(0.1)
        seat = next(k for k, s in enumerate(seats) if s.get("bot_account"))
        chip = page.wait_for_selector(f".seat-chip[data-seat='{seat}']:has-text('{username}')")
        assert "robô" in chip.inner_text()  # marked as a bot, not a person
        page.wait_for_selector(".bot-invite-note:has-text('convidado')", state="detached")  # the note is done
        assert not page.errors
        page.screenshot(path=str(shots / "seated-desktop.png"), animations="disabled")
    finally:
        if bot.poll() is None:
            bot.kill()
        bot.wait(10)
