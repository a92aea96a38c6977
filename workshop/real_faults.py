"""Real photos given the camera faults real photos nobody here took have, to see which one costs.

    .venv/bin/python workshop/real_faults.py OUT SET [SET ...] [--faults NAME,NAME]
    .venv/bin/blackcat evaluate --real OUT/SET-FAULT ...

Writes, for each real-photo set (a folder with `labels.json` and `images/`) and each fault, a set
`OUT/<set>-<fault>` with every photo given that fault and its labelled boxes moved with it.
The sets are for measuring only, like the photos they come from: keep them out of the repository
and never train on them.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from blackcat.vision.tilt import turned_square
from blackcat.vision.types import Box
from blackcat.workshop.synth.realism import CASTS, Realism, blurred
from blackcat.workshop.synth.render import encode_jpeg
from blackcat.workshop.synth.styles import DARK_INKS, dark_faced


@dataclass(frozen=True)
class Faulted:
    image: np.ndarray  # BGR
    boxes: list[Box]


Fault = Callable[[np.ndarray, list[Box], np.random.Generator], Faulted]


def _gains(blue: float, green: float, red: float) -> Fault:
    def fault(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
        scaled = image.astype(np.float32) * np.array([blue, green, red], np.float32)
        return Faulted(np.clip(scaled, 0, 255).astype(np.uint8), boxes)

    return fault


def _cast(name: str) -> Fault:
    """A light's colour cast as training scenes draw it at full strength (`realism.CASTS`)."""
    gains = np.array(CASTS[name])
    return _gains(*(gains / gains.max()))


def _dim(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
    """A dim room: a third of the light and the sensor's noise made visible by the phone's gain."""
    dark = image.astype(np.float32) * 0.33 + rng.normal(0, 4, image.shape)
    lifted = np.clip(dark * 2.4, 0, 255)
    return Faulted(lifted.astype(np.uint8), boxes)


def _sensor_noise(
    image: np.ndarray, grey: float, colour: float, rng: np.random.Generator
) -> np.ndarray:
    """The image with a sensor's noise: GREY levels alike in every channel, COLOUR apart."""
    noisy = image.astype(np.float32) + rng.normal(0, grey, image.shape[:2])[..., None]
    noisy += rng.normal(0, colour, image.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _speckle(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
    return Faulted(_sensor_noise(image, 14, 8, rng), boxes)


def _jpeg(quality: int) -> Fault:
    def fault(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
        encoded = np.frombuffer(encode_jpeg(image, quality), np.uint8)
        return Faulted(cv2.imdecode(encoded, cv2.IMREAD_COLOR), boxes)

    return fault


def _blur(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
    return Faulted(blurred(image, Realism(focus_blur=0.0015)), boxes)


def _resized(width: int, height: int) -> Fault:
    """The photo resized to WIDTHxHEIGHT, squeezed where the shapes differ (webcam frames)."""

    def fault(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
        sx, sy = width / image.shape[1], height / image.shape[0]
        resized = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
        return Faulted(resized, [(x0 * sx, y0 * sy, x1 * sx, y1 * sy) for x0, y0, x1, y1 in boxes])

    return fault


def _video_640(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
    """A 640x640 webcam frame squeezed from a wider one, speckled and compressed as video is."""
    frame = _resized(640, 640)(image, boxes, rng)
    speckled = _speckle(frame.image, frame.boxes, rng)
    return _jpeg(35)(speckled.image, speckled.boxes, rng)


def _webcam_1080(scale: float) -> Fault:
    """A 1920x1080 webcam frame: the photo scaled by SCALE (enlarged: a webcam's soft detail),
    or less where it would not fit, centred, the table carried on to the frame's edges, a
    webcam's mild noise and compression."""

    def fault(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
        fitting = min(scale, 1920 / image.shape[1], 1080 / image.shape[0])
        width, height = round(image.shape[1] * fitting), round(image.shape[0] * fitting)
        scaled = cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)
        left, top = (1920 - width) // 2, (1080 - height) // 2
        framed = cv2.copyMakeBorder(
            scaled, top, 1080 - height - top, left, 1920 - width - left, cv2.BORDER_REPLICATE
        )
        moved = [
            (x0 * fitting + left, y0 * fitting + top, x1 * fitting + left, y1 * fitting + top)
            for x0, y0, x1, y1 in boxes
        ]
        return _jpeg(70)(_sensor_noise(framed, 5, 3, rng), moved, rng)

    return fault


def _turned(degrees: float) -> Fault:
    """The photo turned on its centre by DEGREES anticlockwise, the canvas grown to hold it all
    (as the reader turns a tilted photo square: `tilt.turned_square`)."""

    def fault(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
        turned, matrix = turned_square(image, -degrees)
        return Faulted(turned, [_turned_box(box, matrix) for box in boxes])

    return fault


def _turned_box(box: Box, matrix: np.ndarray) -> Box:
    x0, y0, x1, y1 = box
    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], np.float64)
    moved = corners @ matrix.T
    return (*moved.min(axis=0), *moved.max(axis=0))


def _negative(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
    """Light ink on dark faces: the colours turned to their opposites, as a dark-faced deck is."""
    return Faulted(255 - image, boxes)


def _dark_deck(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
    """The cards as a dark-faced deck's (`dark_deck`), in a metal ink drawn at random, red kept
    or not, as `blackcat synth` draws the style."""
    ink = str(rng.choice(sorted(DARK_INKS)))
    return Faulted(dark_deck(image, boxes, ink, keep_red=bool(rng.random() < 0.6)), boxes)


def _dark_deck_glare(image: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> Faulted:
    """A dark-faced deck's glossy faces under a lamp: `_dark_deck`, then on about half of the
    cards a soft patch of the lamp's reflection (an ellipse a fifth to half the card's box
    across, turning the face and its ink a light grey by up to 85%)."""
    dark = _dark_deck(image, boxes, rng).image.astype(np.float32)
    reflection = np.zeros(image.shape[:2], np.float32)
    for x0, y0, x1, y1 in boxes:
        if rng.random() < 0.5:
            continue
        width, height = x1 - x0, y1 - y0
        centre = (round(rng.uniform(x0, x1)), round(rng.uniform(y0, y1)))
        axes = (round(width * rng.uniform(0.1, 0.25)), round(height * rng.uniform(0.1, 0.25)))
        patch = np.zeros_like(reflection)
        cv2.ellipse(patch, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        soft = cv2.GaussianBlur(patch, (0, 0), max(2.0, 0.3 * min(axes)))
        reflection = np.maximum(reflection, soft * rng.uniform(0.5, 0.85))
    glare = reflection[..., None]
    out = dark * (1 - glare) + 235.0 * glare
    return Faulted(np.clip(out, 0, 255).astype(np.uint8), boxes)


def dark_deck(image: np.ndarray, boxes: list[Box], ink: str, keep_red: bool) -> np.ndarray:
    """The photo (BGR) with the cards in `boxes` as a dark-faced deck's, the rest as it was (a
    negative turns the table too): each card's face printed in negative in the metal `ink`
    (`styles.DARK_INKS`), red kept as red or not (`styles.dark_faced`), under the light that
    fell on its paper."""
    faces = _card_faces(image, boxes)
    if not faces.any():
        return image
    # the paper's own light at each pixel: the brightest face pixel near it (ink is darker)
    on_faces = np.where(faces[..., None], image, 0).astype(np.float32)
    reach = max(9, round(0.01 * max(image.shape[:2])) | 1)
    paper = cv2.dilate(on_faces, np.ones((reach, reach), np.uint8))
    paper = np.maximum(cv2.GaussianBlur(paper, (0, 0), reach), 1.0)
    whitened = np.clip(image.astype(np.float32) / paper * 255, 0, 255).astype(np.uint8)
    opaque = np.full((*image.shape[:2], 1), 255, np.uint8)
    dark = dark_faced(np.dstack([whitened, opaque]), DARK_INKS[ink], keep_red)
    lit = dark[..., :3].astype(np.float32) * (paper.max(axis=2, keepdims=True) / 255)
    blend = cv2.GaussianBlur(faces.astype(np.float32), (0, 0), 1.5)[..., None]
    out = image.astype(np.float32) * (1 - blend) + lit * blend
    return np.clip(out, 0, 255).astype(np.uint8)


def _card_faces(image: np.ndarray, boxes: list[Box]) -> np.ndarray:
    """Where the labelled cards' faces lie (a bool mask): in each card's box, the convex hull of
    the large bright parts (its paper; a box also holds table and its neighbours' corners)."""
    faces = np.zeros(image.shape[:2], bool)
    height, width = image.shape[:2]
    for box in boxes:
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(width, int(np.ceil(box[2]))), min(height, int(np.ceil(box[3])))
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        grey = image[y0:y1, x0:x1].min(axis=2)
        _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(bright)
        large = [n for n in range(1, count) if stats[n, cv2.CC_STAT_AREA] >= 0.1 * grey.size]
        if not large:
            continue
        points = np.column_stack(np.nonzero(np.isin(labels, large))[::-1]).astype(np.int32)
        hull = np.zeros(grey.shape, np.uint8)
        cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
        faces[y0:y1, x0:x1] |= hull.astype(bool)
    return faces


FAULTS: dict[str, Fault] = {
    "tungsten": _cast("tungsten"),
    "shade": _cast("daylight_shade"),
    "fluorescent": _cast("fluorescent"),
    "dim": _dim,
    "bright": _gains(1.6, 1.6, 1.6),
    "speckle": _speckle,
    "jpeg15": _jpeg(15),
    "blur": _blur,
    "small640": _resized(640, 480),
    "square640": _resized(640, 640),
    "video640": _video_640,
    "webcam1080": _webcam_1080(1.5),
    "webcam1080small": _webcam_1080(1.0),
    "turned15": _turned(15),
    "turned30": _turned(30),
    "turned45": _turned(45),
    "turned60": _turned(60),
    "negative": _negative,
    "dark_deck": _dark_deck,
    "dark_deck_glare": _dark_deck_glare,
}


def write_faulted_set(source: Path, out: Path, fault_name: str, seed: int = 0) -> int:
    """SOURCE's photos given FAULT_NAME into OUT (images/ and labels.json); returns the count."""
    fault = FAULTS[fault_name]
    labels = json.loads((source / "labels.json").read_text())
    (out / "images").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    moved = {}
    for name, entries in sorted(labels.items()):
        image = cv2.imread(str(source / "images" / name), cv2.IMREAD_COLOR)
        faulted = fault(image, [tuple(entry["box"]) for entry in entries], rng)
        cv2.imwrite(str(out / "images" / Path(name).with_suffix(".png").name), faulted.image)
        moved[Path(name).with_suffix(".png").name] = [
            {**entry, "box": [round(float(v), 1) for v in box]}
            for entry, box in zip(entries, faulted.boxes, strict=True)
        ]
    (out / "labels.json").write_text(json.dumps(moved))
    return len(moved)


def fault_names(text: str) -> list[str]:
    """An argparse type: comma-separated names of FAULTS."""
    names = [name for name in text.split(",") if name]
    unknown = [name for name in names if name not in FAULTS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"no fault {', '.join(unknown) or repr(text)}; the faults are {', '.join(FAULTS)}"
        )
    return names


def labelled_set(text: str) -> Path:
    """An argparse type: a folder of real photos (labels.json and images/)."""
    folder = Path(text)
    if not (folder / "labels.json").is_file():
        raise argparse.ArgumentTypeError(f"no labels.json in {folder}: give a set's folder")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("sets", type=labelled_set, nargs="+")
    parser.add_argument(
        "--faults",
        type=fault_names,
        default=list(FAULTS),
        help=f"comma-separated fault names (default every one: {','.join(FAULTS)})",
    )
    args = parser.parse_args()
    for source in args.sets:
        for fault_name in args.faults:
            count = write_faulted_set(source, args.out / f"{source.name}-{fault_name}", fault_name)
            print(f"{source.name}-{fault_name}: {count} photos")


if __name__ == "__main__":
    main()
