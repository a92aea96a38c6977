"""Draw a scene: table, card shadows, cards (cv2.warpPerspective + alpha), light, and the phone's
camera (blur, noise, colour cast, JPEG). The same scene can be drawn through any `view` (a 3x3
map from scene pixels to output pixels): the whole picture, or a close-up crop of one index.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from blackcat.workshop.synth.layout import apply

Rng = np.random.Generator


@dataclass(frozen=True, eq=False)
class CardSprite:
    """One card to draw: its art pyramid (BGRA uint8, level k is 2**-k of full size) and the
    homography from full-size art pixels to scene pixels."""

    pyramid: tuple[np.ndarray, ...]
    to_scene: np.ndarray

    @property
    def size(self) -> tuple[int, int]:
        h, w = self.pyramid[0].shape[:2]
        return w, h

    def scene_corners(self) -> np.ndarray:
        w, h = self.size
        return apply(self.to_scene, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))


@dataclass(frozen=True)
class Light:
    """Smooth light over the scene (in scene pixels), evaluated wherever a view needs it."""

    exposure: float
    gradient: tuple[float, float]  # change of brightness per scene diagonal, along x and y
    centre: tuple[float, float]
    diagonal: float
    vignette: float
    shade: tuple[float, float, float, float] | None  # nx, ny, offset, darkness: a soft edge
    glare: tuple[float, float, float, float] | None  # x, y, radius, strength
    cast: tuple[float, float, float]  # per-channel gain, BGR

    def field(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Multiplicative light (H x W x 3) and additive glare at scene points."""
        dx = (xs - self.centre[0]) / self.diagonal
        dy = (ys - self.centre[1]) / self.diagonal
        light = self.exposure * (1 + self.gradient[0] * dx + self.gradient[1] * dy)
        light = light * (1 - self.vignette * (dx * dx + dy * dy) * 4)
        if self.shade is not None:
            nx, ny, offset, darkness = self.shade
            signed = (nx * dx + ny * dy - offset) * 12
            light = light * (1 - darkness / (1 + np.exp(-signed)))
        out = light[..., None] * np.array(self.cast, np.float32)
        return out.astype(np.float32)

    def glare_at(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray | None:
        if self.glare is None:
            return None
        gx, gy, radius, strength = self.glare
        d2 = ((xs - gx) ** 2 + (ys - gy) ** 2) / (radius * self.diagonal) ** 2
        return (strength * np.exp(-d2)).astype(np.float32)


def random_light(rng: Rng, width: int, height: int) -> Light:
    diagonal = float(np.hypot(width, height))
    angle = rng.uniform(0, 2 * np.pi)
    strength = rng.uniform(0, 0.6)
    shade = None
    if rng.random() < 0.3:
        a = rng.uniform(0, 2 * np.pi)
        shade = (
            float(np.cos(a)),
            float(np.sin(a)),
            float(rng.uniform(-0.3, 0.4)),
            float(rng.uniform(0.15, 0.5)),
        )
    glare = None
    if rng.random() < 0.3:
        glare = (
            float(rng.uniform(0, width)),
            float(rng.uniform(0, height)),
            float(rng.uniform(0.04, 0.25)),
            float(rng.uniform(0.1, 0.6)),
        )
    warmth = rng.normal(0.02, 0.05)  # indoor light is more often warm than cold
    cast = np.array([1 - warmth, 1.0, 1 + warmth]) * rng.uniform(0.96, 1.04, 3)
    return Light(
        exposure=float(rng.uniform(0.7, 1.15)),
        gradient=(float(strength * np.cos(angle)), float(strength * np.sin(angle))),
        centre=(width / 2, height / 2),
        diagonal=diagonal,
        vignette=float(rng.uniform(0, 0.25)),
        shade=shade,
        glare=glare,
        cast=(float(cast[0]), float(cast[1]), float(cast[2])),
    )


def mild_light(rng: Rng, width: int, height: int) -> Light:
    """Even, pleasant light (for example photos): a slight gradient and vignette, a touch of
    warmth, no shadow edge and no glare."""
    angle = rng.uniform(0, 2 * np.pi)
    strength = rng.uniform(0, 0.2)
    warmth = rng.uniform(0, 0.04)
    cast = np.array([1 - warmth, 1.0, 1 + warmth]) * rng.uniform(0.99, 1.01, 3)
    return Light(
        exposure=float(rng.uniform(0.95, 1.05)),
        gradient=(float(strength * np.cos(angle)), float(strength * np.sin(angle))),
        centre=(width / 2, height / 2),
        diagonal=float(np.hypot(width, height)),
        vignette=float(rng.uniform(0.03, 0.1)),
        shade=None,
        glare=None,
        cast=(float(cast[0]), float(cast[1]), float(cast[2])),
    )


@dataclass(frozen=True)
class Shadow:
    offset: tuple[float, float]  # in units of the card's size on screen
    blur: float  # likewise
    darkness: float


def _drop_shadow(
    rng: Rng,
    offset: tuple[float, float],
    blur: tuple[float, float],
    darkness: tuple[float, float],
) -> Shadow:
    """A shadow cast in a random direction, each measure drawn from its range."""
    a = rng.uniform(0, 2 * np.pi)
    r = rng.uniform(*offset)
    return Shadow(
        (float(r * np.cos(a)), float(r * np.sin(a))),
        float(rng.uniform(*blur)),
        float(rng.uniform(*darkness)),
    )


def random_shadow(rng: Rng) -> Shadow:
    return _drop_shadow(rng, offset=(0.0, 0.03), blur=(0.005, 0.03), darkness=(0.1, 0.5))


def mild_shadow(rng: Rng) -> Shadow:
    """A soft drop shadow under every card, as under a ceiling light."""
    return _drop_shadow(rng, offset=(0.004, 0.015), blur=(0.008, 0.02), darkness=(0.25, 0.4))


@dataclass(frozen=True, eq=False)
class Scene:
    width: int
    height: int
    background: np.ndarray  # H x W x 3 float32, scene pixels
    sprites: tuple[CardSprite, ...]  # drawing order
    light: Light
    shadow: Shadow


@dataclass(frozen=True, eq=False)
class Drawn:
    image: np.ndarray  # float32 BGR in [0, 1], before the camera
    top: np.ndarray  # int16: index of the top-most sprite per pixel, -1 for the table


def draw(scene: Scene, view: np.ndarray, width: int, height: int) -> Drawn:
    """Draw the scene through `view` (scene pixels -> output pixels) into width x height."""
    image = cv2.warpPerspective(
        scene.background,
        view,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )
    top = np.full((height, width), -1, np.int16)
    for i, sprite in enumerate(scene.sprites):
        _draw_sprite(image, top, i, sprite, view, scene.shadow)
    ys, xs = _scene_grid(view, width, height)
    image *= scene.light.field(xs, ys)
    glare = scene.light.glare_at(xs, ys)
    if glare is not None:
        image += glare[..., None]
    return Drawn(image, top)


def _scene_grid(view: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Scene coordinates of the output pixels (views are affine here, so this is exact)."""
    inverse = np.linalg.inv(view)
    xs, ys = np.meshgrid(np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32))
    sx = inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]
    sy = inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]
    return sy.astype(np.float32), sx.astype(np.float32)


def _draw_sprite(
    image: np.ndarray, top: np.ndarray, i: int, sprite: CardSprite, view: np.ndarray, shadow: Shadow
) -> None:
    h_out, w_out = image.shape[:2]
    full = view @ sprite.to_scene
    corners = apply(full, np.array([[0, 0], [1, 0], [1, 1], [0, 1]]) * sprite.size)
    card_size = float(np.sqrt(max(cv2.contourArea(corners.astype(np.float32)), 1.0)))
    margin = card_size * (np.hypot(*shadow.offset) + 2 * shadow.blur) + 2
    x0, y0 = np.floor(corners.min(axis=0) - margin).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + margin).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w_out), min(y1, h_out)
    if x1 <= x0 or y1 <= y0:
        return
    level = _level(sprite, card_size)
    art = sprite.pyramid[level]
    local = translation_matrix(-x0, -y0) @ full @ np.diag([2.0**level, 2.0**level, 1.0])
    warped = cv2.warpPerspective(
        art,
        local,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    warped = warped.astype(np.float32) * (1 / 255)
    alpha = warped[:, :, 3]
    region = image[y0:y1, x0:x1]
    if shadow.darkness > 0:
        dx, dy = shadow.offset[0] * card_size, shadow.offset[1] * card_size
        shift = np.float32([[1, 0, dx], [0, 1, dy]])
        shade = cv2.warpAffine(alpha, shift, (x1 - x0, y1 - y0))
        sigma = max(0.5, shadow.blur * card_size)
        shade = cv2.GaussianBlur(shade, (0, 0), sigma)
        region *= (1 - shadow.darkness * shade)[..., None]
    region[:] = region * (1 - alpha[..., None]) + warped[:, :, :3] * alpha[..., None]
    top[y0:y1, x0:x1][alpha > 0.5] = i


def _level(sprite: CardSprite, card_size_on_screen: float) -> int:
    w, h = sprite.size
    ratio = np.sqrt(w * h) / max(card_size_on_screen, 1.0)
    level = int(np.floor(np.log2(max(ratio, 1.0))))
    return min(level, len(sprite.pyramid) - 1)


def translation_matrix(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def make_pyramid(bgra: np.ndarray, levels: int = 5) -> tuple[np.ndarray, ...]:
    """The uint8 BGRA art and its halvings (`levels` sizes in all)."""
    out = [bgra]
    for _ in range(levels - 1):
        h, w = out[-1].shape[:2]
        if min(h, w) < 16:
            break
        out.append(cv2.resize(out[-1], (w // 2, h // 2), interpolation=cv2.INTER_AREA))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# the camera's sensor


@dataclass(frozen=True)
class Sensor:
    """What the phone's camera does to the light: blur, noise (JPEG is applied when writing)."""

    blur: float  # Gaussian sigma in output pixels
    motion: int  # motion blur length (0: none)
    motion_angle: float
    noise: float  # Gaussian noise sigma, 0-1 scale
    jpeg_quality: int


def random_sensor(rng: Rng, max_blur: float = 1.3) -> Sensor:
    blur = float(rng.uniform(0, max_blur)) if rng.random() < 0.7 else 0.0
    motion = int(rng.integers(3, 8)) if rng.random() < 0.1 else 0
    return Sensor(
        blur=blur,
        motion=motion,
        motion_angle=float(rng.uniform(0, 180)),
        noise=float(rng.uniform(0.002, 0.035)),
        jpeg_quality=int(rng.integers(40, 96)),
    )


def mild_sensor(rng: Rng) -> Sensor:
    """A good phone camera in good light: a little softness and noise, no motion blur."""
    return Sensor(
        blur=float(rng.uniform(0.3, 0.7)),
        motion=0,
        motion_angle=0.0,
        noise=float(rng.uniform(0.004, 0.01)),
        jpeg_quality=90,
    )


def expose(image: np.ndarray, sensor: Sensor, rng: Rng) -> np.ndarray:
    """The camera's blur and noise; returns uint8 BGR (JPEG is applied when writing)."""
    out = image
    if sensor.blur > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sensor.blur)
    if sensor.motion:
        out = streaked(out, sensor.motion, sensor.motion_angle)
    out = out + rng.normal(0, sensor.noise, out.shape).astype(np.float32)
    return (out.clip(0, 1) * 255 + 0.5).astype(np.uint8)


def streaked(image: np.ndarray, length: int, angle: float) -> np.ndarray:
    """The picture smeared along a line `length` pixels long at `angle` degrees: a camera
    moved while the shutter was open."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    centre = ((length - 1) / 2, (length - 1) / 2)
    turn = cv2.getRotationMatrix2D(centre, angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()
