"""Shared by the app tests: where the app is, and its HTML helpers importable as the app does."""

from __future__ import annotations

import sys
from pathlib import Path

APP_DIR = Path(__file__).resolve().parents[2] / "app"
APP_SCRIPT = APP_DIR / "streamlit_app.py"

# The app imports its sibling `pile_view` module (Streamlit puts the script's folder on the path).
if str(APP_DIR) not in sys.path:
    sys.path.insert(0, str(APP_DIR))
