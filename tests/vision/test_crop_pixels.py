"""A crop's pixels cleaned for the classifier: grainy views smoothed, faint ones on white paper
stretched, and the classifier's input built from them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from blackcat.vision.crop_pixels import (
    BLANK_CONTRAST,
    CALMING_BLUR,
    CLIPPED_PAPER,
    FAINT_CONTRAST,
    GRAIN_LIMIT,
    calmed,
    cleaned,
    cleaned_views,
    grain,
    stretched,
)
from blackcat.vision.onnx_models import classifier_inputs
from blackcat.vision.sharpness import percentiles


def _index_view(noise: float, seed: int = 0) -> np.ndarray:
    """A 64 px view of a dark stroke on white paper, with Gaussian noise of `noise` grey levels."""
    view = np.full((64, 64, 3), 235.0)
    view[12:52, 28:36] = 30.0
    view += np.random.default_rng(seed).normal(0.0, noise, (64, 64, 1))
    return np.clip(view, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("noise", [3.0, 6.0, 12.0])
def test_grain_measures_the_noise_and_not_the_glyphs_edges(noise: float) -> None:
    assert grain(_index_view(0.0)) == pytest.approx(0.0)
    assert grain(_index_view(noise)) == pytest.approx(noise, rel=0.2)


def test_a_grainy_crop_is_smoothed_for_the_classifier_and_a_clean_one_left_as_it_is() -> None:
    clean, grainy = _index_view(1.0), _index_view(2 * GRAIN_LIMIT + 2)
    assert grain(clean) <= GRAIN_LIMIT < grain(grainy)
    assert calmed(clean) is clean
    assert grain(calmed(grainy)) < grain(grainy) / 2
    assert classifier_inputs([grainy], (64, 64))[0] == pytest.approx(
        calmed(grainy).astype(np.float32).transpose(2, 0, 1) / 255.0
    )
    assert classifier_inputs([clean], (64, 64))[0] == pytest.approx(
        clean.astype(np.float32).transpose(2, 0, 1) / 255.0
    )


def test_a_blown_out_pale_red_index_is_stretched_back_to_red_on_white() -> None:
    pale = np.full((64, 64, 3), 255, np.uint8)
    pale[16:48, 24:40] = (255, 170, 175)  # red ink lifted towards the clipped paper
    red = stretched(pale)
    assert red[0, 0].tolist() == [255, 255, 255]
    assert red[32, 32, 0] == 255 and red[32, 32, 1:].max() < 40
    assert classifier_inputs([pale], (64, 64))[0] == pytest.approx(
        cleaned(pale).astype(np.float32).transpose(2, 0, 1) / 255.0
    )


def test_a_crop_of_full_contrast_grey_paper_or_blank_paper_is_not_stretched() -> None:
    index = _index_view(0.0)  # dark ink on white: contrast enough
    grey_paper = np.full((64, 64, 3), 200, np.uint8)
    grey_paper[16:48, 24:40] = 150  # faint print on paper that isn't white: text, pips
    blank = np.full((64, 64, 3), 255, np.uint8)
    blank[::2, ::2] = 251
    for view in (index, grey_paper, blank):
        assert stretched(view) is view


def test_a_crop_too_small_to_measure_has_no_grain() -> None:
    assert grain(np.zeros((2, 40, 3), np.uint8)) == 0.0


@pytest.mark.parametrize("seed", range(5))
def test_the_views_percentiles_are_numpys(seed: int) -> None:
    grey = np.random.default_rng(seed).integers(0, 256, (64, 64 - seed), dtype=np.uint8)
    assert percentiles(grey, (2, 98)) == pytest.approx(np.percentile(grey, (2, 98)))


def _mixed_views() -> np.ndarray:
    """Views of every kind `cleaned` tells apart: clean, grainy, faint on white paper, blank."""
    pale = np.full((64, 64, 3), 255, np.uint8)
    pale[16:48, 24:40] = (255, 170, 175)
    blank = np.full((64, 64, 3), 255, np.uint8)
    noisy_paper = np.random.default_rng(7).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    views = [_index_view(1.0), _index_view(2 * GRAIN_LIMIT + 2, seed=3), pale, blank, noisy_paper]
    return np.stack(views + [_index_view(noise, seed) for seed, noise in enumerate((0, 2, 5, 9))])


def test_views_cleaned_together_are_each_as_cleaned_alone_and_the_batch_is_left_as_it_was() -> None:
    views = _mixed_views()
    before = views.copy()
    together = cleaned_views(views)
    assert np.array_equal(views, before)
    for view, done in zip(views, together, strict=True):
        assert np.array_equal(done, cleaned(view))
        assert np.array_equal(done, calmed(stretched(view)))
    assert not np.array_equal(together, views)  # some were stretched or smoothed


def test_crops_of_any_size_made_inputs_together_are_each_as_made_alone() -> None:
    rng = np.random.default_rng(11)
    crops = [view[: 20 + 9 * n, : 64 - 5 * n] for n, view in enumerate(_mixed_views())]
    crops.append(rng.integers(0, 256, (130, 90, 3), dtype=np.uint8))
    together = classifier_inputs(crops, (64, 64))
    assert together.shape == (len(crops), 3, 64, 64) and together.flags["C_CONTIGUOUS"]
    for crop, tensor in zip(crops, together, strict=True):
        assert np.array_equal(tensor, classifier_inputs([crop], (64, 64))[0])


def _cleaned_by_the_rules(view: np.ndarray) -> np.ndarray:
    """`cleaned` written out from its rules, one view, with NumPy's percentiles and OpenCV's
    filter on the view alone: the oracle the batch must match."""
    grey = cv2.cvtColor(view, cv2.COLOR_RGB2GRAY)
    low, high = np.percentile(grey, (2, 98))
    if high >= CLIPPED_PAPER and BLANK_CONTRAST <= high - low < FAINT_CONTRAST:
        spread = (view.astype(np.float32) - float(low)) * (255.0 / float(high - low))
        view = np.clip(spread, 0, 255).astype(np.uint8)
        grey = cv2.cvtColor(view, cv2.COLOR_RGB2GRAY)
    mask = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
    response = np.abs(cv2.filter2D(grey.astype(np.float32), -1, mask)[1:-1, 1:-1])
    if np.median(response) / (0.6745 * 6.0) > GRAIN_LIMIT:
        return cv2.GaussianBlur(view, (0, 0), CALMING_BLUR)
    return view


def test_views_cleaned_together_follow_the_rules_view_by_view() -> None:
    views = _mixed_views()
    for view, done in zip(views, cleaned_views(views), strict=True):
        assert np.array_equal(done, _cleaned_by_the_rules(view))
