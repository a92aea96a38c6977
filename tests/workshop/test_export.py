"""`blackcat export`: the trained weights as the ONNX files the runtime reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from blackcat.cli import main
from blackcat.vision.onnx_models import OnnxClassifier, OnnxDetector
from blackcat.vision.reader import (
    CLASSIFIER_WEIGHTS,
    DETECTOR_WEIGHTS,
    MODELS_DIR,
    SUIT_CLASSIFIER_FILE,
    SUIT_CLASSIFIER_WEIGHTS,
    TABLE_CLASSIFIER_FILE,
    TABLE_CLASSIFIER_WEIGHTS,
)


def test_export_writes_both_models_with_their_classes_and_size(tmp_path: Path) -> None:
    for name in (DETECTOR_WEIGHTS, CLASSIFIER_WEIGHTS):
        shutil.copyfile(MODELS_DIR / name, tmp_path / name)
    assert main(["export", "--models", str(tmp_path)]) == 0
    detector = OnnxDetector(tmp_path / "index_detector.onnx")
    classifier = OnnxClassifier(tmp_path / "card_classifier.onnx")
    bundled = OnnxClassifier(MODELS_DIR / "card_classifier.onnx")
    assert classifier.names == bundled.names
    assert detector.trained_size == OnnxDetector(MODELS_DIR / "index_detector.onnx").trained_size


def test_export_without_weights_says_how_to_make_them(tmp_path: Path, capsys) -> None:
    assert main(["export", "--models", str(tmp_path)]) == 2
    said = capsys.readouterr()
    assert "blackcat train" in said.err and said.out == ""
    assert f"copy trained weights into {tmp_path} " in said.err


def test_export_writes_the_table_detector_where_there_is_one(tmp_path: Path) -> None:
    from blackcat.vision.reader import TABLE_DETECTOR_FILE, TABLE_DETECTOR_WEIGHTS

    for name in (DETECTOR_WEIGHTS, CLASSIFIER_WEIGHTS):
        shutil.copyfile(MODELS_DIR / name, tmp_path / name)
    shutil.copyfile(MODELS_DIR / DETECTOR_WEIGHTS, tmp_path / TABLE_DETECTOR_WEIGHTS)
    assert main(["export", "--models", str(tmp_path)]) == 0
    assert OnnxDetector(tmp_path / TABLE_DETECTOR_FILE).trained_size > 0


@pytest.mark.parametrize(
    ("weights", "exported"),
    [
        (SUIT_CLASSIFIER_WEIGHTS, SUIT_CLASSIFIER_FILE),
        (TABLE_CLASSIFIER_WEIGHTS, TABLE_CLASSIFIER_FILE),
    ],
)
def test_export_writes_the_suit_and_table_classifiers_where_there_are_ones(
    tmp_path: Path, weights: str, exported: str
) -> None:
    for name in (DETECTOR_WEIGHTS, CLASSIFIER_WEIGHTS):
        shutil.copyfile(MODELS_DIR / name, tmp_path / name)
    shutil.copyfile(MODELS_DIR / CLASSIFIER_WEIGHTS, tmp_path / weights)
    assert main(["export", "--models", str(tmp_path)]) == 0
    assert len(OnnxClassifier(tmp_path / exported).names) > 0


def test_an_export_cut_off_midway_leaves_the_previous_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ultralytics import YOLO

    from blackcat.workshop.export import export_one

    weights = tmp_path / CLASSIFIER_WEIGHTS
    shutil.copyfile(MODELS_DIR / CLASSIFIER_WEIGHTS, weights)
    onnx = weights.with_suffix(".onnx")
    onnx.write_bytes(b"the previous model")

    def interrupted(model: YOLO, **_: object) -> str:
        Path(model.ckpt_path).with_suffix(".onnx").write_bytes(b"half a mod")
        raise KeyboardInterrupt

    monkeypatch.setattr(YOLO, "export", interrupted)
    with pytest.raises(KeyboardInterrupt):
        export_one(weights, task="classify")
    assert onnx.read_bytes() == b"the previous model"
    assert sorted(file.name for file in tmp_path.iterdir()) == sorted([weights.name, onnx.name])
