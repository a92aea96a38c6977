"""`blackcat export` given weights it can't load (the exports themselves:
tests/workshop/test_export.py)."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from blackcat.cli import main
from blackcat.vision.reader import CLASSIFIER_WEIGHTS, DETECTOR_WEIGHTS, MODELS_DIR


def test_damaged_weights_are_one_line_naming_the_file_and_leave_no_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ultralytics' log handler may hold an earlier test's captured stream, closed since: logging
    # would print its own "Logging error" traceback, which is the suite's, not the command's
    monkeypatch.setattr(logging, "raiseExceptions", False)
    shutil.copyfile(MODELS_DIR / DETECTOR_WEIGHTS, tmp_path / DETECTOR_WEIGHTS)
    (tmp_path / CLASSIFIER_WEIGHTS).write_bytes(b"cut short")
    capsys.readouterr()
    assert main(["export", "--models", str(tmp_path)]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.splitlines()[-1].startswith(
        f"blackcat export: {tmp_path / CLASSIFIER_WEIGHTS}: these weights can't be loaded "
        f"(empty, cut short or damaged); copy trained weights into {tmp_path} "
    )
    assert "Traceback" not in said.err
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        [DETECTOR_WEIGHTS, "index_detector.onnx", CLASSIFIER_WEIGHTS]
    )
