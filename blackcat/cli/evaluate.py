"""`blackcat evaluate`: measure the reader on real photos, kitty scenes and synthetic scenes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blackcat.vision.reader import ReaderSettings
from blackcat.workshop import evaluation
from blackcat.workshop.evaluation import (
    NothingToMeasure,
    evaluate_kitty,
    evaluate_real_photos,
    evaluate_synthetic,
    evaluate_table,
    load_scene_truths,
    real_photo_sets,
    reliability_text,
)


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
        "--kitty-scenes", type=int, default=200, help="kitty scenes to measure (default 200)"
    )
    parser.add_argument(
        "--kitty-seed", type=int, default=8, help="seed of the kitty scenes (default 8)"
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
        "--table-scenes", type=int, default=100, help="table scenes to measure (default 100)"
    )
    parser.add_argument(
        "--table-seed", type=int, default=28, help="seed of the table scenes (default 28)"
    )
    parser.add_argument(
        "--style",
        help="draw every kitty and table scene's cards in this card style (for example "
        "dark_face; see datasets/README.md) instead of each scene's own; use other folders "
        "for them",
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=None,
        help="at most this many synthetic or table scenes (real photos are measured whole)",
    )
    parser.add_argument("--models", type=Path, default=None, help="folder with the weights")
    parser.add_argument("--failures", type=Path, help="write every failure to this file")
    parser.add_argument(
        "--detect-size",
        type=int,
        default=None,
        help="long side the detector sees (default: the size it was trained at)",
    )
    parser.add_argument(
        "--confidence",
        type=float,
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


def check_style(style: str | None) -> None:
    """NothingToMeasure where `style` names no card style."""
    if style is None:
        return
    from blackcat.workshop.synth.styles import STYLES

    if style not in STYLES:
        raise NothingToMeasure(
            f"--style {style}: no such card style; the styles are {', '.join(sorted(STYLES))}"
        )


def run(args: argparse.Namespace) -> int:
    from blackcat.vision.reader import MODELS_DIR, CardReader, ModelsMissingError

    try:
        real_sets = planned_sets(args)
        check_style(args.style)
        settings = ReaderSettings(detect_size=args.detect_size, detect_confidence=args.confidence)
        reader = CardReader.load(args.models or MODELS_DIR, settings)
    except (NothingToMeasure, ModelsMissingError) as error:
        print(f"blackcat evaluate: {error}", file=sys.stderr)
        return 2
    used = reader.settings
    print(f"detector at {used.detect_size} px, threshold {used.detect_confidence}")
    failures: list[str] = []
    if args.kitty:
        from blackcat.workshop.kitty import make_kitty_scenes

        scenes = make_kitty_scenes(
            args.kitty,
            args.kitty_scenes,
            args.kitty_seed,
            args.kitty_hard,
            args.kitty_small,
            args.kitty_faults,
            args.style,
            args.kitty_pushed,
            args.kitty_angled,
        )
        kitty = evaluate_kitty(reader, scenes)
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
    if args.table:
        from blackcat.workshop.table_scenes import make_table_scenes

        count = min(args.table_scenes, args.limit) if args.limit else args.table_scenes
        scenes = make_table_scenes(args.table, count, args.table_seed, args.style)
        table = evaluate_table(reader, scenes)
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
    if args.failures:
        args.failures.write_text("\n".join(failures) + "\n")
    return 0
