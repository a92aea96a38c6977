"""`blackcat evaluate --failures` and `blackcat calibrate` whose output can't be written once the
work is done (a folder where nothing can be made, as /proc; a full disk): one line naming the
file, and the exit status of a command that failed partway (1), not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from blackcat.cli import main
from blackcat.cli.calibrate import compare_and_write
from blackcat.vision.calibration import CALIBRATION_FILE, UNCALIBRATED
from blackcat.workshop.ultralytics_setup import prepare_ultralytics

NOWHERE = Path("/proc")  # a folder, but no file can be made in it, even by root


def test_failures_that_cant_be_written_are_one_line_after_the_measures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "images").mkdir()
    Image.new("RGB", (200, 150), "white").save(tmp_path / "images" / "blank.png")
    (tmp_path / "labels.json").write_text('{"blank.png": [{"card": "QS", "box": [0, 0, 9, 9]}]}')
    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    capsys.readouterr()
    failures = NOWHERE / "failures.txt"
    assert main(["evaluate", "--real", str(tmp_path), "--failures", str(failures)]) == 1
    out, err = capsys.readouterr()
    assert "1 photos" in out  # the measures are printed all the same
    assert err.startswith(f"blackcat evaluate: could not write the failures to {failures} (")
    assert err.endswith("give --failures a file in a folder you can write to\n")
    assert err.count("\n") == 1


def test_a_fit_that_cant_be_written_is_one_line_and_fails_partway(
    capsys: pytest.CaptureFixture[str],
) -> None:
    probabilities, rights = [0.9, 0.8, 0.3], [True, True, False]
    status = compare_and_write(
        UNCALIBRATED, {"fitted": probabilities}, rights, NOWHERE, "cards", "it is"
    )
    assert status == 1
    out, err = capsys.readouterr()
    assert "fitted, doubtful below" in out  # what was fitted is printed all the same
    assert err.startswith(f"blackcat calibrate: could not write {NOWHERE / CALIBRATION_FILE} (")
    assert err.endswith("give --models a folder you can write to, with the models in it\n")
    assert err.count("\n") == 1
