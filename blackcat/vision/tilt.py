"""A photo whose cards all lie tilted (the phone held at an angle to the table, or the cards
laid so): the models read glyphs upright or a quarter turned, and find fewer indices and read
them less surely the more they stand tilted, so such a photo is read again turned back by its
cards' tilt (`CardReader.read`), and the better read kept.

The tilt is measured as `deskew` measures one card's, on the gradients round every index read
together: the cards' edges and glyph strokes run along the cards' axes.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from blackcat.vision.deskew import CONTEXT, direction_sums, tilt_of
from blackcat.vision.types import Box, PhotoRead
from blackcat.vision.unread_faces import read_index_boxes

TURNED_FROM = 12.0
"""A photo whose cards lie tilted by at least this (degrees, either way) is read again turned
back. rf100's real photos turned 15, 30 and 45 degrees (`workshop/real_faults.py`) read 0.982,
0.964 and 0.957 of their cards against 0.993 as taken (models/HISTORY.md, session 60)."""

MIN_PATCH = 8  # pixels: a smaller patch round an index tells no direction


def photo_tilt(picture: np.ndarray, read: PhotoRead) -> float | None:
    """The tilt of the read's cards in the photo (degrees within (-45, 45], anticlockwise as
    seen), measured on `picture` (the photo, RGB, at any size) round every index read; None
    where no card was read. Cards lying at many angles agree on no direction, and their tilt
    measured is anyone's: the read turned by it is judged against the photo's own."""
    boxes = read_index_boxes(read) * (picture.shape[1] / read.width)
    across, down, total = direction_sums_round(picture, boxes)
    return tilt_of(across, down) if total > 0 else None


def direction_sums_round(
    picture: np.ndarray, boxes: Sequence[Box] | np.ndarray
) -> tuple[float, float, float]:
    """`deskew.direction_sums` of the patches round the index boxes (in `picture`'s pixels)
    added up: across, down and their strength (patches too small to tell left out)."""
    across = down = total = 0.0
    for x1, y1, x2, y2 in boxes:
        centre_x, centre_y = (x1 + x2) / 2, (y1 + y2) / 2
        half = CONTEXT * max(x2 - x1, y2 - y1) / 2
        patch = picture[
            max(0, round(centre_y - half)) : max(0, round(centre_y + half)),
            max(0, round(centre_x - half)) : max(0, round(centre_x + half)),
        ]
        if min(patch.shape[:2]) < MIN_PATCH:
            continue
        x, y, strength = direction_sums(patch)
        across, down, total = across + x, down + y, total + strength
    return across, down, total


def turned_square(
    picture: np.ndarray, tilt: float, scale: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """The picture (the photo shrunk `scale` times, or as it is) turned by `tilt` degrees
    clockwise, so that cards tilted `tilt` anticlockwise stand square, on a canvas grown to hold
    all of it and filled with the photo's median colour (mostly its table); and the 2x3 matrix
    taking the photo's pixels to the turned picture's."""
    height, width = picture.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), -tilt, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    turned_width = round(height * sin + width * cos)
    turned_height = round(height * cos + width * sin)
    matrix[0, 2] += turned_width / 2 - width / 2
    matrix[1, 2] += turned_height / 2 - height / 2
    border = np.median(picture[::4, ::4].reshape(-1, picture.shape[2]), axis=0)
    turned = cv2.warpAffine(
        picture,
        matrix,
        (turned_width, turned_height),
        flags=cv2.INTER_LINEAR,
        borderValue=tuple(float(v) for v in border),
    )
    return turned, matrix @ np.diag([scale, scale, 1.0])


def from_turned_square(read: PhotoRead, matrix: np.ndarray, size: tuple[int, int]) -> PhotoRead:
    """A read of a picture `turned_square` (by `matrix`) with its boxes in the photo as it is, of
    `size`: each box's centre taken back, its size kept in the photo's pixels (a turned box's
    corners would span a larger box than the index shows)."""
    back = cv2.invertAffineTransform(matrix)
    scale = float(np.hypot(matrix[0, 0], matrix[0, 1]))  # the turned picture's pixels per photo's

    def box_back(box: Box) -> Box:
        x1, y1, x2, y2 = box
        x, y = back @ np.array([(x1 + x2) / 2, (y1 + y2) / 2, 1.0])
        half_width, half_height = (x2 - x1) / 2 / scale, (y2 - y1) / 2 / scale
        return (
            float(x - half_width),
            float(y - half_height),
            float(x + half_width),
            float(y + half_height),
        )

    return read.with_boxes(box_back, *size)
