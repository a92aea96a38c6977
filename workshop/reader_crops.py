"""Classifier crops cut as the reader cuts them, for training and measuring the classifier on
what it really sees: the reader's own search (`CardReader.detect`, through the photo's colour
fix) on the scenes of a `blackcat synth` set, each box it finds cut at the reader's crop
resolution and padding (`crop_picture`, `cut_crops`), turned a random quarter turn (so all
four orientations are learnt alike) and sized as the classifier takes it (`classifier_view`,
at its trained size). Each is labelled from the scene's ground truth: a box that overlaps a
labelled index (IoU >= MATCH) is that card, its glyph's orientation as it stands in the crop;
one near no index (IoU < APART with every index shown at all) is `none` (a detection of
something else: the hard negatives `blackcat synth` can't draw); the rest are left out.
Indices under MIN_HEIGHT px in the photo are left out too (a 640 px table's far indices: a few
grey pixels, noise to learn from). Dark-faced decks' scenes are skipped (the reader reads them
through their negative, in two inks).

    .venv/bin/python workshop/reader_crops.py --out datasets/generated/rc33cls \\
        datasets/generated/tilt32 datasets/generated/rc33 [--split val]

writes OUT/SPLIT/<CARD>-<T>/r<SET>_<SCENE>_<K>.png and OUT/SPLIT/none/... (session 33).
With `--measure`, writes nothing and prints how often the models' classifier reads the crops
already in OUT/SPLIT right (top-1, by the set they came from, and by deck), and the suits it
reads for another of the same rank most often (`C>S`: a club read as a spade): a measure of the
classifier on the pixels the reader gives it. Session 34: every fine-tune so far that lost kitty
piles read more of the held-out plastic deck's clubs as spades (session 33's: 45 -> 80 of its
validation crops here), though it read every held-out deck better on the whole.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np
from PIL import Image

from blackcat.games.cards import parse_card
from blackcat.vision.classes import NOT_AN_INDEX, QUARTER_TURNS, class_name, parse_class_name
from blackcat.vision.colour import fix_for
from blackcat.vision.image_io import open_photo
from blackcat.vision.onnx_models import OnnxClassifier, classifier_view
from blackcat.vision.reader import (
    CLASSIFIER_FILE,
    MODELS_DIR,
    CardReader,
    CropClassifier,
    crop_picture,
    cut_crops,
)
from blackcat.vision.types import Box
from blackcat.workshop.evaluation import box_overlaps
from blackcat.workshop.synth.decks import Corner, DeckSpec, deck_by_name
from blackcat.workshop.synth.scene import IndexLabel, glyph_orientation
from blackcat.workshop.training import ClassifierSettings

CROP_SIZE = ClassifierSettings().imgsz  # the classifier's input, as trained
MATCH = 0.45
APART = 0.1
MIN_HEIGHT = 12.0
SEEN_FROM = 0.05  # an index less visible than this is hidden: a box on it shows no index


def shown_indices(meta: dict) -> list[tuple[IndexLabel, str]]:
    """Every index of a scene's ground truth that shows at all, with its card's code."""
    return [
        (
            IndexLabel(
                Corner(index["corner"]),
                np.asarray(index["quad"], dtype=np.float64),
                tuple(index["box"]),
                index["visibility"],
                index["labelled"],
            ),
            card["code"],
        )
        for card in meta["cards"]
        for index in card["indices"]
        if index["visibility"] >= SEEN_FROM
    ]


def label_of(
    box: Box, shown: list[tuple[IndexLabel, str]], deck: DeckSpec
) -> tuple[str, int] | None:
    """The card code (or NOT_AN_INDEX) and glyph quarter turns of the crop round `box` as cut,
    or None where the box is too near an index to call it none and too far to call it one."""
    if not shown:
        return NOT_AN_INDEX, 0
    overlaps = box_overlaps(box, np.array([index.box for index, _ in shown]))
    best = int(overlaps.argmax())
    index, code = shown[best]
    if overlaps[best] >= MATCH and index.labelled:
        return code, glyph_orientation(index, deck)
    if overlaps[best] < APART:
        return NOT_AN_INDEX, 0
    return None


def folder_name(code: str, turns: int) -> str:
    """The class folder of a crop of `code`'s index whose glyph stands `turns` quarter turns."""
    if code == NOT_AN_INDEX:
        return NOT_AN_INDEX
    return class_name(parse_card(code), turns)


def harvest(
    reader: CardReader,
    set_dir: Path,
    split: str,
    out: Path,
    rng: np.random.Generator,
    none_only: bool = False,
    heights: tuple[float, float] | None = None,
) -> Counter[str]:
    """Write the reader's crops of one set's scenes of `split`; what was written and left out.
    With `none_only`, only its `none` crops (hard negatives). `heights`: the boxes' heights in
    the photo (pixels, least and most) to write; by default at least MIN_HEIGHT, any height
    with `none_only`."""
    least, most = heights or ((0.0, np.inf) if none_only else (MIN_HEIGHT, np.inf))
    counts: Counter[str] = Counter()
    for meta_path in sorted((set_dir / "detect" / "meta" / split).glob("*.json")):
        meta = json.loads(meta_path.read_text())
        if meta.get("style") == "dark_face":
            counts["dark-faced scenes skipped"] += 1
            continue
        photo = open_photo(set_dir / "detect" / meta["image"])
        fix = fix_for(photo.picture(reader.settings.detect_size))
        boxes, _, _ = reader.detect(photo, fix)
        counts["scenes"] += 1
        if not boxes:
            continue
        picture, in_picture = crop_picture(photo, boxes)
        crops = cut_crops(picture, in_picture, fix, reader.settings.crop_padding)
        shown = shown_indices(meta)
        deck = deck_by_name(meta["deck"])
        for k, (box, crop) in enumerate(zip(boxes, crops, strict=True)):
            if not least <= box[3] - box[1] <= most:
                counts["height left out"] += 1
                continue
            label = label_of(box, shown, deck)
            if label is None:
                counts["ambiguous"] += 1
                continue
            code, glyph_turns = label
            if none_only and code != NOT_AN_INDEX:
                counts["cards left out"] += 1
                continue
            turns = int(rng.integers(QUARTER_TURNS))
            seen = np.ascontiguousarray(np.rot90(crop, turns))
            # np.rot90 turns anticlockwise: a glyph standing at T now stands at T - turns
            folder = out / split / folder_name(code, glyph_turns - turns)
            folder.mkdir(parents=True, exist_ok=True)
            square = classifier_view(seen, (CROP_SIZE, CROP_SIZE))
            Image.fromarray(square).save(folder / f"r{set_dir.name}_{meta_path.stem}_{k:02d}.png")
            counts["none" if code == NOT_AN_INDEX else "cards"] += 1
    return counts


def read_classes(classifier: CropClassifier, crops: list[Path]) -> list[str]:
    """The classifier's best class for each crop."""
    names = list(classifier.names)
    read: list[str] = []
    for start in range(0, len(crops), 512):
        batch = [np.asarray(Image.open(path).convert("RGB")) for path in crops[start : start + 512]]
        read += [names[k] for k in classifier.probabilities(batch).argmax(axis=1)]
    return read


def measured(truth: list[str], read: list[str]) -> tuple[float, float, int]:
    """Top-1 of the classes read against the truth: on all of them, on those of no index, and
    how many of those there are."""
    right = [r == t for r, t in zip(read, truth, strict=True)]
    of_none = [ok for ok, t in zip(right, truth, strict=True) if t == NOT_AN_INDEX]
    return float(np.mean(right)), float(np.mean(of_none)) if of_none else 0.0, len(of_none)


def suit_swaps(truth: list[str], read: list[str]) -> Counter[str]:
    """How often a card was read as the same rank of another suit, as `C>S` (a club read as a
    spade), whatever the glyph turns."""
    swaps: Counter[str] = Counter()
    for wanted, got in zip(truth, read, strict=True):
        wanted_card, got_card = parse_class_name(wanted).card, parse_class_name(got).card
        if wanted_card is None or got_card is None:
            continue
        if wanted_card.rank == got_card.rank and wanted_card.suit != got_card.suit:
            swaps[f"{wanted_card.suit.value}>{got_card.suit.value}"] += 1
    return swaps


def scene_values(set_dir: Path, split: str, key: str) -> dict[str, str]:
    """One value (`deck`, `style`, ...) of each of a set's scenes of `split`, by the scene's
    name (its meta file's)."""
    metas = sorted((set_dir / "detect" / "meta" / split).glob("*.json"))
    return {meta.stem: json.loads(meta.read_text())[key] for meta in metas}


def scene_of(crop: Path, set_dir: Path) -> str:
    """The scene a crop was cut from (its name: `<SCENE>_<K>.jpg` as `blackcat synth` cuts it,
    `r<SET>_<SCENE>_<K>.png` as this script does)."""
    return crop.stem.removeprefix(f"r{set_dir.name}_").rsplit("_", 1)[0]


def measure(classifier: CropClassifier, set_dir: Path, crops: list[Path], split: str) -> str:
    """What `--measure` prints for one set's crops: top-1 on them all, then by deck with the
    suits most often read for another."""
    truth = [path.parent.name for path in crops]
    read = read_classes(classifier, crops)
    top1, of_none, nones = measured(truth, read)
    deck_of_scene = scene_values(set_dir, split, "deck")
    decks = [deck_of_scene.get(scene_of(path, set_dir), "?") for path in crops]
    lines = [
        f"{set_dir.name}: {len(crops)} crops, top-1 {top1:.4f}, none read as none "
        f"{of_none:.4f} ({nones})"
    ]
    for deck in sorted(set(decks)):
        mine = [n for n, name in enumerate(decks) if name == deck]
        deck_truth, deck_read = [truth[n] for n in mine], [read[n] for n in mine]
        swaps = ", ".join(
            f"{swap} {n}" for swap, n in suit_swaps(deck_truth, deck_read).most_common(3)
        )
        deck_top1 = measured(deck_truth, deck_read)[0]
        lines.append(
            f"  {deck}: {len(mine)} crops, top-1 {deck_top1:.4f}; suits read for another: {swaps}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", type=Path, help="`blackcat synth` output folders")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--split", default="train", choices=["train", "val"])
    parser.add_argument("--models", type=Path, default=None, help="the reader's models")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument(
        "--measure",
        action="store_true",
        help="print the models' top-1 (by deck) and suit swaps instead",
    )
    parser.add_argument(
        "--none-only",
        action="store_true",
        help="write only the hard negatives (`none` crops, any size): e.g. a small table's clutter",
    )
    parser.add_argument(
        "--heights",
        nargs=2,
        type=float,
        metavar=("LEAST", "MOST"),
        help=f"write only boxes this tall in the photo, in pixels (default: at least "
        f"{MIN_HEIGHT:g}; any with --none-only)",
    )
    arguments = parser.parse_args()
    if arguments.measure:
        weights = (arguments.models or MODELS_DIR) / CLASSIFIER_FILE
        if not weights.is_file():
            raise SystemExit(f"{weights} not found: export the classifier (`blackcat export`)")
        classifier = OnnxClassifier(weights)
        crops = sorted((arguments.out / arguments.split).glob("*/*.png"))
        for set_dir in arguments.sets:
            mine = [path for path in crops if path.name.startswith(f"r{set_dir.name}_")]
            print(measure(classifier, set_dir, mine, arguments.split), flush=True)
        return
    reader = CardReader.load(arguments.models or MODELS_DIR)
    rng = np.random.default_rng(arguments.seed)
    for set_dir in arguments.sets:
        counts = harvest(
            reader,
            set_dir,
            arguments.split,
            arguments.out,
            rng,
            arguments.none_only,
            tuple(arguments.heights) if arguments.heights else None,
        )
        print(set_dir, dict(counts), flush=True)


if __name__ == "__main__":
    main()
