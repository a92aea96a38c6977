"""The classifier alone on the labelled indices of scattered cards (scenes of `blackcat synth
--layouts fan=1,singles=1`, their true boxes): how often its best card is right on cards tilted
by more than TILTED_FROM degrees and on the others, read from the crop the reader cuts (square
round the box), from that crop turned upright by the card's true tilt, and from the crop
`deskew` turns by the tilt it measures. A card counts as read right where its surest index
reads it right. What a classifier that reads tilted glyphs as well as upright ones could gain,
and what measuring the tilt better could.

    .venv/bin/python workshop/tilted_indices.py [--synthetic datasets/generated/scatter640]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np

from blackcat.vision.colour import fix_for
from blackcat.vision.deskew import turned_crop, upright_crop
from blackcat.vision.image_io import open_photo
from blackcat.vision.reader import CardReader, square_crop
from blackcat.vision.types import Box

TILTED_FROM = 15.0
PADDING = 0.15  # as the reader's crop_padding
CUTS = ("as cut", "turned by the true tilt", "turned by the measured tilt")


def card_tilt(quad: list[list[float]]) -> float:
    """The card's tilt, anticlockwise as seen, within (-45, 45] degrees: its quad's top edge."""
    (x1, y1), (x2, y2) = quad[0], quad[1]
    degrees = -math.degrees(math.atan2(y2 - y1, x2 - x1))
    return (degrees + 45.0) % 90.0 - 45.0


def cuts(picture: np.ndarray, box: Box, tilt: float) -> dict[str, np.ndarray]:
    """The index's crop in each of CUTS (the measured one only where deskew tells a tilt)."""
    out = {
        CUTS[0]: square_crop(picture, box, PADDING),
        CUTS[1]: turned_crop(picture, box, PADDING, tilt),
    }
    measured = upright_crop(picture, box, PADDING)
    out[CUTS[2]] = out[CUTS[0]] if measured is None else measured
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synthetic", type=Path, default=Path("datasets/generated/scatter640"))
    parser.add_argument("--split", default="val")
    parser.add_argument("--models", type=Path, default=Path("models"))
    args = parser.parse_args()
    reader = CardReader.load(args.models)
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
        for card in meta["cards"]:
            labelled = [index for index in card["indices"] if index["labelled"]]
            if not labelled:
                continue
            tilt = card_tilt(card["quad"])
            kind = "tilted" if abs(tilt) > TILTED_FROM else "square"
            cards[kind] += 1
            indices[kind] += len(labelled)
            crops = [cuts(picture, tuple(index["box"]), tilt) for index in labelled]
            for cut in CUTS:
                reads = reader._classified([fix.apply(crop[cut]) for crop in crops], 0)
                right = [guesses[0].card.code == card["code"] for guesses, _, _ in reads]
                indices_right[kind, cut] += sum(right)
                sureness = [guesses[0].probability * index for guesses, index, _ in reads]
                cards_right[kind, cut] += right[int(np.argmax(sureness))]
    for kind in ("tilted", "square"):
        print(f"{kind}: {cards[kind]} cards, {indices[kind]} labelled indices")
        for cut in CUTS:
            print(
                f"  {cut}: cards right {cards_right[kind, cut] / max(cards[kind], 1):.3f}, "
                f"indices right {indices_right[kind, cut] / max(indices[kind], 1):.3f}"
            )


if __name__ == "__main__":
    main()
