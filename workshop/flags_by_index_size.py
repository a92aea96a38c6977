"""The reader on synthetic held-out scenes (`blackcat synth` output, such as the scattered cards
`blackcat calibrate --agreement` fits on), its cards counted by the height of their tallest
index box in the photo: how many it shows unflagged, how many of those are wrong, and how many
right ones it flags. Whether a calibration that knew an index's size could tell misreads better
(models/README.md, "Session 65").

    .venv/bin/python workshop/flags_by_index_size.py SYNTH_DIR [--models DIR]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from blackcat.vision.image_io import open_photo
from blackcat.vision.reader import MODELS_DIR, CardReader
from blackcat.vision.types import ReadCard
from blackcat.workshop.evaluation import judge_cards, load_scene_truths

HEIGHT_BINS = (0, 12, 16, 20, 24, 32, 48)
"""Lower edges of the index heights counted together (pixels of the photo)."""


def height_bin(card: ReadCard) -> int:
    """The bin (HEIGHT_BINS) of the card's tallest index found by a detector; 0 if none was."""
    heights = [index.box[3] - index.box[1] for index in card.indices if not index.in_gap]
    tallest = max(heights, default=0.0)
    return max(edge for edge in HEIGHT_BINS if edge <= tallest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", type=Path, help="a `blackcat synth` output folder")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="folder with the weights")
    args = parser.parse_args()
    reader = CardReader.load(args.models)
    right, right_flagged, unflagged, wrong_unflagged = (Counter[int]() for _ in range(4))
    for scene in load_scene_truths(args.scenes):
        read = reader.read(open_photo(scene.image))
        cards = [card for pile in read.piles for card in pile]
        for card, is_right in judge_cards(cards, [pile for pile in scene.piles if pile]):
            size = height_bin(card)
            right[size] += is_right
            right_flagged[size] += is_right and card.doubtful
            unflagged[size] += not card.doubtful
            wrong_unflagged[size] += not is_right and not card.doubtful
    print("index height (px): unflagged, wrong in 100 unflagged; right, share of them flagged")
    for size in sorted(right.keys() | unflagged.keys()):
        wrong_share = 100 * wrong_unflagged[size] / max(unflagged[size], 1)
        flagged_share = right_flagged[size] / max(right[size], 1)
        print(
            f"  >= {size:2d}: {unflagged[size]:5d}, {wrong_share:5.2f}; "
            f"{right[size]:5d}, {flagged_share:.3f}"
        )


if __name__ == "__main__":
    main()
