"""A crop's pixels made easier for the card classifier, as it sees them (its 64 px view): a faint
index on white paper (a blown-out photo's) stretched to full contrast, a grainy one (speckled,
video-compressed) smoothed. Each view is judged on its own pixels: no measure of the whole photo
told noisy photos from clean ones (models/README.md, sessions 53 and 54)."""

from __future__ import annotations

import cv2
import numpy as np

from blackcat.vision.sharpness import percentiles

GRAIN_LIMIT = 1.9
"""A crop the classifier sees is smoothed (`calmed`) where its grain (`grain`, grey levels)
exceeds this. The classifier misreads speckled and video-compressed indices that it reads right
smoothed, and smoothing every crop costs clean photos' flags (models/README.md, session 53).
Crops so smoothed (session 54): 1-2% of rf100's, edje's and kitty scenes', 7% of the fresh
tables' (drawn with camera faults), 18% of rf100 made webcam frames, 62% dim, 88% speckled."""

CALMING_BLUR = 0.6
"""The Gaussian's sigma (pixels of the classifier's view) that smooths a grainy crop: 0.8 read
the noisy photos as well and cost a clean rf100 photo and a camera-fault kitty scene a card
read where none is (session 54)."""

FAINT_CONTRAST = 100.0
"""A crop the classifier sees whose grey spans fewer levels than this (2nd to 98th percentile)
is stretched to the full range first (`stretched`): a blown-out photo's pale red indices, their
ink lifted towards the white paper (rf100 blown out 0.926 / 0.941 -> 0.933 / 0.942, session 54);
140 read them worse."""

BLANK_CONTRAST = 8.0
"""...unless it spans fewer than this: plain paper or cloth, whose grain it would only magnify..."""

CLIPPED_PAPER = 250.0
"""...or its lightest grey (98th percentile) stands below this: a blown-out photo's paper is
white, while faint printed text or a blurred card's pips, stretched, read as clubs (edje
blurred 0.966 -> 0.940 precision without this)."""

_GRAIN_MASK = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
_GRAIN_SCALE = 0.6745 * 6.0  # the mask's response to noise of sigma 1: a median of |N(0, 6)|


def cleaned(view: np.ndarray) -> np.ndarray:
    """An RGB view as the classifier reads it: `stretched` where faint, then `calmed` where
    grainy (its grey taken once, again only where the stretch changed it)."""
    grey = _grey(view)
    faint = _faint_range(grey)
    if faint is not None:
        view = _spread(view, *faint)
        grey = _grey(view)
    return _calmed(view, grey)


def stretched(view: np.ndarray) -> np.ndarray:
    """An RGB view on white paper (CLIPPED_PAPER) whose grey spans fewer than FAINT_CONTRAST
    levels (and at least BLANK_CONTRAST) stretched to span them all, every channel alike so that
    its hues stay."""
    faint = _faint_range(_grey(view))
    return view if faint is None else _spread(view, *faint)


def grain(view: np.ndarray) -> float:
    """How noisy an RGB picture's pixels are: the noise's standard deviation in grey levels, by
    Immerkaer's mask (blind to flat grey and to even slopes) and the median of its absolute
    response, so that a glyph's edges, a minority of the pixels, barely count."""
    response = _grain_response(_grey(view))
    return float(np.median(response)) / _GRAIN_SCALE if response.size else 0.0


def calmed(view: np.ndarray) -> np.ndarray:
    """An RGB view smoothed (CALMING_BLUR) where it is grainy (GRAIN_LIMIT), else as it is."""
    return _calmed(view, _grey(view))


def _grey(view: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.ascontiguousarray(view[..., :3]), cv2.COLOR_RGB2GRAY)


def _faint_range(grey: np.ndarray) -> tuple[float, float] | None:
    """The grey's 2nd and 98th percentiles where `stretched` stretches a view of it, else None."""
    low, high = (float(v) for v in percentiles(grey, (2, 98)))
    if high < CLIPPED_PAPER or not BLANK_CONTRAST <= high - low < FAINT_CONTRAST:
        return None
    return low, high


def _spread(view: np.ndarray, low: float, high: float) -> np.ndarray:
    spread = (view.astype(np.float32) - low) * (255.0 / (high - low))
    return np.clip(spread, 0, 255).astype(np.uint8)


def _calmed(view: np.ndarray, grey: np.ndarray) -> np.ndarray:
    response = _grain_response(grey)
    # the grain's median over the limit, counted rather than sorted (a third of the time)
    if 2 * np.count_nonzero(response > GRAIN_LIMIT * _GRAIN_SCALE) <= response.size:
        return view
    return cv2.GaussianBlur(view, (0, 0), CALMING_BLUR)


def _grain_response(grey: np.ndarray) -> np.ndarray:
    """The absolute response of `_GRAIN_MASK` to a picture's grey, inside its border."""
    if min(grey.shape) < 3:
        return np.zeros(0, np.float32)
    return np.abs(cv2.filter2D(grey.astype(np.float32), -1, _GRAIN_MASK)[1:-1, 1:-1])
