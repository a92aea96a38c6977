"""Export the trained weights for the lean runtime: `models/*.pt` -> `models/*.onnx`.

Ultralytics' own exporter writes each ONNX file beside its weights, with the class names, the
image size and the stride in the file's metadata, which is all the runtime reader
(`blackcat.vision.onnx_models`) needs. The detector is exported with dynamic input sizes, so the
runtime feeds it the same minimal letterbox as Ultralytics' own predictor (and a larger picture for
the second pass on small indices); the classifier with a dynamic batch, so one run reads every crop.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from blackcat.vision.reader import (
    CLASSIFIER_WEIGHTS,
    DETECTOR_WEIGHTS,
    MODELS_DIR,
    SUIT_CLASSIFIER_WEIGHTS,
    TABLE_CLASSIFIER_WEIGHTS,
    TABLE_DETECTOR_WEIGHTS,
)
from blackcat.workshop.ultralytics_models import (
    UnreadableWeightsError,
    load_weights,
    trained_size,
)

ONNX_OPSET = 17  # well inside what onnxruntime >= 1.17 runs


@dataclass(frozen=True)
class Exported:
    weights: Path
    onnx: Path
    imgsz: int


OPTIONAL_MODELS = (
    (TABLE_DETECTOR_WEIGHTS, "detect"),
    (TABLE_CLASSIFIER_WEIGHTS, "classify"),
    (SUIT_CLASSIFIER_WEIGHTS, "classify"),
)
"""The models exported where their weights are there, and their tasks."""


def export_models(models_dir: Path = MODELS_DIR) -> list[Exported]:
    """The models exported to ONNX beside their weights (the table detector, the table
    classifier and the suit classifier where there are ones); the paths written."""
    optional = [(models_dir / weights, task) for weights, task in OPTIONAL_MODELS]
    return [
        export_one(models_dir / DETECTOR_WEIGHTS, task="detect"),
        export_one(models_dir / CLASSIFIER_WEIGHTS, task="classify"),
        *(export_one(weights, task=task) for weights, task in optional if weights.is_file()),
    ]


def export_one(weights: Path, task: str) -> Exported:
    """`weights` exported to ONNX beside them. Ultralytics writes the file beside the weights it
    is given, so it is given a copy in a temporary folder, and the finished file moved into
    place: an export cut off midway leaves the previous model as it was."""
    if not weights.is_file():
        raise FileNotFoundError(f"no weights to export: {weights}")
    onnx_path = weights.with_suffix(".onnx")
    with tempfile.TemporaryDirectory(dir=weights.parent, prefix=".export-") as folder:
        copy = Path(folder) / weights.name
        shutil.copyfile(weights, copy)
        try:
            model = load_weights(copy, task)
        except UnreadableWeightsError:
            raise UnreadableWeightsError(weights) from None  # named as given, not its copy
        imgsz = trained_size(model, default=640)
        with contextlib.redirect_stdout(sys.stderr):  # the exporter logs to stdout
            written = model.export(
                format="onnx",
                imgsz=imgsz,
                dynamic=True,
                simplify=True,
                opset=ONNX_OPSET,
                device="cpu",
            )
        os.replace(written, onnx_path)
    return Exported(weights, onnx_path, imgsz)
