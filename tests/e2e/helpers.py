"""What the browser tests share: pages, tables made through the API with the page's own guest, a simple
player that plays whatever is playable, and for the ratings: accounts, rated matches over the API and the
websocket, and a rated history seeded through the service layer before a server starts."""

from __future__ import annotations

import datetime as dt
import json
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
from playwright.sync_api import Error as PlaywrightError
from websockets.sync.client import connect

from capicua.rules import variants
from tests.aio import run_async

#: The tests' HTTP client: a generous timeout, for a server that shares two cores with chromium and the other
#: tests (what is checked is behaviour, not latency).
http = httpx.Client(timeout=30)

PHONE: dict[str, Any] = {"width": 360, "height": 740}
DESKTOP: dict[str, Any] = {"width": 1280, "height": 800}


#: What a guest who has seen (or skipped) every game's guided hand keeps (views/lesson.js: lessonSeen).
LESSONS_SEEN = """(() => { try {
    for (const game of ["amazonense", "individual", "dominousa"]) localStorage.setItem(`capicua.lesson.${game}`, "1");
} catch (e) { /* a page without storage (about:blank) */ } })();"""


def new_page(
    browser: Any,
    lang: str = "pt-BR",
    width: int = 1200,
    height: int = 900,
    timezone: str | None = None,
    lessons_seen: bool = True,
) -> Any:
    """A page of a context of its own; ``timezone``: the browser's time zone (by default the machine's);
    ``lessons_seen``: as a guest who has seen each game's guided hand, so his first quick play is a table, not
    the offer of the lesson (views/lesson.js; tests/e2e/test_lesson.py is the guest who has not).

    The pages run under the server's Content-Security-Policy, as people's do (no ``bypass_csp``): give
    ``wait_for_function`` a function (``"() => …"``), since Playwright evaluates a bare expression with the
    page's ``eval``, which the policy refuses (``page.evaluate`` is not affected)."""
    context = browser.new_context(locale=lang, viewport={"width": width, "height": height}, timezone_id=timezone)
    if lessons_seen:
        context.add_init_script(LESSONS_SEEN)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def open_lobby(page: Any, server: str) -> None:
    page.goto(server)
    page.wait_for_selector("#create")


def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    """Call the HTTP API as the page's player (its token in localStorage)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const headers = {"Content-Type": "application/json", "X-Requested-With": "capicua",
                             Authorization: `Bearer ${localStorage.getItem("capicua.token")}`};
            const res = await fetch(path, {method, headers, body: body === null ? undefined : JSON.stringify(body)});
            return {status: res.status, body: await res.json()};
        }""",
        [method, path, body],
    )


def make_table(page: Any, server: str, **options: Any) -> str:
    """Create a table (seated, bots at once unless told), and open it; its id."""
    body = {"sit": True, "bots_after": 0, "pause_seconds": 0, **options}
    answer = api(page, "POST", "/api/tables", body)
    assert answer["status"] == 201, answer
    table = str(answer["body"]["id"])
    page.goto(f"{server}/#/table/{table}")
    page.wait_for_selector(".board", state="attached")
    return table


def my_turn(page: Any) -> bool:
    return bool(page.query_selector(".table-view.my-turn"))


def play_one(page: Any, avoid_pass: bool = False) -> str | None:
    """Make one move if it is my turn: the first playable tile (its first end), else draw/keep/announce,
    else pass (unless avoid_pass). What was done, or None (also when the page changed under the click)."""
    try:
        return _play_one(page, avoid_pass)
    except PlaywrightError:  # a frame came and drew the table again: the element is gone
        return None


def _play_one(page: Any, avoid_pass: bool) -> str | None:
    if not my_turn(page):
        return None
    tiles = page.query_selector_all(".mytiles button.tile.playable:not([disabled])")
    if tiles:
        tiles[0].click(timeout=2000)
        page.wait_for_timeout(40)
        ends = page.query_selector_all(".actions button.end-choice")
        if page.query_selector(".mytiles button.tile[aria-pressed='true']") and ends:
            ends[0].click(timeout=2000)
        return "play"
    for name in ("draw", "keep", "announce", *(() if avoid_pass else ("pass",))):
        button = page.query_selector(f"button[data-move='{name}']")
        if button:
            button.click(timeout=2000)
            return str(name)
    return None


def page_state(page: Any) -> dict[str, Any]:
    """What a page shows of its table, for a failing test's message: whose turn, the buttons, the log's last
    rows, the socket's state and the script errors."""
    return {
        "my_turn": my_turn(page),
        "view": page.get_attribute(".table-view", "class"),
        "buttons": [b.inner_text() for b in page.query_selector_all(".actions button, #next-hand")],
        "playable": len(page.query_selector_all(".mytiles button.tile.playable:not([disabled])")),
        "last_moves": [li.inner_text() for li in page.query_selector_all(".history-panel li.move")[-4:]],
        "banner": [b.inner_text() for b in page.query_selector_all("#status:not([hidden]), #error:not([hidden])")],
        "errors": page.errors,
    }


def next_deal(page: Any) -> bool:
    """Press "next hand" if the page offers it; whether it did. The deal may come first (the others were ready,
    or the pause ended) and take the button away: then nothing is pressed, and the caller goes on."""
    button = page.query_selector("#next-hand:not([disabled])")
    if button is None:
        return False
    try:
        button.click(timeout=2000)
    except PlaywrightError:  # gone under the click
        return False
    return True


def play_until(page: Any, selector: str | Callable[[], bool], timeout: float = 90, next_hand: bool = True) -> int:
    """Play until selector shows, or until ``selector()`` holds (pressing "next hand" between hands); how many
    moves I made."""
    moves = 0
    deadline = time.time() + timeout
    done = selector if callable(selector) else lambda: page.query_selector(selector) is not None
    while time.time() < deadline:
        if done():
            return moves
        pressed = next_hand and next_deal(page)
        if not pressed and play_one(page):
            moves += 1
        page.wait_for_timeout(80)
    raise AssertionError(f"{selector} did not show in time")


def history_rows(page: Any, seat: int | None = None, kind: str | None = None) -> int:
    sel = ".history-panel li.move"
    if seat is not None:
        sel += f"[data-seat='{seat}']"
    if kind is not None:
        sel += f"[data-kind='{kind}']"
    return len(page.query_selector_all(sel))


def my_seat(page: Any) -> int:
    return int(page.get_attribute(".seat-chip.me", "data-seat"))


def in_viewport(page: Any, selector: str) -> list[str]:
    """The elements matching selector that are not wholly inside the viewport (their outerHTML, cut)."""
    found: list[str] = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter((e) => {
            const r = e.getBoundingClientRect();
            const inside = r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
            return !(r.width > 0 && inside);
        }).map((e) => e.outerHTML.slice(0, 120))""",
        selector,
    )
    return found


def play_soon(page: Any, timeout: float = 10) -> str:
    """Make a move as soon as it is my turn (frames may still be coming); what was done."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        done = play_one(page)
        if done:
            return done
        page.wait_for_timeout(60)
    raise AssertionError("no move could be made")


# -- ratings: accounts, rated matches over the API and the websocket, a history seeded before start -------
PASSWORD = "jaraqui-assado"


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    token: str
    username: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def unique(prefix: str) -> str:
    """A username nobody has taken yet (the session's server is shared by the tests)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", prefix.lower()) if c.isascii() and c.isalnum())
    return f"{plain or 'player'}{secrets.token_hex(3)}"


def sign_up(server: str, name: str) -> Account:
    username = unique(name)
    r = http.post(f"{server}/api/accounts", json={"username": username, "password": PASSWORD, "name": name})
    assert r.status_code == 201, r.text
    data = r.json()
    return Account(data["id"], data["name"], data["token"], username)


def log_in(page: Any, server: str, who: Account, path: str = "/") -> None:
    """Open ``path`` as ``who`` (his token where the client keeps it, put there from a page of the same
    site where the client does not run: it would make itself a guest meanwhile)."""
    page.goto(server + "/api/ratings")
    page.evaluate(
        """([token, me]) => {
            localStorage.setItem("capicua.token", token);
            localStorage.setItem("capicua.me", me);
        }""",
        [who.token, json.dumps({"id": who.id, "name": who.name, "guest": False})],
    )
    page.goto(server + "/#" + path)


def call(server: str, who: Account, method: str, path: str, body: Any = None, status: int = 200) -> Any:
    r = http.request(method, server + path, json=body, headers=who.headers)
    assert r.status_code == status, r.text
    return r.json()


def rated_table(server: str, people: list[Account], game: str, start: bool = True, **options: Any) -> str:
    """A rated table of ``game`` with ``people`` seated in their order (its match started); its id."""
    body = {"variant": game, "rated": True, "pause_seconds": 0, **options}
    table = str(call(server, people[0], "POST", "/api/tables", body, 201)["id"])
    for k, who in enumerate(people):
        call(server, who, "POST", f"/api/tables/{table}/join", {"seat": k})
    if start:
        call(server, people[0], "POST", f"/api/tables/{table}/start")
    return table


def ratings_of(server: str, table: str, match: int = 1, timeout: float = 10) -> list[dict[str, Any]]:
    """What a table's rated match did to each seat (once it has ended)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for record in http.get(f"{server}/api/tables/{table}/records").json():
            if record["match"] == match and record["ratings"]:
                return list(record["ratings"])
        time.sleep(0.1)
    raise AssertionError(f"match {match} of {table} was not rated in time")


def resigned_match(server: str, people: list[Account], game: str, resigns: int) -> list[dict[str, Any]]:
    """A rated match that ends at once: seat ``resigns`` leaves it (his side loses); its rating changes."""
    table = rated_table(server, people, game)
    call(server, people[resigns], "POST", f"/api/tables/{table}/resign")
    return ratings_of(server, table)


class SocketPlayers:
    """Account holders who play a table over the websocket, each in a thread of his own: the first legal
    move whenever it is his turn (the browser tests' stand-ins for people at rated tables, where no bot
    may sit)."""

    def __init__(self, server: str, table: str, people: list[Account]) -> None:
        self.url = server.replace("http://", "ws://") + "/ws"
        self.table = table
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.threads = [threading.Thread(target=self._play, args=(who,), daemon=True) for who in people]

    def __enter__(self) -> SocketPlayers:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(5)

    def _play(self, who: Account) -> None:
        try:
            with connect(f"{self.url}?token={who.token}") as ws:
                ws.send(json.dumps({"type": "subscribe", "table": self.table}))
                n = -1
                while not self.stop.is_set():
                    try:
                        msg = json.loads(ws.recv(timeout=0.3))
                    except TimeoutError:
                        continue
                    state = msg.get("state")
                    if not state:
                        continue
                    n = max(n, int(state.get("n") or 0))
                    hand = state.get("hand")
                    if state.get("winner") is not None or not hand or hand.get("end") is not None:
                        continue
                    if hand["turn"] == hand["seat"] and hand["legal"] and state["n"] == n:
                        action = {"type": "action", "table": self.table, "action": hand["legal"][0], "ref": n}
                        ws.send(json.dumps(action))
        except Exception as exc:  # reported by the test that ran them
            self.errors.append(f"{who.name}: {exc!r}")


def this_monday(timezone: str = "America/Sao_Paulo") -> dt.date:
    from capicua.service.ratings.weekly import week_start

    return week_start(dt.datetime.now(dt.UTC), ZoneInfo(timezone))


def seed_rated_weeks(
    data: Path, names: list[str], game: str, weeks: dict[int, list[tuple[list[int], int]]]
) -> list[Account]:
    """Before a server starts on ``data``: accounts for ``names``, and rated matches of ``game`` played
    in past weeks, rated by the ratings service itself. ``weeks`` maps how many weeks ago to that week's
    matches, each (the four players' indexes in seat order, the winning side). The server closes those
    weeks when it starts (D4), so their medals are there at once."""

    async def seed() -> list[Account]:
        from capicua.rules import Match
        from capicua.rules.record import Record
        from capicua.rules.variant import MatchOutcome, MatchTermination
        from capicua.service.accounts import Accounts
        from capicua.service.bus import MatchEnded
        from capicua.service.identity import GuestIdentities, load_secret
        from capicua.service.ratings.service import Ratings
        from capicua.service.store import Store, default_url

        data.mkdir(parents=True, exist_ok=True)
        store = Store(default_url(data))
        await store.open()
        try:
            accounts = Accounts(store.accounts, GuestIdentities(load_secret(data)))
            people = []
            for name in names:
                username = unique(name)
                who, token = await accounts.sign_up(username, PASSWORD, name)
                people.append(Account(who.id, who.name, token, username))
            ratings = Ratings(store.ratings, store.accounts.names)
            tz = ZoneInfo("America/Sao_Paulo")
            for ago, matches in sorted(weeks.items(), reverse=True):
                monday = this_monday() - dt.timedelta(days=7 * ago)
                start = dt.datetime.combine(monday + dt.timedelta(days=1), dt.time(12), tz)
                for k, (seats, winner) in enumerate(matches):
                    players = [people[i] for i in seats]
                    match = Match(variants.get(game), players=4)
                    record = Record.from_match(match, [p.name for p in players]).to_json()
                    outcome = MatchOutcome(MatchTermination.TARGET, winner, (0, 0))
                    at = (start + dt.timedelta(minutes=25 * k)).astimezone(dt.UTC)
                    ids: list[str | None] = [p.id for p in players]
                    await ratings.on_match_ended(
                        MatchEnded(
                            f"seed{ago}", k + 1, game, outcome, [p.name for p in players], ids, record, True, None, at
                        )
                    )
            return people
        finally:
            await store.close()

    return run_async(seed())
