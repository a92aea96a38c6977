"""Colour constancy before reading: a photo's colour cast (tungsten, fluorescent green, a phone's
white balance gone wrong) and dim exposure corrected from its own brightest surfaces, which in
a photo of cards are the card faces; and the negative, for decks printed light on dark.

Applied to the small pictures the models see (the detector's copy and the index crops), never
to the whole full-resolution photo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

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


class Inks(Enum):
    """How a deck printed light on dark prints its suits, so how the classifier (which learnt
    black spades and clubs, red hearts and diamonds) should see an index's ink."""

    ONE = "one"  # every suit in one ink (white, silver, gold): the colour says nothing
    TWO = "two"  # red suits in a coloured ink, black ones in a plain one (`two_ink_negative`)


@dataclass(frozen=True)
class PixelFix:
    """What is done to each picture the models see: per-channel gains (RGB), then, for a
    light-on-dark deck, the negative; and, for such a deck, how its suits are inked."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    negative: bool = False
    inks: Inks = Inks.ONE  # how a light-on-dark deck prints its suits

    @property
    def suits_by_shape(self) -> bool:
        """Whether the models see a deck that prints every suit in one light ink."""
        return self.negative and self.inks is Inks.ONE

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
            out = two_ink_negative(out) if self.inks is Inks.TWO else 255 - out
        return out


NO_FIX = PixelFix()


def two_ink_negative(picture: np.ndarray) -> np.ndarray:
    """The negative of a deck printed light on dark in two inks, as the classifier learnt cards:
    each pixel's lightness inverted and its colour, whatever its hue, made red (HSL's lightness
    and chroma kept): the plain ink (the black suits) turns black, the coloured one (the red
    suits, red or gold or any colour) red, on white."""
    channels = picture[..., :3]
    out = np.empty_like(channels)
    out[..., 0] = 255 - channels.min(axis=2)
    out[..., 1] = out[..., 2] = 255 - channels.max(axis=2)
    return out


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
    for part in _box_parts(picture, boxes):
        grey = part.astype(np.float32).mean(axis=2)
        shares.append(float((grey > grey.mean()).mean()))
    return bool(shares) and float(np.median(shares)) < LIGHT_ON_DARK_BELOW


def _box_parts(
    picture: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]
) -> list[np.ndarray]:
    """The picture's pixels (RGB) in each box (x1, y1, x2, y2), those of a few pixels left out."""
    parts = [
        picture[int(y1) : int(np.ceil(y2)), int(x1) : int(np.ceil(x2)), :3]
        for x1, y1, x2, y2 in boxes
    ]
    return [part for part in parts if part.size >= 12]


BLACK_INK = (0.0, 0.0, 0.0)
RED_INK = (0.8, 0.0, 0.0)
"""Ink colours as a share of the paper's light in each channel (RGB): a card's black and red."""


def ink_tinted(crop: np.ndarray, ink: tuple[float, float, float]) -> np.ndarray:
    """The crop (uint8 RGB) printed in one ink on white paper: each pixel's lightness kept
    (white paper stays white, full ink takes the ink's colour), its own colour dropped."""
    lightness = crop[..., :3].astype(np.float32).mean(axis=2, keepdims=True) / 255.0
    tinted = 255.0 * (lightness + (1.0 - lightness) * np.asarray(ink, np.float32))
    return np.clip(tinted + 0.5, 0, 255).astype(np.uint8)


INKS_APART = 40.0
"""Light ink on dark faces in two colours (red suits printed red, black ones white or gold) makes
the index boxes' brightest pixels differ this much in colourfulness (max - min channel, 0-255)
between the most and least colourful boxes (90th and 10th percentiles); one ink, however
coloured (white, silver, gold), far less."""


def light_inks(picture: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> Inks:
    """How many inks the index boxes (x1, y1, x2, y2 in the picture's pixels) of a deck printed
    light on dark show (a pure function of the picture)."""
    colourfulness = [ink_colourfulness(part) for part in _box_parts(picture, boxes)]
    if len(colourfulness) < 2:
        return Inks.ONE
    spread = np.percentile(colourfulness, 90) - np.percentile(colourfulness, 10)
    return Inks.TWO if float(spread) > INKS_APART else Inks.ONE


INK_SHARE = 0.15  # light ink on dark paper: the lightest of an index box's pixels


def ink_colourfulness(part: np.ndarray) -> float:
    """How colourful (max - min channel, 0-255) the light ink of a part of a picture is."""
    pixels = part[..., :3].reshape(-1, 3).astype(np.float32)
    lightness = pixels.mean(axis=1)
    colour = pixels[lightness >= np.percentile(lightness, 100 * (1 - INK_SHARE))].mean(axis=0)
    return float(colour.max() - colour.min())
