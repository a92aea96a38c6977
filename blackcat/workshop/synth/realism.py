"""What real cameras do that a tidy render doesn't: strong colour casts (tungsten, fluorescent
green, auto-white-balance gone wrong), dim or blown exposure, sensor speckle and chroma noise,
video-style compression, heavy vignetting, frames squeezed along one axis (a wide frame resized
to a square, a steep seated view), a photo out of focus or shaken, and fingers over the cards.

Drawn for training scenes only, from the scene's own generator (`realism_rng`), so the kitty
measuring sets and the example photos stay the pictures they always were.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from blackcat.workshop.synth.render import streaked

Rng = np.random.Generator

CASTS: dict[str, tuple[float, float, float]] = {
    # BGR gains before normalising; what the light does to a white card
    "tungsten": (0.55, 0.85, 1.15),
    "candle": (0.4, 0.75, 1.2),
    "fluorescent": (0.9, 1.15, 0.85),
    "daylight_shade": (1.25, 1.0, 0.8),
    "magenta": (1.1, 0.8, 1.1),
    "cyan": (1.15, 1.05, 0.7),
}
SKIN_TONES_BGR = (
    (150, 175, 225),
    (120, 150, 205),
    (90, 120, 175),
    (60, 85, 130),
    (45, 60, 95),
)


@dataclass(frozen=True)
class Realism:
    """One scene's camera faults; neutral values mean "not this fault"."""

    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR gains on the whole picture
    exposure: float = 1.0  # < 1 dim, > 1 blown out (clipped)
    speckle: float = 0.0  # share of pixels hit by hot/dead sensor pixels
    chroma_noise: float = 0.0  # sigma of per-channel noise at half resolution, 0-1 scale
    video_quality: int = 0  # > 0: encoded at this JPEG quality at half resolution first
    vignette: float = 0.0  # darkening at the corners, 0-1
    squeeze: tuple[float, float] = (1.0, 1.0)  # x and y scale of the whole frame
    fingers: int = 0  # fingers lying over cards (never over a labelled index)
    focus_blur: float = 0.0  # out of focus: Gaussian sigma as a share of the long side
    motion_blur: tuple[float, float] = (0.0, 0.0)  # shaken: streak length (share) and angle

    @property
    def is_neutral(self) -> bool:
        return self == Realism()


NEUTRAL = Realism()


def realism_rng(seed: int, index: int) -> Rng:
    """The generator of one scene's camera faults, apart from its other draws."""
    return np.random.default_rng([seed, index, 2])


def random_realism(rng: Rng) -> Realism:
    """Faults of real phone and webcam pictures; about a third of scenes stay clean."""
    if rng.random() < 0.3:
        return NEUTRAL
    cast = (1.0, 1.0, 1.0)
    if rng.random() < 0.55:
        name = str(rng.choice(list(CASTS)))
        strength = rng.uniform(0.3, 1.0)
        gains = 1 + strength * (np.array(CASTS[name]) - 1)
        cast = tuple(float(g) for g in gains / gains.max())
    exposure = 1.0
    u = rng.random()
    if u < 0.2:
        exposure = float(rng.uniform(0.3, 0.7))
    elif u < 0.32:
        exposure = float(rng.uniform(1.2, 1.7))
    squeeze = (1.0, 1.0)
    if rng.random() < 0.2:
        factor = float(rng.uniform(0.5, 0.85))
        squeeze = (factor, 1.0) if rng.random() < 0.6 else (1.0, factor)
    realism = Realism(
        cast=cast,  # type: ignore[arg-type]
        exposure=exposure,
        speckle=float(rng.uniform(0.001, 0.01)) if rng.random() < 0.25 else 0.0,
        chroma_noise=float(rng.uniform(0.01, 0.06)) if rng.random() < 0.35 else 0.0,
        video_quality=int(rng.integers(12, 45)) if rng.random() < 0.3 else 0,
        vignette=float(rng.uniform(0.2, 0.6)) if rng.random() < 0.25 else 0.0,
        squeeze=squeeze,
        fingers=int(rng.integers(1, 4)) if rng.random() < 0.15 else 0,
    )
    # drawn after the faults above, so that a scene drawn before blur came keeps them
    focus = float(rng.uniform(*FOCUS_BLUR)) if rng.random() < 0.12 else 0.0
    shake = float(rng.uniform(*MOTION_BLUR)) if rng.random() < 0.08 else 0.0
    angle = float(rng.uniform(0.0, 180.0)) if shake else 0.0
    return replace(realism, focus_blur=focus, motion_blur=(shake, angle))


FOCUS_BLUR = (0.0008, 0.0025)
MOTION_BLUR = (0.002, 0.008)
"""Blur as a share of the picture's long side: a 12 MP photo's indices (about 2% of it) blurred
by up to an eighth of their height, a shaken one streaked by up to 40% of it. Readable by a
person; the camera's own softness (`render.random_sensor`) is far milder. Measured in session
26 on 40 kitty scenes (first 40 of `datasets/generated/kitty`): focus blur of 0.002 took piles
read right from 0.975 to 0.750, a streak of 0.008 to 0.600."""


def squeeze_matrix(realism: Realism) -> np.ndarray:
    """The frame's squeeze as a 3x3 map of image pixels."""
    sx, sy = realism.squeeze
    return np.diag([sx, sy, 1.0])


def apply_light_faults(image: np.ndarray, realism: Realism) -> np.ndarray:
    """Blur, cast, exposure and vignette on a float BGR picture in [0, 1] (before the
    sensor)."""
    if (
        realism.cast == (1.0, 1.0, 1.0)
        and realism.exposure == 1.0
        and not realism.vignette
        and not realism.focus_blur
        and not realism.motion_blur[0]
    ):
        return image
    out = blurred(image, realism) * (np.array(realism.cast, np.float32) * realism.exposure)
    if realism.vignette:
        h, w = out.shape[:2]
        ys, xs = np.ogrid[:h, :w]
        r2 = ((xs - w / 2) / (w / 2)) ** 2 + ((ys - h / 2) / (h / 2)) ** 2
        out = out * (1 - realism.vignette * np.clip(r2 / 2, 0, 1))[..., None].astype(np.float32)
    return out.astype(np.float32)


def seen_closer(realism: Realism, zoom: float) -> Realism:
    """The faults of a close-up that spans 1/`zoom` of the picture's long side: its blur,
    a share of its own long side, grows by `zoom` (an index's crop blurred as in the photo)."""
    streak, angle = realism.motion_blur
    return replace(
        realism, focus_blur=realism.focus_blur * zoom, motion_blur=(streak * zoom, angle)
    )


def blurred(image: np.ndarray, realism: Realism) -> np.ndarray:
    """The picture out of focus and shaken as the realism says (the lens, before the light
    reaches the sensor)."""
    out = image
    long_side = max(image.shape[:2])
    if realism.focus_blur:
        out = cv2.GaussianBlur(out, (0, 0), realism.focus_blur * long_side)
    streak, angle = realism.motion_blur
    if streak:
        out = streaked(out, max(3, round(streak * long_side) | 1), angle)
    return out


def apply_sensor_faults(image: np.ndarray, realism: Realism, rng: Rng) -> np.ndarray:
    """Chroma noise, speckle and video compression on a uint8 BGR picture."""
    out = image
    h, w = out.shape[:2]
    if realism.chroma_noise:
        small = rng.normal(0, realism.chroma_noise * 255, (max(h // 2, 1), max(w // 2, 1), 3))
        noise = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        out = np.clip(out.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if realism.speckle:
        hit = rng.random((h, w)) < realism.speckle
        values = rng.integers(0, 256, (int(hit.sum()), 3), dtype=np.uint8)
        out = out.copy()
        out[hit] = values
    if realism.video_quality and h >= 8 and w >= 8:
        half = cv2.resize(out, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", half, [cv2.IMWRITE_JPEG_QUALITY, realism.video_quality])
        if ok:
            decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
            out = cv2.resize(decoded, (w, h), interpolation=cv2.INTER_LINEAR)
    return out


def draw_fingers(
    image: np.ndarray, count: int, keep_clear: list[np.ndarray], cards: list[np.ndarray], rng: Rng
) -> np.ndarray:
    """Fingers (rounded, skin-coloured, softly shaded strokes) reaching in over the cards from a
    picture edge, never over a quad in `keep_clear` (the labelled indices, grown)."""
    h, w = image.shape[:2]
    clear = np.zeros((h, w), np.uint8)
    for quad in keep_clear:
        centre = quad.mean(axis=0)
        grown = centre + (quad - centre) * 1.6
        cv2.fillConvexPoly(clear, np.round(grown).astype(np.int32), 1)
    out = image.copy()
    for _ in range(count):
        if not cards:
            break
        card = cards[int(rng.integers(len(cards)))]
        tip = card.mean(axis=0) + rng.uniform(-0.25, 0.25, 2) * (card.max(0) - card.min(0))
        angle = rng.uniform(0, 2 * np.pi)
        length = float(np.hypot(w, h))
        base = tip + length * np.array([np.cos(angle), np.sin(angle)])
        width = float(np.ptp(card[:, 0]) + np.ptp(card[:, 1])) * rng.uniform(0.08, 0.14)
        mask = np.zeros((h, w), np.uint8)
        cv2.line(
            mask,
            tuple(np.round(tip).astype(int)),
            tuple(np.round(base).astype(int)),
            255,
            max(int(width), 2),
        )
        cv2.circle(mask, tuple(np.round(tip).astype(int)), max(int(width / 2), 1), 255, -1)
        soft = cv2.GaussianBlur(mask, (0, 0), max(width / 8, 0.8)).astype(np.float32) / 255
        if ((soft > 0.002) & clear.astype(bool)).any():  # the soft edge counts too
            continue
        shade = cv2.GaussianBlur(mask, (0, 0), max(width / 3, 1)).astype(np.float32) / 255
        tone = np.array(SKIN_TONES_BGR[int(rng.integers(len(SKIN_TONES_BGR)))], np.float32)
        skin = tone * (0.75 + 0.35 * shade[..., None]) * rng.uniform(0.8, 1.1)
        out = (out * (1 - soft[..., None]) + np.clip(skin, 0, 255) * soft[..., None]).astype(
            np.uint8
        )
    return out
