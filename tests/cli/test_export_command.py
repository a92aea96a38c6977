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


def test_an_export_that_cant_be_put_in_place_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(logging, "raiseExceptions", False)  # as above
    shutil.copyfile(MODELS_DIR / DETECTOR_WEIGHTS, tmp_path / DETECTOR_WEIGHTS)
    shutil.copyfile(MODELS_DIR / CLASSIFIER_WEIGHTS, tmp_path / CLASSIFIER_WEIGHTS)
    in_the_way = tmp_path / "index_detector.onnx"
    (in_the_way / "kept").mkdir(parents=True)  # a folder where the exported model goes
    capsys.readouterr()
    assert main(["export", "--models", str(tmp_path)]) == 1  # failed partway
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.splitlines()[-1] == (
        f"blackcat export: could not write {in_the_way} (Is a directory): it is not exported, "
        "nor any model after it; clear the way (a folder of that name, a full disk) and export "
        "again"
    )
    assert "Traceback" not in said.err
    assert (in_the_way / "kept").is_dir()
    assert not (tmp_path / "card_classifier.onnx").exists()
