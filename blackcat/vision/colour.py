"""Colour constancy before reading: a photo's colour cast (tungsten, fluorescent green, a phone's
white balance gone wrong) and dim exposure corrected from its own brightest surfaces, which in
a photo of cards are the card faces; and the negative, for decks printed light on dark.

Applied to the small pictures the models see (the detector's copy and the index crops), never
to the whole full-resolution photo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

WHITE_SHARE = 0.02
"""The brightest share of the photo's pixels taken as white (card faces fill far more of a
photo of cards than that, even of a few small ones)."""

TARGET_WHITE = 230.0  # where the brightest surfaces are brought
MAX_CAST_GAIN = 2.5  # a channel raised at most this much against the strongest (candlelight)
MAX_LEVEL_GAIN = 2.0  # and the whole photo brightened at most this much
NO_CAST = 1.08
"""Casts weaker than this (ratio of the strongest to the weakest channel gain), in a photo lit
well enough, are left alone: the models learnt mild casts, and a clean photo reads as before."""
DIM = 1.12  # ... and brightening by less than this is not worth doing
ESTIMATE_SIDE = 256  # the estimate is made on a copy this long


@dataclass(frozen=True)
class PixelFix:
    """What is done to each picture the models see: per-channel gains (RGB), then, for a
    light-on-dark deck, the negative."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    negative: bool = False

    @property
    def is_identity(self) -> bool:
        return self == NO_FIX

    def apply(self, picture: np.ndarray) -> np.ndarray:
        """The picture (uint8 RGB) as the models should see it."""
        if self.is_identity:
            return picture
        out = picture
        if self.gains != (1.0, 1.0, 1.0):
            scaled = picture.astype(np.float32) * np.asarray(self.gains, np.float32)
            out = np.clip(scaled + 0.5, 0, 255).astype(np.uint8)
        if self.negative:
            out = 255 - out
        return out


NO_FIX = PixelFix()


def white_balance(picture: np.ndarray) -> PixelFix:
    """The gains that bring the photo's brightest surfaces to neutral white, or NO_FIX where the
    cast is slight and the light good (a pure function of the picture). Blown-out pixels stay
    among the brightest: a photo whose card faces are blown out to white has no cast to undo."""
    pixels = _sample(picture).reshape(-1, 3).astype(np.float32)
    if len(pixels) < 64:
        return NO_FIX  # a tiny picture: nothing to learn from
    brightness = pixels.sum(axis=1)
    count = max(16, int(len(pixels) * WHITE_SHARE))
    brightest = pixels[np.argpartition(-brightness, count - 1)[:count]]
    white = np.maximum(np.median(brightest, axis=0), 1.0)
    chroma = np.minimum(white.max() / white, MAX_CAST_GAIN)
    level = float(np.clip(TARGET_WHITE / white.max(), 1.0, MAX_LEVEL_GAIN))
    if float(chroma.max()) < NO_CAST and level < DIM:
        return NO_FIX
    gains = chroma * level
    return PixelFix(gains=(float(gains[0]), float(gains[1]), float(gains[2])))


def _sample(picture: np.ndarray) -> np.ndarray:
    """Every k-th pixel, so the copy's long side is about ESTIMATE_SIDE."""
    step = max(1, max(picture.shape[:2]) // ESTIMATE_SIDE)
    return picture[::step, ::step, :3]


LIGHT_ON_DARK_BELOW = 0.5
"""An index box is mostly paper with some ink: on a light face, most of its pixels are brighter
than the box's mean (the ink pulls the mean down; 0.53-0.71 on measured scenes, whatever the
light); on a dark face with light ink, most are darker (0.28-0.49). The median over a photo's
boxes under this says the deck is printed light on dark."""


def light_on_dark(picture: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> bool:
    """Whether the index boxes (x1, y1, x2, y2 in the picture's pixels) show light ink on dark
    paper (a pure function of the picture)."""
    shares = []
    for x1, y1, x2, y2 in boxes:
        part = picture[int(y1) : int(np.ceil(y2)), int(x1) : int(np.ceil(x2)), :3]
        if part.size < 12:
            continue
        grey = part.astype(np.float32).mean(axis=2)
        shares.append(float((grey > grey.mean()).mean()))
    return bool(shares) and float(np.median(shares)) < LIGHT_ON_DARK_BELOW
