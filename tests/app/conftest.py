"""The app's HTML helpers (`app/pile_view.py`) importable in tests as the app imports them:
Streamlit puts the script's folder on the path."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

APP_DIR = Path(__file__).resolve().parents[2] / "app"
if str(APP_DIR) not in sys.path:
    sys.path.insert(0, str(APP_DIR))


@pytest.fixture(autouse=True)
def the_real_main_module() -> Iterator[None]:
    """Streamlit's AppTest leaves the app script as `__main__`; a later test that starts
    processes with multiprocessing's spawn (the synthetic scenes) would run the app in each
    worker. Each app test gives the real `__main__` back."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main
