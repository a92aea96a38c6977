"""CSV for spreadsheets: text that begins like a formula stays text, numbers stay numbers, and
a download carries a byte-order mark for Excel."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from blackcat.tables.spreadsheet import FORMULA_STARTS, cell_text, csv_text, for_spreadsheet


def test_text_like_a_formula_is_marked_as_text_and_numbers_stay_numbers() -> None:
    assert [cell_text(cell) for cell in ("=SUM(A1)", "+1", "-Ann", "@x", "Ann", "")] == [
        "'=SUM(A1)",
        "'+1",
        "'-Ann",
        "'@x",
        "Ann",
        "",
    ]
    assert cell_text(-51) == "-51" and cell_text(0) == "0"


@given(st.lists(st.lists(st.one_of(st.text(), st.integers()), min_size=1), min_size=1))
def test_every_cell_reads_back_and_none_begins_like_a_formula(rows: list[list[str | int]]) -> None:
    read = list(csv.reader(io.StringIO(csv_text(rows), newline="")))
    assert [[cell_text(cell) for cell in row] for row in rows] == read
    for row, read_row in zip(rows, read, strict=True):
        for cell, text in zip(row, read_row, strict=True):
            assert isinstance(cell, int) or not text.startswith(FORMULA_STARTS)


def test_a_download_is_utf8_with_a_byte_order_mark() -> None:
    data = for_spreadsheet(csv_text([["Ana María", 3]]))
    assert data.startswith(b"\xef\xbb\xbf") and data.decode("utf-8-sig") == "Ana María,3\r\n"
