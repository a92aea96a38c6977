"""The classifier alone on a whole table's detected indices: how often its best card is right,
by how tall the index stands in the photo, read from its own crop and as the mean of the reader's
second looks (its crop and SECOND_LOOKS). Detections are matched to the scenes' truth boxes
(IoU >= 0.5); what the first read calls no index is left out.

    .venv/bin/python workshop/classifier_looks.py [--table datasets/generated/table] [--scenes 30]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from blackcat.vision.colour import white_balance
from blackcat.vision.image_io import open_photo
from blackcat.vision.layout import NOT_AN_INDEX_ABOVE
from blackcat.vision.reader import SECOND_LOOKS, CardReader, crop_picture, cut_crops, summarise
from blackcat.vision.table_layout import glyph_pixels
from blackcat.workshop.evaluation import GLYPH_SIZES, box_overlaps, glyph_size_name


def best_match(box: tuple[float, ...], truth: np.ndarray) -> int | None:
    """The truth box overlapping `box` most, if by an IoU of at least 0.5."""
    if not len(truth):
        return None
    iou = box_overlaps(box, truth)
    best = int(iou.argmax())
    return best if iou[best] >= 0.5 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", type=Path, default=Path("datasets/generated/table"))
    parser.add_argument("--scenes", type=int, default=30)
    parser.add_argument("--models", type=Path, default=Path("models"))
    args = parser.parse_args()
    reader = CardReader.load(args.models)
    right: Counter[tuple[str, str]] = Counter()
    seen: Counter[str] = Counter()
    for meta_path in sorted(args.table.glob("t*.json"))[: args.scenes]:
        meta = json.loads(meta_path.read_text())
        photo = open_photo(meta_path.parent / meta["image"])
        fix = white_balance(photo.picture(reader.settings.detect_size))
        indices, _, _ = reader.read_indices(photo, fix)
        labelled = [
            (index["box"], card["code"])
            for card in meta["cards"]
            for index in card["indices"]
            if index["labelled"]
        ]
        truth = np.array([box for box, _ in labelled]).reshape(-1, 4)
        for turns in sorted({index.seen_turned for index in indices}):
            matched = [
                (index, labelled[n][1])
                for index in indices
                if index.seen_turned == turns
                and index.index_probability >= NOT_AN_INDEX_ABOVE
                and (n := best_match(index.box, truth)) is not None
            ]
            if not matched:
                continue
            boxes = [index.box for index, _ in matched]
            picture, in_picture = crop_picture(photo, boxes, finer_decoded=True)
            looks = [(reader.settings.crop_padding, 0.0, 0.0), *SECOND_LOOKS]
            answers = [
                reader.crop_probabilities(cut_crops(picture, in_picture, fix, *look), turns, fix)
                for look in looks
            ]
            for n, (index, code) in enumerate(matched):
                size = glyph_size_name(glyph_pixels(index))
                seen[size] += 1
                for name, rows in (
                    ("own crop", answers[0][n]),
                    ("mean of looks", np.mean([a[n] for a in answers], axis=0)),
                ):
                    guesses = summarise(np.asarray(rows), reader.class_tables, 1)[0]
                    right[(name, size)] += bool(guesses) and guesses[0].card.code == code
    for name in ("own crop", "mean of looks"):
        shares = ", ".join(
            f"{size} {right[(name, size)] / seen[size]:.3f} ({seen[size]})"
            for size in GLYPH_SIZES
            if seen[size]
        )
        print(f"{name}: {shares}")


if __name__ == "__main__":
    main()
