"""A crop's pixels made easier for the card classifier, as it sees them (its 64 px view): a faint
index on white paper (a blown-out photo's) stretched to full contrast, a grainy one (speckled,
video-compressed) smoothed. Each view is judged on its own pixels: no measure of the whole photo
told noisy photos from clean ones (models/HISTORY.md, sessions 53 and 54)."""

from __future__ import annotations

import cv2
import numpy as np

from blackcat.vision.sharpness import row_percentiles

GRAIN_LIMIT = 1.9
"""A crop the classifier sees is smoothed (`calmed`) where its grain (`grain`, grey levels)
exceeds this. The classifier misreads speckled and video-compressed indices that it reads right
smoothed, and smoothing every crop costs clean photos' flags (models/HISTORY.md, session 53).
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
    return cleaned_views(view[None])[0]


def cleaned_views(views: np.ndarray) -> np.ndarray:
    """`cleaned` of each of a batch of RGB views of one size (views, height, width, 3): the
    same pixels as one at a time, measured together (the classifier's inputs 0.46 -> 0.30 ms a
    crop, session 70)."""
    if not len(views):
        return views
    greys = _greys(views)
    ranges = _faint_ranges(greys)
    faint = np.flatnonzero(~np.isnan(ranges[:, 0]))
    done = views.copy() if len(faint) else views
    for n in faint:
        low, high = (float(v) for v in ranges[n])  # Python floats keep the spread in float32
        done[n] = _spread(views[n], low, high)
        greys[n] = _greys(done[n][None])[0]
    grainy = np.flatnonzero(_grainy(greys))
    if len(grainy) and done is views:
        done = views.copy()
    for n in grainy:
        done[n] = cv2.GaussianBlur(done[n], (0, 0), CALMING_BLUR)
    return done


def stretched(view: np.ndarray) -> np.ndarray:
    """An RGB view on white paper (CLIPPED_PAPER) whose grey spans fewer than FAINT_CONTRAST
    levels (and at least BLANK_CONTRAST) stretched to span them all, every channel alike so that
    its hues stay."""
    low, high = (float(v) for v in _faint_ranges(_greys(view[None]))[0])
    return view if np.isnan(low) else _spread(view, low, high)


def grain(view: np.ndarray) -> float:
    """How noisy an RGB picture's pixels are: the noise's standard deviation in grey levels, by
    Immerkaer's mask (blind to flat grey and to even slopes) and the median of its absolute
    response, so that a glyph's edges, a minority of the pixels, barely count."""
    response = _grain_responses(_greys(view[None]))[0]
    return float(np.median(response)) / _GRAIN_SCALE if response.size else 0.0


def calmed(view: np.ndarray) -> np.ndarray:
    """An RGB view smoothed (CALMING_BLUR) where it is grainy (GRAIN_LIMIT), else as it is."""
    if not _grainy(_greys(view[None]))[0]:
        return view
    return cv2.GaussianBlur(view, (0, 0), CALMING_BLUR)


def _greys(views: np.ndarray) -> np.ndarray:
    """The grey of each view, converted as one tall picture (pixel by pixel: as one by one)."""
    count, height, width = views.shape[:3]
    tall = np.ascontiguousarray(views[..., :3]).reshape(count * height, width, 3)
    return cv2.cvtColor(tall, cv2.COLOR_RGB2GRAY).reshape(count, height, width)


def _faint_ranges(greys: np.ndarray) -> np.ndarray:
    """Each grey's 2nd and 98th percentiles (views, 2) where `stretched` stretches its view,
    else NaN."""
    ranges = row_percentiles(greys.reshape(len(greys), -1), (2, 98))
    low, high = ranges[:, 0], ranges[:, 1]
    faint = (high >= CLIPPED_PAPER) & (high - low >= BLANK_CONTRAST) & (high - low < FAINT_CONTRAST)
    ranges[~faint] = np.nan
    return ranges


def _spread(view: np.ndarray, low: float, high: float) -> np.ndarray:
    spread = (view.astype(np.float32) - low) * (255.0 / (high - low))
    return np.clip(spread, 0, 255).astype(np.uint8)


def _grainy(greys: np.ndarray) -> np.ndarray:
    """Whether each grey's grain's median exceeds GRAIN_LIMIT: counted rather than sorted."""
    responses = _grain_responses(greys)
    over = np.count_nonzero(responses > GRAIN_LIMIT * _GRAIN_SCALE, axis=(1, 2))
    return 2 * over > responses.shape[1] * responses.shape[2]


def _grain_responses(greys: np.ndarray) -> np.ndarray:
    """The absolute response of `_GRAIN_MASK` to each grey inside its border (views, height - 2,
    width - 2), the greys filtered as one tall picture: inside its border, each view's response
    is its own."""
    count, height, width = greys.shape
    if min(height, width) < 3:
        return np.zeros((count, 0, 0), np.float32)
    tall = greys.reshape(count * height, width)
    response = cv2.filter2D(tall, cv2.CV_32F, _GRAIN_MASK).reshape(count, height, width)
    return np.abs(response[:, 1:-1, 1:-1])
