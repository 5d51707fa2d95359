"""The CSV exports (issue 21): a cell a spreadsheet would run as a formula is made text (OWASP's advice on CSV
injection), the server's own numbers stay numbers, and the CSV stays CSV (quoted as the csv module does)."""

from __future__ import annotations

import csv
import io

from capicua.service.exports import csv_text, spreadsheet_safe
from capicua.service.tournaments.view import STANDINGS_COLUMNS, standings_csv

HOSTILE = ['=HYPERLINK("http://x","y")', "+1", "-2+3", "@SUM(A1)", "\tcmd", "\r=1"]


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_text_that_begins_like_a_formula_gets_a_quote_and_the_rest_is_kept() -> None:
    assert [spreadsheet_safe(x) for x in HOSTILE] == ["'" + x for x in HOSTILE]
    for plain in ("Ana & Bia", "Zé do Boi", "a=b", "1-2", "Ana @ home", "'quoted", ""):
        assert spreadsheet_safe(plain) == plain
    assert [spreadsheet_safe(x) for x in (-3, 0, 12, -1.5, None)] == [-3, 0, 12, -1.5, None]


def test_a_csv_quotes_every_text_cell_and_leaves_numbers_bare() -> None:
    text = csv_text(("name", "points", "note"), [("-2+3", -30, None), ('a "b"; =c', 7, "ok")])
    assert text.split("\r\n") == ['"name","points","note"', '"\'-2+3",-30,""', '"a ""b""; =c",7,"ok"', ""]
    assert read(text) == [["name", "points", "note"], ["'-2+3", "-30", ""], ['a "b"; =c', "7", "ok"]]


def line(team: int, name: str, players: list[str], difference: int) -> dict[str, object]:
    values: dict[str, object] = dict.fromkeys(STANDINGS_COLUMNS, 0)
    won = difference > 0
    values.update(place=team, team=team, name=name, players=players, difference=difference, draw="0a1b2c3d")
    values.update(head_to_head=None, status="registered", wins=int(won), losses=int(not won), played=1)
    return values


def test_the_standings_neutralise_team_and_player_names_and_keep_a_negative_difference() -> None:
    lines = [
        line(1, HOSTILE[0], ["Ana", "@SUM(A1)"], 30),
        line(2, "+1", ["-2+3", "Bia"], -30),
        line(3, "Os Botos", ["Caio", "Duda"], -5),
    ]
    rows = [dict(zip(STANDINGS_COLUMNS, r, strict=True)) for r in read(standings_csv(lines))[1:]]
    assert [r["name"] for r in rows] == ["'" + HOSTILE[0], "'+1", "Os Botos"]
    assert [r["players"] for r in rows] == ["Ana & @SUM(A1)", "'-2+3 & Bia", "Caio & Duda"]  # only a cell's start
    assert [r["difference"] for r in rows] == ["30", "-30", "-5"]  # the server's numbers: no quote
    assert [r["head_to_head"] for r in rows] == ["", "", ""] and rows[0]["draw"] == "0a1b2c3d"
