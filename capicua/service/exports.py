"""The platform's CSV exports, written one way: cells a spreadsheet will not take for formulas.

A spreadsheet that opens a CSV runs a cell that begins with ``=`` (or ``+``, ``-``, ``@``) as a formula, so a
team named ``=HYPERLINK("http://x","y")`` would become a link (or worse: DDE) in the organiser's copy of
the standings. OWASP's advice on CSV injection, followed here: a text cell that begins with one of those, a
tab or a carriage return is prefixed with a single quote, which makes it text; and every text cell is
quoted (``csv.QUOTE_NONNUMERIC``), so a ``;`` or ``,`` inside it cannot start a new cell where the
spreadsheet splits on another separator than ours.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

__all__ = ["FORMULA_STARTS", "csv_text", "spreadsheet_safe"]

#: What a cell may not begin with (OWASP, CSV injection): a spreadsheet reads it as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | None


def spreadsheet_safe(cell: Cell) -> Cell:
    """``cell`` as it may be written: text that begins like a formula gets a ``'`` in front
    (``=SUM(A1)`` → ``'=SUM(A1)``, ``-2+3`` → ``'-2+3``); numbers are the server's own (points, places,
    a negative difference) and are written as they are, as is ``None`` (an empty cell).

    >>> [spreadsheet_safe(x) for x in ("=1+1", "@SUM(A1)", "Ana", -3, None)]
    ["'=1+1", "'@SUM(A1)", 'Ana', -3, None]
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> str:
    """A CSV file (``\\r\\n`` line ends, as RFC 4180): the header line, then the rows, every cell made
    :func:`spreadsheet_safe` and every text cell quoted. Only text is ever neutralised: a row's numbers
    must be numbers (``int`` or ``float``), not numbers written as text by the caller."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([spreadsheet_safe(c) for c in header])
    for row in rows:
        writer.writerow(["" if c is None else spreadsheet_safe(c) for c in row])
    return out.getvalue()
