"""The runtime's own pre- and post-processing around the ONNX models."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from blackcat.vision.onnx_models import (
    PAD_VALUE,
    SPINNING_SETTING,
    Letterbox,
    OnnxClassifier,
    OnnxDetector,
    classifier_inputs,
    decode_detections,
    letterbox,
    model_info,
    non_max_suppression,
    sized_for_classifier,
)
from blackcat.vision.reader import CLASSIFIER_FILE, DETECTOR_FILE, MODELS_DIR


def test_the_exporters_metadata_gives_names_size_and_stride() -> None:
    info = model_info(
        {"names": "{0: 'AS-0', 1: 'none'}", "imgsz": "[64, 64]", "stride": "1", "task": "classify"}
    )
    assert info.names == ("AS-0", "none") and info.imgsz == (64, 64) and info.stride == 1


def test_the_letterbox_keeps_the_long_side_and_pads_the_short_to_the_stride() -> None:
    picture = np.zeros((300, 512, 3), dtype=np.uint8)
    padded, box = letterbox(picture, 512, 32)
    assert padded.shape == (320, 512, 3)  # 300 -> the next multiple of 32, centred
    assert box == Letterbox(scale=1.0, pad_left=0, pad_top=10)
    assert (padded[:10] == PAD_VALUE).all() and (padded[310:] == PAD_VALUE).all()
    assert (padded[10:310] == 0).all()


def test_a_size_off_the_stride_is_rounded_up_to_it() -> None:
    padded, box = letterbox(np.zeros((100, 271, 3), dtype=np.uint8), 271, 32)
    assert padded.shape == (128, 288, 3) and box.scale == pytest.approx(288 / 271)


def test_a_small_picture_is_scaled_up_to_the_detection_size() -> None:
    padded, box = letterbox(np.zeros((100, 200, 3), dtype=np.uint8), 512, 32)
    assert padded.shape == (256, 512, 3) and box.scale == pytest.approx(2.56)


def test_suppression_keeps_the_best_of_overlapping_boxes_and_apart_ones() -> None:
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60]], dtype=np.float32)
    scores = np.array([0.6, 0.9, 0.5], dtype=np.float32)
    assert non_max_suppression(boxes, scores, 0.5).tolist() == [1, 2]
    assert non_max_suppression(boxes, scores, 0.9).tolist() == [1, 0, 2]


def test_detections_come_back_in_the_pictures_pixels() -> None:
    output = np.zeros((5, 3), dtype=np.float32)
    output[:, 0] = (100, 60, 20, 40, 0.9)  # centre x, centre y, width, height, score
    output[:, 1] = (101, 61, 20, 40, 0.5)  # the same index found twice
    output[:, 2] = (300, 60, 20, 40, 0.1)  # under the threshold
    boxes, scores = decode_detections(output, Letterbox(2.0, 0, 10), (200, 400), 0.25)
    assert scores.tolist() == pytest.approx([0.9])
    assert boxes.tolist() == [pytest.approx([45, 15, 55, 35])]  # (x - 0) / 2, (y - 10) / 2


def test_a_crop_becomes_the_classifiers_square_input_in_0_1() -> None:
    crop = np.full((30, 30, 3), 255, dtype=np.uint8)
    tensor = classifier_inputs([crop], (64, 64))[0]
    assert tensor.shape == (3, 64, 64) and tensor.dtype == np.float32
    assert tensor.max() == pytest.approx(1.0)


def test_the_bundled_models_load_with_their_classes() -> None:
    detector = OnnxDetector(MODELS_DIR / DETECTOR_FILE)
    classifier = OnnxClassifier(MODELS_DIR / CLASSIFIER_FILE)
    assert detector.trained_size >= 320
    assert len(classifier.names) == 209 and "none" in classifier.names
    probabilities = classifier.probabilities([np.zeros((40, 40, 3), dtype=np.uint8)] * 2)
    assert probabilities.shape == (2, 209)
    assert probabilities.sum(axis=1) == pytest.approx([1.0, 1.0], abs=1e-4)
    assert classifier.probabilities([]).shape == (0, 209)


def test_the_sessions_threads_sleep_rather_than_spin_between_runs() -> None:
    # spinning threads took the cores the app's server and browser need (measured, onnx_models)
    for model in (
        OnnxDetector(MODELS_DIR / DETECTOR_FILE),
        OnnxClassifier(MODELS_DIR / CLASSIFIER_FILE),
    ):
        options = model.session.get_session_options()
        assert options.get_session_config_entry(SPINNING_SETTING) == "0"


def test_a_small_crop_is_enlarged_bicubically_as_training_drew_small_crops() -> None:
    # a thin dark stroke: bicubic enlarging keeps it darker and sharper than bilinear
    crop = np.full((16, 16, 3), 255, dtype=np.uint8)
    crop[:, 7:9] = 0
    enlarged = sized_for_classifier(crop, (64, 64))
    assert enlarged.shape == (64, 64, 3)
    bilinear = np.asarray(Image.fromarray(crop).resize((64, 64), Image.Resampling.BILINEAR))
    steepest = [
        int(np.abs(np.diff(row[32, :, 0].astype(int))).max()) for row in (enlarged, bilinear)
    ]
    assert steepest[0] > steepest[1]
    large = np.zeros((100, 80, 3), dtype=np.uint8)
    assert sized_for_classifier(large, (64, 64)).shape == (80, 64, 3)


def test_a_lazy_detector_asked_for_by_several_searches_at_once_loads_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading
    import time

    from blackcat.vision import onnx_models

    loads: list[Path] = []

    def slow_load(path: Path, threads: int | None = None) -> object:
        loads.append(path)
        time.sleep(0.05)  # long enough for the other searches to ask meanwhile
        return object()

    monkeypatch.setattr(onnx_models, "OnnxDetector", slow_load)
    lazy = onnx_models.LazyOnnxDetector(Path("table_detector.onnx"), threads=1)
    got: list[object] = []
    searches = [threading.Thread(target=lambda: got.append(lazy.loaded)) for _ in range(4)]
    for search in searches:
        search.start()
    for search in searches:
        search.join()
    assert len(loads) == 1 and len({id(model) for model in got}) == 1
