"""Colour constancy before reading: a photo's colour cast (tungsten, fluorescent green, a phone's
white balance gone wrong) and dim exposure corrected from its own brightest surfaces, which in
a photo of cards are the card faces; and the negative, for decks printed light on dark. A photo
brightened or recoloured a lot has its noise raised as much: the detector sees it smoothed.

Applied to the small pictures the models see (the detector's copy and the index crops), never
to the whole full-resolution photo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

import cv2
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
NOISY_GAIN = 1.3
"""A channel raised more than this raises the sensor's noise as much (a dim or strongly cast
photo): the detector then sees the photo smoothed first (`PixelFix.noisy`)."""
DENOISING_KERNEL = 3  # pixels across the median that smooths it
ESTIMATE_SIDE = 256  # the estimate is made on a copy this long


class Inks(Enum):
    """How a deck printed light on dark prints its suits, so how the classifier (which learnt
    black spades and clubs, red hearts and diamonds) should see an index's ink."""

    ONE = "one"  # every suit in one ink (white, silver, gold): the colour says nothing
    TWO = "two"  # red suits in a coloured ink, black ones in a plain one (`two_ink_negative`)
    RED = "red"  # red suits red, black ones in a plain or metal ink (`red_ink_negative`)


@dataclass(frozen=True)
class PixelFix:
    """What is done to each picture the models see: for the detector's pictures of a noisy
    photo a median, then per-channel gains (RGB), then, for a light-on-dark deck, the negative;
    and whether the suits' colours can be trusted (a black-and-white photo, or how such a deck
    inks them)."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    negative: bool = False
    inks: Inks = Inks.ONE  # how a light-on-dark deck prints its suits
    noisy: bool = False  # the gains raise the photo's noise as much (NOISY_GAIN)
    colourless: bool = False  # a black-and-white photo (`is_colourless`)

    @property
    def suits_by_shape(self) -> bool:
        """Whether the models see suits whose colour says nothing: a black-and-white photo, or a
        deck that prints every suit in one light ink."""
        return self.colourless or (self.negative and self.inks is Inks.ONE)

    @property
    def is_identity(self) -> bool:
        return self == NO_FIX

    def apply(self, picture: np.ndarray, *, denoise: bool = False) -> np.ndarray:
        """The picture (uint8 RGB) as the models should see it. `denoise`: a noisy photo's
        picture smoothed by a median first, as the detector sees it. Its crops are read as
        they are: the median smooths their glyphs' strokes too, and leaves the classifier less
        sure of right cards."""
        if self.is_identity:
            return picture
        out = picture
        if denoise and self.noisy:
            out = cv2.medianBlur(np.ascontiguousarray(out), DENOISING_KERNEL)
        if self.gains != (1.0, 1.0, 1.0):
            scaled = out.astype(np.float32) * np.asarray(self.gains, np.float32)
            out = np.clip(scaled + 0.5, 0, 255).astype(np.uint8)
        if self.negative:
            negatives = {Inks.TWO: two_ink_negative, Inks.RED: red_ink_negative}
            out = negatives.get(self.inks, one_ink_negative)(out)
        return out


NO_FIX = PixelFix()


def one_ink_negative(picture: np.ndarray) -> np.ndarray:
    """The negative of a deck printed light on dark in one ink (white, silver, gold), as the
    models learnt cards: each pixel's brightest channel inverted, in grey: the ink black on
    white whatever its colour (the plain negative made a gold ink blue, a red one cyan)."""
    grey = 255 - brightest_channel(picture[..., :3])
    return np.repeat(grey[..., None], 3, axis=2)


def two_ink_negative(picture: np.ndarray) -> np.ndarray:
    """The negative of a deck printed light on dark in two inks, as the classifier learnt cards:
    each pixel's lightness inverted and its colour, whatever its hue, made red (HSL's lightness
    and chroma kept): the plain ink (the black suits) turns black, the coloured one (the red
    suits, red or gold or any colour) red, on white."""
    channels = picture[..., :3]
    out = np.empty_like(channels)
    out[..., 0] = 255 - darkest_channel(channels)
    out[..., 1] = out[..., 2] = 255 - brightest_channel(channels)
    return out


def red_ink_negative(picture: np.ndarray) -> np.ndarray:
    """The negative of a deck printed light on dark in red and a plain or metal ink, as the
    classifier learnt cards: each pixel's brightest channel inverted, and as much red added as
    its red stands above its other channels: the plain or metal ink (the black suits: white,
    silver, gold) turns black, the red one red, on white (`two_ink_negative` would make a gold
    ink's spades red)."""
    channels = picture[..., :3].astype(np.int16)
    brightest = brightest_channel(channels)
    out = np.empty((*picture.shape[:2], 3), np.uint8)
    out[..., 0] = np.clip(255 - brightest + _red_above(channels), 0, 255)
    out[..., 1] = out[..., 2] = 255 - brightest
    return out


def _red_above(rgb: np.ndarray) -> np.ndarray:
    """How far each colour's red stands above its other channels (0 where it doesn't)."""
    return np.clip(rgb[..., 0] - np.maximum(rgb[..., 1], rgb[..., 2]), 0, None)


def brightest_channel(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's brightest channel (R, G, B the last axis). Channel by channel: NumPy's
    `max(axis=-1)` over three values a pixel runs about eight times slower."""
    return np.maximum(np.maximum(rgb[..., 0], rgb[..., 1]), rgb[..., 2])


def darkest_channel(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel, as `brightest_channel`."""
    return np.minimum(np.minimum(rgb[..., 0], rgb[..., 1]), rgb[..., 2])


def fix_for(picture: np.ndarray) -> PixelFix:
    """What the models' pictures of a photo need (a pure function of the photo): its cast and
    dim light undone (`white_balance`), and its suits told by their shapes where it has no
    colour (`is_colourless`)."""
    return replace(white_balance(picture), colourless=is_colourless(picture))


def white_balance(picture: np.ndarray) -> PixelFix:
    """The gains that bring the photo's brightest surfaces to neutral white, or NO_FIX where the
    cast is slight and the light good (a pure function of the picture). Blown-out pixels stay
    among the brightest: a photo whose card faces are blown out to white has no cast to undo.
    Gains above NOISY_GAIN make it `noisy`."""
    pixels = _sample(picture).reshape(-1, 3).astype(np.float32)
    if len(pixels) < 64:
        return NO_FIX  # a tiny picture: nothing to learn from
    brightness = pixels[:, 0] + pixels[:, 1] + pixels[:, 2]
    count = max(16, int(len(pixels) * WHITE_SHARE))
    brightest = pixels[np.argpartition(-brightness, count - 1)[:count]]
    white = np.maximum(np.median(brightest, axis=0), 1.0)
    chroma = np.minimum(white.max() / white, MAX_CAST_GAIN)
    level = float(np.clip(TARGET_WHITE / white.max(), 1.0, MAX_LEVEL_GAIN))
    if float(chroma.max()) < NO_CAST and level < DIM:
        return NO_FIX
    gains = chroma * level
    return PixelFix(
        gains=(float(gains[0]), float(gains[1]), float(gains[2])),
        noisy=float(gains.max()) > NOISY_GAIN,
    )


COLOURED_CHROMA = 6
"""A pixel whose channels differ by more than this (0-255) shows a colour: a black-and-white
photo's differ by JPEG's rounding at most; a colour photo of black cards on a grey cloth still
shows about 1% of such pixels or more (its light's cast, the cloth's weave)."""

COLOURLESS_BELOW = 0.001  # ... a photo with fewer coloured pixels than this share has none


def is_colourless(picture: np.ndarray) -> bool:
    """Whether the photo is black and white (a phone's filter, a webcam's night mode): its red
    suits show as grey as its black ones, so only their shapes tell them (a pure function of
    the picture)."""
    pixels = _sample(picture).astype(np.int16)
    if pixels.size == 0:
        return False
    chroma = brightest_channel(pixels) - darkest_channel(pixels)
    return float((chroma > COLOURED_CHROMA).mean()) < COLOURLESS_BELOW


def _sample(picture: np.ndarray) -> np.ndarray:
    """Every k-th pixel, so the copy's long side is about ESTIMATE_SIDE."""
    step = max(1, max(picture.shape[:2]) // ESTIMATE_SIDE)
    return picture[::step, ::step, :3]


LIGHT_ON_DARK_BELOW = 0.5
"""An index box is mostly paper with some ink: on a light face, most of its pixels are brighter
than the box's mean (the ink pulls the mean down; 0.53-0.71 on measured scenes, whatever the
light); on a dark face with light ink, most are darker (0.28-0.49). The median over a photo's
boxes under this says the deck is printed light on dark..."""

DARK_ON_LIGHT_FROM = 0.53
"""...and from this, surely dark on light; between the two the boxes are unsure (a dark-faced
deck's few indices found among its face art: 0.506 and 0.507)."""


def ink_share(
    picture: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]
) -> float | None:
    """The median over the index boxes (x1, y1, x2, y2 in the picture's pixels) of the share of
    each box's pixels brighter than its mean (LIGHT_ON_DARK_BELOW); None without boxes."""
    shares = []
    for part in _box_parts(picture, boxes):
        grey = part.astype(np.float32).mean(axis=2)
        shares.append(float((grey > grey.mean()).mean()))
    return float(np.median(shares)) if shares else None


class Printed(Enum):
    """How a photo's index boxes show their ink (`printed`)."""

    LIGHT_ON_DARK = "light on dark"  # a dark-faced deck
    DARK_ON_LIGHT = "dark on light"  # surely: most decks
    UNSURE = "unsure"  # between the two, or no boxes


def printed(picture: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> Printed:
    """How the index boxes (x1, y1, x2, y2 in the picture's pixels) show their ink (a pure
    function of the picture)."""
    share = ink_share(picture, boxes)
    if share is None:
        return Printed.UNSURE
    if share < LIGHT_ON_DARK_BELOW:
        return Printed.LIGHT_ON_DARK
    return Printed.DARK_ON_LIGHT if share >= DARK_ON_LIGHT_FROM else Printed.UNSURE


def light_on_dark(picture: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> bool:
    """Whether the index boxes show light ink on dark paper (`printed`)."""
    return printed(picture, boxes) is Printed.LIGHT_ON_DARK


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


INK_SHAPE_SPAN = (2.0, 98.0)
"""The percentiles of a crop's darkest channel taken as full ink and as bare paper
(`ink_shape`): a few pixels of noise or glare beyond them change nothing."""
MIN_INK_CONTRAST = 24.0  # a crop whose ink and paper differ less is only smoothed noise


def ink_shape(crop: np.ndarray) -> np.ndarray:
    """The crop (uint8 RGB) as dark ink on white paper whatever its ink's colour or its light:
    each pixel's darkest channel (so red, green, blue and gold inks print as dark as black),
    stretched so the crop's ink is black and its paper white. What the suit-shape classifier
    sees: a suit told by its shape alone, as a deck printed in one ink or a black-and-white
    photo only shows it."""
    darkest = crop[..., :3].min(axis=2).astype(np.float32)
    ink, paper = np.percentile(darkest, INK_SHAPE_SPAN)
    if paper - ink >= MIN_INK_CONTRAST:
        darkest = (darkest - ink) * (255.0 / (paper - ink))
    grey = np.clip(darkest + 0.5, 0, 255).astype(np.uint8)
    return np.repeat(grey[..., None], 3, axis=2)


INKS_APART = 40.0
"""Light ink on dark faces in two colours (red suits printed red, black ones white, silver or
gold) makes the index boxes' brightest pixels differ this much in how far their red stands above
their other channels, or in colourfulness (max - min channel, 0-255), between the most and least
red or colourful boxes (90th and 10th percentiles); one ink, however coloured, far less."""


def light_inks(picture: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> Inks:
    """How many inks the index boxes (x1, y1, x2, y2 in the picture's pixels) of a deck printed
    light on dark show, and which is the red suits' (a pure function of the picture): a red one
    apart from the other (a gold ink's is as colourful as red), else a coloured one apart from a
    plain one."""
    inks = np.array([ink_colour(part) for part in _box_parts(picture, boxes)]).reshape(-1, 3)
    if len(inks) < 2:
        return Inks.ONE
    if _spread(_red_above(inks)) > INKS_APART:
        return Inks.RED
    return Inks.TWO if _spread(inks.max(axis=1) - inks.min(axis=1)) > INKS_APART else Inks.ONE


def _spread(values: np.ndarray) -> float:
    return float(np.percentile(values, 90) - np.percentile(values, 10))


INK_SHARE = 0.15  # light ink on dark paper: the lightest of an index box's pixels


def ink_colour(part: np.ndarray) -> np.ndarray:
    """The colour (RGB, 0-255) of the light ink of a part of a picture: its lightest pixels'."""
    pixels = part[..., :3].reshape(-1, 3).astype(np.float32)
    lightness = pixels.mean(axis=1)
    return pixels[lightness >= np.percentile(lightness, 100 * (1 - INK_SHARE))].mean(axis=0)
