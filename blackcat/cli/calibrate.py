"""`blackcat calibrate`: fit the reader's probabilities and doubt threshold on kitty scenes.

The reader reads a calibration set of kitty scenes (held-out decks; another seed than the set
`blackcat evaluate --kitty` measures on) with no calibration; a fit of "the card was right" on
what the models said (`calibration.fit`) becomes models/calibration.json, with the probability
under which a read is not shown and the doubt threshold that costs the player least (a misread
left unflagged costs `--silent-cost` needless checks) while leaving at most `--max-wrong` wrong
cards in 100 unflagged ones.

With `--table DIR` it fits the calibration of whole-table reads instead
(models/table_calibration.json) on whole-table scenes: their cards stand small, turned and at a
slant, and the table detector that finds most of them has confidences of its own.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from blackcat.vision.calibration import (
    CALIBRATION_FILE,
    SILENT_COST,
    TABLE_CALIBRATION_FILE,
    choose_drop_threshold,
    choose_threshold,
    fit,
    flag_rates,
)
from blackcat.vision.reader import MODELS_DIR

DEFAULT_DIR = Path("datasets/generated/kitty-calibration")
TABLE_SCENES = 150


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kitty", type=Path, default=DEFAULT_DIR, help=f"scenes folder (default {DEFAULT_DIR})"
    )
    parser.add_argument(
        "--table",
        type=Path,
        metavar="DIR",
        help="fit the calibration of whole-table reads (table_calibration.json) on the "
        "whole-table scenes in DIR instead (drawn there when missing; another seed than "
        "`evaluate --table` measures on)",
    )
    parser.add_argument(
        "--scenes",
        type=int,
        help=f"scenes (default 300; with --table {TABLE_SCENES})",
    )
    parser.add_argument("--seed", type=int, default=9, help="seed of the scenes (default 9)")
    parser.add_argument(
        "--faults",
        type=int,
        default=0,
        metavar="N",
        help="also fit on N kitty scenes each under a camera condition (evaluate --kitty-faults; "
        "drawn into the --kitty folder's sibling KITTY-faults, same seed)",
    )
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="folder with the weights")
    parser.add_argument(
        "--max-wrong",
        type=float,
        default=1.0,
        help="wrong cards allowed among 100 unflagged ones (default 1)",
    )
    parser.add_argument(
        "--silent-cost",
        type=float,
        default=SILENT_COST,
        help="needless checks of right cards worth one misread left unflagged; the threshold "
        f"that costs least within --max-wrong is chosen (default {SILENT_COST:g})",
    )


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from blackcat.vision.calibration import UNCALIBRATED
    from blackcat.vision.reader import CardReader
    from blackcat.workshop.evaluation import (
        KittyReport,
        TableReport,
        evaluate_kitty,
        evaluate_table,
        reliability_text,
    )
    from blackcat.workshop.kitty import make_kitty_scenes
    from blackcat.workshop.table_scenes import make_table_scenes

    if args.table and args.faults:
        print("--faults adds kitty scenes: leave it out with --table", file=sys.stderr)
        return 2
    reader = CardReader.load(args.models)
    raw: KittyReport | TableReport
    if args.table:
        reader.table_calibration = UNCALIBRATED
        tables = make_table_scenes(args.table, args.scenes or TABLE_SCENES, args.seed)
        raw = evaluate_table(reader, tables)
        path = args.models / TABLE_CALIBRATION_FILE
    else:
        reader.calibration = UNCALIBRATED
        scenes = list(make_kitty_scenes(args.kitty, args.scenes or 300, args.seed))
        if args.faults:
            faults_dir = args.kitty.with_name(args.kitty.name + "-faults")
            scenes += make_kitty_scenes(faults_dir, args.faults, args.seed, faults=True)
        raw = evaluate_kitty(reader, scenes)
        path = args.models / CALIBRATION_FILE
    print("uncalibrated: " + raw.summary())
    print(reliability_text(raw.probabilities, raw.rights))
    mapping = fit(raw.evidence, raw.rights)
    calibrated = [mapping(evidence) for evidence in raw.evidence]
    print(f"logistic weights (bias, card, detected, index, upright, corners): {mapping.weights}")
    drop_below = choose_drop_threshold(calibrated, raw.reals)
    kept = [n for n, p in enumerate(calibrated) if p >= drop_below]
    choice = choose_threshold(
        [calibrated[n] for n in kept],
        [raw.rights[n] for n in kept],
        args.max_wrong,
        args.silent_cost,
    )
    mapping = replace(mapping, doubtful_below=choice.doubtful_below, drop_below=drop_below)
    dropped_real = sum(raw.reals[n] for n in range(len(calibrated)) if calibrated[n] < drop_below)
    print(
        f"not shown below {drop_below:.3f}: {len(calibrated) - len(kept)} reads, of them "
        f"{dropped_real} where a card is (mostly misread) and "
        f"{len(calibrated) - len(kept) - dropped_real} where none is"
    )
    print("calibrated:")
    print(reliability_text(calibrated, raw.rights))
    for threshold in (0.5, 0.7, 0.8, 0.9, choice.doubtful_below):
        rates = flag_rates([calibrated[n] for n in kept], [raw.rights[n] for n in kept], threshold)
        print(
            f"  doubtful below {threshold:.3f}: {rates.wrong_unflagged_per_100:.2f} wrong in 100 "
            f"unflagged, {rates.right_flagged:.3f} of right cards flagged"
        )
    path.write_text(json.dumps(mapping.to_json(), indent=1) + "\n")
    print(
        f"chose doubtful below {choice.doubtful_below:.3f}, not shown below {drop_below:.3f}; "
        f"wrote {path}"
    )
    return 0
