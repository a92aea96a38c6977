"""Where the reader loses a `blackcat synth` output's cards: never found (no search of the photo
boxed any of the card's labelled indices), or found and still not read right (the classifier's
doubt or misread, or the layout). Each kind's count and its cards' index heights (models/HISTORY.md,
"Session 70").

    .venv/bin/python workshop/lost_cards.py SYNTH_DIR [--models DIR] [--most N]

A card counts as found where one of its labelled index boxes shares at least FOUND_OVERLAP of
the smaller box with a box of the detector's first look (`CardReader.detect`) or of the read
kept (every search, stretch and second look behind it).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
from scenes_arguments import scenes_parser  # beside this script

from blackcat.vision.image_io import open_photo
from blackcat.vision.layout import overlap
from blackcat.vision.reader import CardReader
from blackcat.vision.types import Box
from blackcat.vision.unread_faces import read_index_boxes

FOUND_OVERLAP = 0.5
KINDS = ("read right", "found, not read right", "never found")


def labelled_boxes(card: dict[str, Any]) -> list[Box]:
    """The boxes of a drawn card's (`meta["cards"]`'s entry) labelled indices: none where all
    lie hidden under other cards."""
    return [index["box"] for index in card["indices"] if index.get("labelled")]


def card_kind(labelled: list[Box], read_right: bool, boxes: list[Box]) -> str:
    """What became of one drawn card: read right, found at one of its `labelled` index boxes by
    one of the reader's `boxes`, or never found."""
    if read_right:
        return KINDS[0]
    found = any(overlap(index, box) >= FOUND_OVERLAP for index in labelled for box in boxes)
    return KINDS[1] if found else KINDS[2]


def took_one(codes: Counter[str], code: str) -> bool:
    """Whether a read card of `code` is left in `codes`, taking it (each read card counts once)."""
    if codes[code] <= 0:
        return False
    codes[code] -= 1
    return True


def main() -> None:
    parser = scenes_parser(__doc__)
    parser.add_argument("--most", type=int, default=None, help="read the first N scenes only")
    args = parser.parse_args()
    reader = CardReader.load(args.models)
    detect = args.scenes / "detect"
    heights: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for meta_path in sorted((detect / "meta" / "val").glob("*.json"))[: args.most]:
        meta = json.loads(meta_path.read_text())
        photo = open_photo(detect / meta["image"])
        first_look, _, _ = reader.detect(photo)
        read = reader.read(photo)
        boxes = [*first_look, *(tuple(box) for box in read_index_boxes(read))]
        read_codes = Counter(card.card.code for pile in read.piles for card in pile)
        for card in meta["cards"]:
            if labelled := labelled_boxes(card):
                kind = card_kind(labelled, took_one(read_codes, card["code"]), boxes)
                heights[kind].append(max(max(x2 - x1, y2 - y1) for x1, y1, x2, y2 in labelled))
    for kind in KINDS:
        sizes = heights[kind]
        spread = np.percentile(sizes, (10, 50, 90)).round(1).tolist() if sizes else []
        print(f"{kind}: {len(sizes)} cards, index heights (10th, 50th, 90th percentile) {spread}")


if __name__ == "__main__":
    main()
