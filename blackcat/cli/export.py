"""`blackcat export`: the trained weights (models/*.pt) as the ONNX files the reader runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blackcat.vision.reader import MODELS_DIR


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--models",
        type=Path,
        default=MODELS_DIR,
        help="folder with the trained weights, index_detector.pt and card_classifier.pt and any "
        "of table_detector.pt, table_classifier.pt, suit_classifier.pt (default: the bundled "
        "models/)",
    )


def run(args: argparse.Namespace) -> int:
    from blackcat.workshop.export import export_models
    from blackcat.workshop.ultralytics_models import UnreadableWeightsError

    try:
        exported = export_models(args.models)
    except UnreadableWeightsError as error:
        return refuse(error, args.models)
    except OSError as error:
        if error.filename is None:  # `export_one`'s own: no weights to export
            return refuse(error, args.models)
        target = error.filename2 or error.filename  # a move names its source, then its target
        print(
            f"blackcat export: could not write {target} ({error.strerror or error}): it is not "
            "exported, nor any model after it; clear the way (a folder of that name, a full "
            "disk) and export again",
            file=sys.stderr,
        )
        return 1
    for item in exported:
        print(f"{item.weights} -> {item.onnx} (imgsz {item.imgsz})")
    return 0


def refuse(error: Exception, models: Path) -> int:
    """Weights missing or unreadable, said with where weights come from (exit status 2)."""
    print(f"blackcat export: {error}; {where_weights_come_from(models)}", file=sys.stderr)
    return 2


def where_weights_come_from(models: Path) -> str:
    """How weights get into `models`: `train --install` puts them in the bundled folder only."""
    if models.resolve() == MODELS_DIR.resolve():
        return "train them with `blackcat train ... --install`"
    return (
        f"copy trained weights into {models} (a run's weights/best.pt, named as above), or train "
        f"them with `blackcat train ... --install`, which puts them in {MODELS_DIR}"
    )
