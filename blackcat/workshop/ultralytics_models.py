"""The trained weights (`models/*.pt`) under Ultralytics and PyTorch, behind the same interface
as the runtime's ONNX models, so the workshop can read photos with either and compare them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from blackcat.vision.calibration import load_calibration, load_table_threshold
from blackcat.vision.onnx_models import cleaned_classifier_views
from blackcat.vision.reader import (
    CLASSIFIER_WEIGHTS,
    DETECTOR_WEIGHTS,
    MODELS_DIR,
    WEIGHTS_MISSING,
    CardReader,
    ModelsMissingError,
    ReaderSettings,
)

if TYPE_CHECKING:
    from ultralytics import YOLO


DAMAGED = "these weights can't be loaded (empty, cut short or damaged)"
NOT_WEIGHTS = "not a weights file (the name of one ends .pt)"


class UnreadableWeightsError(Exception):
    """Weights Ultralytics can't load: an empty, cut short or damaged file, or no checkpoint;
    `why`: DAMAGED or NOT_WEIGHTS."""

    def __init__(self, path: Path, why: str = DAMAGED) -> None:
        super().__init__(f"{path}: {why}")
        self.path = path


WEIGHTS_SUFFIX = ".pt"
"""Ultralytics loads a checkpoint only from a file so named: any other it takes for a model of
another format (a text file for an exported model, a .yaml for a new untrained one)."""


def load_weights(path: Path, task: str | None = None) -> YOLO:
    """The weights in the file at `path` under Ultralytics (None `task`: as they say);
    UnreadableWeightsError where they can't be loaded, or the file is no weights file."""
    from blackcat.workshop.ultralytics_setup import prepare_ultralytics

    if path.suffix.lower() != WEIGHTS_SUFFIX:
        raise UnreadableWeightsError(path, NOT_WEIGHTS)
    prepare_ultralytics()  # quiet on stdout, analytics off: before any Ultralytics code runs
    from ultralytics import YOLO

    try:
        return YOLO(str(path), task=task)
    except Exception as error:  # Ultralytics' own: a TypeError naming the unpickling error
        raise UnreadableWeightsError(path) from error


def trained_size(model: YOLO, default: int) -> int:
    """The image size the weights were trained at, from their checkpoint."""
    trained_at = (getattr(model, "ckpt", None) or {}).get("train_args", {}).get("imgsz")
    return int(trained_at or default)


class UltralyticsDetector:
    def __init__(self, path: Path) -> None:
        self.model = load_weights(path, "detect")

    @property
    def trained_size(self) -> int:
        return trained_size(self.model, default=640)

    def detect(
        self, picture: np.ndarray, size: int, confidence: float
    ) -> tuple[np.ndarray, np.ndarray]:
        result = self.model.predict(
            cv2.cvtColor(picture, cv2.COLOR_RGB2BGR), imgsz=size, conf=confidence, verbose=False
        )[0]
        return result.boxes.xyxy.cpu().numpy(), result.boxes.conf.cpu().numpy()


class UltralyticsClassifier:
    def __init__(self, path: Path) -> None:
        self.model = load_weights(path, "classify")
        self.size = trained_size(self.model, default=64)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.model.names[i] for i in range(len(self.model.names)))

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        if not crops:
            return np.zeros((0, len(self.names)), dtype=np.float32)
        # seen as the runtime sees them, so Ultralytics' own resize leaves them as they are
        square = (self.size, self.size)
        views = cleaned_classifier_views(crops, square)
        bgr = [cv2.cvtColor(view, cv2.COLOR_RGB2BGR) for view in views]
        results = self.model.predict(bgr, imgsz=self.size, verbose=False)
        return np.stack([result.probs.data.cpu().numpy() for result in results])


def load_ultralytics_reader(
    models_dir: Path | str = MODELS_DIR, settings: ReaderSettings | None = None
) -> CardReader:
    """The reader on the `.pt` weights under Ultralytics (the workshop's reference)."""
    models_dir = Path(models_dir)
    paths = [models_dir / DETECTOR_WEIGHTS, models_dir / CLASSIFIER_WEIGHTS]
    missing = [str(path) for path in paths if not path.is_file()]
    if missing:
        raise ModelsMissingError(missing, WEIGHTS_MISSING)
    return CardReader(
        UltralyticsDetector(paths[0]),
        UltralyticsClassifier(paths[1]),
        settings,
        load_calibration(models_dir),
        table_doubtful_below=load_table_threshold(models_dir),
    )
