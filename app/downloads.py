"""The pages' download buttons, shared by both games: a CSV for a spreadsheet (written in the
page's language, with the byte-order mark Excel needs: `spreadsheet.for_spreadsheet`) or JSON for
tools (English). Each button downloads without running the page again, and writes its file
only then (`contents`, called in Streamlit's own thread: a night's CSV scored every game again
at every tap)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from blackcat.tables.spreadsheet import for_spreadsheet


def csv_button(key: str, label: str, contents: Callable[[], str], file_stem: str) -> None:
    st.download_button(
        label,
        lambda: for_spreadsheet(contents()),
        file_name=f"{file_stem}.csv",
        mime="text/csv",
        on_click="ignore",
        key=key,
        wrap=True,  # whole in a row on a narrow phone or at a large text size
    )


def json_button(key: str, label: str, contents: Callable[[], str], file_stem: str) -> None:
    st.download_button(
        label,
        contents,
        file_name=f"{file_stem}.json",
        mime="application/json",
        on_click="ignore",
        key=key,
        wrap=True,  # whole in a row on a narrow phone or at a large text size
    )
