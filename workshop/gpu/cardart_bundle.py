"""Carry the rendered card art to a lent GPU machine, which has no rsvg-convert and no internet.

    python workshop/gpu/cardart_bundle.py pack OUT      # here: the cache's art, as WebP, into OUT
    python workshop/gpu/cardart_bundle.py unpack IN     # there: back into the cache, as PNG

The rendered decks are 116 MB of PNG; WebP at quality 95 (alpha kept lossless) is about a
quarter of that, which fits the device's 64 MiB working tree beside the repository. The slight
loss is far below the blur and JPEG noise that every rendered scene gets anyway. The licence
files of the card packages travel as they are, so that `blackcat synth` writes its credits.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import cv2

from blackcat.workshop.synth.cardart import cache_root

WEBP_QUALITY = 95


def pack(out: Path) -> None:
    source = cache_root()
    decks = sorted(p.parent for p in (source / "decks").glob("*/.complete"))
    if not decks:
        raise SystemExit(f"no rendered decks under {source / 'decks'}: run `blackcat synth` once")
    for deck in decks:
        target = out / "decks" / deck.name
        target.mkdir(parents=True, exist_ok=True)
        for card in deck.glob("*.png"):
            image = cv2.imread(str(card), cv2.IMREAD_UNCHANGED)
            cv2.imwrite(
                str(target / f"{card.stem}.webp"), image, [cv2.IMWRITE_WEBP_QUALITY, WEBP_QUALITY]
            )
        for kept in ("indices.json", ".complete"):
            if (deck / kept).exists():
                shutil.copy2(deck / kept, target / kept)
    root = source / "root"
    for kept in [*root.glob(".complete-*"), *root.glob("usr/share/doc/*/copyright")]:
        target = out / "root" / kept.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(kept, target)
    print(f"{len(decks)} decks packed into {out}")


def unpack(bundle: Path) -> None:
    cache = cache_root()
    for card in bundle.glob("decks/*/*.webp"):
        target = cache / "decks" / card.parent.name / f"{card.stem}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(target), cv2.imread(str(card), cv2.IMREAD_UNCHANGED))
    for kept in bundle.rglob("*"):
        if kept.is_file() and kept.suffix != ".webp":
            target = cache / kept.relative_to(bundle)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(kept, target)
    print(f"card art unpacked into {cache}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in {"pack", "unpack"}:
        raise SystemExit(__doc__)
    (pack if sys.argv[1] == "pack" else unpack)(Path(sys.argv[2]))
