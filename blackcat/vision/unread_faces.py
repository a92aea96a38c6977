"""Card faces the photo shows where no card was read: a far player's pile whose indices are
too small for the detector even to hint at (a whole table in a 2 MP or smaller photo) still
shows as white card faces on the table. The read says where (`PhotoRead.unread_places`), so
that no pile goes missing without a word.

A face is told from the table by its paper: as light as the faces round the indices read, and
as colourless, in one piece shaped like a card or a pile of them, with ink on it (pips and
indices: holes in the light paper) but not mostly ink (a card back's pattern inside its white
border).
"""

from __future__ import annotations

import cv2
import numpy as np

from blackcat.vision.types import Box, PhotoRead

FACE_LIGHT = 0.75
"""Paper at least this share as light as the read cards' faces (their 90th percentile of each
pixel's darkest channel, round the indices read)..."""
FACE_TINT = 0.25
"""...and whose channels differ by at most this share of that light (white paper, not a
yellow cloth)."""

FACE_AREA = (1.0, 80.0)
"""A face or pile of faces covers this many squared index heights (the median of the indices
read): a far card stands smaller than a near one, a pile of ten larger."""
FACE_FILL = 0.55
"""Its paper, holes filled, covers at least this share of its turned bounding rectangle..."""
FACE_INK = (0.01, 0.4)
"""...and holes of ink make up this share of it: a blank paper has none; a card back, its
pattern within a white border, 0.75-0.83 on the session 52 tables, card faces 0.02-0.17."""
CARD_REACH = 2.5
"""Paper within this many index heights of an index read is that card's own face: with both
corners read, every point of a card's face lies this near one of them (the card about 5.5
index heights tall and 4 wide). A court card's white margin, cut off by its picture's frame,
was taken for another card without it (rf100)."""


def unread_faces(picture: np.ndarray, read: PhotoRead) -> tuple[Box, ...]:
    """Places (photo pixels) where `picture` (the photo shrunk, RGB, its light as the models
    see it) shows card faces apart from every card `read` read: none where it read none, as
    the read cards tell how light and how large faces stand."""
    boxes = np.array(
        [index.box for pile in read.piles for card in pile for index in card.indices]
    ).reshape(-1, 4) * (picture.shape[1] / read.width)
    if not len(boxes):
        return ()
    height = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    darkest = picture.min(axis=2).astype(np.float32)
    light = _face_light(darkest, boxes)
    tint = picture.max(axis=2).astype(np.float32) - darkest
    paper = ((darkest >= FACE_LIGHT * light) & (tint <= FACE_TINT * light)).astype(np.uint8)
    paper = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
    # how far each pixel lies from the nearest index read
    indices = np.ones_like(paper)
    for x1, y1, x2, y2 in boxes.round().astype(int):
        indices[max(0, y1) : y2 + 1, max(0, x1) : x2 + 1] = 0
    apart = cv2.distanceTransform(indices, cv2.DIST_L2, 3)
    to_photo = read.width / picture.shape[1]
    places = []
    for label in range(1, count):
        x, y, width, tall, area = (int(v) for v in stats[label])
        if not FACE_AREA[0] * height**2 <= area <= FACE_AREA[1] * height**2:
            continue
        if x == 0 or y == 0 or x + width >= paper.shape[1] or y + tall >= paper.shape[0]:
            continue  # it runs on beyond the photo: a table's edge, a sheet of paper
        part = (labels[y : y + tall, x : x + width] == label).astype(np.uint8)
        nearest = float(apart[y : y + tall, x : x + width][part > 0].min())
        if nearest > CARD_REACH * height and _card_shaped(part, area):
            places.append(
                (x * to_photo, y * to_photo, (x + width) * to_photo, (y + tall) * to_photo)
            )
    return tuple(places)


def _face_light(darkest: np.ndarray, boxes: np.ndarray) -> float:
    """How light the read cards' faces stand: the median over the indices read of the 90th
    percentile of the darkest channel round each (one index height about it)."""
    levels = []
    for x1, y1, x2, y2 in boxes:
        margin = max(x2 - x1, y2 - y1)
        around = darkest[
            int(max(0.0, y1 - margin)) : int(y2 + margin),
            int(max(0.0, x1 - margin)) : int(x2 + margin),
        ]
        if around.size:
            levels.append(float(np.percentile(around, 90)))
    return float(np.median(levels)) if levels else 255.0


def _card_shaped(part: np.ndarray, area: int) -> bool:
    """Whether one piece of paper (a mask of its bounding box) fills its turned rectangle as a
    card or a pile does (FACE_FILL), with ink on it but not mostly ink (FACE_INK)."""
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    filled = np.zeros_like(part)
    cv2.drawContours(filled, [outline], -1, 1, thickness=-1)
    whole = int(filled.sum())
    _, (side, other), _ = cv2.minAreaRect(outline)
    ink = (whole - area) / max(whole, 1)
    return whole >= FACE_FILL * side * other and FACE_INK[0] <= ink <= FACE_INK[1]
