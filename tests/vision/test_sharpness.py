"""How sharp a photo's indices stand: the measure on drawn glyphs, and on the example photo."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from blackcat.games.cards import Card
from blackcat.vision.image_io import Photo, load_image
from blackcat.vision.reader import CardReader
from blackcat.vision.sharpness import (
    MIN_MEASURED,
    MOST_MEASURED,
    index_sharpness,
    percentiles,
    photo_sharpness,
    read_sharpness,
    row_percentiles,
    top_index_boxes,
)
from blackcat.vision.types import BLURRED_BELOW, IndexRead, PhotoRead, ReadCard

EXAMPLE = Path(__file__).parents[2] / "app" / "example.jpg"


def glyph(height: int = 64, blur: float = 0.0) -> np.ndarray:
    """A printed index: a rank and a suit mark in black on white, `blur` (in pixels) out of
    focus."""
    crop = np.full((height, height // 2, 3), 255, np.uint8)
    scale = height / 64
    cv2.putText(crop, "7", (2, int(28 * scale)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 2)
    cv2.circle(crop, (height // 4, int(height * 0.7)), max(2, height // 10), (0, 0, 0), -1)
    return cv2.GaussianBlur(crop, (0, 0), blur) if blur else crop


def test_a_sharp_index_measures_sharp_and_a_blurred_one_does_not() -> None:
    sharp = index_sharpness(glyph())
    blurred = index_sharpness(glyph(blur=6.0))
    assert sharp is not None and blurred is not None
    assert sharp > BLURRED_BELOW > blurred


def test_the_measure_does_not_depend_on_how_many_pixels_the_index_has() -> None:
    small, large = index_sharpness(glyph(32)), index_sharpness(glyph(128))
    assert small is not None and large is not None
    assert large == pytest.approx(small, rel=0.35)


def test_a_flat_or_tiny_crop_is_not_measured() -> None:
    assert index_sharpness(np.full((40, 20, 3), 128, np.uint8)) is None
    assert index_sharpness(glyph()[:3]) is None


def test_a_photo_is_judged_on_enough_indices_at_its_own_scale() -> None:
    picture = np.full((400, 400, 3), 255, np.uint8)
    boxes = []
    for n in range(MIN_MEASURED):
        picture[40 : 40 + 64, 40 + 100 * n : 72 + 100 * n] = glyph(blur=4.0)
        boxes.append((80.0 + 200 * n, 80.0, 144.0 + 200 * n, 208.0))  # a photo twice the size
    assert photo_sharpness(picture, boxes[:-1], 0.5) is None
    measured = photo_sharpness(picture, boxes, 0.5)
    assert measured == pytest.approx(index_sharpness(glyph(blur=4.0)))


def test_the_read_marks_a_blurred_photo_and_not_a_sharp_one() -> None:
    reader = CardReader.load()
    sharp = load_image(EXAMPLE)
    read = reader.read(sharp)
    assert read.sharpness is not None and not read.blurred
    blurred = cv2.GaussianBlur(sharp, (0, 0), 0.004 * max(sharp.shape[:2]))
    again = reader.read(blurred)
    assert again.blurred
    assert read_sharpness(Photo.from_array(blurred), again) == again.sharpness


def test_indices_too_small_to_show_their_edges_are_not_measured() -> None:
    picture = np.full((100, 400, 3), 255, np.uint8)
    boxes = []
    for n in range(MIN_MEASURED):
        picture[10:26, 10 + 40 * n : 18 + 40 * n] = glyph(16)  # a far pile's 16 px indices
        boxes.append((10.0 + 40 * n, 10.0, 18.0 + 40 * n, 26.0))
    assert photo_sharpness(picture, boxes, 1.0) is None


def test_a_whole_table_is_judged_on_at_most_fifteen_cards_spread_over_it() -> None:
    card = ReadCard(
        Card.parse("QS"), (0.0, 0.0, 10.0, 20.0), 0.9, (), (IndexRead((0, 0, 10, 20), 1.0, ()),)
    )
    piles = tuple(
        tuple(
            replace(card, indices=(IndexRead((n, p, n + 10, p + 20), 1.0, ()),)) for n in range(15)
        )
        for p in range(4)
    )
    boxes = top_index_boxes(PhotoRead(width=100, height=100, piles=piles))
    assert len(boxes) == MOST_MEASURED
    assert {box[1] for box in boxes} == {0, 1, 2, 3}  # from every pile


def test_a_read_of_too_few_cards_is_not_judged() -> None:
    photo = Photo.from_array(np.full((100, 100, 3), 255, np.uint8))
    assert read_sharpness(photo, PhotoRead(width=100, height=100, piles=())) is None
    assert not PhotoRead(width=100, height=100, piles=()).blurred


@settings(max_examples=200, deadline=None)
@given(
    values=arrays(
        np.float32,
        array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=40),
        elements=st.floats(0, 400, width=32),
    ),
    percents=st.lists(st.floats(0, 100), min_size=1, max_size=3),
)
def test_percentiles_are_numpys(values: np.ndarray, percents: list[float]) -> None:
    expected = np.percentile(values, percents)
    assert np.allclose(percentiles(values, percents), expected, rtol=1e-6, atol=0)


@settings(max_examples=200, deadline=None)
@given(
    rows=arrays(np.uint8, array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=30)),
    percents=st.lists(st.floats(0, 100), min_size=1, max_size=3),
)
def test_each_byte_rows_percentiles_are_its_own(rows: np.ndarray, percents: list[float]) -> None:
    together = row_percentiles(rows, percents)
    assert together.shape == (len(rows), len(percents))
    for row, own in zip(rows, together, strict=True):
        assert np.array_equal(own, percentiles(row.astype(np.float32), percents))
        assert np.allclose(own, np.percentile(row, percents), rtol=1e-9, atol=1e-9)
