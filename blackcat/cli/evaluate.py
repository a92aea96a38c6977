"""`blackcat evaluate`: measure the reader on real photos, kitty scenes and synthetic scenes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from blackcat.cli.arguments import number_from, whole_number
from blackcat.vision.reader import ReaderSettings
from blackcat.workshop import evaluation
from blackcat.workshop.evaluation import (
    DamagedSceneError,
    NothingToMeasure,
    evaluate_kitty,
    evaluate_real_photos,
    evaluate_synthetic,
    evaluate_table,
    load_scene_truths,
    real_photo_sets,
    reliability_text,
)
from blackcat.workshop.files import write_problem

if TYPE_CHECKING:
    from blackcat.vision.reader import CardReader

KITTY_SCENES, KITTY_SEED = 200, 8
TABLE_SCENES, TABLE_SEED = 100, 28


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--real",
        type=Path,
        nargs="*",
        default=None,
        help="real-photo sets to measure: folders, or names of sets in ../shared/real-photos "
        "(default, and with no names: every set there)",
    )
    parser.add_argument(
        "--synthetic",
        type=Path,
        help="a `blackcat synth` output folder: measure its held-out (val) scenes",
    )
    parser.add_argument(
        "--kitty",
        type=Path,
        help="a folder of kitty scenes (made there first if missing: see --kitty-scenes)",
    )
    parser.add_argument(
        "--kitty-scenes",
        type=whole_number(1),
        help=f"kitty scenes to measure (default {KITTY_SCENES})",
    )
    parser.add_argument(
        "--kitty-seed",
        type=whole_number(0),
        help=f"seed of the kitty scenes (default {KITTY_SEED})",
    )
    parser.add_argument(
        "--kitty-hard",
        action="store_true",
        help="draw harder kitty scenes (roll to 20 degrees, keystone, uneven offsets, piles "
        "filling 45-85%% of the photo, glare and shadows); use another folder for them",
    )
    parser.add_argument(
        "--kitty-small",
        action="store_true",
        help="draw kitty scenes with the piles in a small part of the photo (25-45%%, as a "
        "photo of a whole table); use another folder for them",
    )
    parser.add_argument(
        "--kitty-faults",
        action="store_true",
        help="draw kitty scenes each under one camera condition (colour casts, dim or blown-out "
        "light, webcam video, a squeezed 640 px frame, fingers, a dark-faced deck, or clean) and "
        "report each; use another folder for them",
    )
    parser.add_argument(
        "--kitty-pushed",
        action="store_true",
        help="draw kitty scenes of two or three rows pushed into each other (each 0.35-0.85 of a "
        "card below the one before, over the lower part of its cards); use another folder for "
        "them",
    )
    parser.add_argument(
        "--kitty-angled",
        action="store_true",
        help="draw kitty scenes of two rows each laid at its own angle (up to 20 degrees either "
        "way); use another folder for them",
    )
    parser.add_argument(
        "--table",
        type=Path,
        help="a folder of whole-table scenes, 2-4 players' piles round a table (made there "
        "first if missing: see --table-scenes)",
    )
    parser.add_argument(
        "--table-scenes",
        type=whole_number(1),
        help=f"table scenes to measure (default {TABLE_SCENES})",
    )
    parser.add_argument(
        "--table-seed",
        type=whole_number(0),
        help=f"seed of the table scenes (default {TABLE_SEED})",
    )
    parser.add_argument(
        "--style",
        help="draw every kitty and table scene's cards in this card style (for example "
        "dark_face; see datasets/README.md) instead of each scene's own; use other folders "
        "for them",
    )
    parser.add_argument(
        "--limit",
        type=whole_number(1),
        default=None,
        help="at most this many synthetic or table scenes (real photos are measured whole)",
    )
    parser.add_argument(
        "--models",
        type=Path,
        default=None,
        help="folder with the weights (default: the bundled models/)",
    )
    parser.add_argument("--failures", type=Path, help="write every failure to this file")
    parser.add_argument(
        "--detect-size",
        type=whole_number(64, 4096),
        default=None,
        help="long side the detector sees (default: the size it was trained at)",
    )
    parser.add_argument(
        "--confidence",
        type=number_from(0, 1),
        default=ReaderSettings.detect_confidence,
        help="detection threshold (default: %(default)s, the reader's)",
    )


NOTHING_TO_MEASURE = (
    "nothing to measure: the real photos ({shared}) are not on this machine (they are not in "
    "the repository), and no --synthetic, --kitty or --table folder was given. Measure kitty "
    "scenes drawn on the spot with `blackcat evaluate --kitty DIR`, held-out synthetic scenes with "
    "`blackcat synth --out DIR ...` then `blackcat evaluate --synthetic DIR`, or give "
    "--real FOLDER (a folder with labels.json and images/)"
)


def planned_sets(args: argparse.Namespace) -> list[Path]:
    """The real-photo sets to measure; NothingToMeasure when there is nothing at all. A --kitty
    or --table folder is always something to measure: its scenes are drawn there when missing."""
    others = args.synthetic or args.kitty or args.table
    real_sets = [] if args.real is None and others else real_photo_sets(args.real)
    if args.synthetic and not any((args.synthetic / "detect" / "meta" / "val").glob("*.json")):
        raise NothingToMeasure(
            f"--synthetic {args.synthetic}: no held-out scenes (detect/meta/val) there; make them "
            "with `blackcat synth --out DIR ...`"
        )
    if not real_sets and not others:
        raise NothingToMeasure(NOTHING_TO_MEASURE.format(shared=evaluation.SHARED_PHOTOS))
    return real_sets


KITTY_OPTIONS = (
    "kitty_scenes",
    "kitty_seed",
    "kitty_hard",
    "kitty_small",
    "kitty_faults",
    "kitty_pushed",
    "kitty_angled",
)
TABLE_OPTIONS = ("table_scenes", "table_seed")


def unused_options(args: argparse.Namespace) -> None:
    """NothingToMeasure where options that draw scenes are given with no folder to draw them
    in (they would be ignored, and every real set measured instead)."""

    def given(names: tuple[str, ...]) -> str:
        return ", ".join(
            "--" + name.replace("_", "-")
            for name in names
            if getattr(args, name, None) is not None and getattr(args, name) is not False
        )

    if (kitty_only := given(KITTY_OPTIONS)) and args.kitty is None:
        raise NothingToMeasure(f"{kitty_only}: for kitty scenes; give --kitty DIR too")
    if (table_only := given(TABLE_OPTIONS)) and args.table is None:
        raise NothingToMeasure(f"{table_only}: for table scenes; give --table DIR too")
    if args.style and args.kitty is None and args.table is None:
        raise NothingToMeasure(
            f"--style {args.style} draws kitty or table scenes: give --kitty DIR or --table DIR too"
        )


def read_without(models: Path) -> list[str]:
    """The files a models folder lacks that the reader reads better with (it reads without
    them): a candidate folder made from a GPU run's weights may lack them."""
    from blackcat.vision.calibration import CALIBRATION_FILE, TABLE_CALIBRATION_FILE
    from blackcat.vision.reader import (
        SUIT_CLASSIFIER_FILE,
        TABLE_CLASSIFIER_FILE,
        TABLE_DETECTOR_FILE,
        missing_models,
    )

    optional = (
        CALIBRATION_FILE,
        TABLE_CALIBRATION_FILE,
        TABLE_DETECTOR_FILE,
        TABLE_CLASSIFIER_FILE,
        SUIT_CLASSIFIER_FILE,
    )
    return [Path(path).name for path in missing_models(models, optional)]


def check_style(style: str | None) -> None:
    """NothingToMeasure where `style` names no card style."""
    if style is None:
        return
    from blackcat.workshop.synth.styles import STYLES

    if style not in STYLES:
        raise NothingToMeasure(
            f"--style {style}: no such card style; the styles are {', '.join(sorted(STYLES))}"
        )


def failures_problem(path: Path) -> str | None:
    """Why the failures could not be written to `path`, found before the evaluation runs (and
    not after it, with its work lost); None when they can."""
    if path.is_dir():
        return f"--failures {path} is a folder: give a file in it"
    if not path.parent.is_dir():
        return f"--failures {path}: no folder {path.parent} to write it in; make it first"
    return None


def scene_file_problem(error: OSError) -> str:
    """What a scene's file that could not be drawn or read (a folder in its place, a full
    disk) is, and what to do."""
    return (
        f"could not write or read {error.filename} ({error.strerror or error}): make room, or "
        "give another folder for the scenes"
    )


def run(args: argparse.Namespace) -> int:
    from blackcat.vision.image_io import ImageReadError
    from blackcat.vision.reader import MODELS_DIR, CardReader, ModelsMissingError
    from blackcat.workshop.kitty import OtherScenesError, make_kitty_scenes
    from blackcat.workshop.synth.cardart import CardArtError
    from blackcat.workshop.table_scenes import make_table_scenes

    if args.failures is not None and (problem := failures_problem(args.failures)):
        print(f"blackcat evaluate: {problem}", file=sys.stderr)
        return 2
    try:
        unused_options(args)
        real_sets = planned_sets(args)
        check_style(args.style)
        settings = ReaderSettings(detect_size=args.detect_size, detect_confidence=args.confidence)
        reader = CardReader.load(args.models or MODELS_DIR, settings)
        reader.load_every_model()  # a damaged one refused here, not partway through
        kitty_scenes = (
            None
            if args.kitty is None
            else make_kitty_scenes(
                args.kitty,
                args.kitty_scenes or KITTY_SCENES,
                KITTY_SEED if args.kitty_seed is None else args.kitty_seed,
                args.kitty_hard,
                args.kitty_small,
                args.kitty_faults,
                args.style,
                args.kitty_pushed,
                args.kitty_angled,
            )
        )
        count = args.table_scenes or TABLE_SCENES
        count = min(count, args.limit) if args.limit else count
        seed = TABLE_SEED if args.table_seed is None else args.table_seed
        table_scenes = None
        if args.table is not None:
            table_scenes = make_table_scenes(args.table, count, seed, args.style)
    except (NothingToMeasure, ModelsMissingError, OtherScenesError) as error:
        print(f"blackcat evaluate: {error}", file=sys.stderr)
        return 2
    used = reader.settings
    print(f"detector at {used.detect_size} px, threshold {used.detect_confidence}")
    if args.models is not None and (lacking := read_without(args.models)):
        print(
            f"{args.models} has no {', '.join(lacking)}: read without "
            f"{'them' if len(lacking) > 1 else 'it'} (copy them from models/ to read as the app "
            "does)"
        )
    try:
        failures = measure(args, reader, kitty_scenes, table_scenes, real_sets)
    except (DamagedSceneError, ImageReadError, CardArtError) as error:
        # a scene or a photo found damaged partway, or no card art to draw scenes with: the
        # measures before it are printed
        print(f"blackcat evaluate: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        if error.filename is None:
            raise  # stdout's own: `run_command` says it
        print(f"blackcat evaluate: {scene_file_problem(error)}", file=sys.stderr)
        return 1
    if args.failures and (problem := write_problem(args.failures, "\n".join(failures) + "\n")):
        print(
            f"blackcat evaluate: could not write the failures to {args.failures} ({problem}); "
            "the measures are above: give --failures a file in a folder you can write to",
            file=sys.stderr,
        )
        return 1
    return 0


def measure(
    args: argparse.Namespace,
    reader: CardReader,
    kitty_scenes: Iterable[Path] | None,
    table_scenes: Iterable[Path] | None,
    real_sets: list[Path],
) -> list[str]:
    """Measure `reader` on what `args` names, printing each measure; its failures."""
    failures: list[str] = []
    if kitty_scenes is not None:
        kitty = evaluate_kitty(reader, kitty_scenes)
        variant = (
            ("harder " if args.kitty_hard else "")
            + ("small " if args.kitty_small else "")
            + ("camera-fault " if args.kitty_faults else "")
            + ("pushed-rows " if args.kitty_pushed else "")
            + ("angled-rows " if args.kitty_angled else "")
        )
        print(variant + kitty.summary())
        print(reliability_text(kitty.probabilities, kitty.rights))
        failures.extend(kitty.failures)
    if table_scenes is not None:
        table = evaluate_table(reader, table_scenes)
        print(table.summary())
        failures.extend(table.failures)
    if args.synthetic:
        report = evaluate_synthetic(reader, load_scene_truths(args.synthetic, limit=args.limit))
        print(report.summary())
        failures.extend(report.failures)
    for folder in real_sets:
        real = evaluate_real_photos(reader, folder)
        print(real.summary())
        failures.extend(
            f"{folder.name}/{result.image}: missed {list(result.missed)} extra {list(result.extra)}"
            for result in real.images
            if result.missed or result.extra
        )
    return failures
