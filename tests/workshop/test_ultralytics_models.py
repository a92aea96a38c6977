"""The runtime's ONNX models and Ultralytics' own, on the same photos: the same boxes (within a
pixel) and the same cards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from blackcat.vision.image_io import load_image
from blackcat.vision.reader import CardReader, ModelsMissingError
from blackcat.workshop.ultralytics_models import load_ultralytics_reader

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = [
    *sorted((ROOT / "tests" / "vision" / "data").glob("scene_*.jpg")),
    ROOT / "app/example.jpg",
]


@pytest.fixture(scope="module")
def readers() -> tuple[CardReader, CardReader]:
    return CardReader.load(), load_ultralytics_reader()


@pytest.mark.parametrize("path", PHOTOS, ids=lambda path: path.stem)
def test_both_back_ends_find_the_same_boxes_and_cards(
    readers: tuple[CardReader, CardReader], path: Path
) -> None:
    onnx, ultralytics = readers
    image = load_image(path)
    onnx_boxes, onnx_confidences, _ = onnx.detect(image)
    reference_boxes, reference_confidences, _ = ultralytics.detect(image)
    assert len(onnx_boxes) == len(reference_boxes) > 0
    assert np.abs(np.array(onnx_boxes) - np.array(reference_boxes)).max() <= 1.0
    assert onnx_confidences == pytest.approx(reference_confidences, abs=1e-3)
    codes = [[[c.card.code for c in pile] for pile in r.read(image).piles] for r in readers]
    assert codes[0] == codes[1]


def test_missing_weights_say_how_to_get_them_back(tmp_path: Path) -> None:
    with pytest.raises(ModelsMissingError) as missing:
        load_ultralytics_reader(tmp_path)
    said = str(missing.value)
    assert said.startswith(f"trained weights not found: {tmp_path}")
    assert "blackcat train ... --install" in said and "blackcat export" not in said  # needs them
