"""The photo reader: detect corner indices, classify them, lay the cards out in piles.

Two Ultralytics YOLO models: a one-class detector that finds every visible corner index on a
downscaled copy of the photo, and a 52-class classifier that reads each index from a crop of the
full-resolution photo. The layout step (`layout.arrange`) turns the reads into ordered piles.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from blackcat.games.cards import ALL_CARDS
from blackcat.vision.calibration import UNCALIBRATED, Calibration, load_calibration
from blackcat.vision.classes import QUARTER_TURNS, IndexClass, parse_class_name
from blackcat.vision.layout import arrange
from blackcat.vision.types import Box, Guess, IndexRead, PhotoRead

if TYPE_CHECKING:
    from ultralytics import YOLO

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
DETECTOR_FILE = "index_detector.pt"
CLASSIFIER_FILE = "card_classifier.pt"


@dataclass(frozen=True)
class ReaderSettings:
    detect_size: int | None = None  # long side the detector sees; None: its training size
    detect_confidence: float = 0.25
    crop_padding: float = 0.15  # each side, as a fraction of the longer side: 1.3x, as in synth
    classify_size: int = 64
    top_guesses: int = 3


@dataclass
class Timings:
    """Seconds spent in each stage of the last read, for benchmarks."""

    stages: dict[str, float] = field(default_factory=dict)


class ModelsMissingError(FileNotFoundError):
    """The trained weights are not where the reader looks for them."""


class CardReader:
    """Reads photos of piles. Load once (`CardReader.load()`), then call `read` per photo."""

    def __init__(
        self,
        detector: YOLO,
        classifier: YOLO,
        settings: ReaderSettings,
        calibration: Calibration = UNCALIBRATED,
    ) -> None:
        self.detector = detector
        self.classifier = classifier
        self.settings = settings
        self.calibration = calibration
        self.class_tables = class_tables(
            [parse_class_name(classifier.names[i]) for i in range(len(classifier.names))]
        )
        self.timings = Timings()

    @classmethod
    def load(
        cls, models_dir: Path | str = MODELS_DIR, settings: ReaderSettings | None = None
    ) -> CardReader:
        models_dir = Path(models_dir)
        paths = [models_dir / DETECTOR_FILE, models_dir / CLASSIFIER_FILE]
        missing = [str(path) for path in paths if not path.is_file()]
        if missing:
            raise ModelsMissingError(
                f"trained model weights not found: {', '.join(missing)}; "
                "train them with `blackcat train` or restore models/ from the repository"
            )
        from blackcat.workshop.ultralytics_setup import prepare_ultralytics

        prepare_ultralytics()  # quiet on stdout, analytics off: before any Ultralytics code runs
        from ultralytics import YOLO  # after the check: importing it takes seconds

        detector = YOLO(str(paths[0]), task="detect")
        classifier = YOLO(str(paths[1]), task="classify")
        settings = settings or ReaderSettings()
        if settings.detect_size is None:
            trained_at = (getattr(detector, "ckpt", None) or {}).get("train_args", {}).get("imgsz")
            settings = replace(settings, detect_size=int(trained_at or 640))
        reader = cls(detector, classifier, settings, load_calibration(models_dir))
        reader.warm_up()
        return reader

    def warm_up(self) -> None:
        """One tiny read, so the first real photo doesn't pay for lazy initialisation."""
        self.read(np.full((64, 64, 3), 127, dtype=np.uint8))

    def read(self, image: np.ndarray, *, decks: int = 1) -> PhotoRead:
        """Piles of cards from an upright RGB photo."""
        started = time.perf_counter()
        boxes, confidences = self.detect(image)
        detected = time.perf_counter()
        reads = self.classify(image, boxes)
        classified = time.perf_counter()
        indices = [
            IndexRead(box, confidence, guesses, index_probability, orientations)
            for box, confidence, (guesses, index_probability, orientations) in zip(
                boxes, confidences, reads, strict=True
            )
        ]
        height, width = image.shape[:2]
        photo = arrange(
            indices, decks=decks, width=width, height=height, calibration=self.calibration
        )
        self.timings.stages = {
            "detect": detected - started,
            "classify": classified - detected,
            "layout": time.perf_counter() - classified,
        }
        return photo

    def detect(self, image: np.ndarray) -> tuple[list[Box], list[float]]:
        """Index boxes in full-resolution pixels, found on a downscaled copy."""
        size = self.settings.detect_size or 640
        small, factor = downscale(image, size)
        result = self.detector.predict(
            cv2.cvtColor(small, cv2.COLOR_RGB2BGR),
            imgsz=size,
            conf=self.settings.detect_confidence,
            verbose=False,
        )[0]
        xyxy = result.boxes.xyxy.cpu().numpy() / factor
        confidences = result.boxes.conf.cpu().numpy()
        boxes = [tuple(float(v) for v in row) for row in xyxy]
        return boxes, [float(c) for c in confidences]  # type: ignore[misc]

    def classify(self, image: np.ndarray, boxes: list[Box]) -> list[ClassifiedIndex]:
        """What each index box shows, all crops in one batch."""
        if not boxes:
            return []
        crops = [
            cv2.cvtColor(square_crop(image, box, self.settings.crop_padding), cv2.COLOR_RGB2BGR)
            for box in boxes
        ]
        results = self.classifier.predict(crops, imgsz=self.settings.classify_size, verbose=False)
        return [
            summarise(result.probs.data.cpu().numpy(), self.class_tables, self.settings.top_guesses)
            for result in results
        ]


ClassifiedIndex = tuple[tuple[Guess, ...], float, tuple[float, ...]]
"""A crop's top card guesses (given it is an index), the probability that it is an index, and
the probability of each quarter turn of its glyph (empty when the classifier doesn't tell)."""


ClassTables = tuple[np.ndarray, np.ndarray]
"""For each classifier class, its card's position in ALL_CARDS and its quarter turn (-1: none)."""


def summarise(probabilities: np.ndarray, tables: ClassTables, top: int) -> ClassifiedIndex:
    """The classifier's answer over (card, orientation) classes and "no index", as the card
    guesses, the index probability and the orientation probabilities."""
    cards_of, turns_of = tables
    is_card = cards_of >= 0
    cards = np.bincount(cards_of[is_card], probabilities[is_card], minlength=len(ALL_CARDS))
    index_probability = min(1.0, float(cards.sum()))
    scale = 1.0 / max(index_probability, 1e-9)
    best = np.argsort(-cards)[:top]
    guesses = tuple(Guess(ALL_CARDS[i], min(1.0, float(cards[i]) * scale)) for i in best)
    knows = turns_of >= 0
    if not knows.any():
        return guesses, index_probability, ()
    turns = np.bincount(turns_of[knows], probabilities[knows], minlength=QUARTER_TURNS) * scale
    return guesses, index_probability, tuple(float(v) for v in turns)


def class_tables(classes: list[IndexClass]) -> ClassTables:
    """The classes as lookup arrays, made once when the classifier is loaded."""
    position = {card: n for n, card in enumerate(ALL_CARDS)}
    cards_of = np.array([position[c.card] if c.card else -1 for c in classes], dtype=np.int64)
    turns_of = np.array(
        [c.orientation if c.orientation is not None else -1 for c in classes], dtype=np.int64
    )
    return cards_of, turns_of


def downscale(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """The image shrunk so its longer side is at most `long_side`, and the factor used."""
    height, width = image.shape[:2]
    factor = min(1.0, long_side / max(height, width))
    if factor == 1.0:
        return image, 1.0
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), factor


def square_crop(image: np.ndarray, box: Box, padding: float) -> np.ndarray:
    """A square crop centred on the box, its side the box's longer side plus padding; parts
    outside the photo are filled with the nearest edge pixels."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1) * (1 + 2 * padding)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    left, top = round(cx - side / 2), round(cy - side / 2)
    size = max(2, round(side))
    height, width = image.shape[:2]
    pad_left, pad_top = max(0, -left), max(0, -top)
    pad_right, pad_bottom = max(0, left + size - width), max(0, top + size - height)
    inside = image[max(0, top) : min(height, top + size), max(0, left) : min(width, left + size)]
    if pad_left or pad_top or pad_right or pad_bottom:
        inside = cv2.copyMakeBorder(
            inside, pad_top, pad_bottom, pad_left, pad_right, cv2.BORDER_REPLICATE
        )
    return inside
