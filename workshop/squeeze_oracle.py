"""The reader on the squeezed scenes of a `blackcat synth` output (camera fault `squeeze`), each
read as it is and unsqueezed first by the squeeze the scene was drawn with: how many cards the
reader's own search for a squeeze leaves behind a reader that knew it (models/HISTORY.md,
"Session 66").

    .venv/bin/python workshop/squeeze_oracle.py SYNTH_DIR [--models DIR]
"""

from __future__ import annotations

import json

import numpy as np
from PIL import Image
from scenes_arguments import scenes_parser  # beside this script

from blackcat.vision.reader import CardReader
from blackcat.workshop.evaluation import judge_cards


def right_cards(reader: CardReader, picture: Image.Image, piles: list[list[str]]) -> int:
    """How many of the cards the reader reads in the picture lie on the table."""
    read = reader.read(np.asarray(picture))
    cards = [card for pile in read.piles for card in pile]
    return sum(is_right for _, is_right in judge_cards(cards, piles))


def unsqueezed(picture: Image.Image, squeeze: tuple[float, float]) -> Image.Image:
    """The picture stretched back by the squeeze (across, down) it was drawn with."""
    across, down = squeeze
    size = (round(picture.width / across), round(picture.height / down))
    return picture.resize(size, Image.Resampling.BICUBIC)


def main() -> None:
    parser = scenes_parser(__doc__)
    args = parser.parse_args()
    reader = CardReader.load(args.models)
    detect = args.scenes / "detect"
    cards = as_it_is = knowing = 0
    for meta_path in sorted((detect / "meta" / "val").glob("*.json")):
        meta = json.loads(meta_path.read_text())
        squeeze = (meta.get("realism") or {}).get("squeeze")
        if not squeeze:
            continue
        piles = [pile for pile in meta["piles"] if pile]
        picture = Image.open(detect / meta["image"]).convert("RGB")
        right = right_cards(reader, picture, piles)
        right_knowing = right_cards(reader, unsqueezed(picture, squeeze), piles)
        count = sum(len(pile) for pile in piles)
        print(
            f"{meta_path.stem}: squeeze {squeeze}, {count} cards, right {right} / {right_knowing}"
        )
        cards, as_it_is, knowing = cards + count, as_it_is + right, knowing + right_knowing
    print(
        f"squeezed scenes' cards: {cards}; read right as they are {as_it_is}, unsqueezed {knowing}"
    )


if __name__ == "__main__":
    main()
