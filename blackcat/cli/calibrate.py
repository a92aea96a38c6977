"""`blackcat calibrate`: fit the reader's probabilities and doubt threshold on kitty scenes.

The reader reads a calibration set of kitty scenes (held-out decks; another seed than the set
`blackcat evaluate --kitty` measures on) with no calibration; a fit of "the card was right" on
what the models said (`calibration.fit`) becomes models/calibration.json, with the probability
under which a read is not shown and the doubt threshold that costs the player least (a misread
left unflagged costs `--silent-cost` needless checks) while leaving at most `--max-wrong` wrong
cards in 100 unflagged ones.

With `--table DIR` it chooses the doubt threshold of a whole table's cards instead
(models/table_calibration.json) on whole-table scenes read with the one-player calibration: their
cards stand small, turned and at a slant, and the table detector finds them, so the same
probability means more or less there. The threshold is the highest that flags at most
`--max-flagged` of the right cards. Their probabilities stay the one-player calibration's: the
layout weighs cards by them (a fit of its own on tables left more phantoms).

With `--agreement DIR` it fits how a card's probability takes in the other reads of its photo
instead (`agreement`; the `agreement` weights of models/calibration.json, the rest kept): on
scattered cards in small frames (DIR, drawn there when missing), which the reader reads several
ways, a card most other reads also read is right more often than its probability says.

With `--four-index DIR` it fits the weight of a card seen at three of its corners instead (the
last of models/calibration.json's logistic weights, the rest kept) on kitty scenes of cards
printed with four indices under camera faults (DIR, drawn there when missing): a card lying whole
shows all four, and its corners agreeing say more than one index sure of itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from blackcat.cli.arguments import number_from, share, whole_number
from blackcat.vision.calibration import (
    CALIBRATION_FILE,
    SILENT_COST,
    TABLE_CALIBRATION_FILE,
    Calibration,
    ThresholdChoice,
    choose_drop_threshold,
    choose_threshold,
    choose_threshold_flagging_at_most,
    fit,
    fit_agreement,
    flag_rates,
)
from blackcat.vision.reader import MODELS_DIR
from blackcat.workshop.files import write_problem

if TYPE_CHECKING:
    from blackcat.vision.reader import CardReader
    from blackcat.workshop.evaluation import TableReport

DEFAULT_DIR = Path("datasets/generated/kitty-calibration")
KITTY_SCENES = 300
TABLE_SCENES = 150
AGREEMENT_SCENES = 300
FOUR_INDEX_SCENES = 120
MAX_TABLE_FLAGGED = 0.1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kitty", type=Path, default=DEFAULT_DIR, help=f"scenes folder (default {DEFAULT_DIR})"
    )
    parser.add_argument(
        "--table",
        type=Path,
        metavar="DIR",
        help="choose the doubt threshold of a whole table's cards (table_calibration.json) on "
        "the whole-table scenes in DIR instead (drawn there when missing; another seed than "
        "`evaluate --table` measures on)",
    )
    parser.add_argument(
        "--agreement",
        type=Path,
        metavar="DIR",
        help="fit how a card's probability takes in its photo's other reads (the agreement "
        "weights of calibration.json) on scattered cards in 640 px frames in DIR instead "
        "(`blackcat synth` scenes, drawn there when missing)",
    )
    parser.add_argument(
        "--four-index",
        type=Path,
        metavar="DIR",
        help="fit the weight of a card seen at three of its corners on kitty scenes of "
        "four-index cards under camera faults in DIR instead (drawn there when missing; the "
        "rest of calibration.json kept)",
    )
    parser.add_argument(
        "--scenes",
        type=whole_number(1),
        help=f"scenes (default {KITTY_SCENES}; with --table {TABLE_SCENES}; with --agreement "
        f"{AGREEMENT_SCENES}; with --four-index {FOUR_INDEX_SCENES})",
    )
    parser.add_argument(
        "--seed", type=whole_number(0), default=9, help="seed of the scenes (default 9)"
    )
    parser.add_argument(
        "--faults",
        type=whole_number(0),
        default=0,
        metavar="N",
        help="also fit on N kitty scenes each under a camera condition (evaluate --kitty-faults; "
        "drawn into the --kitty folder's sibling KITTY-faults, same seed; default 0: none)",
    )
    parser.add_argument(
        "--models",
        type=Path,
        default=MODELS_DIR,
        help="folder with the weights, where the fit is written (default: the bundled models/)",
    )
    parser.add_argument(
        "--max-wrong",
        type=number_from(0, 100),
        default=1.0,
        help="wrong cards allowed among 100 unflagged ones (default 1)",
    )
    parser.add_argument(
        "--max-flagged",
        type=share,
        default=MAX_TABLE_FLAGGED,
        help="with --table: the share of right cards a whole table's threshold may flag "
        f"(default {MAX_TABLE_FLAGGED:g}); the highest such threshold is chosen",
    )
    parser.add_argument(
        "--silent-cost",
        type=number_from(1, 1000),
        default=SILENT_COST,
        help="needless checks of right cards worth one misread left unflagged; the threshold "
        f"that costs least within --max-wrong is chosen (default {SILENT_COST:g})",
    )


def run(args: argparse.Namespace) -> int:
    from blackcat.cli.evaluate import scene_file_problem
    from blackcat.workshop.evaluation import DamagedSceneError
    from blackcat.workshop.kitty import OtherScenesError
    from blackcat.workshop.synth.cardart import CardArtError

    try:
        return calibrate(args)
    except OtherScenesError as error:
        print(f"blackcat calibrate: {error}", file=sys.stderr)
        return 2
    except (DamagedSceneError, CardArtError) as error:  # met partway: nothing written
        print(f"blackcat calibrate: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        if error.filename is None:
            raise  # stdout's own: `run_command` says it
        print(f"blackcat calibrate: {scene_file_problem(error)}", file=sys.stderr)
        return 1


def calibrate(args: argparse.Namespace) -> int:
    from blackcat.vision.calibration import UNCALIBRATED
    from blackcat.vision.reader import CardReader, ModelsMissingError
    from blackcat.workshop.evaluation import evaluate_kitty, evaluate_table, reliability_text
    from blackcat.workshop.kitty import make_kitty_scenes
    from blackcat.workshop.table_scenes import make_table_scenes

    if (args.table or args.agreement or args.four_index) and args.faults:
        print("--faults adds kitty scenes: leave it out here", file=sys.stderr)
        return 2
    if sum(folder is not None for folder in (args.table, args.agreement, args.four_index)) > 1:
        print(
            "--table, --agreement and --four-index fit different things: give one",
            file=sys.stderr,
        )
        return 2
    for folder in (args.table, args.agreement, args.four_index):
        if folder is not None and folder.exists() and not folder.is_dir():
            print(f"blackcat calibrate: {folder} is a file: give a folder", file=sys.stderr)
            return 2
    try:
        reader = CardReader.load(args.models)
        reader.load_every_model()  # a damaged one refused here, not partway through
    except ModelsMissingError as error:
        print(f"blackcat calibrate: {error}", file=sys.stderr)
        return 2
    if args.agreement:
        return fit_agreement_weights(reader, args)
    if args.four_index:
        return fit_four_index_weight(reader, args)
    if args.table:
        reader.table_doubtful_below = None
        tables = make_table_scenes(args.table, args.scenes or TABLE_SCENES, args.seed)
        return choose_table_threshold(evaluate_table(reader, tables), args)
    kept_agreement = reader.calibration.agreement
    reader.calibration = UNCALIBRATED
    scenes = list(make_kitty_scenes(args.kitty, args.scenes or KITTY_SCENES, args.seed))
    if args.faults:
        faults_dir = args.kitty.with_name(args.kitty.name + "-faults")
        scenes += make_kitty_scenes(faults_dir, args.faults, args.seed, faults=True)
    raw = evaluate_kitty(reader, scenes)
    print("uncalibrated: " + raw.summary())
    if not raw.rights:
        print(
            f"blackcat calibrate: no card was read in {len(scenes)} scenes: check the models "
            f"in {args.models} (`blackcat evaluate --kitty DIR --models {args.models}`). Nothing "
            "written.",
            file=sys.stderr,
        )
        return 2
    harder = " or harder ones (--faults N)"
    if fitted_on_no_misread(raw.rights, "cards read", "a doubt threshold is", harder):
        return 2
    print(reliability_text(raw.probabilities, raw.rights))
    mapping = fit(raw.evidence, raw.rights)
    calibrated = [mapping(evidence) for evidence in raw.evidence]
    print(
        "logistic weights (bias, card, detected, index, upright, corners > 1, framed): "
        f"{mapping.weights}"
    )
    drop_below = choose_drop_threshold(calibrated, raw.reals)
    kept = [n for n, p in enumerate(calibrated) if p >= drop_below]
    choice = choose_threshold(
        [calibrated[n] for n in kept],
        [raw.rights[n] for n in kept],
        args.max_wrong,
        args.silent_cost,
    )
    mapping = replace(
        mapping,
        doubtful_below=choice.doubtful_below,
        drop_below=drop_below,
        agreement=kept_agreement,
    )
    dropped_real = sum(raw.reals[n] for n in range(len(calibrated)) if calibrated[n] < drop_below)
    print(
        f"not shown below {drop_below:.3f}: {len(calibrated) - len(kept)} reads, of them "
        f"{dropped_real} where a card is (mostly misread) and "
        f"{len(calibrated) - len(kept) - dropped_real} where none is"
    )
    print("calibrated:")
    print(reliability_text(calibrated, raw.rights))
    print_flag_rates([calibrated[n] for n in kept], [raw.rights[n] for n in kept], choice)
    path = args.models / CALIBRATION_FILE
    if not wrote(path, json.dumps(mapping.to_json(), indent=1) + "\n"):
        return 1
    print(
        f"chose doubtful below {choice.doubtful_below:.3f}, not shown below {drop_below:.3f}; "
        f"wrote {path}"
    )
    if kept_agreement:
        print("agreement weights kept as they were: fit them again for these probabilities")
        print("(blackcat calibrate --agreement DIR)")
    print("fit the weight of a card seen at three of its corners on four-index cards next")
    print("(blackcat calibrate --four-index DIR): kitty scenes seldom show one")
    return 0


def fit_four_index_weight(reader: CardReader, args: argparse.Namespace) -> int:
    """The weight of a card seen at three of its corners (`calibration.fit_framed_weight`),
    fitted on four-index kitty scenes under camera faults in `args.four_index`, read
    uncalibrated as `blackcat calibrate` reads its scenes; the rest of the calibration kept."""
    from blackcat.vision.calibration import UNCALIBRATED, fit_framed_weight
    from blackcat.workshop.evaluation import evaluate_kitty
    from blackcat.workshop.kitty import make_kitty_scenes

    kept = reader.calibration
    if not kept.weights:
        print(
            "blackcat calibrate: no calibration in the models folder to add the weight to: "
            "run blackcat calibrate first",
            file=sys.stderr,
        )
        return 2
    reader.calibration = UNCALIBRATED
    count = args.scenes or FOUR_INDEX_SCENES
    scenes = make_kitty_scenes(
        args.four_index, count, args.seed, faults=True, card_style="four_index"
    )
    raw = evaluate_kitty(reader, scenes)
    print("uncalibrated: " + raw.summary())
    try:
        mapping = fit_framed_weight(kept, raw.evidence, raw.rights)
    except ValueError as error:
        print(f"blackcat calibrate: {error}", file=sys.stderr)
        return 1
    print(f"weight of a card seen at three of its corners: {mapping.weights[-1]:.4f}")
    many = [n for n, evidence in enumerate(raw.evidence) if evidence.framed]
    rights = [raw.rights[n] for n in many]
    print(f"{len(many)} cards seen at three of their corners, {rights.count(False)} of them wrong")
    compared = {
        name: [calibration(raw.evidence[n]) for n in many]
        for name, calibration in (("kept", kept), ("fitted", mapping))
    }
    cards = "cards seen at three of their corners"
    return compare_and_write(mapping, compared, rights, args.models, cards, "their weight is")


def fit_agreement_weights(reader: CardReader, args: argparse.Namespace) -> int:
    """The agreement weights of the calibration (`Calibration.agreed`), fitted on the cards
    of the scattered scenes in `args.agreement` that were read several ways, read with the
    calibration as it is but for them; the doubt threshold is kept."""
    from blackcat.workshop.evaluation import judged_scene_cards, load_scene_truths
    from blackcat.workshop.synth.cardart import CardArtError

    try:
        scenes = load_scene_truths(
            draw_scattered_scenes(args.agreement, args.scenes or AGREEMENT_SCENES, args.seed)
        )
    except (CardArtError, ValueError) as error:
        print(f"blackcat calibrate: {error}", file=sys.stderr)
        return 1
    if not scenes:
        print(
            f"no scenes in {args.agreement / 'detect' / 'meta' / 'val'}: give a new folder "
            "to draw them in",
            file=sys.stderr,
        )
        return 2
    kept = reader.calibration
    reader.calibration = replace(kept, agreement=())
    probabilities, shares, rights = [], [], []
    for scene in scenes:
        for card, right in judged_scene_cards(reader, scene):
            if card.agreement is not None:
                probabilities.append(card.confidence)
                shares.append(card.agreement)
                rights.append(right)
    if len(probabilities) < 2:
        print(f"too few cards read several ways in {args.agreement} to fit", file=sys.stderr)
        return 1
    mapping = replace(kept, agreement=fit_agreement(probabilities, shares, rights))
    agreed = [mapping.agreed(p, share) for p, share in zip(probabilities, shares, strict=True)]
    print(f"{len(probabilities)} cards read several ways in {len(scenes)} scenes")
    print(f"agreement weights (bias, card, share agreeing): {mapping.agreement}")
    compared = {"without agreement": probabilities, "with agreement": agreed}
    fitted = "the agreement weights are"
    return compare_and_write(
        mapping, compared, rights, args.models, "cards read several ways", fitted
    )


def compare_and_write(
    mapping: Calibration,
    compared: dict[str, list[float]],
    rights: list[bool],
    models: Path,
    cards: str,
    fitted: str,
) -> int:
    """Print how each of `compared`'s probabilities of the same cards flags them at the doubt
    threshold (`rights`: whether each card was right), then write `mapping` into `models`
    unless none of the cards was wrong (`fitted_on_no_misread`)."""
    for name, probabilities in compared.items():
        rates = flag_rates(probabilities, rights, mapping.doubtful_below)
        print(
            f"  {name}, doubtful below {mapping.doubtful_below:.3f}: "
            f"{rates.wrong_unflagged_per_100:.2f} wrong in 100 unflagged, "
            f"{rates.right_flagged:.3f} of right cards flagged"
        )
    if fitted_on_no_misread(rights, cards, fitted):
        return 2
    path = models / CALIBRATION_FILE
    if not wrote(path, json.dumps(mapping.to_json(), indent=1) + "\n"):
        return 1
    print(f"wrote {path}")
    return 0


def wrote(path: Path, text: str) -> bool:
    """Whether `text` was written to `path`; where it could not be, said in one line on stderr
    (the fit is printed above it; what was in `path` is left as it was)."""
    if problem := write_problem(path, text):
        print(
            f"blackcat calibrate: could not write {path} ({problem}): nothing written; give "
            "--models a folder you can write to, with the models in it",
            file=sys.stderr,
        )
        return False
    return True


def fitted_on_no_misread(
    rights: Sequence[bool], cards: str, fitted: str, other_scenes: str = ""
) -> bool:
    """Whether none of the measured `cards` was wrong, said with what to do (measure more
    scenes, or `other_scenes`): a fit learns from where the reader errs, and one on right cards
    alone would flag none, ever."""
    if not all(rights):
        return False
    print(
        f"blackcat calibrate: none of the {len(rights)} {cards} was wrong: {fitted} fitted on "
        f"where the reader errs; measure more scenes (--scenes){other_scenes}. Nothing written.",
        file=sys.stderr,
    )
    return True


def draw_scattered_scenes(folder: Path, scenes: int, seed: int) -> Path:
    """`folder`, where the synth draws scenes of fanned and loose cards in 640 px frames (all
    with held-out decks, camera faults as in training) when it holds none yet: `blackcat synth
    --imgsz 640 --val-fraction 1 --no-crops --layouts fan=1,singles=1`."""
    from blackcat.vision.parallel import usable_cores
    from blackcat.workshop.synth.layout import parse_layout_weights
    from blackcat.workshop.synth.scene import SynthConfig
    from blackcat.workshop.synth.writer import generate

    if not (folder / "detect" / "meta" / "val").is_dir():
        print(f"drawing {scenes} scenes of scattered cards into {folder}")
        layouts = parse_layout_weights("fan=1,singles=1")
        config = SynthConfig(imgsz=640, val_fraction=1.0, crops=False, layout_weights=layouts)
        for _ in generate(folder, scenes, seed, config, workers=usable_cores()):
            pass
    return folder


def print_flag_rates(
    probabilities: list[float], rights: list[bool], choice: ThresholdChoice
) -> None:
    for threshold in (0.5, 0.7, 0.8, 0.9, choice.doubtful_below):
        rates = flag_rates(probabilities, rights, threshold)
        print(
            f"  doubtful below {threshold:.3f}: {rates.wrong_unflagged_per_100:.2f} wrong in 100 "
            f"unflagged, {rates.right_flagged:.3f} of right cards flagged"
        )


def choose_table_threshold(report: TableReport, args: argparse.Namespace) -> int:
    """The doubt threshold of a whole table's cards, on the probabilities the one-player
    calibration gave them (`report`): the highest that flags at most `--max-flagged` of the
    right cards. The least-cost rule of one player's photos would flag a twentieth and leave
    ten times the misreads silent, and fewer flags also leave more missing cards unmarked."""
    from blackcat.workshop.evaluation import reliability_text

    print("read with the one-player calibration: " + report.summary())
    print(reliability_text(report.probabilities, report.rights))
    choice = choose_threshold_flagging_at_most(
        report.probabilities, report.rights, args.max_flagged, args.max_wrong, args.silent_cost
    )
    print_flag_rates(report.probabilities, report.rights, choice)
    if fitted_on_no_misread(report.rights, "cards read", "a whole table's doubt threshold is"):
        return 2
    path = args.models / TABLE_CALIBRATION_FILE
    threshold = {"doubtful_below": round(choice.doubtful_below, 4)}
    if not wrote(path, json.dumps(threshold, indent=1) + "\n"):
        return 1
    print(f"chose doubtful below {choice.doubtful_below:.3f} for whole tables; wrote {path}")
    return 0
