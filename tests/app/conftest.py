"""The app's HTML helpers (`app/pile_view.py`) importable in tests as the app imports them:
Streamlit puts the script's folder on the path."""

from __future__ import annotations

import sys
from pathlib import Path

APP_DIR = Path(__file__).resolve().parents[2] / "app"
if str(APP_DIR) not in sys.path:
    sys.path.insert(0, str(APP_DIR))
