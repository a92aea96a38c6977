"""Training crops for the suit-shape classifier: the card crops of `blackcat synth` sets, each as
`ink_shape` makes it (dark ink on white, whatever its ink's colour), filed by its suit alone.

The reader reads a card's suit from this classifier where the photo's colours say nothing of
the suits (a deck printed in one light ink, read through its negative; a black-and-white photo):
it learns a suit's shape from every deck and style, red suits as dark as black ones. A crop of
a dark-faced deck is turned to its negative first, as the reader sees such a deck. `none`
crops are left out: the card classifier tells an index from anything else.

    .venv/bin/python workshop/suit_shapes.py --out datasets/generated/suits35 \\
        datasets/generated/s35

writes OUT/{train,val}/{S,H,D,C}/<SET>_<NAME>.png (session 35).
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from PIL import Image

from blackcat.vision.classes import NOT_AN_INDEX, parse_class_name
from blackcat.vision.colour import ink_shape

DARK_PAPER = 100
"""A crop whose median lightness is below this is of a dark-faced card: read as its negative."""


def shape_crop(crop: np.ndarray) -> np.ndarray:
    """A training crop (RGB) as the suit-shape classifier sees it (`ink_shape`), a dark-faced
    card's as its negative's."""
    if np.median(crop[..., :3].mean(axis=2)) < DARK_PAPER:
        crop = 255 - crop[..., :3]
    return ink_shape(crop)


def suit_folder(class_name: str) -> str | None:
    """The suit letter a card class is filed under, None for `none`."""
    if class_name == NOT_AN_INDEX:
        return None
    card = parse_class_name(class_name).card
    return card.suit.value if card else None


def _convert(job: tuple[Path, Path]) -> None:
    source, target = job
    crop = np.asarray(Image.open(source).convert("RGB"))
    Image.fromarray(shape_crop(crop)).save(target)


def jobs(sets: list[Path], out: Path) -> list[tuple[Path, Path]]:
    """(source crop, target file) for every card crop of the sets' classify folders."""
    found: list[tuple[Path, Path]] = []
    for data in sets:
        for class_dir in sorted((data / "classify").glob("*/*")):
            suit = suit_folder(class_dir.name)
            if suit is None:
                continue
            split = class_dir.parent.name
            target_dir = out / split / suit
            target_dir.mkdir(parents=True, exist_ok=True)
            found += [
                (crop, target_dir / f"{data.name}_{crop.stem}.png")
                for crop in sorted(class_dir.glob("*.jpg"))
            ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="+", type=Path, help="blackcat synth output folders")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    todo = jobs(args.sets, args.out)
    with ProcessPoolExecutor(args.workers) as pool:
        list(pool.map(_convert, todo, chunksize=256))
    counts = Counter(f"{target.parent.parent.name}/{target.parent.name}" for _, target in todo)
    print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
