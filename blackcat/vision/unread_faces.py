"""Card faces the photo shows where no card was read: a far player's pile whose indices are
too small for the detector even to hint at (a whole table in a 2 MP or smaller photo) still
shows as white card faces on the table. The read says where (`PhotoRead.unread_places`), so
that no pile goes missing without a word.

A face is told from the table by its paper: nearly as light in every channel as the faces round
the indices read, in one piece shaped like a card or a pile of them, with ink on it (pips and
indices: holes in the light paper) but not mostly ink (a card back's pattern inside its white
border).
"""

from __future__ import annotations

import cv2
import numpy as np

from blackcat.vision.types import Box, PhotoRead

FACE_LIGHT = 0.75
"""Paper is at least this share as light as the read cards' faces in each channel (their 90th
percentile round the indices read): white under the photo's light, whatever its cast; a
yellow cloth is too dark in blue."""

FACES_OVER_TABLE = 1.2
"""Faces are told from the table only where the read cards' faces stand at least this many
times as light, in their darkest channel, as the table (the photo's median colour) in its
lightest: not a dark-faced deck's (whose "faces" round its indices are mostly the table), nor
light cards on a white table."""

FACE_PAPER = 0.2
"""Faces are told only where at least this share round the indices read is paper: a light
deck's 0.30-0.49 for most photos (the 5th percentile of the session 52 tables, rf100 and kitty
scenes), a dark-faced deck's 0.12-0.14, whose lightest pixels there are its ink and the table
(rf100 made a dark-faced deck's, on a patterned cloth: the cloth's light patches were places)."""

INDEX_PIXELS = 24.0
"""The faces are looked for in a picture where the indices read stand at most this tall."""

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
    """Places (photo pixels) where `picture` (the photo, RGB, shrunk or not) shows card faces
    apart from every card `read` read: none where it read none, as the read cards tell how
    light and how large faces stand."""
    boxes = read_index_boxes(read) * (picture.shape[1] / read.width)
    if not len(boxes):
        return ()
    height = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    if height > INDEX_PIXELS:  # large cards: told as well, and sooner, on a smaller picture
        size = tuple(max(1, round(side * INDEX_PIXELS / height)) for side in picture.shape[1::-1])
        scale = size[0] / picture.shape[1]
        boxes, height = boxes * scale, height * scale
        picture = cv2.resize(picture, size, interpolation=cv2.INTER_LINEAR)
    around = _grown(boxes, picture.shape)
    face = _face_colour(picture, around)
    table = np.median(picture[::4, ::4].reshape(-1, 3), axis=0)  # most of a photo is table
    if face.min() < FACES_OVER_TABLE * table.max():
        return ()  # faces no lighter than the table: a dark-faced deck, a white table
    paper = cv2.inRange(picture, FACE_LIGHT * face, np.full(3, 255.0))
    if np.count_nonzero(paper[around]) < FACE_PAPER * np.count_nonzero(around):
        return ()  # the light round the indices read is their ink: a dark-faced deck
    paper = cv2.morphologyEx(paper // 255, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
    left, top, width, tall, area = stats[1:].T
    sized = (area >= FACE_AREA[0] * height**2) & (area <= FACE_AREA[1] * height**2)
    # a piece running on beyond the photo is a table's edge or a sheet of paper
    inside = (
        (left > 0) & (top > 0) & (left + width < paper.shape[1]) & (top + tall < paper.shape[0])
    )
    near = _within(boxes, CARD_REACH * height, paper.shape)
    to_photo = read.width / picture.shape[1]
    places = []
    for label in np.flatnonzero(sized & inside) + 1:
        x, y, wide, high, size = (int(v) for v in stats[label])
        part = labels[y : y + high, x : x + wide] == label
        if not near[y : y + high, x : x + wide][part].any() and _card_shaped(part, size):
            places.append(
                (x * to_photo, y * to_photo, (x + wide) * to_photo, (y + high) * to_photo)
            )
    return tuple(places)


def read_index_boxes(read: PhotoRead) -> np.ndarray:
    """Every index box of the read's cards (photo pixels), N x 4."""
    boxes = [index.box for pile in read.piles for card in pile for index in card.indices]
    return np.array(boxes, dtype=np.float64).reshape(-1, 4)


def _face_colour(picture: np.ndarray, around: np.ndarray) -> np.ndarray:
    """The colour of the read cards' faces under the photo's light: each channel's 90th
    percentile `around` the indices read (a mask: one index height about each)."""
    mask = around.astype(np.uint8)
    colour = []
    for channel in range(3):
        counts = cv2.calcHist([picture], [channel], mask, [256], [0, 256]).ravel()
        colour.append(float(np.searchsorted(np.cumsum(counts), 0.9 * counts.sum())))
    return np.array(colour)


def _grown(boxes: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Where the boxes lie, each grown by its longer side on every side, as a boolean mask of
    a picture of `shape`."""
    mask = np.zeros(shape[:2], bool)
    for x1, y1, x2, y2 in boxes:
        margin = max(x2 - x1, y2 - y1)
        mask[
            int(max(0.0, y1 - margin)) : int(y2 + margin) + 1,
            int(max(0.0, x1 - margin)) : int(x2 + margin) + 1,
        ] = True
    return mask


def _within(boxes: np.ndarray, reach: float, shape: tuple[int, ...]) -> np.ndarray:
    """Where a picture of `shape` lies within `reach` pixels of a box, as a boolean mask: each
    box grown across, grown down, and a disc round each corner."""
    mask = np.zeros(shape[:2], np.uint8)
    radius = round(reach)
    for x1, y1, x2, y2 in boxes.round().astype(int):
        cv2.rectangle(mask, (x1 - radius, y1), (x2 + radius, y2), 1, thickness=-1)
        cv2.rectangle(mask, (x1, y1 - radius), (x2, y2 + radius), 1, thickness=-1)
        for corner in ((x1, y1), (x2, y1), (x1, y2), (x2, y2)):
            cv2.circle(mask, corner, radius, 1, thickness=-1)
    return mask > 0


def _card_shaped(part: np.ndarray, area: int) -> bool:
    """Whether one piece of paper (a boolean mask of its bounding box) fills its turned
    rectangle as a card or a pile does (FACE_FILL), with ink on it but not mostly ink
    (FACE_INK)."""
    contours, _ = cv2.findContours(
        part.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    outline = max(contours, key=cv2.contourArea)
    filled = np.zeros(part.shape, np.uint8)
    cv2.drawContours(filled, [outline], -1, 1, thickness=-1)
    whole = int(filled.sum())
    _, (side, other), _ = cv2.minAreaRect(outline)
    ink = (whole - area) / max(whole, 1)
    return whole >= FACE_FILL * side * other and FACE_INK[0] <= ink <= FACE_INK[1]
