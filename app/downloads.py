"""The pages' download buttons, shared by both games: a CSV for a spreadsheet (written in the
page's language, with the byte-order mark Excel needs: `spreadsheet.for_spreadsheet`) or JSON for
tools (English). Each button downloads without running the page again."""

from __future__ import annotations

import streamlit as st

from blackcat.tables.spreadsheet import for_spreadsheet


def csv_button(key: str, label: str, text: str, file_stem: str) -> None:
    st.download_button(
        label,
        for_spreadsheet(text),
        file_name=f"{file_stem}.csv",
        mime="text/csv",
        on_click="ignore",
        key=key,
    )


def json_button(key: str, label: str, text: str, file_stem: str) -> None:
    st.download_button(
        label,
        text,
        file_name=f"{file_stem}.json",
        mime="application/json",
        on_click="ignore",
        key=key,
    )
