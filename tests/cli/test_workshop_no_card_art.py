"""`blackcat evaluate` and `blackcat calibrate` on a machine without the card art that scenes are
drawn with (nor apt-get to fetch it): one line saying where it comes from, not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from blackcat.cli import main
from blackcat.vision.reader import MODELS_DIR
from blackcat.workshop.ultralytics_setup import prepare_ultralytics


@pytest.mark.parametrize(
    ("command", "option", "scenes"),
    [
        ("evaluate", "--kitty", "--kitty-scenes"),
        ("evaluate", "--table", "--table-scenes"),
        ("calibrate", "--kitty", "--scenes"),
        ("calibrate", "--table", "--scenes"),
    ],
)
def test_scenes_without_card_art_are_one_line_saying_where_it_comes_from(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    option: str,
    scenes: str,
) -> None:
    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    models = tmp_path / "models"  # calibrate writes its fit here: it must write none
    models.mkdir()
    for bundled in MODELS_DIR.iterdir():
        (models / bundled.name).symlink_to(bundled)
    monkeypatch.setenv("BLACKCAT_CACHE", str(tmp_path / "cache"))  # no card art drawn yet
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # no apt-get nor dpkg to fetch it
    capsys.readouterr()
    argv = [command, option, str(tmp_path / "scenes"), scenes, "1", "--models", str(models)]
    assert main(argv) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"blackcat {command}: the card art comes from the Debian packages ")
    assert "Traceback" not in "\n".join(err)
    assert all(path.is_symlink() for path in models.iterdir())  # no fit written
