"""CSV for spreadsheets: the downloads of both games' score sheets.

A text cell that begins like a formula (`=`, `+`, `-`, `@`) gets a leading apostrophe, as
spreadsheets mark text: a player's name (which can come in a shared link) is never run as a
formula. Numbers stay numbers (Black Lady's totals go below zero). The byte-order mark of
`for_spreadsheet` has Excel read the file as UTF-8 (names with accents or emoji)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int


def cell_text(cell: Cell) -> str:
    if isinstance(cell, int):
        return str(cell)
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def csv_text(rows: Iterable[Sequence[Cell]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # lines end in CRLF, as RFC 4180 has them: a lone CR is quoted
    writer.writerows([cell_text(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def for_spreadsheet(text: str) -> bytes:
    """A CSV's bytes for a download: UTF-8 with a byte-order mark."""
    return text.encode("utf-8-sig")
