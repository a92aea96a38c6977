"""Procedural table surfaces: wood, felt, cloth, cork, noise, plain; plus clutter on the table.

All functions return float32 BGR images in [0, 1] of the asked size, and draw only from `rng`.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Rng = np.random.Generator


def value_noise(rng: Rng, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth noise in [0, 1] with features about `cell` pixels across."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    grid = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def fractal_noise(rng: Rng, h: int, w: int, cell: float, octaves: int = 4) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        out += amp * value_noise(rng, h, w, max(cell, 1.5))
        total += amp
        amp *= 0.5
        cell /= 2
    return out / total


def _colour(rng: Rng, base: tuple[float, float, float], spread: float) -> np.ndarray:
    """A BGR colour near `base` (given as RGB in 0-255)."""
    rgb = np.array(base, np.float32) / 255 + rng.normal(0, spread, 3).astype(np.float32)
    return rgb[::-1].clip(0, 1)


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    return a * (1 - t[..., None]) + b * t[..., None]


def wood(rng: Rng, h: int, w: int) -> np.ndarray:
    along_x = rng.random() < 0.5
    hh, ww = (h, w) if along_x else (w, h)
    light = _colour(
        rng, rng.choice([(196, 150, 100), (170, 120, 75), (222, 190, 140), (120, 80, 50)]), 0.05
    )
    dark = light * rng.uniform(0.45, 0.75)
    warp = fractal_noise(rng, hh, ww, rng.uniform(40, 160)) * rng.uniform(2, 8)
    ys = np.linspace(0, rng.uniform(6, 30), hh, dtype=np.float32)[:, None]
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (ys + warp))
    grain = cv2.resize(rng.random((hh, max(2, ww // 40)), dtype=np.float32), (ww, hh))
    t = (0.6 * rings**2 + 0.4 * grain).astype(np.float32)
    image = _mix(light, dark, t)
    if rng.random() < 0.5:  # planks
        plank = int(rng.uniform(0.12, 0.4) * hh)
        for y in range(plank, hh, plank):
            image[y : y + 2] *= 0.55
    return image if along_x else np.ascontiguousarray(image.transpose(1, 0, 2))


def planks(rng: Rng, h: int, w: int) -> np.ndarray:
    """A wooden table top of planks, each with its own tint and long, gently wavy grain (for
    photo-like scenes at any size: the grain scales with the picture)."""
    along_x = rng.random() < 0.5
    hh, ww = (h, w) if along_x else (w, h)
    base = _colour(
        rng, rng.choice([(190, 140, 95), (170, 120, 80), (215, 180, 135), (125, 85, 55)]), 0.02
    )
    short = min(h, w)
    out = np.empty((hh, ww, 3), np.float32)
    y = 0
    while y < hh:
        ph = min(hh - y, max(4, int(rng.uniform(0.14, 0.3) * short)))
        if hh - y - ph < 0.05 * short:
            ph = hh - y
        light = base * rng.uniform(0.9, 1.1) * rng.uniform(0.98, 1.02, 3).astype(np.float32)
        dark = light * rng.uniform(0.6, 0.78)
        warp = fractal_noise(rng, ph, max(2, ww // 10), rng.uniform(4, 12), 3)
        warp = cv2.resize(warp, (ww, ph), interpolation=cv2.INTER_CUBIC) * rng.uniform(1, 2.5)
        periods = rng.uniform(5, 12) * ph / (0.2 * short)
        ys = np.linspace(0, periods, ph, dtype=np.float32)[:, None]
        lines = 0.5 + 0.5 * np.sin(2 * np.pi * (ys + warp))
        streak = cv2.resize(rng.random((ph, max(2, ww // 60)), dtype=np.float32), (ww, ph))
        t = (0.55 * lines**4 + 0.45 * streak**2).astype(np.float32)
        out[y : y + ph] = _mix(light, dark, t)
        out[y : y + max(1, short // 400)] *= 0.5  # the seam
        y += ph
    return out if along_x else np.ascontiguousarray(out.transpose(1, 0, 2))


def felt(rng: Rng, h: int, w: int) -> np.ndarray:
    base = _colour(
        rng,
        rng.choice(
            [(30, 110, 60), (20, 80, 45), (40, 60, 120), (120, 30, 35), (70, 70, 70), (25, 25, 30)]
        ),
        0.04,
    )
    shade = 1 + 0.12 * (fractal_noise(rng, h, w, rng.uniform(60, 200)) - 0.5)
    fine = 1 + 0.08 * (rng.random((h, w), dtype=np.float32) - 0.5)
    return base * (shade * fine)[..., None]


def cloth(rng: Rng, h: int, w: int) -> np.ndarray:
    a = _colour(rng, tuple(rng.uniform(40, 240, 3)), 0.0)
    b = a * rng.uniform(0.5, 0.9)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2.5, 6)
    weave = 0.5 + 0.25 * (np.sin(xs * 2 * np.pi / period) * np.sin(ys * 2 * np.pi / period))
    image = _mix(a, b, weave.astype(np.float32))
    if rng.random() < 0.5:  # gingham or stripes
        c = _colour(rng, tuple(rng.uniform(40, 240, 3)), 0.0)
        size = rng.uniform(12, 60)
        stripes_x = (np.floor(xs / size) % 2).astype(np.float32)
        stripes_y = (np.floor(ys / size) % 2).astype(np.float32) if rng.random() < 0.6 else 0
        image = _mix(image, c * weave[..., None] * 1.6, 0.45 * np.maximum(stripes_x, stripes_y))
    return image


def cork(rng: Rng, h: int, w: int) -> np.ndarray:
    base = _colour(rng, (190, 140, 90), 0.05)
    speck = rng.random((h, w), dtype=np.float32)
    speck = cv2.GaussianBlur(speck, (0, 0), rng.uniform(0.6, 1.5))
    speck = (speck - speck.mean()) / (speck.std() + 1e-6)
    blotch = fractal_noise(rng, h, w, rng.uniform(8, 30), 3)
    t = (0.5 + 0.18 * speck + 0.4 * (blotch - 0.5)).clip(0, 1)
    return _mix(base * 1.15, base * 0.55, t)


def noise(rng: Rng, h: int, w: int) -> np.ndarray:
    layers = [fractal_noise(rng, h, w, rng.uniform(10, 200), 5) for _ in range(3)]
    image = np.dstack(layers)
    image = (image - image.mean(axis=(0, 1))) * rng.uniform(0.8, 2.5) + rng.uniform(0.15, 0.85, 3)
    return image.astype(np.float32)


def plain(rng: Rng, h: int, w: int) -> np.ndarray:
    grey = rng.random() < 0.5
    level = rng.choice([rng.uniform(0.05, 0.3), rng.uniform(0.7, 0.97)])
    base = np.full(3, level, np.float32) if grey else rng.uniform(0.1, 0.9, 3).astype(np.float32)
    shade = 1 + 0.06 * (fractal_noise(rng, h, w, rng.uniform(50, 300)) - 0.5)
    return base * shade[..., None]


SURFACES: dict[str, Callable[[Rng, int, int], np.ndarray]] = {
    "wood": wood,
    "felt": felt,
    "cloth": cloth,
    "cork": cork,
    "noise": noise,
    "plain": plain,
}
PHOTO_SURFACES: dict[str, Callable[[Rng, int, int], np.ndarray]] = {**SURFACES, "wood": planks}
"""For example photos: wood as planks (the training scenes keep their own wood)."""
SURFACE_WEIGHTS: dict[str, float] = {
    "wood": 0.3,
    "felt": 0.15,
    "cloth": 0.2,
    "cork": 0.08,
    "noise": 0.12,
    "plain": 0.15,
}


def table_surface(
    rng: Rng,
    h: int,
    w: int,
    name: str | None = None,
    clutter: bool = True,
    surfaces: dict[str, Callable[[Rng, int, int], np.ndarray]] = SURFACES,
) -> tuple[str, np.ndarray]:
    """A table of surface `name` (one of `surfaces`; drawn by SURFACE_WEIGHTS when None), with
    now and then some clutter on it unless `clutter` is False."""
    if name is None:
        names = list(SURFACE_WEIGHTS)
        weights = np.array([SURFACE_WEIGHTS[n] for n in names])
        name = str(rng.choice(names, p=weights / weights.sum()))
    elif name not in surfaces:
        raise ValueError(f"unknown surface {name!r}; known: {', '.join(surfaces)}")
    image = surfaces[name](rng, h, w)
    if clutter:
        image = add_clutter(rng, image)
    return name, np.ascontiguousarray(image.clip(0, 1), dtype=np.float32)


def add_clutter(rng: Rng, image: np.ndarray) -> np.ndarray:
    """Now and then a few plain shapes on the table (a phone, a coaster, a sheet of paper)."""
    if rng.random() > 0.35:
        return image
    h, w = image.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        colour = tuple(float(c) for c in rng.uniform(0, 1, 3))
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        size = (int(rng.uniform(0.05, 0.3) * w), int(rng.uniform(0.05, 0.3) * h))
        angle = float(rng.uniform(0, 180))
        if rng.random() < 0.5:
            cv2.ellipse(image, centre, size, angle, 0, 360, colour, -1, cv2.LINE_AA)
        else:
            box = cv2.boxPoints((centre, size, angle)).astype(np.int32)
            cv2.fillConvexPoly(image, box, colour, cv2.LINE_AA)
    return image
