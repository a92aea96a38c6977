"""The page's panels that keep their state (expanders with a key and `on_change`): each stays as
the player left it when its label changes."""

from __future__ import annotations

from typing import Any

import streamlit as st


def panel(label: str, key: str, **options: Any) -> Any:
    """An expander whose state is kept under `key` (`on_change="rerun"`, or a callback), open
    while `st.session_state[key]` is True. Streamlit takes an expander of another label for a
    new one, closed: a switch of language or a pile renumbered closed the panel the player was
    working in."""
    options.setdefault("on_change", "rerun")
    return st.expander(label, expanded=bool(st.session_state.get(key, False)), key=key, **options)
