"""Whether a photo is too blurred to trust: how sharp the edges of its cards' indices are.

A blurred photo's indices still look like indices to the detector, but the classifier misreads
them (models/HISTORY.md, session 26: kitty piles out of focus by 0.2% of the photo's long side
read right 0.975 -> 0.750). The measure: each read card's first index, scaled to MEASURE_PIXELS
on its long side, its steepest grey gradients over its contrast; the median over the cards."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

import cv2
import numpy as np

from blackcat.vision.image_io import PhotoSource
from blackcat.vision.types import Box, PhotoRead

MEASURE_PIXELS = 32.0
"""Each index is measured at this length, so that a large photo and a small one compare."""

STEEPEST_PERCENTILE = 98.0
"""An index's sharpness: this percentile of its gradient magnitudes (its strokes' edges)..."""

MIN_CONTRAST = 30.0
"""...over its contrast (95th minus 5th percentile of grey, 0-255); an index of less contrast
than this (glare, a shadow) says little and is not measured."""

MIN_INDEX_PIXELS = 20.0
"""Only indices at least this long (their box's long side, in the photo's own pixels) are
measured: a smaller one is soft for want of pixels, however well focused (a whole table's far
piles in a 2 MP photo, 10-16 px, measured 1.9-2.5)."""

MIN_MEASURED = 3
"""A photo is judged only on at least this many measured indices."""

MOST_MEASURED = 15
"""At most this many cards are measured, spread over the read (a whole table has 60)."""


def index_sharpness(crop: np.ndarray) -> float | None:
    """The sharpness of one index's RGB crop (any size), or None where it has too little
    contrast or too few pixels to tell."""
    long_side = max(crop.shape[:2])
    if min(crop.shape[:2]) < 4 or long_side < 8:
        return None
    scale = MEASURE_PIXELS / long_side  # a turned index lies on its side
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    sized = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=interpolation)
    grey = cv2.cvtColor(sized, cv2.COLOR_RGB2GRAY).astype(np.float32)
    low, high = percentiles(grey, (5.0, 95.0))
    if high - low < MIN_CONTRAST:
        return None
    gradient = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    return float(percentiles(gradient, (STEEPEST_PERCENTILE,))[0] / (high - low))


def percentiles(values: np.ndarray, percents: Sequence[float]) -> np.ndarray:
    """`np.percentile(values, percents)` (its linear interpolation; equal to within float
    rounding), found by partial sorting (bytes by counting them): three to five times faster on
    an index's few hundred pixels or a classifier's 64 px view, where NumPy's general path costs
    more than the sort."""
    return row_percentiles(values.reshape(1, -1), percents)[0]


def row_percentiles(rows: np.ndarray, percents: Sequence[float]) -> np.ndarray:
    """`percentiles` of each row of a 2-D array at once: (rows, percents)."""
    size = rows.shape[1]
    positions = np.asarray(percents, dtype=np.float64) / 100.0 * (size - 1)
    below = np.floor(positions).astype(np.intp)
    above = np.minimum(below + 1, size - 1)
    ranks = np.concatenate((below, above))
    if rows.dtype == np.uint8:
        ordered = _ranked_bytes(rows, ranks)
    else:
        ordered = np.partition(rows, ranks, axis=1)[:, ranks]
    fraction = positions - below
    low, high = (part.astype(np.float64) for part in np.split(ordered, 2, axis=1))
    # As NumPy interpolates: from the nearer end, so that a whole position gives its value exactly.
    return np.where(
        fraction >= 0.5, high - (high - low) * (1 - fraction), low + (high - low) * fraction
    )


def _ranked_bytes(rows: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """The values of each row of bytes at these ranks of its sorted order (rows, ranks), by
    counting each row's values rather than sorting: a batch of views at once."""
    offsets = np.arange(len(rows), dtype=np.intp)[:, None] * 256
    counts = np.bincount((rows + offsets).ravel(), minlength=len(rows) * 256)
    below_or_at = counts.reshape(len(rows), 256).cumsum(axis=1)
    return np.stack([(below_or_at > rank).argmax(axis=1) for rank in ranks], axis=1)


def photo_sharpness(picture: np.ndarray, boxes: Sequence[Box], scale: float) -> float | None:
    """The median sharpness of the indices at `boxes` (full-resolution pixels) in `picture`, a
    copy of the photo `scale` times its size; None where fewer than MIN_MEASURED measure (each
    at least MIN_INDEX_PIXELS long, with contrast)."""
    measured = []
    for x1, y1, x2, y2 in boxes:
        if max(x2 - x1, y2 - y1) < MIN_INDEX_PIXELS:
            continue
        top, bottom = max(0, int(y1 * scale)), int(np.ceil(y2 * scale))
        left, right = max(0, int(x1 * scale)), int(np.ceil(x2 * scale))
        sharpness = index_sharpness(picture[top:bottom, left:right])
        if sharpness is not None:
            measured.append(sharpness)
    return median(measured) if len(measured) >= MIN_MEASURED else None


def top_index_boxes(read: PhotoRead) -> list[Box]:
    """Each read card's first index box: one per card, so that a card seen at four corners
    counts as much as a card seen at one; at most MOST_MEASURED of them, every n-th."""
    boxes = [card.indices[0].box for pile in read.piles for card in pile if card.indices]
    return boxes[:: -(-len(boxes) // MOST_MEASURED)] if boxes else boxes


def read_sharpness(photo: PhotoSource, read: PhotoRead) -> float | None:
    """`photo_sharpness` of the read cards' indices, on the coarsest copy of the photo decoded
    so far that shows them at least MEASURE_PIXELS tall (the reader's crops were cut from one)."""
    boxes = top_index_boxes(read)
    if len(boxes) < MIN_MEASURED:
        return None
    index_size = median(max(x2 - x1, y2 - y1) for x1, y1, x2, y2 in boxes)
    at_least = round(photo.long_side * min(1.0, MEASURE_PIXELS / max(index_size, 1.0)))
    picture = photo.picture(at_least, finer_decoded=True)
    return photo_sharpness(picture, boxes, max(picture.shape[:2]) / photo.long_side)
