"""`blackcat train detector|table-detector|classifier|table-classifier|suit-classifier`: train a
model with Ultralytics (CPU or GPU), and with `--install` put it in models/ and export it for the
reader (a table detector searches a whole table's places, `reader.TABLE_DETECTOR_WEIGHTS`; a table
classifier reads whole tables' cards, `reader.TABLE_CLASSIFIER_WEIGHTS`; a suit classifier reads
suits by their shapes, `reader.SUIT_CLASSIFIER_WEIGHTS`, on crops made by
`workshop/suit_shapes.py`)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from blackcat.cli.arguments import number_of_at_least, positive_number, whole_number
from blackcat.games.cards import ALL_CARDS, Suit
from blackcat.vision.classes import all_class_names
from blackcat.vision.reader import (
    CLASSIFIER_WEIGHTS,
    DETECTOR_WEIGHTS,
    SUIT_CLASSIFIER_WEIGHTS,
    TABLE_CLASSIFIER_WEIGHTS,
    TABLE_DETECTOR_WEIGHTS,
)
from blackcat.workshop.training import (
    ClassifierSettings,
    DetectorSettings,
    NotResumableError,
    class_names,
    install,
    resume,
    run_folder,
    train_classifier,
    train_detector,
)
from blackcat.workshop.ultralytics_models import UnreadableWeightsError, load_weights


def per_model(setting: str) -> str:
    """A setting's defaults, for --help: "detectors 30, classifiers 20"."""
    detectors, classifiers = (
        getattr(kind, setting) for kind in (DetectorSettings, ClassifierSettings)
    )
    return f"detectors {detectors}, classifiers {classifiers}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "model",
        choices=["detector", "table-detector", "classifier", "table-classifier", "suit-classifier"],
        help="which model to train (a table detector is a detector installed to search whole "
        "tables; a table classifier a classifier installed to read whole tables' cards; a suit "
        "classifier a classifier installed to read suits by their shapes)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        help="detector: DIR/detect/data.yaml; classifier: DIR/classify (from `blackcat synth`); "
        "suit classifier: the folder `workshop/suit_shapes.py` writes",
    )
    parser.add_argument(
        "--epochs",
        type=whole_number(1),
        help=f"epochs (default: {per_model('epochs')})",
    )
    parser.add_argument(
        "--hours", type=positive_number, help="train for this long instead of --epochs"
    )
    parser.add_argument(
        "--imgsz",
        type=whole_number(1),
        help=f"training image size (default: {per_model('imgsz')})",
    )
    parser.add_argument(
        "--batch",
        type=whole_number(1),
        help=f"batch size (default: {per_model('batch')})",
    )
    parser.add_argument(
        "--device", help='"cpu" (default) or a CUDA device number such as 0, where a GPU is lent'
    )
    parser.add_argument(
        "--workers", type=whole_number(0), help="data-loading processes (default 2)"
    )
    parser.add_argument(
        "--lr0",
        type=positive_number,
        help="initial learning rate (default 0.002; lower to fine-tune converged weights on new "
        "data without the restart's dip)",
    )
    parser.add_argument(
        "--warmup-epochs",
        type=number_of_at_least(0),
        help="learning-rate warm-up epochs (default 1)",
    )
    parser.add_argument(
        "--freeze",
        type=whole_number(0),
        help="keep the first N layers as they are (e.g. 10, the detector's backbone) while "
        "fine-tuning, so new data does not pull the features away from what already reads well",
    )
    parser.add_argument(
        "--distil-from",
        type=Path,
        help="classifier: keep its probabilities near these weights' (e.g. the kept "
        "models/card_classifier.pt) while it learns the new data; see --distil-weight",
    )
    parser.add_argument(
        "--distil-weight",
        type=float,
        help="share of the loss that follows --distil-from's probabilities (default 0.5 with "
        "--distil-from; the rest follows the labels)",
    )
    parser.add_argument(
        "--name",
        default=None,
        help="run name, a folder under runs/ in the current folder (default: the model)",
    )
    parser.add_argument("--resume", type=Path, help="resume an interrupted run from its last.pt")
    parser.add_argument(
        "--start",
        type=Path,
        help="train on from these weights (e.g. models/card_classifier.pt) instead of from scratch",
    )
    parser.add_argument(
        "--install",
        action="store_true",
        help="copy the best weights into models/ and export them to ONNX when done",
    )


def is_classifier(model: str) -> bool:
    return model in {"classifier", "table-classifier", "suit-classifier"}


def settings_from(args: argparse.Namespace) -> DetectorSettings | ClassifierSettings:
    """The model's default settings with what the command line sets instead."""
    settings: DetectorSettings | ClassifierSettings = (
        ClassifierSettings() if is_classifier(args.model) else DetectorSettings()
    )
    overrides = {
        key: value
        for key, value in {
            "epochs": args.epochs,
            "hours": args.hours,
            "imgsz": args.imgsz,
            "batch": args.batch,
            "device": args.device,
            "workers": args.workers,
            "lr0": args.lr0,
            "warmup_epochs": args.warmup_epochs,
            "freeze": args.freeze,
            **distilling(args),
        }.items()
        if value is not None
    }
    return dataclasses.replace(settings, **overrides)


DISTIL_WEIGHT = 0.5


class Refused(ValueError):
    """A command line refused before anything is made: what is wrong (`refuse` says it)."""


def distilling(args: argparse.Namespace) -> dict[str, object]:
    """The distillation settings the command line asks for (a classifier's only)."""
    if args.distil_from is None:
        if args.distil_weight is not None:
            raise Refused("--distil-weight needs --distil-from WEIGHTS")
        return {}
    if not is_classifier(args.model):
        raise Refused("--distil-from is for a classifier, not a detector")
    if not args.distil_from.is_file():
        raise Refused(f"--distil-from {args.distil_from}: no such weights")
    try:
        load_weights(args.distil_from)
    except UnreadableWeightsError as error:
        raise Refused(unloadable(error, "--distil-from")) from None
    weight = DISTIL_WEIGHT if args.distil_weight is None else args.distil_weight
    if not 0 <= weight <= 1:
        raise Refused("--distil-weight must be between 0 and 1")
    return {"distil_from": str(args.distil_from), "distil_weight": weight}


def classes_of(model: str) -> set[str] | None:
    """The classes a classifier of this kind may tell apart (None: a detector)."""
    if model == "suit-classifier":
        return {suit.value for suit in Suit}
    if not is_classifier(model):
        return None
    return {*all_class_names(), *(card.code for card in ALL_CARDS)}  # bare codes: the first's


WHERE_DATA_COMES_FROM = (
    "a card classifier trains on DIR/classify from `blackcat synth`, a suit classifier on the "
    "folder `workshop/suit_shapes.py` writes"
)


def foreign_classes(model: str, found: list[str]) -> str | None:
    """What is wrong when classes `found` (in data or weights) are not this model's to read:
    the reader would take them for what they are not; None when they are its own."""
    allowed = classes_of(model)
    foreign = sorted(set(found) - allowed) if allowed is not None else []
    if not foreign:
        return None
    shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
    return f"{len(foreign)} of its classes are no {model}'s ({shown}); {WHERE_DATA_COMES_FROM}"


def data_problem(model: str, data: Path, start: Path | None) -> str | None:
    """What is wrong with the training's data or starting weights before anything is made
    (Ultralytics would otherwise try to download a dataset of that name); None when nothing."""
    if start is not None and not start.is_file():
        return f"--start {start}: no such weights file"
    if start is not None and (problem := weights_problem(model, start, "--start")):
        return problem
    if not is_classifier(model):
        if not data.is_file():
            what = "a folder, not a file" if data.is_dir() else "no such file"
            return f"--data {data}: {what}; give DIR/detect/data.yaml from `blackcat synth`"
        return held_out_problem(data, detector_validation_folder(data))
    if not (data / "train").is_dir():
        return f"--data {data}: no train/ folder in it; {WHERE_DATA_COMES_FROM}"
    found = [folder.name for folder in (data / "train").iterdir() if folder.is_dir()]
    if problem := foreign_classes(model, found):
        return f"--data {data}: {problem}"
    return held_out_problem(data, data / "val")


def detector_validation_folder(data: Path) -> Path | None:
    """The folder of images a detector's data.yaml holds out to validate on; None where the file
    doesn't say (Ultralytics then says what it makes of it)."""
    import yaml

    try:
        config = yaml.safe_load(data.read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    if not isinstance(config, dict) or not isinstance(config.get("val"), str):
        return None
    return data.parent / str(config.get("path", ".")) / config["val"]


def held_out_problem(data: Path, validation: Path | None) -> str | None:
    """Scenes held out to validate on, which Ultralytics needs (a set too small to hold any out
    ended the training in a traceback); None where there are some, or nobody says where."""
    if validation is None or any(path.is_file() for path in validation.rglob("*")):
        return None
    return (
        f"--data {data}: no scenes held out to validate on ({validation} is empty or missing): "
        "draw more scenes with `blackcat synth` (a share of them, --val-fraction, is held out)"
    )


def task_of(model: str) -> str:
    return "classify" if is_classifier(model) else "detect"


def weights_problem(model: str, weights: Path, option: str) -> str | None:
    """Weights to start or resume from of the other task (a classifier's for a detector, or the
    other way): Ultralytics would train them as what they are, on data it cannot read as such,
    and `--install` would put them in the other model's place."""
    try:
        task = load_weights(weights).task
    except UnreadableWeightsError as error:
        return unloadable(error, option)
    if task == task_of(model):
        return None
    kind = {"classify": "a classifier's", "detect": "a detector's"}.get(task, f"a {task} model's")
    if option == "--resume":
        return f"--resume {weights}: these are {kind} weights, not a {model}'s: resume its own run"
    example = CLASSIFIER_WEIGHTS if is_classifier(model) else DETECTOR_WEIGHTS
    return (
        f"--start {weights}: these are {kind} weights, not a {model}'s; start from weights of its "
        f"own kind (e.g. models/{example}) or leave --start out to train from scratch"
    )


WHERE_WEIGHTS_COME_FROM = {
    "--start": "start from a run's weights/best.pt or the bundled models/, or leave --start out "
    "to train from scratch",
    "--resume": "resume from the interrupted run's weights/last.pt",
    "--distil-from": "give the kept classifier's weights, such as models/card_classifier.pt",
}


def unloadable(error: UnreadableWeightsError, option: str) -> str:
    """What is wrong with the weights given to `option`, and where good ones come from."""
    return f"{option} {error}; {WHERE_WEIGHTS_COME_FROM[option]}"


def device_problem(device: str) -> str | None:
    """A --device this machine has not (Ultralytics' own check, which would end the run in a
    traceback); None when it has it."""
    from ultralytics.utils.torch_utils import select_device

    try:
        select_device(device, verbose=False)
    except ValueError as error:
        said = str(error).strip().splitlines()[0]
        return (
            f"--device {device}: this machine can't train on it ({said}); give a device it has, "
            "or leave --device out to train on the CPU"
        )
    return None


def run_problem(model: str, name: str) -> str | None:
    """A run of this name already there: training again would overwrite its weights. A folder
    without weights/last.pt is none (a run that failed before its first epoch ended)."""
    folder = run_folder(task_of(model), name)
    if (folder / "weights" / "last.pt").exists():
        return (
            f"{folder} holds a run already: give another --name, or --resume "
            f"{folder / 'weights' / 'last.pt'} to go on with it where it was interrupted"
        )
    return None


def refuse(problem: str) -> int:
    print(f"blackcat train: error: {problem}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from(args)
    except Refused as refused:
        return refuse(str(refused))
    name = args.name or args.model
    started = time.time()
    if args.resume:
        if not args.resume.is_file():
            return refuse(f"--resume {args.resume}: no such weights file")
        if problem := weights_problem(args.model, args.resume, "--resume"):
            return refuse(problem)
        try:
            best = resume(args.resume)
        except NotResumableError:
            return refuse(
                f"--resume {args.resume}: these weights keep no training state (a finished run's, "
                "or weights stripped for keeping): train on from them with --start instead"
            )
    elif args.data is None:
        return refuse("--data is required (make it with `blackcat synth`)")
    elif problem := (
        data_problem(args.model, args.data, args.start)
        or run_problem(args.model, name)
        or device_problem(settings.device)
    ):
        return refuse(problem)
    elif not is_classifier(args.model):
        best = train_detector(args.data, settings, name, args.start)
    else:
        best = train_classifier(args.data, settings, name, args.start)
    hours = (time.time() - started) / 3600
    print(f"best weights: {best} ({hours:.2f} h)")
    if args.install:
        if problem := foreign_classes(args.model, class_names(best)):
            return refuse(f"{best} not installed: {problem}")
        target = {
            "detector": DETECTOR_WEIGHTS,
            "table-detector": TABLE_DETECTOR_WEIGHTS,
            "classifier": CLASSIFIER_WEIGHTS,
            "table-classifier": TABLE_CLASSIFIER_WEIGHTS,
            "suit-classifier": SUIT_CLASSIFIER_WEIGHTS,
        }[args.model]
        record = {
            "settings": dataclasses.asdict(settings),
            "data": str(args.data),
            "started_from": str(args.start or "scratch"),
            "run": str(best.parent.parent),
            "hours": round(hours, 2),
        }
        installed = install(best, target, record)
        print(f"installed: {installed}")
        from blackcat.workshop.export import export_one

        print(f"exported for the runtime: {export_one(installed, task_of(args.model)).onnx}")
    return 0
