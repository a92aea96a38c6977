"""The page's panels (expanders): each stays as the player left it when its label changes."""

from __future__ import annotations

from typing import Any

import streamlit as st


def panel(label: str, key: str, **options: Any) -> Any:
    """An expander, open while `st.session_state[key]` is True. Streamlit takes an expander of
    another label for a new one, closed: a switch of language, a pile renumbered or a count in
    the label closed the panel the player was working in."""
    return st.expander(label, expanded=bool(st.session_state.get(key, False)), key=key, **options)
