"""The reader on synthetic held-out scenes (`blackcat synth` output, such as the scattered cards
`blackcat calibrate --agreement` fits on), its cards counted by the height of their tallest
index box in the photo, or by how square their squarest index box stands (`--by aspect`: short
side over long; an upright index is narrow, one turned 45 degrees as wide as tall): how many it
shows unflagged, how many of those are wrong, and how many right ones it flags. Whether a
calibration that knew an index's size or tilt could tell misreads better (models/HISTORY.md,
"Session 65" and "Session 66").

    .venv/bin/python workshop/flags_by_index_size.py SYNTH_DIR [--models DIR] [--by aspect]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from scenes_arguments import scenes_parser  # beside this script

from blackcat.vision.reader import CardReader
from blackcat.vision.types import Box, ReadCard
from blackcat.workshop.evaluation import judged_scene_cards, load_scene_truths

HEIGHT_BINS = (0, 12, 16, 20, 24, 32, 48)
"""Lower edges of the index heights counted together (pixels of the photo)."""

ASPECT_BINS = (0.0, 0.5, 0.65, 0.8)
"""Lower edges of the index boxes' short side over long side counted together."""


def _found_boxes(card: ReadCard) -> list[Box]:
    """The boxes of the card's indices a detector found (not those read in a pile's gap)."""
    return [index.box for index in card.indices if not index.in_gap]


def height_bin(card: ReadCard) -> float:
    """The bin (HEIGHT_BINS) of the card's tallest index found by a detector; 0 if none was."""
    tallest = max((box[3] - box[1] for box in _found_boxes(card)), default=0.0)
    return max(edge for edge in HEIGHT_BINS if edge <= tallest)


def aspect_bin(card: ReadCard) -> float:
    """The bin (ASPECT_BINS) of the card's squarest index box found by a detector; 0 if none."""
    squarest = max(
        (
            min(x2 - x1, y2 - y1) / max(x2 - x1, y2 - y1, 1e-6)
            for x1, y1, x2, y2 in _found_boxes(card)
        ),
        default=0.0,
    )
    return max(edge for edge in ASPECT_BINS if edge <= squarest)


BINNINGS: dict[str, tuple[Callable[[ReadCard], float], str]] = {
    "height": (height_bin, "index height (px)"),
    "aspect": (aspect_bin, "squarest index box, short side / long"),
}


def main() -> None:
    parser = scenes_parser(__doc__)
    parser.add_argument("--by", choices=sorted(BINNINGS), default="height", help="what to count by")
    args = parser.parse_args()
    binned, label = BINNINGS[args.by]
    reader = CardReader.load(args.models)
    right, right_flagged, unflagged, wrong_unflagged = (Counter[float]() for _ in range(4))
    for scene in load_scene_truths(args.scenes):
        for card, is_right in judged_scene_cards(reader, scene):
            edge = binned(card)
            right[edge] += is_right
            right_flagged[edge] += is_right and card.doubtful
            unflagged[edge] += not card.doubtful
            wrong_unflagged[edge] += not is_right and not card.doubtful
    print(f"{label}: unflagged, wrong in 100 unflagged; right, share of them flagged")
    for edge in sorted(right.keys() | unflagged.keys()):
        wrong_share = 100 * wrong_unflagged[edge] / max(unflagged[edge], 1)
        flagged_share = right_flagged[edge] / max(right[edge], 1)
        print(
            f"  >= {edge:5g}: {unflagged[edge]:5d}, {wrong_share:5.2f}; "
            f"{right[edge]:5d}, {flagged_share:.3f}"
        )


if __name__ == "__main__":
    main()
