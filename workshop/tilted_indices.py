"""The classifier alone on the labelled indices of scattered cards (scenes of `blackcat synth
--layouts fan=1,singles=1`, their true boxes): how often its best card is right on cards tilted
by more than TILTED_FROM degrees and on the others, read from the crop the reader cuts (square
round the box), from that crop turned upright by the card's true tilt, and from the crop
`deskew` turns by the tilt it measures. A card counts as read right where its surest index
reads it right. What a classifier that reads tilted glyphs as well as upright ones could gain,
and what measuring the tilt better could: a fourth cut turns the crop by the tilt of the
straightest lines round the index (`line_tilt`, a candidate for `deskew.card_angle`; session 32).

    .venv/bin/python workshop/tilted_indices.py [--synthetic datasets/generated/scatter640]
"""

from __future__ import annotations

import argparse
import cmath
import json
import math
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from blackcat.vision.colour import fix_for
from blackcat.vision.deskew import turned_crop, upright_crop
from blackcat.vision.image_io import open_photo
from blackcat.vision.reader import CardReader, square_crop, summarise, sureness
from blackcat.vision.types import Box

TILTED_FROM = 15.0
CUTS = (
    "as cut",
    "turned by the true tilt",
    "turned by the measured tilt",
    "turned by the straightest lines' tilt",
)
LINES_ACROSS = 96  # a larger patch is shrunk to this many pixels first (speed)
LINE_VOTES = 0.3  # share of the patch's side a line's edge pixels must cover...
BY_CHANCE = 2.0  # ...and times the disc's share of edge pixels (noise makes lines too)
LINES_TOLD = 8  # the longest lines this many tell the direction...
SURE_DIRECTION = 0.5  # ...where their mean direction, folded four times, is this long


def card_tilt(quad: list[list[float]]) -> float:
    """The card's tilt, anticlockwise as seen, within (-45, 45] degrees: its quad's top edge."""
    (x1, y1), (x2, y2) = quad[0], quad[1]
    degrees = -math.degrees(math.atan2(y2 - y1, x2 - x1))
    return (degrees + 45.0) % 90.0 - 45.0


def line_tilt(patch: np.ndarray) -> float | None:
    """The card's tilt in degrees within [-45, 45) (anticlockwise as seen) from the straightest
    lines on the disc inscribed in the patch (Canny's edges, Hough's lines; the disc, so that
    no direction has longer lines to find), or None where they don't agree on one."""
    longer = max(patch.shape[:2])
    if longer > LINES_ACROSS:
        shrink = LINES_ACROSS / longer
        patch = cv2.resize(patch, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    edges = cv2.Canny(cv2.cvtColor(patch, cv2.COLOR_RGB2GRAY), 50, 150)
    height, width = edges.shape
    radius = min(height, width) / 2
    rows, columns = np.ogrid[:height, :width]
    edges[(rows - (height - 1) / 2) ** 2 + (columns - (width - 1) / 2) ** 2 > radius**2] = 0
    edge_share = np.count_nonzero(edges) / (math.pi * radius**2)
    votes = max(8, int(max(LINE_VOTES, BY_CHANCE * edge_share) * max(height, width)))
    lines = cv2.HoughLines(edges, 1, np.pi / 180, threshold=votes)
    if lines is None:
        return None
    # each line as the angle of its normal, longest first; folded four times round the
    # circle so that a card's two axes meet
    folded = complex(np.exp(4j * lines[:LINES_TOLD, 0, 1].astype(np.float64)).mean())
    if abs(folded) < SURE_DIRECTION:
        return None
    return -math.degrees(cmath.phase(folded)) / 4.0  # image y points down


def cut(picture: np.ndarray, box: Box, tilt: float, padding: float, way: str) -> np.ndarray:
    """The index's crop cut `way` (one of CUTS; measured, as cut where no tilt is told)."""
    if way == CUTS[1]:
        return turned_crop(picture, box, padding, tilt)
    measured = None
    if way == CUTS[2]:
        measured = upright_crop(picture, box, padding)
    elif way == CUTS[3]:
        measured = upright_crop(picture, box, padding, measure=line_tilt)
    return square_crop(picture, box, padding) if measured is None else measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synthetic", type=Path, default=Path("datasets/generated/scatter640"))
    parser.add_argument("--split", default="val")
    parser.add_argument("--models", type=Path, default=Path("models"))
    args = parser.parse_args()
    reader = CardReader.load(args.models)
    padding = reader.settings.crop_padding
    folder = args.synthetic / "detect"
    indices_right: Counter[tuple[str, str]] = Counter()
    cards_right: Counter[tuple[str, str]] = Counter()
    indices: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    for meta_path in sorted((folder / "meta" / args.split).glob("*.json")):
        meta = json.loads(meta_path.read_text())
        photo = open_photo(folder / meta["image"])
        picture = photo.picture(photo.long_side)
        fix = fix_for(photo.picture(reader.settings.detect_size))
        # (card, kind, its labelled boxes, its tilt) of each card showing a labelled index
        shown = []
        for card in meta["cards"]:
            boxes = [tuple(index["box"]) for index in card["indices"] if index["labelled"]]
            if boxes:
                tilt = card_tilt(card["quad"])
                kind = "tilted" if abs(tilt) > TILTED_FROM else "square"
                shown.append((card["code"], kind, boxes, tilt))
                cards[kind] += 1
                indices[kind] += len(boxes)
        if not shown:
            continue
        for way in CUTS:
            crops = [
                fix.apply(cut(picture, box, tilt, padding, way))
                for _, _, boxes, tilt in shown
                for box in boxes
            ]
            rows = iter(reader.crop_probabilities(crops, 0, fix))
            for code, kind, boxes, _ in shown:
                reads = [summarise(next(rows), reader.class_tables, 1) for _ in boxes]
                right = [guesses[0].card.code == code for guesses, _, _ in reads]
                indices_right[kind, way] += sum(right)
                cards_right[kind, way] += right[int(np.argmax([sureness(r) for r in reads]))]
    for kind in ("tilted", "square"):
        print(f"{kind}: {cards[kind]} cards, {indices[kind]} labelled indices")
        for way in CUTS:
            print(
                f"  {way}: cards right {cards_right[kind, way] / max(cards[kind], 1):.3f}, "
                f"indices right {indices_right[kind, way] / max(indices[kind], 1):.3f}"
            )


if __name__ == "__main__":
    main()
