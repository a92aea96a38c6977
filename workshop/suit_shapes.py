"""Training crops for the suit-shape classifier: the card crops of `blackcat synth` sets, each as
`ink_shape` makes it (dark ink on white, whatever its ink's colour), filed by its suit alone.

The reader reads a card's suit from this classifier where the photo's colours say nothing of
the suits (a deck printed in one light ink, read through its negative; a black-and-white photo):
it learns a suit's shape from every deck and style, red suits as dark as black ones. A crop of
a dark-faced deck (its scene's style says so) is turned to its negative first, as the reader
sees such a deck. `none` crops are left out: the card classifier tells an index from anything
else.

    .venv/bin/python workshop/suit_shapes.py --out datasets/generated/suits35 \\
        datasets/generated/s35

writes OUT/{train,val}/{S,H,D,C}/<SET>_<NAME>.png (session 35). With `--measure SET`, writes
nothing and prints how often the models read the suits, and the cards at their turns, of SET's
validation card crops (held-out decks) right where their colours say nothing of the suits: by the
kept rule (the card classifier's read of each crop tinted black and tinted red, `read_by_tint`)
and with the suit-shape classifier (`read_by_shape`), as the reader reads them:

    .venv/bin/python workshop/suit_shapes.py --measure datasets/generated/s35 [--models DIR]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from PIL import Image
from reader_crops import scene_of, scene_values  # workshop/, beside this script

from blackcat.games.cards import ALL_CARDS
from blackcat.vision.classes import NOT_AN_INDEX, parse_class_name
from blackcat.vision.colour import ink_shape
from blackcat.vision.reader import (
    CLASSIFIER_FILE,
    MODELS_DIR,
    SUIT_CLASSIFIER_FILE,
    class_tables,
    read_by_shape,
    read_by_tint,
)

DARK_FACED = "dark_face"  # the style whose cards are printed light on dark


def shape_crop(crop: np.ndarray, dark_faced: bool) -> np.ndarray:
    """A training crop (RGB) as the suit-shape classifier sees it (`ink_shape`), a dark-faced
    card's as its negative's."""
    return ink_shape(_as_the_reader_sees(crop[..., :3], dark_faced))


def _as_the_reader_sees(crop: np.ndarray, dark_faced: bool) -> np.ndarray:
    """A drawn crop as the reader's crops of its photo are: a dark-faced card's as its
    negative (`ink_shape` takes the darkest channel, which every negative of the reader's
    gives alike)."""
    return 255 - crop if dark_faced else crop


def dark_faced_scenes(data: Path, split: str) -> set[str]:
    """The names of a synth set's scenes of `split` drawn with a dark-faced deck."""
    return {
        scene for scene, style in scene_values(data, split, "style").items() if style == DARK_FACED
    }


def suit_folder(class_name: str) -> str | None:
    """The suit letter a card class is filed under, None for `none`."""
    if class_name == NOT_AN_INDEX:
        return None
    card = parse_class_name(class_name).card
    return card.suit.value if card else None


def _convert(job: tuple[Path, Path, bool]) -> None:
    source, target, dark_faced = job
    crop = np.asarray(Image.open(source).convert("RGB"))
    Image.fromarray(shape_crop(crop, dark_faced)).save(target)


def jobs(sets: list[Path], out: Path) -> list[tuple[Path, Path, bool]]:
    """(source crop, target file, whether its card is dark-faced) for every card crop of the
    sets' classify folders."""
    found: list[tuple[Path, Path, bool]] = []
    for data in sets:
        dark = {split: dark_faced_scenes(data, split) for split in ("train", "val")}
        for class_dir in sorted((data / "classify").glob("*/*")):
            suit = suit_folder(class_dir.name)
            if suit is None:
                continue
            split = class_dir.parent.name
            target_dir = out / split / suit
            target_dir.mkdir(parents=True, exist_ok=True)
            found += [
                (
                    crop,
                    target_dir / f"{data.name}_{crop.stem}.png",
                    scene_of(crop, data) in dark[split],
                )
                for crop in sorted(class_dir.glob("*.jpg"))
            ]
    return found


MEASURED_CROPS = 3000  # a sample of the validation crops, drawn the same way every time


def measure(data: Path, models: Path) -> None:
    """Print the share of `data`'s validation card crops whose suit, and whose card at its
    turn, each way of reading suits by shape reads right."""
    from blackcat.vision.onnx_models import OnnxClassifier

    files = sorted((data / "classify" / "val").glob("*-*/*.jpg"))
    random.Random(2).shuffle(files)
    files = files[:MEASURED_CROPS]
    classifier = OnnxClassifier(models / CLASSIFIER_FILE)
    suit_classifier = OnnxClassifier(models / SUIT_CLASSIFIER_FILE)
    tables = class_tables([parse_class_name(name) for name in classifier.names])
    dark = dark_faced_scenes(data, "val")
    crops = [
        _as_the_reader_sees(np.asarray(Image.open(f).convert("RGB")), scene_of(f, data) in dark)
        for f in files
    ]
    truth = np.array([classifier.names.index(f.parent.name) for f in files])
    by_tint = read_by_tint(classifier, crops, tables)
    by_shape = read_by_shape(classifier, suit_classifier, crops, tables)
    suits = suit_classifier.probabilities([ink_shape(crop) for crop in crops])
    cards_of, _ = tables
    true_suits = [ALL_CARDS[cards_of[n]].suit.value for n in truth]

    def suits_of(probabilities: np.ndarray) -> list[str]:
        best = cards_of[probabilities.argmax(axis=1)]
        return [ALL_CARDS[c].suit.value if c >= 0 else "-" for c in best]

    def right(read_suits: list[str]) -> float:
        return float(np.mean([a == b for a, b in zip(read_suits, true_suits, strict=True)]))

    shape_suits = [suit_classifier.names[n] for n in suits.argmax(axis=1)]
    print(f"{len(files)} validation card crops of {data}, read as printed in one ink:")
    print(
        f"  suit right: tinted copies {right(suits_of(by_tint)):.3f}, "
        f"suit-shape classifier {right(shape_suits):.3f}"
    )
    print(
        f"  card and turn right: tinted copies {np.mean(by_tint.argmax(1) == truth):.3f}, "
        f"with the suit-shape classifier {np.mean(by_shape.argmax(1) == truth):.3f}"
    )
    swaps = Counter(f"{t}>{r}" for t, r in zip(true_suits, shape_suits, strict=True) if t != r)
    print(
        "  suit-shape classifier's swaps:", ", ".join(f"{k} {v}" for k, v in swaps.most_common(6))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", type=Path, help="blackcat synth output folders")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--measure", type=Path, help="a blackcat synth set to measure")
    parser.add_argument("--models", type=Path, default=MODELS_DIR)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure, args.models)
        return
    if not args.sets or args.out is None:
        parser.error("give the sets to file and --out")
    todo = jobs(args.sets, args.out)
    with ProcessPoolExecutor(args.workers) as pool:
        list(pool.map(_convert, todo, chunksize=256))
    counts = Counter(f"{target.parent.parent.name}/{target.parent.name}" for _, target, _ in todo)
    print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
