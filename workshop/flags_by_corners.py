"""The reader on labelled photos (real-photo sets, `real_faults.py` sets), its cards counted by
how many corner indices it read of each and how many of those read the card it gave: right,
right but flagged, and wrong (read where the labels have no such card). What a calibration that
knew a card read at three or four agreeing corners (four-index decks) could spare the player
(models/HISTORY.md, "Session 58").

    .venv/bin/python workshop/flags_by_corners.py SET [SET ...] [--models DIR]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from blackcat.vision.image_io import open_photo
from blackcat.vision.reader import MODELS_DIR, CardReader
from blackcat.vision.types import ReadCard
from blackcat.workshop.evaluation import load_labels, matched_reads

Key = tuple[int, int]  # corners read, and of them reading the card given (4: four or more)


def corners_key(card: ReadCard) -> Key:
    agreeing = sum(index.card == card.card for index in card.indices)
    return min(len(card.indices), 4), min(agreeing, 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="folders with images/ and labels.json")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="folder with the weights")
    args = parser.parse_args()
    reader = CardReader.load(args.models)
    right, flagged, wrong = Counter[Key](), Counter[Key](), Counter[Key]()
    for folder in args.sets:
        labelled = load_labels(folder)
        rank_only = any(card.code.endswith("?") for cards in labelled.values() for card in cards)
        for name, labels in sorted(labelled.items()):
            photo = reader.read(open_photo(folder / "images" / name), decks=1)
            reads = [card for pile in photo.piles for card in pile]
            for card, is_right in matched_reads(reads, labels, rank_only=rank_only)[0]:
                key = corners_key(card)
                if is_right:
                    right[key] += 1
                    flagged[key] += card.doubtful
                else:
                    wrong[key] += 1
    print("corners read, agreeing: right (flagged), wrong")
    for key in sorted(right.keys() | wrong.keys()):
        print(f"  {key[0]}, {key[1]}: {right[key]} ({flagged[key]}), {wrong[key]}")
    print(f"right cards flagged: {flagged.total()} of {right.total()}")


if __name__ == "__main__":
    main()
