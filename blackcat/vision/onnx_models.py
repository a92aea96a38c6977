"""The two models under ONNX Runtime: what reading a photo needs, without PyTorch or Ultralytics.

The ONNX files are exported from the trained weights by `blackcat export` (Ultralytics' own
exporter), which stores the class names, the image size and the stride in each file's metadata.
The pre- and post-processing here does what Ultralytics' predictors do for these models, so both
back ends give the same boxes and the same probabilities (a test holds them to that):
- detector: a minimal letterbox (scaled so the long side is the detection size, padded with grey
  to a multiple of the stride), one run, confidence filter, non-maximum suppression, boxes mapped
  back to the picture;
- classifier: each crop resized to the model's size (Pillow, bilinear), a faint or grainy one
  cleaned (`crop_pixels.cleaned`, the reader's own step, both back ends alike), one run for all
  crops.
"""

from __future__ import annotations

import ast
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

import numpy as np
from PIL import Image

from blackcat.vision.crop_pixels import cleaned_views
from blackcat.vision.parallel import usable_cores

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

PAD_VALUE = 114  # the grey Ultralytics pads with
NMS_IOU = 0.7  # Ultralytics' default overlap for suppression
MAX_DETECTIONS = 300
SPINNING_SETTING = "session.intra_op.allow_spinning"


@dataclass(frozen=True)
class ModelInfo:
    """What the exporter wrote into an ONNX file's metadata."""

    names: tuple[str, ...]
    imgsz: tuple[int, int]
    stride: int
    task: str


@dataclass(frozen=True)
class Letterbox:
    """How a picture was scaled and padded for the detector."""

    scale: float
    pad_left: int
    pad_top: int


def model_info(metadata: dict[str, str]) -> ModelInfo:
    """Class names, image size, stride and task from the exporter's metadata strings."""
    names = ast.literal_eval(metadata["names"])
    imgsz = ast.literal_eval(metadata.get("imgsz", "[640, 640]"))
    return ModelInfo(
        names=tuple(names[i] for i in range(len(names))),
        imgsz=(int(imgsz[0]), int(imgsz[1])),
        stride=int(metadata.get("stride", "32")),
        task=metadata.get("task", ""),
    )


def _session(path: Path, threads: int | None = None) -> InferenceSession:
    """An ONNX Runtime session on the CPU, its runs on `threads` threads (None: every core)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3  # errors only: its warnings are not the player's business
    options.intra_op_num_threads = threads or usable_cores()
    # Worker threads that spin while waiting for work take the cores everything else needs: our
    # own Python between two runs, and the app's server and browser on the same machine.
    # Measured on 2 cores: a 12 MP photo 82-97 ms instead of 115-121, the app's server 0.2 s
    # less CPU before its first page.
    options.add_session_config_entry(SPINNING_SETTING, "0")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class UnreadableModelError(Exception):
    """A model file ONNX Runtime can't load, or without the metadata our export writes (cut
    short, damaged, or not one of ours)."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path


class OnnxModel:
    """An exported model in an ONNX Runtime session, with what its metadata says of it."""

    def __init__(self, path: Path, threads: int | None = None) -> None:
        try:
            self.session = _session(path, threads)
            self.info = model_info(self.session.get_modelmeta().custom_metadata_map)
        except Exception as error:  # ONNX Runtime's own errors derive from Exception alone
            raise UnreadableModelError(path) from error
        self.input_name = self.session.get_inputs()[0].name


ModelT = TypeVar("ModelT", bound=OnnxModel)


class OnnxDetector(OnnxModel):
    """The index detector: boxes and confidences in the picture's pixels."""

    @property
    def trained_size(self) -> int:
        return max(self.info.imgsz)

    def detect(
        self, picture: np.ndarray, size: int, confidence: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """(n, 4) x1 y1 x2 y2 boxes and (n,) confidences, most confident first."""
        padded, box = letterbox(picture, size, self.info.stride)
        tensor = np.ascontiguousarray(padded.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        output = self.session.run(None, {self.input_name: tensor})[0][0]  # (4 + classes, anchors)
        return decode_detections(output, box, picture.shape[:2], confidence)


class _LoadedOnFirstUse(Generic[ModelT]):
    """An ONNX model loaded when first used: a model only some photos need costs nothing to the
    others. Loaded once, however many reads first ask for it at the same time."""

    def __init__(self, path: Path, threads: int | None = None) -> None:
        self.path = path
        self.threads = threads
        self._model: ModelT | None = None
        self._loading = threading.Lock()

    def _load(self) -> ModelT:
        raise NotImplementedError

    @property
    def is_loaded(self) -> bool:
        return self._model is not None

    @property
    def loaded(self) -> ModelT:
        with self._loading:
            if self._model is None:
                self._model = self._load()
            return self._model


def load_now(model: object) -> None:
    """Load `model` now where it is one loaded on first use (any other is loaded already):
    a damaged file raises UnreadableModelError here, not when a photo first needs it."""
    if isinstance(model, _LoadedOnFirstUse):
        model.loaded  # noqa: B018 - the property loads it


class LazyOnnxDetector(_LoadedOnFirstUse[OnnxDetector]):
    """An `OnnxDetector` loaded when first used (a whole table's)."""

    def _load(self) -> OnnxDetector:
        return OnnxDetector(self.path, self.threads)

    @property
    def trained_size(self) -> int:
        return self.loaded.trained_size

    def detect(
        self, picture: np.ndarray, size: int, confidence: float
    ) -> tuple[np.ndarray, np.ndarray]:
        return self.loaded.detect(picture, size, confidence)


class OnnxClassifier(OnnxModel):
    """The card classifier: a probability for each class, for each crop."""

    @property
    def names(self) -> tuple[str, ...]:
        return self.info.names

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """(len(crops), classes) probabilities of RGB crops."""
        if not crops:
            return np.zeros((0, len(self.names)), dtype=np.float32)
        height, width = self.info.imgsz
        batch = classifier_inputs(crops, (width, height))
        return self.session.run(None, {self.input_name: batch})[0]


class LazyOnnxClassifier(_LoadedOnFirstUse[OnnxClassifier]):
    """An `OnnxClassifier` loaded when first used (the suit-shape classifier, which only photos
    whose colours say nothing of the suits need)."""

    def _load(self) -> OnnxClassifier:
        return OnnxClassifier(self.path, self.threads)

    @property
    def names(self) -> tuple[str, ...]:
        return self.loaded.names

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        return self.loaded.probabilities(crops)


def classifier_inputs(crops: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """RGB crops as the classifier takes them (`cleaned_classifier_views`), one batch (crops, 3,
    height, width), channels first, in 0-1."""
    batch = np.ascontiguousarray(cleaned_classifier_views(crops, size).transpose(0, 3, 1, 2))
    scaled = batch.astype(np.float32)
    scaled /= 255.0
    return scaled


def cleaned_classifier_views(crops: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """The RGB pixels the classifier reads of each crop (`classifier_view`, `cleaned`), as one
    batch (crops, height, width, 3): cleaned together, as alone (`cleaned_views`)."""
    return cleaned_views(np.stack([classifier_view(crop, size) for crop in crops]))


def classifier_view(crop: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The pixels of an RGB crop the classifier sees: sized (`sized_for_classifier`) and
    centre-cropped to the size (width, height)."""
    sized = sized_for_classifier(crop, size)
    width, height = size
    left, top = (sized.shape[1] - width) // 2, (sized.shape[0] - height) // 2
    return sized[top : top + height, left : left + width, :3]


def sized_for_classifier(crop: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """An RGB crop resized so it just covers the classifier's input. A smaller crop is enlarged
    bicubically, as training drew its small crops (`blackcat synth`: OpenCV's bicubic up to the
    crop size); a larger one shrunk bilinearly, as Ultralytics does with Pillow. Bilinear
    enlarging blurred small indices: piles right on the test / calibration tables 0.863 / 0.875
    with it, 0.877 / 0.890 bicubic."""
    image = Image.fromarray(crop)
    width, height = size
    short = min(image.width, image.height)
    scaled = (
        max(width, round(image.width * width / short)),
        max(height, round(image.height * height / short)),
    )
    if scaled == image.size:
        return crop
    enlarged = scaled[0] > image.width
    filter_ = Image.Resampling.BICUBIC if enlarged else Image.Resampling.BILINEAR
    return np.asarray(image.resize(scaled, filter_))


def letterbox(picture: np.ndarray, size: int, stride: int) -> tuple[np.ndarray, Letterbox]:
    """The picture scaled so its long side is `size` (first rounded up to a multiple of the
    stride, as Ultralytics does), padded (centred) to a multiple of the stride: Ultralytics'
    minimal-rectangle letterbox."""
    size = -(-size // stride) * stride
    height, width = picture.shape[:2]
    scale = min(size / height, size / width)
    new_width, new_height = max(1, round(width * scale)), max(1, round(height * scale))
    if (new_width, new_height) != (width, height):
        resized = Image.fromarray(picture).resize(
            (new_width, new_height), Image.Resampling.BILINEAR
        )
        picture = np.asarray(resized)
    pad_w = (size - new_width) % stride / 2
    pad_h = (size - new_height) % stride / 2
    top, bottom = round(pad_h - 0.1), round(pad_h + 0.1)
    left, right = round(pad_w - 0.1), round(pad_w + 0.1)
    padded = np.pad(
        picture, ((top, bottom), (left, right), (0, 0)), "constant", constant_values=PAD_VALUE
    )
    return padded, Letterbox(scale, left, top)


def decode_detections(
    output: np.ndarray,
    box: Letterbox,
    picture_shape: tuple[int, int],
    confidence: float,
) -> tuple[np.ndarray, np.ndarray]:
    """The detector's raw output (4 + classes, anchors: centre x, centre y, width, height in the
    letterboxed picture, then class scores) as boxes in the picture and their confidences."""
    scores = output[4:].max(axis=0)
    keep = scores > confidence
    centres, scores = output[:4, keep].T, scores[keep]
    if not len(scores):
        return np.zeros((0, 4), dtype=np.float32), np.zeros(0, dtype=np.float32)
    xyxy = np.concatenate(
        [centres[:, :2] - centres[:, 2:] / 2, centres[:, :2] + centres[:, 2:] / 2], 1
    )
    kept = non_max_suppression(xyxy, scores, NMS_IOU)[:MAX_DETECTIONS]
    xyxy, scores = xyxy[kept], scores[kept]
    xyxy[:, [0, 2]] = (xyxy[:, [0, 2]] - box.pad_left) / box.scale
    xyxy[:, [1, 3]] = (xyxy[:, [1, 3]] - box.pad_top) / box.scale
    height, width = picture_shape
    xyxy[:, [0, 2]] = xyxy[:, [0, 2]].clip(0, width)
    xyxy[:, [1, 3]] = xyxy[:, [1, 3]].clip(0, height)
    return xyxy, scores


def non_max_suppression(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept, most confident first: each box suppresses the less confident
    ones that overlap it by more than `iou` (intersection over union)."""
    order = np.argsort(-scores, kind="stable")
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    kept: list[int] = []
    while order.size:
        best, rest = order[0], order[1:]
        kept.append(int(best))
        left = np.maximum(boxes[best, 0], boxes[rest, 0])
        top = np.maximum(boxes[best, 1], boxes[rest, 1])
        right = np.minimum(boxes[best, 2], boxes[rest, 2])
        bottom = np.minimum(boxes[best, 3], boxes[rest, 3])
        inter = np.clip(right - left, 0, None) * np.clip(bottom - top, 0, None)
        overlap = inter / (areas[best] + areas[rest] - inter + 1e-9)
        order = rest[overlap <= iou]
    return np.asarray(kept, dtype=np.int64)
