"""Cards lying at their own angles: each index's crop turned so its card's edges stand square
before the classifier reads it (the classifier learnt glyphs upright or a quarter turned).

The card's angle is measured round its index: the edges of the card and the strokes of its
glyphs run mostly along the card's two axes, so the strongest direction of the picture's
gradients there, taken modulo a quarter turn, is the card's tilt.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from blackcat.vision.types import Box

CONTEXT = 2.5
"""The angle is measured on a square this many times the index box's longer side, round its
centre: wide enough to take in the card's corner edges."""

TURNED_FROM = 15.0
"""A card tilted by less than this (degrees) is read as it is: the classifier learnt glyphs
tilted this much, and its crop stays exactly as before."""

SURE_DIRECTION = 0.2
"""...and the direction measured must stand out: the gradients' agreement on it (0: spread
evenly, as in noise or face art; 1: every edge along the card's axes) at least this."""


def card_angle(patch: np.ndarray) -> float | None:
    """The tilt of the card in an RGB patch, in degrees within (-45, 45] (anticlockwise as
    seen), or None where no direction stands out."""
    across, down, total = direction_sums(patch)
    if total <= 0 or math.hypot(across, down) / total < SURE_DIRECTION:
        return None
    return tilt_of(across, down)


def direction_sums(patch: np.ndarray) -> tuple[float, float, float]:
    """The gradients of an RGB patch summed as directions folded onto a quarter turn: the two
    components of their strength-weighted direction on a doubled-up circle (4θ, so that 0 and
    90 degrees meet) and their total strength. Sums of several patches add up (`tilt_of`)."""
    grey = cv2.cvtColor(patch, cv2.COLOR_RGB2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    across, down = gx * gx, gy * gy
    weight = across + down
    # weight·cos 4θ and weight·sin 4θ from the gradient itself (cos 2θ and sin 2θ times weight
    # are across - down and 2·gx·gy), without an angle's trigonometry at every pixel
    cos2, sin2 = across - down, 2.0 * gx * gy
    per_weight = np.divide(1.0, weight, out=np.zeros_like(weight), where=weight > 0)
    x = float(((cos2 * cos2 - sin2 * sin2) * per_weight).sum())
    y = float((2.0 * cos2 * sin2 * per_weight).sum())
    return x, y, float(weight.sum())


def tilt_of(x: float, y: float) -> float:
    """The tilt (degrees within (-45, 45], anticlockwise as seen) of `direction_sums`' two
    components."""
    # image y points down: a direction turned clockwise in these numbers is anticlockwise seen
    return -math.degrees(math.atan2(y, x) / 4.0)


def upright_crop(
    picture: np.ndarray,
    box: Box,
    padding: float,
    measure: Callable[[np.ndarray], float | None] = card_angle,
) -> np.ndarray | None:
    """A square crop of the box's index turned so its card stands square, as
    `reader.square_crop` cuts it (the box's longer side plus `padding` each side, of the
    glyphs' own size), or None where the card already stands square or its tilt can't be
    told (`measure`: the tilt of the card in a patch round its index, as `card_angle`)."""
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    half = CONTEXT * max(x2 - x1, y2 - y1) / 2
    left, top = max(0, round(cx - half)), max(0, round(cy - half))
    patch = picture[top : round(cy + half), left : round(cx + half)]
    if min(patch.shape[:2]) < 8:
        return None
    tilt = measure(patch)
    if tilt is None or abs(tilt) < TURNED_FROM:
        return None
    return turned_crop(picture, box, padding, tilt)


def turned_crop(picture: np.ndarray, box: Box, padding: float, tilt: float) -> np.ndarray:
    """A square crop of the box's index turned back by `tilt` degrees (anticlockwise as seen):
    upright where its card lies tilted so."""
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    # the axis-aligned box of a tilted glyph is wider than the glyph itself
    radians = math.radians(abs(tilt))
    glyph = max(x2 - x1, y2 - y1) / (math.cos(radians) + math.sin(radians))
    side = max(2, round(glyph * (1 + 2 * padding)))
    turn = cv2.getRotationMatrix2D((cx, cy), -tilt, 1.0)
    turn[:, 2] += (side / 2 - cx, side / 2 - cy)
    return cv2.warpAffine(
        picture, turn, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
