"""Training the two models with Ultralytics, on the CPU or a GPU (the library behind
`blackcat train`).

Every setting is a field below, and each run writes the settings it used beside the weights
(`models/<model>.json`), so the model card can be checked against what was really run.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from blackcat.vision.parallel import usable_cores
from blackcat.vision.reader import MODELS_DIR
from blackcat.workshop.files import copy_atomically, write_text_atomically

RUNS_DIR = Path("runs")


HUE_JITTER = 0.35  # Ultralytics' default 0.015: red and black inks turn any colour, so ...
SATURATION_JITTER = 0.85  # ... a suit is read from its shape (four-colour decks), not its ink
"""Colour jitter of both models (Ultralytics hsv_h, a share of the hue circle, and hsv_s)."""


@dataclass(frozen=True)
class DetectorSettings:
    """The index detector: YOLO11 layers, narrower than `n` (one class of small glyph clusters
    needs little capacity, and half the width trains about twice as fast on the CPU)."""

    base: str = "yolo11n.yaml"
    depth: float = 0.50
    width: float = 0.125
    imgsz: int = 480
    epochs: int = 30
    hours: float | None = None  # if set, Ultralytics fits the schedule into this time instead
    batch: int = 16
    workers: int = 2
    patience: int = 100
    optimizer: str = "AdamW"
    lr0: float = 0.002
    warmup_epochs: float = 1.0  # a CPU budget affords few epochs: don't spend three warming up
    freeze: int | None = None  # the first N layers kept as they are (fine-tuning without drift)
    mosaic: float = 1.0
    close_mosaic: int = 3
    scale: float = 0.4
    degrees: float = 0.0  # scenes are already tilted and warped when rendered
    fliplr: float = 0.0  # a mirrored glyph is not a card
    flipud: float = 0.0
    hsv_h: float = HUE_JITTER
    hsv_s: float = SATURATION_JITTER
    seed: int = 0
    device: str = "cpu"  # or a CUDA device number, "0", where a GPU is lent


@dataclass(frozen=True)
class ClassifierSettings:
    """The card classifier: YOLO11n-cls on small square crops of one index."""

    base: str = "yolo11n-cls.yaml"
    imgsz: int = 64
    epochs: int = 20
    hours: float | None = None
    batch: int = 128
    workers: int = 2
    patience: int = 100
    # Ultralytics' automatic choice for 52 classes, AdamW at lr 0.00018, is too slow from scratch.
    optimizer: str = "AdamW"
    lr0: float = 0.002
    warmup_epochs: float = 1.0
    freeze: int | None = None
    scale: float = 0.25  # crops keep at least 75% of their area: the whole index must stay in
    erasing: float = 0.1  # less than the default 0.4, which too often hides the suit
    fliplr: float = 0.0
    flipud: float = 0.0  # the bottom-right index is already upside down in the data
    hsv_h: float = HUE_JITTER
    hsv_s: float = SATURATION_JITTER
    seed: int = 0
    device: str = "cpu"  # or a CUDA device number, "0", where a GPU is lent
    # a fine-tune that keeps close to a teacher's probabilities (`DistilledLoss`): the teacher's
    # weights and the share of the loss that follows them (0: the labels alone)
    distil_from: str | None = None
    distil_weight: float = 0.0


OUR_FIELDS = {"base", "depth", "width", "hours", "distil_from", "distil_weight"}
"""Settings that are ours, not Ultralytics' training arguments."""


class DistilledLoss:
    """A classifier's loss as the labels' cross-entropy mixed with the divergence of its
    probabilities from a teacher's on the same (augmented) crops, `weight` of it the
    teacher's. Fine-tuned on labels alone, every classifier since the seventh read new crops
    better and drifted from the probabilities the reader's calibration was fitted on (less sure
    of right cards: more flags, more cards dropped; models/HISTORY.md, sessions 30-34); the
    teacher, the kept classifier, holds it near them where it was right."""

    def __init__(self, teacher: object, weight: float) -> None:
        self.teacher = teacher
        self.weight = weight

    def __call__(self, preds: object, batch: dict[str, object]) -> tuple[object, dict[str, object]]:
        import torch
        import torch.nn.functional as F

        logits = preds[1] if isinstance(preds, (list, tuple)) else preds
        labels = F.cross_entropy(logits, batch["cls"], reduction="mean")
        with torch.no_grad():
            taught = self.teacher(batch["img"])  # type: ignore[operator]
        taught = taught[1] if isinstance(taught, (list, tuple)) else taught
        follows = F.kl_div(
            F.log_softmax(logits, dim=1),
            F.log_softmax(taught, dim=1),
            reduction="batchmean",
            log_target=True,
        )
        loss = (1 - self.weight) * labels + self.weight * follows
        return loss, {"loss": loss.detach()}


def _distilling(teacher_weights: Path, weight: float) -> Callable[[object], None]:
    """An `on_train_start` callback that gives the student `DistilledLoss` (the EMA copy made
    before it keeps the plain loss, for validation)."""

    def start(trainer: object) -> None:
        from ultralytics import YOLO
        from ultralytics.utils.torch_utils import unwrap_model

        teacher = YOLO(str(teacher_weights)).model.float().to(trainer.device).eval()  # type: ignore[attr-defined, union-attr]
        for parameter in teacher.parameters():
            parameter.requires_grad_(False)
        student = unwrap_model(trainer.model)  # type: ignore[attr-defined]
        if list(teacher.names.values()) != list(student.names.values()):
            raise ValueError(
                f"the teacher {teacher_weights} reads other classes than the data's: distil "
                "only between classifiers of the same classes"
            )
        student.criterion = DistilledLoss(teacher, weight)
        print(f"distilled from {teacher_weights}: {weight} of the loss follows its probabilities")

    return start


def _on_every_core(trainer: object) -> None:
    """An `on_train_start` callback: a CPU run computes on every usable core. Ultralytics keeps
    one core back for its loading workers (`torch.set_num_threads(cpu_count - 1)`) but runs no
    workers on a CPU, so on a 2-core machine it trained on one (models/HISTORY.md, session 65)."""
    import torch

    if trainer.device.type == "cpu":  # type: ignore[attr-defined]
        torch.set_num_threads(usable_cores())
        print(f"training on the CPU with {torch.get_num_threads()} threads")


def _scaled_model_yaml(base: str, depth: float, width: float, out_dir: Path) -> Path:
    """A model definition from Ultralytics' own, with our depth and width multiples."""
    import yaml
    from ultralytics.nn.tasks import yaml_model_load

    definition = yaml_model_load(base)
    scale = definition.get("scale") or "n"
    max_channels = definition["scales"][scale][2]
    definition["scales"] = {scale: [depth, width, max_channels]}
    definition.pop("yaml_file", None)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{Path(base).stem}-d{depth}-w{width}.yaml"
    path.write_text(yaml.safe_dump(definition, sort_keys=False))
    return path


def _train_arguments(settings: DetectorSettings | ClassifierSettings) -> dict[str, object]:
    arguments = {
        field.name: getattr(settings, field.name)
        for field in dataclasses.fields(settings)
        if field.name not in OUR_FIELDS
    }
    if settings.hours:
        arguments["time"] = settings.hours
    # plots=False: drawing Ultralytics' plots (batches, curves) takes time and nothing reads them.
    # amp=False: Ultralytics' mixed-precision check downloads a model to compare against.
    return arguments | {"amp": False, "plots": False, "exist_ok": True}


def train_detector(
    data_yaml: Path, settings: DetectorSettings, name: str, start: Path | None = None
) -> Path:
    """Train the index detector (from scratch, or on from `start` weights); returns the best
    weights of the run."""
    from ultralytics import YOLO

    if start is None:
        start = _scaled_model_yaml(settings.base, settings.depth, settings.width, RUNS_DIR)
    model = YOLO(str(start), task="detect")
    model.add_callback("on_train_start", _on_every_core)
    model.train(
        data=str(data_yaml),
        project=str(RUNS_DIR.resolve() / "detect"),
        name=name,
        **_train_arguments(settings),
    )
    return run_folder("detect", name) / "weights" / "best.pt"


def train_classifier(
    data_dir: Path, settings: ClassifierSettings, name: str, start: Path | None = None
) -> Path:
    """Train the card classifier on `data_dir/{train,val}/<CARD>/*.jpg` (from scratch, or on
    from `start` weights)."""
    from ultralytics import YOLO

    model = YOLO(str(start or settings.base), task="classify")
    model.add_callback("on_train_start", _on_every_core)
    if settings.distil_from and settings.distil_weight > 0:
        model.add_callback(
            "on_train_start", _distilling(Path(settings.distil_from), settings.distil_weight)
        )
    model.train(
        data=str(data_dir),
        project=str(RUNS_DIR.resolve() / "classify"),
        name=name,
        **_train_arguments(settings),
    )
    return run_folder("classify", name) / "weights" / "best.pt"


class NotResumableError(ValueError):
    """Weights that keep no training state: a finished run's, or weights stripped for keeping."""


def resume(last_weights: Path) -> Path:
    """Go on with an interrupted run from its `last.pt`. Raises NotResumableError for weights
    that keep no training state (Ultralytics would start a new training of its own defaults
    instead, on a dataset it tries to download)."""
    from ultralytics import YOLO

    model = YOLO(str(last_weights))
    state = model.ckpt or {}
    if state.get("epoch", -1) < 0 or state.get("optimizer") is None:
        raise NotResumableError(str(last_weights))
    model.add_callback("on_train_start", _on_every_core)
    model.train(resume=True)
    return last_weights.parent / "best.pt"


def run_folder(task: str, name: str) -> Path:
    """Where a run of `task` (detect, classify) named `name` writes its weights and logs."""
    return RUNS_DIR.resolve() / task / name


def class_names(weights: Path) -> list[str]:
    """The classes trained weights tell apart, in their order."""
    from ultralytics import YOLO

    return list(YOLO(str(weights)).names.values())


def install(weights: Path, target_name: str, record: dict[str, object]) -> Path:
    """Copy trained weights into models/, with a JSON record of how they were made."""
    MODELS_DIR.mkdir(exist_ok=True)
    target = MODELS_DIR / target_name
    copy_atomically(weights, target)
    write_text_atomically(target.with_suffix(".json"), json.dumps(record, indent=2) + "\n")
    return target
