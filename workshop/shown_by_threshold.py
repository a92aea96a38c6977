"""Every card the reader shows on synthetic held-out scenes (`blackcat synth` output), with its
probability, counted as a drop threshold applied after the reader would count them: recall,
precision, cards shown that are not there, wrong cards unflagged and right cards flagged at each
threshold. Run with a models folder whose `calibration.json` has `drop_below` 0 to see what the
reader drops before its reads' agreement is taken in (models/HISTORY.md, "Session 66").

    .venv/bin/python workshop/shown_by_threshold.py SYNTH_DIR [--models DIR]
"""

from __future__ import annotations

from dataclasses import dataclass

from scenes_arguments import scenes_parser  # beside this script

from blackcat.vision.reader import CardReader
from blackcat.workshop.evaluation import judged_scene_cards, load_scene_truths

THRESHOLDS = (0.0, 0.2, 0.2984, 0.35, 0.4, 0.5)


@dataclass(frozen=True)
class ShownCard:
    """A card the reader showed: its probability, whether it is on the table, whether flagged."""

    probability: float
    right: bool
    flagged: bool


def summary(shown: list[ShownCard], on_the_table: int, threshold: float) -> str:
    """One line of counts for the cards at least `threshold` likely."""
    kept = [card for card in shown if card.probability >= threshold]
    right = sum(card.right for card in kept)
    silent = sum(not card.right and not card.flagged for card in kept)
    flagged = sum(card.right and card.flagged for card in kept)
    return (
        f"  >= {threshold:.4f}: recall {right / max(on_the_table, 1):.4f}, precision "
        f"{right / max(len(kept), 1):.4f}, not there {len(kept) - right}, wrong unflagged "
        f"{silent}, right flagged {flagged / max(right, 1):.3f}"
    )


def main() -> None:
    parser = scenes_parser(__doc__)
    args = parser.parse_args()
    reader = CardReader.load(args.models)
    shown: list[ShownCard] = []
    on_the_table = 0
    for scene in load_scene_truths(args.scenes):
        on_the_table += sum(len(pile) for pile in scene.piles)
        shown += [
            ShownCard(card.confidence, is_right, card.doubtful)
            for card, is_right in judged_scene_cards(reader, scene)
        ]
    print(f"{on_the_table} cards on the table, {len(shown)} shown")
    for threshold in THRESHOLDS:
        print(summary(shown, on_the_table, threshold))


if __name__ == "__main__":
    main()
