"""Ultralytics prepared for this project: nothing on stdout on a machine's first run, and its
usage analytics off, in its settings file and in the running process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PREPARE_AND_REPORT = """
import json
from blackcat.workshop.ultralytics_models import load_ultralytics_reader
from blackcat.workshop.ultralytics_setup import analytics_off
load_ultralytics_reader()
print(json.dumps({"analytics_off": analytics_off()}))
"""


@pytest.fixture
def fresh_settings(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose Ultralytics settings folder is new and empty: a first run."""
    env = {**os.environ, "YOLO_CONFIG_DIR": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
    return env, tmp_path / "Ultralytics" / "settings.json"


def test_loading_the_workshops_reader_prints_nothing_and_switches_analytics_off(
    fresh_settings: tuple[dict[str, str], Path],
) -> None:
    env, settings_file = fresh_settings
    result = subprocess.run(
        [sys.executable, "-c", PREPARE_AND_REPORT],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    assert json.loads(result.stdout) == {"analytics_off": True}  # stdout holds that line alone
    assert "Creating new Ultralytics Settings" in result.stderr  # said, but on stderr
    assert json.loads(settings_file.read_text())["sync"] is False


def test_prepare_is_idempotent_and_returns_the_module() -> None:
    from blackcat.workshop.ultralytics_setup import analytics_off, prepare_ultralytics

    first = prepare_ultralytics()
    assert prepare_ultralytics() is first
    assert first.__name__ == "ultralytics"
    assert analytics_off()


OFFLINE_REPORT = """
import json, socket, sys
from pathlib import Path

asked = []
def refuse(host, *args, **kwargs):
    asked.append(str(host))
    raise OSError("no network in this test")
socket.getaddrinfo = refuse

from blackcat.workshop.ultralytics_setup import prepare_ultralytics
prepare_ultralytics()
from ultralytics.utils import ONLINE
from ultralytics.data.utils import check_det_dataset

folder = Path(sys.argv[1])
(folder / "images").mkdir()
(folder / "data.yaml").write_text(
    f"path: {folder}\\ntrain: images\\nval: images\\nnames:\\n  0: index\\n"
)
check_det_dataset(str(folder / "data.yaml"))
print(json.dumps({"online": ONLINE, "asked": asked}))
"""


def test_ultralytics_asks_the_network_for_nothing(
    fresh_settings: tuple[dict[str, str], Path], tmp_path: Path
) -> None:
    env, _ = fresh_settings
    env.pop("YOLO_OFFLINE", None)
    result = subprocess.run(
        [sys.executable, "-c", OFFLINE_REPORT, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    assert json.loads(result.stdout) == {"online": False, "asked": []}
