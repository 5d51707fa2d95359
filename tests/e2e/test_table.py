"""The table as players see it (issue 11): seats, the end of each hand, the result, galo, forced passes,
chat, renames, languages, the replay viewer, the phone layout, tiles that lie still once laid (issue 18),
and screenshots for a person to look at."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    DESKTOP,
    PHONE,
    history_rows,
    in_viewport,
    make_table,
    my_seat,
    my_turn,
    new_page,
    next_deal,
    open_lobby,
    play_one,
    play_soon,
    play_until,
)

pytestmark = pytest.mark.slow


def test_the_end_of_a_hand_shows_every_hand_and_the_scores_then_the_next_deal(
    browser: Any, server: str, shots: Path
) -> None:
    page = new_page(browser, **DESKTOP)
    open_lobby(page, server)
    make_table(page, server, variant="individual", players=2, target=500, pause_seconds=4)
    play_until(page, ".hand-over", next_hand=False)
    page.screenshot(path=shots / "hand-over.png", animations="disabled")
    over = page.inner_text(".hand-over")
    assert re.search(r"bateu|Tranca", over), over
    revealed = page.query_selector_all(".hand-over .revealed .hand-row")
    assert len(revealed) == 2  # every seat's hand, by name
    assert page.query_selector(".hand-over .big-score")
    assert re.search(r"Próxima mão em \d s", page.inner_text(".hand-over .countdown"))
    # "Próxima mão" deals at once.
    page.click("#next-hand")
    page.wait_for_selector("#hand-no:has-text('Mão 2')", timeout=5000)
    assert not page.query_selector(".hand-over")
    # Without it, the next deal comes when the pause ends.
    play_until(page, ".hand-over", next_hand=False)
    shown = time.time()
    page.wait_for_selector("#hand-no:has-text('Mão 3')", timeout=10000)
    assert 2 < time.time() - shown < 7
    assert not page.errors


def test_switching_language_mid_hand_keeps_the_game_playable(browser: Any, server: str) -> None:
    page = new_page(browser, **DESKTOP)
    open_lobby(page, server)
    make_table(page, server, variant="individual", players=2, target=500)
    page.wait_for_selector(".table-view.my-turn", timeout=15000)
    before = history_rows(page)
    page.select_option("#lang", "es")
    page.wait_for_selector(".mytiles button.tile", timeout=2000)  # drawn again from the last frame, at once
    assert "Mano" in page.inner_text("#hand-no")
    assert "…" not in page.inner_text(".felt")
    assert play_soon(page)
    page.wait_for_function(f"() => document.querySelectorAll('.history-panel li.move').length > {before}", timeout=5000)
    page.select_option("#lang", "en")
    page.wait_for_selector("#hand-no:has-text('Hand')")
    page.wait_for_selector(".mytiles button.tile", timeout=2000)
    assert play_soon(page)
    assert not page.errors


def test_renaming_mid_match_keeps_the_seat(browser: Any, server: str) -> None:
    page = new_page(browser, **DESKTOP)
    open_lobby(page, server)
    me = page.evaluate("JSON.parse(localStorage.getItem('capicua.me'))")
    make_table(page, server, variant="dominousa", target=500)
    page.wait_for_selector(".seat-chip.me", timeout=15000)
    seat = my_seat(page)
    page.click("#menu summary")
    page.fill("#name", "Zé do Boi")
    page.press("#name", "Enter")
    page.wait_for_selector(".seat-chip.me .name:has-text('Zé do Boi')", timeout=5000)
    assert my_seat(page) == seat
    assert page.evaluate("JSON.parse(localStorage.getItem('capicua.me')).id") == me["id"]
    assert page.query_selector(".mytiles button.tile")
    assert play_soon(page, 15)
    page.wait_for_selector(f".history-panel li.move[data-seat='{seat}']", timeout=5000)
    assert "Zé do Boi" in page.inner_text(".history-panel")
    assert not page.errors


def wait_for_a_forced_pass(page: Any, timeout: float = 60) -> None:
    """Play (never passing by hand) until it is my turn with no move but a pass."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if (
            my_turn(page)
            and page.query_selector("button[data-move='pass']")
            and not page.query_selector(".mytiles button.tile.playable")
        ):
            return
        play_one(page, avoid_pass=True)
        page.wait_for_timeout(60)
    raise AssertionError("no forced pass came")


def test_a_forced_pass_is_automatic_where_the_option_is_on_and_not_in_strict_mode(browser: Any, server: str) -> None:
    page = new_page(browser, **DESKTOP)
    open_lobby(page, server)
    # auto_pass (the default): my only move, a pass, is made for me.
    make_table(page, server, variant="dominousa", target=1000)
    seat = my_seat(page)
    deadline = time.time() + 60
    while not history_rows(page, seat, "pass"):
        assert time.time() < deadline, "no pass of mine was made for me"
        play_one(page, avoid_pass=True)
        page.wait_for_timeout(60)
    # Strict mode: I pass myself; the table waits (a move clock of 10 minutes: no timeout move intervenes).
    make_table(page, server, variant="dominousa", target=1000, strict=True, move_seconds=600)
    seat = my_seat(page)
    wait_for_a_forced_pass(page)
    passes = history_rows(page, seat, "pass")
    page.wait_for_timeout(3500)
    assert my_turn(page) and history_rows(page, seat, "pass") == passes
    page.click("button[data-move='pass']")
    # My pass is in the history, or (on a loaded machine the frames that follow may come together) the hand
    # ended after it and the next one began; either way the turn left me.
    page.wait_for_function(
        "() => "
        f"document.querySelectorAll(\".history-panel li.move[data-seat='{seat}'][data-kind='pass']\").length > {passes}"
        " || !document.querySelector('.table-view.my-turn')"
    )
    assert not page.errors


def test_galo_right_after_my_own_play_at_the_default_bot_pace(browser: Any, paced_server: str, shots: Path) -> None:
    page = new_page(browser, **DESKTOP)
    open_lobby(page, paced_server)
    make_table(page, paced_server, variant="amazonense", target=1000)
    seat = my_seat(page)
    deadline = time.time() + 40
    while True:
        assert time.time() < deadline, "no play of mine offered galo"
        if my_turn(page) and page.query_selector(".mytiles button.tile.playable") and play_one(page) == "play":
            try:
                page.wait_for_selector("button.galo.call-now[data-move='galo']", timeout=1500)
            except Exception:  # this play's galo was not offered (e.g. it ended the hand): try the next
                continue
            page.screenshot(path=shots / "galo-button.png", animations="disabled")
            page.click("button.galo.call-now[data-move='galo']")
            break
        page.wait_for_timeout(80)
    page.wait_for_selector(f".history-panel li.move[data-seat='{seat}'][data-kind='galo']", timeout=3000)
    assert not page.errors


def test_quick_messages_and_free_text_closed_during_a_strict_hand(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, lang="es-ES", **DESKTOP)
    open_lobby(page, server)
    make_table(page, server, variant="dominousa", target=1000, strict=True)
    page.wait_for_selector(".chat-panel button.preset[data-preset='good']")
    page.click(".chat-panel button.preset[data-preset='good']")
    page.wait_for_selector(".chat-line:has-text('¡Buena!')", timeout=3000)
    page.wait_for_selector(".seat-chip.me .bubble:has-text('¡Buena!')", timeout=1000)
    assert page.is_disabled("#chat-text")  # a strict hand: quick messages only
    page.click(".chat-panel button.preset[data-preset='gg']")  # within a second: too fast
    page.wait_for_selector("#error:has-text('demasiadas solicitudes')", timeout=3000)
    page.screenshot(path=shots / "chat-strict.png", animations="disabled")
    # A casual table: free text, shown as text (never as markup).
    make_table(page, server, variant="individual", players=2, target=1000)
    page.wait_for_selector("#chat-text:not([disabled])")
    page.fill("#chat-text", "<b>hola</b> a todos")
    page.press("#chat-text", "Enter")
    page.wait_for_selector(".chat-line:has-text('<b>hola</b> a todos')", timeout=3000)
    assert not page.query_selector(".chat-line b")
    assert not page.errors


def test_replay_keyboard_autoplay_and_step_link(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, lang="en", **DESKTOP)
    open_lobby(page, server)
    make_table(page, server, variant="individual", players=2, target=20)
    play_until(page, ".result")
    page.wait_for_selector("#open-replay")
    page.click("#open-replay")
    page.wait_for_selector("#replay #step")
    # the bot's seat shows the bot icon, as at the table; mine the person's
    bots = page.locator(".seat-chip .bot-mark")
    assert bots.count() == 1 and bots.get_attribute("aria-label") == "bot"
    total = int(page.inner_text("#step").split("/")[1].split()[0])
    assert "Step 1/" in page.inner_text("#step")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert "Step 3/" in page.inner_text("#step")
    assert page.evaluate("location.hash").endswith("/3")
    page.keyboard.press("ArrowLeft")
    assert "Step 2/" in page.inner_text("#step")
    page.keyboard.press("End")
    assert f"Step {total}/{total}" in page.inner_text("#step")
    page.keyboard.press("Home")
    assert "Step 1/" in page.inner_text("#step")
    page.click("ol.steps li[data-step='4'] button")  # the list of steps is clickable
    assert "Step 4/" in page.inner_text("#step")
    page.click("#autoplay")
    page.wait_for_selector("#step:has-text('Step 5/')", timeout=3000)
    page.click("#autoplay")
    page.screenshot(path=shots / "replay.png", animations="disabled")
    # A link to a step opens the viewer there (steps are counted from 1, as shown).
    link = page.evaluate("location.href").rsplit("/", 1)[0] + "/7"
    other = new_page(browser, lang="en", **PHONE)
    other.goto(link)
    other.wait_for_selector("#step:has-text('Step 7/')")
    assert other.query_selector(".board svg")
    hand = other.inner_text("#step").split("·")[0].strip()
    assert other.eval_on_selector("#jump", "s => s.options[s.selectedIndex].text") == hand
    other.screenshot(path=shots / "replay-phone.png", animations="disabled")
    assert not page.errors and not other.errors


def test_the_phone_layout_has_every_control_in_view_while_it_is_my_turn(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, **PHONE)
    open_lobby(page, server)
    make_table(page, server, variant="amazonense", target=1000)
    header = page.eval_on_selector("header", "h => h.getBoundingClientRect().height")
    assert header <= 52
    checked = 0
    deadline = time.time() + 40
    while checked < 4 and time.time() < deadline:
        if my_turn(page) and page.query_selector(".mytiles button.tile"):
            controls = ".mytiles button.tile, .slot-bottom .actions button, .table-view > .bar, .seat-chip"
            assert in_viewport(page, controls) == []
            assert page.evaluate("document.scrollingElement.scrollHeight") <= PHONE["height"] + 1
            picked = False
            for k in range(len(page.query_selector_all(".mytiles button.tile.playable"))):
                # a tile that fits two ends shows where it may go: in view too
                tiles = page.query_selector_all(".mytiles button.tile.playable")
                if k >= len(tiles) or not my_turn(page):
                    break
                tiles[k].click()
                page.wait_for_timeout(40)
                if page.query_selector(".actions button.end-choice"):
                    assert in_viewport(page, ".actions button.end-choice, .board-svg .target") == []
                    page.screenshot(path=shots / "phone-choose-end.png", animations="disabled")
                    page.click(".actions button.end-choice")
                    picked = True
                    break
            if not picked:
                play_one(page)
            checked += 1
        page.wait_for_timeout(80)
    assert checked >= 2
    assert not page.errors


TILE = re.compile(r"\b([0-6])-([0-6])\b|(?:carroça de|doble|double) ([0-6])")
#: A tile's spoken name in pt-BR (its accessible name: "carroça de seis", "seis e quatro"), as digits.
PIPS_PT = {"branco": "0", "um": "1", "dois": "2", "três": "3", "quatro": "4", "cinco": "5", "seis": "6"}
_PIP = "|".join(PIPS_PT)
SPOKEN = re.compile(rf"\b({_PIP}) e ({_PIP})\b|carroça de ({_PIP})\b")


def tiles_named(page: Any, root: str = "body") -> set[str]:
    """Every tile the page names under root: in its text, its titles and aria-labels and data-tile."""
    text = page.evaluate(
        """(root) => { const r = document.querySelector(root); if (!r) return "";
            const parts = [r.innerText];
            for (const e of r.querySelectorAll("*"))
                for (const a of ["aria-label", "title", "data-tile"]) parts.push(e.getAttribute(a) || "");
            for (const e of r.querySelectorAll("title")) parts.push(e.textContent);
            return parts.join(" \\n "); }""",
        root,
    )
    found = set()
    for a, b, d in SPOKEN.findall(text):
        x, y = (PIPS_PT[d], PIPS_PT[d]) if d else (PIPS_PT[a], PIPS_PT[b])
        found.add(f"{max(x, y)}-{min(x, y)}")
    for a, b, d in TILE.findall(text):
        x, y = (d, d) if d else (a, b)
        found.add(f"{max(x, y)}-{min(x, y)}")
    return found


def test_a_spectator_sees_no_hidden_tile(browser: Any, server: str, shots: Path) -> None:
    player = new_page(browser)
    open_lobby(player, server)
    table = make_table(player, server, variant="individual", players=2, target=500, pause_seconds=30)
    player.wait_for_selector(".mytiles button.tile", timeout=15000)
    watcher = new_page(browser, **DESKTOP)
    watcher.goto(f"{server}/#/table/{table}")
    watcher.wait_for_selector(".board svg", timeout=15000)
    assert not watcher.query_selector(".mytiles button")
    deadline = time.time() + 60
    scans = 0
    while time.time() < deadline and not player.query_selector(".hand-over"):
        mine = {b.get_attribute("title") for b in player.query_selector_all(".mytiles button.tile")}
        public = tiles_named(watcher, ".board")
        shown = tiles_named(watcher)
        if not watcher.query_selector(".hand-over"):
            assert not (shown - public) & (mine - public), (shown - public) & mine
            scans += 1
        play_one(player)
        player.wait_for_timeout(120)
    assert scans >= 3
    # The end of the hand shows every hand: public now, and only what the server revealed.
    watcher.wait_for_selector(".hand-over", timeout=10000)
    revealed = {t.get_attribute("data-tile") for t in watcher.query_selector_all(".hand-over .revealed [data-tile]")}
    left = {b.get_attribute("title") for b in player.query_selector_all(".mytiles button.tile")}
    assert left <= revealed
    assert not watcher.query_selector("#next-hand")  # spectators wait for the players
    watcher.screenshot(path=shots / "spectator-hand-over.png", animations="disabled")
    # The chips a spectator mutes the players' chat with say what they are for, in words and by name.
    assert watcher.inner_text(".mutes .mutes-label") == "Silenciar:"
    chip = watcher.locator(".mutes button.mute-name")
    assert chip.count() == 1 and chip.get_attribute("aria-label") == f"Silenciar {chip.inner_text().strip()}"


#: The desktop's moves panel, made short enough to scroll and scrolled to its end: how far below the panel's top its
#: sticky tab bar stays (what scrolls under the bar shows through that gap).
TABS_GAP = """() => {
    const panel = document.querySelector(".history-panel");
    const was = panel.style.maxHeight;
    panel.style.maxHeight = "120px";
    panel.scrollTop = panel.scrollHeight;
    if (panel.scrollTop === 0) throw new Error("the moves panel does not scroll");
    const gap = panel.querySelector(".panel-tabs").getBoundingClientRect().top - panel.getBoundingClientRect().top;
    panel.style.maxHeight = was;
    return gap;
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screenshots_of_a_table_mid_hand_between_hands_and_at_the_end(
    browser: Any, server: str, shots: Path, size: str
) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    page = new_page(browser, **viewport)
    open_lobby(page, server)
    page.screenshot(path=shots / f"{size}-lobby.png", animations="disabled")
    make_table(page, server, variant="amazonense", target=1000, pause_seconds=30)
    moves = 0
    while moves < 3:
        if play_one(page):
            moves += 1
        page.wait_for_timeout(80)
    page.wait_for_timeout(500)
    page.screenshot(path=shots / f"{size}-mid-hand.png", animations="disabled")
    if size == "desktop":  # the moves panel is a column beside the felt: scrolled, nothing shows above its tabs
        assert page.evaluate(TABS_GAP) <= 0.5, "moves scrolled under the tab bar show above it"
    play_until(page, ".hand-over", next_hand=False)
    page.wait_for_timeout(400)
    page.screenshot(path=shots / f"{size}-hand-over.png", animations="disabled")
    make_table(page, server, variant="dominousa", target=5)
    play_until(page, ".result")
    page.wait_for_selector("#download")
    page.screenshot(path=shots / f"{size}-result.png", animations="disabled")
    assert page.inner_text(".result .winners")
    assert not page.errors


#: The board's tiles that animate: an animation longer than a lay animation's 300 ms, or endless, is
#: reported; shorter ones are awaited.
MOVING_TILES = """async () => {
    const moving = [];
    const short = [];
    for (const e of document.querySelectorAll(".board-svg [data-tile]")) {
        for (const a of e.getAnimations({ subtree: true })) {
            if (a.playState !== "running") continue;
            const end = a.effect ? a.effect.getComputedTiming().endTime : Infinity;
            if (end <= 300) short.push(a.finished.catch(() => null));
            else moving.push(`${e.dataset.tile} (${e.getAttribute("class")}): ${a.animationName || "?"} ${end}`);
        }
    }
    await Promise.all(short);
    return moving;
}"""

#: Where each of the board's tiles lies, every 100 ms for ms milliseconds: the tiles whose box moved more
#: than half a pixel from where it first was, with how far; and the tiles seen.
TILE_DRIFT = """(ms) => new Promise((done) => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const tiles = () => [...document.querySelectorAll(".board-svg [data-tile]")];
    const first = new Map(tiles().map((e) => [e.dataset.tile, box(e)]));
    const drift = {};
    const t0 = performance.now();
    const look = () => {
        for (const e of tiles()) {
            const a = first.get(e.dataset.tile);
            if (!a) { drift[e.dataset.tile] = "laid meanwhile"; continue; }
            const d = Math.max(...box(e).map((x, i) => Math.abs(x - a[i])));
            if (d > 0.5) drift[e.dataset.tile] = Math.max(drift[e.dataset.tile] || 0, Math.round(d));
        }
        if (performance.now() - t0 < ms) setTimeout(look, 100);
        else done({ drift, tiles: [...first.keys()].sort() });
    };
    look();
})"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_tiles_on_the_table_lie_still_the_amazonense_cross_included(
    browser: Any, server: str, shots: Path, size: str
) -> None:
    """Issue 18: the centre double of every Amazonense cross (A1's spinner) moved, because the board's
    class for it was also the loading spinner's, which spins. Once laid, no tile of the board animates (a
    lay animation of 300 ms at most would be fine) and every tile stays where it is, for the player and for
    a spectator."""
    viewport = PHONE if size == "phone" else DESKTOP
    page = new_page(browser, **viewport)
    open_lobby(page, server)
    table = make_table(page, server, variant="amazonense", target=1000, move_seconds=600)
    # Play until the cross has its spinner and both long arms, at my turn with a tile to play: the table waits
    # for me (with only a pass, the table passes for me after a moment, auto_pass, and the others play on).
    deadline = time.time() + 60
    playable = ".mytiles button.tile.playable:not([disabled])"
    while not (
        my_turn(page) and page.query_selector(playable) and len(page.query_selector_all(".board-svg [data-tile]")) >= 3
    ):
        assert time.time() < deadline, "no cross of three tiles at my turn"
        if not next_deal(page) and my_turn(page):
            play_one(page, avoid_pass=True)
        page.wait_for_timeout(60)
    watcher = new_page(browser, **viewport)
    watcher.goto(f"{server}/#/table/{table}")
    watcher.wait_for_function("() => document.querySelectorAll('.board-svg [data-tile]').length >= 3")
    for p in (page, watcher):
        assert p.evaluate(MOVING_TILES) == []
    # A measurement: where each tile lies over two seconds (the table waits for me meanwhile).
    for p in (page, watcher):  # both at once
        p.evaluate(f"(ms) => {{ window.tileDrift = ({TILE_DRIFT})(ms); }}", 2000)
    mine, theirs = (p.evaluate("() => window.tileDrift") for p in (page, watcher))
    assert mine["drift"] == {} and theirs["drift"] == {}, (mine, theirs)
    assert mine["tiles"] == theirs["tiles"] and len(mine["tiles"]) >= 3
    assert my_turn(page)  # nothing was played meanwhile
    for p in (page, watcher):
        assert p.evaluate(MOVING_TILES) == []
    page.screenshot(path=shots / f"amazonense-cross-{size}.png")  # as it is: animations running, if any
    watcher.screenshot(path=shots / f"amazonense-cross-spectator-{size}.png")
    assert not page.errors and not watcher.errors
