"""`blackcat evaluate` and `blackcat calibrate` given a models folder with a model damaged that
the reader loads only when a photo first needs it: refused before any scene is drawn or read, in
one line naming the file (as `blackcat scan` says it), not in a traceback partway through."""

from __future__ import annotations

from pathlib import Path

import pytest
from damaged_models import models_with_one_cut_short

from blackcat.cli import main
from blackcat.vision.reader import (
    SUIT_CLASSIFIER_FILE,
    TABLE_CLASSIFIER_FILE,
    TABLE_DETECTOR_FILE,
)
from blackcat.workshop.ultralytics_setup import prepare_ultralytics

LOADED_ON_FIRST_USE = (TABLE_DETECTOR_FILE, TABLE_CLASSIFIER_FILE, SUIT_CLASSIFIER_FILE)


@pytest.mark.parametrize("name", LOADED_ON_FIRST_USE)
@pytest.mark.parametrize(
    ("command", "scenes"),
    [
        ("evaluate", ["--kitty", "{scenes}", "--kitty-scenes", "1"]),
        ("evaluate", ["--table", "{scenes}", "--table-scenes", "1"]),
        ("calibrate", ["--kitty", "{scenes}", "--scenes", "1"]),
        ("calibrate", ["--table", "{scenes}", "--scenes", "1"]),
    ],
    ids=["evaluate-kitty", "evaluate-table", "calibrate-kitty", "calibrate-table"],
)
def test_a_model_loaded_on_first_use_found_damaged_is_refused_in_one_line_before_the_work(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    command: str,
    scenes: list[str],
) -> None:
    models = models_with_one_cut_short(tmp_path / "models", name)
    folder = tmp_path / "scenes"
    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    capsys.readouterr()
    argv = [command, *(arg.format(scenes=folder) for arg in scenes), "--models", str(models)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"blackcat {command}: a trained model can't be loaded (cut short or damaged): "
        f"{models / name}; export it again into its folder with `blackcat export --models DIR`, "
        "or leave --models out to use the bundled ones\n"
    )
    assert not folder.exists()  # no scene drawn: the work never began
